"""Shared test set-up: the other projects' tests that robotrules answers differently.

`DEVIATIONS` lists, by test id, every test of Protego's, Scrapy's and CPython's suites that
does not pass against the drop-ins, with the reason (also in `docs/python.md`). Each is
marked as a strict expected failure: should it start passing, the run fails, so the list
stays exact.
"""

from __future__ import annotations

import pytest

_GROUPING = (
    "Protego ends a group's user-agent lines at any other line; under RFC 9309 §2.1 (and in "
    "Google's reference) only a rule (allow/disallow) ends them, so `User-agent: one` / "
    "`Request-rate: 1/10s` / `User-agent: two` is one group for both crawlers"
)
_COLONLESS = (
    "a colon-less line: RFC 9309 §2.2 requires `key: value`; Google's reference (the `google` "
    "profile) accepts a space instead of the colon, on a line of two words only"
)
_AGENT_PREFIX = (
    "Protego 0.7 applies a group whose token is a `-`-bounded prefix of the crawler's name; "
    "RFC 9309 §2.2.1 and Google's reference match the whole product token (ignoring case)"
)

DEVIATIONS: dict[str, str] = {
    # Protego 0.7.0, tests/test_protego.py
    "test_protego_suite.py::TestProtego::test_malformed_disallow": (
        "misspelt keys (`Dissallow`, `Disalow`, …): RFC 9309 §2.2 knows `disallow` only; "
        "Google's reference accepts these typos and so does profile='google' (passes there)"
    ),
    "test_protego_suite.py::TestProtego::test_generosity_case_insensitivity": _COLONLESS
    + " (passes with profile='google')",
    "test_protego_suite.py::TestProtego::test_generosity_tab_separated": _COLONLESS
    + " (passes with profile='google')",
    "test_protego_suite.py::TestProtego::test_generosity": _COLONLESS
    + "; `user agent harry potter` has a key of two words, which neither reads",
    "test_protego_suite.py::TestProtego::test_generosity_visit_time": _COLONLESS
    + "; `visit-time 0200 0630` has three words",
    "test_protego_suite.py::TestProtego::test_generosity_sitemap": (
        "`Sitemap https://…` without a colon: the first colon is the URL's, so RFC 9309 §2.2 "
        "and Google's reference read the key `Sitemap https`, not a sitemap"
    ),
    "test_protego_suite.py::TestProtego::test_empty_user_agent_line": (
        "a colon-less, value-less `user agent` line: not a user-agent line under RFC 9309 "
        "§2.2 nor in Google's reference, so `Disallow: /y` stays in alpha's group"
    ),
    "test_protego_suite.py::TestProtego::test_index_html_is_directory": (
        "`Allow: /dir/index.html` also allowing `/dir/` is Google's reference's rewrite, "
        "not RFC 9309 (passes with profile='google')"
    ),
    "test_protego_suite.py::TestProtego::test_request_rate": _GROUPING,
    "test_protego_suite.py::TestProtego::test_request_rate_bare_number": _GROUPING,
    "test_protego_suite.py::TestProtego::test_no_request_rate": _GROUPING,
    "test_protego_suite.py::TestProtego::test_visit_time": _GROUPING,
    "test_protego_suite.py::TestProtego::test_grouping_unknown_keys": _GROUPING
    + " (an unknown key does not split the group either)",
    "test_protego_suite.py::TestProtego::test_unicode_url_and_useragent": (
        "`User-Agent: Jävla-Foobot`: a product token is ASCII letters, digits, `_` and `-` "
        "(RFC 9309 §2.2.1), so the token read is `J`, and `jävla-fanbot` is `j` too"
    ),
    "test_protego_suite.py::TestProtego::test_line_endings": (
        "asserts Protego's private counters `_total_line_seen` and `_total_directive_seen`"
    ),
    "test_protego_suite.py::TestProtego::test_special_symbols_dual_behaviour": (
        "`Disallow: /x/abc$`: a final `$` anchors the pattern (RFC 9309 §2.2.3, Google's "
        "reference), so it matches `/x/abc` only, not the path `/x/abc$`"
    ),
    "test_protego_suite.py::test_equal_sign_in_path[https://example.com/1/filter/page%3D5/-True]": (
        "`%3D` is the reserved `=` percent-encoded: RFC 9309 §2.2.2 and Google's reference "
        "compare it as written (RFC 3986 §6.2.2.2 decodes unreserved characters only), so "
        "`page%3D5` does not match the pattern's `page=`"
    ),
    # Protego 0.7.0, tests/test_on_google_spec.py
    "test_protego_suite.py::test_google_spec__user_agent_precedence[/group1-hedwig-news2]": _AGENT_PREFIX,
    "test_protego_suite.py::test_google_spec__user_agent_precedence[/group3-hedwig-new]": _AGENT_PREFIX,
    "test_protego_suite.py::test_google_spec__user_agent_precedence[/group3-hedwig-images]": _AGENT_PREFIX,
    "test_protego_suite.py::test_google_spec__user_agent_boundary_matching[googlebot-googlebot-news-True]": _AGENT_PREFIX,
    "test_protego_suite.py::test_google_spec__user_agent_boundary_matching[google-googlebot-mobile-True]": _AGENT_PREFIX,
    # CPython's Lib/test/test_robotparser.py (3.11)
    "test_cpython_robotparser.py::UserAgentGoogleMobileTest::test_bad_urls": (
        "the standard library applies the first record whose agent is a substring of the "
        "crawler's name (`Googlebot` for `Googlebot-Mobile`); RFC 9309 §2.2.1 matches the whole "
        "token, so `Googlebot-Mobile`'s own group (`Allow: /`) applies"
    ),
    "test_cpython_robotparser.py::UseFirstUserAgentWildcardTest::test_good_urls": (
        "the standard library obeys the first `*` group only; RFC 9309 §2.2.1 merges every "
        "group that names the crawler (here both `*` groups), so `/another/path` is disallowed"
    ),
    "test_cpython_robotparser.py::StringFormattingTest::test_string_formatting": (
        "`str(parser)` renders the standard library's own record objects; robotrules keeps "
        "no such objects (`robots.explain()` and `lint()` say what each line means)"
    ),
    "test_cpython_robotparser.py::PasswordProtectedSiteTestCase::testPasswordProtectedSite": (
        "a 403 for robots.txt: RFC 9309 §2.3.1.3 makes every 4xx (401 and 403 included) "
        "'unavailable', so everything is allowed; the standard library disallows everything"
    ),
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every listed deviation as a strict expected failure, with its reason.

    Strict marks catch a listed test that starts passing; a listed test that no longer
    exists in a file that was collected whole (renamed upstream, another Python's suite) fails
    the run here, so the list stays exact either way.
    """
    chosen = config.option.keyword or config.option.markexpr or any("::" in a for a in config.args)
    seen: set[str] = set()
    files: set[str] = set()
    for item in items:
        test_id = item.path.name + "::" + item.nodeid.split("::", 1)[-1]
        files.add(item.path.name)
        reason = DEVIATIONS.get(test_id)
        if reason is not None:
            seen.add(test_id)
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
    stale = [key for key in DEVIATIONS if key.split("::")[0] in files and key not in seen]
    if stale and not chosen:
        raise pytest.UsageError(f"listed deviations that match no collected test: {stale}")


def pytest_configure(config: pytest.Config) -> None:
    """Protego's suite marks one test with pytest-timeout's `timeout`, not installed here."""
    config.addinivalue_line("markers", "timeout(seconds): pytest-timeout's mark (unused here)")

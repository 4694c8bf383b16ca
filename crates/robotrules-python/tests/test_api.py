"""The Python API of `robotrules`: parsing, crawlers, explanations, lint, errors, threads."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import robotrules
from robotrules import Crawler, InvalidAgent, InvalidUrl, Robots

BODY = b"""User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2.5
Request-rate: 1/10s

User-agent: FooBot
Disallow: /*.gif$

Sitemap: https://example.com/sitemap.xml
"""


def test_parse_and_ask() -> None:
    robots = Robots.parse(BODY)
    assert robots.profile == "rfc9309"
    assert not robots.is_allowed("ExampleBot", "https://example.com/private/x")
    assert robots.is_allowed("ExampleBot", "https://example.com/private/press/1")
    assert robots.is_allowed("ExampleBot", "/public")
    assert not robots.is_allowed("foobot", "/a/b.gif")
    assert robots.is_allowed("foobot", "/a/b.gif?size=2")
    assert robots.sitemaps == ["https://example.com/sitemap.xml"]
    assert robots.bytes_read == len(BODY)


@pytest.mark.parametrize(
    "body",
    [BODY, BODY.decode(), bytearray(BODY), memoryview(BODY)],
    ids=["bytes", "str", "bytearray", "memoryview"],
)
def test_every_body_type_reads_the_same(body: object) -> None:
    robots = Robots.parse(body)  # type: ignore[arg-type]
    assert robots.crawler("ExampleBot").allowed_many(["/private/x", "/x"]) == [False, True]


def test_a_body_that_is_not_text_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Robots.parse(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Robots.parse(None)  # type: ignore[arg-type]


def test_profiles() -> None:
    body = b"User-agent: *\nDisallow: /a\nAllow: /a/b\n"
    # Longest match (RFC 9309 §2.2.2) against the first match (1994).
    assert Robots.parse(body, profile="rfc9309").is_allowed("Bot", "/a/b/c")
    assert Robots.parse(body, profile="google").is_allowed("Bot", "/a/b/c")
    assert not Robots.parse(body, profile="legacy1994").is_allowed("Bot", "/a/b/c")
    assert robotrules.PROFILES == ("rfc9309", "google", "legacy1994")
    with pytest.raises(ValueError, match="unknown profile `rfc`"):
        Robots.parse(body, profile="rfc")  # type: ignore[arg-type]


def test_the_crawler_handle() -> None:
    bot = Robots.parse(BODY).crawler("ExampleBot")
    assert isinstance(bot, Crawler)
    assert bot.name == "ExampleBot"
    assert bot.selection == "global"
    assert bot.profile == "rfc9309"
    assert bot.crawl_delay == 2.5
    rate = bot.request_rate
    assert rate is not None and (rate.requests, rate.seconds, rate.interval) == (1, 10, 10.0)
    assert bot.sitemaps == ["https://example.com/sitemap.xml"]
    assert Robots.parse(BODY).crawler("FooBot").crawl_delay is None
    assert Robots.parse(BODY).crawler("FooBot").selection == "exact"


def test_allowed_many_takes_any_iterable_and_keeps_order() -> None:
    bot = Robots.parse(BODY).crawler("ExampleBot")
    urls = [f"https://example.com/private/{i}" if i % 3 else f"/ok/{i}" for i in range(1000)]
    expected = [bot.is_allowed(u) for u in urls]
    assert bot.allowed_many(urls) == expected
    assert bot.allowed_many(u for u in urls) == expected
    assert bot.allowed_many([]) == []
    with pytest.raises(InvalidUrl):
        bot.allowed_many(["/x", "not a url"])
    with pytest.raises(TypeError):
        bot.allowed_many([b"/x"])  # type: ignore[list-item]


def _one_at_a_time(bot: Crawler, urls: list[str]) -> list[bool] | type[BaseException]:
    """`[bot.is_allowed(u) for u in urls]`, or the type of what it raises."""
    try:
        return [bot.is_allowed(u) for u in urls]
    except (InvalidUrl, TypeError) as error:
        return type(error)


MIXED_URLS = [
    "https://example.com/private/x",
    "https://example.com/private/press/1?q=1#f",
    "/public",
    "/a/b.gif",
    "/a/b.gif?size=2",
    "HTTPS://Example.COM:443/private/%7e?x=http://y",
    "https://example.com/caf\u00e9/private/",
    "https://m\u00fcller.example/private/\u00fc",
    "/private/\ud800",
    "https://example.com/\udcff/private",
    "https://example.com/a/../private/x",
    "/private/press/\t1",
    "https://example.com/a b?c d",
]


@pytest.mark.parametrize("profile", ["rfc9309", "google", "legacy1994"])
@pytest.mark.parametrize(
    "urls",
    [
        [],
        MIXED_URLS,
        MIXED_URLS * 300,
        ["/private/\0x", "/public"],
        ["/public", "/private\0", "\0", "/x"],
        ["\0"],
        [""],
        ["/x", "", "/y"],
        ["/a\0\0b"] * 3,
        ["/public", "not a url", "/private/x", "also bad"],
        ["https://example.com/private/x"] * 5000 + ["example.com/a"] + ["/x"] * 10,
        ["/private/\ud800\0/x", "/\udfff"],
    ],
    ids=lambda urls: f"{len(urls)} URLs",
)
def test_allowed_many_answers_as_is_allowed_one_at_a_time(profile: str, urls: list[str]) -> None:
    bot = Robots.parse(BODY, profile=profile).crawler("ExampleBot")
    expected = _one_at_a_time(bot, urls)
    if isinstance(expected, list):
        assert bot.allowed_many(urls) == expected
        assert bot.allowed_many(iter(urls)) == expected
        assert bot.allowed_many(tuple(urls)) == expected
        assert bot.allowed_many(u for u in urls) == expected
    else:
        # The same error as the first bad URL gives on its own.
        first_bad = next(u for u in urls if not isinstance(_one_at_a_time(bot, [u]), list))
        with pytest.raises(InvalidUrl) as one:
            bot.is_allowed(first_bad)
        for given in (urls, iter(urls)):
            with pytest.raises(InvalidUrl) as many:
                bot.allowed_many(given)
            assert str(many.value) == str(one.value)


def test_allowed_many_refuses_what_is_not_a_str_as_before() -> None:
    bot = Robots.parse(BODY).crawler("ExampleBot")

    class Url(str):
        pass

    assert bot.allowed_many([Url("/private/x"), "/x"]) == [False, True]
    for bad in ([b"/x"], ["/x", 1], ["/x", None, "not a url"], ["not a url", b"/x"]):
        for given in (bad, iter(bad)):
            with pytest.raises(TypeError):
                bot.allowed_many(given)  # type: ignore[arg-type]

    def failing() -> object:
        yield "/x"
        yield b"/y"
        raise RuntimeError("not reached")

    with pytest.raises(TypeError):
        bot.allowed_many(failing())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        bot.allowed_many(3)  # type: ignore[arg-type]


def test_allowed_many_reads_the_list_before_judging() -> None:
    """Another thread changing the list while the first chunks are judged changes nothing."""
    bot = Robots.parse(BODY).crawler("ExampleBot")
    urls = ["/private/x", "/x"] * 5000
    expected = [bot.is_allowed(u) for u in urls]
    stop = False

    def shuffle() -> None:
        while not stop:
            urls.reverse()

    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(shuffle)
        try:
            for _ in range(20):
                verdicts = bot.allowed_many(urls)
                assert verdicts in (expected, expected[::-1])
        finally:
            stop = True


def test_explain() -> None:
    robots = Robots.parse(b"user-agent: *\ndisallow: /a\nallow: /a/b\n")
    why = robots.crawler("ExampleBot").explain("/a/b/c")
    assert why.allowed and bool(why)
    assert why.reason == "rule-matched"
    assert why.profile == "rfc9309"
    assert why.line == 3 and why.rule == "/a/b"
    assert why.decided_by is not None and why.decided_by.kind == "allow"
    assert [m.line for m in why.matches] == [3, 2]
    assert why.group_lines == [1]
    assert robots.explain("ExampleBot", "/c").reason == "no-matching-rule"
    assert robots.explain("ExampleBot", "/c").line is None
    assert robots.explain("ExampleBot", "/robots.txt").reason == "robots-txt-implicitly-allowed"
    assert Robots.parse(b"").explain("Bot", "/").reason == "no-group"


def test_diagnostics_and_lint() -> None:
    robots = Robots.parse(b"disallow: /x\nuser-agent: *\ndissallow: /y\n")
    found = [(d.code, d.line, d.severity) for d in robots.diagnostics]
    assert found == [("rule-outside-group", 1, "error"), ("misspelt-key", 3, "error")]
    assert robots.diagnostics[1].start == 27 and robots.diagnostics[1].end == 36
    findings = robotrules.lint(b"user-agent: *\ndissallow: /x\n")
    assert findings[0].code == "misspelt-key"
    assert (findings[0].line, findings[0].column, findings[0].severity) == (2, 1, "error")
    assert "disallow" in findings[0].message
    assert all(f.severity != "error" for f in robotrules.lint("User-agent: *\nDisallow: /x\n"))
    with pytest.raises(ValueError, match="unknown profile"):
        robotrules.lint(b"", profile="nope")  # type: ignore[arg-type]


def test_errors_are_value_errors_with_the_cli_messages() -> None:
    robots = Robots.parse(BODY)
    assert issubclass(InvalidAgent, ValueError) and issubclass(InvalidUrl, ValueError)
    with pytest.raises(InvalidAgent) as agent:
        robots.crawler("ExampleBot/1.0")
    # The Rust error's Display, as `robotrules check` prints it.
    assert str(agent.value) == (
        'invalid crawler name "ExampleBot/1.0": a product token has only letters, digits, '
        "`_` and `-` (RFC 9309 §2.2.1); pass `ExampleBot`"
    )
    # The model's suggested token rides along; a browser's header gets none.
    assert agent.value.suggestion == "ExampleBot"
    with pytest.raises(InvalidAgent) as browser:
        robots.crawler("Chrome/120.0 Safari/537.36")
    assert browser.value.suggestion is None
    with pytest.raises(InvalidUrl) as url:
        robots.is_allowed("ExampleBot", "example.com/x")
    assert str(url.value).startswith('cannot read URL "example.com/x": ')
    # Google's reading takes any crawler name and any URL.
    google = Robots.parse(BODY, profile="google")
    assert google.is_allowed("Example Bot/1.0", "/public")


def test_crawler_token_reads_full_user_agent_headers() -> None:
    googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    assert robotrules.crawler_token(googlebot) == "Googlebot"
    assert robotrules.crawler_token("Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0") is None


def test_objects_are_immutable() -> None:
    robots = Robots.parse(BODY)
    with pytest.raises(AttributeError):
        robots.profile = "google"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        robots.crawler("Bot").name = "Other"  # type: ignore[misc]


def test_shared_across_threads() -> None:
    robots = Robots.parse(BODY)
    bot = robots.crawler("ExampleBot")
    urls = [f"/private/{i}" if i % 2 else f"/public/{i}" for i in range(2000)]
    expected = [bool(i % 2 == 0) for i in range(2000)]

    def work(n: int) -> bool:
        return (
            bot.allowed_many(urls) == expected
            and robots.is_allowed(f"Bot{n % 20}", "/private/x") is False
        )

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(work, range(64)))


def test_bad_input_never_crashes() -> None:
    rng = random.Random(9309)
    for _ in range(300):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(400)))
        robots = Robots.parse(body)
        robots.is_allowed("Bot", "/" + body[:20].decode("latin-1"))
        robotrules.lint(body)
    # A str with lone surrogates and NULs: read as the bytes it would encode to.
    robots = Robots.parse("User-agent: *\nDisallow: /\ud800x\n\x00\ud83d\n")
    assert robots.is_allowed("Bot", "/y")
    assert any(d.code == "invalid-utf8" for d in robots.diagnostics)
    assert robots.crawler("Bot").is_allowed("/\udcff") in (True, False)
    # A body past the parse limit (RFC 9309 §2.5) is read up to it, and says so.
    big = b"User-agent: *\n" + b"Disallow: /x\n" * 100_000
    limit = robotrules.DEFAULT_PARSE_LIMIT
    assert limit - len(b"Disallow: /x\n") < Robots.parse(big).bytes_read <= limit
    assert 0 < Robots.parse(big, parse_limit=100).bytes_read <= 100
    assert any(d.code == "parse-limit" for d in Robots.parse(big).diagnostics)


def test_the_package_has_the_crates_version() -> None:
    import importlib.metadata
    import re
    from pathlib import Path

    manifest = Path(__file__).resolve().parents[3] / "Cargo.toml"
    workspace = re.search(r'^version = "([^"]+)"', manifest.read_text(), re.MULTILINE)
    assert workspace is not None
    assert robotrules.__version__ == workspace.group(1)
    assert importlib.metadata.version("robotrules") == robotrules.__version__


def test_the_star_is_a_crawler_that_no_group_names() -> None:
    robots = robotrules.Robots.parse(b"User-agent: *\nDisallow: /x\n\nUser-agent: a\nDisallow: /\n")
    for profile in robotrules.PROFILES:
        star = robotrules.Robots.parse(
            b"User-agent: *\nDisallow: /x\n\nUser-agent: a\nDisallow: /\n", profile=profile
        ).crawler("*")
        assert not star.is_allowed("https://example.com/x")
        assert star.is_allowed("https://example.com/y")
        assert "a crawler that no group names" in repr(star)
    assert "no group names" not in repr(robots.crawler("a"))

"""`robotrules.Survey`: the CLI's per-capture survey from Python, on hand-written captures."""

from __future__ import annotations

import gzip

import pytest

from robotrules import SURVEY_COLUMNS, InvalidAgent, Survey, url_key

_ROBOTS = (
    b"User-agent: GPTBot\nDisallow: /\n\n"
    b"User-agent: *\nDisallow: /cart\nCrawl-delay: 2\n\n"
    b"Sitemap: https://example.com/s.xml\n"
)


def _rows(surveyed) -> list[dict]:  # type: ignore[no-untyped-def]
    return [dict(zip(SURVEY_COLUMNS, row)) for row in surveyed.rows()]


def test_a_capture_gives_one_row_per_crawler_with_the_clis_columns() -> None:
    survey = Survey(["GPTBot", "CCBot", "GPTBot"], profile="google")
    assert survey.agents == ["GPTBot", "CCBot"]
    assert survey.profile == "google"
    surveyed = survey.capture(
        "https://Example.COM/robots.txt",
        _ROBOTS,
        status=200,
        headers=[("Content-Type", "text/plain")],
        time="2024-06-01T12:00:00Z",
        file="a.warc.gz",
        offset=1234,
    )
    gptbot, ccbot = _rows(surveyed)
    assert gptbot == {
        "host": "example.com",
        "capture_time": "2024-06-01T12:00:00Z",
        "warc_file": "a.warc.gz",
        "warc_offset": 1234,
        "status": 200,
        "redirect": None,
        "content_type": "text/plain",
        "body_kind": "robots",
        "bytes": len(_ROBOTS),
        "parse_limit_cut": False,
        "agent": "GPTBot",
        "named": True,
        "reach": "blocked",
        "crawl_delay": None,
        "sitemaps": 1,
    }
    assert (ccbot["agent"], ccbot["named"], ccbot["reach"], ccbot["crawl_delay"]) == (
        "CCBot",
        False,
        "partial",
        2.0,
    )


def test_a_record_block_is_read_as_the_cli_reads_it() -> None:
    survey = Survey(["GPTBot", "CCBot"])
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(_ROBOTS), _ROBOTS)
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
    block = head + chunked
    from_block = survey.response("https://example.com/robots.txt", block, offset=7)
    from_parts = survey.capture(
        "https://example.com/robots.txt",
        _ROBOTS,
        status=200,
        headers=[("Content-Type", "text/plain"), ("Transfer-Encoding", "chunked")],
        offset=7,
    )
    assert from_block.rows() == from_parts.rows()
    encoded = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gzip.compress(_ROBOTS)
    assert _rows(survey.response("https://example.com/robots.txt", encoded))[0]["bytes"] == len(
        _ROBOTS
    )
    with pytest.raises(ValueError, match="not an HTTP response"):
        survey.response("https://example.com/robots.txt", b"dns answer 192.0.2.1")


def test_statuses_follow_rfc_9309_and_redirects_wait_for_their_target() -> None:
    survey = Survey(["GPTBot"])
    url = "https://example.com/robots.txt"
    assert _rows(survey.capture(url, b"<html>", status=404))[0]["reach"] == "open"
    assert _rows(survey.capture(url, _ROBOTS, status=503))[0]["reach"] == "blocked"
    location = [("Location", "//www.example.com/robots.txt")]
    moved = survey.capture(url, b"", status=301, headers=location)
    assert moved.awaits_target
    assert moved.redirect == "https://www.example.com/robots.txt"
    assert _rows(moved)[0]["reach"] == "unknown"
    assert url_key("HTTPS://WWW.Example.com/robots.txt") == moved.redirect
    assert not survey.capture(url, _ROBOTS, status=200).awaits_target


def test_crawler_names_are_checked_before_any_capture() -> None:
    with pytest.raises(InvalidAgent, match="product token"):
        Survey(["GPTBot", "Mozilla/5.0 (compatible; GPTBot/1.2)"], profile="rfc9309")
    # In every profile: a survey counts crawlers, named by product tokens.
    with pytest.raises(InvalidAgent, match="pass `GPTBot`"):
        Survey(["GPT Bot"], profile="google")
    with pytest.raises(ValueError, match="no crawler"):
        Survey([])
    with pytest.raises(ValueError, match="profile"):
        Survey(["GPTBot"], profile="bing")  # type: ignore[arg-type]
    default = Survey().agents
    assert {"GPTBot", "ClaudeBot", "CCBot", "Googlebot", "Bingbot"} <= set(default)


def test_facts_and_verdicts_are_the_rows_column_by_column() -> None:
    survey = Survey(["GPTBot", "CCBot", "Googlebot"])
    surveyed = survey.capture("https://example.com/robots.txt", _ROBOTS, status=200, offset=9)
    named, reach, crawl_delay, sitemaps = surveyed.verdicts()
    expanded = [
        (*surveyed.facts(), agent, named[i], reach[i], crawl_delay[i], sitemaps)
        for i, agent in enumerate(survey.agents)
    ]
    assert expanded == surveyed.rows()
    assert reach == ["blocked", "partial", "partial"]


# Cloudflare's managed file (shortened), with Googlebot blocked by the site: search is
# allowed by default while a search crawler may not crawl `/`.
_SIGNALED = (
    b"# BEGIN Cloudflare Managed content\n\n"
    b"User-Agent: *\nContent-signal: search=yes,ai-train=no\nAllow: /\n\n"
    b"User-agent: GPTBot\nDisallow: /\n\n"
    b"# END Cloudflare Managed Content\n\n"
    b"User-agent: Googlebot\nDisallow: /\n\n"
    b"License: https://example.com/license.xml\n"
)


def test_the_usage_columns_of_a_capture() -> None:
    from robotrules import SURVEY_USAGE_COLUMNS

    # The default list: it gives each crawler its purpose (Googlebot, Bingbot: search).
    survey = Survey()
    surveyed = survey.capture("https://example.com/robots.txt", _SIGNALED, status=200)
    assert surveyed.signals == {
        "content_usage": False,
        "content_signal": True,
        "license": True,
        "llm_policy": False,
    }
    rows = {
        agent: dict(zip(SURVEY_USAGE_COLUMNS, row))
        for agent, row in zip(survey.agents, surveyed.usage_rows())
    }
    gptbot, googlebot, bingbot = rows["GPTBot"], rows["Googlebot"], rows["Bingbot"]
    assert len(SURVEY_USAGE_COLUMNS) == 12 and not set(SURVEY_USAGE_COLUMNS) & set(SURVEY_COLUMNS)
    assert bingbot == {
        "content_usage": False,
        "content_signal": True,
        "license": True,
        "llm_policy": False,
        "usage_train_ai": "unknown",
        "usage_search": "unknown",
        "signal_search": "allowed",
        "signal_ai_input": "unknown",
        "signal_ai_train": "disallowed",
        "train_ai": "disallowed",
        "search": "allowed",
        "contradiction": None,
    }
    # Googlebot is a search crawler (the default list says so) blocked from `/`.
    assert googlebot["contradiction"] == "search-allowed-disallowed"
    assert googlebot["search"] == "unknown"
    # GPTBot is blocked too, but search is not its purpose, and its group says nothing.
    assert gptbot["contradiction"] is None
    # Named crawlers have no purpose: no crawler is known to be a search crawler.
    named = Survey(["Googlebot"]).capture("https://example.com/robots.txt", _SIGNALED)
    assert named.usage_rows()[0][11] is None
    # A status that leaves the body unread carries no signal.
    unreachable = survey.capture("https://example.com/robots.txt", _SIGNALED, status=503)
    assert not any(unreachable.signals.values())
    assert all(row[11] is None for row in unreachable.usage_rows())

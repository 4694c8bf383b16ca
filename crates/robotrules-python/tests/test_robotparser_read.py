"""`robotrules.robotparser.RobotFileParser.read()`: a real fetch with the standard library
from loopback servers, and the status handled as RFC 9309 §2.3.1 says."""

from __future__ import annotations

import urllib.robotparser

import pytest

from loopback import serve
from robotrules.robotparser import RobotFileParser

BODY = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 3\nRequest-rate: 2/10\n"


def test_read_fetches_and_parses() -> None:
    with serve(BODY) as origin:
        parser = RobotFileParser(origin + "/robots.txt")
        assert not parser.can_fetch("ExampleBot", origin + "/x")  # nothing read yet
        parser.read()
    assert parser.mtime() > 0
    assert parser.can_fetch("ExampleBot", origin + "/public")
    assert not parser.can_fetch("ExampleBot", origin + "/private/x")
    assert parser.crawl_delay("ExampleBot") == 3
    assert parser.request_rate("ExampleBot") == urllib.robotparser.RequestRate(2, 10)
    assert parser.site_maps() is None


@pytest.mark.parametrize(
    ("status", "allowed", "stdlib_allowed"),
    [
        (404, True, True),
        # RFC 9309 §2.3.1.3: every 4xx is "unavailable", 401 and 403 included.
        (401, True, False),
        (403, True, False),
        # 429 is read as the Rust client reads it: unreachable (RFC 9309 §2.3.1.4).
        (429, False, True),
        # RFC 9309 §2.3.1.4: a server error is "unreachable": disallow everything.
        (500, False, False),
        (503, False, False),
    ],
)
def test_status_handling_follows_rfc_9309(status: int, allowed: bool, stdlib_allowed: bool) -> None:
    with serve(status) as origin:
        ours = RobotFileParser(origin + "/robots.txt")
        ours.read()
        stdlib = urllib.robotparser.RobotFileParser(origin + "/robots.txt")
        stdlib.read()
    assert ours.can_fetch("ExampleBot", origin + "/page") is allowed
    assert stdlib.can_fetch("ExampleBot", origin + "/page") is stdlib_allowed


def test_parse_takes_lines() -> None:
    parser = RobotFileParser()
    parser.parse(["User-agent: *", "Disallow: /a", "Allow: /a/b", "Sitemap: https://e.com/s.xml"])
    # Longest match (RFC 9309 §2.2.2), where the standard library takes the first.
    assert parser.can_fetch("Bot", "https://e.com/a/b/c")
    assert not parser.can_fetch("Bot", "https://e.com/a/c")
    assert parser.site_maps() == ["https://e.com/s.xml"]
    # Full User-Agent headers and `*` are read as the drop-ins read them.
    assert not parser.can_fetch("Mozilla/5.0 (compatible; Bot/1.0)", "/a/c")
    assert not parser.can_fetch("*", "/a/c")

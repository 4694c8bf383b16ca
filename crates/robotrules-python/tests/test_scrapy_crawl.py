"""An end-to-end crawl: a real Scrapy spider with `ROBOTSTXT_OBEY = True` and
`ROBOTSTXT_PARSER = "robotrules.scrapy.RobotRulesParser"` against three loopback servers, each
with its own robots.txt. The pages downloaded and Scrapy's `robotstxt/forbidden` count are
checked, under two profiles picked with the `ROBOTRULES_PROFILE` setting.
"""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

pytest.importorskip("scrapy")

from loopback import serve

# The crawler's own group (named by the token in Scrapy's full User-Agent header) replaces
# the `*` group; its allow rule is longer than its disallow rule.
OWN_GROUP = b"""User-agent: *
Disallow: /private/

User-agent: robotrulestestbot
Disallow: /no-rr/
Allow: /no-rr/ok
"""
EVERYTHING_DISALLOWED = b"User-agent: *\nDisallow: /\n"


@pytest.mark.parametrize(
    ("profile", "forbidden_on_first"),
    [
        # RFC 9309 §2.2.2: the longest match decides, so /no-rr/ok is allowed.
        ("rfc9309", ["/no-rr/x"]),
        # The 1994 convention: the first matching rule decides, so /no-rr/ok is not.
        ("legacy1994", ["/no-rr/ok", "/no-rr/x"]),
    ],
)
def test_a_crawl_obeys_each_origins_robots_txt(profile: str, forbidden_on_first: list[str]) -> None:
    with ExitStack() as stack:
        first = stack.enter_context(serve(OWN_GROUP))
        missing = stack.enter_context(serve(404))
        closed = stack.enter_context(serve(EVERYTHING_DISALLOWED))
        paths = ["/", "/private/x", "/no-rr/x", "/no-rr/ok", "/public"]
        urls = [first + p for p in paths] + [missing + "/anything", closed + "/x", closed + "/y"]
        result = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("scrapy_crawl.py")), json.dumps(urls), profile],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    expected = sorted(
        [first + p for p in paths if p not in forbidden_on_first] + [missing + "/anything"]
    )
    assert outcome["downloaded"] == expected, (outcome, expected)
    assert outcome["forbidden"] == len(forbidden_on_first) + 2

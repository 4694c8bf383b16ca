"""A drop-in for ``urllib.robotparser`` (``from robotrules.robotparser import RobotFileParser``).

The API is the standard library's: ``set_url``, ``read``, ``parse(lines)``, ``can_fetch``,
``crawl_delay``, ``request_rate``, ``site_maps``, ``mtime`` and ``modified``. The answers are
robotrules': RFC 9309 by default (longest match, wildcards), or the profile given.

``read()`` fetches with the standard library and handles the status as RFC 9309 §2.3.1 says:
a 4xx (401 and 403 included) means the file is unavailable and everything is allowed
(the standard library disallows everything on 401 and 403); a 5xx means it is unreachable
and everything is disallowed (RFC 9309 §2.3.1.4). A network error is raised, as the standard
library raises it (``urllib.error.URLError``), for the caller to retry or to treat as
unreachable.

Beyond the standard library's API (new names only): ``usage(useragent, url)``, the AI usage
preferences (``Content-Usage``, ``Content-Signal``) as ``robotrules.Usage``, answered as
``can_fetch`` is (after a 4xx every category is unknown; after a 5xx, or before the file is
read, the URL is not crawlable and has no preference); ``licenses()`` and ``llm_policies()``,
the ``License:`` and ``LLM-Policy:`` URLs or ``None``, as ``site_maps()``.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from typing import Optional
from urllib.robotparser import RequestRate

from robotrules import _agents, _urls
from robotrules._robotrules import Robots, Usage, status_access

__all__ = ["RobotFileParser", "RequestRate"]


#: Files that answer as a status does, for ``usage``: nothing said (a 4xx), and nothing
#: crawlable (a 5xx, or no file read yet).
_OPEN = Robots.parse(b"")
_CLOSED = Robots.parse(b"User-agent: *\nDisallow: /\n")


class RobotFileParser:
    """``urllib.robotparser.RobotFileParser`` with robotrules' answers."""

    def __init__(self, url: str = "", *, profile: str = "rfc9309") -> None:
        self.profile = profile
        self.disallow_all = False
        self.allow_all = False
        self.last_checked = 0.0
        self.url = ""
        self.host = ""
        self.path = ""
        self._robots: Optional[Robots] = None
        self._crawlers: Optional[_agents.Crawlers] = None
        self.set_url(url)

    def mtime(self) -> float:
        """When the file was last fetched or parsed (seconds since the epoch; 0 if never)."""
        return self.last_checked

    def modified(self) -> None:
        """Record that the file was fetched or parsed now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Set the URL of the robots.txt file."""
        self.url = url
        self.host, self.path = urllib.parse.urlsplit(url)[1:3]

    def read(self) -> None:
        """Fetch the robots.txt URL and parse it (RFC 9309 §2.3.1 for the status)."""
        try:
            with urllib.request.urlopen(self.url) as response:
                raw = response.read()
        except urllib.error.HTTPError as err:
            # urllib followed the redirects it could; the engine's status table reads the
            # rest (RFC 9309 §2.3.1): unavailable, crawl as if there were no file (§2.3.1.3);
            # unreachable (5xx, 429), assume complete disallow (§2.3.1.4).
            if status_access(err.code) == "unavailable":
                self.allow_all = True
            else:
                self.disallow_all = True
            err.close()
        else:
            self._parse_body(raw)

    def parse(self, lines: Iterable[str]) -> None:
        """Parse the file's lines (``str`` or ``bytes``)."""
        body = b"\n".join(
            line if isinstance(line, bytes) else line.encode("utf-8", "surrogatepass")
            for line in lines
        )
        self._parse_body(body)

    def _parse_body(self, body: bytes) -> None:
        self._robots = Robots.parse(body, profile=self.profile)  # type: ignore[arg-type]
        self._crawlers = _agents.Crawlers(self._robots)
        self.modified()

    def can_fetch(self, useragent: str, url: str) -> bool:
        """Whether ``useragent`` may fetch ``url``."""
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        # As in the standard library: nothing is allowed until the file is read.
        if not self.last_checked or self._crawlers is None:
            return False
        crawler = self._crawlers(_agents.text(useragent))
        return _urls.is_allowed(crawler, _agents.text(url))

    def usage(self, useragent: str, url: str) -> Usage:
        """May ``useragent`` use ``url`` for AI training, for search, for AI input, and which
        line says so: ``robotrules.Crawler.usage``, answered as ``can_fetch`` is. Not in the
        standard library."""
        if self.disallow_all or (
            not self.allow_all and (not self.last_checked or self._crawlers is None)
        ):
            return _urls.usage(_CLOSED.crawler("*"), _agents.text(url))
        if self.allow_all or self._crawlers is None:
            return _urls.usage(_OPEN.crawler("*"), _agents.text(url))
        crawler = self._crawlers(_agents.text(useragent))
        return _urls.usage(crawler, _agents.text(url))

    def licenses(self) -> Optional[list[str]]:
        """The ``License:`` URLs (RSL 1.0), or ``None`` when there are none. Not in the
        standard library."""
        if self._robots is None:
            return None
        return self._robots.licenses or None

    def llm_policies(self) -> Optional[list[str]]:
        """The ``LLM-Policy:`` URLs, or ``None`` when there are none. Not in the standard
        library."""
        if self._robots is None:
            return None
        return self._robots.llm_policies or None

    def crawl_delay(self, useragent: str) -> Optional[float]:
        """The crawl delay for ``useragent`` in seconds, or ``None``."""
        if not self.mtime() or self._crawlers is None:
            return None
        return self._crawlers(_agents.text(useragent)).crawl_delay

    def request_rate(self, useragent: str) -> Optional[RequestRate]:
        """The request rate for ``useragent``, or ``None``."""
        if not self.mtime() or self._crawlers is None:
            return None
        rate = self._crawlers(_agents.text(useragent)).request_rate
        return None if rate is None else RequestRate(rate.requests, rate.seconds)

    def site_maps(self) -> Optional[list[str]]:
        """The ``Sitemap:`` URLs, or ``None`` when there are none."""
        if self._robots is None:
            return None
        return self._robots.sitemaps or None

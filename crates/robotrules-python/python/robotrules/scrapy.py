"""A robots.txt parser for Scrapy, backed by robotrules.

Select it in a project's settings::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "robotrules.scrapy.RobotRulesParser"
    ROBOTRULES_PROFILE = "rfc9309"  # or "google", "legacy1994"

Scrapy hands the parser the whole ``User-Agent`` header (or ``ROBOTSTXT_USER_AGENT``); the
crawler's product token is read from it with ``robotrules.crawler_token``, the function the
CLI uses (``Mozilla/5.0 (compatible; ExampleBot/1.0; …)`` asks about ``ExampleBot``).

Beyond Scrapy's ``RobotParser`` API (a new name only): ``usage(url, user_agent)``, the AI
usage preferences (``Content-Usage``, ``Content-Signal``) as ``robotrules.Usage``; a
middleware or spider reaches it through the parser it is handed, and ``robots`` holds the
parsed file (``licenses``, ``llm_policies``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Union

from scrapy.robotstxt import RobotParser

from robotrules import _agents, _urls
from robotrules._robotrules import Robots, Usage

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

__all__ = ["RobotRulesParser", "PROFILE_SETTING"]

#: The Scrapy setting that picks the profile (default ``"rfc9309"``).
PROFILE_SETTING = "ROBOTRULES_PROFILE"


class RobotRulesParser(RobotParser):
    """Scrapy's ``RobotParser`` backed by robotrules (``ROBOTSTXT_PARSER``)."""

    def __init__(self, robotstxt_body: bytes, spider: Any = None, profile: str = "rfc9309") -> None:
        self.spider = spider
        # The body as bytes: robotrules reads bytes as the profile does (invalid UTF-8 lines
        # reported, a BOM skipped), with no decoding step that could drop lines.
        self.robots = Robots.parse(robotstxt_body, profile=profile)  # type: ignore[arg-type]
        self._crawlers = _agents.Crawlers(self.robots)

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> RobotRulesParser:
        """The parser of ``robotstxt_body`` for ``crawler`` (``None`` in Scrapy's own tests),
        under the profile its ``ROBOTRULES_PROFILE`` setting names."""
        spider = getattr(crawler, "spider", None) if crawler else None
        profile = "rfc9309"
        settings = getattr(crawler, "settings", None) if crawler else None
        if settings is not None:
            profile = settings.get(PROFILE_SETTING) or profile
        return cls(robotstxt_body, spider, profile)

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        """Whether ``user_agent`` may fetch ``url``."""
        crawler = self._crawlers(_agents.text(user_agent))
        return _urls.is_allowed(crawler, _agents.text(url))

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        """The crawl delay for ``user_agent`` in seconds, or ``None``."""
        return self._crawlers(_agents.text(user_agent)).crawl_delay

    def usage(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> Usage:
        """May ``user_agent`` use ``url`` for AI training, for search, for AI input, and which
        line says so: ``robotrules.Crawler.usage``. Not in Scrapy's ``RobotParser``."""
        crawler = self._crawlers(_agents.text(user_agent))
        return _urls.usage(crawler, _agents.text(url))

"""A drop-in for Protego (``from robotrules.protego import Protego``).

The API is Protego's: ``Protego.parse(content)``, ``can_fetch(url, user_agent)``,
``crawl_delay``, ``request_rate``, ``visit_time``, ``sitemaps`` and ``preferred_host``. The
answers are robotrules': RFC 9309 by default, or the profile given to ``parse``. Where they
differ from Protego's, ``docs/python.md`` lists the cases.

Beyond Protego's API (new names only, so code written for Protego is unchanged):
``usage(url, user_agent)``, the AI usage preferences (``Content-Usage``, ``Content-Signal``)
as ``robotrules.Usage``; ``licenses`` and ``llm_policies``, the ``License:`` and
``LLM-Policy:`` URLs as written.
"""

from __future__ import annotations

import math
from datetime import time
from typing import TYPE_CHECKING, NamedTuple, Optional, Union

from robotrules import _agents, _urls
from robotrules._robotrules import Robots, Usage

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["Protego", "RequestRate", "VisitTime"]


class RequestRate(NamedTuple):
    """Protego's request rate: ``requests`` per ``seconds``, in an optional time window."""

    requests: int
    seconds: int
    start_time: Optional[time]
    end_time: Optional[time]


class VisitTime(NamedTuple):
    """Protego's visit time: the window in which to crawl."""

    start_time: time
    end_time: time


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _time_of_day(value: str) -> time:
    value = value.strip()
    if not (3 <= len(value) <= 4 and value.isascii() and value.isdigit()):
        raise ValueError(value)
    return time(int(value[:-2]), int(value[-2:]))


def _time_period(value: str, separator: str = "-") -> tuple[time, time]:
    start, end = value.split(separator)
    return _time_of_day(start), _time_of_day(end)


def _request_rate(value: str) -> Optional[RequestRate]:
    """A ``request-rate`` value as Protego reads it (``1/10s``, ``100/15m 0600-0845``)."""
    try:
        parts = value.split()
        if len(parts) not in (1, 2):
            return None
        requests_text, seconds_text = parts[0].split("/")
        unit = seconds_text[-1:].lower()
        if unit in _UNITS:
            seconds_text = seconds_text[:-1]
        else:
            unit = "s"
        requests, seconds = int(requests_text), int(seconds_text)
        if requests <= 0 or seconds <= 0:
            return None
        start = end = None
        if len(parts) == 2:
            start, end = _time_period(parts[1])
        return RequestRate(requests, seconds * _UNITS[unit], start, end)
    except ValueError:
        return None


def _visit_time(value: str) -> Optional[VisitTime]:
    """A ``visit-time`` value as Protego reads it (``0400-0845`` or ``0400 0845``)."""
    for separator in ("-", " "):
        try:
            return VisitTime(*_time_period(value, separator))
        except ValueError:
            continue
    return None


class Protego:
    """A parsed robots.txt file with Protego's API."""

    __slots__ = ("_robots", "_crawlers")

    def __init__(self, robots: Robots) -> None:
        self._robots = robots
        self._crawlers = _agents.Crawlers(robots)

    @classmethod
    def parse(cls, content: str, *, profile: str = "rfc9309") -> Protego:
        """Parse ``content`` under ``profile``. Like Protego, only ``str`` is taken (for bytes,
        use ``robotrules.Robots.parse``, which reads them as the profile does)."""
        if not isinstance(content, str):
            raise TypeError(f"Protego.parse expects str, got {type(content).__name__}")
        return cls(Robots.parse(content, profile=profile))  # type: ignore[arg-type]

    @property
    def robots(self) -> Robots:
        """The parsed file, for robotrules' own API (``explain``, ``diagnostics``)."""
        return self._robots

    def can_fetch(self, url: str, user_agent: str) -> bool:
        """Whether ``user_agent`` may fetch ``url``."""
        crawler = self._crawlers(_agents.text(user_agent))
        return _urls.is_allowed(crawler, _agents.text(url))

    def usage(self, url: str, user_agent: str) -> Usage:
        """May ``user_agent`` use ``url`` for AI training, for search, for AI input, and which
        line says so (``Content-Usage``, ``Content-Signal``): ``robotrules.Crawler.usage``.
        Not in Protego."""
        crawler = self._crawlers(_agents.text(user_agent))
        return _urls.usage(crawler, _agents.text(url))

    @property
    def licenses(self) -> Iterator[str]:
        """The ``License:`` URLs (RSL 1.0), as written. Not in Protego."""
        return iter(self._robots.licenses)

    @property
    def llm_policies(self) -> Iterator[str]:
        """The ``LLM-Policy:`` URLs, as written. Not in Protego."""
        return iter(self._robots.llm_policies)

    def crawl_delay(self, user_agent: str) -> Optional[float]:
        """The crawl delay for ``user_agent`` in seconds, or ``None``."""
        delay = self._crawlers(_agents.text(user_agent)).crawl_delay
        return delay if delay is None or math.isfinite(delay) else None

    def request_rate(self, user_agent: str) -> Optional[RequestRate]:
        """The first valid ``request-rate`` of ``user_agent``'s groups, or ``None``."""
        for key, value, _line in self._crawlers(_agents.text(user_agent)).extensions:
            if key in ("request-rate", "request rate"):
                rate = _request_rate(value)
                if rate is not None:
                    return rate
        return None

    def visit_time(self, user_agent: str) -> Optional[VisitTime]:
        """The first valid ``visit-time`` of ``user_agent``'s groups, or ``None``."""
        for key, value, _line in self._crawlers(_agents.text(user_agent)).extensions:
            if key in ("visit-time", "visit time"):
                window = _visit_time(value)
                if window is not None:
                    return window
        return None

    @property
    def sitemaps(self) -> Iterator[str]:
        """The ``Sitemap:`` URLs, as written."""
        return iter(self._robots.sitemaps)

    @property
    def preferred_host(self) -> Optional[str]:
        """The first ``Host:`` value (Yandex's preferred mirror), or ``None``."""
        for key, value, _line in self._robots.file_extensions:
            if key == "host" and value:
                return value
        return None

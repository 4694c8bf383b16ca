"""What the drop-ins do with a URL the profile cannot read.

Protego, Scrapy and ``urllib.robotparser`` never raise on a URL: they compare whatever path
they find. The drop-ins ask robotrules first (a verdict, or the AI usage preferences); on ``InvalidUrl`` (``example.com/x``, ``page``,
an empty string) they ask again about the path part the standard library reads
(``urllib.parse.urlsplit``), with a ``/`` in front when it has none.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from robotrules._robotrules import Crawler, InvalidUrl, Usage


def as_path(url: str) -> str:
    """The path and query of ``url`` as ``urlsplit`` reads them, starting with ``/``."""
    try:
        parts = urlsplit(url)
        path, query = parts.path, parts.query
    except ValueError:
        path, query = url, ""
    if not path.startswith("/"):
        path = "/" + path
    return f"{path}?{query}" if query else path


def is_allowed(crawler: Crawler, url: str) -> bool:
    """``crawler.is_allowed(url)``, reading an unreadable URL as its path."""
    try:
        return crawler.is_allowed(url)
    except InvalidUrl:
        return crawler.is_allowed(as_path(url))


def usage(crawler: Crawler, url: str) -> Usage:
    """``crawler.usage(url)``, reading an unreadable URL as its path."""
    try:
        return crawler.usage(url)
    except InvalidUrl:
        return crawler.usage(as_path(url))

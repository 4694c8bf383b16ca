"""How the drop-ins turn what other libraries call a user agent into a crawler.

Protego, Scrapy and ``urllib.robotparser`` are handed anything: a product token
(``ExampleBot``), a full User-Agent header (``Mozilla/5.0 (compatible; ExampleBot/1.0)``),
``*`` or an empty string. robotrules asks about a crawler by its product token (RFC 9309
§2.2.1), so each drop-in reads the token the same way:

1. the string itself, when the profile accepts it as a crawler name (under ``rfc9309``: a
   product token; ``google`` and ``legacy1994`` accept any string);
2. else the crawler's token in the header (``robotrules.crawler_token``, the function the CLI
   uses), then the token the model suggests (``InvalidAgent.suggestion``: the token the string
   starts with, unless it is a browser's product);
3. else (``*``, a browser's header) no group names the crawler: the ``*`` group applies. The
   name asked about then is :data:`UNNAMED`, a token no real file names.
"""

from __future__ import annotations

import re
from typing import Union

from robotrules._robotrules import Crawler, InvalidAgent, Robots, crawler_token

#: The crawler name asked about when a user agent names no crawler (``*``, a browser):
#: a product token that no group names, so only the ``*`` group applies.
UNNAMED = "robotrules-unnamed-crawler"

_TOKEN = re.compile(r"[A-Za-z0-9_-]+\Z")

#: How many user agents a drop-in remembers the crawler of.
_KEPT = 64


def text(value: Union[str, bytes]) -> str:
    """A user agent or URL as ``str`` (``bytes`` read as UTF-8, bad bytes replaced)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    return value


def crawler_of(robots: Robots, user_agent: str) -> Crawler:
    """The crawler that ``user_agent`` names in ``robots`` (see the module docs)."""
    user_agent = user_agent.strip()
    if _TOKEN.match(user_agent):
        return robots.crawler(user_agent)
    token = crawler_token(user_agent)
    if token is not None:
        return robots.crawler(token)
    if user_agent not in ("", "*"):
        try:
            return robots.crawler(user_agent)
        except InvalidAgent as error:
            # The model's token: a browser's header leads with its engine, never a crawler's
            # name, so it suggests none.
            if error.suggestion is not None:
                return robots.crawler(error.suggestion)
    return robots.crawler(UNNAMED)


class Crawlers:
    """The crawlers of one parsed file by user agent, remembered (a few dozen at most)."""

    __slots__ = ("_robots", "_known")

    def __init__(self, robots: Robots) -> None:
        self._robots = robots
        self._known: dict[str, Crawler] = {}

    def __call__(self, user_agent: str) -> Crawler:
        found = self._known.get(user_agent)
        if found is None:
            found = crawler_of(self._robots, user_agent)
            if len(self._known) >= _KEPT:
                self._known.clear()
            self._known[user_agent] = found
        return found

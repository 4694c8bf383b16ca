"""How the drop-ins turn what other libraries call a user agent into a crawler.

Protego, Scrapy and ``urllib.robotparser`` are handed anything: a product token
(``ExampleBot``), a full User-Agent header (``Mozilla/5.0 (compatible; ExampleBot/1.0)``),
``*`` or an empty string. Each drop-in asks the engine for the crawler it stands for
(``Robots.crawler_for``: the facade's one policy, shared with the npm package's drop-ins):
its product token, else ``*``, the crawler no group names.
"""

from __future__ import annotations

from typing import Union

from robotrules._robotrules import Crawler, Robots

#: How many user agents a drop-in remembers the crawler of.
_KEPT = 64


def text(value: Union[str, bytes]) -> str:
    """A user agent or URL as ``str`` (``bytes`` read as UTF-8, bad bytes replaced)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    return value


def crawler_of(robots: Robots, user_agent: str) -> Crawler:
    """The crawler that ``user_agent`` names in ``robots`` (see the module docs)."""
    return robots.crawler_for(user_agent)


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

"""A real Scrapy crawl with `ROBOTSTXT_OBEY = True` and robotrules as the parser, run in a
child process by `test_scrapy_crawl.py` (Twisted's reactor starts once per process).

Arguments: the start URLs as a JSON list, and the `ROBOTRULES_PROFILE`. Prints a JSON object:
the URLs downloaded (robots.txt files left out) and the `robotstxt/forbidden` stat.
"""

from __future__ import annotations

import json
import sys

from scrapy import Spider
from scrapy.crawler import CrawlerProcess

USER_AGENT = "Mozilla/5.0 (compatible; RobotRulesTestBot/1.0; +http://example.invalid/bot)"


def main() -> None:
    urls, profile = json.loads(sys.argv[1]), sys.argv[2]
    downloaded: list[str] = []

    class Pages(Spider):
        name = "pages"
        start_urls = urls

        def parse(self, response):  # type: ignore[no-untyped-def]
            downloaded.append(response.url)

    process = CrawlerProcess(
        settings={
            "ROBOTSTXT_OBEY": True,
            "ROBOTSTXT_PARSER": "robotrules.scrapy.RobotRulesParser",
            "ROBOTRULES_PROFILE": profile,
            "USER_AGENT": USER_AGENT,
            "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False,
            "RETRY_ENABLED": False,
            "DOWNLOAD_TIMEOUT": 10,
            # One request at a time: Scrapy 2.19's RobotsTxtMiddleware lets through, unchecked,
            # the requests that wait for an origin's robots.txt while the first one fetches it
            # (every waiter after the first gets None from the shared Deferred); seen here with
            # Protego as with robotrules. Serial requests keep the outcome deterministic.
            "CONCURRENT_REQUESTS": 1,
        }
    )
    crawler = process.create_crawler(Pages)
    process.crawl(crawler)
    process.start()
    assert crawler.stats is not None
    print(
        json.dumps(
            {
                "downloaded": sorted(downloaded),
                "forbidden": crawler.stats.get_value("robotstxt/forbidden", 0),
            }
        )
    )


if __name__ == "__main__":
    main()

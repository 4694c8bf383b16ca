"""Side by side in one Python process: robotrules, Protego, urllib.robotparser (and
fastrobots when it is installed), on the repository's real sample and crawl-like URLs.

    target/python-venv/bin/python crates/robotrules-python/bench/bench.py [SAMPLE_DIR]

The sample folder is `ROBOTRULES_REAL_SAMPLE`, or `shared/corpora/real-sample` beside the
repository (as the Rust benches find it). Figures are printed, never asserted: the tests run
no timings. The package should be a release build (`maturin develop --release`).
"""

from __future__ import annotations

import os
import sys
import time
import urllib.robotparser
from pathlib import Path
from typing import Any, Callable

import protego

import robotrules

ORIGIN = "https://www.example.com"
# The crawl-like paths of crates/robotrules-bench/src/urls.rs (CRAWL_PATHS).
CRAWL_PATHS = [
    "/blog/2024/05/17/how-we-rebuilt-our-search-index-for-speed-and-scale/",
    "/shop/Category/Running-Shoes/index.html",
    "/search?q=caf%C3%A9+au+lait&sort=price_asc&page=3",
    "/wp-content/uploads/2023/11/Product%20Photo%20(1).JPG",
    "/products/12345/reviews/?utm_source=newsletter&utm_medium=email&utm_campaign=spring#reviews",
    "/de/damen/bekleidung/kleider/sommerkleid-blau-42.html?color=blue&size=M",
    "/wiki/Caf%c3%a9_Society",
    "/index.php?option=com_content&view=article&id=42&Itemid=7",
]
TYPICAL_FILE = "ropensci-robotstxt__rbloggers.txt"
AGENT = "ExampleBot"


def sample_dir() -> Path:
    """The real sample's folder."""
    if len(sys.argv) > 1:
        return Path(sys.argv[1])
    default = Path(__file__).resolve().parents[4] / "shared" / "corpora" / "real-sample"
    return Path(os.environ.get("ROBOTRULES_REAL_SAMPLE", default))


def crawl_urls(body: bytes) -> list[str]:
    """CRAWL_PATHS, plus up to four paths from the file's own rules (wildcards read as `x`)."""
    urls = [ORIGIN + p for p in CRAWL_PATHS]
    for line in body.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition(":")
        value = value.split("#")[0].strip().replace("*", "x").rstrip("$")
        if key.strip().lower() in ("allow", "disallow") and value.startswith("/"):
            urls.append(ORIGIN + value + "page.html")
            if len(urls) >= len(CRAWL_PATHS) + 4:
                break
    return urls


def timed(fn: Callable[[], Any], repeat: int = 3) -> float:
    """The best of `repeat` runs, in seconds."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return min(out)


def main() -> None:
    files = sorted(p for p in sample_dir().iterdir() if p.is_file())
    bodies = [p.read_bytes() for p in files]
    texts = [b.decode("utf-8", "replace") for b in bodies]
    size = sum(len(b) for b in bodies)
    print(f"sample: {len(files)} files, {size / 1e6:.1f} MB ({sample_dir()})")
    contenders: dict[str, Callable[[], Any]] = {
        "robotrules": lambda: [robotrules.Robots.parse(b) for b in bodies],
        "protego": lambda: [protego.Protego.parse(t) for t in texts],
        "urllib.robotparser": lambda: [
            urllib.robotparser.RobotFileParser().parse(t.splitlines()) for t in texts
        ],
    }
    try:
        import fastrobots  # type: ignore[import-not-found]  # noqa: F401

        print("fastrobots: installed, but not measured here (its API was not wired in)")
    except ImportError:
        print("fastrobots: not installed")

    print("\nparse, whole sample (MB/s, best of 3)")
    rate = {}
    for name, fn in contenders.items():
        rate[name] = size / timed(fn) / 1e6
        print(f"  {name:20} {rate[name]:8.1f} MB/s")
    print(f"  robotrules / protego: {rate['robotrules'] / rate['protego']:.1f}x")

    typical = (sample_dir() / TYPICAL_FILE).read_bytes()
    urls = crawl_urls(typical)
    loops = 20_000
    robots = robotrules.Robots.parse(typical)
    bot = robots.crawler(AGENT)
    prot = protego.Protego.parse(typical.decode())
    std = urllib.robotparser.RobotFileParser()
    std.parse(typical.decode().splitlines())

    def per_check(fn: Callable[[], Any], loops: int) -> float:
        return timed(fn) / (loops * len(urls)) * 1e9

    few = loops // 10
    print(f"\none check from Python, {TYPICAL_FILE}, {len(urls)} crawl-like URLs (ns/check)")
    single = {
        "robotrules Crawler.is_allowed(url)": per_check(
            lambda: [bot.is_allowed(u) for _ in range(loops) for u in urls], loops
        ),
        "robotrules Robots.is_allowed(agent, url)": per_check(
            lambda: [robots.is_allowed(AGENT, u) for _ in range(loops) for u in urls], loops
        ),
        "protego can_fetch(url, agent)": per_check(
            lambda: [prot.can_fetch(u, AGENT) for _ in range(few) for u in urls], few
        ),
        "urllib.robotparser can_fetch(agent, url)": per_check(
            lambda: [std.can_fetch(AGENT, u) for _ in range(few) for u in urls], few
        ),
        "empty Python loop (overhead)": per_check(
            lambda: [u for _ in range(loops) for u in urls], loops
        ),
    }
    for name, ns in single.items():
        print(f"  {name:42} {ns:8.0f} ns")
    protego_ns = single["protego can_fetch(url, agent)"]
    for name in ("robotrules Crawler.is_allowed(url)", "robotrules Robots.is_allowed(agent, url)"):
        print(f"  {name} vs protego: {protego_ns / single[name]:.1f}x")

    batch = urls * 1000
    many = timed(lambda: bot.allowed_many(batch)) / len(batch) * 1e9
    print(f"\nallowed_many, {len(batch)} URLs in one call: {many:.0f} ns/URL")
    crawlers = [robotrules.Robots.parse(b).crawler(AGENT) for b in bodies]
    url_lists = [crawl_urls(b) for b in bodies]
    count = sum(len(u) for u in url_lists)
    per_file = timed(lambda: [c.allowed_many(u) for c, u in zip(crawlers, url_lists)])
    print(f"allowed_many, one call per sample file ({count} URLs): {per_file / count * 1e9:.0f} ns/URL")


if __name__ == "__main__":
    main()

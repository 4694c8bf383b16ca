"""`Crawler.allowed_many` per URL on bench.py's workload, in thread CPU time and wall time.

    PROFILE=rfc9309 target/python-venv/bin/python crates/robotrules-python/bench/many.py [SIZE...]

Each batch is bench.py's crawl-like URLs of the typical file, repeated to SIZE URLs (by
default 12,000, 2,048 and 120); the figure is the best of 10 over 240,000 URLs. The sample
folder is found as bench.py finds it (`ROBOTRULES_REAL_SAMPLE`). Figures are printed, never
asserted.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sizes = [int(a) for a in sys.argv[1:]] or [12_000, 2_048, 120]
del sys.argv[1:]  # bench.sample_dir() reads argv[1] as the sample folder

import bench  # noqa: E402

import robotrules  # noqa: E402


def main() -> None:
    typical = (bench.sample_dir() / bench.TYPICAL_FILE).read_bytes()
    urls = bench.crawl_urls(typical)
    profile = os.environ.get("PROFILE", "rfc9309")
    bot = robotrules.Robots.parse(typical, profile=profile).crawler(bench.AGENT)  # type: ignore[arg-type]
    for size in sizes:
        batch = (urls * (size // len(urls) + 1))[:size]
        calls = max(1, 240_000 // size)
        cpu, wall = [], []
        for _ in range(10):
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            for _ in range(calls):
                bot.allowed_many(batch)
            cpu.append((time.thread_time() - cpu0) / (calls * size) * 1e9)
            wall.append((time.perf_counter() - wall0) / (calls * size) * 1e9)
        print(
            f"{profile} {size:6} URLs per call: allowed_many {min(cpu):6.1f} ns/URL CPU, "
            f"{min(wall):6.1f} ns/URL wall (best of 10)"
        )


if __name__ == "__main__":
    main()

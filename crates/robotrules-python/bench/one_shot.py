"""The one-shot `Robots.is_allowed(agent, url)` per file: parse, then one question, which
resolves the crawler's groups (issue 26 item 4), in thread CPU time and wall time.

    PROFILE=google target/python-venv/bin/python crates/robotrules-python/bench/one_shot.py

Over the real sample's crawl files (at most 16 KiB, as the Rust benches take them; the folder
is found as bench.py finds it), each parsed with `Robots.parse` and asked
`is_allowed("Googlebot", url)` once, the first of bench.py's crawl-like URLs; then the same
parsed files asked again (the facade's cache of recent crawlers answers). Best of 10 passes.
Figures are printed, never asserted.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
del sys.argv[1:]  # bench.sample_dir() reads argv[1] as the sample folder

import bench  # noqa: E402

import robotrules  # noqa: E402

AGENT = "Googlebot"
CRAWL_MAX = 16 * 1024


def main() -> None:
    profile = os.environ.get("PROFILE", "google")
    files = [p.read_bytes() for p in sorted(bench.sample_dir().iterdir()) if p.is_file()]
    files = [f for f in files if len(f) <= CRAWL_MAX]
    url = bench.ORIGIN + bench.CRAWL_PATHS[0]
    parse = robotrules.Robots.parse

    def one_shot() -> int:
        allowed = 0
        for body in files:
            allowed += parse(body, profile=profile).is_allowed(AGENT, url)  # type: ignore[arg-type]
        return allowed

    def parse_only() -> int:
        for body in files:
            parse(body, profile=profile)  # type: ignore[arg-type]
        return 0

    parsed = [parse(body, profile=profile) for body in files]  # type: ignore[arg-type]

    def again() -> int:
        return sum(r.is_allowed(AGENT, url) for r in parsed)

    again()
    for name, fn in [("parse + is_allowed", one_shot), ("parse alone", parse_only), ("is_allowed again", again)]:
        cpu, wall = [], []
        for _ in range(10):
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            fn()
            cpu.append((time.thread_time() - cpu0) / len(files) * 1e6)
            wall.append((time.perf_counter() - wall0) / len(files) * 1e6)
        print(
            f"{profile} {len(files)} files: {name:20} {min(cpu):6.2f} µs/file CPU, "
            f"{min(wall):6.2f} µs/file wall (best of 10)"
        )


if __name__ == "__main__":
    main()

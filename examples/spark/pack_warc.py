"""Packs a directory of robots.txt files into a gzipped WARC file, one gzip member per record.

Each file becomes the ``response`` record of a 200 for ``https://host<N>.example/robots.txt``
(files in name order), as robotrules-survey's throughput benchmark packs the real sample
(``crates/robotrules-survey/benches/survey.rs``). It makes local input for the Spark job and
for ``robotrules survey`` when no Common Crawl file is at hand::

    python examples/spark/pack_warc.py ../shared/corpora/real-sample sample.warc.gz

Python standard library only.
"""

from __future__ import annotations

import argparse
import gzip
import os


def record(index: int, body: bytes) -> bytes:
    """The WARC record of ``body`` served with a 200."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body)
    http += body
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-06-01T12:00:00Z\r\n"
        f"WARC-Target-URI: https://host{index}.example/robots.txt\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    )
    return head.encode() + http + b"\r\n\r\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", help="a directory of robots.txt files")
    parser.add_argument("out", help="the WARC file to write (.warc.gz)")
    args = parser.parse_args()
    names = sorted(n for n in os.listdir(args.dir) if os.path.isfile(os.path.join(args.dir, n)))
    with open(args.out, "wb") as out:
        for index, name in enumerate(names):
            with open(os.path.join(args.dir, name), "rb") as f:
                out.write(gzip.compress(record(index, f.read()), mtime=0))
    print(f"{len(names)} records written to {args.out}")


if __name__ == "__main__":
    main()

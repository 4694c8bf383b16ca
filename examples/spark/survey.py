"""`robotrules survey` on Apache Spark: one row per (capture, crawler), Parquet as the CLI writes.

A PySpark job in the cc-pyspark style: the WARC files (Common Crawl's robots.txt subset, or
any WARC of robots.txt captures) are spread over the executors, one file per task; each task
reads its file with warcio in ``mapPartitions`` and hands every HTTP ``response`` record to
``robotrules.Survey.response`` (the CLI's own per-capture function, through the Python
package). The rows have the CLI's columns, types and order (``survey_schema()``)::

    python examples/spark/survey.py --agents GPTBot,CCBot --profile google --output rows/ a.warc.gz
    spark-submit examples/spark/survey.py --agents GPTBot,CCBot --output s3a://bucket/rows/ ...

Redirects are resolved as ``robotrules survey`` resolves them (``robotrules-survey``'s
``pipeline.rs``): a redirect whose final target's capture is in the input takes that
capture's verdicts (the first capture of the URL in input order: file, then offset), chains
followed through the redirects seen, at most five hops, a loop or a sixth hop reads as
unavailable (``open``); a target not in the input leaves ``unknown``. Records that cannot be
read are reported on the executor's standard error with their file and offset, and skipped.

In local mode (``--master local[…]``, or none when run with ``python``) the workers run this
job's own interpreter (``sys.executable``), so ``venv/bin/python examples/spark/survey.py``
works without activating the venv; ``PYSPARK_PYTHON`` overrides it. Before any work the job
checks that the workers' Python imports ``robotrules`` and ``warcio``, and says in one line
which interpreter lacks which package if not.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import sys
import zlib
from typing import IO, Iterable, Iterator, Literal, Mapping, Optional

Profile = Literal["rfc9309", "google", "legacy1994"]

# As robotrules-survey's `MAX_REDIRECTS` (RFC 9309 §2.3.1.2: at least five hops).
MAX_REDIRECTS = 5

# The CLI's Parquet schema (crates/robotrules-cli/src/cmd/survey/parquet.rs), as Spark types:
# (column, type name, nullable). Spark writes a non-nullable column as `required`.
COLUMNS = (
    ("host", "string", False),
    ("capture_time", "string", False),
    ("warc_file", "string", False),
    ("warc_offset", "long", True),
    ("status", "integer", True),
    ("redirect", "string", True),
    ("content_type", "string", True),
    ("body_kind", "string", False),
    ("bytes", "long", False),
    ("parse_limit_cut", "boolean", False),
    ("agent", "string", False),
    ("named", "boolean", False),
    ("reach", "string", False),
    ("crawl_delay", "double", True),
    ("sitemaps", "integer", False),
    # The AI usage columns (`SURVEY_USAGE_COLUMNS`): the capture's signals, then per crawler
    # its outcomes for `/` and its contradiction.
    ("content_usage", "boolean", False),
    ("content_signal", "boolean", False),
    ("license", "boolean", False),
    ("llm_policy", "boolean", False),
    ("usage_train_ai", "string", False),
    ("usage_search", "string", False),
    ("signal_search", "string", False),
    ("signal_ai_input", "string", False),
    ("signal_ai_train", "string", False),
    ("train_ai", "string", False),
    ("search", "string", False),
    ("contradiction", "string", True),
)
# The first ten columns are the capture's; `agent` to `sitemaps` are per crawler.
FACTS = 10
# The capture's signals (a redirect takes its target's, as its sitemaps).
SIGNALS = ("content_usage", "content_signal", "license", "llm_policy")
# Per crawler: its usage outcomes for `/` and its contradiction.
OUTCOMES = (
    "usage_train_ai",
    "usage_search",
    "signal_search",
    "signal_ai_input",
    "signal_ai_train",
    "train_ai",
    "search",
)


def _types():  # type: ignore[no-untyped-def]
    from pyspark.sql import types as T

    return {
        "string": T.StringType(),
        "long": T.LongType(),
        "integer": T.IntegerType(),
        "boolean": T.BooleanType(),
        "double": T.DoubleType(),
    }


def survey_schema():  # type: ignore[no-untyped-def]
    """The Spark schema of the rows: the CLI's Parquet schema."""
    from pyspark.sql import types as T

    kinds = _types()
    return T.StructType([T.StructField(n, kinds[k], null) for n, k, null in COLUMNS])


def capture_schema():  # type: ignore[no-untyped-def]
    """One record per capture, as the tasks hand it to Spark: where it is in the input, its
    URL key and redirect state, the ten capture columns, then the crawler columns as arrays in
    the survey's crawler order (with the capture's `sitemaps` and usage signals) (expanded to rows by Spark, not by Python: one object per
    capture crosses into the JVM, not one per row)."""
    from pyspark.sql import types as T

    kinds = _types()
    head = [
        T.StructField("input", T.IntegerType(), False),
        T.StructField("url_key", T.StringType(), False),
        T.StructField("awaits_target", T.BooleanType(), False),
    ]
    facts = [T.StructField(n, kinds[k], null) for n, k, null in COLUMNS[:FACTS]]
    verdicts = [
        T.StructField("named", T.ArrayType(T.BooleanType(), False), False),
        T.StructField("reach", T.ArrayType(T.StringType(), False), False),
        T.StructField("crawl_delay", T.ArrayType(T.DoubleType(), True), False),
        T.StructField("sitemaps", T.IntegerType(), False),
        *[T.StructField(n, T.BooleanType(), False) for n in SIGNALS],
        *[T.StructField(n, T.ArrayType(T.StringType(), False), False) for n in OUTCOMES],
        T.StructField("contradiction", T.ArrayType(T.StringType(), True), False),
    ]
    return T.StructType(head + facts + verdicts)


def open_input(path: str) -> IO[bytes]:
    """A WARC file: a local path or ``file:`` URL, ``http(s)://`` (streamed, as
    ``https://data.commoncrawl.org/…``), or ``s3://bucket/key`` (streamed with boto3, which
    the executors must have, as cc-pyspark reads Common Crawl on AWS); warcio inflates gzip
    members itself."""
    if path.startswith("s3://"):
        import boto3  # type: ignore[import-not-found]

        bucket, _, key = path[len("s3://") :].partition("/")
        return boto3.client("s3").get_object(Bucket=bucket, Key=key)["Body"]
    if path.startswith(("http://", "https://")):
        from urllib.request import urlopen

        return urlopen(path)  # noqa: S310 (the job's own input list)
    if path.startswith("file://"):
        path = path[len("file://") :]
    elif path.startswith("file:"):
        path = path[len("file:") :]
    return open(path, "rb")


def _warn(path: str, offset: Optional[int], reason: str) -> None:
    where = "" if offset is None else f" at byte {offset}"
    # As the CLI words it: the file (quoted), the byte offset, the reason.
    print(
        f"robotrules: warning: {json.dumps(path)}: malformed WARC record{where}: {reason}",
        file=sys.stderr,
    )


def survey_warc(survey, index: int, path: str) -> Iterator[tuple]:  # type: ignore[no-untyped-def]
    """Every HTTP ``response`` record of the WARC file ``path`` (the ``index``-th input),
    surveyed: one record of ``capture_schema()`` per capture (``index`` and the offset give
    input order, as the CLI reads its inputs)."""
    from robotrules import url_key
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    with contextlib.closing(open_input(path)) as stream:
        records = ArchiveIterator(stream, no_record_parse=True, check_digests=False)
        offset = None
        try:
            for record in records:
                # The block first: asking warcio for the offset reads the record to its end.
                block = b"".join(iter(lambda: record.raw_stream.read(1 << 16), b""))
                errors = records.err_count
                offset = records.get_record_offset()
                # Malformed as the CLI's reader finds it: no Content-Length (a header section
                # cut short), fewer bytes than it says (a truncated file or gzip member), or no
                # blank line after the block (warcio counts it in `err_count`).
                if record.length is None:
                    _warn(path, offset, "no Content-Length")
                    continue
                if len(block) != record.length:
                    _warn(path, offset, f"truncated: {len(block)} of {record.length} bytes")
                    continue
                if records.err_count != errors:
                    _warn(
                        path,
                        offset,
                        f"the block does not end where Content-Length ({record.length}) says",
                    )
                    continue
                if (record.rec_type or "").lower() != "response":
                    continue
                url = (record.rec_headers.get_header("WARC-Target-URI") or "").strip()
                url = url[1:-1] if url.startswith("<") and url.endswith(">") else url
                content_type = record.rec_headers.get_header("Content-Type") or ""
                if url[:5].lower() not in ("http:", "https") or not content_type.lower().startswith(
                    "application/http"
                ):
                    continue
                try:
                    surveyed = survey.response(
                        url,
                        block,
                        time=record.rec_headers.get_header("WARC-Date") or "",
                        file=path,
                        offset=offset,
                    )
                except ValueError as error:
                    _warn(path, offset, str(error))
                    continue
                head = (index, url_key(url), surveyed.awaits_target)
                signals = surveyed.signals
                usage = surveyed.usage_rows()
                # Column by column: the outcomes and the contradiction, per crawler.
                per_crawler = [
                    [row[i] for row in usage] for i in range(len(SIGNALS), len(usage[0]))
                ]
                yield (
                    *head,
                    *surveyed.facts(),
                    *surveyed.verdicts(),
                    *[signals[n] for n in SIGNALS],
                    *per_crawler,
                )
        except (ArchiveLoadFailed, EOFError, OSError, zlib.error) as error:
            # warcio cannot find the next record: the rest of this file is not read (the CLI
            # looks for the next record; see docs/survey.md).
            _warn(path, offset, f"reading stops: {error}")


def final_target(hops: dict, url: str, redirect: str) -> Optional[str]:
    """The URL whose capture decides a redirect from ``url`` to ``redirect``, following the
    redirects seen (``hops``: URL key → target); ``None`` for a loop or too many hops
    (unavailable: ``open``). As robotrules-survey's ``run``."""
    target = redirect
    seen = {url}
    for _ in range(1, MAX_REDIRECTS):
        following = hops.get(target)
        if following is None:
            return target
        if target in seen:
            return None
        seen.add(target)
        target = following
    return None if target in hops else target


def _column(F, name: str, kind: str, nullable: bool):  # type: ignore[no-untyped-def]
    """Column ``name`` as type ``kind``; a required column is marked so (Spark writes it as
    Parquet's ``required``, as the CLI does) with a ``coalesce`` whose fallback never applies:
    after joins and ``inline`` Spark can no longer tell that it has no nulls."""
    column = F.col(name).cast(kind)
    if nullable:
        return column
    fallback = {"string": "", "long": 0, "integer": 0, "boolean": False}[kind]
    return F.coalesce(column, F.lit(fallback).cast(kind)).alias(name)


def run(  # type: ignore[no-untyped-def]
    spark, paths: list, agents: Optional[list], profile: Profile, output: str
) -> None:
    """Surveys ``paths`` and writes the rows as Parquet under ``output``."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from pyspark.sql.window import Window

    from robotrules import Survey

    # Refuse bad names before any work, as the CLI does; the crawlers in row order.
    names = Survey(agents, profile=profile).agents
    sc = spark.sparkContext

    def partition(items: Iterable[tuple]) -> Iterator[tuple]:
        survey = Survey(agents, profile=profile)
        for index, path in items:
            yield from survey_warc(survey, index, path)

    inputs = sc.parallelize(list(enumerate(paths)), max(1, len(paths)))
    captures = spark.createDataFrame(inputs.mapPartitions(partition), capture_schema()).persist(
        StorageLevel.MEMORY_AND_DISK
    )
    order = [F.col("input"), F.col("warc_offset")]
    # Redirect chains, followed on the driver: the hops are as many as the redirects, as the
    # CLI holds them. A URL redirected twice keeps its last redirect in input order, as the
    # CLI's map does.
    pending = captures.filter("awaits_target")
    hops: dict = {}
    for hop in pending.select("url_key", "redirect", *order).orderBy(*order).collect():
        hops[hop.url_key] = hop.redirect
    finals = [
        (p.url_key, p.redirect, final_target(hops, p.url_key, p.redirect))
        for p in pending.select("url_key", "redirect").distinct().collect()
    ]
    finals_df = spark.createDataFrame(finals, "url_key string, redirect string, target string")
    # What a redirect takes from its target's capture.
    verdicts = ("named", "reach", "crawl_delay", "sitemaps", *SIGNALS, *OUTCOMES, "contradiction")
    # The first capture of each final URL in input order gives its verdicts, when none is
    # unknown (a redirect's own capture).
    first = Window.partitionBy("url_key").orderBy(*order)
    found = (
        captures.join(finals_df.select(F.col("target").alias("url_key")).distinct(), "url_key")
        .withColumn("n", F.row_number().over(first))
        .filter("n = 1 AND NOT array_contains(reach, 'unknown')")
        .select(
            F.col("url_key").alias("target"),
            *[F.col(c).alias("t_" + c) for c in verdicts],
        )
    )
    n = len(names)

    def by_status(reach: str) -> list:
        """Every crawler ``reach`` by status: not named, no crawl-delay, no sitemaps, no usage
        signal, every outcome unknown, no contradiction."""
        return [
            F.array_repeat(F.lit(False), n),
            F.array_repeat(F.lit(reach), n),
            F.array_repeat(F.lit(None).cast("double"), n),
            F.lit(0),
            *[F.lit(False) for _ in SIGNALS],
            *[F.array_repeat(F.lit("unknown"), n) for _ in OUTCOMES],
            F.array_repeat(F.lit(None).cast("string"), n),
        ]

    resolved = (
        pending.join(finals_df, ["url_key", "redirect"], "left")
        .join(found, "target", "left")
        .select(
            *[c for c in captures.columns if c not in verdicts],
            *[
                F.when(F.col("target").isNull(), loop)
                .when(F.col("t_reach").isNotNull(), F.col("t_" + name))
                .otherwise(unknown)
                .alias(name)
                for name, loop, unknown in zip(verdicts, by_status("open"), by_status("unknown"))
            ],
        )
    )
    settled = captures.filter("NOT awaits_target")
    rows = (
        settled.unionByName(resolved)
        .select(
            *[F.col(c) for c, _, _ in COLUMNS[:FACTS]],
            F.inline(
                F.arrays_zip(
                    F.array(*[F.lit(name) for name in names]).alias("agent"),
                    F.col("named").alias("named"),
                    F.col("reach").alias("reach"),
                    F.col("crawl_delay").alias("crawl_delay"),
                    *[F.col(c).alias(c) for c in (*OUTCOMES, "contradiction")],
                )
            ),
            F.col("sitemaps"),
            *[F.col(c) for c in SIGNALS],
        )
        .select(*[_column(F, c, k, null) for c, k, null in COLUMNS])
    )
    if rows.schema != survey_schema():
        raise RuntimeError(f"the rows' schema is not the CLI's: {rows.schema}")
    rows.write.mode("overwrite").parquet(output)
    captures.unpersist()


def parse_args(argv: Optional[list] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="robots.txt captures in WARC files, surveyed per crawler "
        "(robotrules survey on Spark)"
    )
    parser.add_argument(
        "--agents",
        metavar="A,B,...",
        help="crawlers to survey, comma-separated (default: the CLI's default list)",
    )
    parser.add_argument(
        "--profile",
        default="google",
        choices=("google", "rfc9309", "legacy1994"),
        help="how robots.txt files are read (default: google)",
    )
    parser.add_argument("--output", required=True, metavar="DIR", help="Parquet output directory")
    parser.add_argument(
        "--input-list",
        metavar="FILE",
        help="read WARC paths from FILE too, one per line (gzipped or not), as Common Crawl's "
        "robotstxt.paths.gz",
    )
    parser.add_argument(
        "--input-prefix",
        default="",
        metavar="PREFIX",
        help="put PREFIX before each path of --input-list (https://data.commoncrawl.org/)",
    )
    parser.add_argument("--master", help="Spark master when run with python (default local[*])")
    parser.add_argument("warcs", nargs="*", metavar="WARC", help="WARC files, plain or gzipped")
    args = parser.parse_args(argv)
    if args.input_list:
        opener = gzip.open if args.input_list.endswith(".gz") else open
        with opener(args.input_list, "rt") as f:
            args.warcs += [args.input_prefix + line.strip() for line in f if line.strip()]
    if not args.warcs:
        parser.error("no WARC file to survey")
    return args


# The packages every worker imports.
WORKER_PACKAGES = ("robotrules", "warcio")


def worker_python(master: str, environ: Mapping[str, str]) -> Optional[str]:
    """The Python Spark's workers should run, when the job chooses it: in local mode, this
    job's own interpreter (``sys.executable``: the venv's Python that has ``robotrules``, even
    when the venv is not activated), unless ``PYSPARK_PYTHON`` says otherwise. ``None`` for a
    cluster, whose workers' Python is the cluster's business (``PYSPARK_PYTHON``,
    ``spark.pyspark.python``)."""
    if environ.get("PYSPARK_PYTHON"):
        return None
    if master == "local" or master.startswith("local["):
        return sys.executable
    return None


def _probe(_: object) -> tuple:
    """On a worker: its interpreter and the packages of ``WORKER_PACKAGES`` it cannot import."""
    import importlib
    import sys as worker_sys

    missing = []
    for name in WORKER_PACKAGES:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return worker_sys.executable, missing


def missing_on_workers(sc) -> Optional[str]:  # type: ignore[no-untyped-def]
    """One line naming the workers' interpreter and the packages it lacks, or ``None``."""
    python, missing = sc.parallelize([0], 1).map(_probe).first()
    if not missing:
        return None
    return (
        f"the Spark workers' Python ({python}) cannot import {', '.join(missing)}: install "
        f"it there, or set PYSPARK_PYTHON to a Python that has it"
    )


def main(argv: Optional[list] = None) -> None:
    args = parse_args(argv)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("robotrules-survey")
    if args.master:
        builder = builder.master(args.master)
    python = worker_python(args.master or "local[*]", os.environ)
    if python and not os.environ.get("PYSPARK_GATEWAY_PORT"):
        # Run with `python`, not spark-submit: the workers are started with this variable.
        os.environ["PYSPARK_PYTHON"] = python
    spark = builder.getOrCreate()
    try:
        sc = spark.sparkContext
        python = worker_python(sc.master, os.environ)
        if python:
            # Under spark-submit in local mode: the functions shipped from now on name it.
            sc.pythonExec = python
        problem = missing_on_workers(sc)
        if problem:
            print(f"robotrules: error: {problem}", file=sys.stderr)
            raise SystemExit(2)
        agents = args.agents.split(",") if args.agents else None
        run(spark, args.warcs, agents, args.profile, args.output)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()

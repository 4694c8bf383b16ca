#!/usr/bin/env python3
"""Import the shared assertion corpora into the conformance corpus.

Reads the JSON Lines files of `shared/corpora/` (other implementations' expectations, see
that folder's README) and writes one conformance case per row, in the case format of
`conformance/README.md`:

    rfc9309.jsonl            -> conformance/rfc9309/rfc9309.jsonl
    google-robotstxt.jsonl   -> conformance/google-robotstxt/robots_test.jsonl
    protego.jsonl            -> conformance/protego/<upstream test file>.jsonl
    crawler-commons.jsonl    -> conformance/crawler-commons/<upstream test file>.jsonl
    texting_robots.jsonl     -> conformance/texting_robots/<upstream test file>.jsonl
    cpython-robotparser.jsonl-> conformance/cpython-robotparser/test_robotparser.jsonl

Case ids are `<source>/<line number in the shared corpus file, 4 digits>`, so they stay stable
as long as the shared corpus does. The output is deterministic: running the script twice gives
identical files.

Usage: python3 conformance/tools/import.py [--corpora DIR] [--out DIR]
(defaults: /work/shared/corpora and the `conformance/` folder this script lives in).
Standard library only.
"""

import argparse
import json
import os
import re
import sys

from jsonl import write_jsonl

ALL_PROFILES = ["rfc9309", "google", "legacy1994"]

LICENCES = {
    "rfc9309": "IETF Trust (code components Revised BSD)",
    "google-robotstxt": "Apache-2.0",
    "protego": "BSD-3-Clause",
    "crawler-commons": "Apache-2.0",
    "texting_robots": "MIT OR Apache-2.0",
    "cpython-robotparser": "PSF-2.0",
}


def read_rows(path):
    """Yield (line number, row) for every non-empty line of a JSON Lines file."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                yield number, json.loads(line)


def model_input(row):
    """The `input` object of a model case: exact bytes when the corpus has them."""
    if "robots_bytes_b64" in row:
        robots = {"robots_b64": row["robots_bytes_b64"]}
    else:
        robots = {"robots": row["robots"]}
    return dict(robots, agent=row["user_agent"], url=row["url"])


def case(case_id, source, section, profiles, row, provenance, note, pending=None):
    """Build one model case with the field order of conformance/README.md."""
    result = {
        "id": case_id,
        "source": source,
        "section": section,
        "layer": "model",
        "profiles": profiles,
        "input": model_input(row),
        "expect": {"allowed": bool(row["allowed"])},
    }
    if pending:
        result["pending"] = pending
    result["provenance"] = provenance
    result["note"] = note
    return result


def google_verdict(row):
    """The google/robotstxt verdict as the notes print it (true/false/null)."""
    return json.dumps(row.get("google_robotstxt"))


# ---------------------------------------------------------------------------------------------
# RFC 9309


RFC_SECTION = re.compile(r"RFC\s*9309\s*§\s*([0-9]+(?:\.[0-9]+)*)\s*(.*)")


def import_rfc9309(corpora):
    """RFC 9309 examples: profile rfc9309, plus google where Google's library agrees."""
    cases = []
    for number, row in read_rows(os.path.join(corpora, "rfc9309.jsonl")):
        match = RFC_SECTION.match(row["source"])
        if not match:
            raise SystemExit(f"rfc9309.jsonl line {number}: no section in {row['source']!r}")
        section = f"RFC 9309 §{match.group(1)}"
        detail = match.group(2).strip()
        profiles = ["rfc9309"]
        if row.get("google_robotstxt") == row["allowed"]:
            profiles.append("google")
        parts = [f"kind={row['kind']}"]
        if detail:
            parts.append(detail)
        if row.get("note"):
            parts.append(row["note"])
        parts.append(f"google_robotstxt={google_verdict(row)}")
        cases.append(
            case(
                f"rfc9309/{number:04d}",
                "rfc9309",
                section,
                profiles,
                row,
                f"shared/corpora/rfc9309.jsonl line {number}; {row['source']} "
                f"({LICENCES['rfc9309']})",
                "; ".join(parts),
            )
        )
    return {"rfc9309/rfc9309.jsonl": cases}


# ---------------------------------------------------------------------------------------------
# google/robotstxt


def import_google(corpora):
    """google/robotstxt robots_test.cc assertions: google, and rfc9309 checked on them too."""
    cases = []
    for number, row in read_rows(os.path.join(corpora, "google-robotstxt.jsonl")):
        test_file, line, test_name = row["source"].split(":", 2)
        note = "google_specific=" + json.dumps(row.get("google_specific"))
        cases.append(
            case(
                f"google-robotstxt/{number:04d}",
                "google-robotstxt",
                f"{test_file} {test_name}",
                ["google", "rfc9309"],
                row,
                f"shared/corpora/google-robotstxt.jsonl line {number}; google/robotstxt "
                f"{test_file}:{line} at commit 22b355f ({LICENCES['google-robotstxt']})",
                note,
            )
        )
    return {"google-robotstxt/robots_test.jsonl": cases}


# ---------------------------------------------------------------------------------------------
# Peer suites


def strip_params(name):
    """`test_x[param-id]` -> `test_x` (pytest parameter ids stay in the provenance)."""
    return re.sub(r"\[.*\]$", "", name)


def protego_location(source):
    """scrapy/protego:tests/test_protego.py::TestProtego::test_allowed -> file, section."""
    path = source.split(":", 1)[1]
    file_part, _, test = path.partition("::")
    base = os.path.basename(file_part)
    return os.path.splitext(base)[0], f"{base}::{strip_params(test)}"


def crawler_commons_location(source):
    """crawler-commons:src/.../SimpleRobotRulesParserTest.java:214:testX -> file, section."""
    _, path, _line, test = source.split(":", 3)
    base = os.path.basename(path)
    return os.path.splitext(base)[0], f"{base} {test}"


def texting_robots_location(source):
    """Smerity/texting_robots:src/test.rs::test_x (or :doctest) -> file, section."""
    path = source.split(":", 1)[1]
    if path == "doctest":
        return "doctest", "doctest"
    file_part, _, test = path.partition("::")
    base = os.path.basename(file_part)
    return os.path.splitext(base)[0], f"{base}::{strip_params(test)}"


def cpython_location(source):
    """python/cpython:Lib/test/test_robotparser.py:Class.test -> file, section."""
    _, path, test = source.split(":", 2)
    base = os.path.basename(path)
    return os.path.splitext(base)[0], f"{base} {test}"


PEERS = [
    ("protego", "protego.jsonl", protego_location),
    ("crawler-commons", "crawler-commons.jsonl", crawler_commons_location),
    ("texting_robots", "texting_robots.jsonl", texting_robots_location),
    ("cpython-robotparser", "cpython-robotparser.jsonl", cpython_location),
]


def undouble_line_breaks(row):
    """Undo the doubled line breaks of the shared CPython rows.

    In `cpython-robotparser.jsonl` every line break of the body is doubled (every run of
    `\n` has even length), which is not the upstream test text: CPython 3.11.7's own
    `urllib.robotparser` disagrees with 36 of the 54 verdicts on the bodies as given (a blank
    line right after `User-agent:` discards the entry) and agrees with all 54 once `\n\n`
    becomes `\n`. Blank lines do not change the rfc9309 or google reading (nor Google's
    recorded verdict), but they end records in legacy1994, so the import restores the text.
    """
    body = row["robots"]
    if any(len(run) % 2 for run in re.findall(r"\n+", body)):
        raise SystemExit("cpython-robotparser.jsonl: a body without doubled line breaks")
    return dict(row, robots=body.replace("\n\n", "\n"))


UNDOUBLED_NOTE = (
    "robots body: the shared corpus doubles every line break; the import halves them again, "
    "which restores the upstream test text and reproduces CPython's verdict"
)


def import_peer(corpora, source, file_name, locate, skipped):
    """One peer suite: every row a model case for all three profiles, grouped by test file."""
    files = {}
    for number, row in read_rows(os.path.join(corpora, file_name)):
        if source == "cpython-robotparser":
            row = undouble_line_breaks(row)
        case_id = f"{source}/{number:04d}"
        if "user_agents" in row:
            # The suite passed several agent names at once and its verdict is about all of
            # them together (crawler-commons merges every matching group); one agent alone
            # would give a different answer, so the row cannot become a one-agent case.
            skipped.append((case_id, row["source"], row["user_agents"]))
            continue
        test_file, section = locate(row["source"])
        parts = [f"google_robotstxt={google_verdict(row)}"]
        if row.get("note"):
            parts.append(row["note"])
        if source == "cpython-robotparser":
            parts.append(UNDOUBLED_NOTE)
        parts.append(f"semantics: {row['semantics']}")
        files.setdefault(f"{source}/{test_file}.jsonl", []).append(
            case(
                case_id,
                source,
                section,
                list(ALL_PROFILES),
                row,
                f"shared/corpora/{file_name} line {number}; {row['source']} "
                f"({LICENCES[source]})",
                "; ".join(parts),
            )
        )
    return files


# ---------------------------------------------------------------------------------------------


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default="/work/shared/corpora")
    parser.add_argument("--out", default=os.path.dirname(here))
    args = parser.parse_args(argv)

    outputs = {}
    outputs.update(import_rfc9309(args.corpora))
    outputs.update(import_google(args.corpora))
    skipped = []
    for source, file_name, locate in PEERS:
        outputs.update(import_peer(args.corpora, source, file_name, locate, skipped))

    for relative, cases in sorted(outputs.items()):
        write_jsonl(os.path.join(args.out, relative), cases)
        print(f"{relative}: {len(cases)} cases")
    for case_id, source, agents in skipped:
        print(f"skipped {case_id} ({source}): several agents {agents}")
    print(f"skipped {len(skipped)} rows with several agent names")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Check the conformance corpus against the case format of `conformance/README.md`.

Every `.jsonl` file under `conformance/` must hold one JSON object per line with the required
fields; ids must be unique across the whole corpus; `source` must match the folder; `layer`,
`profiles`, `input` and `expect` must fit the layer. Prints the number of cases per source and
layer (and how many are pending) and exits non-zero on any problem.

Usage: python3 conformance/tools/validate.py [DIR]   (default: the conformance/ folder).
Standard library only.
"""

import base64
import collections
import json
import os
import sys

REQUIRED = ["id", "source", "section", "layer", "profiles", "input", "expect", "provenance"]
SOURCES = {
    "seed-google-spec", "seed-1994", "rfc9309", "google-robotstxt", "protego",
    "crawler-commons", "texting_robots", "cpython-robotparser", "robotrules",
}
LAYERS = {"grammar", "url", "model", "fetch", "cli"}
PROFILES = {"rfc9309", "google", "legacy1994"}
URL_OPS = {
    "robots_txt_url": ({"url"}, {"robots_txt_url", "error"}),
    "governs": ({"robots_txt", "url"}, {"governs"}),
    "origin": ({"url"}, {"origin"}),
    "path": ({"url"}, {"path"}),
}
ACCESS = {"success", "unavailable", "unreachable"}
VERDICTS = {"conditional", "full-allow", "full-disallow"}
DIRECTIVE_KINDS = {"user-agent", "allow", "disallow", "sitemap", "other"}


def robots_ok(inp, problems):
    """A robots body as text or as base64 bytes (exactly one of them)."""
    has_text = isinstance(inp.get("robots"), str)
    has_b64 = isinstance(inp.get("robots_b64"), str)
    if has_text == has_b64:
        problems.append("input needs exactly one of robots / robots_b64")
    if has_b64:
        try:
            base64.b64decode(inp["robots_b64"], validate=True)
        except ValueError as error:
            problems.append(f"robots_b64 is not base64: {error}")


def check_layer(case, problems):
    """Layer-specific shape of input and expect."""
    layer, inp, expect = case["layer"], case["input"], case["expect"]
    if not isinstance(inp, dict) or not isinstance(expect, dict):
        problems.append("input and expect must be objects")
        return
    if layer == "model":
        robots_ok(inp, problems)
        for key in ("agent", "url"):
            if not isinstance(inp.get(key), str):
                problems.append(f"model input.{key} must be a string")
        if not (isinstance(expect.get("allowed"), bool) or expect.get("error") == "invalid-agent"):
            problems.append("model expect needs allowed (bool) or error: invalid-agent")
    elif layer == "url":
        op = inp.get("op")
        if op not in URL_OPS:
            problems.append(f"unknown url op {op!r}")
            return
        needed, expected = URL_OPS[op]
        for key in needed:
            if not isinstance(inp.get(key), str):
                problems.append(f"url op {op} needs input.{key}")
        if not set(expect) & expected:
            problems.append(f"url op {op} needs expect key among {sorted(expected)}")
    elif layer == "fetch":
        if inp.get("scheme") not in ("http", "https", "ftp"):
            problems.append("fetch input.scheme must be http, https or ftp")
        if "status" not in inp and "event" not in inp:
            problems.append("fetch input needs status or event")
        if expect.get("access") not in ACCESS:
            problems.append("fetch expect.access must be success/unavailable/unreachable")
        if "verdict" in expect and expect["verdict"] not in VERDICTS:
            problems.append("fetch expect.verdict unknown")
    elif layer == "grammar":
        robots_ok(inp, problems)
        if not ({"lines", "directives"} & set(expect)):
            problems.append("grammar expect needs lines or directives")
        for pair in expect.get("directives", []):
            if not (isinstance(pair, list) and len(pair) == 2 and pair[0] in DIRECTIVE_KINDS):
                problems.append(f"bad directive pair {pair!r}")


def main(argv):
    root = argv[0] if argv else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    seen = {}
    problems_total = 0
    counts = collections.Counter()
    pending = collections.Counter()
    per_file = {}
    for folder, _dirs, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".jsonl"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            per_file[relative] = 0
            with open(path, encoding="utf-8") as handle:
                for number, line in enumerate(handle, start=1):
                    where = f"{relative}:{number}"
                    problems = []
                    try:
                        case = json.loads(line)
                    except json.JSONDecodeError as error:
                        print(f"{where}: not JSON: {error}")
                        problems_total += 1
                        continue
                    missing = [key for key in REQUIRED if key not in case]
                    if missing:
                        problems.append(f"missing {missing}")
                    else:
                        if case["id"] in seen:
                            problems.append(f"duplicate id {case['id']} (also {seen[case['id']]})")
                        seen[case["id"]] = where
                        if case["source"] not in SOURCES:
                            problems.append(f"unknown source {case['source']!r}")
                        if relative.split(os.sep)[0] != case["source"]:
                            problems.append("source does not match the folder")
                        if case["layer"] not in LAYERS:
                            problems.append(f"unknown layer {case['layer']!r}")
                        if (not isinstance(case["profiles"], list) or not case["profiles"]
                                or set(case["profiles"]) - PROFILES
                                or len(set(case["profiles"])) != len(case["profiles"])):
                            problems.append(f"bad profiles {case['profiles']!r}")
                        if "pending" in case and not isinstance(case["pending"], str):
                            problems.append("pending must be a string")
                        if not problems:
                            check_layer(case, problems)
                    for problem in problems:
                        print(f"{where}: {problem}")
                    problems_total += len(problems)
                    if not missing:
                        counts[(case["source"], case["layer"])] += 1
                        if case.get("pending"):
                            pending[(case["source"], case["layer"])] += 1
                    per_file[relative] += 1

    print(f"{'file':<52} cases")
    for relative, number in sorted(per_file.items()):
        print(f"{relative:<52} {number:>5}")
    print()
    print(f"{'source':<22} {'layer':<8} {'cases':>6} {'pending':>8}")
    for (source, layer), number in sorted(counts.items()):
        print(f"{source:<22} {layer:<8} {number:>6} {pending[(source, layer)]:>8}")
    print(f"{'total':<31} {sum(counts.values()):>6} {sum(pending.values()):>8}")
    print(f"{len(seen)} unique ids, {problems_total} problems")
    return 1 if problems_total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

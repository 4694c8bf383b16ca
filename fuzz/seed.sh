#!/usr/bin/env bash
# Build fuzz/corpus/<target>/ from the conformance corpus (conformance/**/*.jsonl) and a
# sample of real robots.txt files (../shared/corpora/real-sample/, when present).
# Corpora are generated, not committed (see .gitignore). Usage: fuzz/seed.sh [REAL_SAMPLE_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
real="${1:-$root/../shared/corpora/real-sample}"
exec python3 - "$root" "$here/corpus" "$real" <<'PY'
import base64, glob, hashlib, json, os, re, sys

root, out, real = sys.argv[1:4]
SEP = b"\xff"
targets = ["grammar_parse", "parse_is_allowed", "url", "matcher_differential",
           "lint_explain", "cache_policy", "fleet_codec"]
for t in targets:
    os.makedirs(os.path.join(out, t), exist_ok=True)
count = {t: 0 for t in targets}

def put(target, data):
    name = hashlib.sha1(data).hexdigest()
    path = os.path.join(out, target, name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        count[target] += 1

RULE = re.compile(rb"^\s*(?:dis)?allow\s*:\s*([^#\r\n]*)", re.I | re.M)

def robots_seeds(body, agent, url):
    put("grammar_parse", body)
    full = body + SEP + agent + SEP + url
    put("parse_is_allowed", full)
    put("lint_explain", full)
    for m in RULE.finditer(body):
        pattern = m.group(1).strip()
        if pattern:
            put("matcher_differential", pattern + SEP + url)

for path in sorted(glob.glob(os.path.join(root, "conformance", "**", "*.jsonl"), recursive=True)):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            case = json.loads(line)
            inp = case.get("input", {})
            body = None
            if "robots" in inp:
                body = inp["robots"].encode("utf-8", "surrogateescape")
            elif "robots_b64" in inp:
                body = base64.b64decode(inp["robots_b64"])
            agent = str(inp.get("agent", "FooBot")).encode()
            url = str(inp.get("url", "/")).encode()
            if body is not None:
                robots_seeds(body, agent, url)
            if "url" in inp:
                put("url", url + SEP + str(inp.get("robots_txt", "http://example.com/robots.txt")).encode())
            if "headers" in inp:
                put("cache_policy", json.dumps(inp["headers"]).encode())

# A sample of real files: every 40th by name, at most 64 KiB each (bigger seeds make libFuzzer
# raise -max_len for every input; the sweep covers the big files).
if os.path.isdir(real):
    names = sorted(os.listdir(real))
    for name in names[::40]:
        with open(os.path.join(real, name), "rb") as f:
            body = f.read()
        if len(body) <= 65536:
            robots_seeds(body, b"Googlebot", b"https://example.com/search?q=1")

# Header values for the cache policy: Cache-Control, Expires, Age, Date variants.
for value in [b"max-age=3600", b"no-cache", b"no-store", b"max-age=0, must-revalidate",
              b"public, max-age=86400000", b"s-maxage=10, max-age=5", b"max-age=\"60\"",
              b"Thu, 01 Jan 1970 00:00:00 GMT", b"Sun, 06 Nov 1994 08:49:37 GMT",
              b"Sunday, 06-Nov-94 08:49:37 GMT", b"Sun Nov  6 08:49:37 1994", b"0", b"-1"]:
    put("cache_policy", value)

for t in targets:
    print(f"{t}: {count[t]} new seeds, {len(os.listdir(os.path.join(out, t)))} in corpus/{t}")
PY

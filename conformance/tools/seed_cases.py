#!/usr/bin/env python3
"""Write the conformance cases derived from the seed documents (`shared/seeds/`).

The seeds are Google's robots.txt specification in four languages (000 Korean: the older
Google help page; 001 Indonesian, 002 Thai, 003 Finnish: the 2019 specification; 003 has lost
most of its tables) and the 1994 convention "A Standard for Robot Exclusion" (004, English).
Every table row and worked example is written down below as data; a row that appears in
several translations is ONE case whose provenance lists every seed that has it.

Output (under `conformance/`):

    seed-google-spec/robots-txt-location.jsonl   url layer: governs / origin / robots_txt_url
    seed-google-spec/http-result-codes.jsonl     fetch layer (run against loopback servers)
    seed-google-spec/path-matching.jsonl         model: the "example path matches" table
    seed-google-spec/precedence.jsonl            model: the "sample situations" table
    seed-google-spec/user-agent-groups.jsonl     model: group selection, grouping, merging
    seed-google-spec/file-format.jsonl           grammar + model: BOM, line ends, comments, ...
    seed-google-spec/directive-examples.jsonl    model: the worked examples of the older page
    seed-google-spec/file-size.jsonl             model: the 500 KiB limit (two ~510 KB cases)
    seed-1994/examples.jsonl                     model, legacy1994: every example of 004

Usage: python3 conformance/tools/seed_cases.py [--out DIR]. Standard library only; the output
is deterministic.
"""

import argparse
import base64
import os
import sys

from jsonl import write_jsonl

# Seed files and their languages (provenance strings).
KO = "000_a98528de445fdb02.txt (Korean)"
ID = "001_7ef7c9b77e569c31.txt (Indonesian)"
TH = "002_55a515bf544859bd.txt (Thai)"
FI = "003_3126eb3bfc6c3856.txt (Finnish)"
EN1994 = "004_2c01f74b73f657bd.txt (English)"

ALL = ["rfc9309", "google", "legacy1994"]
RFC_GOOGLE = ["rfc9309", "google"]
LEGACY = ["legacy1994"]

GOOGLE = "seed-google-spec"
STD1994 = "seed-1994"

BASE = "http://example.com"


def prov(*seeds):
    """Provenance: every seed file (and language) the row or example appears in."""
    return "; ".join(seeds)


class Writer:
    """Collects cases per output file and numbers their ids per prefix."""

    def __init__(self):
        self.files = {}
        self.counters = {}

    def add(self, path, source, prefix, section, layer, profiles, inp, expect, provenance,
            note="", pending=None):
        number = self.counters.get((source, prefix), 0) + 1
        self.counters[(source, prefix)] = number
        item = {
            "id": f"{source}/{prefix}-{number:03d}",
            "source": source,
            "section": section,
            "layer": layer,
            "profiles": list(profiles),
            "input": inp,
            "expect": expect,
        }
        if pending:
            item["pending"] = pending
        item["provenance"] = provenance
        item["note"] = note
        self.files.setdefault(path, []).append(item)

    def model(self, path, source, prefix, section, profiles, robots, agent, url, allowed,
              provenance, note=""):
        if isinstance(robots, bytes):
            inp = {"robots_b64": base64.b64encode(robots).decode("ascii")}
        else:
            inp = {"robots": robots}
        inp.update(agent=agent, url=url)
        self.add(path, source, prefix, section, "model", profiles, inp, {"allowed": allowed},
                 provenance, note)


# =============================================================================================
# 1. robots.txt location and scope (url layer)

LOCATION = "seed-google-spec/robots-txt-location.jsonl"
SEC_VALID = "seed: robots.txt location — valid for"
SEC_INVALID = "seed: robots.txt location — not valid for"
SEC_ORIGIN = "seed: robots.txt location — origin"
SEC_ROBOTS_URL = "seed: robots.txt location — robots.txt URL"

# (robots.txt URL, valid for, not valid for, seeds, note)
LOCATION_ROWS = [
    ("http://example.com/robots.txt",
     ["http://example.com/", "http://example.com/folder/file"],
     ["http://other.example.com/", "https://example.com/", "http://example.com:8181/"],
     [KO, ID, TH],
     "the general case: not valid for other subdomains, protocols or port numbers; valid for "
     "all files in all subdirectories on the same host, protocol and port"),
    ("http://www.example.com/robots.txt",
     ["http://www.example.com/"],
     ["http://example.com/", "http://shop.www.example.com/", "http://www.shop.example.com/"],
     [KO, ID, TH],
     "a robots.txt on a subdomain is only valid for that subdomain"),
    ("http://example.com/folder/robots.txt",
     [],
     ["http://example.com/folder/", "http://example.com/folder/file", "http://example.com/"],
     [KO, ID, TH],
     "the seed: not a valid robots.txt file, crawlers do not check for robots.txt files in "
     "subdirectories; the URLs (its own folder, a file in it, the root) are chosen to show it "
     "governs nothing"),
    ("http://www.müller.eu/robots.txt",
     ["http://www.müller.eu/", "http://www.xn--mller-kva.eu/"],
     ["http://www.muller.eu/"],
     [KO, ID, TH],
     "IDNs are equivalent to their punycode versions (RFC 3492)"),
    ("ftp://example.com/robots.txt",
     ["ftp://example.com/"],
     ["http://example.com/"],
     [KO, ID, TH],
     "Google-specific in the seed: robots.txt is used for FTP resources"),
    ("http://212.96.82.21/robots.txt",
     ["http://212.96.82.21/"],
     ["http://example.com/"],
     [KO, ID, TH],
     "an IP-address host name only covers crawling that IP address as host name, not every "
     "site hosted on it (the seed: 'not valid for http://example.com/ even if hosted on "
     "212.96.82.21')"),
    ("http://example.com:80/robots.txt",
     ["http://example.com:80/", "http://example.com/"],
     ["http://example.com:81/"],
     [KO, ID, TH],
     "standard port numbers (http 80, https 443, ftp 21) are equivalent to the default host "
     "name"),
    ("http://example.com:8181/robots.txt",
     ["http://example.com:8181/"],
     ["http://example.com/"],
     [KO, ID, TH],
     "a robots.txt on a non-standard port only covers content on that port"),
    ("http://www.example.com/mysite/robots.txt",
     [],
     ["http://www.example.com/mysite/", "http://www.example.com/"],
     [KO],
     "running text of the older help page: http://www.example.com/robots.txt is a valid "
     "location, http://www.example.com/mysite/robots.txt is not (crawlers only look at the "
     "root); URLs chosen to show it governs nothing"),
]

# Derived rows: (robots.txt URL, URL, governs, seeds, note)
LOCATION_DERIVED = [
    ("http://www.example.com/robots.txt", "http://www.example.com/mysite/", True, [KO],
     "running text of the older help page: http://www.example.com/robots.txt is the valid "
     "location, so it covers /mysite/ too"),
    ("http://example.com/robots.txt", "http://example.com:80/", True, [KO, ID, TH],
     "the http://example.com:80/robots.txt row read the other way round: port 80 is the "
     "default http port"),
    ("https://example.com:443/robots.txt", "https://example.com/", True, [KO],
     "derived from the explanation column of the older help page: 'standard port numbers "
     "(http: 80, https: 443, ftp: 21) are equivalent to the default host name'"),
    ("ftp://example.com:21/robots.txt", "ftp://example.com/", True, [KO],
     "derived from the explanation column of the older help page: 'standard port numbers "
     "(http: 80, https: 443, ftp: 21) are equivalent to the default host name'"),
]

# (URL, origin, seeds, note)
ORIGIN_ROWS = [
    ("http://www.müller.eu/", "http://www.xn--mller-kva.eu", [KO, ID, TH],
     "IDN row: www.müller.eu is the same host as its punycode form"),
    ("http://www.xn--mller-kva.eu/", "http://www.xn--mller-kva.eu", [KO, ID, TH],
     "IDN row, punycode form"),
    ("http://www.muller.eu/", "http://www.muller.eu", [KO, ID, TH],
     "IDN row: www.muller.eu (without the umlaut) is a different host"),
    ("http://example.com:80/", "http://example.com", [KO, ID, TH],
     "default port 80 elided"),
    ("http://example.com:8181/", "http://example.com:8181", [KO, ID, TH],
     "non-standard port kept"),
    ("http://212.96.82.21/", "http://212.96.82.21", [KO, ID, TH], "IPv4 host kept"),
    ("ftp://example.com/", "ftp://example.com", [KO, ID, TH], "ftp scheme kept"),
    ("https://example.com:443/", "https://example.com", [KO],
     "derived from the older help page: https 443 is a standard port"),
]

# (URL, robots.txt URL, seeds, note)
ROBOTS_URL_ROWS = [
    ("http://example.com/folder/file", "http://example.com/robots.txt", [KO, ID, TH],
     "the robots.txt governing a file in a subdirectory is at the host root"),
    ("http://www.müller.eu/", "http://www.xn--mller-kva.eu/robots.txt", [KO, ID, TH],
     "IDN host in punycode"),
    ("http://example.com:80/", "http://example.com/robots.txt", [KO, ID, TH],
     "default port elided"),
    ("http://example.com:8181/", "http://example.com:8181/robots.txt", [KO, ID, TH],
     "non-standard port kept"),
    ("ftp://example.com/", "ftp://example.com/robots.txt", [KO, ID, TH], "ftp scheme"),
    ("http://212.96.82.21/", "http://212.96.82.21/robots.txt", [KO, ID, TH], "IPv4 host"),
    ("http://shop.www.example.com/", "http://shop.www.example.com/robots.txt", [KO, ID, TH],
     "a subdomain has its own robots.txt"),
    ("http://www.example.com/mysite/page.html", "http://www.example.com/robots.txt", [KO],
     "older help page: the robots.txt must be at the root, not in /mysite/"),
]


def location_cases(w):
    for robots_txt, valid, invalid, seeds, note in LOCATION_ROWS:
        for url in valid:
            w.add(LOCATION, GOOGLE, "location", SEC_VALID, "url", ALL,
                  {"op": "governs", "robots_txt": robots_txt, "url": url},
                  {"governs": True}, prov(*seeds), note)
        for url in invalid:
            w.add(LOCATION, GOOGLE, "location", SEC_INVALID, "url", ALL,
                  {"op": "governs", "robots_txt": robots_txt, "url": url},
                  {"governs": False}, prov(*seeds), note)
    for robots_txt, url, governs, seeds, note in LOCATION_DERIVED:
        w.add(LOCATION, GOOGLE, "location", SEC_VALID if governs else SEC_INVALID, "url", ALL,
              {"op": "governs", "robots_txt": robots_txt, "url": url},
              {"governs": governs}, prov(*seeds), note)
    for url, origin, seeds, note in ORIGIN_ROWS:
        w.add(LOCATION, GOOGLE, "location", SEC_ORIGIN, "url", ALL,
              {"op": "origin", "url": url}, {"origin": origin}, prov(*seeds), note)
    for url, robots_url, seeds, note in ROBOTS_URL_ROWS:
        w.add(LOCATION, GOOGLE, "location", SEC_ROBOTS_URL, "url", ALL,
              {"op": "robots_txt_url", "url": url}, {"robots_txt_url": robots_url},
              prov(*seeds), note)


# =============================================================================================
# 2. HTTP result codes (fetch layer)

FETCH = "seed-google-spec/http-result-codes.jsonl"
SEC_FETCH = "seed: handling HTTP result codes"

SUCCESS = {"access": "success", "verdict": "conditional"}
UNAVAILABLE = {"access": "unavailable", "verdict": "full-allow"}
UNREACHABLE = {"access": "unreachable", "verdict": "full-disallow"}

# (input, expect, seeds, note)
FETCH_ROWS = [
    ({"scheme": "http", "status": 200}, SUCCESS, [KO, ID, TH, FI],
     "2xx (success): crawling is 'conditional allow', the file's rules decide"),
    ({"scheme": "https", "status": 200}, SUCCESS, [KO, ID, TH, FI],
     "2xx (success) over https"),
    ({"scheme": "http", "status": 204}, SUCCESS, [KO, ID, TH, FI],
     "any 2xx is success; an empty body then has no rules (allow all through the rules, "
     "not through the access result)"),
    ({"scheme": "http", "event": "redirects:1", "status": 200}, SUCCESS, [KO, ID, TH, FI],
     "3xx: redirects are followed; one hop then 200"),
    ({"scheme": "http", "event": "redirects:5", "status": 200}, SUCCESS, [KO, ID, TH, FI],
     "3xx: at least five hops are followed (RFC 1945 for HTTP/1.0); five hops then 200"),
    ({"scheme": "http", "event": "redirects:6"}, UNAVAILABLE, [KO, ID, TH, FI],
     "3xx: after the hop limit the crawler stops and treats it as a 404 (unavailable, full "
     "allow). 000 says the limit is 5 (the RFC 1945 maximum); 001-003 say 'at least five'; "
     "the design fixes five, so a sixth redirect is not followed"),
    ({"scheme": "http", "event": "redirect-loop"}, UNAVAILABLE, [KO],
     "older help page: redirects are followed until a valid result is found or a loop is "
     "recognised, then treated as a 404"),
    ({"scheme": "http", "status": 200, "headers": {"content-type": "text/html"},
      "event": "html-meta-refresh"}, SUCCESS, [ID, TH, FI],
     "logical redirects (frames, JavaScript, meta refresh) in a 2xx HTML body are not "
     "followed: the content of the first page is used to find rules (000 calls this "
     "undefined)"),
    ({"scheme": "http", "status": 400}, UNAVAILABLE, [KO, ID, TH, FI],
     "4xx (client errors): all treated the same, no valid robots.txt, no restrictions: full "
     "allow"),
    ({"scheme": "http", "status": 401}, UNAVAILABLE, [KO, ID, TH, FI],
     "4xx: 000 names 401 'Unauthorized' explicitly as full allow; 001-003 treat all 4xx the "
     "same"),
    ({"scheme": "http", "status": 403}, UNAVAILABLE, [KO, ID, TH, FI],
     "4xx: 000 names 403 'Forbidden' explicitly as full allow; 001-003 treat all 4xx the "
     "same"),
    ({"scheme": "http", "status": 404}, UNAVAILABLE, [KO, ID, TH, FI],
     "4xx: not found, full allow"),
    ({"scheme": "http", "status": 410}, UNAVAILABLE, [KO, ID, TH, FI],
     "4xx: gone, full allow"),
    ({"scheme": "http", "status": 429}, UNAVAILABLE, [KO, ID, TH, FI],
     "AMBIGUOUS: no seed mentions 429; read literally ('all 4xx errors are treated the same') "
     "it is full allow. The design makes 429 configurable with default unreachable (as "
     "Google's current documentation does), so this case records the seeds' literal reading "
     "and needs an expected-differences line or a non-default configuration"),
    ({"scheme": "http", "status": 500}, UNREACHABLE, [KO, ID, TH, FI],
     "5xx (server errors): temporary errors, crawling is 'full disallow'; requests are "
     "retried until a non-server-error code is obtained"),
    ({"scheme": "http", "status": 502}, UNREACHABLE, [KO, ID, TH, FI],
     "5xx: full disallow"),
    ({"scheme": "http", "status": 503}, UNREACHABLE, [KO, ID, TH, FI],
     "5xx: 503 (Service Unavailable) leads to fairly frequent retries; the seed recommends "
     "503 to suspend crawling temporarily"),
    ({"scheme": "http", "status": 503, "event": "unreachable-days:1,cached-copy"},
     {"access": "unreachable", "verdict": "conditional"}, [KO, ID, TH, FI],
     "caching row: content may be cached longer when refreshing is not possible (timeouts, "
     "5xx), so a server error with a cached copy keeps using the cached rules. The event "
     "'unreachable-days:N,cached-copy' (or ',no-cached-copy') means: the file has been "
     "unreachable for N days and a last good copy is (is not) in the cache"),
    ({"scheme": "http", "status": 503, "event": "unreachable-days:31,cached-copy"},
     {"access": "unreachable", "verdict": "conditional"}, [ID, TH, FI],
     "AMBIGUOUS: the seeds (001, 002; 003 garbled) say 'if robots.txt is unreachable for more "
     "than 30 days, the last cached copy is used; if unavailable, Google assumes no crawl "
     "restrictions'. The design says the last good copy is used up to 30 days and then "
     "everything is allowed, which disagrees for this input; 000 says the handling of "
     "permanent server errors is undefined"),
    ({"scheme": "http", "status": 503, "event": "unreachable-days:31,no-cached-copy"},
     {"access": "unreachable", "verdict": "full-allow"}, [ID, TH, FI],
     "more than 30 days unreachable and no cached copy: Google assumes there are no crawl "
     "restrictions"),
    ({"scheme": "http", "event": "dns-failure"}, UNREACHABLE, [ID, TH, FI],
     "failed requests or incomplete data: robots.txt that cannot be fetched because of DNS "
     "or networking issues is treated as a server error (000: undefined)"),
    ({"scheme": "http", "event": "timeout"}, UNREACHABLE, [ID, TH, FI],
     "failed request: timeout, treated as a server error"),
    ({"scheme": "http", "event": "invalid-response"}, UNREACHABLE, [ID, TH, FI],
     "failed request: invalid response, treated as a server error"),
    ({"scheme": "http", "event": "reset"}, UNREACHABLE, [ID, TH, FI],
     "failed request: connection reset, treated as a server error"),
    ({"scheme": "http", "event": "interrupted"}, UNREACHABLE, [ID, TH, FI],
     "failed request: hung up / interrupted connection, treated as a server error"),
    ({"scheme": "http", "event": "chunking-error"}, UNREACHABLE, [ID, TH, FI],
     "incomplete data: HTTP chunking error, treated as a server error"),
    ({"scheme": "ftp", "event": "ftp-retr-ok"}, SUCCESS, [ID, TH, FI],
     "Google-specific: robots.txt files of FTP sites are fetched over FTP with an anonymous "
     "login; a successful retrieval makes the file's rules apply. The seeds give no FTP "
     "result-code rules beyond this"),
]


def fetch_cases(w):
    # https rows run against the conformance run's loopback TLS server, whose certificate
    # chains to a CA made for the run and trusted as an extra root.
    for inp, expect, seeds, note in FETCH_ROWS:
        w.add(FETCH, GOOGLE, "http", SEC_FETCH, "fetch", ALL, inp, expect, prov(*seeds), note)


# =============================================================================================
# 3. Path matching

PATHS = "seed-google-spec/path-matching.jsonl"
SEC_PATHS = "seed: example path matches"

LOWER_LEVEL = ["/", "/fish", "/fish/salmon.html", "/?id=fish"]
FISH_MATCHES = ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads",
                "/fishheads/yummy.html", "/fish.php?id=anything"]
FISH_MISSES = ["/Fish.asp", "/catfish", "/?id=fish"]
FISH_DIR_MATCHES = ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"]
FISH_DIR_MISSES = ["/fish", "/fish.html", "/Fish/Salmon.asp"]

# (path value, matches, does not match, profiles, seeds, note)
PATH_ROWS = [
    ("/", LOWER_LEVEL, [], RFC_GOOGLE, [KO, ID, TH],
     "'matches the root and any lower level URL'; the table gives no URLs, these are taken "
     "from the other rows"),
    ("/*", LOWER_LEVEL, [], RFC_GOOGLE, [KO, ID, TH],
     "'equivalent to /, the trailing wildcard is ignored'; the table gives no URLs, these are "
     "taken from the other rows"),
    ("/fish", FISH_MATCHES, FISH_MISSES, RFC_GOOGLE, [KO, ID, TH],
     "matching is case-sensitive"),
    ("/fish*", FISH_MATCHES, FISH_MISSES, RFC_GOOGLE, [KO, ID, TH],
     "equivalent to /fish, the trailing wildcard is ignored"),
    ("/fish/", FISH_DIR_MATCHES, FISH_DIR_MISSES, RFC_GOOGLE, [KO, ID, TH],
     "the trailing slash means this matches anything in this folder"),
    ("fish/", FISH_DIR_MATCHES, FISH_DIR_MISSES, ["rfc9309"], [KO],
     "older help page only: 'fish/' is the same as '/fish/' (a path not starting with '/' is "
     "read with '/' prepended, which the rfc9309 profile does with a lint warning). The google "
     "profile deliberately never matches such a pattern (google/robotstxt) and legacy1994 "
     "reads it as a literal prefix, so both are left out"),
    ("/*.php",
     ["/filename.php", "/folder/filename.php", "/folder/filename.php?parameters",
      "/folder/any.php.file.html", "/filename.php/"],
     ["/", "/windows.PHP"], RFC_GOOGLE, [KO, ID, TH],
     "'/' does not match even if it maps to /index.php"),
    ("/*.php$",
     ["/filename.php", "/folder/filename.php"],
     ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"],
     RFC_GOOGLE, [KO, ID, TH],
     "'$' anchors the end of the URL (path and query)"),
    ("/fish*.php",
     ["/fish.php", "/fishheads/catfish.php?parameters"],
     ["/Fish.PHP"], RFC_GOOGLE, [KO, ID, TH],
     ""),
]


def path_cases(w):
    for value, matches, misses, profiles, seeds, note in PATH_ROWS:
        robots = f"user-agent: *\ndisallow: {value}\n"
        for path, allowed in [(p, False) for p in matches] + [(p, True) for p in misses]:
            verdict = "matches" if not allowed else "does not match"
            text = f"path value {value} {verdict} {path}"
            w.model(PATHS, GOOGLE, "path", SEC_PATHS, profiles, robots, "Googlebot",
                    BASE + path, allowed, prov(*seeds),
                    f"{text}; the URL is the table's path on {BASE}"
                    + (f"; {note}" if note else ""))


# =============================================================================================
# 4. Order of precedence for group-member lines

PRECEDENCE = "seed-google-spec/precedence.jsonl"
SEC_PRECEDENCE = "seed: order of precedence for group-member lines (sample situations)"

# (URL, allow, disallow, allowed, seeds, note)
PRECEDENCE_ROWS = [
    (BASE + "/page", "/p", "/", True, [KO, ID, TH],
     "verdict: allow (the longer rule wins)"),
    (BASE + "/folder/page", "/folder", "/folder", True, [ID, TH],
     "verdict: allow (equal rules: the least restrictive wins)"),
    (BASE + "/folder/page", "/folder/", "/folder", True, [KO],
     "older help page's version of the row (allow: /folder/): verdict allow"),
    (BASE + "/page.htm", "/page", "/*.htm", False, [KO, ID, TH],
     "AMBIGUOUS: the seeds' verdict is 'undefined'. The expectation follows the design "
     "(longest pattern in octets wins: '/*.htm' is 6 octets, '/page' 5; the matched-octets "
     "reading also gives disallow) and google/robotstxt, whose documentation test "
     "(robots_test.cc:753) asserts disallow for this row"),
    (BASE + "/", "/$", "/", True, [KO, ID, TH],
     "verdict: allow"),
    (BASE + "/page.htm", "/$", "/", False, [KO, ID, TH],
     "verdict: disallow"),
]


def precedence_cases(w):
    for url, allow, disallow, allowed, seeds, note in PRECEDENCE_ROWS:
        robots = f"user-agent: *\nallow: {allow}\ndisallow: {disallow}\n"
        w.model(PRECEDENCE, GOOGLE, "precedence", SEC_PRECEDENCE, RFC_GOOGLE, robots,
                "Googlebot", url, allowed, prov(*seeds),
                f"URL {url}, allow: {allow}, disallow: {disallow}; {note}; both rules under "
                "user-agent: *")


# =============================================================================================
# 5. User-agent groups

GROUPS = "seed-google-spec/user-agent-groups.jsonl"
SEC_UA_PRECEDENCE = "seed: order of precedence for user-agents (groups followed per crawler)"
SEC_GROUPING = "seed: grouping of lines and rules (example groups)"
SEC_MERGING = "seed: order of precedence for user-agents (merging groups)"
SEC_UA_VALUE = "seed: order of precedence for user-agents (user-agent value)"
SEC_SECTIONS = "seed: user-agents and robots (sections are independent)"

GROUP_FILE = (
    "user-agent: googlebot-news\ndisallow: /group1/\n\n"
    "user-agent: *\ndisallow: /group2/\n\n"
    "user-agent: googlebot\ndisallow: /group3/\n"
)
GROUP_NOTE = (
    "the seed's example file with the placeholder bodies '(group N)' replaced by "
    "'disallow: /groupN/', so the URL /groupN/... is disallowed exactly when group N is the one "
    "followed"
)

# (crawler in the table, agent, group followed, page name, profiles, note)
CRAWLERS = [
    ("Googlebot News", "Googlebot-News", 1, "page.html", RFC_GOOGLE,
     "only the most specific group is followed, all others are ignored"),
    ("Googlebot (web)", "Googlebot", 3, "page.html", RFC_GOOGLE, ""),
    ("Googlebot Images", "Googlebot-Image", 3, "image.jpg", ["google"],
     "AMBIGUOUS: the seed says Googlebot Images follows group 3 because there is no specific "
     "googlebot-images group. That is the behaviour of Google's crawler (Googlebot-Image also "
     "obeys the googlebot token), not of the library: google/robotstxt and RFC 9309 match the "
     "product token exactly, so the token Googlebot-Image alone selects group 2. Kept as the "
     "seed states it, for the google profile only; expect an expected-differences line"),
    ("Googlebot News (when crawling images)", "Googlebot-News", 1, "image.jpg", RFC_GOOGLE,
     "the images are crawled for and by Googlebot News, so only the Googlebot News group is "
     "followed"),
    ("Otherbot (web)", "Otherbot", 2, "page.html", RFC_GOOGLE, ""),
    ("Otherbot (News)", "Otherbot-News", 2, "page.html", RFC_GOOGLE,
     "even if there is an entry for a related crawler, it is only valid if it matches "
     "specifically; the agent name Otherbot-News is chosen for the news variant of Otherbot"),
]

GROUPING_FILE = (
    "user-agent: a\ndisallow: /c\n\n"
    "user-agent: b\ndisallow: /d\n\n"
    "user-agent: e\nuser-agent: f\ndisallow: /g\n\n"
    "user-agent: h\n"
)

MERGE_FILE = (
    "user-agent: googlebot-news\ndisallow: /fish\n\n"
    "user-agent: *\ndisallow: /carrots\n\n"
    "user-agent: googlebot-news\ndisallow: /shrimp\n"
)


def group_cases(w):
    # Groups followed per crawler.
    for crawler, agent, group, page, profiles, note in CRAWLERS:
        for n in (1, 2, 3):
            url = f"{BASE}/group{n}/{page}"
            w.model(GROUPS, GOOGLE, "groups", SEC_UA_PRECEDENCE, profiles, GROUP_FILE, agent,
                    url, n != group, prov(KO, ID, TH, FI),
                    f"crawler '{crawler}' (agent {agent}) follows group {group}; {GROUP_NOTE}"
                    + (f"; {note}" if note else ""))

    # Example groups: a, b, e+f, and the empty group h.
    grouping = [
        ("a", [("/c", False), ("/d", True), ("/g", True)], [KO, ID, TH, FI]),
        ("b", [("/d", False), ("/c", True), ("/g", True)], [KO, ID, TH, FI]),
        ("e", [("/g", False), ("/c", True), ("/d", True)], [KO, ID, TH, FI]),
        ("f", [("/g", False), ("/c", True), ("/d", True)], [KO, ID, TH, FI]),
        ("h", [("/c", True), ("/d", True), ("/g", True)], [ID, TH, FI]),
    ]
    for agent, checks, seeds in grouping:
        for path, allowed in checks:
            note = (f"agent '{agent}': the group for '{agent}' "
                    + ("disallows" if not allowed else "does not disallow") + f" {path}")
            if agent == "h":
                note += ("; the last group (h) is empty, which implicitly allows everything "
                         "(the older help page 000 has no 'user-agent: h' line)")
            elif agent in ("e", "f"):
                note += "; e and f share one group"
            else:
                note += ("; 000's version of the file lacks the 'user-agent: h' group, which "
                         "does not change this verdict")
            w.model(GROUPS, GOOGLE, "groups", SEC_GROUPING, RFC_GOOGLE, GROUPING_FILE, agent,
                    BASE + path, allowed, prov(*seeds), note)

    # Merging (Finnish example 2; the rule is stated in 001-003).
    merge = [
        ("Googlebot-News", "/fish", False), ("Googlebot-News", "/shrimp", False),
        ("Googlebot-News", "/carrots", True),
        ("Otherbot", "/carrots", False), ("Otherbot", "/fish", True),
        ("Otherbot", "/shrimp", True),
    ]
    for agent, path, allowed in merge:
        w.model(GROUPS, GOOGLE, "groups", SEC_MERGING, RFC_GOOGLE, MERGE_FILE, agent,
                BASE + path, allowed, prov(FI),
                "example 2 of 003 (its file is printed on one line; line breaks restored): the "
                "two googlebot-news groups merge into one (disallow /fish and /shrimp), '*' "
                "keeps /carrots; 001 and 002 state the merging rule without this example")

    # User-agent value: non-matching text ignored, case.
    for value in ("googlebot/1.2", "googlebot*"):
        robots = f"user-agent: {value}\ndisallow: /private/\n"
        w.model(GROUPS, GOOGLE, "groups", SEC_UA_VALUE, RFC_GOOGLE, robots, "Googlebot",
                BASE + "/private/page.html", False, prov(KO, ID, TH, FI),
                f"all non-matching text is ignored: '{value}' is equivalent to googlebot")
        w.model(GROUPS, GOOGLE, "groups", SEC_UA_VALUE, RFC_GOOGLE, robots, "Googlebot",
                BASE + "/public/page.html", True, prov(KO, ID, TH, FI),
                f"control: '{value}' group only disallows /private/")
    w.model(GROUPS, GOOGLE, "groups", SEC_UA_VALUE, RFC_GOOGLE,
            "user-agent: GOOGLEBOT\ndisallow: /private/\n", "Googlebot",
            BASE + "/private/page.html", False, prov(KO, ID, TH, FI),
            "AMBIGUOUS in the seeds: 000 says the user-agent is case-insensitive, 001, 002 and 003 "
            "say case-sensitive (the 2019 English text was later corrected); RFC 9309 §2.2.1 and "
            "google/robotstxt match case-insensitively, which this case expects")
    w.model(GROUPS, GOOGLE, "groups", SEC_UA_VALUE, RFC_GOOGLE,
            "user-agent: *\ndisallow: /\n\nuser-agent: googlebot\ndisallow: /private/\n",
            "Googlebot", BASE + "/page.html", True, prov(KO, ID, TH, FI),
            "the order of groups in the file is irrelevant: the googlebot group after '*' is "
            "still the one followed")

    # Older help page: sections are independent; Mediapartners-Google.
    sections = "User-agent: *\nDisallow: /folder1/\n\nUser-Agent: Googlebot\nDisallow: /folder2/\n"
    for agent, path, allowed, text in [
        ("Googlebot", "/folder2/page.html", False, "only URLs matching /folder2/ are blocked for "
         "Googlebot"),
        ("Googlebot", "/folder1/page.html", True, "Googlebot's section does not build on the "
         "'*' section, so /folder1/ is not blocked for Googlebot"),
        ("Otherbot", "/folder1/page.html", False, "other robots follow the '*' section"),
        ("Otherbot", "/folder2/page.html", True, "other robots follow the '*' section"),
    ]:
        w.model(GROUPS, GOOGLE, "groups", SEC_SECTIONS, ALL, sections, agent, BASE + path,
                allowed, prov(KO), text + " (older help page example)")
    media = "User-agent: *\nDisallow: /\n\nUser-agent: Mediapartners-Google\nAllow: /\n"
    for agent, allowed, text in [
        ("Mediapartners-Google", True, "Mediapartners-Google may crawl to show AdSense ads"),
        ("Googlebot", False, "all other robots are blocked"),
    ]:
        w.model(GROUPS, GOOGLE, "groups", SEC_SECTIONS, RFC_GOOGLE, media, agent,
                BASE + "/page.html", allowed, prov(KO),
                text + " (older help page example: block all robots except "
                "Mediapartners-Google)")


# =============================================================================================
# 6. File format (grammar and model) and the 500 KiB limit

FORMAT = "seed-google-spec/file-format.jsonl"
SEC_FORMAT = "seed: file format"
SEC_SYNTAX = "seed: formal syntax"
SEC_NONGROUP = "seed: non-group-member lines (sitemap)"
SEC_MEMBERS = "seed: group-member lines"
SIZE = "seed-google-spec/file-size.jsonl"
SEC_SIZE = "seed: file format (maximum file size)"

BOM = b"\xef\xbb\xbf"


def grammar(w, section, robots, directives, seeds, note):
    if isinstance(robots, bytes):
        inp = {"robots_b64": base64.b64encode(robots).decode("ascii")}
    else:
        inp = {"robots": robots}
    w.add(FORMAT, GOOGLE, "format", section, "grammar", ALL, inp,
          {"directives": [list(pair) for pair in directives]}, prov(*seeds), note)


def format_cases(w):
    four = [KO, ID, TH, FI]
    ua_x = [("user-agent", "*"), ("disallow", "/x")]
    ua_x_y = [("user-agent", "*"), ("disallow", "/x"), ("allow", "/y")]

    grammar(w, SEC_FORMAT, BOM + b"User-agent: *\nDisallow: /x\n", ua_x, four,
            "an optional Unicode BOM at the start of the file is ignored")
    for name, eol in [("LF", "\n"), ("CR", "\r"), ("CRLF", "\r\n")]:
        grammar(w, SEC_FORMAT, f"User-agent: *{eol}Disallow: /x{eol}Allow: /y{eol}", ua_x_y, four,
                f"lines are separated by CR, CR/LF or LF; this file uses {name}")
    grammar(w, SEC_FORMAT, "User-agent: *\r\nDisallow: /x\rAllow: /y\n", ua_x_y, four,
            "lines are separated by CR, CR/LF or LF; mixed in one file")
    grammar(w, SEC_FORMAT, "User-agent: *\nDisallow: /x\nAllow: /y", ua_x_y, four,
            "no line end after the last line")
    grammar(w, SEC_FORMAT,
            "# comment at the start\nUser-agent: * # comment after a value\n"
            "Disallow: /x#comment without space\n# Disallow: /commented-out\n", ua_x, four,
            "comments can be included at any location with '#'; everything after it to the end "
            "of the line is a comment; general format <field>:<value><#optional-comment>")
    grammar(w, SEC_FORMAT, "   User-agent:   *   \n\tDisallow:/x\t\n", ua_x, four,
            "whitespace at the beginning and end of the line is ignored; spaces are optional")
    grammar(w, SEC_FORMAT, "USER-AGENT: *\nDISALLOW: /x\nAllow: /y\n", ua_x_y, [ID, TH, FI],
            "the <field> element is case-insensitive (000 says case-sensitive, a mistranslation "
            "of the older English page, which says case-insensitive)")
    grammar(w, SEC_SYNTAX, "user-agent : *\ndisallow :/x\n", ua_x, [KO, ID, TH],
            "the grammar allows whitespace before and after ':' (startgroupline = *WS "
            "\"user-agent\" *WS \":\" *WS product-token EOL; 000's BNF: [LWS] \":\" [LWS])")
    grammar(w, SEC_NONGROUP,
            "Sitemap: https://example.com/sitemap.xml\nUser-agent: *\nDisallow: /x\n"
            "sitemap: https://cdn.example.org/sitemap-index.xml\n",
            [("sitemap", "https://example.com/sitemap.xml"), ("user-agent", "*"),
             ("disallow", "/x"), ("sitemap", "https://cdn.example.org/sitemap-index.xml")],
            four,
            "sitemap: [absoluteURL]; several sitemap entries may exist, anywhere in the file, "
            "and need not be on the robots.txt host (the URLs instantiate [absoluteURL])")

    # Model cases: the effect on a verdict.
    def model(section, robots, agent, path, allowed, seeds, note, profiles=RFC_GOOGLE):
        w.model(FORMAT, GOOGLE, "format", section, profiles, robots, agent, BASE + path,
                allowed, prov(*seeds), note)

    model(SEC_FORMAT, BOM + b"user-agent: *\ndisallow: /x\n", "Googlebot", "/x", False, four,
          "the BOM is ignored, so the first line is a user-agent line and /x is disallowed")
    model(SEC_FORMAT, "user-agent: *\rdisallow: /x\r", "Googlebot", "/x", False, four,
          "CR alone ends a line")
    model(SEC_FORMAT, "USER-AGENT: *\nDISALLOW: /x\n", "Googlebot", "/x", False, [ID, TH, FI],
          "the <field> element is case-insensitive (000 mistranslates this as case-sensitive)")
    model(SEC_FORMAT, "useragent: Googlebot\ndisallow: /\n", "Googlebot", "/page.html", True,
          [ID, TH, FI],
          "handling of <field> elements with simple errors or typos ('useragent' for "
          "'user-agent') is not supported, so this file has no group; 000 says 'undefined, "
          "may be interpreted as valid'. The google profile deliberately accepts the typo as "
          "google/robotstxt does (design table), so it is left out",
          profiles=["rfc9309", "legacy1994"])
    html = ("<html>\n<head><title>robots</title></head>\n<body>\n"
            "user-agent: *\ndisallow: /x\n</body>\n</html>\n")
    model(SEC_FORMAT, html, "Googlebot", "/x", False, four,
          "only valid lines are considered: in an HTML page the valid text lines still count, "
          "the rest is discarded without warning (example page made up)")
    model(SEC_FORMAT, html, "Googlebot", "/y", True, four,
          "only valid lines are considered; control URL not covered by the rule")
    model(SEC_MEMBERS, "user-agent: *\ndisallow:\n", "Googlebot", "/page.html", True, four,
          "directives without a [path] are ignored (by default there are no restrictions)")
    model(SEC_MEMBERS, "user-agent: *\nallow:\ndisallow: /x\n", "Googlebot", "/x", False, four,
          "an allow without a [path] is ignored, it does not override disallow: /x")
    model(SEC_MEMBERS, "", "Googlebot", "/page.html", True, [KO],
          "older help page: a site that wants everything crawled needs no robots.txt, not even "
          "an empty one; an empty file allows everything")
    model(SEC_MEMBERS, "User-agent: Googlebot\n\nFoo: bar\n\nDisallow: /x\n", "Googlebot",
          "/x", False, [KO],
          "older help page: Googlebot ignores whitespace (in particular empty lines) and "
          "unknown directives, so the disallow still belongs to the Googlebot group (the file "
          "is made up to show it)")
    model(SEC_NONGROUP,
          "user-agent: a\nsitemap: https://example.com/sitemap.xml\nuser-agent: b\n"
          "disallow: /x\n", "b", "/x", False, [ID, TH, FI],
          "sitemap lines are non-group-member lines, not tied to any user-agent; a made-up "
          "file with a sitemap between two user-agent lines: b's rule applies to b")

    # 500 KiB: content past the maximum file size is ignored.
    limit = 500 * 1024
    pad = "#" + "x" * 98 + "\n"  # 100 bytes
    head = "user-agent: *\n"
    late = head + pad * 5200 + "disallow: /\n"
    assert len(late.encode()) - len("disallow: /\n") > limit
    early = head + pad * 4990 + "disallow: /\n" + pad * 200
    assert len(head + pad * 4990 + "disallow: /\n") < limit < len(early.encode())
    w.model(SIZE, GOOGLE, "size", SEC_SIZE, RFC_GOOGLE, late, "Googlebot", BASE + "/page.html",
            True, prov(KO, ID, TH, FI),
            "Google enforces a 500 KiB (512,000 byte) limit and ignores content after it "
            "(000 says 500KB): the only disallow line starts at byte 520,014, past the limit; "
            "the padding is 100-byte comment lines")
    w.model(SIZE, GOOGLE, "size", SEC_SIZE, RFC_GOOGLE, early, "Googlebot", BASE + "/page.html",
            False, prov(KO, ID, TH, FI),
            "control for the 500 KiB limit: the disallow line ends at byte 499,026, inside the "
            "limit, in a file of 519,026 bytes")


# =============================================================================================
# 6b. Worked examples of the older help page (000)

EXAMPLES = "seed-google-spec/directive-examples.jsonl"
SEC_BLOCK = "seed: blocking user-agents (examples)"
SEC_PATTERNS = "seed: pattern matching (examples)"


def directive_cases(w):
    def case(section, profiles, robots, agent, path, allowed, note):
        w.model(EXAMPLES, GOOGLE, "example", section, profiles, robots, agent, BASE + path,
                allowed, prov(KO), note + " (older help page example)")

    case(SEC_BLOCK, ALL, "User-agent: *\nDisallow: /\n", "Googlebot", "/any/page.html", False,
         "'Disallow: /' blocks the entire site")
    case(SEC_BLOCK, ALL, "User-agent: *\nDisallow: /junk-directory/\n", "Googlebot",
         "/junk-directory/file.html", False,
         "a directory name followed by a slash blocks the directory and everything in it")
    case(SEC_BLOCK, ALL, "User-agent: *\nDisallow: /junk-directory/\n", "Googlebot",
         "/junk-directory", True,
         "'/junk-directory/' does not block the URL without the trailing slash (derived)")
    case(SEC_BLOCK, ALL, "User-agent: *\nDisallow: /private_file.html\n", "Googlebot",
         "/private_file.html", False, "listing a page blocks it")
    case(SEC_BLOCK, ALL, "User-agent: *\nDisallow: /private_file.html\n", "Googlebot",
         "/public_file.html", True, "control: another page is not blocked (derived)")
    dogs = "User-agent: Googlebot-Image\nDisallow: /images/dogs.jpg\n"
    case(SEC_BLOCK, RFC_GOOGLE, dogs, "Googlebot-Image", "/images/dogs.jpg", False,
         "removing one image from Google Images")
    case(SEC_BLOCK, RFC_GOOGLE, dogs, "Googlebot-Image", "/images/cats.jpg", True,
         "other images stay crawlable (derived)")
    case(SEC_BLOCK, RFC_GOOGLE, dogs, "Googlebot", "/images/dogs.jpg", True,
         "the group is only for Googlebot-Image (derived)")
    all_images = "User-agent: Googlebot-Image\nDisallow: /\n"
    case(SEC_BLOCK, RFC_GOOGLE, all_images, "Googlebot-Image", "/images/dogs.jpg", False,
         "removing all images of the site from Google Images")
    case(SEC_BLOCK, RFC_GOOGLE, all_images, "Googlebot", "/images/dogs.jpg", True,
         "Googlebot web search is not affected (derived)")
    gif = "User-agent: Googlebot\nDisallow: /*.gif$\n"
    case(SEC_BLOCK, RFC_GOOGLE, gif, "Googlebot", "/images/photo.gif", False,
         "blocking files of one type (.gif)")
    case(SEC_BLOCK, RFC_GOOGLE, gif, "Googlebot", "/images/photo.gif?size=2", True,
         "'$' anchors the end: a query after .gif is not blocked (derived)")
    case(SEC_BLOCK, RFC_GOOGLE, gif, "Googlebot", "/images/photo.png", True,
         "other file types are not blocked (derived)")
    junk = "User-agent: *\nDisallow: /junk_file.asp\n"
    case(SEC_BLOCK, ALL, junk, "Googlebot", "/junk_file.asp", False,
         "directives are case-sensitive: Disallow: /junk_file.asp blocks "
         "http://www.example.com/junk_file.asp")
    case(SEC_BLOCK, ALL, junk, "Googlebot", "/Junk_file.asp", True,
         "directives are case-sensitive: /Junk_file.asp is allowed")

    private = "User-agent: Googlebot\nDisallow: /private*/\n"
    case(SEC_PATTERNS, RFC_GOOGLE, private, "Googlebot", "/private/page.html", False,
         "'*' matches a sequence: blocks all subdirectories beginning with private")
    case(SEC_PATTERNS, RFC_GOOGLE, private, "Googlebot", "/private-stuff/page.html", False,
         "blocks all subdirectories beginning with private")
    case(SEC_PATTERNS, RFC_GOOGLE, private, "Googlebot", "/privatefile.html", True,
         "a file (no '/' after 'private...') is not a subdirectory (derived)")
    query = "User-agent: Googlebot\nDisallow: /*?\n"
    case(SEC_PATTERNS, RFC_GOOGLE, query, "Googlebot", "/page.html?id=1", False,
         "blocks every URL containing a question mark")
    case(SEC_PATTERNS, RFC_GOOGLE, query, "Googlebot", "/page.html", True,
         "a URL without '?' is not blocked (derived)")
    xls = "User-agent: Googlebot\nDisallow: /*.xls$\n"
    case(SEC_PATTERNS, RFC_GOOGLE, xls, "Googlebot", "/files/report.xls", False,
         "'$' matches the end: blocks every URL ending in .xls")
    case(SEC_PATTERNS, RFC_GOOGLE, xls, "Googlebot", "/files/report.xlsx", True,
         "does not end in .xls (derived)")
    case(SEC_PATTERNS, RFC_GOOGLE, xls, "Googlebot", "/files/report.xls?download=1", True,
         "the URL goes on after .xls (derived)")
    session = "User-agent: *\nAllow: /*?$\nDisallow: /*?\n"
    case(SEC_PATTERNS, RFC_GOOGLE, session, "Googlebot", "/page.html?", True,
         "'Allow: /*?$' allows every URL that ends in '?'")
    case(SEC_PATTERNS, RFC_GOOGLE, session, "Googlebot", "/page.html?sessionid=1", False,
         "'Disallow: /*?' blocks every URL containing '?' (session ids)")
    case(SEC_PATTERNS, RFC_GOOGLE, session, "Googlebot", "/page.html", True,
         "no rule matches a URL without '?' (derived)")


# =============================================================================================
# 7. The 1994 convention

STD = "seed-1994/examples.jsonl"
SEC_EXAMPLES = "seed: Examples"
SEC_DISALLOW = "seed: The Format — Disallow"
SEC_USER_AGENT = "seed: The Format — User-agent"
SEC_RECORDS = "seed: The Format — records and comments"
WWW = "http://www.example.com"

EXAMPLE1 = (
    "# robots.txt for http://www.example.com/\n\n"
    "User-agent: *\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
    "Disallow: /tmp/ # these will soon disappear\n"
    "Disallow: /foo.html\n"
)
EXAMPLE2 = (
    "# robots.txt for http://www.example.com/\n\n"
    "User-agent: *\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n"
    "# Cybermapper knows where to go.\n"
    "User-agent: cybermapper\n"
    "Disallow:\n"
)
EXAMPLE3 = "# go away\nUser-agent: *\nDisallow: /\n"


def legacy_cases(w):
    def case(section, robots, agent, path, allowed, note):
        w.model(STD, STD1994, "example", section, LEGACY, robots, agent, WWW + path, allowed,
                prov(EN1994), note)

    e1 = "example 1: no robot should visit any URL starting with /cyberworld/map/ or /tmp/, or /foo.html"
    for path, allowed, extra in [
        ("/cyberworld/map/index.html", False, ""),
        ("/cyberworld/map/", False, ""),
        ("/tmp/", False, ""),
        ("/tmp/a.html", False, ""),
        ("/foo.html", False, ""),
        ("/cyberworld/index.html", True, "; not under /cyberworld/map/ (derived)"),
        ("/tmp", True, "; '/tmp' does not start with '/tmp/' (derived)"),
        ("/bar.html", True, "; not listed (derived)"),
    ]:
        case(SEC_EXAMPLES, EXAMPLE1, "AnyBot/1.0", path, allowed, e1 + extra)

    e2 = ("example 2: no robot should visit /cyberworld/map/, except the robot called "
          "cybermapper")
    for agent, path, allowed, extra in [
        ("AnyBot/1.0", "/cyberworld/map/index.html", False, ""),
        ("AnyBot/1.0", "/index.html", True, " (derived)"),
        ("cybermapper", "/cyberworld/map/index.html", True,
         "; cybermapper's record has an empty Disallow"),
        ("CyberMapper/2.1", "/cyberworld/map/index.html", True,
         "; a case-insensitive substring match of the name without version information is "
         "recommended, so 'CyberMapper/2.1' is cybermapper"),
    ]:
        case(SEC_EXAMPLES, EXAMPLE2, agent, path, allowed, e2 + extra)

    e3 = "example 3: no robots should visit this site further"
    for agent, path in [("AnyBot/1.0", "/"), ("AnyBot/1.0", "/index.html"),
                        ("cybermapper", "/cyberworld/map/")]:
        case(SEC_EXAMPLES, EXAMPLE3, agent, path, False, e3)

    help_prefix = "User-agent: *\nDisallow: /help\n"
    help_dir = "User-agent: *\nDisallow: /help/\n"
    wrap = "; the Disallow line is put under 'User-agent: *'"
    case(SEC_DISALLOW, help_prefix, "AnyBot/1.0", "/help.html", False,
         "Disallow: /help disallows /help.html" + wrap)
    case(SEC_DISALLOW, help_prefix, "AnyBot/1.0", "/help/index.html", False,
         "Disallow: /help disallows /help/index.html" + wrap)
    case(SEC_DISALLOW, help_prefix, "AnyBot/1.0", "/index.html", True,
         "Disallow: /help is a prefix; /index.html does not start with it (derived)" + wrap)
    case(SEC_DISALLOW, help_dir, "AnyBot/1.0", "/help/index.html", False,
         "Disallow: /help/ disallows /help/index.html" + wrap)
    case(SEC_DISALLOW, help_dir, "AnyBot/1.0", "/help.html", True,
         "Disallow: /help/ allows /help.html" + wrap)
    case(SEC_DISALLOW, "User-agent: *\nDisallow:\n", "AnyBot/1.0", "/any/page.html", True,
         "an empty value indicates that all URLs can be retrieved")
    case(SEC_DISALLOW, "", "AnyBot/1.0", "/any/page.html", True,
         "an empty /robots.txt file has no explicit semantics: treated as not present, all "
         "robots consider themselves welcome")

    case(SEC_USER_AGENT, "User-agent: mapper\nDisallow: /\n", "CyberMapper/2.1", "/index.html",
         False, "case-insensitive substring match: the record 'mapper' describes the robot "
         "CyberMapper (derived)")
    case(SEC_USER_AGENT, "User-agent: mapper\nDisallow: /\n", "AnyBot/1.0", "/index.html",
         True, "a robot whose name does not contain the value is not described (derived)")
    two_agents = "User-agent: AnyBot\nUser-agent: OtherBot\nDisallow: /tmp/\n"
    case(SEC_USER_AGENT, two_agents, "AnyBot/1.0", "/tmp/a.html", False,
         "more than one User-agent field: the record describes an identical access policy for "
         "more than one robot (derived file)")
    case(SEC_USER_AGENT, two_agents, "OtherBot/2.0", "/tmp/a.html", False,
         "more than one User-agent field: same policy for the second robot (derived file)")
    records = "User-agent: AnyBot\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n"
    case(SEC_USER_AGENT, records, "AnyBot/1.0", "/b/page.html", True,
         "'*' is the default policy only for robots that matched no other record (derived "
         "file)")
    case(SEC_USER_AGENT, records, "AnyBot/1.0", "/a/page.html", False,
         "the matching record applies (derived file)")
    case(SEC_USER_AGENT, records, "OtherBot/2.0", "/b/page.html", False,
         "'*' is the default access policy for a robot matching no other record (derived "
         "file)")
    case(SEC_USER_AGENT, records, "OtherBot/2.0", "/a/page.html", True,
         "the AnyBot record does not apply to OtherBot (derived file)")

    case(SEC_RECORDS, "USER-AGENT: *\nDISALLOW: /tmp/\n", "AnyBot/1.0", "/tmp/a.html", False,
         "the field name is case insensitive (derived file)")
    case(SEC_RECORDS, "User-agent: *\nFoo: bar\nDisallow: /tmp/\n", "AnyBot/1.0",
         "/tmp/a.html", False, "unrecognised headers are ignored (derived file)")
    case(SEC_RECORDS, "User-agent: AnyBot\n# only a comment\nDisallow: /tmp/\n", "AnyBot/1.0",
         "/tmp/a.html", False,
         "lines containing only a comment are discarded completely and do not indicate a "
         "record boundary (derived file)")
    case(SEC_RECORDS, "User-agent: *\r\nDisallow: /tmp/\r\n", "AnyBot/1.0", "/tmp/a.html",
         False, "lines are terminated by CR, CR/NL or NL (here CR NL)")
    case(SEC_RECORDS, "User-agent: *\rDisallow: /tmp/\r", "AnyBot/1.0", "/tmp/a.html", False,
         "lines are terminated by CR, CR/NL or NL (here CR)")


# =============================================================================================


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.dirname(here))
    args = parser.parse_args(argv)

    w = Writer()
    location_cases(w)
    fetch_cases(w)
    path_cases(w)
    precedence_cases(w)
    group_cases(w)
    format_cases(w)
    directive_cases(w)
    legacy_cases(w)
    for relative, cases in sorted(w.files.items()):
        write_jsonl(os.path.join(args.out, relative), cases)
        print(f"{relative}: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

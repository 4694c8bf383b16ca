#!/usr/bin/env python3
"""Write the `fetch` layer cases for RFC 9309 §2.3.1.1-§2.3.1.4, §2.4 and §2.5.

Each case names what the loopback server (or the network) does and what the fetcher and its
cache must make of it: the access result of RFC 9309 §2.3.1, the verdict class it gives every
URL of the site, and where the section is about it, how many requests were made or how much
body was kept. The events are listed in conformance/README.md ("fetch cases").

Profiles: the fetch itself is the same in every profile; the cache rules differ (`google`
follows Google's documentation: full disallow for the first 12 hours of an outage, max-age
beyond 24 hours), so rows that only the RFC's reading meets list `rfc9309` and `legacy1994`
(which uses the RFC's cache rules) only.

Output: conformance/rfc9309/fetch.jsonl. Usage: python3 conformance/tools/fetch_cases.py
[--out DIR]. Standard library only; the output is deterministic. New rows go at the end, so
the ids of the others stay.
"""

import argparse
import os
import sys

from jsonl import write_jsonl

ALL = ["rfc9309", "google", "legacy1994"]
RFC_CACHE = ["rfc9309", "legacy1994"]

OUT = "rfc9309/fetch.jsonl"
PROVENANCE = ("RFC 9309 {section} (shared/reference/rfc9309-reconstructed.txt), written for "
              "robotrules (IETF Trust Legal Provisions for the quoted text)")

SUCCESS = {"access": "success", "verdict": "conditional"}
UNAVAILABLE = {"access": "unavailable", "verdict": "full-allow"}
UNREACHABLE = {"access": "unreachable", "verdict": "full-disallow"}

# The body the server sends on success (conformance runner: src/fetch.rs).
ROBOTS = "User-agent: *\nDisallow: /private/\n"
# The line `body-bytes:N` and `gzip-bomb-bytes:N` repeat.
LINE = "Disallow: /x\n"
LIMIT = 500 * 1024
CUT = LIMIT // len(LINE) * len(LINE)  # the last whole line within the limit

QUOTES = {
    "§2.3.1.1": "'If the crawler successfully downloads the robots.txt file, the crawler MUST "
                "follow the parseable rules.'",
    "§2.3.1.2": "'The crawlers SHOULD follow at least five consecutive redirects, even across "
                "authorities … If there are more than five consecutive redirects, crawlers MAY "
                "assume that the robots.txt file is unavailable.'",
    "§2.3.1.3": "'in the context of HTTP, such status codes are in the 400-499 range … the "
                "crawler MAY access any resources on the server.'",
    "§2.3.1.4": "'If the robots.txt file is unreachable due to server or network errors … the "
                "crawler MUST assume complete disallow.'",
    "§2.4": "'Crawlers MAY use standard cache control as defined in [RFC9111]. Crawlers SHOULD "
            "NOT use the cached version for more than 24 hours, unless the robots.txt file is "
            "unreachable.'",
    "§2.5": "'The parsing limit MUST be at least 500 kibibytes [KiB].'",
}


def http(status=None, event=None, **extra):
    inp = {"scheme": "http"}
    if status is not None:
        inp["status"] = status
    if event is not None:
        inp["event"] = event
    inp.update(extra)
    return inp


def https(status=None, event=None, **extra):
    inp = http(status, event, **extra)
    inp["scheme"] = "https"
    return inp


def ftp(event):
    return {"scheme": "ftp", "event": event}


def with_(expect, **extra):
    out = dict(expect)
    out.update(extra)
    return out


# (section, input, expect, profiles, note)
ROWS = [
    # §2.3.1.1 Successful access
    ("§2.3.1.1", http(200), SUCCESS, ALL, "a 200 with a text/plain body: its rules decide"),
    ("§2.3.1.1", http(204), with_(SUCCESS, bytes=0), ALL,
     "any 2xx is a successful download; a 204 has an empty body, so no rule applies through "
     "the rules (not through the access result)"),
    ("§2.3.1.1", http(200, headers={"content-type": "text/html; charset=utf-8"}), SUCCESS, ALL,
     "served as text/html instead of text/plain (§2.3): still downloaded, its parseable lines "
     "are followed (§2.3.1.5)"),
    ("§2.3.1.1", http(event="gzip"), with_(SUCCESS, bytes=len(ROBOTS)), ALL,
     "a gzip Content-Encoding is decoded: the rules are read from the decoded bytes"),
    ("§2.3.1.1", ftp("ftp-retr-ok"), SUCCESS, ALL,
     "§2.3 names ftp://ftp.example.com/robots.txt: fetched with an anonymous login and RETR"),
    # §2.3.1.2 Redirects
    ("§2.3.1.2", http(200, "redirects:1", redirect_status=301), SUCCESS, ALL,
     "HTTP 301 (named by the RFC) is followed"),
    ("§2.3.1.2", http(200, "redirects:1", redirect_status=302), SUCCESS, ALL,
     "HTTP 302 (named by the RFC) is followed"),
    ("§2.3.1.2", http(200, "redirects:1", redirect_status=303), SUCCESS, ALL,
     "HTTP 303 is a redirect too"),
    ("§2.3.1.2", http(200, "redirects:1", redirect_status=307), SUCCESS, ALL,
     "HTTP 307 is a redirect too"),
    ("§2.3.1.2", http(200, "redirects:1", redirect_status=308), SUCCESS, ALL,
     "HTTP 308 is a redirect too"),
    ("§2.3.1.2", http(200, "redirects:5", redirect_status=302), SUCCESS, ALL,
     "five consecutive redirects are followed"),
    ("§2.3.1.2", http(200, "redirects:6", redirect_status=302), UNAVAILABLE, ALL,
     "more than five consecutive redirects: the file is read as unavailable (the MAY taken)"),
    ("§2.3.1.2", http(200, "redirect-cross-host"), SUCCESS, ALL,
     "a redirect to another authority (host) is followed; the rules stay with the first one"),
    ("§2.3.1.2", http(event="redirect-loop"), UNAVAILABLE, ALL,
     "a loop never reaches the file within five redirects: unavailable"),
    # §2.3.1.3 Unavailable
    ("§2.3.1.3", http(400), UNAVAILABLE, ALL, "400: in the 400-499 range"),
    ("§2.3.1.3", http(401), UNAVAILABLE, ALL, "401: in the 400-499 range (not a reason to stop)"),
    ("§2.3.1.3", http(403), UNAVAILABLE, ALL, "403: in the 400-499 range (not a reason to stop)"),
    ("§2.3.1.3", http(404), UNAVAILABLE, ALL, "404: in the 400-499 range"),
    ("§2.3.1.3", http(410), UNAVAILABLE, ALL, "410: in the 400-499 range"),
    ("§2.3.1.3", http(451), UNAVAILABLE, ALL, "451: in the 400-499 range"),
    ("§2.3.1.3", http(499), UNAVAILABLE, ALL, "499: the top of the 400-499 range"),
    ("§2.3.1.3", http(429, too_many_requests="unavailable"), UNAVAILABLE, ALL,
     "429 read as the RFC's range says, with the fetcher's 429 knob set to `unavailable` (its "
     "default reads 429 as unreachable, as Google does: seed-google-spec/http-014)"),
    ("§2.3.1.3", ftp("ftp-550"), UNAVAILABLE, ALL,
     "FTP: 550 (file unavailable) for RETR /robots.txt is the FTP form of 'not found'"),
    # §2.3.1.4 Unreachable
    ("§2.3.1.4", http(500), UNREACHABLE, ALL, "500: in the 500-599 range"),
    ("§2.3.1.4", http(502), UNREACHABLE, ALL, "502: in the 500-599 range"),
    ("§2.3.1.4", http(503), UNREACHABLE, ALL, "503: in the 500-599 range"),
    ("§2.3.1.4", http(504), UNREACHABLE, ALL, "504: in the 500-599 range"),
    ("§2.3.1.4", http(599), UNREACHABLE, ALL, "599: the top of the 500-599 range"),
    ("§2.3.1.4", http(event="dns-failure"), UNREACHABLE, ALL,
     "network error: the host name does not resolve"),
    ("§2.3.1.4", http(event="connection-refused"), UNREACHABLE, ALL,
     "network error: nothing listens on the port"),
    ("§2.3.1.4", http(event="timeout"), UNREACHABLE, ALL,
     "network error: the server never answers within the deadline"),
    ("§2.3.1.4", http(event="reset"), UNREACHABLE, ALL,
     "network error: the connection is reset in the middle of the body"),
    ("§2.3.1.4", http(event="interrupted"), UNREACHABLE, ALL,
     "network error: the server hangs up without answering"),
    ("§2.3.1.4", http(event="truncated-body"), UNREACHABLE, ALL,
     "network error: the body ends before its Content-Length (the file was not downloaded)"),
    ("§2.3.1.4", http(event="chunking-error"), UNREACHABLE, ALL,
     "network error: malformed chunked encoding"),
    ("§2.3.1.4", http(event="invalid-response"), UNREACHABLE, ALL,
     "server error: the answer is not HTTP"),
    ("§2.3.1.4", ftp("ftp-login-refused"), UNREACHABLE, ALL,
     "FTP: the anonymous login is refused, so the file cannot be reached"),
    ("§2.3.1.4", ftp("ftp-silent"), UNREACHABLE, ALL,
     "FTP: the server never greets within the deadline"),
    ("§2.3.1.4", http(503, "unreachable-days:29,no-cached-copy"), UNREACHABLE, RFC_CACHE,
     "'MUST assume complete disallow' for as long as the outage is not 'reasonably long' "
     "(Google's cache rules allow everything after 12 hours without a copy: not listed for "
     "google)"),
    ("§2.3.1.4", http(503, "unreachable-days:30,no-cached-copy"),
     {"access": "unreachable", "verdict": "full-allow"}, ALL,
     "'undefined for a reasonably long period of time (for example, 30 days), crawlers MAY "
     "assume that the robots.txt file is unavailable': after 30 days everything is allowed"),
    ("§2.3.1.4", http(503, "unreachable-days:29,cached-copy"),
     {"access": "unreachable", "verdict": "conditional"}, ALL,
     "'or continue to use a cached copy': the last good copy decides during the outage"),
    ("§2.3.1.4", http(500, "unreachable-days:30,cached-copy"),
     {"access": "unreachable", "verdict": "full-allow"}, ALL,
     "after 30 days the RFC allows either reading; robotrules takes 'unavailable' even with a "
     "copy (DESIGN: the last good copy up to 30 days, then allow all)"),
    # §2.4 Caching
    ("§2.4", http(200, "cached-for-hours:23"), with_(SUCCESS, fetches=1), ALL,
     "'Crawlers MAY cache the fetched robots.txt file's contents': asked again after 23 hours, "
     "the cached copy answers"),
    ("§2.4", http(200, "cached-for-hours:25"), with_(SUCCESS, fetches=2), ALL,
     "'SHOULD NOT use the cached version for more than 24 hours': after 25 hours it is fetched "
     "again"),
    ("§2.4", http(200, "cached-for-hours:25", headers={"cache-control": "max-age=172800"}),
     with_(SUCCESS, fetches=2), RFC_CACHE,
     "a max-age of two days does not stretch the 24 hours (Google's cache rules follow "
     "max-age: not listed for google)"),
    ("§2.4", http(200, "cached-for-hours:2", headers={"cache-control": "max-age=3600"}),
     with_(SUCCESS, fetches=2), ALL,
     "standard cache control (RFC 9111): max-age=3600 makes the copy stale after an hour"),
    ("§2.4", http(200, "cached-for-hours:2", headers={
        "date": "Mon, 01 Jan 2024 00:00:00 GMT", "expires": "Mon, 01 Jan 2024 01:00:00 GMT"}),
     with_(SUCCESS, fetches=2), ALL,
     "standard cache control (RFC 9111): Expires one hour after Date"),
    ("§2.4", http(200, "cached-for-hours:1", headers={"cache-control": "no-store"}),
     with_(SUCCESS, fetches=2), ALL,
     "standard cache control (RFC 9111): no-store is never reused"),
    ("§2.4", http(503, "unreachable-days:2,cached-copy"),
     {"access": "unreachable", "verdict": "conditional", "fetches": 3}, ALL,
     "'unless the robots.txt file is unreachable': a copy three days old is still used while "
     "the file cannot be fetched (one good fetch, two failed ones)"),
    ("§2.4", http(503, "unreachable-hours:0,cached-copy"),
     {"access": "unreachable", "verdict": "conditional"}, RFC_CACHE,
     "the cached copy is used from the first failed refresh (Google's cache rules disallow "
     "everything for the first 12 hours: not listed for google)"),
    # §2.5 Limits
    ("§2.5", http(event=f"body-bytes:{LIMIT}"),
     with_(SUCCESS, bytes=LIMIT, truncated=False), ALL,
     "a file of exactly 500 KiB is parsed whole"),
    ("§2.5", http(event="body-bytes:600000"),
     with_(SUCCESS, bytes=CUT, truncated=True), ALL,
     "past 500 KiB the body is cut, at the last whole line within the limit"),
    ("§2.5", http(event="body-bytes:104857600"),
     with_(SUCCESS, bytes=CUT, truncated=True), ALL,
     "a 100 MB body: the limit is kept and reading stops there"),
    ("§2.5", http(event="gzip-bomb-bytes:104857600"),
     with_(SUCCESS, bytes=CUT, truncated=True), ALL,
     "a gzip body of 100 MB decompressed: the limit counts decompressed bytes"),
    # HTTPS (the conformance run's TLS server has a certificate from a CA made for the run,
    # trusted as an extra root; the tls-... servers fail the handshake each their own way).
    ("§2.3.1.1", https(200), SUCCESS, ALL,
     "a robots.txt fetched over https, its certificate verified, is a success"),
    ("§2.3.1.2", https(200, "redirects:5", redirect_status=301), SUCCESS, ALL,
     "five consecutive redirects are followed over https too"),
    ("§2.3.1.2", https(200, "redirect-cross-scheme"), SUCCESS, ALL,
     "a redirect from https to http on another host is followed; the rules stay with the "
     "https origin"),
    ("§2.3.1.2", http(200, "redirect-cross-scheme"), SUCCESS, ALL,
     "a redirect from http to https on another host is followed; the rules stay with the "
     "http origin"),
    ("§2.3.1.3", https(404), UNAVAILABLE, ALL, "404 over https: in the 400-499 range"),
    ("§2.3.1.4", https(503), UNREACHABLE, ALL, "503 over https: in the 500-599 range"),
    ("§2.3.1.4", https(event="tls-unknown-issuer"), UNREACHABLE, ALL,
     "network error: the server's certificate chains to a CA the crawler does not trust"),
    ("§2.3.1.4", https(event="tls-expired"), UNREACHABLE, ALL,
     "network error: the server's certificate has expired"),
    ("§2.3.1.4", https(event="tls-wrong-host"), UNREACHABLE, ALL,
     "network error: the server's certificate is for another host name"),
    ("§2.3.1.4", https(event="tls-handshake-failure"), UNREACHABLE, ALL,
     "network error: the server aborts the TLS handshake (handshake_failure alert)"),
    ("§2.3.1.4", https(event="tls-not-tls"), UNREACHABLE, ALL,
     "network error: a plain HTTP server answers on the TLS port"),
]


def cases():
    out = []
    for number, (section, inp, expect, profiles, note) in enumerate(ROWS, start=1):
        out.append({
            "id": f"rfc9309/fetch-{number:03d}",
            "source": "rfc9309",
            "section": f"RFC 9309 {section}",
            "layer": "fetch",
            "profiles": profiles,
            "input": inp,
            "expect": expect,
            "provenance": PROVENANCE.format(section=section),
            "note": f"{note}. RFC 9309 {section}: {QUOTES[section]}",
        })
    return out


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.dirname(here))
    args = parser.parse_args(argv)
    path = os.path.join(args.out, OUT)
    items = cases()
    write_jsonl(path, items)
    print(f"{OUT}: {len(items)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

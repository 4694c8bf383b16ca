//! End-to-end tests of the `robotrules` binary over HTTPS: `check` and `fetch` against TLS
//! servers the tests start on loopback (`robotrules-testserver`, with a CA generated for the
//! run), `--ca-cert` and `--platform-roots`, every TLS failure reported as unreachable with its
//! reason (RFC 9309 §2.3.1.4), and `--ca-cert` files that cannot be used (exit 2).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::net::{IpAddr, Ipv6Addr};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::tls::{
    BrokenTlsListener, HandshakeFault, Identity, TestCa, Validity, LOOPBACK_NAMES,
};
use robotrules_testserver::Background;
use rstest::rstest;

use crate::support::{Harness, Run};

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\n";

/// Without proxies from the environment: the servers are on loopback.
const HARNESS: Harness = Harness::LOOPBACK;

fn run(args: &[&str]) -> Run {
    HARNESS.run(args, b"")
}

/// A CA, its certificate in a PEM file, and a runtime for servers.
struct Pki {
    ca: TestCa,
    dir: tempfile::TempDir,
    background: Background,
}

impl Pki {
    fn new() -> Pki {
        Pki {
            ca: TestCa::new("robotrules test CA").unwrap(),
            dir: tempfile::tempdir().unwrap(),
            background: Background::new().unwrap(),
        }
    }

    /// A file called `name` holding `content`, as an argument.
    fn file(&self, name: &str, content: &[u8]) -> String {
        let path: PathBuf = self.dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// The CA certificate's PEM file.
    fn ca_file(&self) -> String {
        self.file("ca.pem", self.ca.pem().as_bytes())
    }

    /// An HTTPS server presenting `identity` that serves `ROBOTS`.
    fn server(&self, identity: &Identity) -> HttpServer {
        let server = self.background.https(identity).unwrap();
        server.route("/robots.txt", Reply::ok(ROBOTS));
        server
    }

    /// An HTTPS server with a current certificate for the loopback names.
    fn good_server(&self) -> HttpServer {
        self.server(&self.ca.localhost().unwrap())
    }
}

#[test]
fn fetch_trusts_a_ca_cert() {
    let pki = Pki::new();
    let server = pki.good_server();
    let url = server.url("/robots.txt");
    let out = run(&["fetch", "--ca-cert", &pki.ca_file(), &url]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(&format!("request: 200 {url}\n")),
        "{out:?}"
    );
    assert!(out.stdout.contains("\naccess: success\n"), "{out:?}");
}

#[test]
fn fetch_without_the_ca_cert_is_unreachable_with_the_reason() {
    let pki = Pki::new();
    let server = pki.good_server();
    let out = run(&["fetch", &server.url("/robots.txt")]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout.contains(
            "\naccess: unreachable (TLS: certificate not trusted (signed by an unknown issuer))"
        ),
        "{out:?}"
    );
    assert_eq!(server.hits("/robots.txt"), 0);
}

/// Each way a certificate fails, as `fetch --format json` reports it.
#[rstest]
#[case::unknown_ca("unknown-ca", "certificate not trusted (signed by an unknown issuer)")]
#[case::expired("expired", "certificate not trusted (expired)")]
#[case::not_yet_valid("not-yet-valid", "certificate not trusted (not valid yet)")]
#[case::wrong_host("wrong-host", "certificate not trusted (not valid for this host name)")]
fn fetch_reports_each_certificate_failure(#[case] which: &str, #[case] failure: &str) {
    let pki = Pki::new();
    let identity = match which {
        "unknown-ca" => TestCa::new("other CA").unwrap().localhost().unwrap(),
        "expired" => pki.ca.issue(&LOOPBACK_NAMES, Validity::Expired).unwrap(),
        "not-yet-valid" => pki
            .ca
            .issue(&LOOPBACK_NAMES, Validity::NotYetValid)
            .unwrap(),
        "wrong-host" => pki
            .ca
            .issue(&["www.example.test"], Validity::Current)
            .unwrap(),
        other => panic!("no identity {other}"),
    };
    let server = pki.server(&identity);
    let out = run(&[
        "fetch",
        "--format",
        "json",
        "--ca-cert",
        &pki.ca_file(),
        &server.url("/robots.txt"),
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    let json = out.json();
    assert_eq!(json["access"], "unreachable");
    let reason = json["reason"].as_str().unwrap();
    assert_eq!(reason, format!("TLS: {failure}"));
}

#[rstest]
#[case::alert(HandshakeFault::Alert, "TLS: handshake failed")]
#[case::plain_http(HandshakeFault::PlainHttp, "TLS: the server does not speak TLS")]
fn fetch_reports_a_spoiled_handshake(#[case] fault: HandshakeFault, #[case] reason: &str) {
    let pki = Pki::new();
    let listener = pki
        .background
        .block_on(BrokenTlsListener::try_start(fault))
        .unwrap();
    let out = run(&["fetch", "--ca-cert", &pki.ca_file(), &listener.url("/")]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout
            .contains(&format!("\naccess: unreachable ({reason}")),
        "{out:?}"
    );
}

#[test]
fn a_stalled_handshake_ends_within_the_timeout() {
    let pki = Pki::new();
    let listener = pki
        .background
        .block_on(BrokenTlsListener::try_start(HandshakeFault::Stall))
        .unwrap();
    let started = Instant::now();
    let out = run(&[
        "fetch",
        "--timeout",
        "1",
        "--ca-cert",
        &pki.ca_file(),
        &listener.url("/"),
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("\naccess: unreachable ("), "{out:?}");
    // The handshake is part of connecting: the connect deadline or the whole fetch's (both
    // --timeout) ends it, whichever the runtime notices first.
    assert!(
        out.stdout.contains("timed out connecting after 1 s")
            || out.stdout.contains("timed out after 1 s"),
        "{out:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "{out:?}");
}

#[test]
fn a_one_megabyte_chain_is_unreachable_within_the_timeout() {
    let pki = Pki::new();
    let server = pki.server(&pki.ca.localhost().unwrap().padded_to(1024 * 1024));
    let started = Instant::now();
    let out = run(&[
        "fetch",
        "--timeout",
        "2",
        "--ca-cert",
        &pki.ca_file(),
        &server.url("/robots.txt"),
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("\naccess: unreachable ("), "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "{out:?}");
}

#[test]
fn check_applies_rules_fetched_over_https() {
    let pki = Pki::new();
    let server = pki.good_server();
    let out = run(&[
        "check",
        "--ca-cert",
        &pki.ca_file(),
        &server.url("/robots.txt"),
        "ExampleBot",
        "/private/x",
        "/public",
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.lines(), ["disallowed\t/private/x", "allowed\t/public"]);
}

/// Every command that reads a remote ROBOTS takes the same remote options: `explain`, `show`
/// and `lint` trust `--ca-cert` (and take `--timeout`) as `check` does.
#[test]
fn explain_show_and_lint_take_the_remote_options() {
    let pki = Pki::new();
    let server = pki.good_server();
    let url = server.url("/robots.txt");
    let ca = pki.ca_file();
    let explain = run(&[
        "explain",
        "--timeout",
        "5",
        "--ca-cert",
        &ca,
        "--format",
        "json",
        &url,
        "ExampleBot",
        "/private/x",
    ]);
    assert_eq!(explain.code, 1, "{explain:?}");
    assert_eq!(
        explain.json()["profiles"][0]["explanation"]["allowed"],
        false
    );
    let show = run(&[
        "show",
        "--timeout",
        "5",
        "--ca-cert",
        &ca,
        &url,
        "ExampleBot",
    ]);
    assert_eq!(show.code, 0, "{show:?}");
    assert!(
        show.stdout
            .contains(&format!("robots.txt: {url} (success)")),
        "{show:?}"
    );
    let lint = run(&["lint", "--timeout", "5", "--ca-cert", &ca, &url]);
    assert!(!lint.stderr.contains("unreachable"), "{lint:?}");
    assert_eq!(server.hits("/robots.txt"), 3);
}

#[test]
fn check_disallows_everything_when_the_certificate_does_not_verify() {
    let pki = Pki::new();
    let server = pki.good_server();
    let out = run(&[
        "check",
        "--explain",
        &server.url("/robots.txt"),
        "ExampleBot",
        "/public",
    ]);
    assert_eq!(out.code, 1, "{out:?}");
    let line = out.lines()[0];
    assert!(
        line.starts_with(
            "disallowed\t/public\t-\trobots-txt-unreachable: TLS: certificate not trusted (signed by an unknown issuer)"
        ),
        "{line}"
    );
}

#[test]
fn ipv6_loopback_works() {
    let pki = Pki::new();
    let identity = pki.ca.localhost().unwrap();
    let server = pki
        .background
        .block_on(HttpServer::try_start_tls_on(
            IpAddr::V6(Ipv6Addr::LOCALHOST),
            &identity,
        ))
        .unwrap();
    server.route("/robots.txt", Reply::ok(ROBOTS));
    let robots = server.url("/robots.txt");
    assert!(robots.starts_with("https://[::1]:"), "{robots}");
    let out = run(&[
        "check",
        "--ca-cert",
        &pki.ca_file(),
        &robots,
        "ExampleBot",
        "/public",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.lines(), ["allowed\t/public"]);
}

#[test]
fn fetch_follows_https_to_http_and_back() {
    let pki = Pki::new();
    let https = pki.good_server();
    let http = pki.background.http().unwrap();
    https.route(
        "/robots.txt",
        Reply::redirect(301, &http.url("/a/robots.txt")),
    );
    http.route(
        "/a/robots.txt",
        Reply::redirect(302, &https.url("/b/robots.txt")),
    );
    https.route("/b/robots.txt", Reply::ok(ROBOTS));
    let out = run(&["fetch", "--ca-cert", &pki.ca_file(), &https.url("/page")]);
    assert_eq!(out.code, 0, "{out:?}");
    let requests: Vec<_> = out
        .lines()
        .into_iter()
        .filter(|line| line.starts_with("request: "))
        .collect();
    assert_eq!(
        requests,
        [
            format!("request: 301 {}", https.url("/robots.txt")),
            format!("request: 302 {}", http.url("/a/robots.txt")),
            format!("request: 200 {}", https.url("/b/robots.txt")),
        ]
    );
    assert_eq!(
        out.lines()[0],
        format!("robots.txt: {}", https.url("/robots.txt"))
    );
}

#[test]
fn several_ca_certs_are_all_trusted() {
    let pki = Pki::new();
    let other = TestCa::new("other CA").unwrap();
    let other_file = pki.file("other.pem", other.pem().as_bytes());
    for identity in [pki.ca.localhost().unwrap(), other.localhost().unwrap()] {
        let server = pki.server(&identity);
        let out = run(&[
            "fetch",
            "--ca-cert",
            &pki.ca_file(),
            "--ca-cert",
            &other_file,
            &server.url("/robots.txt"),
        ]);
        assert_eq!(out.code, 0, "{out:?}");
    }
}

#[test]
fn platform_roots_come_from_the_platform_store() {
    let pki = Pki::new();
    let server = pki.good_server();
    let url = server.url("/robots.txt");
    // rustls-native-certs reads SSL_CERT_FILE instead of the system bundle when it is set.
    let with_store = |args: &[&str]| {
        let output = HARNESS
            .command(args)
            .env("SSL_CERT_FILE", pki.ca_file())
            .env_remove("SSL_CERT_DIR")
            .output()
            .unwrap();
        (
            output.status.code().unwrap(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    let (code, stdout) = with_store(&["fetch", "--platform-roots", &url]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("\naccess: success\n"), "{stdout}");
    // Without the flag the platform store is not read.
    let (code, stdout) = with_store(&["fetch", &url]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("unknown issuer"), "{stdout}");
}

/// `--ca-cert` files that cannot be used: exit 2 with one line naming the file, for every
/// command that takes the option, before anything is fetched.
#[rstest]
#[case::missing(None, "No such file or directory")]
#[case::empty(Some(&b""[..]), "the file is empty")]
#[case::blank(Some(&b"\n\n  \n"[..]), "the file is empty")]
#[case::not_pem(Some(&b"User-agent: *\nDisallow: /\n"[..]), "not PEM")]
#[case::binary(Some(&b"\x30\x82\x01\x0a\x02\x82\x01\x01\x00\xff"[..]), "not PEM")]
#[case::broken_pem(Some(&b"-----BEGIN CERTIFICATE-----\nMIIB\n"[..]), "malformed PEM")]
#[case::garbage_certificate(
    Some(&b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"[..]),
    "certificate 1 cannot be a trust root"
)]
fn unusable_ca_cert_files_are_usage_errors(#[case] content: Option<&[u8]>, #[case] why: &str) {
    let pki = Pki::new();
    let server = pki.good_server();
    let path = match content {
        Some(bytes) => pki.file("bad.pem", bytes),
        None => pki
            .dir
            .path()
            .join("missing.pem")
            .to_str()
            .unwrap()
            .to_owned(),
    };
    let named = format!("cannot use --ca-cert {path:?}: ");
    let url = server.url("/robots.txt");
    for args in [
        vec!["fetch", "--ca-cert", &path, &url],
        vec!["check", "--ca-cert", &path, &url, "ExampleBot", "/"],
        vec!["explain", "--ca-cert", &path, &url, "ExampleBot", "/"],
        vec!["show", "--ca-cert", &path, &url, "ExampleBot"],
        vec!["lint", "--ca-cert", &path, &url],
        vec!["batch", "--ca-cert", &path, "ExampleBot", &url],
    ] {
        let out = run(&args);
        out.assert_error(&named);
        out.assert_error(why);
    }
    assert_eq!(server.hits("/robots.txt"), 0);
}

#[test]
fn a_private_key_instead_of_a_certificate_is_a_usage_error() {
    let pki = Pki::new();
    let key = pki.ca.localhost().unwrap().key_pem();
    let path = pki.file("key.pem", key.as_bytes());
    let out = run(&["fetch", "--ca-cert", &path, "https://127.0.0.1:1/"]);
    out.assert_error(&format!(
        "cannot use --ca-cert {path:?}: holds a private key, not a certificate"
    ));
}

#[test]
fn a_bad_ca_cert_is_an_error_with_a_local_robots_file_too() {
    let pki = Pki::new();
    let robots = pki.file("robots.txt", ROBOTS.as_bytes());
    let empty = pki.file("empty.pem", b"");
    let out = run(&["check", "--ca-cert", &empty, &robots, "ExampleBot", "/"]);
    out.assert_error("the file is empty");
}

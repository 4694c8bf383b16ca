//! HTTPS fetching against real loopback TLS servers (`robotrules-testserver`'s `tls`), with a
//! certificate authority generated for the run: a chain that verifies is a success; every TLS
//! failure makes the robots.txt unreachable (RFC 9309 §2.3.1.4, "network errors"), with the
//! reason named; redirects cross between http and https (§2.3.1.2).

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::net::{IpAddr, Ipv6Addr};
use std::time::{Duration, Instant};

use crate::support::{fetcher, test_options, unreachable_reason};
use robotrules_fetch::{
    Access, FetchOptions, FetchOutcome, RootCertificate, TimeoutPhase, TlsFailure,
    UnavailableReason, UnreachableReason, VerdictClass,
};
use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::tls::{
    BrokenTlsListener, HandshakeFault, Identity, TestCa, Validity, LOOPBACK_NAMES,
};
use rstest::rstest;

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";

/// The test options, trusting `ca` besides the built-in web roots.
fn trusting(ca: &TestCa) -> FetchOptions {
    FetchOptions {
        extra_root_certificates: RootCertificate::from_pem(ca.pem().as_bytes()).unwrap(),
        ..test_options()
    }
}

/// An HTTPS server presenting `identity` that serves [`ROBOTS`].
async fn serving(identity: &Identity) -> HttpServer {
    let server = HttpServer::start_tls(identity).await;
    server.route("/robots.txt", Reply::ok(ROBOTS));
    server
}

async fn fetch_with(options: FetchOptions, url: &str) -> FetchOutcome {
    fetcher(options).fetch(url).await.unwrap()
}

/// The TLS failure of an unreachable outcome; anything else fails the test.
fn tls_failure(outcome: &FetchOutcome) -> TlsFailure {
    match unreachable_reason(&outcome.access) {
        UnreachableReason::Tls { failure, .. } => *failure,
        other => panic!("expected a TLS failure, got {other:?}"),
    }
}

#[tokio::test]
async fn a_chain_to_a_trusted_root_is_a_success() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = serving(&ca.localhost().unwrap()).await;
    let url = server.url("/robots.txt");
    assert!(url.starts_with("https://127.0.0.1:"), "{url}");

    let outcome = fetch_with(trusting(&ca), &url).await;
    assert_eq!(outcome.body().unwrap(), ROBOTS.as_bytes(), "{outcome:?}");
    assert_eq!(outcome.verdict_class(), VerdictClass::Conditional);
    assert_eq!(outcome.final_status(), Some(200));
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[rstest]
#[case::by_ip("127.0.0.1")]
#[case::by_name("localhost")]
#[tokio::test]
async fn the_loopback_names_of_the_certificate_verify(#[case] host: &str) {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = serving(&ca.localhost().unwrap()).await;
    let outcome = fetch_with(trusting(&ca), &server.url_on(host, "/robots.txt")).await;
    assert_eq!(
        outcome.verdict_class(),
        VerdictClass::Conditional,
        "{outcome:?}"
    );
}

#[tokio::test]
async fn ipv6_loopback_works() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let identity = ca.localhost().unwrap();
    let server = HttpServer::try_start_tls_on(IpAddr::V6(Ipv6Addr::LOCALHOST), &identity)
        .await
        .unwrap();
    server.route("/robots.txt", Reply::ok(ROBOTS));
    let url = server.url("/some/page");
    assert!(url.starts_with("https://[::1]:"), "{url}");

    let outcome = fetch_with(trusting(&ca), &url).await;
    assert_eq!(outcome.body().unwrap(), ROBOTS.as_bytes(), "{outcome:?}");
    assert_eq!(outcome.robots_txt_url, server.url("/robots.txt"));
}

#[tokio::test]
async fn without_the_private_root_the_built_in_roots_do_not_trust_the_server() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = serving(&ca.localhost().unwrap()).await;
    let outcome = fetch_with(test_options(), &server.url("/robots.txt")).await;
    assert_eq!(tls_failure(&outcome), TlsFailure::UnknownIssuer);
    assert_eq!(
        server.hits("/robots.txt"),
        0,
        "no request may pass an unverified handshake"
    );
}

#[tokio::test]
async fn a_certificate_from_another_ca_is_an_unknown_issuer() {
    let trusted = TestCa::new("trusted CA").unwrap();
    let other = TestCa::new("other CA").unwrap();
    let server = serving(&other.localhost().unwrap()).await;
    let outcome = fetch_with(trusting(&trusted), &server.url("/robots.txt")).await;
    assert_eq!(tls_failure(&outcome), TlsFailure::UnknownIssuer);
    assert_eq!(outcome.verdict_class(), VerdictClass::FullDisallow);
}

#[rstest]
#[case::expired(Validity::Expired, TlsFailure::Expired)]
#[case::not_yet_valid(Validity::NotYetValid, TlsFailure::NotYetValid)]
#[tokio::test]
async fn a_certificate_outside_its_validity_is_unreachable(
    #[case] validity: Validity,
    #[case] failure: TlsFailure,
) {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = serving(&ca.issue(&LOOPBACK_NAMES, validity).unwrap()).await;
    let outcome = fetch_with(trusting(&ca), &server.url("/robots.txt")).await;
    assert_eq!(tls_failure(&outcome), failure);
    assert_eq!(server.hits("/robots.txt"), 0);
}

#[tokio::test]
async fn a_certificate_for_another_host_is_unreachable() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let identity = ca.issue(&["www.example.test"], Validity::Current).unwrap();
    let server = serving(&identity).await;
    let outcome = fetch_with(trusting(&ca), &server.url("/robots.txt")).await;
    assert_eq!(tls_failure(&outcome), TlsFailure::NameMismatch);
}

#[tokio::test]
async fn a_wildcard_certificate_covers_the_names_resolved_to_the_server() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let identity = ca.issue(&["*.example.test"], Validity::Current).unwrap();
    let server = serving(&identity).await;
    let options = FetchOptions {
        resolve: vec![
            ("www.example.test".into(), server.addr()),
            ("deep.www.example.test".into(), server.addr()),
        ],
        ..trusting(&ca)
    };
    let outcome = fetch_with(options.clone(), &server.url_on("www.example.test", "/")).await;
    assert_eq!(
        outcome.verdict_class(),
        VerdictClass::Conditional,
        "{outcome:?}"
    );
    // A wildcard covers one label only.
    let outcome = fetch_with(options, &server.url_on("deep.www.example.test", "/")).await;
    assert_eq!(tls_failure(&outcome), TlsFailure::NameMismatch);
}

#[rstest]
#[case::alert(HandshakeFault::Alert, TlsFailure::Handshake)]
#[case::plain_http_on_the_tls_port(HandshakeFault::PlainHttp, TlsFailure::NotTls)]
#[tokio::test]
async fn a_spoiled_handshake_is_unreachable(
    #[case] fault: HandshakeFault,
    #[case] failure: TlsFailure,
) {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let listener = BrokenTlsListener::start(fault).await;
    let outcome = fetch_with(trusting(&ca), &listener.url("/robots.txt")).await;
    assert_eq!(tls_failure(&outcome), failure, "{outcome:?}");
    assert!(outcome.chain.is_empty());
}

#[tokio::test]
async fn a_stalled_handshake_ends_at_the_connect_deadline() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let listener = BrokenTlsListener::start(HandshakeFault::Stall).await;
    let options = FetchOptions {
        connect_timeout: Duration::from_millis(500),
        total_timeout: Duration::from_millis(1500),
        ..trusting(&ca)
    };
    let started = Instant::now();
    let outcome = fetch_with(options, &listener.url("/robots.txt")).await;
    assert!(
        matches!(
            unreachable_reason(&outcome.access),
            UnreachableReason::Timeout {
                phase: TimeoutPhase::Connect,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert!(
        started.elapsed() < Duration::from_millis(1400),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn a_one_megabyte_certificate_chain_is_unreachable_within_the_deadline() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let identity = ca.localhost().unwrap().padded_to(1024 * 1024);
    assert!(identity.chain_bytes() >= 1024 * 1024);
    let server = serving(&identity).await;
    let started = Instant::now();
    let outcome = fetch_with(trusting(&ca), &server.url("/robots.txt")).await;
    assert!(
        matches!(outcome.access, Access::Unreachable { .. }),
        "{outcome:?}"
    );
    assert!(
        started.elapsed() < Duration::from_millis(1800),
        "{outcome:?}"
    );
    assert_eq!(server.hits("/robots.txt"), 0);
}

#[tokio::test]
async fn https_to_http_redirects_are_followed_and_the_result_is_the_https_origins() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let https = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    let http = HttpServer::start().await;
    https.route(
        "/robots.txt",
        Reply::redirect(301, &http.url("/moved/robots.txt")),
    );
    http.route("/moved/robots.txt", Reply::ok(ROBOTS));

    let outcome = fetch_with(trusting(&ca), &https.url("/page")).await;
    assert_eq!(outcome.body().unwrap(), ROBOTS.as_bytes(), "{outcome:?}");
    assert_eq!(outcome.robots_txt_url, https.url("/robots.txt"));
    let hops: Vec<_> = outcome
        .chain
        .iter()
        .map(|hop| (hop.status, hop.url.clone()))
        .collect();
    assert_eq!(
        hops,
        [
            (301, https.url("/robots.txt")),
            (200, http.url("/moved/robots.txt"))
        ]
    );
}

#[tokio::test]
async fn http_to_https_redirects_are_followed_and_the_result_is_the_http_origins() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let https = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    let http = HttpServer::start().await;
    http.route(
        "/robots.txt",
        Reply::redirect(308, &https.url("/robots.txt")),
    );
    https.route("/robots.txt", Reply::ok(ROBOTS));

    let outcome = fetch_with(trusting(&ca), &http.url("/")).await;
    assert_eq!(outcome.body().unwrap(), ROBOTS.as_bytes(), "{outcome:?}");
    assert_eq!(outcome.robots_txt_url, http.url("/robots.txt"));
    assert_eq!(outcome.final_url(), https.url("/robots.txt"));
}

#[tokio::test]
async fn redirects_between_schemes_count_against_the_hop_limit() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let https = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    let http = HttpServer::start().await;
    // https /0 → http /1 → https /2 → … : six redirects, one more than the limit of 5.
    for hop in 0..6 {
        let next = format!("/{}/robots.txt", hop + 1);
        let (from, to) = if hop % 2 == 0 {
            (&https, http.url(&next))
        } else {
            (&http, https.url(&next))
        };
        from.route(&format!("/{hop}/robots.txt"), Reply::redirect(302, &to));
    }
    https.route(
        "/robots.txt",
        Reply::redirect(302, &https.url("/0/robots.txt")),
    );
    let options = FetchOptions {
        max_redirects: 6,
        ..trusting(&ca)
    };
    let outcome = fetch_with(options, &https.url("/robots.txt")).await;
    assert_eq!(
        outcome.access,
        Access::Unavailable {
            reason: UnavailableReason::TooManyRedirects { limit: 6 }
        }
    );
    assert_eq!(outcome.chain.len(), 7);
}

#[tokio::test]
async fn a_redirect_to_an_untrusted_https_server_is_unreachable() {
    let trusted = TestCa::new("trusted CA").unwrap();
    let other = TestCa::new("other CA").unwrap();
    let https = serving(&other.localhost().unwrap()).await;
    let http = HttpServer::start().await;
    http.route(
        "/robots.txt",
        Reply::redirect(301, &https.url("/robots.txt")),
    );

    let outcome = fetch_with(trusting(&trusted), &http.url("/robots.txt")).await;
    assert_eq!(tls_failure(&outcome), TlsFailure::UnknownIssuer);
    assert_eq!(
        outcome.chain.len(),
        1,
        "the redirect was received: {outcome:?}"
    );
}

#[tokio::test]
async fn the_reason_names_the_tls_failure() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = serving(&ca.issue(&LOOPBACK_NAMES, Validity::Expired).unwrap()).await;
    let outcome = fetch_with(trusting(&ca), &server.url("/robots.txt")).await;
    assert_eq!(
        outcome.access.kind(),
        robotrules_fetch::AccessKind::Unreachable
    );
    let reason = outcome.access.reason().unwrap();
    assert_eq!(reason, "TLS: certificate not trusted (expired)");

    let json = serde_json::to_value(&outcome.access).unwrap();
    assert_eq!(json["reason"]["kind"], "tls");
    assert_eq!(json["reason"]["failure"], "expired");
}

#[tokio::test]
async fn several_extra_roots_are_all_trusted() {
    let first = TestCa::new("first CA").unwrap();
    let second = TestCa::new("second CA").unwrap();
    let bundle = format!("{}{}", first.pem(), second.pem());
    let roots = RootCertificate::from_pem(bundle.as_bytes()).unwrap();
    assert_eq!(roots.len(), 2);
    let options = FetchOptions {
        extra_root_certificates: roots,
        ..test_options()
    };
    for ca in [&first, &second] {
        let server = serving(&ca.localhost().unwrap()).await;
        let outcome = fetch_with(options.clone(), &server.url("/robots.txt")).await;
        assert_eq!(
            outcome.verdict_class(),
            VerdictClass::Conditional,
            "{outcome:?}"
        );
    }
}

#[test]
fn a_ca_certificate_reads_back_as_the_same_root() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let roots = RootCertificate::from_pem(ca.pem().as_bytes()).unwrap();
    assert_eq!(roots.len(), 1);
    assert_eq!(roots[0].der(), ca.der());
    assert_eq!(RootCertificate::from_der(ca.der()).unwrap(), roots[0]);
}

#[test]
fn a_private_key_is_not_a_root() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let key = ca.localhost().unwrap().key_pem();
    let error = RootCertificate::from_pem(key.as_bytes()).unwrap_err();
    assert_eq!(error.to_string(), "holds a private key, not a certificate");
}

#[test]
fn a_certificate_next_to_its_key_is_read() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let identity = ca.localhost().unwrap();
    let pem = format!("{}{}", identity.key_pem(), ca.pem());
    assert_eq!(RootCertificate::from_pem(pem.as_bytes()).unwrap().len(), 1);
}

/// The fault injection of the HTTP server works the same behind TLS.
#[rstest]
#[case::server_error(Reply::status(503), "server-error")]
#[case::reset_mid_body(
    Reply::ResetAfter(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n".to_vec()),
    "connection-reset"
)]
#[case::truncated_body(
    Reply::Raw(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nUser-agent: *\n".to_vec()),
    "truncated-body"
)]
#[case::bad_chunking(
    Reply::Raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n".to_vec()),
    "bad-chunked-encoding"
)]
#[case::garbage(Reply::Raw(b"SSH-2.0-OpenSSH_9.6\r\n".to_vec()), "invalid-response")]
#[tokio::test]
async fn faults_behind_tls_are_unreachable_for_their_own_reason(
    #[case] reply: Reply,
    #[case] expected: &str,
) {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    server.route("/robots.txt", reply);
    let outcome = fetch_with(trusting(&ca), &server.url("/robots.txt")).await;
    assert_eq!(
        crate::support::kind(unreachable_reason(&outcome.access)),
        expected,
        "{outcome:?}"
    );
}

#[rstest]
#[case::not_found(Reply::status(404), VerdictClass::FullAllow)]
#[case::gzip(Reply::gzipped(ROBOTS.as_bytes()), VerdictClass::Conditional)]
#[tokio::test]
async fn statuses_behind_tls_map_as_over_http(#[case] reply: Reply, #[case] verdict: VerdictClass) {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    server.route("/robots.txt", reply);
    let outcome = fetch_with(trusting(&ca), &server.url("/robots.txt")).await;
    assert_eq!(outcome.verdict_class(), verdict, "{outcome:?}");
}

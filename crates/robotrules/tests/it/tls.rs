//! The async client over HTTPS, against real TLS servers on loopback (from
//! `robotrules-testserver`, with a CA generated for the run): a private root added through the
//! builder is trusted; a certificate that does not verify disallows everything (RFC 9309
//! §2.3.1.4); rules reached through a redirect between schemes govern the origin asked about
//! (§2.3.1.2).

// The client is behind the `fetch` feature (`cargo test -p robotrules --features fetch`; the
// workspace turns it on through the command line and the conformance runner).
#![cfg(feature = "fetch")]
#![cfg(feature = "fetch")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::time::Duration;

use robotrules::client::{Client, ClientBuilder, RootCertificate, VerdictClass};
use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::tls::TestCa;

const ROBOTS: &str = "User-agent: *\nDisallow: /private/\n";

/// Short deadlines, no proxy from the environment.
fn quick(builder: ClientBuilder) -> ClientBuilder {
    builder
        .connect_timeout(Duration::from_secs(1))
        .total_timeout(Duration::from_secs(2))
        .use_env_proxy(false)
}

/// A client that trusts `ca`, added after the fetch options (which must not drop it).
fn client_trusting(ca: &TestCa) -> Client {
    quick(Client::builder().crawler("ExampleBot"))
        .add_root_certificates(RootCertificate::from_pem(ca.pem().as_bytes()).unwrap())
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_private_root_from_the_builder_is_trusted() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    server.route("/robots.txt", Reply::ok(ROBOTS));
    let client = client_trusting(&ca);

    let denied = client.is_allowed(&server.url("/private/x")).await.unwrap();
    assert!(!denied.allowed, "{denied:?}");
    assert_eq!(denied.access, robotrules::client::AccessKind::Success);
    assert!(denied.decided_by().is_some());
    let allowed = client.is_allowed(&server.url("/public")).await.unwrap();
    assert!(allowed.allowed, "{allowed:?}");
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn without_the_root_every_url_is_disallowed() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let server = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    server.route("/robots.txt", Reply::ok("User-agent: *\nAllow: /\n"));
    let client = quick(Client::builder().crawler("ExampleBot"))
        .build()
        .unwrap();

    let decision = client.is_allowed(&server.url("/public")).await.unwrap();
    assert!(!decision.allowed, "{decision:?}");
    assert_eq!(decision.access, robotrules::client::AccessKind::Unreachable);
    assert_eq!(decision.verdict_class, VerdictClass::FullDisallow);
    let reason = client
        .lookup(&server.url("/"))
        .await
        .unwrap()
        .latest()
        .access_reason()
        .unwrap();
    assert!(reason.contains("unknown issuer"), "{reason}");
}

#[tokio::test]
async fn rules_reached_over_an_https_to_http_redirect_govern_the_https_origin() {
    let ca = TestCa::new("robotrules test CA").unwrap();
    let https = HttpServer::start_tls(&ca.localhost().unwrap()).await;
    let http = HttpServer::start().await;
    https.route(
        "/robots.txt",
        Reply::redirect(301, &http.url("/shared/robots.txt")),
    );
    http.route("/shared/robots.txt", Reply::ok(ROBOTS));
    let client = client_trusting(&ca);

    let decision = client.is_allowed(&https.url("/private/x")).await.unwrap();
    assert!(!decision.allowed, "{decision:?}");
    assert_eq!(&*decision.robots_txt_url, https.url("/robots.txt"));
    // The redirect target's own origin keeps its own robots.txt (none here: allow all).
    let other = client.is_allowed(&http.url("/private/x")).await.unwrap();
    assert!(other.allowed, "{other:?}");
    assert_eq!(other.access, robotrules::client::AccessKind::Unavailable);
    assert_eq!(&*other.robots_txt_url, http.url("/robots.txt"));
}

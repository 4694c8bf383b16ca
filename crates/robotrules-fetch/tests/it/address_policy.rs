//! `AddressPolicy::Public` against real loopback servers: loopback targets are refused at the
//! first request and at a redirect, by IP literal and by name (after DNS resolution), for
//! HTTP and FTP, and nothing reaches the refused server. The first hop of the redirect tests
//! is let through by the policy's `except` list (a socket address named by IP), so that the
//! redirect itself is what gets refused.

#![allow(clippy::unwrap_used)] // tests may unwrap

use crate::support::{fetcher, test_options, unreachable_reason};
use robotrules_fetch::{AddressPolicy, FetchOptions, Fetcher, UnreachableReason};
use robotrules_testserver::ftp::FtpServer;
use robotrules_testserver::http::{HttpServer, Reply};

const RULES: &str = "User-agent: *\nDisallow: /private\n";

fn guarded(except: Vec<std::net::SocketAddr>) -> FetchOptions {
    FetchOptions {
        address_policy: AddressPolicy::Public { except },
        ..test_options()
    }
}

/// The refusal's detail; any other access result fails the test.
fn refused(access: &robotrules_fetch::Access) -> &str {
    match unreachable_reason(access) {
        UnreachableReason::Refused { detail } => detail,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_loopback_address_is_refused_before_any_request() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok(RULES));
    let outcome = fetcher(guarded(Vec::new()))
        .fetch(&server.url("/robots.txt"))
        .await
        .unwrap();
    assert_eq!(
        refused(&outcome.access),
        "127.0.0.1 is a loopback address: only public addresses are fetched"
    );
    assert!(outcome.chain.is_empty());
    assert_eq!(server.hits("/robots.txt"), 0);
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok(RULES));
    let outcome = fetcher(guarded(Vec::new()))
        .fetch(&server.url_on("localhost", "/robots.txt"))
        .await
        .unwrap();
    let detail = refused(&outcome.access);
    assert!(
        detail.starts_with("localhost is ") && detail.contains("a loopback address"),
        "{detail}"
    );
    assert_eq!(server.hits("/robots.txt"), 0);
}

#[tokio::test]
async fn a_redirect_to_a_loopback_address_is_refused() {
    let first = HttpServer::start().await;
    let target = HttpServer::start().await;
    target.route("/robots.txt", Reply::ok(RULES));
    first.route(
        "/robots.txt",
        Reply::redirect(301, &target.url("/robots.txt")),
    );
    let outcome = fetcher(guarded(vec![first.addr()]))
        .fetch(&first.url("/robots.txt"))
        .await
        .unwrap();
    assert!(
        refused(&outcome.access).contains("a loopback address"),
        "{:?}",
        outcome.access
    );
    // The first hop was fetched (allowed by `except`); the redirect was not followed.
    assert_eq!(outcome.chain.len(), 1);
    assert_eq!(outcome.chain[0].status, 301);
    assert_eq!(first.hits("/robots.txt"), 1);
    assert_eq!(target.hits("/robots.txt"), 0);
}

#[tokio::test]
async fn a_redirect_to_a_name_that_resolves_to_loopback_is_refused() {
    let first = HttpServer::start().await;
    let target = HttpServer::start().await;
    target.route("/robots.txt", Reply::ok(RULES));
    first.route(
        "/robots.txt",
        Reply::redirect(302, &target.url_on("localhost", "/robots.txt")),
    );
    let outcome = fetcher(guarded(vec![first.addr()]))
        .fetch(&first.url("/robots.txt"))
        .await
        .unwrap();
    assert!(
        refused(&outcome.access).starts_with("localhost is "),
        "{:?}",
        outcome.access
    );
    assert_eq!(first.hits("/robots.txt"), 1);
    assert_eq!(target.hits("/robots.txt"), 0);
}

#[tokio::test]
async fn without_the_policy_the_same_redirect_is_followed() {
    let first = HttpServer::start().await;
    let target = HttpServer::start().await;
    target.route("/robots.txt", Reply::ok(RULES));
    first.route(
        "/robots.txt",
        Reply::redirect(301, &target.url("/robots.txt")),
    );
    let outcome = fetcher(test_options())
        .fetch(&first.url("/robots.txt"))
        .await
        .unwrap();
    assert_eq!(outcome.body().map(|b| &b[..]), Some(RULES.as_bytes()));
    assert_eq!(target.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn link_local_private_and_unspecified_literals_are_refused_without_connecting() {
    let fetcher = fetcher(guarded(Vec::new()));
    for (url, kind) in [
        (
            "http://169.254.169.254/latest/meta-data/",
            "a link-local address",
        ),
        ("http://10.0.0.1/", "a private address"),
        ("http://0.0.0.0/", "an unspecified address"),
        ("https://[::ffff:127.0.0.1]/", "a loopback address"),
        ("http://224.0.0.1/", "a multicast address"),
        ("ftp://192.168.0.1/", "a private address"),
    ] {
        let outcome = fetcher.fetch(url).await.unwrap();
        assert!(
            refused(&outcome.access).contains(kind),
            "{url}: {outcome:?}"
        );
    }
}

#[tokio::test]
async fn an_ftp_server_on_loopback_is_refused() {
    let server = FtpServer::anonymous().await;
    server.put_robots_txt(RULES.as_bytes());
    let url = server.url("/robots.txt");
    let outcome = fetcher(guarded(Vec::new())).fetch(&url).await.unwrap();
    assert!(refused(&outcome.access).contains("a loopback address"));
    let allowed = fetcher(test_options()).fetch(&url).await.unwrap();
    assert_eq!(allowed.body().map(|b| &b[..]), Some(RULES.as_bytes()));
}

#[test]
fn a_host_override_to_loopback_is_refused_when_the_fetcher_is_built() {
    let options = FetchOptions {
        resolve: vec![("example.com".into(), ([127, 0, 0, 1], 80).into())],
        ..guarded(Vec::new())
    };
    let error = Fetcher::new(options).expect_err("refused");
    assert!(error.to_string().contains("a loopback address"), "{error}");
}

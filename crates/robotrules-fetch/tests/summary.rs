//! The serialisable fetch summary behind `robotrules fetch --format json|text`, built from a
//! real fetch.

#![allow(clippy::unwrap_used)] // tests may unwrap

mod support;

use robotrules_fetch::cache::CachePolicy;
use robotrules_fetch::FetchSummary;
use robotrules_testserver::http::{HttpServer, Reply};
use support::fetch;

/// The summary (rfc9309 cache rules) of fetching the robots.txt of `server`, and its JSON.
async fn summarise(server: &HttpServer) -> (FetchSummary, serde_json::Value) {
    let outcome = fetch(&server.url("/")).await;
    let summary = FetchSummary::new(&outcome, &CachePolicy::rfc9309());
    let json = serde_json::to_value(&summary).unwrap();
    (summary, json)
}

#[tokio::test]
async fn a_redirected_success_is_summarised() {
    let server = HttpServer::start().await;
    server
        .route("/robots.txt", Reply::redirect(301, "/real.txt"))
        .route(
            "/real.txt",
            Reply::ok("User-agent: *\nDisallow: /x\n").header("Cache-Control", "max-age=300"),
        );
    let (summary, json) = summarise(&server).await;
    assert_eq!(json["access"], "success");
    assert_eq!(json["verdict"], "conditional");
    assert_eq!(json["bytes_read"], 27);
    assert_eq!(json["cache_lifetime_secs"], 300);
    assert_eq!(json["content_type"], "text/plain");
    assert_eq!(json["chain"][0]["status"], 301);
    assert_eq!(json["chain"][1]["url"], server.url("/real.txt"));
    assert!(json["reason"].is_null());
    assert!(json["truncation"].is_null());
    let text = summary.to_string();
    assert!(text.contains(&format!("request: 301 {}", server.url("/robots.txt"))));
    assert!(text.contains("verdict: conditional"));
    assert!(text.contains("cache lifetime: 300 s"));
}

#[tokio::test]
async fn an_outage_is_summarised_with_its_reason_and_retry_after() {
    let server = HttpServer::start().await;
    server.route(
        "/robots.txt",
        Reply::status(503).header("Retry-After", "900"),
    );
    let (_, json) = summarise(&server).await;
    assert_eq!(json["access"], "unreachable");
    assert_eq!(json["verdict"], "full_disallow");
    assert_eq!(json["reason"], "HTTP status 503");
    assert_eq!(json["retry_after_secs"], 900);
    assert_eq!(json["cache_lifetime_secs"], 900);
    assert_eq!(json["bytes_read"], 0);
}

#[tokio::test]
async fn a_truncated_body_is_summarised() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok(b"Disallow: /a\n".repeat(50_000)));
    let (summary, json) = summarise(&server).await;
    assert_eq!(json["truncation"]["limit"], 512_000);
    assert_eq!(json["bytes_read"], 511_992);
    assert!(summary.to_string().contains("truncated: at 512000 bytes"));
}

//! HTTP fetching against a real loopback server with fault injection (RFC 9309 §2.3.1,
//! §2.5). Deadlines are shortened through the options so the whole file runs in seconds.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::time::{Duration, Instant};

use crate::support::{
    closed_port, fetch, fetcher, kind, test_options, unavailable_reason, unreachable_reason,
};
use robotrules_fetch::status::TooManyRequests;
use robotrules_fetch::{
    Access, FetchError, TimeoutPhase, UnavailableReason, UnreachableReason, VerdictClass,
};
use robotrules_testserver::http::{HttpServer, Reply};
use rstest::rstest;

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";

#[rstest]
#[case::ok(200, VerdictClass::Conditional)]
#[case::no_content(204, VerdictClass::Conditional)]
#[case::partial_content(206, VerdictClass::Conditional)]
#[case::bad_request(400, VerdictClass::FullAllow)]
#[case::unauthorized(401, VerdictClass::FullAllow)]
#[case::forbidden(403, VerdictClass::FullAllow)]
#[case::not_found(404, VerdictClass::FullAllow)]
#[case::gone(410, VerdictClass::FullAllow)]
#[case::unavailable_for_legal_reasons(451, VerdictClass::FullAllow)]
#[case::too_many_requests(429, VerdictClass::FullDisallow)]
#[case::internal_server_error(500, VerdictClass::FullDisallow)]
#[case::bad_gateway(502, VerdictClass::FullDisallow)]
#[case::service_unavailable(503, VerdictClass::FullDisallow)]
#[case::gateway_timeout(504, VerdictClass::FullDisallow)]
#[case::not_modified(304, VerdictClass::FullAllow)]
#[case::multiple_choices(300, VerdictClass::FullAllow)]
#[case::beyond_599(600, VerdictClass::FullDisallow)]
#[tokio::test]
async fn each_status_class_maps_to_its_access_result(
    #[case] status: u16,
    #[case] verdict: VerdictClass,
) {
    let server = HttpServer::start().await;
    // A 204 has no body by definition (RFC 9110 §15.3.5).
    let body = if status / 100 == 2 && status != 204 {
        ROBOTS
    } else {
        ""
    };
    server.route(
        "/robots.txt",
        Reply::Response {
            status,
            headers: vec![],
            body: body.into(),
        },
    );
    let outcome = fetch(&server.url("/any/page?q=1")).await;
    assert_eq!(outcome.verdict_class(), verdict, "{outcome:?}");
    assert_eq!(outcome.final_status(), Some(status));
    assert_eq!(outcome.robots_txt_url, server.url("/robots.txt"));
    match &outcome.access {
        Access::Success { body: got, .. } => assert_eq!(&got[..], body.as_bytes()),
        Access::Unavailable { reason } if status / 100 == 4 => {
            assert_eq!(reason, &UnavailableReason::ClientError { status });
        }
        Access::Unavailable { reason } => {
            assert_eq!(reason, &UnavailableReason::UnexpectedStatus { status });
        }
        Access::Unreachable { reason } => {
            assert_eq!(reason, &UnreachableReason::ServerError { status });
        }
    }
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn status_429_can_be_read_as_unavailable() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::status(429));
    let options = robotrules_fetch::FetchOptions {
        too_many_requests: TooManyRequests::Unavailable,
        ..test_options()
    };
    let outcome = fetcher(options).fetch(&server.url("/")).await.unwrap();
    assert_eq!(
        unavailable_reason(&outcome.access),
        &UnavailableReason::ClientError { status: 429 }
    );
}

#[rstest]
#[case(301)]
#[case(302)]
#[case(303)]
#[case(307)]
#[case(308)]
#[tokio::test]
async fn redirects_are_followed_and_recorded(#[case] status: u16) {
    let server = HttpServer::start().await;
    server
        .route("/robots.txt", Reply::redirect(status, "/moved/robots.txt"))
        .route("/moved/robots.txt", Reply::ok(ROBOTS));
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(
        outcome.access.body().map(|b| &b[..]),
        Some(ROBOTS.as_bytes())
    );
    let chain: Vec<_> = outcome
        .chain
        .iter()
        .map(|hop| (hop.url.clone(), hop.status))
        .collect();
    assert_eq!(
        chain,
        vec![
            (server.url("/robots.txt"), status),
            (server.url("/moved/robots.txt"), 200)
        ]
    );
    // The rules still belong to the original authority (RFC 9309 §2.3.1.2).
    assert_eq!(outcome.robots_txt_url, server.url("/robots.txt"));
    assert_eq!(outcome.final_url(), server.url("/moved/robots.txt"));
}

/// A chain `/robots.txt -> /r1 -> … -> /r{hops}` ending in a 200.
fn redirect_chain(server: &HttpServer, hops: usize) {
    let mut from = "/robots.txt".to_owned();
    for hop in 1..=hops {
        let to = format!("/r{hop}");
        server.route(&from, Reply::redirect(301, &to));
        from = to;
    }
    server.route(&from, Reply::ok(ROBOTS));
}

#[tokio::test]
async fn five_redirects_are_followed() {
    let server = HttpServer::start().await;
    redirect_chain(&server, 5);
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(outcome.verdict_class(), VerdictClass::Conditional);
    assert_eq!(outcome.chain.len(), 6);
    assert_eq!(outcome.final_url(), server.url("/r5"));
}

#[tokio::test]
async fn six_redirects_make_the_file_unavailable() {
    let server = HttpServer::start().await;
    redirect_chain(&server, 6);
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(
        unavailable_reason(&outcome.access),
        &UnavailableReason::TooManyRedirects { limit: 5 }
    );
    assert_eq!(outcome.chain.len(), 6);
    assert_eq!(server.hits("/r6"), 0, "the sixth redirect is not followed");
}

#[rstest]
#[case(0, 1, false)]
#[case(1, 1, true)]
#[case(2, 3, false)]
#[case(8, 8, true)]
#[tokio::test]
async fn the_redirect_limit_is_configurable(
    #[case] limit: usize,
    #[case] hops: usize,
    #[case] reached: bool,
) {
    let server = HttpServer::start().await;
    redirect_chain(&server, hops);
    let options = robotrules_fetch::FetchOptions {
        max_redirects: limit,
        ..test_options()
    };
    let outcome = fetcher(options).fetch(&server.url("/")).await.unwrap();
    assert_eq!(
        outcome.verdict_class() == VerdictClass::Conditional,
        reached,
        "{outcome:?}"
    );
}

#[tokio::test]
async fn a_redirect_loop_makes_the_file_unavailable() {
    let server = HttpServer::start().await;
    server
        .route("/robots.txt", Reply::redirect(302, "/a"))
        .route("/a", Reply::redirect(302, "/b"))
        .route("/b", Reply::redirect(302, "/robots.txt"));
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(
        unavailable_reason(&outcome.access),
        &UnavailableReason::RedirectLoop {
            url: server.url("/robots.txt")
        }
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn a_cross_host_redirect_is_followed_and_the_rules_stay_with_the_first_host() {
    let first = HttpServer::start().await;
    let second = HttpServer::start().await;
    first.route(
        "/robots.txt",
        Reply::redirect(301, &second.url_on("cdn.test", "/robots.txt")),
    );
    second.route("/robots.txt", Reply::ok(ROBOTS));
    let options = robotrules_fetch::FetchOptions {
        resolve: vec![
            ("www.test".into(), first.addr()),
            ("CDN.test".into(), second.addr()),
        ],
        ..test_options()
    };
    let outcome = fetcher(options)
        .fetch(&first.url_on("www.test", "/page"))
        .await
        .unwrap();
    assert_eq!(
        outcome.access.body().map(|b| &b[..]),
        Some(ROBOTS.as_bytes())
    );
    assert_eq!(
        outcome.robots_txt_url,
        first.url_on("www.test", "/robots.txt")
    );
    assert_eq!(
        outcome.final_url(),
        second.url_on("cdn.test", "/robots.txt")
    );
    let host = second.requests()[0].header("host").map(str::to_owned);
    assert_eq!(host, Some(format!("cdn.test:{}", second.port())));
}

#[rstest]
#[case::no_location(Reply::status(302), "no Location header")]
#[case::ftp_location(
    Reply::redirect(301, "ftp://example.com/robots.txt"),
    "not http or https"
)]
#[case::mailto_location(
    Reply::redirect(301, "mailto:someone@example.com"),
    "not http or https"
)]
#[case::unparsable_location(Reply::redirect(301, "http://[::1"), "Location")]
#[tokio::test]
async fn an_unusable_redirect_makes_the_file_unavailable(
    #[case] reply: Reply,
    #[case] expected: &str,
) {
    let server = HttpServer::start().await;
    server.route("/robots.txt", reply);
    let outcome = fetch(&server.url("/")).await;
    match unavailable_reason(&outcome.access) {
        UnavailableReason::BadRedirect { detail, .. } => {
            assert!(detail.contains(expected), "{detail}")
        }
        other => panic!("expected a bad redirect, got {other:?}"),
    }
}

#[tokio::test]
async fn the_user_agent_and_accept_encoding_are_sent_and_the_get_is_unconditional() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok(ROBOTS));
    fetch(&server.url("/")).await;
    let request = &server.requests()[0];
    assert_eq!(request.method, "GET");
    assert_eq!(request.header("user-agent"), Some("RobotrulesTestBot/1.0"));
    let encodings = request.header("accept-encoding").unwrap_or_default();
    for encoding in ["gzip", "br", "deflate"] {
        assert!(encodings.contains(encoding), "{encodings}");
    }
    assert_eq!(request.header("if-modified-since"), None);
    assert_eq!(request.header("if-none-match"), None);
}

#[tokio::test]
async fn retry_after_on_503_is_recorded() {
    let server = HttpServer::start().await;
    server.route(
        "/robots.txt",
        Reply::status(503).header("Retry-After", "120"),
    );
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(outcome.verdict_class(), VerdictClass::FullDisallow);
    assert_eq!(outcome.retry_after, Some(Duration::from_secs(120)));
    assert_eq!(outcome.headers.retry_after.as_deref(), Some("120"));
}

#[tokio::test]
async fn caching_headers_of_the_final_response_are_recorded() {
    let server = HttpServer::start().await;
    server
        .route(
            "/robots.txt",
            Reply::redirect(301, "/final").header("Cache-Control", "max-age=1"),
        )
        .route(
            "/final",
            Reply::ok(ROBOTS)
                .header("Cache-Control", "max-age=600")
                .header("Cache-Control", "public")
                .header("Expires", "Thu, 01 Jan 2037 00:00:00 GMT")
                .header("Age", "5"),
        );
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(
        outcome.headers.cache_control.as_deref(),
        Some("max-age=600, public")
    );
    assert_eq!(
        outcome.headers.expires.as_deref(),
        Some("Thu, 01 Jan 2037 00:00:00 GMT")
    );
    assert_eq!(outcome.headers.age.as_deref(), Some("5"));
}

#[tokio::test]
async fn an_html_body_is_a_success_with_its_content_type_recorded() {
    let server = HttpServer::start().await;
    let html = "<html><body>\nUser-agent: *\nDisallow: /x\n</body></html>\n";
    server.route(
        "/robots.txt",
        Reply::ok(html)
            .without_headers()
            .header("Content-Type", "text/html; charset=utf-8"),
    );
    let outcome = fetch(&server.url("/")).await;
    match &outcome.access {
        Access::Success {
            body,
            content_type,
            truncation,
        } => {
            assert_eq!(&body[..], html.as_bytes());
            assert_eq!(content_type.as_deref(), Some("text/html; charset=utf-8"));
            assert_eq!(*truncation, None);
        }
        other => panic!("expected success, got {other:?}"),
    }
}

#[tokio::test]
async fn a_body_exactly_at_the_limit_is_not_truncated() {
    let server = HttpServer::start().await;
    let line = b"Disallow: /abcdefghijklmnopqrstuvwxyz0123456789\n";
    let limit = line.len() * 1000;
    server.route("/robots.txt", Reply::ok(line.repeat(1000)));
    let options = robotrules_fetch::FetchOptions {
        body_limit: limit,
        ..test_options()
    };
    let outcome = fetcher(options).fetch(&server.url("/")).await.unwrap();
    match &outcome.access {
        Access::Success {
            body, truncation, ..
        } => {
            assert_eq!(body.len(), limit);
            assert_eq!(*truncation, None);
        }
        other => panic!("expected success, got {other:?}"),
    }
}

#[tokio::test]
async fn a_100_mb_body_is_cut_at_the_limit_without_being_read() {
    let server = HttpServer::start().await;
    let line = b"Disallow: /a-fairly-long-path-to-fill-the-body\n".to_vec();
    let total = 100 * 1024 * 1024;
    server.route(
        "/robots.txt",
        Reply::Endless {
            line: line.clone(),
            total,
        },
    );
    let outcome = fetch(&server.url("/")).await;
    let Access::Success {
        body, truncation, ..
    } = &outcome.access
    else {
        panic!("expected success, got {:?}", outcome.access);
    };
    let truncation = truncation.expect("the body is cut");
    assert_eq!(truncation.limit, 512_000);
    assert!(body.len() <= 512_000 && body.len() > 512_000 - line.len());
    assert!(body.ends_with(b"\n"));
    assert_eq!(body.len() % line.len(), 0, "cut at a line boundary");
    // Once the server has noticed the closed connection, it cannot have pushed more than
    // the socket buffers hold.
    assert!(server.stream_finished(Duration::from_secs(5)).await);
    let streamed = server.streamed();
    assert!(
        streamed < 32 * 1024 * 1024,
        "the server managed to send {streamed} bytes"
    );
}

#[tokio::test]
async fn a_gzip_bomb_is_stopped_at_the_limit_of_decompressed_bytes() {
    let server = HttpServer::start().await;
    let line = b"Allow: /\n".to_vec();
    server.route(
        "/robots.txt",
        Reply::GzipBomb {
            line,
            total: 100 * 1024 * 1024,
        },
    );
    let outcome = fetch(&server.url("/")).await;
    let Access::Success {
        body, truncation, ..
    } = &outcome.access
    else {
        panic!("expected success, got {:?}", outcome.access);
    };
    let truncation = truncation.expect("the body is cut");
    assert_eq!(truncation.limit, 512_000);
    // Reading stops at the first decompressed byte past the limit, far short of 100 MB.
    assert!(truncation.ignored_bytes < 1024 * 1024, "{truncation:?}");
    assert!(body.len() <= 512_000 && body.len() > 512_000 - 9);
    assert!(body.ends_with(b"Allow: /\n"));
}

#[test]
fn the_gzip_bomb_is_valid_gzip() {
    use std::io::Read;
    let line = b"Allow: /\n";
    let bomb = robotrules_testserver::http::gzip_bomb(line, 5 * 1024 * 1024);
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&bomb[..])
        .read_to_end(&mut decoded)
        .unwrap();
    assert!(decoded.len() > 5_000_000 && decoded.len() <= 5 * 1024 * 1024);
    assert_eq!(decoded, line.repeat(decoded.len() / line.len()));
    // 100 MB compresses to well under a megabyte.
    assert!(robotrules_testserver::http::gzip_bomb(line, 100 * 1024 * 1024).len() < 1024 * 1024);
}

/// Answers that break off or are not HTTP: the file is unreachable (RFC 9309 §2.3.1.4), for
/// the reason named.
#[rstest]
#[case::a_corrupt_gzip_body(
    Reply::ok("this is not gzip at all").header("Content-Encoding", "gzip"),
    "decompression"
)]
#[case::a_connection_reset_mid_body(
    Reply::ResetAfter(
        b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\nUser-agent: *\nDisallow: /".to_vec()
    ),
    "connection-reset"
)]
#[case::a_body_shorter_than_its_content_length(
    Reply::Raw(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n".to_vec()),
    "truncated-body"
)]
#[case::chunked_cut_off_after_a_chunk(
    Reply::Raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nE\r\nUser-agent: *\n\r\n20\r\nDisallow".to_vec()),
    "bad-chunked-encoding"
)]
#[case::chunked_no_final_chunk(
    Reply::Raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nE\r\nUser-agent: *\n\r\n".to_vec()),
    "bad-chunked-encoding"
)]
#[case::chunked_bad_chunk_size(
    Reply::Raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nUser-agent: *\n\r\n0\r\n\r\n".to_vec()),
    "bad-chunked-encoding"
)]
#[case::garbage_binary(
    Reply::Raw(b"\x00\x01\x02\xff\xfe garbage \r\n\r\n".to_vec()),
    "invalid-response"
)]
#[case::garbage_ssh_banner(Reply::Raw(b"SSH-2.0-OpenSSH_9.6\r\n".to_vec()), "invalid-response")]
#[case::garbage_bad_status_line(Reply::Raw(b"HTTP/1.1 OK GOOD\r\n\r\n".to_vec()), "invalid-response")]
#[case::a_connection_closed_without_an_answer(Reply::CloseWithoutAnswer, "connection-reset")]
#[tokio::test]
async fn a_broken_answer_is_unreachable(#[case] reply: Reply, #[case] reason: &str) {
    let server = HttpServer::start().await;
    server.route("/robots.txt", reply);
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(
        kind(unreachable_reason(&outcome.access)),
        reason,
        "{outcome:?}"
    );
}

#[tokio::test]
async fn a_body_that_stalls_past_the_deadline_is_unreachable() {
    let server = HttpServer::start().await;
    server.route(
        "/robots.txt",
        Reply::StallAfter(
            b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n".to_vec(),
        ),
    );
    let options = robotrules_fetch::FetchOptions {
        total_timeout: Duration::from_millis(800),
        ..test_options()
    };
    let started = Instant::now();
    let outcome = fetcher(options).fetch(&server.url("/")).await.unwrap();
    assert_eq!(
        unreachable_reason(&outcome.access),
        &UnreachableReason::Timeout {
            phase: TimeoutPhase::Total,
            after: Duration::from_millis(800)
        }
    );
    assert_eq!(
        outcome.final_status(),
        Some(200),
        "the chain survives the timeout"
    );
    assert!(started.elapsed() < Duration::from_millis(1800));
}

#[tokio::test]
async fn a_server_that_never_answers_is_unreachable_within_the_deadline() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::Silent);
    let options = robotrules_fetch::FetchOptions {
        total_timeout: Duration::from_millis(600),
        ..test_options()
    };
    let started = Instant::now();
    let outcome = fetcher(options).fetch(&server.url("/")).await.unwrap();
    assert!(matches!(
        unreachable_reason(&outcome.access),
        UnreachableReason::Timeout {
            phase: TimeoutPhase::Total,
            ..
        }
    ));
    assert!(outcome.chain.is_empty());
    assert!(started.elapsed() < Duration::from_millis(1600));
}

/// The body is what the response's framing delimits, no more.
#[rstest]
#[case::bytes_past_a_short_content_length_are_not_read(
    b"HTTP/1.1 200 OK\r\nContent-Length: 14\r\n\r\nUser-agent: *\nDisallow: /\n",
    b"User-agent: *\n"
)]
#[case::well_formed_chunked_encoding_is_read(
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nE\r\nUser-agent: *\n\r\nC\r\nDisallow: /\n\r\n0\r\n\r\n",
    b"User-agent: *\nDisallow: /\n"
)]
#[tokio::test]
async fn the_body_ends_where_its_framing_says(#[case] raw: &[u8], #[case] body: &[u8]) {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::Raw(raw.to_vec()));
    let outcome = fetch(&server.url("/")).await;
    assert_eq!(outcome.access.body().map(|b| &b[..]), Some(body));
}

#[tokio::test]
async fn a_refused_connection_is_unreachable() {
    let outcome = fetch(&format!("http://{}/", closed_port())).await;
    assert!(
        matches!(
            unreachable_reason(&outcome.access),
            UnreachableReason::ConnectionRefused { .. }
        ),
        "{outcome:?}"
    );
}

/// Network failures read as short typed reasons; the library's error chain stays available.
#[tokio::test]
async fn network_failures_are_short_reasons_with_the_chain_kept() {
    let refused = fetch(&format!("http://{}/", closed_port())).await;
    let reason = unreachable_reason(&refused.access);
    assert_eq!(reason.to_string(), "connection refused");
    assert_eq!(
        refused.access.reason().as_deref(),
        Some("connection refused")
    );
    assert!(
        reason.chain().is_some_and(|chain| chain
            .to_ascii_lowercase()
            .contains("connection refused")
            && chain.contains("127.0.0.1")),
        "{reason:?}"
    );
    let json = serde_json::to_value(&refused.access).unwrap();
    assert_eq!(json["reason"]["kind"], "connection-refused", "{json}");

    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::Silent);
    let options = robotrules_fetch::FetchOptions {
        total_timeout: Duration::from_millis(500),
        ..test_options()
    };
    let outcome = fetcher(options).fetch(&server.url("/")).await.unwrap();
    assert_eq!(
        unreachable_reason(&outcome.access).to_string(),
        "timed out after 0.5 s"
    );
    let reason = UnreachableReason::Timeout {
        phase: TimeoutPhase::Total,
        after: Duration::from_secs(3),
    };
    assert_eq!(reason.to_string(), "timed out after 3 s");

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let plain = tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let (mut stream, _) = listener.accept().await.unwrap();
        let _ = stream
            .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            .await;
        let _ = stream.shutdown().await;
    });
    let outcome = fetch(&format!("https://{addr}/")).await;
    plain.abort();
    assert_eq!(
        unreachable_reason(&outcome.access).to_string(),
        "TLS: the server does not speak TLS",
        "{outcome:?}"
    );

    let dns = UnreachableReason::Dns {
        detail: "dns error: failed to lookup address information".to_owned(),
    };
    assert_eq!(dns.to_string(), "no such host (DNS)");
    let route = UnreachableReason::Connect {
        reason: "no route to host".to_owned(),
        detail: "client error (Connect): tcp connect error: No route to host (os error 113)"
            .to_owned(),
    };
    assert_eq!(route.to_string(), "connection failed (no route to host)");
}

#[tokio::test]
async fn https_to_a_server_that_does_not_speak_tls_is_unreachable() {
    // A plain HTTP server answers a TLS ClientHello with an HTTP error, as nginx does.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let (mut stream, _) = listener.accept().await.unwrap();
        let _ = stream
            .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            .await;
        let _ = stream.shutdown().await;
    });
    let outcome = fetch(&format!("https://{addr}/")).await;
    server.abort();
    assert!(
        matches!(
            unreachable_reason(&outcome.access),
            UnreachableReason::Tls { .. }
        ),
        "{outcome:?}"
    );
}

#[rstest]
#[case::no_host("http://")]
#[case::empty_host_with_port("http://:8080/")]
#[case::relative("/robots.txt")]
#[case::mailto("mailto:someone@example.com")]
#[case::bad_idn("http://xn--a.example/")]
#[case::bad_port("http://example.com:99999/")]
#[tokio::test]
async fn urls_that_cannot_have_a_robots_txt_are_errors(#[case] url: &str) {
    let result = fetcher(test_options()).fetch(url).await;
    assert!(matches!(result, Err(FetchError::Url(_))), "{result:?}");
}

#[rstest]
#[case("ws://example.com/", "ws")]
#[case("file://host/etc/passwd", "file")]
#[case("gopher://example.com/", "gopher")]
#[case::long(&format!("{}://example.com/", "x".repeat(100)), &format!("{}…", "x".repeat(64)))]
#[tokio::test]
async fn unsupported_schemes_are_errors(#[case] url: &str, #[case] scheme: &str) {
    let result = fetcher(test_options()).fetch(url).await;
    match result {
        Err(FetchError::UnsupportedScheme(got)) => assert_eq!(got, scheme),
        other => panic!("expected an unsupported scheme, got {other:?}"),
    }
}

#[tokio::test]
async fn an_invalid_user_agent_is_a_client_error() {
    let options = robotrules_fetch::FetchOptions {
        user_agent: "Bad\nAgent".into(),
        ..test_options()
    };
    let result = robotrules_fetch::Fetcher::new(options);
    assert!(matches!(result, Err(FetchError::Client(_))), "{result:?}");
}

//! The HTTP test server's routing: per-host routes win over path routes, unrouted paths
//! answer 404, and requests are counted per host and path.

#![allow(clippy::unwrap_used)] // tests may unwrap

use robotrules_testserver::http::{HttpServer, Reply};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends `GET path` with `Host: host` and returns the status code and the body.
async fn get(server: &HttpServer, host: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap();
    (status, body)
}

#[tokio::test]
async fn host_routes_win_and_requests_are_counted_per_host() {
    let server = HttpServer::start().await;
    server.route("/robots.txt", Reply::ok("any host")).route_on(
        "a.test",
        "/robots.txt",
        Reply::ok("host a"),
    );
    let port = server.port();
    assert_eq!(
        get(&server, &format!("A.test:{port}"), "/robots.txt").await,
        (200, "host a".to_owned())
    );
    assert_eq!(
        get(&server, "b.test", "/robots.txt").await,
        (200, "any host".to_owned())
    );
    assert_eq!(get(&server, "a.test", "/missing").await.0, 404);
    assert_eq!(server.hits("/robots.txt"), 2);
    assert_eq!(server.hits_on("a.test", "/robots.txt"), 1);
    assert_eq!(server.hits_on("b.test", "/robots.txt"), 1);
    assert_eq!(server.requests()[0].host(), "A.test");
}

#[tokio::test]
async fn an_ipv6_host_header_keeps_its_brackets() {
    let server = HttpServer::start().await;
    get(&server, "[::1]:8080", "/").await;
    get(&server, "[::1]", "/").await;
    let hosts: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.host().to_owned())
        .collect();
    assert_eq!(hosts, ["[::1]", "[::1]"]);
}

#[tokio::test]
async fn a_gzipped_reply_announces_its_encoding() {
    let Reply::Response { headers, body, .. } = Reply::gzipped(b"User-agent: *\n") else {
        panic!("a response");
    };
    assert!(headers
        .iter()
        .any(|(name, value)| name == "Content-Encoding" && value == "gzip"));
    assert_eq!(&body[..2], &[0x1f, 0x8b]);
}

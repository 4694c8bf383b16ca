//! FTP fetching against a real in-process FTP server (libunftp) on loopback: anonymous login,
//! passive mode, `RETR /robots.txt`.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::time::{Duration, Instant};

use crate::support::{
    closed_port, fetch, fetcher, test_options, unavailable_reason, unreachable_reason,
};
use robotrules_fetch::{
    Access, FetchOptions, TimeoutPhase, UnavailableReason, UnreachableReason, VerdictClass,
};
use robotrules_testserver::ftp::{FtpServer, SilentListener};

#[tokio::test]
async fn robots_txt_is_retrieved_with_an_anonymous_login() {
    let server = FtpServer::anonymous().await;
    let robots = b"User-agent: *\r\nDisallow: /pub/private/\r\n";
    server.put_robots_txt(robots);
    let outcome = fetch(&server.url("/pub/file.tar.gz")).await;
    assert_eq!(
        outcome.verdict_class(),
        VerdictClass::Conditional,
        "{outcome:?}"
    );
    assert_eq!(outcome.body().map(|b| &b[..]), Some(&robots[..]));
    assert_eq!(outcome.robots_txt_url, server.url("/robots.txt"));
    assert_eq!(outcome.final_status(), Some(226));
}

#[tokio::test]
async fn a_missing_file_is_unavailable() {
    let server = FtpServer::anonymous().await;
    let outcome = fetch(&server.url("/")).await;
    match unavailable_reason(&outcome.access) {
        UnavailableReason::FileNotFound { code, .. } => assert_eq!(*code, 550),
        other => panic!("expected file not found, got {other:?}"),
    }
    assert_eq!(outcome.final_status(), Some(550));
}

#[tokio::test]
async fn a_refused_login_is_unreachable() {
    let server = FtpServer::refusing_logins().await;
    server.put_robots_txt(b"User-agent: *\nDisallow:\n");
    let outcome = fetch(&server.url("/")).await;
    match unreachable_reason(&outcome.access) {
        UnreachableReason::FtpLoginRefused { code, .. } => assert_eq!(*code, 530),
        other => panic!("expected a refused login, got {other:?}"),
    }
}

#[tokio::test]
async fn a_large_file_is_cut_at_the_limit() {
    let server = FtpServer::anonymous().await;
    let line = b"Disallow: /some/path/that/repeats\n";
    server.put_robots_txt(&line.repeat(40_000));
    let outcome = fetch(&server.url("/")).await;
    match &outcome.access {
        Access::Success {
            body, truncation, ..
        } => {
            let truncation = truncation.expect("cut");
            assert_eq!(truncation.limit, 512_000);
            assert!(body.len() <= 512_000);
            assert_eq!(body.len() % line.len(), 0);
        }
        other => panic!("expected success, got {other:?}"),
    }
    assert_eq!(outcome.final_status(), Some(150));
}

#[tokio::test]
async fn a_refused_connection_is_unreachable() {
    let outcome = fetch(&format!("ftp://{}/", closed_port())).await;
    assert!(
        matches!(
            unreachable_reason(&outcome.access),
            UnreachableReason::ConnectionRefused { .. }
        ),
        "{outcome:?}"
    );
    assert_eq!(
        outcome.access.reason().as_deref(),
        Some("connection refused")
    );
}

#[tokio::test]
async fn a_server_that_never_greets_is_unreachable_within_the_deadline() {
    let silent = SilentListener::start().await;
    let options = FetchOptions {
        total_timeout: Duration::from_millis(600),
        ..test_options()
    };
    let started = Instant::now();
    let outcome = fetcher(options)
        .fetch(&format!("ftp://{}/", silent.addr()))
        .await
        .unwrap();
    assert_eq!(
        outcome.access,
        Access::Unreachable {
            reason: UnreachableReason::Timeout {
                phase: TimeoutPhase::Total,
                after: Duration::from_millis(600)
            }
        }
    );
    assert!(started.elapsed() < Duration::from_millis(1600));
}

#[tokio::test]
async fn host_overrides_apply_to_ftp_too() {
    let server = FtpServer::anonymous().await;
    server.put_robots_txt(b"User-agent: *\nAllow: /\n");
    let port = server
        .url("")
        .rsplit(':')
        .next()
        .unwrap()
        .parse::<u16>()
        .unwrap();
    let options = FetchOptions {
        resolve: vec![("ftp.example.test".into(), ([127, 0, 0, 1], 0).into())],
        ..test_options()
    };
    let outcome = fetcher(options)
        .fetch(&format!("ftp://ftp.example.test:{port}/"))
        .await
        .unwrap();
    assert_eq!(
        outcome.verdict_class(),
        VerdictClass::Conditional,
        "{outcome:?}"
    );
}

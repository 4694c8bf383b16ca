//! Real servers on 127.0.0.1 for robotrules' fetch tests and conformance runs (never mocks of
//! the client):
//!
//! - [`http::HttpServer`]: an HTTP/1.1 server on a raw tokio listener with fault injection
//!   ([`http::Reply`]: any status, redirects, garbage, resets, stalls, broken chunking, lying
//!   lengths, endless bodies, gzip bombs, late answers, silence), counting requests per path;
//! - [`ftp::FtpServer`]: libunftp in process over a temporary directory (anonymous logins,
//!   or every login refused), and [`ftp::SilentListener`], which never greets;
//! - [`tls`]: HTTPS: a certificate authority generated at run time (rcgen), the HTTP server
//!   behind rustls (valid, expired, wrong-host and unknown-CA certificates, a 1 MB chain, on
//!   127.0.0.1 or `[::1]`), and [`tls::BrokenTlsListener`], which spoils the handshake (an
//!   alert, a stall, a plain HTTP answer);
//! - [`redis::RedisServer`]: a real `redis-server` child process on a free loopback port
//!   (killed, restarted, given a `maxmemory`), for the fleet cache's tests;
//! - [`Background`]: a tokio runtime that keeps those servers running for synchronous code
//!   (tests of the command-line tool, the conformance runner).
//!
//! The servers stop when dropped. Failing to start one (no loopback port, no temporary
//! directory) is a broken test environment: the `start` functions panic with the reason, the
//! `try_start` functions return it.

pub mod ftp;
pub mod http;
mod loopback;
pub mod redis;
pub mod tls;

use std::future::Future;
use std::io;

/// A multi-threaded tokio runtime whose workers run the servers started through it while the
/// caller does blocking work (runs a process, fetches with its own runtime).
///
/// ```no_run
/// use robotrules_testserver::{http::Reply, Background};
///
/// let background = Background::new()?;
/// let server = background.http()?;
/// server.route("/robots.txt", Reply::ok("User-agent: *\nDisallow: /\n"));
/// // … run something against server.url("/robots.txt") …
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Background {
    runtime: tokio::runtime::Runtime,
}

impl Background {
    /// A runtime with one worker thread (plenty for loopback servers).
    pub fn new() -> io::Result<Self> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("robotrules-testserver")
            .enable_all()
            .build()?;
        Ok(Self { runtime })
    }

    /// Starts an [`http::HttpServer`] on this runtime.
    pub fn http(&self) -> io::Result<http::HttpServer> {
        self.runtime.block_on(http::HttpServer::try_start())
    }

    /// Starts an HTTPS [`http::HttpServer`] presenting `identity` on this runtime.
    pub fn https(&self, identity: &tls::Identity) -> io::Result<http::HttpServer> {
        self.runtime
            .block_on(http::HttpServer::try_start_tls(identity))
    }

    /// Starts an [`ftp::FtpServer`] on this runtime (`refuse_logins`: refuse every login).
    pub fn ftp(&self, refuse_logins: bool) -> io::Result<ftp::FtpServer> {
        self.runtime
            .block_on(ftp::FtpServer::try_start(refuse_logins))
    }

    /// Runs `future` to completion on this runtime.
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }
}

/// A loopback port nothing listens on now (bound, then released): for a server started
/// later on it, or for a connection that must be refused.
pub fn free_port() -> io::Result<u16> {
    let listener = std::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?.port())
}

//! `robotrules serve [--listen ADDR] [--allow-private-fetch]`: a robots.txt tester in the
//! browser. One page ([`assets`]: HTML, CSS and plain JS embedded in the binary) and the JSON
//! API it uses ([`api`]: `/api/check`, `/api/explain`, `/api/lint`, `/api/show`, `/api/diff`,
//! `/api/fetch`), which answer with the commands' own explanations, lint findings, diff and
//! messages (see `docs/serve.md`).
//!
//! Safe to put on a network: it binds 127.0.0.1 by default; [`limits`] caps request bodies
//! (1 MiB), URLs per request (10,000), the time per request (the computation stops at its
//! deadline) and the heavy requests computed at once (two; more are told to retry), and sends a
//! Content-Security-Policy without inline script and a `frame-ancestors` rule; `/api/fetch`
//! fetches only http, https and ftp URLs, never a file, and refuses non-public addresses at
//! the first request and every redirect unless `--allow-private-fetch` ([`fetch`]).

mod api;
mod assets;
mod check;
mod error;
mod fetch;
mod http;
mod limits;

use std::io::Write as _;
use std::net::SocketAddr;

use crate::cmd::Outcome;
use crate::error::CliError;

/// The examples in `robotrules serve --help`.
const AFTER_HELP: &str = "\
Examples:
  robotrules serve
  robotrules serve --listen 127.0.0.1:9000
  robotrules serve --listen 0.0.0.0:8080   # on the network: /api/fetch still refuses private addresses

Open the address it prints in a browser. The page and its API are described in docs/serve.md.";

/// Arguments of `robotrules serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct ServeArgs {
    /// The address and port to listen on (port 0: any free port). The default is loopback
    /// only; another address puts the tester on a network.
    /// Also `localhost:PORT`, or a bare PORT (both on 127.0.0.1).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080", value_parser = listen_address)]
    listen: SocketAddr,

    /// Let /api/fetch fetch loopback, private, link-local, multicast and unspecified
    /// addresses (refused by default, at the first request and at every redirect, so that the
    /// tester cannot be used to reach the machine or its network).
    #[arg(long)]
    allow_private_fetch: bool,

    /// How long a request may take, in milliseconds (10,000 by default); hidden: the tests of
    /// the deadline use it to make a request run out of time.
    #[arg(long, value_name = "MS", hide = true)]
    request_deadline_ms: Option<u64>,
}

/// `--listen`'s value: `IP:PORT` (`[IPv6]:PORT`), `localhost:PORT` or a bare `PORT`, the last
/// two on loopback (127.0.0.1).
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    let loopback = |port: &str| {
        port.parse::<u16>()
            .ok()
            .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
    };
    let port = match text.split_once(':') {
        Some((host, port)) if host.eq_ignore_ascii_case("localhost") => port,
        _ => text,
    };
    if let Some(address) = loopback(port) {
        return Ok(address);
    }
    text.parse().map_err(|_| {
        "expected IP:PORT (127.0.0.1:8080, [::1]:8080), localhost:PORT or a bare PORT".to_owned()
    })
}

/// Runs `serve` until the process is stopped: prints `robotrules serve: listening on
/// http://ADDR/` on standard output once the socket is bound.
///
/// # Errors
/// [`CliError::Serve`] when the runtime cannot start or the address cannot be bound.
pub(crate) fn run(args: ServeArgs) -> Result<Outcome, CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("robotrules-serve")
        .build()
        .map_err(|error| CliError::Serve(format!("cannot start the runtime: {error}")))?;
    let mut config = limits::Config::new(args.allow_private_fetch, args.listen.ip().is_loopback());
    if let Some(ms) = args.request_deadline_ms {
        config.deadline = std::time::Duration::from_millis(ms);
    }
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|error| {
                CliError::Serve(format!("cannot listen on {}: {error}", args.listen))
            })?;
        let address = listener.local_addr().map_err(|error| {
            CliError::Serve(format!("cannot listen on {}: {error}", args.listen))
        })?;
        announce(address);
        if let Some(warning) = exposure_warning(address.ip(), args.allow_private_fetch) {
            eprintln!("robotrules: warning: {warning}");
        }
        http::serve(listener, config).await;
        Ok(Outcome::AllClear)
    })
}

/// What a user who binds beyond loopback should know: anyone who reaches the address can use
/// the tester, and with `--allow-private-fetch` use it to fetch from this machine's network.
fn exposure_warning(ip: std::net::IpAddr, allow_private_fetch: bool) -> Option<String> {
    if ip.is_loopback() {
        return None;
    }
    let mut warning = format!(
        "listening on {ip}, not loopback: anyone who can reach this address can use the tester"
    );
    if allow_private_fetch {
        warning.push_str(
            ", and with --allow-private-fetch make it fetch from this machine and its network",
        );
    }
    Some(warning)
}

/// Prints where the tester is, and flushes it (a script waits for the line).
fn announce(address: SocketAddr) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "robotrules serve: listening on http://{address}/");
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_takes_localhost_and_a_bare_port() {
        let loopback = |port| SocketAddr::from(([127, 0, 0, 1], port));
        assert_eq!(listen_address("8080"), Ok(loopback(8080)));
        assert_eq!(listen_address("localhost:9000"), Ok(loopback(9000)));
        assert_eq!(
            listen_address("0.0.0.0:80"),
            Ok(SocketAddr::from(([0, 0, 0, 0], 80)))
        );
        assert_eq!(listen_address("[::1]:80").map(|a| a.port()), Ok(80));
        for bad in ["localhost", "example.com:80", "99999", ""] {
            let error = listen_address(bad).unwrap_err();
            assert!(
                error.contains("localhost:PORT or a bare PORT"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn binding_beyond_loopback_is_said_with_what_it_exposes() {
        let loopback = std::net::IpAddr::from([127, 0, 0, 1]);
        assert_eq!(exposure_warning(loopback, true), None);
        let any = std::net::IpAddr::from([0, 0, 0, 0]);
        assert_eq!(
            exposure_warning(any, false).as_deref(),
            Some("listening on 0.0.0.0, not loopback: anyone who can reach this address can use the tester")
        );
        assert!(exposure_warning(any, true)
            .is_some_and(|w| w.ends_with("make it fetch from this machine and its network")));
    }
}

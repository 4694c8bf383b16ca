//! Running `fetch` cases: the facade's `Client` (what users run: its fetcher, cache and single
//! flight, on a manual clock) against loopback servers from `robotrules-testserver`, started
//! once per run.
//!
//! Every (case, profile) pair gets host names of its own (`case-N.conformance.test`, pointed
//! at the one HTTP server, or for `scheme: https` the one HTTPS server, through
//! `ClientBuilder::resolve`), so pairs never see each other's routes or requests. The HTTPS
//! server presents a certificate for `*.conformance.test` from a CA generated for the run,
//! which the client trusts as an extra root. The profile picks the cache rules, as the client
//! does by default: `google` gets `CachePolicy::google()`, the others
//! `CachePolicy::rfc9309()` (docs/fetching.md).
//!
//! What is compared: the access result of the latest fetch, the verdict class the cache
//! applies (the last good copy's while it serves one), and when the case asks, the number of
//! requests for the robots.txt, the body bytes kept and whether the body was cut.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use robotrules::client::{AccessKind, Client, Lookup, ManualClock, RootCertificate};
use robotrules::{ParseOptions, Profile};
use robotrules_testserver::ftp::{FtpServer, SilentListener};
use robotrules_testserver::http::{HttpServer, Reply};
use robotrules_testserver::tls::{BrokenTlsListener, HandshakeFault, TestCa, Validity};
use robotrules_testserver::Background;

use crate::fetch_case::{FetchEvent, FetchObservation, FetchTest, Scheme};

/// The domain of the per-pair host names (RFC 6761 reserves `.test`).
const DOMAIN: &str = "conformance.test";

/// The robots.txt served on success.
const ROBOTS: &str = "User-agent: *\nDisallow: /private/\n";

/// The line repeated by `body-bytes:N` and `gzip-bomb-bytes:N` (13 bytes).
const LINE: &str = "Disallow: /x\n";

/// Bodies of `body-bytes:N` longer than this are streamed, never built in memory.
const STREAMED_BODY: u64 = 4 * 1024 * 1024;

/// The status of the failing fetches of `unreachable-…` when the case names none.
const DEFAULT_UNREACHABLE_STATUS: u16 = 503;

/// How long after the good copy the outage of `unreachable-…,cached-copy` starts: past its
/// 24-hour lifetime, so the copy is stale when the outage begins.
const COPY_AGE_AT_OUTAGE: Duration = Duration::from_secs(25 * 3600);

/// The deadline of the cases that wait for a server that never answers.
const SHORT_DEADLINE: Duration = Duration::from_millis(300);

/// The crawler the client is built for.
const AGENT: &str = "RobotrulesConformance";

/// What a case changes in how the client fetches: the host name overrides and the deadline.
struct Setup {
    resolve: Vec<(String, SocketAddr)>,
    total_timeout: Duration,
}

/// The loopback servers of one run, and the runtime they run on.
pub struct FetchEnv {
    http: HttpServer,
    https: HttpServer,
    /// The root the HTTPS server's certificate chains to.
    roots: Vec<RootCertificate>,
    tls_faults: TlsFaults,
    ftp_with_file: FtpServer,
    ftp_without_file: FtpServer,
    ftp_refusing: FtpServer,
    silent: SilentListener,
    next_pair: u64,
    // Dropped last: the servers' tasks run on it.
    background: Background,
}

impl FetchEnv {
    /// Starts the servers: one HTTP server, one HTTPS server (with a CA made for the run), an
    /// FTP server with `/robots.txt`, one without, one refusing every login, and a listener
    /// that never greets.
    pub fn start() -> io::Result<FetchEnv> {
        let background = Background::new()?;
        let http = background.http()?;
        let ca = TestCa::new("robotrules conformance CA")?;
        let https = background.https(&ca.issue(&[&format!("*.{DOMAIN}")], Validity::Current)?)?;
        let roots = RootCertificate::from_pem(ca.pem().as_bytes())
            .map_err(|error| io::Error::other(format!("the test CA: {error}")))?;
        let tls_faults = TlsFaults::start(&background, &ca)?;
        let ftp_with_file = background.ftp(false)?;
        ftp_with_file.put_robots_txt(ROBOTS.as_bytes());
        let ftp_without_file = background.ftp(false)?;
        let ftp_refusing = background.ftp(true)?;
        let silent = background.block_on(SilentListener::try_start())?;
        Ok(FetchEnv {
            http,
            https,
            roots,
            tls_faults,
            ftp_with_file,
            ftp_without_file,
            ftp_refusing,
            silent,
            next_pair: 0,
            background,
        })
    }

    /// Runs `test` in `profile` and reports what it observed, in the terms of the case's
    /// expectation; `Err` when the case cannot be set up or the URL is rejected.
    pub fn run(&mut self, test: &FetchTest, profile: Profile) -> Result<FetchObservation, String> {
        self.next_pair += 1;
        let pair = Pair {
            host: format!("case-{}.{DOMAIN}", self.next_pair),
            other: format!("other-{}.{DOMAIN}", self.next_pair),
        };
        let mut setup = Setup {
            resolve: vec![
                (pair.host.clone(), self.server(test).addr()),
                (pair.other.clone(), self.server(test).addr()),
            ],
            total_timeout: Duration::from_secs(2),
        };
        let url = self.prepare(test, &pair, &mut setup)?;
        let clock = ManualClock::default();
        let mut builder = Client::builder()
            .crawler(AGENT)
            .parse_options(ParseOptions::new().with_profile(profile))
            .clock(Arc::new(clock.clone()))
            .user_agent("RobotrulesConformance/1.0")
            .connect_timeout(Duration::from_secs(1))
            .total_timeout(setup.total_timeout)
            .use_env_proxy(false)
            .add_root_certificates(self.roots.iter().cloned())
            .too_many_requests(test.input.too_many_requests);
        for (host, addr) in setup.resolve {
            builder = builder.resolve(host, addr);
        }
        let client = builder.build().map_err(|error| error.to_string())?;
        let outcome = self.background.block_on(scenario(
            test,
            self.server(test),
            &pair,
            &client,
            &clock,
            &url,
        ))?;
        if test.input.event == Some(FetchEvent::HtmlMetaRefresh)
            && self.server(test).hits_on(&pair.host, META_REFRESH_TARGET) > 0
        {
            return Err(format!(
                "the meta refresh to {META_REFRESH_TARGET} was followed"
            ));
        }
        self.observe(test, &pair, &outcome)
    }

    /// The server of `test`'s scheme: HTTPS for `https`, else HTTP (FTP cases use neither).
    fn server(&self, test: &FetchTest) -> &HttpServer {
        if test.input.scheme == Scheme::Https {
            &self.https
        } else {
            &self.http
        }
    }

    /// Sets up the server side of `test` and returns the URL to ask about.
    fn prepare(&self, test: &FetchTest, pair: &Pair, setup: &mut Setup) -> Result<String, String> {
        let http = self.server(test);
        let scheme = test.input.scheme.as_str();
        let robots_txt = "/robots.txt";
        let on_host = |path: &str, reply: Reply| {
            http.route_on(&pair.host, path, reply);
        };
        let Some(event) = test.input.event else {
            on_host(robots_txt, final_reply(test, ROBOTS.as_bytes()));
            return Ok(http.url_on(&pair.host, robots_txt));
        };
        match event {
            FetchEvent::Redirects(hops) => {
                let redirect = test.input.redirect_status.unwrap_or(301);
                let hop_path = |hop: u32| {
                    if hop == 0 {
                        robots_txt.to_owned()
                    } else {
                        format!("/redirect/{hop}/robots.txt")
                    }
                };
                for hop in 0..hops {
                    on_host(&hop_path(hop), Reply::redirect(redirect, &hop_path(hop + 1)));
                }
                on_host(&hop_path(hops), final_reply(test, ROBOTS.as_bytes()));
            }
            FetchEvent::RedirectLoop => {
                on_host(robots_txt, Reply::redirect(301, "/loop/robots.txt"));
                on_host("/loop/robots.txt", Reply::redirect(302, robots_txt));
            }
            FetchEvent::RedirectCrossHost => {
                let target = http.url_on(&pair.other, robots_txt);
                on_host(robots_txt, Reply::redirect(301, &target));
                http.route_on(&pair.other, robots_txt, final_reply(test, ROBOTS.as_bytes()));
            }
            FetchEvent::RedirectCrossScheme => {
                let other = if test.input.scheme == Scheme::Https {
                    &self.http
                } else {
                    &self.https
                };
                setup.resolve = vec![
                    (pair.host.clone(), http.addr()),
                    (pair.other.clone(), other.addr()),
                ];
                let target = other.url_on(&pair.other, robots_txt);
                on_host(robots_txt, Reply::redirect(301, &target));
                other.route_on(&pair.other, robots_txt, final_reply(test, ROBOTS.as_bytes()));
            }
            FetchEvent::HtmlMetaRefresh => {
                let page = format!(
                    "<html><head><meta http-equiv=\"refresh\" content=\"0; url={META_REFRESH_TARGET}\"></head>\n<body>\nUser-agent: *\nDisallow: /private/\n</body></html>\n"
                );
                on_host(robots_txt, final_reply(test, page.as_bytes()));
                on_host(
                    META_REFRESH_TARGET,
                    Reply::ok("User-agent: *\nDisallow: /\n"),
                );
            }
            FetchEvent::Gzip => on_host(robots_txt, Reply::gzipped(ROBOTS.as_bytes())),
            FetchEvent::BodyBytes(total) if total > STREAMED_BODY => on_host(
                robots_txt,
                Reply::Endless {
                    line: LINE.as_bytes().to_vec(),
                    total,
                },
            ),
            FetchEvent::BodyBytes(total) => {
                let length = usize::try_from(total).map_err(|_| "body too large".to_owned())?;
                let mut body = LINE.repeat(length / LINE.len() + 1).into_bytes();
                body.truncate(length);
                on_host(robots_txt, final_reply(test, &body));
            }
            FetchEvent::GzipBombBytes(total) => on_host(
                robots_txt,
                Reply::GzipBomb {
                    line: LINE.as_bytes().to_vec(),
                    total,
                },
            ),
            FetchEvent::DnsFailure => {
                // RFC 6761: `.invalid` names never resolve.
                return Ok(format!(
                    "{scheme}://dns-failure-{}.invalid/robots.txt",
                    self.next_pair
                ));
            }
            FetchEvent::ConnectionRefused => {
                let port = robotrules_testserver::free_port().map_err(|error| error.to_string())?;
                return Ok(format!("{scheme}://127.0.0.1:{port}/robots.txt"));
            }
            FetchEvent::Timeout => {
                setup.total_timeout = SHORT_DEADLINE;
                on_host(robots_txt, Reply::Silent);
            }
            FetchEvent::InvalidResponse => on_host(
                robots_txt,
                Reply::Raw(b"SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n".to_vec()),
            ),
            FetchEvent::Reset => on_host(
                robots_txt,
                Reply::ResetAfter(
                    b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nDisallow: /pri"
                        .to_vec(),
                ),
            ),
            FetchEvent::Interrupted => on_host(robots_txt, Reply::CloseWithoutAnswer),
            FetchEvent::ChunkingError => on_host(
                robots_txt,
                Reply::Raw(
                    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nUser-agent: *\r\n0\r\n\r\n"
                        .to_vec(),
                ),
            ),
            FetchEvent::TruncatedBody => on_host(
                robots_txt,
                Reply::Raw(
                    b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\nUser-agent: *\nDisallow: /private/\n"
                        .to_vec(),
                ),
            ),
            FetchEvent::Unreachable { .. } | FetchEvent::CachedFor(_) => {
                // The scenario switches replies between fetches.
            }
            FetchEvent::FtpRetrOk => return Ok(self.ftp_with_file.url(robots_txt)),
            FetchEvent::Ftp550 => return Ok(self.ftp_without_file.url(robots_txt)),
            FetchEvent::FtpLoginRefused => return Ok(self.ftp_refusing.url(robots_txt)),
            FetchEvent::FtpSilent => {
                setup.total_timeout = SHORT_DEADLINE;
                return Ok(format!("ftp://{}/robots.txt", self.silent.addr()));
            }
            FetchEvent::TlsUnknownIssuer
            | FetchEvent::TlsExpired
            | FetchEvent::TlsWrongHost
            | FetchEvent::TlsHandshakeFailure
            | FetchEvent::TlsNotTls => {
                let addr = self.tls_faults.addr(event);
                setup.resolve = vec![(pair.host.clone(), addr)];
                return Ok(format!("https://{}:{}{robots_txt}", pair.host, addr.port()));
            }
        }
        Ok(http.url_on(&pair.host, robots_txt))
    }

    /// What `test` expects to know about `outcome`.
    fn observe(
        &self,
        test: &FetchTest,
        pair: &Pair,
        outcome: &Lookup,
    ) -> Result<FetchObservation, String> {
        let fetches = match test.expect.fetches {
            None => None,
            Some(_) if test.input.event.is_some_and(FetchEvent::is_ftp) => {
                return Err("`expect.fetches` is counted on the HTTP server only".to_owned())
            }
            Some(_) => Some(self.server(test).hits_on(&pair.host, "/robots.txt")),
        };
        let served = outcome.served();
        let (bytes, truncated) = match outcome.access() {
            AccessKind::Success => (
                served.body().map_or(0, <[u8]>::len),
                served.truncation().is_some(),
            ),
            _ => (0, false),
        };
        Ok(FetchObservation {
            access: outcome.latest().access().as_str().to_owned(),
            verdict: test
                .expect
                .verdict
                .as_ref()
                .map(|_| outcome.verdict_class().as_str().to_owned()),
            fetches,
            bytes: test.expect.bytes.map(|_| bytes),
            truncated: test.expect.truncated.map(|_| truncated),
        })
    }
}

/// The servers of the `tls-…` events, each failing the handshake its own way.
struct TlsFaults {
    unknown_issuer: HttpServer,
    expired: HttpServer,
    wrong_host: HttpServer,
    alert: BrokenTlsListener,
    not_tls: BrokenTlsListener,
}

impl TlsFaults {
    /// Starts them: certificates for `*.conformance.test` from another CA and from `ca` but
    /// expired, one from `ca` for another name, and two listeners that spoil the handshake.
    fn start(background: &Background, ca: &TestCa) -> io::Result<TlsFaults> {
        let wildcard = format!("*.{DOMAIN}");
        let other_ca = TestCa::new("a CA the conformance run does not trust")?;
        Ok(TlsFaults {
            unknown_issuer: background.https(&other_ca.issue(&[&wildcard], Validity::Current)?)?,
            expired: background.https(&ca.issue(&[&wildcard], Validity::Expired)?)?,
            wrong_host: background.https(&ca.issue(&["www.example.test"], Validity::Current)?)?,
            alert: background.block_on(BrokenTlsListener::try_start(HandshakeFault::Alert))?,
            not_tls: background
                .block_on(BrokenTlsListener::try_start(HandshakeFault::PlainHttp))?,
        })
    }

    /// The address of the server for `event` (a `tls-…` event).
    fn addr(&self, event: FetchEvent) -> SocketAddr {
        match event {
            FetchEvent::TlsUnknownIssuer => self.unknown_issuer.addr(),
            FetchEvent::TlsExpired => self.expired.addr(),
            FetchEvent::TlsWrongHost => self.wrong_host.addr(),
            FetchEvent::TlsHandshakeFailure => self.alert.addr(),
            _ => self.not_tls.addr(),
        }
    }
}

/// Where a meta refresh in `html-meta-refresh` points.
const META_REFRESH_TARGET: &str = "/elsewhere/robots.txt";

/// The host names of one (case, profile) pair.
struct Pair {
    host: String,
    other: String,
}

/// The final response of `test`: its status (default 200) and headers; for a 2xx other than
/// 204, `body` (with `Content-Type: text/plain` unless the case names a content type).
fn final_reply(test: &FetchTest, body: &[u8]) -> Reply {
    let status = test.input.status.unwrap_or(200);
    let mut headers = test.input.headers.clone();
    let has_body = (200..300).contains(&status) && status != 204;
    if has_body
        && !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("content-type"))
    {
        headers.push(("Content-Type".to_owned(), "text/plain".to_owned()));
    }
    Reply::Response {
        status,
        headers,
        body: if has_body { body.to_vec() } else { Vec::new() },
    }
}

/// The answer of an outage: the case's status (default 503) with its headers.
fn outage_reply(test: &FetchTest) -> Reply {
    Reply::Response {
        status: test.input.status.unwrap_or(DEFAULT_UNREACHABLE_STATUS),
        headers: test.input.headers.clone(),
        body: Vec::new(),
    }
}

/// The fetches of `test`: one, or for the cache events several with the clock moved between
/// them. The answer is the cache's last one.
async fn scenario(
    test: &FetchTest,
    http: &HttpServer,
    pair: &Pair,
    client: &Client,
    clock: &ManualClock,
    url: &str,
) -> Result<Lookup, String> {
    let get = || async { client.lookup(url).await.map_err(|error| error.to_string()) };
    match test.input.event {
        Some(FetchEvent::Unreachable { for_, cached_copy }) => {
            if cached_copy {
                http.route_on(&pair.host, "/robots.txt", Reply::ok(ROBOTS));
                get().await?;
                clock.advance(COPY_AGE_AT_OUTAGE);
            }
            http.route_on(&pair.host, "/robots.txt", outage_reply(test));
            let first = get().await?;
            if for_.is_zero() {
                return Ok(first);
            }
            clock.advance(for_);
            get().await
        }
        Some(FetchEvent::CachedFor(after)) => {
            http.route_on(
                &pair.host,
                "/robots.txt",
                final_reply(test, ROBOTS.as_bytes()),
            );
            get().await?;
            clock.advance(after);
            get().await
        }
        _ => get().await,
    }
}

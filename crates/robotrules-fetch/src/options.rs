//! Fetch options: deadlines, redirect and size limits, the User-Agent, status policies, and
//! the certificates trusted for HTTPS.

use std::net::SocketAddr;
use std::time::Duration;

use crate::address_policy::AddressPolicy;
use crate::root_certificate::RootCertificate;
use crate::status::{TooManyRequests, RFC9309_MIN_REDIRECTS};

/// The body limit RFC 9309 §2.5 sets as a floor: "The parsing limit MUST be at least 500
/// kibibytes" (500 × 1024 = 512,000 bytes).
pub const RFC9309_MIN_BODY_LIMIT: usize = 500 * 1024;

/// The User-Agent header sent when none is configured: `robotrules/VERSION`. A crawler's own
/// name goes in front of it (`ExampleBot robotrules/0.1.0`: the facade's client and the
/// command-line tool do that).
pub const DEFAULT_USER_AGENT: &str = concat!("robotrules/", env!("CARGO_PKG_VERSION"));

/// Options for [`Fetcher`](crate::Fetcher).
///
/// Fields are public; start from [`FetchOptions::default`] and change what you need.
///
/// ```
/// use std::time::Duration;
/// use robotrules_fetch::FetchOptions;
///
/// let options = FetchOptions {
///     user_agent: "ExampleBot/1.0 (+https://example.com/bot)".into(),
///     total_timeout: Duration::from_secs(10),
///     ..FetchOptions::default()
/// };
/// assert_eq!(options.max_redirects, 5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchOptions {
    /// The User-Agent header (HTTP) sent with every request.
    pub user_agent: String,
    /// How many consecutive redirects are followed (default 5, RFC 9309 §2.3.1.2); one more
    /// makes the robots.txt "unavailable".
    pub max_redirects: usize,
    /// Deadline for opening one connection (TCP, and TLS for HTTPS). Default 10 s.
    pub connect_timeout: Duration,
    /// Deadline for the whole fetch, every redirect and the body included. Default 30 s.
    pub total_timeout: Duration,
    /// Most decompressed body bytes kept (default 512,000, the RFC 9309 §2.5 floor). The body
    /// is cut at the last full line within the limit and the rest is ignored and reported in
    /// [`Truncation`](crate::Truncation). Values below 512,000 do not conform to RFC 9309 §2.5.
    pub body_limit: usize,
    /// How HTTP 429 is read (default: unreachable).
    pub too_many_requests: TooManyRequests,
    /// Host name overrides, like curl's `--resolve`: requests for the host go to the address
    /// instead of a DNS answer. The port in the URL wins over the port given here.
    pub resolve: Vec<(String, SocketAddr)>,
    /// The password sent with the anonymous FTP login (user `anonymous`).
    pub ftp_password: String,
    /// Whether HTTP proxies from the environment (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`) are
    /// used. Default true.
    pub use_env_proxy: bool,
    /// Root certificates trusted for HTTPS in addition to the built-in web roots (Mozilla's
    /// list, compiled in from `webpki-roots`), for example a private CA or the CA of a
    /// TLS-inspecting proxy. Read them with [`RootCertificate::from_pem`]. Default none.
    pub extra_root_certificates: Vec<RootCertificate>,
    /// Whether the platform's certificate store is trusted too, in addition to the built-in
    /// web roots (on Linux the system bundle, or the files named by `SSL_CERT_FILE` and
    /// `SSL_CERT_DIR`; the keychain on macOS; the system store on Windows). It is read when the
    /// fetcher is built. Default false, so a fetch trusts the same roots on every machine.
    pub platform_roots: bool,
    /// How many robots.txt fetches one [`Fetcher`](crate::Fetcher) (and its clones) runs at
    /// once; more wait their turn before their deadline starts. Zero (the default) means no
    /// limit. `robotrules batch --concurrency N` sets it.
    pub max_concurrent_fetches: usize,
    /// Which addresses may be connected to, at the first request and at every redirect
    /// (default: any). [`AddressPolicy::Public`] refuses loopback, private, link-local,
    /// multicast and unspecified addresses (the fetch is unreachable, reason `refused`) and
    /// ignores [`use_env_proxy`](Self::use_env_proxy); `robotrules serve` sets it.
    pub address_policy: AddressPolicy,
}

impl Default for FetchOptions {
    fn default() -> Self {
        Self {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            max_redirects: RFC9309_MIN_REDIRECTS,
            connect_timeout: Duration::from_secs(10),
            total_timeout: Duration::from_secs(30),
            body_limit: RFC9309_MIN_BODY_LIMIT,
            too_many_requests: TooManyRequests::default(),
            resolve: Vec::new(),
            ftp_password: "anonymous@".to_owned(),
            use_env_proxy: true,
            extra_root_certificates: Vec::new(),
            platform_roots: false,
            max_concurrent_fetches: 0,
            address_policy: AddressPolicy::Any,
        }
    }
}

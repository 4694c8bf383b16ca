//! HTTPS for the loopback servers: a test certificate authority generated at run time with
//! rcgen (no key material is stored anywhere), the fault-injecting HTTP server of
//! [`crate::http`] behind rustls, and listeners that break the TLS handshake on purpose.
//!
//! ```no_run
//! use robotrules_testserver::http::{HttpServer, Reply};
//! use robotrules_testserver::tls::TestCa;
//!
//! # async fn demo() -> std::io::Result<()> {
//! let ca = TestCa::new("robotrules test CA")?;
//! let server = HttpServer::try_start_tls(&ca.localhost()?).await?;
//! server.route("/robots.txt", Reply::ok("User-agent: *\nDisallow: /\n"));
//! // Trust `ca.pem()` in the client, then fetch server.url("/robots.txt"): https://127.0.0.1:PORT/…
//! # Ok(()) }
//! ```

use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

use crate::http::{Connection, HttpServer};
use crate::loopback::{accept_each, bind, expect_started, Task};

/// The names the certificates of [`TestCa::localhost`] are valid for: every way a test
/// addresses the loopback servers.
pub const LOOPBACK_NAMES: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The longest a broken listener keeps a connection open.
const MAX_HOLD: Duration = Duration::from_secs(20);

/// A certificate authority made for one test run: a fresh key and a self-signed CA
/// certificate. Clients that should trust it are given [`TestCa::pem`]; one that is not is an
/// "unknown issuer" to every client.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl fmt::Debug for TestCa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestCa").finish_non_exhaustive()
    }
}

/// When a certificate is valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validity {
    /// From a day ago until a year from now.
    Current,
    /// Expired a day ago (valid for the year before that).
    Expired,
    /// Valid from a year from now.
    NotYetValid,
}

impl TestCa {
    /// A new CA called `common_name`.
    ///
    /// # Errors
    /// When the key or the certificate cannot be generated (a broken build, not an input).
    pub fn new(common_name: &str) -> io::Result<TestCa> {
        let mut params = CertificateParams::default();
        params
            .distinguished_name
            .push(DnType::CommonName, common_name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let key = KeyPair::generate().map_err(pki_error)?;
        let issuer = CertifiedIssuer::self_signed(params, key).map_err(pki_error)?;
        Ok(TestCa { issuer })
    }

    /// The CA certificate in PEM (`-----BEGIN CERTIFICATE-----` …).
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// The CA certificate in DER.
    pub fn der(&self) -> Vec<u8> {
        self.issuer.der().to_vec()
    }

    /// A server certificate for `names` (DNS names, wildcards such as `*.example.test`, or IP
    /// addresses), signed by this CA, with its key.
    ///
    /// # Errors
    /// When a name is not a valid DNS name or IP address, or generation fails.
    pub fn issue(&self, names: &[&str], validity: Validity) -> io::Result<Identity> {
        let mut params = CertificateParams::new(
            names
                .iter()
                .map(|name| (*name).to_owned())
                .collect::<Vec<_>>(),
        )
        .map_err(pki_error)?;
        params.distinguished_name.push(
            DnType::CommonName,
            names.first().copied().unwrap_or("server"),
        );
        params.use_authority_key_identifier_extension = true;
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        let now = time::OffsetDateTime::now_utc();
        let (not_before, not_after) = match validity {
            Validity::Current => (
                now - time::Duration::days(1),
                now + time::Duration::days(365),
            ),
            Validity::Expired => (
                now - time::Duration::days(366),
                now - time::Duration::days(1),
            ),
            Validity::NotYetValid => (
                now + time::Duration::days(365),
                now + time::Duration::days(730),
            ),
        };
        params.not_before = not_before;
        params.not_after = not_after;
        let key = KeyPair::generate().map_err(pki_error)?;
        let certificate = params.signed_by(&key, &self.issuer).map_err(pki_error)?;
        Ok(Identity {
            chain: vec![certificate.der().clone(), CertificateDer::from(self.der())],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
            key_pem: key.serialize_pem(),
            certificate_pem: certificate.pem(),
        })
    }

    /// A current certificate for [`LOOPBACK_NAMES`].
    ///
    /// # Errors
    /// As [`TestCa::issue`].
    pub fn localhost(&self) -> io::Result<Identity> {
        self.issue(&LOOPBACK_NAMES, Validity::Current)
    }
}

/// A server certificate chain (the server's certificate, then the CA's) and its key.
pub struct Identity {
    chain: Vec<CertificateDer<'static>>,
    key: PrivatePkcs8KeyDer<'static>,
    key_pem: String,
    certificate_pem: String,
}

impl Clone for Identity {
    fn clone(&self) -> Self {
        Identity {
            chain: self.chain.clone(),
            key: self.key.clone_key(),
            key_pem: self.key_pem.clone(),
            certificate_pem: self.certificate_pem.clone(),
        }
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Identity")
            .field("certificates", &self.chain.len())
            .field("chain_bytes", &self.chain_bytes())
            .finish_non_exhaustive()
    }
}

impl Identity {
    /// The private key in PEM (`-----BEGIN PRIVATE KEY-----` …), for tests that hand a key
    /// where a certificate belongs.
    pub fn key_pem(&self) -> String {
        self.key_pem.clone()
    }

    /// The server's certificate in PEM.
    pub fn certificate_pem(&self) -> String {
        self.certificate_pem.clone()
    }

    /// The DER bytes of the whole chain.
    pub fn chain_bytes(&self) -> usize {
        self.chain.iter().map(|certificate| certificate.len()).sum()
    }

    /// This identity with its chain padded with copies of the CA certificate until it holds
    /// at least `bytes` bytes (a server that sends a 1 MB chain).
    pub fn padded_to(mut self, bytes: usize) -> Identity {
        let Some(filler) = self.chain.last().cloned() else {
            return self;
        };
        while self.chain_bytes() < bytes {
            self.chain.push(filler.clone());
        }
        self
    }

    /// The rustls server configuration that presents this identity.
    fn server_config(&self) -> io::Result<Arc<rustls::ServerConfig>> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(
                self.chain.clone(),
                PrivateKeyDer::Pkcs8(self.key.clone_key()),
            )
            .map_err(io::Error::other)?;
        Ok(Arc::new(config))
    }
}

fn pki_error(error: rcgen::Error) -> io::Error {
    io::Error::other(format!("cannot generate the test certificates: {error}"))
}

impl Connection for TlsStream<TcpStream> {
    fn tcp(&self) -> &TcpStream {
        self.get_ref().0
    }
}

impl HttpServer {
    /// Starts the HTTP server of [`crate::http`] behind TLS on 127.0.0.1, presenting
    /// `identity`; [`HttpServer::url`] gives `https://127.0.0.1:PORT/…`. Must be called
    /// inside a tokio runtime.
    ///
    /// # Panics
    /// When no loopback port can be bound (a broken test environment).
    pub async fn start_tls(identity: &Identity) -> HttpServer {
        expect_started(
            Self::try_start_tls(identity).await,
            "start the test HTTPS server",
        )
    }

    /// Same as [`HttpServer::start_tls`], returning the error instead of panicking.
    pub async fn try_start_tls(identity: &Identity) -> io::Result<HttpServer> {
        Self::try_start_tls_on(IpAddr::V4(Ipv4Addr::LOCALHOST), identity).await
    }

    /// Same as [`HttpServer::try_start_tls`] on the loopback address `ip` (`::1` for IPv6).
    pub async fn try_start_tls_on(ip: IpAddr, identity: &Identity) -> io::Result<HttpServer> {
        let acceptor = TlsAcceptor::from(identity.server_config()?);
        let (listener, addr) = bind(ip).await?;
        Ok(HttpServer::serve_on(
            listener,
            addr,
            "https",
            move |stream| {
                let handshake = acceptor.accept(stream);
                async move { handshake.await.ok() }
            },
        ))
    }
}

/// How a [`BrokenTlsListener`] spoils the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandshakeFault {
    /// Answers the ClientHello with a fatal `handshake_failure` alert, as a server that shares
    /// no protocol version or cipher suite with the client does.
    Alert,
    /// Reads the ClientHello and never answers.
    Stall,
    /// Answers as a plain HTTP server does when a TLS ClientHello arrives: `400 Bad Request`.
    PlainHttp,
}

/// A listener on 127.0.0.1 that accepts connections and spoils the TLS handshake on each;
/// it stops when dropped.
#[derive(Debug)]
pub struct BrokenTlsListener {
    addr: SocketAddr,
    _task: Task,
}

/// A TLS 1.2 record: a fatal (2) `handshake_failure` (40) alert.
const HANDSHAKE_FAILURE_ALERT: [u8; 7] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28];

/// What a plain HTTP server answers to bytes that are not HTTP.
const BAD_REQUEST: &[u8] =
    b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

impl BrokenTlsListener {
    /// Starts the listener. Must be called inside a tokio runtime.
    ///
    /// # Panics
    /// When no loopback port can be bound (a broken test environment).
    pub async fn start(fault: HandshakeFault) -> BrokenTlsListener {
        expect_started(
            Self::try_start(fault).await,
            "start the broken TLS listener",
        )
    }

    /// Same as [`BrokenTlsListener::start`], returning the error instead of panicking.
    pub async fn try_start(fault: HandshakeFault) -> io::Result<BrokenTlsListener> {
        let (listener, addr) = bind(IpAddr::V4(Ipv4Addr::LOCALHOST)).await?;
        let task = accept_each(listener, move |stream| async move {
            let _ = tokio::time::timeout(MAX_HOLD, spoil(stream, fault)).await;
        });
        Ok(BrokenTlsListener { addr, _task: task })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `https://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("https://{}{path}", self.addr)
    }
}

async fn spoil(mut stream: TcpStream, fault: HandshakeFault) {
    let mut hello = [0_u8; 4096];
    if stream.read(&mut hello).await.is_err() {
        return;
    }
    match fault {
        HandshakeFault::Alert => {
            let _ = stream.write_all(&HANDSHAKE_FAILURE_ALERT).await;
            let _ = stream.shutdown().await;
        }
        HandshakeFault::PlainHttp => {
            let _ = stream.write_all(BAD_REQUEST).await;
            let _ = stream.shutdown().await;
        }
        HandshakeFault::Stall => {
            // Keep reading until the client gives up.
            while let Ok(n) = stream.read(&mut hello).await {
                if n == 0 {
                    return;
                }
            }
        }
    }
}

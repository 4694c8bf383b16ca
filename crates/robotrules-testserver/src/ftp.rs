//! A real FTP server (libunftp, file-system back end) on 127.0.0.1, serving a temporary
//! directory; and a silent TCP listener that never greets.

use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use libunftp::ServerBuilder;
use tempfile::TempDir;
use tokio::net::{TcpListener, TcpStream};
use unftp_core::auth::{AuthenticationError, Authenticator, Credentials, Principal};
use unftp_sbe_fs::Filesystem;

/// Refuses every login.
#[derive(Debug)]
struct RefuseAll;

#[async_trait]
impl Authenticator for RefuseAll {
    async fn authenticate(
        &self,
        _username: &str,
        _creds: &Credentials,
    ) -> Result<Principal, AuthenticationError> {
        Err(AuthenticationError::BadUser)
    }
}

/// A running FTP server; it stops when dropped.
pub struct FtpServer {
    addr: SocketAddr,
    root: TempDir,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FtpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FtpServer {
    /// An FTP server accepting anonymous logins. Must be called inside a tokio runtime, which
    /// runs the server until it is dropped.
    ///
    /// # Panics
    /// When no temporary directory or loopback port is available (a broken test environment);
    /// see [`FtpServer::try_start`].
    pub async fn anonymous() -> Self {
        Self::expect_started(Self::try_start(false).await)
    }

    /// An FTP server refusing every login.
    ///
    /// # Panics
    /// As [`FtpServer::anonymous`].
    pub async fn refusing_logins() -> Self {
        Self::expect_started(Self::try_start(true).await)
    }

    fn expect_started(started: io::Result<Self>) -> Self {
        match started {
            Ok(server) => server,
            Err(error) => panic!("cannot start the test FTP server on 127.0.0.1: {error}"),
        }
    }

    /// Starts an FTP server on 127.0.0.1 with a free port, serving an empty temporary
    /// directory; `refuse_logins` makes it refuse every login.
    pub async fn try_start(refuse_logins: bool) -> io::Result<Self> {
        let root = tempfile::tempdir()?;
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let dir = root.path().to_path_buf();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let dir = dir.clone();
                tokio::spawn(async move {
                    let _ = serve(stream, dir, refuse_logins).await;
                });
            }
        });
        Ok(Self { addr, root, task })
    }

    /// The served directory.
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// Writes `robots.txt` into the served directory.
    ///
    /// # Panics
    /// When the file cannot be written (a broken test environment).
    pub fn put_robots_txt(&self, content: &[u8]) {
        let path = self.root.path().join("robots.txt");
        if let Err(error) = std::fs::write(&path, content) {
            panic!("cannot write {}: {error}", path.display());
        }
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `ftp://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("ftp://{}{path}", self.addr)
    }
}

/// A listener that accepts connections and never says anything; it stops when dropped.
pub struct SilentListener {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for SilentListener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl SilentListener {
    /// Starts listening on 127.0.0.1 with a free port.
    ///
    /// # Panics
    /// When no loopback port can be bound (a broken test environment).
    pub async fn start() -> Self {
        match Self::try_start().await {
            Ok(listener) => listener,
            Err(error) => panic!("cannot listen on 127.0.0.1: {error}"),
        }
    }

    /// Same as [`SilentListener::start`], returning the error instead of panicking.
    pub async fn try_start() -> io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                held.push(stream);
                if held.len() > 16 {
                    return;
                }
            }
        });
        Ok(Self { addr, task })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// Serves one FTP control connection.
async fn serve(stream: TcpStream, dir: PathBuf, refuse_logins: bool) -> io::Result<()> {
    let generator = Box::new(move || {
        // The directory exists for as long as the server: `new` only fails for a missing root.
        Filesystem::new(dir.clone()).unwrap_or_else(|error| panic!("FTP root: {error}"))
    });
    let builder = if refuse_logins {
        ServerBuilder::with_authenticator(generator, Arc::new(RefuseAll))
    } else {
        ServerBuilder::new(generator)
    };
    let server = builder
        .greeting("robotrules test FTP server")
        .passive_host([127, 0, 0, 1])
        .build()
        .map_err(|error| io::Error::other(error.to_string()))?;
    server
        .service(stream)
        .await
        .map_err(|error| io::Error::other(error.to_string()))
}

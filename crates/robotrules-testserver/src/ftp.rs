//! A real FTP server (libunftp, file-system back end) on 127.0.0.1, serving a temporary
//! directory; and a silent TCP listener that never greets.

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use libunftp::ServerBuilder;
use tempfile::TempDir;
use tokio::net::TcpStream;
use unftp_core::auth::{AuthenticationError, Authenticator, Credentials, Principal};
use unftp_sbe_fs::Filesystem;

use crate::loopback::{accept_each, bind_loopback, expect_started, Task};

/// What [`FtpServer::anonymous`] and [`FtpServer::refusing_logins`] say failed.
const FTP_SERVER: &str = "start the test FTP server";

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
    /// Declared first so that it is dropped first: the server stops before its directory
    /// is removed.
    _task: Task,
    addr: SocketAddr,
    root: TempDir,
}

impl FtpServer {
    /// An FTP server accepting anonymous logins. Must be called inside a tokio runtime, which
    /// runs the server until it is dropped.
    ///
    /// # Panics
    /// When no temporary directory or loopback port is available (a broken test environment);
    /// see [`FtpServer::try_start`].
    pub async fn anonymous() -> Self {
        expect_started(Self::try_start(false).await, FTP_SERVER)
    }

    /// An FTP server refusing every login.
    ///
    /// # Panics
    /// As [`FtpServer::anonymous`].
    pub async fn refusing_logins() -> Self {
        expect_started(Self::try_start(true).await, FTP_SERVER)
    }

    /// Starts an FTP server on 127.0.0.1 with a free port, serving an empty temporary
    /// directory; `refuse_logins` makes it refuse every login.
    pub async fn try_start(refuse_logins: bool) -> io::Result<Self> {
        let root = tempfile::tempdir()?;
        let (listener, addr) = bind_loopback().await?;
        let dir = root.path().to_path_buf();
        let task = accept_each(listener, move |stream| {
            let dir = dir.clone();
            async move {
                let _ = serve(stream, dir, refuse_logins).await;
            }
        });
        Ok(Self {
            addr,
            root,
            _task: task,
        })
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
    _task: Task,
}

impl SilentListener {
    /// Starts listening on 127.0.0.1 with a free port.
    ///
    /// # Panics
    /// When no loopback port can be bound (a broken test environment).
    pub async fn start() -> Self {
        expect_started(Self::try_start().await, "listen")
    }

    /// Same as [`SilentListener::start`], returning the error instead of panicking.
    pub async fn try_start() -> io::Result<Self> {
        let (listener, addr) = bind_loopback().await?;
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                held.push(stream);
                if held.len() > 16 {
                    return;
                }
            }
        });
        Ok(Self {
            addr,
            _task: Task(task),
        })
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

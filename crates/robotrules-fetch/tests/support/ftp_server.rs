//! A real FTP server (libunftp, file-system back end) on 127.0.0.1, serving a temporary
//! directory; and a silent TCP listener that never greets.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use libunftp::ServerBuilder;
use tempfile::TempDir;
use tokio::net::TcpListener;
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
    /// An FTP server accepting anonymous logins.
    pub async fn anonymous() -> Self {
        Self::start(false).await
    }

    /// An FTP server refusing every login.
    pub async fn refusing_logins() -> Self {
        Self::start(true).await
    }

    async fn start(refuse: bool) -> Self {
        let root = tempfile::tempdir().unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let dir = root.path().to_path_buf();
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let dir = dir.clone();
                let generator = Box::new(move || Filesystem::new(dir.clone()).unwrap());
                let builder = if refuse {
                    ServerBuilder::with_authenticator(generator, Arc::new(RefuseAll))
                } else {
                    ServerBuilder::new(generator)
                };
                let server = builder
                    .greeting("robotrules test FTP server")
                    .passive_host([127, 0, 0, 1])
                    .build()
                    .unwrap();
                tokio::spawn(async move {
                    let _ = server.service(stream).await;
                });
            }
        });
        Self { addr, root, task }
    }

    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// Writes `robots.txt` into the served directory.
    pub fn put_robots_txt(&self, content: &[u8]) {
        std::fs::write(self.root.path().join("robots.txt"), content).unwrap();
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
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                held.push(stream);
                if held.len() > 16 {
                    return;
                }
            }
        });
        Self { addr, task }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

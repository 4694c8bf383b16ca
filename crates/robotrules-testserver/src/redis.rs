//! A real `redis-server` on a free loopback port for the fleet tests (never a mock): started
//! with no persistence (`--save '' --appendonly no`) in a temporary directory, killed and
//! restarted on the same port to test outages, reconfigured (`maxmemory`) to test refused
//! writes, and sent raw commands to corrupt entries or pause the server.
//!
//! [`RedisServer::start_tls`] serves Redis over TLS only (`rediss://`, `--port 0 --tls-port
//! PORT`), presenting a certificate for the loopback names issued by a [`TestCa`] made at run
//! time; the certificate, its key and the CA are written to the server's temporary directory.
//! It needs a `redis-server` built with TLS (Debian's is).
//!
//! The binary is `redis-server` on `PATH`, else `/usr/bin/redis-server`. When there is none
//! the tests cannot run, and [`RedisServer::start`] panics saying how to install it: a test
//! of the fleet cache never skips silently.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::pki_types::{CertificateDer, ServerName};
use tempfile::TempDir;

use crate::free_port;
use crate::loopback::expect_started;
use crate::tls::TestCa;

/// Where Debian and Ubuntu's `redis-server` package installs the server.
const DEBIAN_BINARY: &str = "/usr/bin/redis-server";

/// How long a server may take to answer its first `PING`.
const STARTUP: Duration = Duration::from_secs(10);

/// A `redis-server` child process on 127.0.0.1; killed when dropped.
#[derive(Debug)]
pub struct RedisServer {
    binary: PathBuf,
    port: u16,
    dir: TempDir,
    child: Option<Child>,
    /// Whether the server runs in cluster mode (a one-node Redis Cluster owning every slot).
    cluster: bool,
    /// Set when the server speaks TLS only: the client configuration [`RedisServer::command`]
    /// uses (trusting the CA that issued the server's certificate).
    tls: Option<Arc<rustls::ClientConfig>>,
}

/// The files of a TLS server, in its temporary directory.
const CERT_FILE: &str = "redis.crt";
const KEY_FILE: &str = "redis.key";
const CA_FILE: &str = "ca.crt";
/// The server's log, in its temporary directory: quoted when it exits at start.
const LOG_FILE: &str = "redis.log";

/// The `redis-server` binary: on `PATH`, else [`DEBIAN_BINARY`].
fn find_binary() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("redis-server"))
            .find(|candidate| candidate.is_file())
    });
    on_path.or_else(|| {
        let debian = Path::new(DEBIAN_BINARY);
        debian.is_file().then(|| debian.to_path_buf())
    })
}

impl RedisServer {
    /// Starts `redis-server` on a free loopback port and waits until it answers.
    ///
    /// # Panics
    ///
    /// When no `redis-server` binary is installed (the message says how to install one:
    /// `apt-get install redis-server`, or `cargo xtask test`), or when it does not start.
    pub fn start() -> Self {
        expect_started(Self::try_start(), "start redis-server")
    }

    /// Starts `redis-server` on a free loopback port and waits until it answers.
    ///
    /// # Panics
    ///
    /// When no `redis-server` binary is installed, with a message saying how to install one.
    pub fn try_start() -> io::Result<Self> {
        Self::try_start_mode(false)
    }

    /// Starts a one-node Redis Cluster (`--cluster-enabled yes`, every slot assigned to the
    /// node) on a free loopback port and waits until it accepts writes.
    ///
    /// # Panics
    ///
    /// As [`start`](Self::start).
    pub fn start_cluster() -> Self {
        expect_started(
            Self::try_start_mode(true),
            "start a redis-server cluster node",
        )
    }

    /// Starts `redis-server` serving TLS only (`--port 0 --tls-port PORT`, clients not asked
    /// for certificates) on a free loopback port, presenting a certificate for `127.0.0.1` and
    /// `localhost` issued by `ca`, and waits until it answers; [`url`](Self::url) gives
    /// `rediss://127.0.0.1:PORT/0`.
    ///
    /// # Panics
    ///
    /// As [`start`](Self::start); also when the `redis-server` installed was built without
    /// TLS (it then refuses `--tls-port`).
    pub fn start_tls(ca: &TestCa) -> Self {
        expect_started(Self::try_start_tls(ca), "start redis-server with TLS")
    }

    /// Same as [`start_tls`](Self::start_tls), returning the error instead of panicking
    /// (except when no `redis-server` is installed).
    pub fn try_start_tls(ca: &TestCa) -> io::Result<Self> {
        let mut server = Self::unstarted(false)?;
        let identity = ca.localhost()?;
        let dir = server.dir.path();
        std::fs::write(dir.join(CERT_FILE), identity.certificate_pem())?;
        std::fs::write(dir.join(KEY_FILE), identity.key_pem())?;
        std::fs::write(dir.join(CA_FILE), ca.pem())?;
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from(ca.der()))
            .map_err(io::Error::other)?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_root_certificates(roots)
            .with_no_client_auth();
        server.tls = Some(Arc::new(config));
        server.spawn()?;
        Ok(server)
    }

    fn try_start_mode(cluster: bool) -> io::Result<Self> {
        let mut server = Self::unstarted(cluster)?;
        server.spawn()?;
        Ok(server)
    }

    fn unstarted(cluster: bool) -> io::Result<Self> {
        let Some(binary) = find_binary() else {
            panic!(
                "redis-server is not installed (not on PATH, not at {DEBIAN_BINARY}); the fleet \
                 cache tests need a real Redis: install it with `apt-get install redis-server` \
                 (Debian, Ubuntu) or run the tests with `cargo xtask test`, which installs it"
            );
        };
        let server = RedisServer {
            binary,
            port: free_port()?,
            dir: tempfile::tempdir()?,
            child: None,
            cluster,
            tls: None,
        };
        Ok(server)
    }

    fn spawn(&mut self) -> io::Result<()> {
        let mut command = Command::new(&self.binary);
        if self.cluster {
            command
                .args(["--cluster-enabled", "yes"])
                .arg("--cluster-config-file")
                .arg(self.dir.path().join("nodes.conf"));
        }
        if self.tls.is_some() {
            let dir = self.dir.path();
            command
                .args(["--port", "0"])
                .args(["--tls-port", &self.port.to_string()])
                .arg("--tls-cert-file")
                .arg(dir.join(CERT_FILE))
                .arg("--tls-key-file")
                .arg(dir.join(KEY_FILE))
                .arg("--tls-ca-cert-file")
                .arg(dir.join(CA_FILE))
                .args(["--tls-auth-clients", "no"]);
        } else {
            command.args(["--port", &self.port.to_string()]);
        }
        let child = command
            .args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            .args(["--protected-mode", "no"])
            .args(["--enable-debug-command", "local"])
            .arg("--dir")
            .arg(self.dir.path())
            .arg("--logfile")
            .arg(self.dir.path().join(LOG_FILE))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.as_mut().and_then(|child| child.try_wait().ok()?) {
                self.child = None;
                let log =
                    std::fs::read_to_string(self.dir.path().join(LOG_FILE)).unwrap_or_default();
                let last = log.lines().rev().take(3).collect::<Vec<_>>();
                return Err(io::Error::other(format!(
                    "redis-server exited at start ({status}): {}",
                    last.into_iter().rev().collect::<Vec<_>>().join(" / ")
                )));
            }
            match self.command(&["PING"]) {
                Ok(reply) if reply == "+PONG" && !self.cluster => return Ok(()),
                Ok(reply) if reply == "+PONG" => return self.serve_every_slot(),
                _ if started.elapsed() > STARTUP => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("redis-server on port {} did not answer PING", self.port),
                    ))
                }
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    }

    /// Assigns every slot to this cluster node (unless its configuration already does) and
    /// waits until it accepts writes.
    fn serve_every_slot(&self) -> io::Result<()> {
        // Fails harmlessly after a restart: the node kept its slots in nodes.conf.
        let _ = self.command(&["CLUSTER", "ADDSLOTSRANGE", "0", "16383"]);
        let started = Instant::now();
        loop {
            match self.command(&["SET", "robotrules-testserver:probe", "1"]) {
                Ok(reply) if reply == "+OK" => {
                    self.command(&["DEL", "robotrules-testserver:probe"])?;
                    return Ok(());
                }
                _ if started.elapsed() > STARTUP => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!(
                            "the cluster node on port {} never served its slots",
                            self.port
                        ),
                    ))
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// `redis://127.0.0.1:PORT/0`, or `rediss://127.0.0.1:PORT/0` for a TLS server.
    pub fn url(&self) -> String {
        let scheme = if self.tls.is_some() {
            "rediss"
        } else {
            "redis"
        };
        format!("{scheme}://127.0.0.1:{}/0", self.port)
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server (SIGKILL: no goodbye to clients) and waits for it to exit. Its data
    /// is gone (no persistence).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port (empty), killing it first if it runs.
    ///
    /// # Panics
    ///
    /// When it does not start.
    pub fn restart(&mut self) {
        self.kill();
        let started = Instant::now();
        loop {
            match self.spawn() {
                Ok(()) => return,
                // The port may take a moment to be free again.
                Err(error) if started.elapsed() > STARTUP => {
                    panic!("cannot restart redis-server on port {}: {error}", self.port)
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// Sets `maxmemory` (`"1mb"`, `"0"` for no limit) and `maxmemory-policy` (`"noeviction"`
    /// refuses writes with `OOM` once full).
    ///
    /// # Panics
    ///
    /// When Redis refuses the setting.
    pub fn set_maxmemory(&self, maxmemory: &str, policy: &str) {
        for (name, value) in [("maxmemory-policy", policy), ("maxmemory", maxmemory)] {
            match self.command(&["CONFIG", "SET", name, value]) {
                Ok(reply) if reply == "+OK" => {}
                other => panic!("CONFIG SET {name} {value}: {other:?}"),
            }
        }
    }

    /// Sends one command and returns the first line of the reply (`+OK`, `:1`, `-ERR …`,
    /// `$5` for a bulk string).
    pub fn command(&self, args: &[&str]) -> io::Result<String> {
        let args: Vec<&[u8]> = args.iter().map(|arg| arg.as_bytes()).collect();
        self.command_bytes(&args)
    }

    /// Sends one command with binary arguments and returns the first line of the reply (over
    /// TLS for a TLS server).
    pub fn command_bytes(&self, args: &[&[u8]]) -> io::Result<String> {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(1))?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut request = format!("*{}\r\n", args.len()).into_bytes();
        for arg in args {
            request.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
            request.extend_from_slice(arg);
            request.extend_from_slice(b"\r\n");
        }
        let mut line = String::new();
        match &self.tls {
            None => {
                let mut stream = stream;
                stream.write_all(&request)?;
                BufReader::new(stream).read_line(&mut line)?;
            }
            Some(config) => {
                let name = ServerName::IpAddress(Ipv4Addr::LOCALHOST.into());
                let connection = rustls::ClientConnection::new(Arc::clone(config), name)
                    .map_err(io::Error::other)?;
                let mut stream = rustls::StreamOwned::new(connection, stream);
                stream.write_all(&request)?;
                BufReader::new(stream).read_line(&mut line)?;
            }
        }
        Ok(line.trim_end().to_owned())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

//! A real `redis-server` on a free loopback port for the fleet tests (never a mock): started
//! with no persistence (`--save '' --appendonly no`) in a temporary directory, killed and
//! restarted on the same port to test outages, reconfigured (`maxmemory`) to test refused
//! writes, and sent raw commands to corrupt entries or pause the server.
//!
//! The binary is `redis-server` on `PATH`, else `/usr/bin/redis-server`. When there is none
//! the tests cannot run, and [`RedisServer::start`] panics saying how to install it: a test
//! of the fleet cache never skips silently.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

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
}

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

/// A port nothing listens on now (bound, then released).
fn free_port() -> io::Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?.port())
}

impl RedisServer {
    /// Starts `redis-server` on a free loopback port and waits until it answers.
    ///
    /// # Panics
    ///
    /// When no `redis-server` binary is installed (the message says how to install one:
    /// `apt-get install redis-server`, or `cargo xtask test`), or when it does not start.
    pub fn start() -> Self {
        match Self::try_start() {
            Ok(server) => server,
            Err(error) => panic!("cannot start redis-server on 127.0.0.1: {error}"),
        }
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
        match Self::try_start_mode(true) {
            Ok(server) => server,
            Err(error) => panic!("cannot start a redis-server cluster node on 127.0.0.1: {error}"),
        }
    }

    fn try_start_mode(cluster: bool) -> io::Result<Self> {
        let Some(binary) = find_binary() else {
            panic!(
                "redis-server is not installed (not on PATH, not at {DEBIAN_BINARY}); the fleet \
                 cache tests need a real Redis: install it with `apt-get install redis-server` \
                 (Debian, Ubuntu) or run the tests with `cargo xtask test`, which installs it"
            );
        };
        let mut server = RedisServer {
            binary,
            port: free_port()?,
            dir: tempfile::tempdir()?,
            child: None,
            cluster,
        };
        server.spawn()?;
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
        let child = command
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            .args(["--protected-mode", "no"])
            .args(["--enable-debug-command", "local"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        self.child = Some(child);
        let started = Instant::now();
        loop {
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

    /// `redis://127.0.0.1:PORT/0`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
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

    /// Sends one command with binary arguments and returns the first line of the reply.
    pub fn command_bytes(&self, args: &[&[u8]]) -> io::Result<String> {
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(1))?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut request = format!("*{}\r\n", args.len()).into_bytes();
        for arg in args {
            request.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
            request.extend_from_slice(arg);
            request.extend_from_slice(b"\r\n");
        }
        stream.write_all(&request)?;
        let mut line = String::new();
        BufReader::new(stream).read_line(&mut line)?;
        Ok(line.trim_end().to_owned())
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

//! The harness the end-to-end tests share: run the `robotrules` binary as a user would
//! (arguments, standard input, environment) and check what it gave back, robots.txt files
//! written to temporary directories, and [`Sites`]: loopback HTTP servers that count their
//! robots.txt requests.

pub(crate) mod serve;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The prefix of every error line on standard error.
const ERROR_PREFIX: &str = "robotrules: error: ";

/// The environment variables that would send the binary's requests through a proxy.
const PROXY_VARIABLES: [&str; 6] = [
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
];

/// What a run of the binary gave back.
#[derive(Debug)]
pub(crate) struct Run {
    /// The exit status.
    pub(crate) code: i32,
    /// Standard output.
    pub(crate) stdout: String,
    /// Standard error.
    pub(crate) stderr: String,
}

impl Run {
    /// The lines of standard output.
    pub(crate) fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    /// Standard output as one JSON value.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap()
    }

    /// Asserts a usage or input error: exit 2, nothing on stdout, and the one stderr line of
    /// [`Run::assert_one_line_error`].
    pub(crate) fn assert_error(&self, fragment: &str) {
        assert_eq!(self.stdout, "", "{self:?}");
        self.assert_one_line_error(fragment);
    }

    /// Asserts an error after whatever stdout already holds: exit 2 and exactly one stderr
    /// line, ended, with the common prefix and `fragment` in it.
    pub(crate) fn assert_one_line_error(&self, fragment: &str) {
        assert_eq!(self.code, 2, "{self:?}");
        let lines: Vec<_> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{self:?}");
        assert!(self.stderr.ends_with('\n'), "{self:?}");
        assert!(lines[0].starts_with(ERROR_PREFIX), "{self:?}");
        assert!(lines[0].contains(fragment), "{fragment:?} not in {self:?}");
    }
}

/// How the binary is run; the default inherits the environment and reads output as UTF-8,
/// failing the test on any other byte.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Harness {
    /// Sets `NO_COLOR=1`, so rendered text never carries colour codes.
    pub(crate) no_color: bool,
    /// Removes the proxy variables (the test servers are on loopback).
    pub(crate) without_proxies: bool,
    /// Reads output that is not UTF-8 with U+FFFD for its bad bytes instead of failing.
    pub(crate) lossy: bool,
}

impl Harness {
    /// For tests against the loopback servers: without proxies from the environment.
    pub(crate) const LOOPBACK: Harness = Harness {
        no_color: false,
        without_proxies: true,
        lossy: false,
    };

    /// `robotrules ARGS` in this environment, with every stream piped.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_robotrules"));
        if self.no_color {
            command.env("NO_COLOR", "1");
        }
        if self.without_proxies {
            for proxy in PROXY_VARIABLES {
                command.env_remove(proxy);
            }
        }
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// Runs `robotrules ARGS` with `stdin` on standard input (written from a thread, so a
    /// large input the binary stops reading cannot block the test).
    pub(crate) fn run(&self, args: &[&str], stdin: &[u8]) -> Run {
        self.run_command(self.command(args), stdin)
    }

    /// As [`Harness::run`], in the directory `dir` (so relative paths in the output are
    /// short and stable).
    pub(crate) fn run_in(&self, dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> Run {
        let mut command = self.command(args);
        command.current_dir(dir);
        self.run_command(command, stdin)
    }

    fn run_command(&self, mut command: Command, stdin: &[u8]) -> Run {
        let mut child = command.spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        let stdin = stdin.to_vec();
        // The binary may stop reading early (a closed pipe is then expected), so errors are
        // ignored.
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&stdin);
        });
        let output = child.wait_with_output().unwrap();
        writer.join().unwrap();
        Run {
            code: output.status.code().unwrap(),
            stdout: self.text(output.stdout),
            stderr: self.text(output.stderr),
        }
    }

    /// `bytes` as text, lossily or strictly.
    fn text(&self, bytes: Vec<u8>) -> String {
        if self.lossy {
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            String::from_utf8(bytes).unwrap()
        }
    }
}

/// Runs `robotrules ARGS` with `stdin` in the default [`Harness`].
pub(crate) fn run(args: &[&str], stdin: &[u8]) -> Run {
    Harness::default().run(args, stdin)
}

/// Runs `robotrules ARGS` with `stdin` against loopback servers ([`Harness::LOOPBACK`]).
pub(crate) fn run_loopback(args: &[&str], stdin: &[u8]) -> Run {
    Harness::LOOPBACK.run(args, stdin)
}

/// The robots.txt the loopback [`Sites`] of the `batch` and `cache` tests serve: `/private/`
/// is disallowed, `/private/press/` and everything else allowed.
pub(crate) const SITE_ROBOTS: &str = "User-agent: *
Disallow: /private/
Allow: /private/press/
";

/// A robots.txt written to a temporary directory that lives as long as the value.
pub(crate) struct Fixture {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Fixture {
    /// A file `robots.txt` holding `content`.
    pub(crate) fn new(content: &[u8]) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("robots.txt");
        std::fs::write(&path, content).unwrap();
        Fixture { _dir: dir, path }
    }

    /// The file's path, as an argument.
    pub(crate) fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }

    /// The directory the file is in.
    pub(crate) fn dir(&self) -> &std::path::Path {
        self._dir.path()
    }
}

/// Sites, each a real HTTP server on 127.0.0.1 answering `/robots.txt` its own way, on one
/// background runtime; the robots.txt requests are counted at the servers.
pub(crate) struct Sites {
    pub(crate) servers: Vec<robotrules_testserver::http::HttpServer>,
    _background: robotrules_testserver::Background,
}

impl Sites {
    /// One site per reply.
    pub(crate) fn new(replies: Vec<robotrules_testserver::http::Reply>) -> Sites {
        let background = robotrules_testserver::Background::new().unwrap();
        let servers = replies
            .into_iter()
            .map(|reply| {
                let server = background.http().unwrap();
                server.route("/robots.txt", reply);
                server
            })
            .collect();
        Sites {
            servers,
            _background: background,
        }
    }

    /// `count` sites that all answer with `reply`.
    pub(crate) fn alike(count: usize, reply: &robotrules_testserver::http::Reply) -> Sites {
        Sites::new(vec![reply.clone(); count])
    }

    /// The URL of `path` on site `site`.
    pub(crate) fn url(&self, site: usize, path: &str) -> String {
        self.servers[site].url(path)
    }

    /// The robots.txt requests site `site` has answered.
    pub(crate) fn hits(&self, site: usize) -> usize {
        self.servers[site].hits("/robots.txt")
    }

    /// The robots.txt requests every site together has answered.
    pub(crate) fn total_hits(&self) -> usize {
        self.servers.iter().map(|s| s.hits("/robots.txt")).sum()
    }
}

//! `robotrules serve` as the tests run it: the real binary on a free loopback port (it prints
//! its address), stopped when dropped; and a plain HTTP/1.1 client over a `TcpStream`, so the
//! tests see exactly the bytes the server sends.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `robotrules serve`.
pub(crate) struct Server {
    child: Child,
    /// Where it listens.
    pub(crate) addr: SocketAddr,
}

impl Server {
    /// `robotrules serve --listen 127.0.0.1:0` with `extra` arguments; waits for its address.
    pub(crate) fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_robotrules"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(extra)
            .env_remove("http_proxy")
            .env_remove("HTTP_PROXY")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("robotrules serve starts");
        let stdout = child.stdout.take().expect("a pipe");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("robotrules serve prints its address");
        let addr = line
            .trim()
            .strip_prefix("robotrules serve: listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|addr| addr.parse().ok())
            .unwrap_or_else(|| panic!("not an address line: {line:?}"));
        Server { child, addr }
    }

    /// The CPU time the server process has used so far, user and system
    /// (`/proc/PID/stat`, in clock ticks of 1/100 s, the `USER_HZ` of every Linux ABI).
    #[cfg(target_os = "linux")]
    pub(crate) fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("the server's /proc/PID/stat");
        // The fields after the command name, which is in parentheses and may hold spaces:
        // state is field 3, utime field 14 and stime field 15.
        let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
        let fields: Vec<&str> = rest.split(' ').collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        Duration::from_millis(ticks * 10)
    }

    /// `http://ADDR{path}`.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `POST /api/{endpoint}` with a JSON body.
    pub(crate) fn api(&self, endpoint: &str, body: &serde_json::Value) -> Response {
        let body = serde_json::to_vec(body).expect("JSON");
        self.request(
            "POST",
            &format!("/api/{endpoint}"),
            &[("Content-Type", "application/json")],
            &body,
        )
    }

    /// One request on its own connection.
    pub(crate) fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Response {
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("host"))
        {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("write");
        // The server may answer (413) before the whole body is sent and close.
        let _ = stream.write_all(body);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        Response::parse(&raw)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response as received.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Response {
    fn parse(raw: &[u8]) -> Response {
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split(' ').nth(1))
            .and_then(|code| code.parse().ok())
            .expect("a status line");
        let headers = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
            .collect();
        Response {
            status,
            headers,
            body: raw[split + 4..].to_vec(),
        }
    }

    /// The value of header `name` (any case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("{e}: {:?}", String::from_utf8_lossy(&self.body)))
    }

    /// The `error` message of a JSON error body.
    pub(crate) fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {:?}", self))
            .to_owned()
    }
}

//! An HTTP/1.1 server written on a raw tokio `TcpListener`, so a test can make it answer
//! anything: proper responses, garbage, resets, stalls, broken chunking, lying lengths,
//! endless bodies, compression bombs, late answers, or nothing at all. The same server
//! speaks HTTPS when started through [`crate::tls`].

use std::collections::HashMap;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use flate2::Compression;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::loopback::{accept_each, bind_loopback, expect_started, Task};

/// The longest a connection handler keeps a stalled or silent connection open.
const MAX_HOLD: Duration = Duration::from_secs(20);

/// What the server does with a request.
#[derive(Clone, Debug)]
pub enum Reply {
    /// A complete response with a correct Content-Length, then close.
    Response {
        /// The status code (any number; the reason phrase is always `Status`).
        status: u16,
        /// Header lines, in order (`Connection: close` and `Content-Length` are added).
        headers: Vec<(String, String)>,
        /// The body.
        body: Vec<u8>,
    },
    /// These bytes verbatim, then close.
    Raw(Vec<u8>),
    /// These bytes, then keep the connection open without sending more.
    StallAfter(Vec<u8>),
    /// These bytes, then reset the connection (RST).
    ResetAfter(Vec<u8>),
    /// Read the request and never answer.
    Silent,
    /// Read the request and close without answering.
    CloseWithoutAnswer,
    /// A 200 response announcing `total` bytes (Content-Length), streamed as repetitions of
    /// `line` until the total is reached or the client goes away.
    Endless {
        /// The line repeated.
        line: Vec<u8>,
        /// Bytes announced and sent at most.
        total: u64,
    },
    /// A 200 response with `Content-Encoding: gzip` whose body decompresses to about `total`
    /// bytes of `line` repetitions (see [`gzip_bomb`]).
    GzipBomb {
        /// The line repeated.
        line: Vec<u8>,
        /// Decompressed size, about.
        total: u64,
    },
    /// Wait, then answer with the inner reply (for tests where callers must overlap).
    Delayed(Duration, Box<Reply>),
}

impl Reply {
    /// A response with `status`, no headers and an empty body.
    pub fn status(status: u16) -> Self {
        Reply::Response {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    /// A 200 `text/plain` response with `body`.
    pub fn ok(body: impl Into<Vec<u8>>) -> Self {
        Reply::Response {
            status: 200,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: body.into(),
        }
    }

    /// A redirect response with `status` to `location`.
    pub fn redirect(status: u16, location: &str) -> Self {
        Reply::status(status).header("Location", location)
    }

    /// Adds a header to a `Response`.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        if let Reply::Response { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    /// Removes all headers of a `Response`.
    pub fn without_headers(mut self) -> Self {
        if let Reply::Response { headers, .. } = &mut self {
            headers.clear();
        }
        self
    }

    /// A 200 `text/plain` response with `body` sent gzip-compressed
    /// (`Content-Encoding: gzip`).
    pub fn gzipped(body: &[u8]) -> Self {
        use flate2::write::GzEncoder;
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        // Writing into a Vec cannot fail.
        let _ = encoder.write_all(body);
        Reply::Response {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/plain".into()),
                ("Content-Encoding".into(), "gzip".into()),
            ],
            body: encoder.finish().unwrap_or_default(),
        }
    }

    /// This reply, sent after `delay`.
    pub fn after(self, delay: Duration) -> Self {
        Reply::Delayed(delay, Box::new(self))
    }
}

/// A request as the server saw it.
#[derive(Clone, Debug)]
pub struct Request {
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The request target as sent (`/robots.txt`).
    pub path: String,
    /// Header lines, in order.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The host name of the `Host` header, without its port (empty when there is none).
    pub fn host(&self) -> &str {
        let host = self.header("host").unwrap_or_default();
        match host.rfind(':') {
            // `[::1]:8080` and `example.com:8080`, but not a bare `[::1]`.
            Some(colon) if !host[colon..].contains(']') => &host[..colon],
            _ => host,
        }
    }

    /// The first header called `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

#[derive(Default)]
struct State {
    routes: Mutex<HashMap<String, Reply>>,
    requests: Mutex<Vec<Request>>,
    /// Body bytes written by `Endless`.
    streamed: AtomicU64,
    /// Signalled when an `Endless` handler has stopped writing.
    stream_done: tokio::sync::Notify,
    /// Requests being answered right now (read, their reply not started), and the most there
    /// ever were at once.
    in_flight: AtomicU64,
    max_in_flight: AtomicU64,
}

/// Counts a request as being answered until dropped.
struct Answering(Arc<State>);

impl Answering {
    fn start(state: &Arc<State>) -> Answering {
        let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_in_flight.fetch_max(now, Ordering::SeqCst);
        Answering(Arc::clone(state))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A connection the server answers on: a TCP stream, or TLS over one.
pub(crate) trait Connection: AsyncRead + AsyncWrite + Unpin + Send + 'static {
    /// The TCP stream underneath (a reset sets its linger time to zero).
    fn tcp(&self) -> &TcpStream;
}

impl Connection for TcpStream {
    fn tcp(&self) -> &TcpStream {
        self
    }
}

/// A running server; it stops when dropped.
pub struct HttpServer {
    addr: SocketAddr,
    /// `http`, or `https` for a server started through [`crate::tls`].
    scheme: &'static str,
    state: Arc<State>,
    _task: Task,
}

impl HttpServer {
    /// Starts a server on 127.0.0.1 with a free port; unrouted paths answer 404. Must be
    /// called inside a tokio runtime, which runs the server until it is dropped.
    ///
    /// # Panics
    /// When no loopback port can be bound (a broken test environment); see
    /// [`HttpServer::try_start`].
    pub async fn start() -> Self {
        expect_started(Self::try_start().await, "start the test HTTP server")
    }

    /// Same as [`HttpServer::start`], returning the error instead of panicking.
    pub async fn try_start() -> std::io::Result<Self> {
        let (listener, addr) = bind_loopback().await?;
        Ok(Self::serve_on(
            listener,
            addr,
            "http",
            |stream| async move { Some(stream) },
        ))
    }

    /// Serves the routes on `listener` (bound to `addr`), each accepted stream first turned
    /// into a connection by `open` (a TLS handshake; `None` drops the stream).
    pub(crate) fn serve_on<C, O, F>(
        listener: TcpListener,
        addr: SocketAddr,
        scheme: &'static str,
        open: O,
    ) -> Self
    where
        C: Connection,
        O: Fn(TcpStream) -> F + Send + Sync + 'static,
        F: Future<Output = Option<C>> + Send + 'static,
    {
        let state = Arc::new(State::default());
        let accept_state = Arc::clone(&state);
        let task = accept_each(listener, move |stream| {
            let state = Arc::clone(&accept_state);
            let opening = open(stream);
            async move {
                let _ = tokio::time::timeout(MAX_HOLD, async move {
                    if let Some(connection) = opening.await {
                        serve(connection, state).await;
                    }
                })
                .await;
            }
        });
        Self {
            addr,
            scheme,
            state,
            _task: task,
        }
    }

    /// Sets the reply for `path` (the request target as sent, query included) on every host
    /// name without a route of its own.
    pub fn route(&self, path: &str, reply: Reply) -> &Self {
        lock(&self.state.routes).insert(path.to_owned(), reply);
        self
    }

    /// Sets the reply for `path` on host name `host` only (the `Host` header without its
    /// port, any case). With a name per test, one server keeps many tests apart; point the
    /// names at [`HttpServer::addr`] (for example with `FetchOptions::resolve`).
    pub fn route_on(&self, host: &str, path: &str, reply: Reply) -> &Self {
        lock(&self.state.routes).insert(host_route(host, path), reply);
        self
    }

    /// The address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:PORT{path}` (`https://` for a TLS server, `[::1]` for one on IPv6).
    pub fn url(&self, path: &str) -> String {
        format!("{}://{}{path}", self.scheme, self.addr)
    }

    /// `http://{host}:PORT{path}` (`https://` for a TLS server).
    pub fn url_on(&self, host: &str, path: &str) -> String {
        format!("{}://{host}:{}{path}", self.scheme, self.port())
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        lock(&self.state.requests).clone()
    }

    /// How many requests for `path` were received.
    pub fn hits(&self, path: &str) -> usize {
        self.requests().iter().filter(|r| r.path == path).count()
    }

    /// How many requests for `path` on host name `host` were received.
    pub fn hits_on(&self, host: &str, path: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.path == path && r.host().eq_ignore_ascii_case(host))
            .count()
    }

    /// The most requests the server was answering at the same time (from reading a request to
    /// the start of its reply: a client cannot have the reply before then).
    pub fn max_in_flight(&self) -> u64 {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }

    /// Body bytes written by `Endless` replies.
    pub fn streamed(&self) -> u64 {
        self.state.streamed.load(Ordering::SeqCst)
    }

    /// Waits until an `Endless` handler has stopped writing (the client went away or the
    /// body was complete), at most `limit`; true if it did.
    pub async fn stream_finished(&self, limit: Duration) -> bool {
        tokio::time::timeout(limit, self.state.stream_done.notified())
            .await
            .is_ok()
    }
}

/// The route key of `path` on `host`: `//host/path`, which no request target starts with.
fn host_route(host: &str, path: &str) -> String {
    format!("//{}{path}", host.to_ascii_lowercase())
}

/// Locks `mutex`, also when a panicking test thread poisoned it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn serve<C: Connection>(mut stream: C, state: Arc<State>) {
    let Some(request) = read_request(&mut stream).await else {
        return;
    };
    let answering = Answering::start(&state);
    let mut reply = {
        let routes = lock(&state.routes);
        routes
            .get(&host_route(request.host(), &request.path))
            .or_else(|| routes.get(&request.path))
            .cloned()
            .unwrap_or_else(|| Reply::status(404))
    };
    lock(&state.requests).push(request);
    while let Reply::Delayed(delay, inner) = reply {
        tokio::time::sleep(delay).await;
        reply = *inner;
    }
    // Counted until the reply starts: a client that has the whole reply may start its next
    // request before this task would get past the write, and the two would be counted at once.
    drop(answering);
    match reply {
        Reply::Response {
            status,
            headers,
            body,
        } => {
            let mut out = head(status, &headers);
            out.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            out.extend_from_slice(&body);
            let _ = stream.write_all(&out).await;
            let _ = stream.shutdown().await;
        }
        Reply::Raw(bytes) => {
            let _ = stream.write_all(&bytes).await;
            let _ = stream.shutdown().await;
        }
        Reply::StallAfter(bytes) => {
            let _ = stream.write_all(&bytes).await;
            hold(&mut stream).await;
        }
        Reply::ResetAfter(bytes) => {
            let _ = stream.write_all(&bytes).await;
            let _ = stream.flush().await;
            // Let the bytes leave before the reset discards the send buffer.
            tokio::time::sleep(Duration::from_millis(50)).await;
            let _ = stream.tcp().set_zero_linger();
            drop(stream);
        }
        Reply::Silent => hold(&mut stream).await,
        Reply::CloseWithoutAnswer => {}
        Reply::Endless { line, total } => {
            let mut out = head(200, &[("Content-Type".into(), "text/plain".into())]);
            out.extend_from_slice(format!("Content-Length: {total}\r\n\r\n").as_bytes());
            if stream.write_all(&out).await.is_err() {
                return;
            }
            let block = repeat_to(&line, 64 * 1024);
            let mut sent = 0_u64;
            while sent < total {
                let n = block.len().min((total - sent) as usize);
                if stream.write_all(&block[..n]).await.is_err() {
                    break;
                }
                sent += n as u64;
                state.streamed.fetch_add(n as u64, Ordering::SeqCst);
            }
            state.stream_done.notify_one();
        }
        Reply::Delayed(..) => {}
        Reply::GzipBomb { line, total } => {
            let mut out = head(
                200,
                &[
                    ("Content-Type".into(), "text/plain".into()),
                    ("Content-Encoding".into(), "gzip".into()),
                ],
            );
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(&gzip_bomb(&line, total));
            let _ = stream.write_all(&out).await;
            let _ = stream.shutdown().await;
        }
    }
}

fn head(status: u16, headers: &[(String, String)]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} Status\r\nConnection: close\r\n").into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out
}

fn repeat_to(line: &[u8], size: usize) -> Vec<u8> {
    let count = (size / line.len()).max(1);
    line.repeat(count)
}

/// Keeps the connection open until the client closes it (or `MAX_HOLD` ends the handler).
async fn hold<C: Connection>(stream: &mut C) {
    let mut sink = [0_u8; 1024];
    while let Ok(n) = stream.read(&mut sink).await {
        if n == 0 {
            return;
        }
    }
}

async fn read_request<C: Connection>(stream: &mut C) -> Option<Request> {
    let mut buffer = Vec::new();
    let mut chunk = [0_u8; 4096];
    while !buffer.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || buffer.len() > 64 * 1024 {
            return None;
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&buffer);
    let mut lines = text.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_owned();
    let path = request_line.next()?.to_owned();
    let headers = lines
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .collect();
    Some(Request {
        method,
        path,
        headers,
    })
}

/// A gzip stream that decompresses to `total` bytes (rounded down to whole 1 MiB-ish blocks of
/// whole lines) of `line` repetitions, built without compressing all of it: once the window
/// holds the same periodic data at every block boundary, the compressed form of one block
/// (sync-flushed, so it is byte-aligned) decodes correctly after any earlier block.
pub fn gzip_bomb(line: &[u8], total: u64) -> Vec<u8> {
    use flate2::write::DeflateEncoder;
    use flate2::Crc;

    let block = repeat_to(line, 1024 * 1024);
    let blocks = (total / block.len() as u64).max(2);
    // Writing into a Vec cannot fail.
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    let _ = encoder.write_all(&block);
    let _ = encoder.flush();
    let first = std::mem::take(encoder.get_mut());
    let _ = encoder.write_all(&block);
    let _ = encoder.flush();
    let steady = std::mem::take(encoder.get_mut());
    let last = encoder.finish().unwrap_or_default();

    let mut block_crc = Crc::new();
    block_crc.update(&block);
    let mut crc = Crc::new();
    for _ in 0..blocks {
        crc.combine(&block_crc);
    }
    let size = (blocks * block.len() as u64) as u32; // ISIZE is the length modulo 2^32

    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
    out.extend_from_slice(&first);
    for _ in 1..blocks {
        out.extend_from_slice(&steady);
    }
    out.extend_from_slice(&last);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&size.to_le_bytes());
    out
}

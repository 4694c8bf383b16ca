//! What one tester allows: how long a request may take, how large its body and how many URLs
//! it may ask about, how many computations (and how many heavy ones) run at once, and the
//! [`Config`] a server's requests share. The route handlers ([`super::api`], [`super::http`])
//! read them from here.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

/// The largest request body accepted (1 MiB); a larger one is answered 413.
pub(crate) const MAX_BODY: usize = 1 << 20;

/// How long one request may take, its body included; past it the answer is 503 and its
/// computation stops (the commands' loops ask a `Deadline`).
pub(crate) const DEADLINE: Duration = Duration::from_secs(10);

/// A lint, explain, show or diff request with a body larger than this is heavy (most
/// robots.txt files are below 16 KiB; the largest the parse limit reads are 500 KiB).
pub(crate) const HEAVY_BODY: usize = 64 * 1024;

/// How many heavy requests are computed at once; another is answered 503 with `Retry-After`
/// at once, so that a few posts of large files cannot hold every core.
pub(crate) const MAX_HEAVY: usize = 2;

/// The `Retry-After` of a heavy request refused because [`MAX_HEAVY`] are running, in seconds.
pub(crate) const RETRY_AFTER: u32 = 1;

/// The most URLs one request may ask about (`/api/check`, `/api/diff`): the static tester's
/// limit too.
pub(crate) const MAX_URLS: usize = robotrules_tester_api::check::MAX_URLS;

/// How many computations (every endpoint but fetch) run at once, each on a blocking thread;
/// more wait their turn within their deadline, so a flood of requests cannot start a thread
/// each.
pub(crate) const MAX_COMPUTATIONS: usize = 8;

/// How the server was started, and what its requests share.
#[derive(Debug)]
pub(crate) struct Config {
    /// `--allow-private-fetch`.
    pub(crate) allow_private_fetch: bool,
    /// Whether the server listens on a loopback address: then it answers only requests
    /// whose `Host` is a loopback address or `localhost`, so that a web page cannot reach it
    /// through a name of its own that it points at 127.0.0.1 (DNS rebinding).
    pub(crate) loopback: bool,
    /// Turns to compute, [`MAX_COMPUTATIONS`] at a time; a turn is held by the blocking
    /// thread until it ends, which is at the latest when its loops next see the deadline.
    pub(crate) computations: Arc<Semaphore>,
    /// Turns for heavy requests, [`MAX_HEAVY`] at a time, taken without waiting.
    pub(crate) heavy: Arc<Semaphore>,
    /// How long a request may take ([`DEADLINE`]; shorter for the tests of the deadline).
    pub(crate) deadline: Duration,
}

impl Config {
    /// The configuration of a server started with `--allow-private-fetch` or not, listening on
    /// a loopback address or not.
    pub(crate) fn new(allow_private_fetch: bool, loopback: bool) -> Config {
        Config {
            allow_private_fetch,
            loopback,
            computations: Arc::new(Semaphore::new(MAX_COMPUTATIONS)),
            heavy: Arc::new(Semaphore::new(MAX_HEAVY)),
            deadline: DEADLINE,
        }
    }
}

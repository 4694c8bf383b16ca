//! What every server here stands on: a listener on a free loopback port, connections
//! accepted each on a task of its own, the task that stops the server when dropped, and the
//! panic of a server that could not start.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A server's background task; dropping it stops the server.
#[derive(Debug)]
pub(crate) struct Task(pub(crate) JoinHandle<()>);

impl Drop for Task {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A listener on 127.0.0.1 with a free port, and its address.
pub(crate) async fn bind_loopback() -> io::Result<(TcpListener, SocketAddr)> {
    bind(IpAddr::V4(Ipv4Addr::LOCALHOST)).await
}

/// A listener on `ip` (a loopback address) with a free port, and its address.
pub(crate) async fn bind(ip: IpAddr) -> io::Result<(TcpListener, SocketAddr)> {
    let listener = TcpListener::bind(SocketAddr::new(ip, 0)).await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}

/// Accepts connections on `listener` until accepting fails, each handled by `handle` on a task
/// of its own. Must be called inside a tokio runtime.
pub(crate) fn accept_each<H, F>(listener: TcpListener, handle: H) -> Task
where
    H: Fn(TcpStream) -> F + Send + 'static,
    F: Future<Output = ()> + Send + 'static,
{
    Task(tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(handle(stream));
        }
    }))
}

/// The server `started`; when it could not start, a panic saying `what` failed on 127.0.0.1
/// (a broken test environment).
pub(crate) fn expect_started<T>(started: io::Result<T>, what: &str) -> T {
    match started {
        Ok(server) => server,
        Err(error) => panic!("cannot {what} on 127.0.0.1: {error}"),
    }
}

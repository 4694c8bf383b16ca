//! The connection to Redis: one server through redis-rs' reconnecting, lazily connecting
//! `ConnectionManager`, or a Redis Cluster connected on first use; every command bounded by
//! the command timeout and its failure classified.

use std::fmt;
use std::time::Duration;

use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::{Cmd, FromRedisValue, RedisError, ScriptInvocation};
use tokio::sync::Mutex;

use super::error::FleetError;

/// Why a command did not succeed.
#[derive(Debug)]
pub(super) enum Failure {
    /// No answer within the command timeout.
    Timeout,
    /// Redis answered with an error, or the connection failed.
    Error(RedisError),
}

impl Failure {
    /// The Redis error code (`WRONGTYPE`, `OOM`, `NOAUTH`, …), if Redis sent one.
    pub(super) fn code(&self) -> Option<&str> {
        match self {
            Failure::Timeout => None,
            Failure::Error(error) => error.code(),
        }
    }

    /// Whether Redis refused the credentials.
    pub(super) fn is_auth(&self) -> bool {
        match self {
            Failure::Timeout => false,
            Failure::Error(error) => {
                error.kind() == redis::ErrorKind::AuthenticationFailed
                    || matches!(error.code(), Some("NOAUTH" | "WRONGPASS" | "NOPERM"))
            }
        }
    }

    /// The failure of a command to `target` (the Redis URL, password hidden) as a
    /// [`FleetError`] that names it.
    pub(super) fn into_error(self, timeout: Duration, target: &str) -> FleetError {
        match self {
            Failure::Timeout => FleetError::Timeout {
                target: target.to_owned(),
                timeout_ms: timeout.as_millis(),
            },
            failure if failure.is_auth() => FleetError::Auth(format!("{target}: {failure}")),
            Failure::Error(error) => {
                FleetError::Redis(format!("{target}: {}", one_line(&error.to_string())))
            }
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Timeout => f.write_str("timed out"),
            Failure::Error(error) => f.write_str(&one_line(&error.to_string())),
        }
    }
}

/// `text` on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A single server or a cluster.
pub(super) enum Backend {
    /// One server (or a proxy in front of many), reconnecting by itself.
    Single(ConnectionManager),
    /// A Redis Cluster: connected on first use, again after a failure.
    Cluster(Box<Cluster>),
}

/// A Redis Cluster's client and its connection, once made.
pub(super) struct Cluster {
    client: ClusterClient,
    connection: Mutex<Option<ClusterConnection>>,
}

impl fmt::Debug for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::Single(_) => "Single",
            Backend::Cluster(_) => "Cluster",
        })
    }
}

impl Backend {
    /// A lazily connecting manager for the server at `client`: nothing is sent until the
    /// first command; a lost connection is made again on the next command.
    pub(super) fn single(client: redis::Client, timeout: Duration) -> Result<Self, RedisError> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(timeout))
            .set_number_of_retries(1)
            .set_min_delay(Duration::from_millis(10))
            .set_max_delay(Duration::from_millis(100));
        ConnectionManager::new_lazy_with_config(client, config).map(Backend::Single)
    }

    /// A cluster of `client`'s nodes, connected on first use.
    pub(super) fn cluster(client: ClusterClient) -> Self {
        Backend::Cluster(Box::new(Cluster {
            client,
            connection: Mutex::new(None),
        }))
    }

    /// Runs `cmd` within `timeout`.
    pub(super) async fn run<T: FromRedisValue>(
        &self,
        cmd: &Cmd,
        timeout: Duration,
    ) -> Result<T, Failure> {
        self.within(timeout, |mut connection| async move {
            cmd.query_async(&mut connection).await
        })
        .await
    }

    /// Runs the script invocation within `timeout`.
    pub(super) async fn invoke<T: FromRedisValue>(
        &self,
        invocation: &ScriptInvocation<'_>,
        timeout: Duration,
    ) -> Result<T, Failure> {
        self.within(timeout, |mut connection| async move {
            invocation.invoke_async(&mut connection).await
        })
        .await
    }

    async fn within<T, F, Fut>(&self, timeout: Duration, command: F) -> Result<T, Failure>
    where
        F: FnOnce(Connection) -> Fut,
        Fut: std::future::Future<Output = redis::RedisResult<T>>,
    {
        let attempt = async {
            let connection = self.connection().await?;
            let result = command(connection).await;
            if let (Err(error), Backend::Cluster(cluster)) = (&result, self) {
                if error.is_unrecoverable_error() || error.is_io_error() {
                    *cluster.connection.lock().await = None;
                }
            }
            result
        };
        match tokio::time::timeout(timeout, attempt).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) if error.is_timeout() => Err(Failure::Timeout),
            Ok(Err(error)) => Err(Failure::Error(error)),
            Err(_) => Err(Failure::Timeout),
        }
    }

    async fn connection(&self) -> redis::RedisResult<Connection> {
        match self {
            Backend::Single(manager) => Ok(Connection::Single(manager.clone())),
            Backend::Cluster(cluster) => {
                let mut connection = cluster.connection.lock().await;
                if let Some(connection) = connection.as_ref() {
                    return Ok(Connection::Cluster(connection.clone()));
                }
                let fresh = cluster.client.get_async_connection().await?;
                *connection = Some(fresh.clone());
                Ok(Connection::Cluster(fresh))
            }
        }
    }
}

/// A connection handle for one command.
enum Connection {
    Single(ConnectionManager),
    Cluster(ClusterConnection),
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> redis::RedisFuture<'a, redis::Value> {
        match self {
            Connection::Single(connection) => connection.req_packed_command(cmd),
            Connection::Cluster(connection) => connection.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        cmd: &'a redis::Pipeline,
        offset: usize,
        count: usize,
    ) -> redis::RedisFuture<'a, Vec<redis::Value>> {
        match self {
            Connection::Single(connection) => connection.req_packed_commands(cmd, offset, count),
            Connection::Cluster(connection) => connection.req_packed_commands(cmd, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Connection::Single(connection) => connection.get_db(),
            Connection::Cluster(connection) => connection.get_db(),
        }
    }
}

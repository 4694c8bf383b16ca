//! The TLS `redis-server`: it speaks TLS only, with a certificate from the test CA.

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use robotrules_testserver::redis::RedisServer;
use robotrules_testserver::tls::TestCa;

#[cfg_attr(
    not(feature = "redis-tests"),
    ignore = "starts a redis-server: `cargo xtask test` runs it (or --features redis-tests)"
)]
#[test]
fn a_tls_server_answers_over_tls_only_and_survives_a_restart() {
    let ca = TestCa::new("robotrules redis test CA").unwrap();
    let mut redis = RedisServer::start_tls(&ca);
    assert_eq!(
        redis.url(),
        format!("rediss://127.0.0.1:{}/0", redis.port())
    );
    assert_eq!(redis.command(&["PING"]).unwrap(), "+PONG");

    // Plain RESP on the TLS port gets no answer: the server waits for a ClientHello, then
    // drops what is not one.
    let mut plain = TcpStream::connect(("127.0.0.1", redis.port())).unwrap();
    plain
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    plain.write_all(b"*1\r\n$4\r\nPING\r\n").unwrap();
    let mut reply = [0_u8; 64];
    let read = std::io::Read::read(&mut plain, &mut reply);
    assert!(
        !matches!(read, Ok(n) if reply[..n].starts_with(b"+PONG")),
        "{read:?}"
    );

    redis.restart();
    assert_eq!(redis.command(&["PING"]).unwrap(), "+PONG");
}

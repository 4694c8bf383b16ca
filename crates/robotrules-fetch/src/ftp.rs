//! FTP fetching with suppaftp: anonymous login, passive mode, `RETR /robots.txt` (Google:
//! "on FTP, crawlers use a standard RETR (RETRIEVE) command, using anonymous login";
//! RFC 9309 §2.3 gives `ftp://ftp.example.com/robots.txt` as a robots.txt URI).

use std::io;
use std::net::{IpAddr, SocketAddr};

use suppaftp::tokio::AsyncFtpStream;
use suppaftp::types::{FileType, Response};
use suppaftp::{FtpError, Status};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use crate::body_limit::BodyCollector;
use crate::http::Progress;
use crate::network_error::{classify_io, describe, innermost_message};
use crate::options::FetchOptions;
use crate::outcome::{Access, Hop, TimeoutPhase, UnavailableReason, UnreachableReason};

/// The default FTP port (RFC 959).
pub(crate) const FTP_PORT: u16 = 21;

/// FTP reply code for "file unavailable (e.g., file not found, no access)" (RFC 959).
const FILE_UNAVAILABLE: u32 = 550;

/// Fetches `/robots.txt` from the FTP server at `host:port`.
pub(crate) async fn fetch(
    options: &FetchOptions,
    host: &str,
    port: u16,
    robots_txt_url: &str,
    progress: &mut Progress,
) -> Access {
    match fetch_inner(options, host, port, robots_txt_url, progress).await {
        Ok(access) => access,
        Err(reason) => Access::Unreachable { reason },
    }
}

async fn fetch_inner(
    options: &FetchOptions,
    host: &str,
    port: u16,
    robots_txt_url: &str,
    progress: &mut Progress,
) -> Result<Access, UnreachableReason> {
    let addresses = resolve(options, host, port).await?;
    for address in &addresses {
        options
            .address_policy
            .check(host, address.ip(), Some(address.port()))
            .map_err(|refused| UnreachableReason::from(&refused))?;
    }
    let stream = connect(&addresses, options).await?;
    let mut ftp = AsyncFtpStream::connect_with_stream(stream)
        .await
        .map_err(unreachable)?;
    // Connect data channels to the control connection's peer whatever address PASV names:
    // servers behind NAT announce private addresses, and a hostile server could name a
    // third party.
    ftp.set_passive_nat_workaround(true);
    ftp.login("anonymous", options.ftp_password.as_str())
        .await
        .map_err(|error| match error {
            FtpError::UnexpectedResponse(response) => UnreachableReason::FtpLoginRefused {
                code: reply_code(&response.status),
                message: reply_text(&response.body),
            },
            other => unreachable(other),
        })?;
    ftp.transfer_type(FileType::Binary)
        .await
        .map_err(unreachable)?;
    let mut transfer = match ftp.retr_as_stream("/robots.txt").await {
        Ok(transfer) => transfer,
        Err(FtpError::UnexpectedResponse(response)) => {
            return retr_refused(&response, robots_txt_url, progress);
        }
        Err(other) => return Err(unreachable(other)),
    };
    let mut collector = BodyCollector::new(options.body_limit, None);
    let mut buffer = vec![0_u8; 16 * 1024];
    let mut stopped_at_limit = false;
    loop {
        let read = transfer
            .read(&mut buffer)
            .await
            .map_err(|error| classify_io(&error))?;
        if read == 0 {
            break;
        }
        if collector.push(&buffer[..read]) {
            stopped_at_limit = true;
            break;
        }
    }
    let status = if stopped_at_limit {
        // Closing the data connection abandons the rest of the file.
        drop(transfer);
        Status::AboutToSend
    } else {
        match transfer.finish().await {
            Ok(()) => Status::ClosingDataConnection,
            Err(FtpError::UnexpectedResponse(response)) => {
                // Some servers open the data connection before they look for the file and
                // report a missing file when the transfer completes; any other error means
                // the file was not fully received.
                return retr_refused(&response, robots_txt_url, progress);
            }
            Err(other) => return Err(unreachable(other)),
        }
    };
    progress.chain.push(Hop {
        url: robots_txt_url.to_owned(),
        status: reply_code(&status),
    });
    let (body, truncation) = collector.finish();
    Ok(Access::Success {
        body,
        truncation,
        content_type: None,
    })
}

/// The access result of an error reply to `RETR /robots.txt`, at its start or when the
/// transfer completes, recorded as the last hop: 550 is a missing file (unavailable,
/// RFC 9309 §2.3.1.3), any other reply means the file could not be had (unreachable,
/// §2.3.1.4).
fn retr_refused(
    response: &Response,
    robots_txt_url: &str,
    progress: &mut Progress,
) -> Result<Access, UnreachableReason> {
    let code = reply_code(&response.status);
    let message = reply_text(&response.body);
    progress.chain.push(Hop {
        url: robots_txt_url.to_owned(),
        status: code,
    });
    if response.status.code() == FILE_UNAVAILABLE {
        Ok(Access::Unavailable {
            reason: UnavailableReason::FileNotFound { code, message },
        })
    } else {
        Err(UnreachableReason::FtpError { code, message })
    }
}

/// The addresses for `host`: a configured override, an IP literal, or a DNS answer.
async fn resolve(
    options: &FetchOptions,
    host: &str,
    port: u16,
) -> Result<Vec<SocketAddr>, UnreachableReason> {
    if let Some((_, address)) = options
        .resolve
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(host))
    {
        return Ok(vec![SocketAddr::new(address.ip(), port)]);
    }
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = literal.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|error| UnreachableReason::Dns {
            detail: describe(&error),
        })?
        .collect();
    if addresses.is_empty() {
        return Err(UnreachableReason::Dns {
            detail: format!("no address for {host}"),
        });
    }
    Ok(addresses)
}

/// Connects to the first address that answers within the connect deadline.
async fn connect(
    addresses: &[SocketAddr],
    options: &FetchOptions,
) -> Result<TcpStream, UnreachableReason> {
    let mut last = UnreachableReason::Connect {
        reason: "no address to connect to".to_owned(),
        detail: "no address to connect to".to_owned(),
    };
    for address in addresses {
        match tokio::time::timeout(options.connect_timeout, TcpStream::connect(address)).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(error)) => {
                last = match classify_io(&error) {
                    UnreachableReason::ConnectionRefused { detail } => {
                        UnreachableReason::ConnectionRefused {
                            detail: format!("{address}: {detail}"),
                        }
                    }
                    _ => UnreachableReason::Connect {
                        reason: innermost_message(&error),
                        detail: format!("{address}: {}", describe(&error)),
                    },
                }
            }
            Err(_) => {
                last = UnreachableReason::Timeout {
                    phase: TimeoutPhase::Connect,
                    after: options.connect_timeout,
                }
            }
        }
    }
    Err(last)
}

fn unreachable(error: FtpError) -> UnreachableReason {
    match error {
        FtpError::ConnectionError(io_error) => match classify_io(&io_error) {
            UnreachableReason::Other { detail } if io_error.kind() == io::ErrorKind::Other => {
                UnreachableReason::Connect {
                    reason: innermost_message(&io_error),
                    detail,
                }
            }
            reason => reason,
        },
        FtpError::UnexpectedResponse(response) => UnreachableReason::FtpError {
            code: reply_code(&response.status),
            message: reply_text(&response.body),
        },
        FtpError::BadResponse => UnreachableReason::InvalidResponse {
            detail: "malformed FTP reply".to_owned(),
        },
        other => UnreachableReason::Other {
            detail: describe(&other),
        },
    }
}

fn reply_code(status: &Status) -> u16 {
    u16::try_from(status.code()).unwrap_or(u16::MAX)
}

/// The reply text without its leading code (`"550 File not found"` -> `"File not found"`).
fn reply_text(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    let without_code = text
        .get(..3)
        .filter(|code| code.bytes().all(|byte| byte.is_ascii_digit()))
        .map_or(text, |_| text[3..].trim_start_matches(['-', ' ']));
    without_code.trim().to_owned()
}

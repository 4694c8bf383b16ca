//! Sorting transport failures into the "unreachable" reasons of RFC 9309 §2.3.1.4 (Google:
//! "DNS or networking issues, such as timeouts, invalid responses, reset or interrupted
//! connections, and HTTP chunking errors, is treated as a server error").

use std::error::Error as StdError;
use std::io;

use crate::options::FetchOptions;
use crate::outcome::{TimeoutPhase, TlsFailure, UnreachableReason};

/// The error and its sources, joined with `": "` (io errors that wrap another error show it).
pub(crate) fn describe(error: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut current = Some(error);
    while let Some(error) = current {
        let text = error.to_string();
        if !parts.last().is_some_and(|last| last.contains(&text)) {
            parts.push(text);
        }
        current = error.source();
    }
    parts.join(": ")
}

/// Every error in the chain, the errors wrapped inside io errors included (those are not
/// reached through `source()`).
fn chain<'a>(error: &'a (dyn StdError + 'static)) -> Vec<&'a (dyn StdError + 'static)> {
    let mut all = Vec::new();
    let mut pending = vec![error];
    while let Some(error) = pending.pop() {
        if all.len() > 32 {
            break;
        }
        all.push(error);
        if let Some(source) = error.source() {
            pending.push(source);
        }
        if let Some(inner) = error
            .downcast_ref::<io::Error>()
            .and_then(|io_error| io_error.get_ref())
        {
            pending.push(inner as &(dyn StdError + 'static));
        }
    }
    all
}

/// Classifies a reqwest error.
pub(crate) fn classify_reqwest(
    error: &reqwest::Error,
    options: &FetchOptions,
) -> UnreachableReason {
    let detail = describe(error);
    let lower = detail.to_ascii_lowercase();
    let errors = chain(error);
    if let Some(refused) = crate::address_policy::refusal_in(&errors) {
        return UnreachableReason::from(refused);
    }
    if error.is_timeout() {
        return UnreachableReason::Timeout {
            phase: if error.is_connect() {
                TimeoutPhase::Connect
            } else {
                TimeoutPhase::Total
            },
            after: if error.is_connect() {
                options.connect_timeout
            } else {
                options.total_timeout
            },
        };
    }
    if let Some(failure) = tls_failure(&errors, error.is_connect(), &lower) {
        return UnreachableReason::Tls { failure, detail };
    }
    if error.is_connect() {
        if lower.contains("dns error") || lower.contains("failed to lookup address") {
            return UnreachableReason::Dns { detail };
        }
        let refused = errors.iter().any(|e| {
            e.downcast_ref::<io::Error>()
                .is_some_and(|io_error| io_error.kind() == io::ErrorKind::ConnectionRefused)
        });
        if refused || lower.contains("connection refused") {
            return UnreachableReason::ConnectionRefused { detail };
        }
        return UnreachableReason::Connect { detail };
    }
    if let Some(reason) = errors
        .iter()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .find_map(|io_error| classify_io_kind(io_error.kind(), &lower, &detail))
    {
        return reason;
    }
    if lower.contains("chunk") {
        return UnreachableReason::BadChunkedEncoding { detail };
    }
    for hyper_error in errors
        .iter()
        .filter_map(|e| e.downcast_ref::<hyper::Error>())
    {
        if hyper_error.is_parse() || hyper_error.is_parse_status() {
            return UnreachableReason::InvalidResponse { detail };
        }
        if hyper_error.is_incomplete_message() || hyper_error.is_closed() {
            return UnreachableReason::ConnectionReset { detail };
        }
    }
    // With decompression on, reqwest reports every body failure as a decode error; the
    // transport causes above have been ruled out, so this is the content encoding.
    if error.is_decode() {
        return UnreachableReason::Decompression { detail };
    }
    if error.is_body() {
        return UnreachableReason::TruncatedBody { detail };
    }
    UnreachableReason::Other { detail }
}

/// What went wrong with TLS, when `errors` (the chain of one failure, `lower` its text in
/// lower case) is a TLS failure: rustls' own error when there is one; otherwise a failure to
/// connect that speaks of TLS (tokio-rustls reports a server that closes the connection during
/// the handshake as an io error, `tls handshake eof`).
fn tls_failure(
    errors: &[&(dyn StdError + 'static)],
    connect: bool,
    lower: &str,
) -> Option<TlsFailure> {
    if let Some(error) = errors
        .iter()
        .find_map(|error| error.downcast_ref::<rustls::Error>())
    {
        return Some(classify_rustls(error));
    }
    if !connect {
        return None;
    }
    if lower.contains("handshake") {
        Some(TlsFailure::Handshake)
    } else if lower.contains("tls") || lower.contains("certificate") {
        Some(TlsFailure::Other)
    } else {
        None
    }
}

/// The [`TlsFailure`] of a rustls error.
fn classify_rustls(error: &rustls::Error) -> TlsFailure {
    use rustls::{CertificateError as Cert, Error, InvalidMessage};
    match error {
        Error::InvalidCertificate(certificate) => match certificate {
            Cert::UnknownIssuer => TlsFailure::UnknownIssuer,
            Cert::Expired | Cert::ExpiredContext { .. } => TlsFailure::Expired,
            Cert::NotValidYet | Cert::NotValidYetContext { .. } => TlsFailure::NotYetValid,
            Cert::NotValidForName | Cert::NotValidForNameContext { .. } => TlsFailure::NameMismatch,
            _ => TlsFailure::BadCertificate,
        },
        // The first bytes are no TLS record header: another protocol answered (an HTTP
        // server's `HTTP/1.1 400`, an SSH banner, …).
        Error::InvalidMessage(
            InvalidMessage::InvalidContentType
            | InvalidMessage::UnknownProtocolVersion
            | InvalidMessage::MessageTooLarge,
        ) => TlsFailure::NotTls,
        _ => TlsFailure::Handshake,
    }
}

/// Classifies an io error met while talking to a server (FTP, or inside an HTTP body).
pub(crate) fn classify_io(error: &io::Error) -> UnreachableReason {
    let detail = describe(error);
    let lower = detail.to_ascii_lowercase();
    classify_io_kind(error.kind(), &lower, &detail).unwrap_or(match error.kind() {
        io::ErrorKind::TimedOut => UnreachableReason::Connect { detail },
        _ => UnreachableReason::Other { detail },
    })
}

fn classify_io_kind(kind: io::ErrorKind, lower: &str, detail: &str) -> Option<UnreachableReason> {
    let detail = detail.to_owned();
    match kind {
        io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe => Some(UnreachableReason::ConnectionReset { detail }),
        io::ErrorKind::ConnectionRefused => Some(UnreachableReason::ConnectionRefused { detail }),
        io::ErrorKind::NotConnected | io::ErrorKind::AddrNotAvailable => {
            Some(UnreachableReason::Connect { detail })
        }
        io::ErrorKind::UnexpectedEof | io::ErrorKind::InvalidData if lower.contains("chunk") => {
            Some(UnreachableReason::BadChunkedEncoding { detail })
        }
        io::ErrorKind::UnexpectedEof => Some(UnreachableReason::TruncatedBody { detail }),
        _ => None,
    }
}

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

/// The innermost error under `error` (through `source()` and the errors io errors wrap), as a
/// short message: its own text, without the number an OS error adds, lower case at its start
/// (`no route to host`). What `connection failed (…)` says.
pub(crate) fn innermost_message(error: &(dyn StdError + 'static)) -> String {
    let mut inner = error;
    for _ in 0..32 {
        // An io error that wraps another shows that one's text, and its `source()` skips it.
        let wrapped = inner
            .downcast_ref::<io::Error>()
            .and_then(|io_error| io_error.get_ref())
            .map(|wrapped| wrapped as &(dyn StdError + 'static));
        match wrapped.or_else(|| inner.source()) {
            Some(next) => inner = next,
            None => break,
        }
    }
    let text = inner.to_string();
    let os_code = inner
        .downcast_ref::<io::Error>()
        .and_then(io::Error::raw_os_error);
    let own = os_code
        .and_then(|code| text.strip_suffix(&format!(" (os error {code})")))
        .unwrap_or(&text);
    let mut chars = own.chars();
    chars
        .next()
        .map(|first| first.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
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
        return UnreachableReason::Connect {
            reason: innermost_message(error),
            detail,
        };
    }
    if let Some(reason) = errors
        .iter()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .find_map(|io_error| classify_io_kind(io_error.kind(), &lower, &detail, error))
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
    classify_io_kind(error.kind(), &lower, &detail, error).unwrap_or(match error.kind() {
        io::ErrorKind::TimedOut => UnreachableReason::Connect {
            reason: innermost_message(error),
            detail,
        },
        _ => UnreachableReason::Other { detail },
    })
}

/// The reason for an io error of `kind` in the failure `error` (`lower` and `detail` its chain
/// in lower case and as written), when the kind says it.
fn classify_io_kind(
    kind: io::ErrorKind,
    lower: &str,
    detail: &str,
    error: &(dyn StdError + 'static),
) -> Option<UnreachableReason> {
    let detail = detail.to_owned();
    match kind {
        io::ErrorKind::ConnectionReset
        | io::ErrorKind::ConnectionAborted
        | io::ErrorKind::BrokenPipe => Some(UnreachableReason::ConnectionReset { detail }),
        io::ErrorKind::ConnectionRefused => Some(UnreachableReason::ConnectionRefused { detail }),
        io::ErrorKind::NotConnected | io::ErrorKind::AddrNotAvailable => {
            Some(UnreachableReason::Connect {
                reason: innermost_message(error),
                detail,
            })
        }
        io::ErrorKind::UnexpectedEof | io::ErrorKind::InvalidData if lower.contains("chunk") => {
            Some(UnreachableReason::BadChunkedEncoding { detail })
        }
        io::ErrorKind::UnexpectedEof => Some(UnreachableReason::TruncatedBody { detail }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error with a context and its cause as `source()`, as hyper's and reqwest's are.
    #[derive(Debug)]
    struct Context(&'static str, io::Error);

    impl std::fmt::Display for Context {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl StdError for Context {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            Some(&self.1)
        }
    }

    #[test]
    fn connection_failed_says_the_innermost_errors_own_message() {
        // EHOSTUNREACH, under a context, inside an io error (which `source()` skips).
        let route = io::Error::other(Context(
            "tcp connect error",
            io::Error::from_raw_os_error(113),
        ));
        assert_eq!(innermost_message(&route), "no route to host");
        // The innermost message is taken whole, `: ` and parentheses included: it is not
        // cut out of the joined chain.
        let inner = io::Error::other("Proxy said: no (os error 5)");
        let proxied = io::Error::other(Context("connect", inner));
        assert_eq!(innermost_message(&proxied), "proxy said: no (os error 5)");
        // EADDRNOTAVAIL is a connection that could not be opened, with its message.
        let reason = classify_io(&io::Error::from_raw_os_error(99));
        assert_eq!(
            reason.to_string(),
            "connection failed (cannot assign requested address)"
        );
    }
}

//! Errors for requests that cannot lead to a robots.txt fetch at all.
//!
//! A server that fails, answers 404, or never answers is not an error: it is an
//! [`Access`](crate::Access) result (RFC 9309 §2.3.1). The errors here are for inputs that
//! cannot have a robots.txt (no host, an unsupported scheme, a bad IDN) and for a client that
//! cannot be built.

use robotrules_url::UrlError;

/// Why a fetch could not even be attempted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The URL could not be parsed into an origin (no host, bad IDN, not a URL, …).
    #[error("cannot locate a robots.txt for this URL: {0}")]
    Url(#[from] UrlError),
    /// The URL's scheme is not one robots.txt can be fetched over; the payload is an excerpt
    /// of it ([`robotrules_text::excerpt`]).
    #[error("unsupported scheme {0:?}: robots.txt can be fetched over http, https and ftp")]
    UnsupportedScheme(String),
    /// The HTTP client could not be built from the options (for example the TLS back end
    /// failed to initialise, or the User-Agent is not a valid header value).
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

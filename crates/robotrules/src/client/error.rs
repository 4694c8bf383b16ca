//! Why a [`Client`](super::Client) could not be built or could not answer.

use robotrules_fetch::FetchError;

use crate::{InvalidAgent, InvalidUrl};

/// Why a [`Client`](super::Client) could not be built or could not answer.
///
/// A server that fails is never an error: it is an access result in the [`Answer`](super::Answer). Errors
/// are for a crawler name the profile rejects, a URL that cannot have a robots.txt, and an
/// HTTP client that cannot be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The crawler name is not one the profile accepts (RFC 9309 §2.2.1: in `rfc9309` it must
    /// be a product token).
    #[error(transparent)]
    InvalidAgent(#[from] InvalidAgent),
    /// The URL has a robots.txt but the profile cannot read it for matching.
    #[error(transparent)]
    InvalidUrl(#[from] InvalidUrl),
    /// The URL cannot have a robots.txt: not an absolute URL, no host, a bad IDN or port, or a
    /// scheme other than http, https and ftp.
    #[error("no robots.txt for {url:?}: {source}")]
    Url {
        /// The URL as given.
        url: String,
        /// Why.
        source: FetchError,
    },
    /// The HTTP client could not be built from the [`FetchOptions`](super::FetchOptions) (for example a User-Agent
    /// that is not a valid header value).
    #[error(transparent)]
    Build(FetchError),
}

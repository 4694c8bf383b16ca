//! `POST /api/fetch`: the robots.txt that governs a URL, fetched by the library's client as
//! `robotrules fetch` fetches it (RFC 9309 §2.3–§2.5), with `fetch`'s summary, the outcome in
//! plain words (`no robots.txt (404): every URL is allowed, …`) and the body kept.
//!
//! Only `http://`, `https://` and `ftp://` URLs are fetched, never a file. Unless the server
//! was started with `--allow-private-fetch`, the fetcher's address policy refuses loopback,
//! private, link-local, multicast and unspecified addresses, at the first request and at every
//! redirect; a refusal is a 403 answer, not an access result.

use std::time::Duration;

use hyper::StatusCode;
use robotrules::client::AccessKind;
use robotrules::Profile;
use serde::{Deserialize, Serialize};

use crate::fetch_report::FetchSummary;
use crate::fetched::Fetched;
use crate::input;
use crate::remote::{robots_url, For, Remote};

use super::error::ApiError;

/// The deadline of one fetch, redirects and body included (within the request's deadline).
const FETCH_DEADLINE: Duration = Duration::from_secs(8);

/// The request.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FetchRequest {
    /// The robots.txt URL or any page of the site.
    url: String,
}

/// The answer.
#[derive(Debug, Serialize)]
pub(crate) struct FetchAnswer {
    /// `fetch --format json`'s report.
    summary: FetchSummary,
    /// What the access result means for every URL, when it decides alone (unavailable,
    /// unreachable).
    #[serde(skip_serializing_if = "Option::is_none")]
    plainly: Option<String>,
    /// The body kept (lossy UTF-8), for a success.
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<String>,
}

/// Fetches the robots.txt that governs `request.url`.
///
/// # Errors
/// [`ApiError`] for a URL that is not http, https or ftp, one that cannot have a robots.txt
/// (the CLI's message), or an address the policy refuses (403).
pub(crate) async fn fetch(
    request: &FetchRequest,
    allow_private: bool,
) -> Result<FetchAnswer, ApiError> {
    let url = request.url.trim();
    if !input::is_remote(url) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "cannot fetch {:?}: only http://, https:// and ftp:// URLs are fetched",
                robotrules_text::excerpt(url, 100)
            ),
        ));
    }
    let remote = Remote::for_serve(FETCH_DEADLINE, allow_private);
    let client = remote.client(For::new(None, Profile::default()), None)?;
    let lookup = client
        .lookup(url)
        .await
        .map_err(|error| ApiError::from(robots_url(url, error)))?;
    if let Some(refusal) = lookup.served().refusal() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!(
                "refused to fetch {}: {refusal} (robotrules serve --allow-private-fetch fetches \
                 them)",
                lookup.served().robots_txt_url()
            ),
        ));
    }
    let body = match lookup.access() {
        AccessKind::Success => lookup
            .served()
            .body()
            .map(|body| String::from_utf8_lossy(body).into_owned()),
        _ => None,
    };
    Ok(FetchAnswer {
        summary: FetchSummary::new(&lookup),
        plainly: Fetched::new(&lookup).plainly(),
        body,
    })
}

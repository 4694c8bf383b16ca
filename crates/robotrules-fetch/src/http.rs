//! HTTP and HTTPS fetching with reqwest (RFC 9309 §2.3.1.1–§2.3.1.4).
//!
//! reqwest follows no redirect by itself; the loop here follows them so that the chain is
//! recorded, loops are noticed, and the limit of RFC 9309 §2.3.1.2 applies.

use std::collections::HashSet;

use futures_util::StreamExt;
use reqwest::header::{HeaderMap, HeaderName, CONTENT_TYPE, LOCATION, TRANSFER_ENCODING};
use reqwest::{Client, Response, Url};

use crate::address_policy::{check_literal, GuardedResolver};
use crate::body_limit::BodyCollector;
use crate::error::FetchError;
use crate::network_error::classify_reqwest;
use crate::options::FetchOptions;
use crate::outcome::{Access, CacheHeaders, Hop, UnavailableReason, UnreachableReason};
use crate::status::{status_access, StatusAccess};

/// What a fetch has learned so far; kept outside the fetch future so that a fetch cut off by
/// the total deadline still reports its chain.
#[derive(Debug, Default)]
pub(crate) struct Progress {
    pub(crate) chain: Vec<Hop>,
    pub(crate) headers: CacheHeaders,
}

/// Builds the reqwest client for `options`.
pub(crate) fn build_client(options: &FetchOptions) -> Result<Client, FetchError> {
    let mut builder = Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(options.connect_timeout)
        .user_agent(options.user_agent.as_str())
        .referer(false)
        .gzip(true)
        .brotli(true)
        .deflate(true)
        // One robots.txt per origin per day: idle connections would only hold sockets.
        .pool_max_idle_per_host(0);
    // A proxy would resolve the names the address policy must check.
    if !options.use_env_proxy || options.address_policy.is_guarded() {
        builder = builder.no_proxy();
    }
    if options.address_policy.is_guarded() {
        builder = builder.dns_resolver(GuardedResolver::new(options.address_policy.clone()));
    }
    for (host, addr) in &options.resolve {
        // An override is an address too: the policy checks it as it checks a DNS answer.
        if let Err(refused) = options
            .address_policy
            .check(host, addr.ip(), Some(addr.port()))
        {
            return Err(FetchError::Client(refused.to_string()));
        }
        // URL hosts are lower-case by the time they are looked up.
        builder = builder.resolve(&host.to_ascii_lowercase(), *addr);
    }
    // The built-in web roots (webpki-roots) stay on; the platform's store only when asked.
    builder = builder.tls_built_in_native_certs(options.platform_roots);
    for root in &options.extra_root_certificates {
        let certificate = reqwest::Certificate::from_der(root.der())
            .map_err(|error| FetchError::Client(crate::network_error::describe(&error)))?;
        builder = builder.add_root_certificate(certificate);
    }
    builder
        .build()
        .map_err(|error| FetchError::Client(crate::network_error::describe(&error)))
}

/// Fetches `robots_txt_url`, following redirects, and returns the access result.
pub(crate) async fn fetch(
    client: &Client,
    options: &FetchOptions,
    robots_txt_url: &str,
    progress: &mut Progress,
) -> Access {
    let mut current = match Url::parse(robots_txt_url) {
        Ok(url) => url,
        Err(error) => {
            return Access::Unreachable {
                reason: UnreachableReason::Other {
                    detail: format!("cannot parse {robots_txt_url}: {error}"),
                },
            }
        }
    };
    let mut requested = HashSet::new();
    let mut redirects = 0;
    loop {
        requested.insert(current.to_string());
        // An IP-literal host never reaches the resolver: its address is checked here, at the
        // first request and at every redirect.
        if let (Some(host), Some(port)) = (current.host_str(), current.port_or_known_default()) {
            if let Err(refused) = check_literal(&options.address_policy, host, port) {
                return Access::Unreachable {
                    reason: UnreachableReason::from(&refused),
                };
            }
        }
        let response = match client.get(current.clone()).send().await {
            Ok(response) => response,
            Err(error) => {
                return Access::Unreachable {
                    reason: classify_reqwest(&error, options),
                }
            }
        };
        let status = response.status().as_u16();
        progress.chain.push(Hop {
            url: current.to_string(),
            status,
        });
        let has_location = response.headers().contains_key(LOCATION);
        match status_access(status, has_location, options.too_many_requests) {
            StatusAccess::Redirect => {}
            StatusAccess::Success => {
                progress.headers = cache_headers(response.headers());
                return read_body(response, options).await;
            }
            StatusAccess::Unavailable => {
                progress.headers = cache_headers(response.headers());
                return unavailable(unavailable_reason(status));
            }
            _ => {
                progress.headers = cache_headers(response.headers());
                return Access::Unreachable {
                    reason: UnreachableReason::ServerError { status },
                };
            }
        }
        if redirects >= options.max_redirects {
            return unavailable(UnavailableReason::TooManyRedirects {
                limit: options.max_redirects,
            });
        }
        let next = match redirect_target(&current, response.headers()) {
            Ok(next) => next,
            Err(detail) => return unavailable(UnavailableReason::BadRedirect { status, detail }),
        };
        if requested.contains(next.as_str()) {
            return unavailable(UnavailableReason::RedirectLoop {
                url: next.to_string(),
            });
        }
        redirects += 1;
        current = next;
    }
}

/// Why a status that [`status_access`] reads as unavailable is: a redirect without a
/// target, a client error, or another 3xx.
fn unavailable_reason(status: u16) -> UnavailableReason {
    if crate::status::is_redirect_status(status) {
        UnavailableReason::BadRedirect {
            status,
            detail: "no Location header".to_owned(),
        }
    } else if status >= 400 {
        UnavailableReason::ClientError { status }
    } else {
        UnavailableReason::UnexpectedStatus { status }
    }
}

fn unavailable(reason: UnavailableReason) -> Access {
    Access::Unavailable { reason }
}

/// The URL a redirect response points to, resolved against the current URL
/// ([`robotrules_url::redirect_target`]).
fn redirect_target(current: &Url, headers: &HeaderMap) -> Result<Url, String> {
    let location = headers
        .get(LOCATION)
        .ok_or_else(|| "no Location header".to_owned())?;
    robotrules_url::redirect_target(current, &String::from_utf8_lossy(location.as_bytes()))
}

fn header_text(headers: &HeaderMap, name: HeaderName) -> Option<String> {
    let values: Vec<_> = headers
        .get_all(name)
        .iter()
        .map(|value| String::from_utf8_lossy(value.as_bytes()).trim().to_owned())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

fn cache_headers(headers: &HeaderMap) -> CacheHeaders {
    use reqwest::header::{AGE, CACHE_CONTROL, DATE, EXPIRES, RETRY_AFTER};
    CacheHeaders {
        cache_control: header_text(headers, CACHE_CONTROL),
        expires: header_text(headers, EXPIRES),
        date: header_text(headers, DATE),
        age: header_text(headers, AGE),
        retry_after: header_text(headers, RETRY_AFTER),
    }
}

/// Streams the (decompressed) body up to the size limit and stops reading past it
/// (RFC 9309 §2.5).
async fn read_body(response: Response, options: &FetchOptions) -> Access {
    let content_type = header_text(response.headers(), CONTENT_TYPE);
    let chunked = header_text(response.headers(), TRANSFER_ENCODING)
        .is_some_and(|coding| coding.to_ascii_lowercase().contains("chunked"));
    let mut collector = BodyCollector::new(options.body_limit, response.content_length());
    let mut stream = response.bytes_stream();
    while let Some(chunk) = stream.next().await {
        match chunk {
            Ok(chunk) => {
                if collector.push(&chunk) {
                    break;
                }
            }
            Err(error) => {
                let reason = match classify_reqwest(&error, options) {
                    // A chunked body has no announced length: ending early is a chunking
                    // error (Google: "HTTP chunking errors").
                    UnreachableReason::TruncatedBody { detail } if chunked => {
                        UnreachableReason::BadChunkedEncoding { detail }
                    }
                    reason => reason,
                };
                return Access::Unreachable { reason };
            }
        }
    }
    let (body, truncation) = collector.finish();
    Access::Success {
        body,
        truncation,
        content_type,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn target(location: &[u8]) -> Result<Url, String> {
        let current = Url::parse("http://example.com/robots.txt").expect("a URL");
        let mut headers = HeaderMap::new();
        let value = HeaderValue::from_bytes(location).expect("a header value");
        headers.insert(LOCATION, value);
        redirect_target(&current, &headers)
    }

    #[test]
    fn a_bad_location_is_quoted_short_and_terminal_safe() {
        let long = format!("ftp://x/{}\u{202E}", "a".repeat(1_000));
        let detail = target(long.as_bytes()).expect_err("not http");
        // `robotrules_url::redirect_target` quotes at most 100 characters of a Location.
        let quoted = format!("\"ftp://x/{}…\"", "a".repeat(100 - 8));
        assert_eq!(
            detail,
            format!("Location {quoted} has scheme \"ftp\", not http or https")
        );
        let detail = target("http://[::1\u{202E}".as_bytes()).expect_err("unparsable");
        assert!(
            detail.starts_with("Location \"http://[::1<U+202E>\": "),
            "{detail}"
        );
    }
}

//! The HTTP side of `serve`: HTTP/1.1 connections (hyper), routing to the page's files and
//! the API, the limits (body size, header and request deadlines), and the headers every
//! response carries (the Content-Security-Policy, `nosniff`, no referrer).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

use super::api;
use super::assets;
use super::error::ApiError;
use super::limits::{Config, MAX_BODY};

/// How long a client may take to send a request's headers.
const HEADER_DEADLINE: Duration = Duration::from_secs(10);

/// The Content-Security-Policy of every response: scripts, styles and API calls from this
/// server only (no inline script or style, no `eval`), nothing framed or framing it, no form
/// posts or base URL changes. Downloads and shared links are `blob:` and fragment URLs.
pub(crate) const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
connect-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/// Accepts connections on `listener` until the process ends, one task per connection.
pub(crate) async fn serve(listener: TcpListener, config: Config) {
    let config = Arc::new(config);
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors, a connection reset before it was accepted: go on.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let config = Arc::clone(&config);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let config = Arc::clone(&config);
                async move { Ok::<_, Infallible>(respond(request, &config).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_DEADLINE)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The response to `request`, with the headers every response carries.
async fn respond(request: Request<Incoming>, config: &Config) -> Response<Full<Bytes>> {
    let mut response = route(request, config).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

async fn route(request: Request<Incoming>, config: &Config) -> Response<Full<Bytes>> {
    let path = request.uri().path().to_owned();
    if config.loopback && !is_loopback_host(request.headers().get(header::HOST)) {
        return error(&ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            "this tester listens on loopback and answers only requests for localhost or a \
             loopback address"
                .to_owned(),
        ));
    }
    if let Some(endpoint) = path.strip_prefix("/api/") {
        let Some(endpoint) = api::Endpoint::of(endpoint) else {
            return error(&ApiError::not_found(&path));
        };
        if request.method() != Method::POST {
            return error(&ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("{path} takes POST with a JSON body"),
            ));
        }
        return match read_json_body(request, config.deadline).await {
            Ok(body) => match api::answer(endpoint, body, config).await {
                Ok(json) => json_response(StatusCode::OK, json),
                Err(problem) => error(&problem),
            },
            Err(problem) => error(&problem),
        };
    }
    match (request.method(), assets::find(&path)) {
        (&Method::GET | &Method::HEAD, Some(asset)) => {
            let mut response = Response::new(Full::new(Bytes::from_static(asset.body)));
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(asset.content_type),
            );
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            response
        }
        (_, Some(_)) => error(&ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} takes GET"),
        )),
        (_, None) => error(&ApiError::not_found(&path)),
    }
}

/// Whether a `Host` header names a loopback address or `localhost` (any port).
fn is_loopback_host(host: Option<&HeaderValue>) -> bool {
    let Some(host) = host.and_then(|value| value.to_str().ok()) else {
        return false;
    };
    // `[::1]:8080`, `127.0.0.1:8080`, `localhost:8080`, or without a port.
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The body of an API request: JSON (`Content-Type: application/json`, which a page of another
/// site cannot send without asking first), at most [`MAX_BODY`] bytes, read within `deadline`.
async fn read_json_body(request: Request<Incoming>, deadline: Duration) -> Result<Bytes, ApiError> {
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the API takes a JSON body (Content-Type: application/json)".to_owned(),
        ));
    }
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_BODY as u64) {
        return Err(ApiError::too_large());
    }
    let body = Limited::new(request.into_body(), MAX_BODY);
    match tokio::time::timeout(deadline, body.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(problem)) if problem.is::<http_body_util::LengthLimitError>() => {
            Err(ApiError::too_large())
        }
        Ok(Err(problem)) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("cannot read the request body: {problem}"),
        )),
        Err(_) => Err(ApiError::deadline(deadline)),
    }
}

fn json_response(status: StatusCode, json: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(json)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `{"error": "…"}` with the problem's status (and its `Retry-After`).
fn error(problem: &ApiError) -> Response<Full<Bytes>> {
    let mut response = json_response(problem.status, problem.to_json());
    if let Some(seconds) = problem.retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_hosts_reach_a_loopback_server() {
        let host = |text: &'static str| is_loopback_host(Some(&HeaderValue::from_static(text)));
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(host(ok), "{ok}");
        }
        for refused in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "10.0.0.1:8080",
            "[::2]:80",
            "",
        ] {
            assert!(!host(refused), "{refused}");
        }
        assert!(!is_loopback_host(None));
    }
}

//! The HTTP response inside a WARC `response` record: status line, headers and body (RFC 9112
//! §4, §5, §6), with a chunked body de-chunked (§7.1) and a gzip- or deflate-encoded body
//! decoded, as a crawler reading the robots.txt would (Common Crawl stores most bodies already
//! decoded, with the original headers renamed `X-Crawler-…`).

use std::io::Read;

/// The most headers read from one response.
const MAX_HEADERS: usize = 128;

/// The largest decoded body kept (a decoded body past it is cut; the parse limit is far
/// below).
const MAX_DECODED: u64 = 16 << 20;

/// An HTTP response.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The header fields, names as received, in order.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked and decoded.
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// The first value of header `name` (any case) in `headers`.
pub(crate) fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Reads `block` as an HTTP response.
///
/// # Errors
/// When it does not start with an HTTP status line and a complete header section.
pub fn parse_response(block: &[u8]) -> Result<Response, String> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let parsed = response
        .parse(block)
        .map_err(|error| format!("not an HTTP response: {error}"))?;
    let httparse::Status::Complete(body_start) = parsed else {
        return Err("not an HTTP response: the header section is cut short".to_owned());
    };
    let status = response
        .code
        .ok_or_else(|| "not an HTTP response: no status code".to_owned())?;
    let headers: Vec<(String, String)> = response
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_owned(),
                String::from_utf8_lossy(h.value).trim().to_owned(),
            )
        })
        .collect();
    let mut body = block.get(body_start..).unwrap_or_default().to_vec();
    let chunked = header(&headers, "transfer-encoding")
        .is_some_and(|te| te.to_ascii_lowercase().contains("chunked"));
    if chunked {
        if let Some(dechunked) = dechunk(&body) {
            body = dechunked;
        }
    }
    if let Some(encoding) = header(&headers, "content-encoding") {
        if let Some(decoded) = decode(&encoding.to_ascii_lowercase(), &body) {
            body = decoded;
        }
    }
    Ok(Response {
        status,
        headers,
        body,
    })
}

/// A chunked body's data (RFC 9112 §7.1), or `None` when it is not chunked after all.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    loop {
        let line_end = memchr::memchr(b'\n', body)?;
        let line = std::str::from_utf8(&body[..line_end]).ok()?;
        let size = line.split(';').next()?.trim();
        let size = usize::from_str_radix(size, 16).ok()?;
        body = &body[line_end + 1..];
        if size == 0 {
            return Some(out);
        }
        // A last chunk cut short keeps what there is.
        let take = size.min(body.len());
        out.extend_from_slice(&body[..take]);
        body = &body[take..];
        body = body
            .strip_prefix(b"\r\n")
            .or_else(|| body.strip_prefix(b"\n"))
            .unwrap_or(body);
        if body.is_empty() {
            return Some(out);
        }
    }
}

/// The body decoded from a `Content-Encoding` of gzip or deflate, when it is so encoded.
fn decode(encoding: &str, body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    if encoding.contains("gzip") && body.starts_with(&[0x1f, 0x8b]) {
        flate2::bufread::MultiGzDecoder::new(body)
            .take(MAX_DECODED)
            .read_to_end(&mut out)
            .ok()?;
    } else if encoding.contains("deflate") {
        flate2::bufread::ZlibDecoder::new(body)
            .take(MAX_DECODED)
            .read_to_end(&mut out)
            .ok()?;
    } else {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn status_headers_and_body() {
        let r = parse_response(b"HTTP/1.1 301 Moved\r\nLocation: /robots.txt\r\n\r\nbody").unwrap();
        assert_eq!(r.status, 301);
        assert_eq!(r.header("location"), Some("/robots.txt"));
        assert_eq!(r.body, b"body");
    }

    #[test]
    fn chunked_and_gzipped_bodies_are_read_as_sent() {
        let r = parse_response(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nuser-\r\n5;x=y\r\nagent\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!(r.body, b"user-agent");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"disallow: /").unwrap();
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend(gz.finish().unwrap());
        assert_eq!(parse_response(&block).unwrap().body, b"disallow: /");
    }

    #[test]
    fn anything_else_is_not_http() {
        assert!(parse_response(b"dns answer 1.2.3.4").is_err());
        assert!(parse_response(b"HTTP/1.1 200 OK\r\nX: y").is_err());
    }
}

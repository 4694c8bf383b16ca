//! `allowedMany`: many URLs in one crossing. The wrapper joins each chunk of 1,024 URLs with
//! NUL into one string and encodes it once (`TextEncoder`, one copy into WebAssembly memory
//! instead of one per URL), and gets back one byte per URL.

use robotrules::InvalidUrl;

/// The verdicts on the `count` URLs of `joined` (their UTF-8 joined with NUL), one byte each
/// (`1` allowed, `0` not), in order, or the first URL the profile cannot read; `None`, before
/// any URL is judged, when `joined` does not hold exactly `count - 1` NULs (a URL holds a NUL
/// itself, so its pieces are not the URLs: the wrapper then asks one URL at a time).
pub(crate) fn joined_verdicts(
    crawler: &robotrules::Crawler,
    joined: &[u8],
    count: usize,
) -> Result<Option<Vec<u8>>, InvalidUrl> {
    if count == 0 {
        return Ok(Some(Vec::new()));
    }
    if memchr::memchr_iter(0, joined).count() + 1 != count {
        return Ok(None);
    }
    let verdicts = match std::str::from_utf8(joined) {
        // Valid UTF-8 cut at ASCII NULs: each piece is valid UTF-8 on its own.
        Ok(text) => crawler.allowed_many(pieces(text))?,
        // Not from `TextEncoder`: each URL read as the profile reads any string.
        Err(_) => joined
            .split(|&b| b == 0)
            .map(|url| crawler.is_allowed(&String::from_utf8_lossy(url)))
            .collect::<Result<_, _>>()?,
    };
    Ok(Some(verdicts.into_iter().map(u8::from).collect()))
}

/// The pieces of `text` between its NULs (`text.split('\0')`, with memchr's SIMD search).
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(0, text.as_bytes())
        .chain([text.len()])
        .map(move |end| {
            // NUL is ASCII: `start` and `end` are character boundaries.
            let piece = text.get(start..end).unwrap_or_default();
            start = end + 1;
            piece
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crawler() -> robotrules::Crawler {
        robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n")
            .crawler("bot")
            .unwrap()
    }

    #[test]
    fn verdicts_come_back_in_order_one_byte_each() {
        let joined = ["/", "https://example.com/private/a", "/b"].join("\0");
        assert_eq!(
            joined_verdicts(&crawler(), joined.as_bytes(), 3),
            Ok(Some(vec![1, 0, 1]))
        );
        assert_eq!(joined_verdicts(&crawler(), b"", 0), Ok(Some(vec![])));
        // One empty URL is one URL (that the profile cannot read).
        assert!(joined_verdicts(&crawler(), b"", 1).is_err());
    }

    #[test]
    fn the_pieces_are_split_s() {
        for text in ["", "\0", "/a\0\0/b\0", "/caf\u{e9}\0/\u{fffd}", "/a"] {
            assert_eq!(
                pieces(text).collect::<Vec<_>>(),
                text.split('\0').collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_read_one_url_at_a_time() {
        let joined = b"/private/\xff\0/\xfe";
        assert_eq!(joined_verdicts(&crawler(), joined, 2), Ok(Some(vec![0, 1])));
    }

    #[test]
    fn a_url_holding_a_nul_is_not_split() {
        assert_eq!(joined_verdicts(&crawler(), b"/a\0/b\0/c", 2), Ok(None));
    }

    #[test]
    fn the_first_url_refused_is_the_error() {
        let joined = ["/a", "example.com/b", "c"].join("\0");
        let error = joined_verdicts(&crawler(), joined.as_bytes(), 3).unwrap_err();
        assert_eq!(error.url, "example.com/b");
    }
}

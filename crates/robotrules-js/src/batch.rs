//! `allowedMany`: many URLs in one crossing. The wrapper joins each chunk of 1,024 URLs with
//! NUL into one string and encodes it once (`TextEncoder`, one copy into WebAssembly memory
//! instead of one per URL), and gets back one byte per URL; the facade's
//! [`robotrules::Crawler::allowed_joined`] judges them.

use robotrules::InvalidUrl;

/// The verdicts on the `count` URLs of `joined` (their UTF-8 joined with NUL), one byte each
/// (`1` allowed, `0` not), in order: [`robotrules::Crawler::allowed_joined`] as bytes.
pub(crate) fn joined_verdicts(
    crawler: &robotrules::Crawler,
    joined: &[u8],
    count: usize,
) -> Result<Option<Vec<u8>>, InvalidUrl> {
    Ok(crawler
        .allowed_joined(joined, count)?
        .map(|verdicts| verdicts.into_iter().map(u8::from).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_come_back_in_order_one_byte_each() {
        let crawler = robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n")
            .crawler("bot")
            .unwrap();
        let joined = ["/", "https://example.com/private/a", "/b"].join("\0");
        assert_eq!(
            joined_verdicts(&crawler, joined.as_bytes(), 3),
            Ok(Some(vec![1, 0, 1]))
        );
        assert_eq!(joined_verdicts(&crawler, b"/a\0/b\0/c", 2), Ok(None));
    }
}

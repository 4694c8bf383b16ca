//! The scratch buffer: bytes in WebAssembly memory that the wrapper writes strings into itself,
//! so that the hot calls carry only a length.
//!
//! wasm-bindgen hands a `&str` over by allocating it in WebAssembly memory, encoding it there
//! and freeing it after the call: for one `isAllowed(url)` that is most of the call. The
//! wrapper instead writes an ASCII URL (or a chunk of them, joined with NUL, for
//! `allowedMany`; or a robots.txt body's UTF-8, with `TextEncoder.encodeInto`) straight into
//! this buffer and calls the `…Scratch` methods with its length. Anything else (a URL with a
//! character outside ASCII, a string with lone surrogates, a URL too long for the buffer) takes
//! the generic path, so the two give the same answers.
//!
//! The buffer lives as long as the instance; it grows when a body needs more and goes back to
//! [`SCRATCH`] bytes when asked for no more (the wrapper asks right after such a parse), so a
//! big body's bytes are freed as deterministically as wasm-bindgen's own copy was.

use std::cell::RefCell;

use wasm_bindgen::prelude::{wasm_bindgen, JsValue};

use crate::batch;
use crate::crawler::{verdict_code, Crawler};
use crate::failure::Failure;
use crate::robots::{parse_options, Robots};

/// The size the buffer keeps between calls (the wrapper's `SCRATCH`): room for a chunk of
/// `allowedMany`'s URLs.
pub const SCRATCH: usize = 64 * 1024;

thread_local! {
    /// The buffer (WebAssembly runs this module on one thread; its bytes are initialised).
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes the scratch buffer hold at least `len` bytes and gives its address in WebAssembly
/// memory (valid until the next call of this function). Asking for at most [`SCRATCH`] bytes
/// gives back what a bigger request took beyond that.
#[wasm_bindgen]
pub fn scratch(len: u32) -> usize {
    let len = len as usize;
    BUFFER.with_borrow_mut(|buffer| {
        if len <= SCRATCH && buffer.len() > SCRATCH {
            buffer.truncate(SCRATCH);
            buffer.shrink_to_fit();
        }
        if buffer.len() < len {
            buffer.resize(len, 0);
        }
        buffer.as_mut_ptr().expose_provenance()
    })
}

/// The instance's `WebAssembly.Memory`, which holds the scratch buffer.
#[wasm_bindgen(js_name = scratchMemory)]
pub fn scratch_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// `f` of the first `len` bytes of the scratch buffer (fewer if it holds fewer).
pub(crate) fn with_bytes<T>(len: u32, f: impl FnOnce(&[u8]) -> T) -> T {
    BUFFER.with_borrow(|buffer| f(&buffer[..(len as usize).min(buffer.len())]))
}

/// `f` of the first `len` bytes of the scratch buffer as text: the wrapper writes ASCII, and
/// any other bytes are read with U+FFFD for what is not UTF-8, as for a string from
/// wasm-bindgen.
pub(crate) fn with_text<T>(len: u32, f: impl FnOnce(&str) -> T) -> T {
    // `from_utf8` first: `from_utf8_lossy` has no fast path for ASCII.
    with_bytes(len, |bytes| match std::str::from_utf8(bytes) {
        Ok(text) => f(text),
        Err(_) => f(&String::from_utf8_lossy(bytes)),
    })
}

/// Writes `bytes` at the start of the scratch buffer, when it has the room (`false` if not:
/// the buffer never moves here, since the wrapper knows its address).
pub(crate) fn write(bytes: &[u8]) -> bool {
    BUFFER.with_borrow_mut(|buffer| match buffer.get_mut(..bytes.len()) {
        Some(start) => {
            start.copy_from_slice(bytes);
            true
        }
        None => false,
    })
}

/// What [`Crawler::allowed_scratch`] answers.
pub(crate) mod batch_status {
    /// The verdicts are at the start of the scratch buffer, one byte each.
    pub(crate) const WRITTEN: u32 = 0;
    /// A URL the profile cannot read, or pieces that are not the URLs: ask `allowedJoined`.
    pub(crate) const ASK_AGAIN: u32 = 1;
}

#[wasm_bindgen]
impl Crawler {
    /// `isAllowedCode` of the URL in the first `len` bytes of the scratch buffer.
    #[wasm_bindgen(js_name = isAllowedScratch)]
    pub fn is_allowed_scratch(&self, len: u32) -> u32 {
        with_text(len, |url| verdict_code(self.inner.is_allowed(url).ok()))
    }

    /// The verdicts on the `count` URLs in the first `len` bytes of the scratch buffer (their
    /// UTF-8 joined with NUL), written over its start one byte each (`1` allowed, `0` not):
    /// `WRITTEN` (`0`); or `ASK_AGAIN` (`1`), nothing written, for a URL
    /// the profile cannot read, for pieces that are not `count` URLs, or for a buffer shorter
    /// than `count` bytes.
    #[wasm_bindgen(js_name = allowedScratch)]
    pub fn allowed_scratch(&self, len: u32, count: u32) -> u32 {
        match with_bytes(len, |joined| {
            batch::joined_verdicts(&self.inner, joined, count as usize)
        }) {
            Ok(Some(verdicts)) if write(&verdicts) => batch_status::WRITTEN,
            _ => batch_status::ASK_AGAIN,
        }
    }
}

#[wasm_bindgen]
impl Robots {
    /// [`Robots::parse`] of the body in the first `len` bytes of the scratch buffer.
    ///
    /// # Errors
    /// An unknown profile name.
    #[wasm_bindgen(js_name = parseScratch)]
    pub fn parse_scratch(
        len: u32,
        profile: &str,
        parse_limit: Option<u32>,
    ) -> Result<Robots, Failure> {
        let options = parse_options(profile, parse_limit)?;
        Ok(Robots {
            inner: with_bytes(len, |body| robotrules::Robots::parse_with(body, &options)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(text: &[u8]) -> u32 {
        scratch(text.len() as u32);
        assert!(write(text));
        text.len() as u32
    }

    #[test]
    fn what_is_written_is_read_back_as_text() {
        let len = fill(b"/private/a");
        assert_eq!(with_text(len, str::to_owned), "/private/a");
        // Never past the buffer's end.
        assert_eq!(with_bytes(u32::MAX, <[u8]>::len), len as usize);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_read_as_wasm_bindgen_reads_a_string() {
        let len = fill(b"/a\xff");
        assert_eq!(with_text(len, str::to_owned), "/a\u{fffd}");
    }

    fn crawler() -> Crawler {
        Crawler::new(
            robotrules::Robots::parse(b"user-agent: *\ndisallow: /private\n")
                .crawler("bot")
                .unwrap(),
        )
    }

    #[test]
    fn a_url_in_the_buffer_gets_the_verdict_of_the_same_string() {
        let crawler = crawler();
        for url in [
            "/private/a",
            "/public",
            "https://example.com/private",
            "private",
            "/\u{fffd}",
            "",
        ] {
            let len = fill(url.as_bytes());
            assert_eq!(
                crawler.is_allowed_scratch(len),
                crawler.is_allowed_code(url),
                "{url}"
            );
        }
    }

    #[test]
    fn verdicts_are_written_over_the_urls() {
        let crawler = crawler();
        let len = fill(b"/private/a\0/b\0https://example.com/private");
        assert_eq!(crawler.allowed_scratch(len, 3), batch_status::WRITTEN);
        assert_eq!(with_bytes(3, <[u8]>::to_vec), [0, 1, 0]);
        // A refused URL, or a NUL inside a URL: nothing written, the wrapper asks again.
        for (joined, count) in [(&b"/a\0b"[..], 2), (b"/a\0/b\0/c", 2)] {
            let len = fill(joined);
            assert_eq!(crawler.allowed_scratch(len, count), batch_status::ASK_AGAIN);
            assert_eq!(with_bytes(len, <[u8]>::to_vec), joined);
        }
    }

    #[test]
    fn a_body_in_the_buffer_parses_as_the_same_bytes() {
        let body = b"user-agent: *\ndisallow: /x\n\xff\ndisallow: /y\n";
        let len = fill(body);
        let robots = Robots::parse_scratch(len, "google", Some(28)).unwrap();
        let direct = Robots::parse(body, "google", Some(28)).unwrap();
        assert_eq!(robots.bytes_read(), direct.bytes_read());
        assert_eq!(robots.is_allowed_code("bot", "/x"), 0);
        // Past the parse limit.
        assert_eq!(robots.is_allowed_code("bot", "/y"), 1);
        let robots = Robots::parse_scratch(len, "rfc9309", None).unwrap();
        assert_eq!(
            robots.diagnostics_json(),
            Robots::parse(body, "rfc9309", None)
                .unwrap()
                .diagnostics_json()
        );
        assert!(Robots::parse_scratch(len, "nope", None).is_err());
    }

    #[test]
    fn a_big_request_is_given_back_by_a_small_one() {
        scratch(3 * SCRATCH as u32);
        assert_eq!(with_bytes(u32::MAX, <[u8]>::len), 3 * SCRATCH);
        scratch(SCRATCH as u32);
        assert_eq!(with_bytes(u32::MAX, <[u8]>::len), SCRATCH);
        assert!(!write(&vec![0; SCRATCH + 1]));
    }
}

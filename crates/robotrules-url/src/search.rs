//! Finding a byte in a short haystack, the URLs and paths a check reads: sixteen bytes at a
//! time, in [`robotrules_bytes`], which the grammar's line reading shares.
//!
//! `memchr` is the fastest for long haystacks, but each call pays a fixed cost that dominates
//! for the 20 to 100 bytes of a URL. [`find_byte`](robotrules_bytes::find_byte) looks at the
//! first 128 bytes in chunks, then hands over to `memchr`; `find_any` reads chunks to the end
//! (URLs are short).

pub(crate) use robotrules_bytes::find_any;
pub use robotrules_bytes::find_byte;

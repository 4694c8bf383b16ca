//! What Python hands in: a body as `bytes`-like or `str`, names and URLs as `str`.
//!
//! A `str` is read as its UTF-8 bytes; one that cannot be encoded (a lone surrogate) is
//! encoded with `surrogatepass`, so its bad code points become invalid UTF-8 that the parser
//! reports and the profile reads as it reads any invalid byte — never an exception. Names and
//! URLs with lone surrogates get U+FFFD in their place, so the profile judges them.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// A robots.txt body: the bytes of `bytes`, `bytearray`, `memoryview` or any buffer, or the
/// UTF-8 of a `str`.
pub(crate) enum Body<'py> {
    /// Borrowed from an immutable `bytes` object.
    Bytes(Bound<'py, PyBytes>),
    /// Copied (a `bytearray` or buffer may change while the GIL is released).
    Owned(Vec<u8>),
}

impl Body<'_> {
    /// The bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        match self {
            Body::Bytes(bytes) => bytes.as_bytes(),
            Body::Owned(bytes) => bytes,
        }
    }
}

/// Read `body` (`bytes`, `bytearray`, `memoryview`/buffer, or `str`).
pub(crate) fn body<'py>(body: &Bound<'py, PyAny>) -> PyResult<Body<'py>> {
    if let Ok(bytes) = body.cast::<PyBytes>() {
        return Ok(Body::Bytes(bytes.clone()));
    }
    if let Ok(text) = body.cast::<PyString>() {
        return Ok(Body::Bytes(utf8(text)?));
    }
    if let Ok(array) = body.cast::<PyByteArray>() {
        return Ok(Body::Owned(array.to_vec()));
    }
    if body.is_instance_of::<pyo3::types::PyInt>() {
        // `bytes(5)` would make five NULs: an int is not a body.
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a robots.txt body is bytes or str, not int",
        ));
    }
    // Any other buffer (memoryview, array.array, mmap): `bytes(body)` copies it, and raises
    // `TypeError` for what is not a buffer.
    let bytes = body.py().get_type::<PyBytes>().call1((body,))?;
    Ok(Body::Bytes(bytes.cast_into::<PyBytes>()?))
}

/// A name or URL: the UTF-8 of a `str`, held as the `bytes` object Python encoded it to.
pub(crate) struct Text<'py>(Bound<'py, PyBytes>);

impl Text<'_> {
    /// The text, borrowed from the `bytes` object (lone surrogates replaced by U+FFFD).
    pub(crate) fn as_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.0.as_bytes())
    }
}

/// A name or URL from a `str` (one encoding, no copy on the Rust side: the limited API of
/// CPython 3.9 has no borrowed UTF-8 view of a `str`).
pub(crate) fn text<'py>(text: &Bound<'py, PyString>) -> PyResult<Text<'py>> {
    utf8(text).map(Text)
}

/// The UTF-8 of a name or URL as a `bytes` object (lone surrogates encoded with
/// `surrogatepass`, so they read as invalid UTF-8 and then as U+FFFD).
pub(crate) fn utf8<'py>(text: &Bound<'py, PyString>) -> PyResult<Bound<'py, PyBytes>> {
    match text.encode_utf8() {
        Ok(bytes) => Ok(bytes),
        Err(_) => Ok(text
            .call_method1("encode", ("utf-8", "surrogatepass"))?
            .cast_into::<PyBytes>()?),
    }
}

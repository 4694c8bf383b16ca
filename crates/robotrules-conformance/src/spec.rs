//! [`Spec`], the `input` and `expect` of a case's layer: shared by the case format
//! ([`crate::case`]) and the fetch case format ([`crate::fetch_case`]).

use serde::de::{Deserializer, Error as _};
use serde::Deserialize;

/// A layer's `input` and `expect` objects. An error in either names the place:
/// `` `input.headers.age`: invalid type: integer `3`, expected a string ``.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(bound(deserialize = "I: Deserialize<'de>, E: Deserialize<'de>"))]
pub struct Spec<I, E> {
    /// What the layer is given.
    #[serde(deserialize_with = "input")]
    pub input: I,
    /// What must come of it.
    #[serde(deserialize_with = "expect")]
    pub expect: E,
}

fn input<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    within("input", d)
}

fn expect<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<T, D::Error> {
    within("expect", d)
}

/// Deserializes `T`, prefixing an error with its place below `field`.
fn within<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    field: &str,
    d: D,
) -> Result<T, D::Error> {
    serde_path_to_error::deserialize(d).map_err(|error| {
        let path = error.path().to_string();
        let place = if path == "." {
            field.to_owned()
        } else {
            format!("{field}.{path}")
        };
        D::Error::custom(format_args!("`{place}`: {}", error.into_inner()))
    })
}

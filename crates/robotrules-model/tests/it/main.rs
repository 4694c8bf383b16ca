//! The model: the profiles table and differences between profiles: the crate's one integration-test
//! binary, one module per area (one binary links the crate and its dev-dependencies once, not once
//! per file).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

mod differences;
mod profiles;

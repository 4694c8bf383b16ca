//! robotrules CLI.
fn main() {}

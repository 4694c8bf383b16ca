//! The real corpus (`conformance/` at the workspace root), one test per layer: this is how
//! `cargo test` runs each layer's slice. Expected differences are honoured; any failure (an
//! unlisted mismatch, a listed pair that passes or never ran) fails the test with its inputs.

use std::path::Path;

use robotrules_conformance::report::failure_text;
use robotrules_conformance::{Corpus, Layer, RunOptions};

fn assert_layer_passes(layer: Layer) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance");
    let corpus =
        Corpus::load(&dir).unwrap_or_else(|error| panic!("loading {}: {error}", dir.display()));
    let report = corpus.run(&RunOptions {
        layer: Some(layer),
        ..RunOptions::default()
    });
    let failures: Vec<String> = report.failures().map(failure_text).collect();
    assert!(
        failures.is_empty(),
        "{layer} layer: {} failures\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn model_cases() {
    assert_layer_passes(Layer::Model);
}

#[test]
fn url_cases() {
    assert_layer_passes(Layer::Url);
}

#[test]
fn grammar_cases() {
    assert_layer_passes(Layer::Grammar);
}

#[test]
fn usage_cases() {
    assert_layer_passes(Layer::Usage);
}

#[test]
fn fetch_cases() {
    assert_layer_passes(Layer::Fetch);
}

//! `docs/conformance.md` is the report of the corpus as it is: a change to the corpus, the
//! expected differences or robotrules' answers must come with the regenerated file.

use std::fs;

use robotrules_conformance::{stale_docs, workspace_root, Corpus, RunOptions, DOCS_FILE};

#[test]
fn docs_conformance_md_is_the_fresh_report() {
    let root = workspace_root();
    let corpus = Corpus::load(&root.join("conformance"))
        .unwrap_or_else(|error| panic!("loading the corpus: {error}"));
    let fresh = corpus.run(&RunOptions::default()).to_markdown();
    let on_disk = fs::read_to_string(root.join(DOCS_FILE))
        .unwrap_or_else(|error| panic!("reading {DOCS_FILE}: {error}"));
    if let Some(message) = stale_docs(&on_disk, &fresh) {
        panic!("{message}");
    }
}

//! What `robotrules-grammar` makes of a robots.txt body, in the terms grammar cases use.

use crate::case::DirectiveKind;

/// The grammar's view of a body: its line count and the `[kind, value]` of each keyed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarObservation {
    /// Number of lines the grammar returned.
    pub lines: usize,
    /// Kind and value (lossily decoded as UTF-8) of every line that has a key, in order.
    pub directives: Vec<(DirectiveKind, String)>,
}

/// Parses `robots` with `robotrules_grammar::parse` and reports what came back.
pub fn observe(robots: &[u8]) -> GrammarObservation {
    let parsed = robotrules_grammar::parse(robots);
    let directives = parsed
        .lines
        .iter()
        .filter_map(|line| line.directive.as_ref())
        .map(|directive| {
            let kind = match directive.kind {
                robotrules_grammar::KeyKind::UserAgent => DirectiveKind::UserAgent,
                robotrules_grammar::KeyKind::Allow => DirectiveKind::Allow,
                robotrules_grammar::KeyKind::Disallow => DirectiveKind::Disallow,
                robotrules_grammar::KeyKind::Sitemap => DirectiveKind::Sitemap,
                robotrules_grammar::KeyKind::Other => DirectiveKind::Other,
            };
            let value = String::from_utf8_lossy(directive.value.slice(robots)).into_owned();
            (kind, value)
        })
        .collect();
    GrammarObservation {
        lines: parsed.lines.len(),
        directives,
    }
}

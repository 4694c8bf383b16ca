//! AI usage preferences as text for people: one URL's answer (`robotrules usage`, the usage
//! section of `explain`) and a crawler's statements (`show`).
//!
//! Every decision is the library's ([`robotrules::usage::Usage`]: which lines apply, each category's
//! outcome and the lines that decided it, the combined answer); this module only words it.
//! A line is quoted as the crawler reads it: the key, the path when there is one, and the
//! statement of preference as written, cut short and with control characters escaped.

use std::fmt::Write as _;

use robotrules::usage::{
    CategoryUsage, CombinedUsage, Outcome, SharedCategory, Usage, UsageStatement, Vocabulary,
    VocabularyUsage,
};
use robotrules_text::excerpt;

/// Longest statement of preference or path quoted, in characters.
const SHOW_VALUE: usize = 120;

/// Width of the label column.
const LABEL: usize = 22;

/// Width of the outcome column.
const OUTCOME: usize = 12;

/// The key of a vocabulary's lines, as a person writes it.
pub(crate) fn key(vocabulary: Vocabulary) -> &'static str {
    match vocabulary {
        Vocabulary::Aipref => "Content-Usage",
        Vocabulary::ContentSignals => "Content-Signal",
        _ => vocabulary.key(),
    }
}

/// Who defines a vocabulary, and in which draft.
fn source(vocabulary: Vocabulary) -> String {
    let who = match vocabulary {
        Vocabulary::Aipref => "IETF AIPREF",
        Vocabulary::ContentSignals => "Cloudflare content signals",
        _ => vocabulary.as_str(),
    };
    format!("{who}, {}", vocabulary.draft())
}

/// A statement as the crawler reads it: `Content-Usage: /ai-ok/ train-ai=y`.
pub(crate) fn statement(statement: &UsageStatement) -> String {
    let mut out = format!("{}: ", key(statement.vocabulary));
    if let Some(path) = &statement.path {
        out.push_str(&excerpt(path.as_bytes(), SHOW_VALUE));
        out.push(' ');
    }
    out.push_str(&excerpt(statement.preference.as_bytes(), SHOW_VALUE));
    out
}

/// `line 6`, `lines 6, 9`, or `no line says` for none.
fn lines(lines: &[u32]) -> String {
    match lines {
        [] => "no line says".to_owned(),
        [one] => format!("line {one}"),
        many => {
            let list: Vec<String> = many.iter().map(u32::to_string).collect();
            format!("lines {}", list.join(", "))
        }
    }
}

/// What decided a category: its lines, and the HTTP header when it stated the outcome too.
fn decided(lines_: &[u32], header: bool) -> String {
    match (lines_.is_empty(), header) {
        (_, false) => lines(lines_),
        (true, true) => "Content-Usage header".to_owned(),
        (false, true) => format!("{}, Content-Usage header", lines(lines_)),
    }
}

/// One row: label, outcome, what decided, and a note.
fn row(out: &mut String, indent: &str, label: &str, outcome: Outcome, decided: &str, note: &str) {
    let mut line = format!(
        "{indent}{label:<LABEL$}{:<OUTCOME$}{decided}",
        outcome.as_str()
    );
    if !note.is_empty() {
        line.push_str("  ");
        line.push_str(note);
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The crawl verdict's row, in the columns of the usage rows: `crawl  allowed  line 4: allow: /`.
pub(crate) fn crawl(out: &mut String, indent: &str, allowed: bool, why: &str) {
    let word = if allowed { "allowed" } else { "disallowed" };
    let line = format!("{indent}{:<LABEL$}{word:<OUTCOME$}{why}", "crawl");
    out.push_str(line.trim_end());
    out.push('\n');
}

/// The usage preferences of one URL, indented by `indent`: "not crawlable, no preference", or
/// the combined answer for the categories both vocabularies name, then each vocabulary in its
/// own terms with the lines that apply. `statements` are the crawler's (to quote its lines).
pub(crate) fn usage(out: &mut String, indent: &str, usage: &Usage, statements: &[UsageStatement]) {
    if !usage.crawlable {
        let _ = writeln!(
            out,
            "{indent}{:<LABEL$}not crawlable, no preference (draft-ietf-aipref-attach-05 §3.1: \
             preferences apply only to what the crawler may crawl)",
            "usage"
        );
        return;
    }
    let _ = writeln!(
        out,
        "{indent}combined (both vocabularies, most restrictive wins, vocab-07 §5.1):"
    );
    let inner = format!("{indent}  ");
    for combined in &usage.combined {
        self::combined(out, &inner, usage, combined);
    }
    for vocabulary in &usage.vocabularies {
        self::vocabulary(out, indent, vocabulary, statements);
    }
}

/// A shared category's combined row, with why when the vocabularies disagree.
fn combined(out: &mut String, indent: &str, usage: &Usage, combined: &CombinedUsage) {
    let labels: Vec<&str> = Vocabulary::ALL
        .into_iter()
        .map(|v| combined.category.label(v))
        .fold(Vec::new(), |mut labels, label| {
            if !labels.contains(&label) {
                labels.push(label);
            }
            labels
        });
    let parts: Vec<(Vocabulary, Outcome)> = Vocabulary::ALL
        .into_iter()
        .map(|v| (v, usage.outcome(v, combined.category.label(v))))
        .collect();
    let stated: Vec<&(Vocabulary, Outcome)> = parts
        .iter()
        .filter(|(_, outcome)| *outcome != Outcome::Unknown)
        .collect();
    let note = if stated.len() > 1 && stated.iter().any(|(_, o)| *o != combined.outcome) {
        let said: Vec<String> = parts
            .iter()
            .map(|(v, o)| format!("{} {o}", key(*v)))
            .collect();
        format!("({}: the most restrictive wins)", said.join(", "))
    } else if let [(vocabulary, _)] = stated.as_slice() {
        format!("(from {} alone)", key(*vocabulary))
    } else {
        String::new()
    };
    row(
        out,
        indent,
        &labels.join(" / "),
        combined.outcome,
        &decided(&combined.lines, combined.header),
        &note,
    );
}

/// One vocabulary: the lines that apply, then each category.
fn vocabulary(
    out: &mut String,
    indent: &str,
    vocabulary: &VocabularyUsage,
    statements: &[UsageStatement],
) {
    let _ = writeln!(
        out,
        "{indent}{} ({}):",
        key(vocabulary.vocabulary),
        source(vocabulary.vocabulary)
    );
    let inner = format!("{indent}  ");
    if vocabulary.applied.is_empty() {
        let _ = writeln!(
            out,
            "{inner}no {} line applies to this URL",
            key(vocabulary.vocabulary)
        );
    }
    for &line in &vocabulary.applied {
        let quoted = statements
            .iter()
            .find(|s| s.line == line)
            .map(|s| {
                let mut text = statement(s);
                if s.group.is_none() {
                    text.push_str("  (outside any group: for every crawler)");
                }
                if let Err(error) = &s.members {
                    let _ = write!(
                        text,
                        "  (not a Dictionary: {}; unknown for every category)",
                        excerpt(error.to_string().as_bytes(), SHOW_VALUE)
                    );
                }
                text
            })
            .unwrap_or_default();
        let _ = writeln!(out, "{inner}applies: line {line}: {quoted}");
    }
    for category in &vocabulary.categories {
        self::category(out, &inner, vocabulary.vocabulary, category);
    }
}

/// One category's row, with a note for a label the vocabulary does not define or one that
/// has no counterpart in the other vocabulary.
fn category(out: &mut String, indent: &str, vocabulary: Vocabulary, category: &CategoryUsage) {
    let shared = SharedCategory::ALL
        .iter()
        .any(|c| c.label(vocabulary) == category.label);
    let note = if !vocabulary.labels().contains(&category.label.as_str()) {
        "(not a label of this vocabulary: decides nothing else)"
    } else if !shared {
        "(no counterpart in the other vocabulary: not combined)"
    } else {
        ""
    };
    row(
        out,
        indent,
        &excerpt(category.label.as_bytes(), 40),
        category.outcome,
        &decided(&category.lines, category.header),
        note,
    );
}

/// A crawler's statements, one per line (`show`): `line 6: Content-Usage: /ai-ok/ train-ai=y`,
/// with where it stands and whether its Dictionary parses.
pub(crate) fn statements(out: &mut String, indent: &str, statements: &[UsageStatement]) {
    for s in statements {
        let mut line = format!("{indent}{}: {}", s.line, statement(s));
        if s.group.is_none() {
            line.push_str("  (outside any group: for every crawler)");
        }
        if let Err(error) = &s.members {
            let _ = write!(
                line,
                "  (not a Dictionary: {}; unknown for every category)",
                excerpt(error.to_string().as_bytes(), SHOW_VALUE)
            );
        }
        out.push_str(&line);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROBOTS: &[u8] = b"User-agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: search=yes, ai-train=no
";

    fn rendered(url: &str) -> String {
        let robots = robotrules::Robots::parse(ROBOTS);
        let crawler = robots.crawler("ExampleBot").unwrap();
        let mut out = String::new();
        usage(
            &mut out,
            "",
            &crawler.usage(url).unwrap(),
            crawler.usage_statements(),
        );
        out
    }

    #[test]
    fn each_vocabulary_in_its_terms_and_the_combined_answer_with_why() {
        let out = rendered("/ai-ok/test");
        assert!(
            out.contains(
                "  train-ai / ai-train   disallowed  line 6  (Content-Usage allowed, \
                 Content-Signal disallowed: the most restrictive wins)\n"
            ),
            "{out}"
        );
        assert!(
            out.contains("  applies: line 5: Content-Usage: /ai-ok/ train-ai=y\n"),
            "{out}"
        );
        assert!(
            out.contains("  train-ai              allowed     line 5\n"),
            "{out}"
        );
        assert!(
            out.contains(
                "  ai-input              unknown     no line says  (no counterpart in the other \
                 vocabulary"
            ),
            "{out}"
        );
    }

    #[test]
    fn a_disallowed_url_has_no_preference() {
        let out = rendered("/never/test");
        assert!(
            out.starts_with("usage                 not crawlable, no preference"),
            "{out}"
        );
        assert_eq!(out.lines().count(), 1, "{out}");
    }

    #[test]
    fn a_dictionary_that_does_not_parse_says_where() {
        let robots = robotrules::Robots::parse(b"User-agent: *\nContent-Usage: train-ai=?\n");
        let crawler = robots.crawler("ExampleBot").unwrap();
        let mut out = String::new();
        statements(&mut out, "", crawler.usage_statements());
        assert!(
            out.starts_with("2: Content-Usage: train-ai=?  (not a Dictionary: "),
            "{out}"
        );
        assert!(out.contains("unknown for every category)"), "{out}");
    }
}

//! `Explanation` and `RuleMatch`: why a URL is allowed or not.

use pyo3::prelude::*;

/// A rule that matches the URL.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
#[derive(Clone)]
pub(crate) struct RuleMatch {
    /// `"allow"` or `"disallow"`.
    kind: &'static str,
    /// 1-based line number.
    line: u32,
    /// The pattern as written.
    pattern: String,
    /// The pattern as compared (normalised; a final `$` shown).
    normalized: String,
    /// Its priority under longest-match precedence.
    priority: u32,
    /// Set for a rule derived from the line (Google's `index.html` rewrite).
    derived: bool,
}

impl From<robotrules::RuleMatch> for RuleMatch {
    fn from(rule: robotrules::RuleMatch) -> Self {
        RuleMatch {
            kind: match rule.kind {
                robotrules::RuleKind::Allow => "allow",
                robotrules::RuleKind::Disallow => "disallow",
            },
            line: rule.line,
            pattern: rule.pattern,
            normalized: rule.normalized,
            priority: rule.priority,
            derived: rule.derived,
        }
    }
}

#[pymethods]
impl RuleMatch {
    fn __repr__(&self) -> String {
        format!(
            "RuleMatch(kind={:?}, line={}, pattern={:?})",
            self.kind, self.line, self.pattern
        )
    }
}

/// The full account of one decision.
#[pyclass(frozen, get_all, module = "robotrules._robotrules")]
pub(crate) struct Explanation {
    /// The verdict: may the crawler fetch the URL?
    allowed: bool,
    /// Why: `"rule-matched"`, `"no-matching-rule"`, `"no-group"` or
    /// `"robots-txt-implicitly-allowed"`.
    reason: &'static str,
    /// The profile the file was read under.
    profile: &'static str,
    /// The crawler's name.
    agent: String,
    /// The URL as given.
    url: String,
    /// The path and query as compared.
    path: String,
    /// How the groups were chosen.
    selection: &'static str,
    /// The user-agent token that named the crawler, as written (`None` for `*` or no group).
    token: Option<String>,
    /// The deciding rule, when a rule decided.
    decided_by: Option<RuleMatch>,
    /// The deciding rule's line, when a rule decided.
    line: Option<u32>,
    /// The deciding rule's pattern as written, when a rule decided.
    rule: Option<String>,
    /// Every matching rule of the crawler's groups, in precedence order.
    matches: Vec<RuleMatch>,
    /// The first lines of the groups that apply, in file order.
    group_lines: Vec<u32>,
    /// Lines of matching rules of the other kind exactly as long as the deciding allow rule
    /// (allow wins the tie, RFC 9309 §2.2.2).
    tied_with: Vec<u32>,
}

impl From<robotrules::Explanation> for Explanation {
    fn from(why: robotrules::Explanation) -> Self {
        let decided_by = why.decided_by.map(RuleMatch::from);
        Explanation {
            allowed: why.allowed,
            reason: why.reason.as_str(),
            profile: why.profile.as_str(),
            agent: why.agent,
            url: why.url,
            path: why.path,
            selection: why.selection.as_str(),
            token: why.token,
            line: decided_by.as_ref().map(|rule| rule.line),
            rule: decided_by.as_ref().map(|rule| rule.pattern.clone()),
            decided_by,
            matches: why.matches.into_iter().map(RuleMatch::from).collect(),
            group_lines: why.groups.iter().map(|group| group.line).collect(),
            tied_with: why.tied_with,
        }
    }
}

#[pymethods]
impl Explanation {
    fn __bool__(&self) -> bool {
        self.allowed
    }

    fn __repr__(&self) -> String {
        format!(
            "Explanation(allowed={}, reason={:?}, line={}, rule={}, profile={:?})",
            if self.allowed { "True" } else { "False" },
            self.reason,
            self.line
                .map_or_else(|| "None".to_owned(), |l| l.to_string()),
            self.rule
                .as_ref()
                .map_or_else(|| "None".to_owned(), |r| format!("{r:?}")),
            self.profile
        )
    }
}

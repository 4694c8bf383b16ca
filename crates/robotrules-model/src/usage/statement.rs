//! A crawler's statements of preference: its groups' `Content-Usage` and `Content-Signal`
//! lines (and the file-wide `Content-Signal` lines, as the profile says), each read once into
//! a path and a Dictionary, their paths compiled and matched as allow/disallow paths are
//! (draft-ietf-aipref-attach-05 §3.1: "using the same path prefix matching rules as defined
//! for Allow and Disallow").

use robotrules_grammar::{dictionary, usage_value, DictionaryError, Member, Span};

use crate::extension::{Record, RecordKind};
use crate::matcher::{Matcher, Probe};
use crate::pattern::{compile, len_u32, Pattern, RuleKind};
use crate::profile::FileWideSignal;
use crate::robots::RobotsTxt;

use super::vocabulary::{Outcome, Vocabulary};

/// One `Content-Usage` or `Content-Signal` line as a crawler reads it: its optional path and
/// its statement of preference, read as an RFC 9651 Dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct UsageStatement {
    /// Which vocabulary the line carries (`Content-Usage`: AIPREF; `Content-Signal`:
    /// content signals).
    pub vocabulary: Vocabulary,
    /// 1-based line number.
    pub line: u32,
    /// The group it stands in (its position among the file's groups), none for a file-wide
    /// `Content-Signal`.
    pub group: Option<usize>,
    /// The path as written, when the value starts with `/` (attach-05 §3.2).
    pub path: Option<String>,
    /// The statement of preference as written.
    pub preference: String,
    /// Where the statement of preference starts in the value as written (after the path).
    pub preference_offset: usize,
    /// The Dictionary's members, or where it stopped parsing (offset in
    /// [`UsageStatement::preference`]): a Dictionary that does not parse gives unknown for
    /// every category (vocab-07 §6.5.1).
    pub members: Result<Vec<Member>, DictionaryError>,
}

impl UsageStatement {
    /// Read the record `value` (as stored: trimmed, without comment) of line `line`.
    fn read(vocabulary: Vocabulary, line: u32, group: Option<usize>, value: &str) -> Self {
        let bytes = value.as_bytes();
        let split = usage_value(bytes, Span::new(0, bytes.len()));
        let text = |span: Span| String::from_utf8_lossy(span.slice(bytes)).into_owned();
        UsageStatement {
            vocabulary,
            line,
            group,
            path: split.path.map(text),
            preference: text(split.preference),
            preference_offset: split.preference.start,
            members: dictionary(split.preference.slice(bytes)),
        }
    }

    /// What the statement says about `label`: unknown when the Dictionary does not parse or
    /// does not name it.
    pub fn outcome(&self, label: &str) -> Outcome {
        self.members
            .as_ref()
            .ok()
            .and_then(|members| members.iter().find(|m| m.label == label))
            .map_or(Outcome::Unknown, |m| self.vocabulary.outcome(&m.value))
    }
}

/// A crawler's statements, their paths compiled.
#[derive(Clone, Debug)]
pub(crate) struct UsageRules {
    /// Every statement, in file order.
    statements: Box<[UsageStatement]>,
    /// For each pattern of the matcher, the statement it is the path of.
    owners: Box<[u32]>,
    /// The patterns' priorities (octets of the path in the profile's form), by pattern.
    priorities: Box<[u32]>,
    /// The patterns' bytes.
    bytes: Box<[u8]>,
    matcher: Matcher,
}

impl UsageRules {
    /// The statements of groups `groups` (indices in file order) of `robots`, and the
    /// file-wide `Content-Signal` lines when the profile reads them for every crawler.
    pub(crate) fn new(robots: &RobotsTxt, groups: &[u32]) -> UsageRules {
        let reading = robots.profile.reading();
        let every_crawler = reading.file_wide_signal == FileWideSignal::EveryCrawler;
        let mut statements = Vec::new();
        for record in robots.records.iter() {
            let RecordKind::Extension(key) = record.kind else {
                continue;
            };
            let Some(vocabulary) = Vocabulary::of_key(key) else {
                continue;
            };
            let group = if record.group == Record::FILE {
                // attach-05 §3: Content-Usage is a group rule; outside a group it is not read.
                if vocabulary != Vocabulary::ContentSignals || !every_crawler {
                    continue;
                }
                None
            } else if groups.binary_search(&record.group).is_ok() {
                Some(record.group as usize)
            } else {
                continue;
            };
            statements.push(UsageStatement::read(
                vocabulary,
                record.line,
                group,
                record.value(&robots.text),
            ));
        }
        let (mut patterns, mut owners, mut priorities, mut bytes) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, statement) in statements.iter().enumerate() {
            let Some(path) = &statement.path else {
                continue;
            };
            // A path is matched as an allow rule's pattern is, in the profile's form.
            let compiled = compile(path.as_bytes(), RuleKind::Allow, reading);
            let mut pattern: Pattern = compiled.pattern;
            pattern.start = len_u32(bytes.len());
            pattern.len = len_u32(compiled.bytes.len());
            bytes.extend_from_slice(&compiled.bytes);
            priorities.push(pattern.priority);
            patterns.push(pattern);
            owners.push(len_u32(i));
        }
        let matcher = Matcher::new(patterns.iter(), &bytes);
        UsageRules {
            statements: statements.into(),
            owners: owners.into(),
            priorities: priorities.into(),
            bytes: bytes.into(),
            matcher,
        }
    }

    /// Every statement, in file order.
    pub(crate) fn statements(&self) -> &[UsageStatement] {
        &self.statements
    }

    /// The statements of `vocabulary` that apply to `path` (in the profile's form): those
    /// whose path matches with the most octets, all of them on a tie; when no path matches,
    /// those without a path (attach-05 §3.1: longest match, as for Allow and Disallow).
    pub(crate) fn applying(&self, vocabulary: Vocabulary, path: &[u8]) -> Vec<&UsageStatement> {
        let mut probe = Probe::new(path);
        let matched: Vec<(u32, &UsageStatement)> = self
            .matcher
            .every_match(&self.bytes, &mut probe)
            .into_iter()
            .filter_map(|p| {
                let owner = *self.owners.get(p as usize)?;
                let statement = self.statements.get(owner as usize)?;
                let priority = *self.priorities.get(p as usize)?;
                (statement.vocabulary == vocabulary).then_some((priority, statement))
            })
            .collect();
        let mut applying: Vec<&UsageStatement> = match matched.iter().map(|(p, _)| *p).max() {
            Some(longest) => matched
                .into_iter()
                .filter(|(p, _)| *p == longest)
                .map(|(_, s)| s)
                .collect(),
            None => self
                .statements
                .iter()
                .filter(|s| s.vocabulary == vocabulary && s.path.is_none())
                .collect(),
        };
        applying.sort_by_key(|s| s.line);
        applying
    }

    /// Approximate heap bytes held.
    pub(crate) fn heap_size(&self) -> usize {
        self.statements
            .iter()
            .map(|s| {
                std::mem::size_of::<UsageStatement>()
                    + s.preference.len()
                    + s.path.as_ref().map_or(0, String::len)
            })
            .sum::<usize>()
            + self.owners.len() * 8
            + self.bytes.len()
            + self.matcher.heap_size()
    }
}

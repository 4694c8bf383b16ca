//! What every check reads: the input, the grammar's lines, the model under each profile, and
//! the findings gathered so far.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use robotrules_grammar::{parse_with, Limits, Line, Parsed};
use robotrules_model::{Deadline, Group, GroupRules, Profile, RobotsTxt, Rule, Severity, Span};

use crate::finding::{Finding, LintOptions, LintReport};
use crate::source;

/// The state of one lint run.
pub(crate) struct Context<'a> {
    /// The input, whole.
    pub(crate) source: &'a [u8],
    /// The options.
    pub(crate) options: LintOptions,
    /// The grammar's reading under the target profile's options.
    pub(crate) parsed: Parsed<'a>,
    /// The model under each profile, in [`Profile::ALL`] order.
    models: Vec<Arc<RobotsTxt>>,
    /// Each model's groups compiled, made when a check first needs them.
    compiled: [OnceCell<Vec<GroupRules>>; 3],
    /// Each model's lines by group, made when a check first needs them.
    lines_by_group: [OnceCell<LineGroups>; 3],
    /// Findings so far.
    findings: Vec<Finding>,
    /// When the run gives up: the checks' loops ask [`Context::expired`].
    deadline: Deadline,
    /// Whether the deadline was seen passed.
    expired: std::cell::Cell<bool>,
}

/// Which group of a model holds each line: its user-agent lines, and its rules (as written)
/// and group records.
#[derive(Debug, Default)]
pub(crate) struct LineGroups {
    /// User-agent line -> group index.
    pub(crate) agents: BTreeMap<u32, usize>,
    /// Allow, disallow or group record line -> group index.
    pub(crate) members: BTreeMap<u32, usize>,
}

/// Index of a profile in [`Profile::ALL`].
pub(crate) fn profile_index(profile: Profile) -> usize {
    Profile::ALL
        .iter()
        .position(|&p| p == profile)
        .unwrap_or_default()
}

impl<'a> Context<'a> {
    pub(crate) fn new(source: &'a [u8], options: &LintOptions, deadline: Deadline) -> Context<'a> {
        let options = options.clone();
        let parsed = parse_with(
            source,
            &Limits {
                parse_limit: options.parse_limit,
                max_line_len: options.profile.reading().max_line_len,
            },
        );
        let models: Vec<Arc<RobotsTxt>> = Profile::ALL
            .iter()
            .map(|&p| Arc::new(RobotsTxt::parse(source, p, options.parse_limit)))
            .collect();
        Context {
            source,
            options,
            parsed,
            models,
            compiled: Default::default(),
            lines_by_group: Default::default(),
            findings: Vec::new(),
            deadline,
            expired: std::cell::Cell::new(false),
        }
    }

    /// Whether the run's deadline has passed: then every check stops where it is, and the
    /// report is not given out ([`crate::lint_within`]).
    pub(crate) fn expired(&self) -> bool {
        if !self.expired.get() && self.deadline.check().is_err() {
            self.expired.set(true);
        }
        self.expired.get()
    }

    /// The profile linted for.
    pub(crate) fn profile(&self) -> Profile {
        self.options.profile
    }

    /// The model under the profile linted for.
    pub(crate) fn target(&self) -> &RobotsTxt {
        self.model(self.options.profile)
    }

    /// The model under `profile`.
    pub(crate) fn model(&self, profile: Profile) -> &Arc<RobotsTxt> {
        &self.models[profile_index(profile)]
    }

    /// Every group of the model under `profile`, compiled (once per lint run).
    pub(crate) fn compiled(&self, profile: Profile) -> &[GroupRules] {
        let robots = self.model(profile);
        self.compiled[profile_index(profile)]
            .get_or_init(|| robots.groups().iter().map(|g| g.rules(robots)).collect())
    }

    /// Which group of the model under `profile` holds each user-agent, rule and group record
    /// line (once per lint run).
    pub(crate) fn lines_by_group(&self, profile: Profile) -> &LineGroups {
        self.lines_by_group[profile_index(profile)].get_or_init(|| {
            let robots = self.model(profile);
            let mut lines = LineGroups::default();
            for group in robots.groups() {
                for agent in group.agents(robots) {
                    lines.agents.insert(agent.line, group.index());
                }
                for rule in self.rules_of(profile, group) {
                    if !rule.derived {
                        lines.members.insert(rule.line, group.index());
                    }
                }
                for record in group.extensions(robots) {
                    lines.members.insert(record.line, group.index());
                }
            }
            lines
        })
    }

    /// The rules of `group`, a group of the model under `profile`, in precedence order.
    pub(crate) fn rules_of(&self, profile: Profile, group: &Group) -> &[Rule] {
        self.compiled(profile)
            .get(group.index())
            .map_or(&[], GroupRules::rules)
    }

    /// The grammar's line `number` (1-based).
    pub(crate) fn line(&self, number: u32) -> Option<&Line> {
        let index = usize::try_from(number).ok()?.checked_sub(1)?;
        self.parsed.lines.get(index)
    }

    /// The span of line `number`'s record, key to value (the whole line if it has none).
    pub(crate) fn record_span(&self, number: u32) -> Span {
        match self.line(number) {
            Some(Line {
                directive: Some(d), ..
            }) => Span::new(d.key.start, d.value.end.max(d.key.end)),
            Some(line) => line.read,
            None => Span::default(),
        }
    }

    /// The bytes of a span.
    pub(crate) fn slice(&self, span: Span) -> &'a [u8] {
        span.slice(self.source)
    }

    /// A span as a short, printable excerpt.
    pub(crate) fn excerpt(&self, span: Span) -> String {
        robotrules_text::excerpt(self.slice(span), 60)
    }

    /// `error` when the profile linted for is among `drops`, else `warning`.
    pub(crate) fn error_if_dropped_by(&self, drops: &[Profile]) -> Severity {
        if drops.contains(&self.options.profile) {
            Severity::Error
        } else {
            Severity::Warning
        }
    }

    /// Record a finding.
    pub(crate) fn push(&mut self, lint: Finding) {
        self.findings.push(lint);
    }

    /// Whether any finding was recorded.
    pub(crate) fn has_findings(&self) -> bool {
        !self.findings.is_empty()
    }

    /// Whether a finding with `code` was recorded.
    pub(crate) fn has(&self, code: crate::Code) -> bool {
        self.findings.iter().any(|f| f.code == code)
    }

    /// Remove findings for which `keep` is false.
    pub(crate) fn retain(&mut self, keep: impl FnMut(&Finding) -> bool) {
        self.findings.retain(keep);
    }

    /// Change the findings with `code`.
    pub(crate) fn update(&mut self, code: crate::Code, mut change: impl FnMut(&mut Finding)) {
        for finding in self.findings.iter_mut().filter(|f| f.code == code) {
            change(finding);
        }
    }

    /// Sort, count, cap, and fill in columns.
    pub(crate) fn finish(self) -> LintReport {
        let Context {
            source,
            options,
            mut findings,
            ..
        } = self;
        findings.retain_mut(|f| {
            if options.levels.get(f.code).is_none() && f.code.allowed_by_default(options.profile) {
                return false;
            }
            match options.levels.apply(f.code, f.severity) {
                Some(severity) => {
                    f.severity = severity;
                    true
                }
                None => false,
            }
        });
        findings.sort_by(|a, b| {
            (a.span.start, a.line, a.code, a.span.end).cmp(&(
                b.span.start,
                b.line,
                b.code,
                b.span.end,
            ))
        });
        findings.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
        let count = |severity| findings.iter().filter(|f| f.severity == severity).count();
        let (errors, warnings, notes) = (
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Note),
        );
        let truncated_count = findings.len().saturating_sub(options.max_findings);
        findings.truncate(options.max_findings);
        for finding in &mut findings {
            finding.column = source::column(source, finding.span.start);
            for related in &mut finding.related {
                related.column = source::column(source, related.span.start);
            }
        }
        LintReport {
            profile: options.profile,
            findings,
            truncated_count,
            errors,
            warnings,
            notes,
        }
    }
}

//! The grammar's and the model's own findings, read under every profile and merged by place,
//! so each check can say under which profiles a problem occurs.

use std::collections::BTreeMap;

use robotrules_grammar::Separator;
use robotrules_model::{DiagnosticKind, Profile, Span};

use crate::code::Code;
use crate::context::{profile_index, Context};

/// One finding of the model, as seen under each profile.
pub(crate) struct Observed {
    /// The lint code it maps to.
    pub(crate) code: Code,
    /// The bytes concerned.
    pub(crate) span: Span,
    /// 1-based line.
    pub(crate) line: u32,
    /// What each profile (in [`Profile::ALL`] order) reported, if anything.
    kinds: [Option<DiagnosticKind>; Profile::ALL.len()],
}

impl Observed {
    /// What `profile` reported.
    pub(crate) fn at(&self, profile: Profile) -> Option<DiagnosticKind> {
        self.kinds[profile_index(profile)]
    }

    /// The first report, in profile order (every `Observed` has one).
    pub(crate) fn any(&self) -> Option<DiagnosticKind> {
        self.kinds.iter().flatten().next().copied()
    }

    /// The profiles whose report satisfies `test`.
    pub(crate) fn profiles_where(&self, test: impl Fn(DiagnosticKind) -> bool) -> Vec<Profile> {
        Profile::ALL
            .iter()
            .copied()
            .filter(|&p| self.at(p).is_some_and(&test))
            .collect()
    }

    /// The profiles that reported it at all.
    pub(crate) fn profiles(&self) -> Vec<Profile> {
        self.profiles_where(|_| true)
    }
}

/// The lint code a model finding maps to; `None` for a kind newer than this crate's codes.
pub(crate) fn code_of(kind: DiagnosticKind) -> Option<Code> {
    use robotrules_grammar::FindingKind as G;
    Some(match kind {
        DiagnosticKind::Grammar(g) => match g {
            G::ByteOrderMark { .. } => Code::ByteOrderMark,
            G::HtmlContent => Code::HtmlContent,
            G::InvalidUtf8 => Code::InvalidUtf8,
            G::NulByte => Code::NulByte,
            G::LineTooLong { .. } => Code::LineTooLong,
            G::ParseLimit { .. } => Code::ParseLimit,
            G::NoDirective => Code::NoDirective,
            _ => return None,
        },
        DiagnosticKind::RuleOutsideGroup => Code::RuleOutsideGroup,
        DiagnosticKind::KeyNotAccepted {
            separator: Separator::Whitespace,
            ..
        }
        | DiagnosticKind::KeyAcceptedLeniently {
            separator: Separator::Whitespace,
            ..
        } => Code::MissingColon,
        DiagnosticKind::KeyNotAccepted { .. } | DiagnosticKind::KeyAcceptedLeniently { .. } => {
            Code::MisspeltKey
        }
        DiagnosticKind::PatternWithoutSlash { .. } => Code::PatternWithoutSlash,
        DiagnosticKind::UserAgentTruncated => Code::UserAgentTruncated,
        DiagnosticKind::EmptyUserAgent => Code::EmptyUserAgent,
        _ => return None,
    })
}

/// Every model finding under every profile, merged by (place, code), in input order.
pub(crate) fn collect(ctx: &Context<'_>) -> Vec<Observed> {
    let mut merged: BTreeMap<(usize, usize, Code), Observed> = BTreeMap::new();
    for (i, &profile) in Profile::ALL.iter().enumerate() {
        for d in ctx.model(profile).diagnostics() {
            let Some(code) = code_of(d.kind) else {
                continue;
            };
            let entry = merged
                .entry((d.span.start, d.span.end, code))
                .or_insert(Observed {
                    code,
                    span: d.span,
                    line: d.line,
                    kinds: [None; Profile::ALL.len()],
                });
            entry.kinds[i] = Some(d.kind);
        }
    }
    merged.into_values().collect()
}

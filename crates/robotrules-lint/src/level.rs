//! Per-code levels, as rustc's `-A`/`-W`/`-D` flags set them: allow (leave the finding out),
//! warn (a warning), deny (an error). A level names a code or a group of findings: `warnings`
//! (every finding that is a warning once per-code levels are applied) or `notes`.
//!
//! A level for a code beats a level for a group, whatever their order: `-D warnings -A
//! empty-rule` denies every warning but leaves `empty-rule` out, and so does `-A empty-rule -D
//! warnings`. Between two levels for the same code or group, the later one wins.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use robotrules_model::Severity;

use crate::code::{Code, UnknownCode};

/// What to do with a finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Leave it out of the report.
    Allow,
    /// Report it as a warning.
    Warn,
    /// Report it as an error.
    Deny,
}

impl Level {
    /// The name rustc gives the level: `allow`, `warn`, `deny`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a level applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LevelTarget {
    /// One code.
    Code(Code),
    /// Every finding that is a warning after the per-code levels.
    Warnings,
    /// Every finding that is a note after the per-code levels.
    Notes,
}

impl fmt::Display for LevelTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelTarget::Code(code) => code.fmt(f),
            LevelTarget::Warnings => f.write_str("warnings"),
            LevelTarget::Notes => f.write_str("notes"),
        }
    }
}

impl FromStr for LevelTarget {
    type Err = UnknownCode;

    /// A code (`empty-rule`), or `warnings` or `notes`.
    fn from_str(s: &str) -> Result<LevelTarget, UnknownCode> {
        match s {
            "warnings" => Ok(LevelTarget::Warnings),
            "notes" => Ok(LevelTarget::Notes),
            _ => s.parse().map(LevelTarget::Code),
        }
    }
}

/// The levels set for codes and groups; by default none, so every finding keeps the severity
/// the linter gave it, except the codes left out by default for the profile linted for
/// ([`Code::allowed_by_default`]), which a level for the code brings back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels {
    codes: BTreeMap<Code, Level>,
    warnings: Option<Level>,
    notes: Option<Level>,
}

impl Levels {
    /// Set `target` to `level` (a later call for the same target wins).
    pub fn set(&mut self, target: LevelTarget, level: Level) -> &mut Levels {
        match target {
            LevelTarget::Code(code) => {
                self.codes.insert(code, level);
            }
            LevelTarget::Warnings => self.warnings = Some(level),
            LevelTarget::Notes => self.notes = Some(level),
        }
        self
    }

    /// `levels` applied in order.
    pub fn from_list(levels: impl IntoIterator<Item = (LevelTarget, Level)>) -> Levels {
        let mut out = Levels::default();
        for (target, level) in levels {
            out.set(target, level);
        }
        out
    }

    /// The level set for `code` itself, if any (not a group's).
    pub fn get(&self, code: Code) -> Option<Level> {
        self.codes.get(&code).copied()
    }

    /// Whether no level is set.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty() && self.warnings.is_none() && self.notes.is_none()
    }

    /// The severity a finding of `code` found at `severity` is reported with, or `None` when
    /// it is allowed (left out).
    pub fn apply(&self, code: Code, severity: Severity) -> Option<Severity> {
        if let Some(&level) = self.codes.get(&code) {
            return to_severity(level);
        }
        let group = match severity {
            Severity::Warning => self.warnings,
            Severity::Note => self.notes,
            Severity::Error => None,
        };
        match group {
            Some(level) => to_severity(level),
            None => Some(severity),
        }
    }
}

fn to_severity(level: Level) -> Option<Severity> {
    match level {
        Level::Allow => None,
        Level::Warn => Some(Severity::Warning),
        Level::Deny => Some(Severity::Error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_beats_a_group_and_the_later_level_wins() {
        let levels = Levels::from_list([
            (LevelTarget::Code(Code::EmptyRule), Level::Allow),
            (LevelTarget::Warnings, Level::Deny),
            (LevelTarget::Code(Code::DuplicateGroup), Level::Deny),
            (LevelTarget::Code(Code::DuplicateGroup), Level::Warn),
        ]);
        assert_eq!(levels.apply(Code::EmptyRule, Severity::Warning), None);
        assert_eq!(
            levels.apply(Code::MisspeltKey, Severity::Warning),
            Some(Severity::Error)
        );
        assert_eq!(
            levels.apply(Code::DuplicateGroup, Severity::Warning),
            Some(Severity::Warning)
        );
        assert_eq!(
            levels.apply(Code::NulByte, Severity::Error),
            Some(Severity::Error)
        );
        assert_eq!(
            levels.apply(Code::EmptyRule, Severity::Note),
            None,
            "allowed whatever its severity"
        );
        assert_eq!(
            Levels::default().apply(Code::EmptyRule, Severity::Note),
            Some(Severity::Note)
        );
    }

    #[test]
    fn targets_parse() {
        assert_eq!("warnings".parse(), Ok(LevelTarget::Warnings));
        assert_eq!("notes".parse(), Ok(LevelTarget::Notes));
        assert_eq!("empty-rule".parse(), Ok(LevelTarget::Code(Code::EmptyRule)));
        assert!("nope".parse::<LevelTarget>().is_err());
    }
}

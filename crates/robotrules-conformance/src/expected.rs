//! `conformance/expected-differences.txt`: the (case, profile) pairs whose expectation a
//! profile deliberately does not meet, each with its reason.
//!
//! Format: one entry per line, `<case id> <profile> <reason to end of line>`; lines starting
//! with `#` are comments; blank lines are ignored.

use std::fmt;
use std::path::Path;

use robotrules::Profile;

use crate::case::parse_profile;

/// One listed (case, profile) pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The case id.
    pub id: String,
    /// The profile that deliberately differs.
    pub profile: Profile,
    /// Why.
    pub reason: String,
    /// The 1-based line of the entry in the file.
    pub line: usize,
}

/// All entries of the file, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpectedDifferences {
    /// The entries, in file order.
    pub entries: Vec<Entry>,
}

/// A malformed line of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ExpectedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected-differences line {}: {}",
            self.line, self.message
        )
    }
}

impl std::error::Error for ExpectedError {}

impl ExpectedDifferences {
    /// Parses the file's text.
    pub fn parse(text: &str) -> Result<ExpectedDifferences, ExpectedError> {
        let mut entries: Vec<Entry> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            let error = |message: String| ExpectedError { line, message };
            let mut fields = content.splitn(3, char::is_whitespace);
            let id = fields.next().unwrap_or_default();
            let profile = fields
                .next()
                .ok_or_else(|| error("expected `<case id> <profile> <reason>`".to_owned()))?;
            let profile = parse_profile(profile).map_err(error)?;
            let reason = fields.next().unwrap_or_default().trim();
            if reason.is_empty() {
                return Err(error(format!(
                    "`{id} {profile}` has no reason: say why the profile differs"
                )));
            }
            if let Some(first) = entries.iter().find(|e| e.id == id && e.profile == profile) {
                return Err(error(format!(
                    "`{id} {profile}` is already listed on line {}",
                    first.line
                )));
            }
            entries.push(Entry {
                id: id.to_owned(),
                profile,
                reason: reason.to_owned(),
                line,
            });
        }
        Ok(ExpectedDifferences { entries })
    }

    /// Reads and parses the file; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<ExpectedDifferences, Box<dyn std::error::Error>> {
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(ExpectedDifferences::parse(&text)
                .map_err(|e| format!("{}: {e}", path.display()))?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok(ExpectedDifferences::default())
            }
            Err(e) => Err(format!("{}: {e}", path.display()).into()),
        }
    }

    /// The entry for (id, profile), if listed.
    pub fn find(&self, id: &str, profile: Profile) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.id == id && e.profile == profile)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn parses_entries_skipping_comments_and_blank_lines() {
        let text = "# protego\n\nprotego/1 google  Google reads it otherwise: see §2\n  # x\nrfc9309/2 legacy1994 no wildcards in 1994\n";
        let list = ExpectedDifferences::parse(text).unwrap();
        assert_eq!(list.entries.len(), 2);
        assert_eq!(list.entries[0].id, "protego/1");
        assert_eq!(list.entries[0].profile, Profile::Google);
        assert_eq!(list.entries[0].reason, "Google reads it otherwise: see §2");
        assert_eq!(list.entries[0].line, 3);
        assert_eq!(list.entries[1].profile, Profile::Legacy1994);
        assert!(list.find("protego/1", Profile::Google).is_some());
        assert!(list.find("protego/1", Profile::Rfc9309).is_none());
    }

    #[rstest]
    #[case::no_profile("case-id\n", 1, "expected")]
    #[case::unknown_profile("\ncase-id bing because\n", 2, "bing")]
    #[case::no_reason("case-id google   \n", 1, "no reason")]
    #[case::listed_twice("a google x\na google y\n", 2, "already listed on line 1")]
    fn malformed_lines_are_rejected(#[case] text: &str, #[case] line: usize, #[case] needle: &str) {
        let err = ExpectedDifferences::parse(text).unwrap_err();
        assert_eq!(err.line, line);
        assert!(err.message.contains(needle), "{err}");
    }

    #[test]
    fn missing_file_is_an_empty_list() {
        let list = ExpectedDifferences::load(Path::new("/nonexistent/expected.txt")).unwrap();
        assert!(list.entries.is_empty());
    }
}

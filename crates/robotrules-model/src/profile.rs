//! The three readings of a robots.txt file. `docs/profiles.md` lists every difference with
//! its citation.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

/// Which reading of robots.txt to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// RFC 9309, section by section (the default).
    #[default]
    Rfc9309,
    /// Bit-for-bit agreement with Google's reference library (google/robotstxt).
    Google,
    /// The 1994 convention: records end at blank lines, first match wins, no wildcards,
    /// substring user-agent matching.
    Legacy1994,
}

impl Profile {
    /// Every profile, in the order reports show them.
    pub const ALL: [Profile; 3] = [Profile::Rfc9309, Profile::Google, Profile::Legacy1994];

    /// The profile's name as the CLI and the corpus spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::Rfc9309 => "rfc9309",
            Profile::Google => "google",
            Profile::Legacy1994 => "legacy1994",
        }
    }

    /// Google's library cuts lines at `2083 * 8 - 1` bytes.
    pub const fn max_line_len(self) -> Option<usize> {
        match self {
            Profile::Google => Some(GOOGLE_MAX_LINE_LEN),
            Profile::Rfc9309 | Profile::Legacy1994 => None,
        }
    }
}

/// Google's line-length limit: `kMaxLineLen = 2083 * 8`, one byte of which is the terminator.
pub const GOOGLE_MAX_LINE_LEN: usize = 2083 * 8 - 1;

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that is not one of `rfc9309`, `google`, `legacy1994`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown profile `{0}` (expected rfc9309, google or legacy1994)")]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Profile, UnknownProfile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}

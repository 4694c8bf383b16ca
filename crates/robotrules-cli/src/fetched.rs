//! What a fetched robots.txt's access result (RFC 9309 §2.3.1) means for the commands that
//! answer without a file to read: an unavailable file allows every URL (§2.3.1.3), an
//! unreachable one disallows every URL (§2.3.1.4). The client says which
//! ([`Lookup::allows_all`]); this module words it.

use robotrules::client::{AccessKind, Lookup};
use serde::Serialize;

use crate::args::Verbose;

/// Why the robots.txt of `lookup` is unavailable or unreachable, as the commands report it:
/// the short reason (`connection refused`), with the network library's error chain after it
/// under `--verbose`.
pub(crate) fn access_reason(lookup: &Lookup) -> Option<String> {
    let reason = lookup.access_reason()?;
    Some(Verbose::reason(reason, lookup.served().error_chain()))
}

/// The access result of a fetched robots.txt, as the commands report it.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Fetched {
    /// Success, unavailable or unreachable (RFC 9309 §2.3.1).
    pub(crate) access: AccessKind,
    /// Why the file is unavailable or unreachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) access_reason: Option<String>,
    /// What the access result decides alone for every URL: allow all, disallow all, or
    /// nothing (a success: the rules decide).
    #[serde(skip)]
    pub(crate) allows_all: Option<bool>,
}

impl Fetched {
    /// The access result the client applies.
    pub(crate) fn new(lookup: &Lookup) -> Fetched {
        Fetched {
            access: lookup.access(),
            access_reason: access_reason(lookup),
            allows_all: lookup.allows_all(),
        }
    }

    /// The verdict for every URL when the access result decides alone: `Some(true)` for
    /// unavailable (allow all), `Some(false)` for unreachable (disallow all), with the reason
    /// (`robots-txt-unreachable: HTTP status 503`); `None` for a success (the rules decide).
    pub(crate) fn blanket(&self) -> Option<(bool, String)> {
        let allowed = self.allows_all?;
        let reason = self.access_reason.as_deref().unwrap_or("no reason given");
        Some((allowed, format!("robots-txt-{}: {reason}", self.access)))
    }

    /// What the access result means, said plainly, when it decides alone: `no robots.txt
    /// (404): every URL is allowed, RFC 9309 §2.3.1.3`, `unreachable (503): every URL is
    /// disallowed, RFC 9309 §2.3.1.4`; `None` for a success.
    pub(crate) fn plainly(&self) -> Option<String> {
        let (allowed, _) = self.blanket()?;
        let reason = self.access_reason.as_deref().unwrap_or("no reason given");
        // `HTTP status 503` is shown as its code; any other reason (a network error) as written.
        let why = reason.strip_prefix("HTTP status ").unwrap_or(reason);
        Some(if allowed {
            format!("no robots.txt ({why}): every URL is allowed, RFC 9309 §2.3.1.3")
        } else {
            format!("unreachable ({why}): every URL is disallowed, RFC 9309 §2.3.1.4")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_failed_fetch_decides_alone_and_says_why() {
        let fetched = |access, reason: Option<&str>, allows_all| Fetched {
            access,
            access_reason: reason.map(str::to_owned),
            allows_all,
        };
        assert_eq!(
            fetched(
                AccessKind::Unreachable,
                Some("HTTP status 503"),
                Some(false)
            )
            .blanket(),
            Some((false, "robots-txt-unreachable: HTTP status 503".into()))
        );
        assert_eq!(
            fetched(AccessKind::Unavailable, Some("HTTP status 404"), Some(true)).plainly(),
            Some("no robots.txt (404): every URL is allowed, RFC 9309 §2.3.1.3".into())
        );
        assert_eq!(fetched(AccessKind::Success, None, None).blanket(), None);
    }
}

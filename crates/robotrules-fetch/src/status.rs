//! What an HTTP status makes of a robots.txt (RFC 9309 §2.3.1), with no I/O and no runtime.
//!
//! This is the one table of the project: the fetch client's loop, the survey of archived
//! captures, and the Python and JavaScript packages (for the responses their own HTTP
//! clients receive) all read a status through [`status_access`].

/// The redirect count RFC 9309 §2.3.1.2 asks crawlers to follow at least: "The crawlers
/// SHOULD follow at least five consecutive redirects".
pub const RFC9309_MIN_REDIRECTS: usize = 5;

/// How an HTTP 429 (Too Many Requests) answer is read.
///
/// RFC 9309 §2.3.1.3 puts all of 400–499 in "unavailable"; Google and most production
/// crawlers read 429 as a server error instead (crawler-ecosystem.md §2), which is the
/// default here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum TooManyRequests {
    /// 429 is "unreachable": disallow everything and retry after a back-off (default).
    #[default]
    Unreachable,
    /// 429 is "unavailable" like any other 4xx: allow everything (the RFC's literal reading).
    Unavailable,
}

impl TooManyRequests {
    /// The reading named `name` (`unreachable` or `unavailable`), as the command line, the
    /// bindings and the conformance corpus spell it.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "unreachable" => Some(Self::Unreachable),
            "unavailable" => Some(Self::Unavailable),
            _ => None,
        }
    }

    /// The reading's name: `unreachable` or `unavailable`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unreachable => "unreachable",
            Self::Unavailable => "unavailable",
        }
    }
}

/// What a response's status makes of the robots.txt it answers for (RFC 9309 §2.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StatusAccess {
    /// 2xx: the body is the robots.txt (RFC 9309 §2.3.1.1).
    Success,
    /// 301, 302, 303, 307 or 308 with a target: follow it (RFC 9309 §2.3.1.2).
    Redirect,
    /// "Unavailable", every path allowed (RFC 9309 §2.3.1.3): 400–499 (429 only when
    /// [`TooManyRequests::Unavailable`] is asked for), and any 3xx without a target to follow.
    Unavailable,
    /// "Unreachable", every path disallowed (RFC 9309 §2.3.1.4): 500–599, 429 by default, and
    /// any status outside 200–599.
    Unreachable,
}

impl StatusAccess {
    /// The access's name: `success`, `redirect`, `unavailable` or `unreachable`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Success => "success",
            Self::Redirect => "redirect",
            Self::Unavailable => "unavailable",
            Self::Unreachable => "unreachable",
        }
    }

    /// Whether every path is allowed (unavailable), disallowed (unreachable), or neither
    /// (the body decides, or the redirect target's answer does).
    pub fn blanket(self) -> Option<bool> {
        match self {
            Self::Unavailable => Some(true),
            Self::Unreachable => Some(false),
            Self::Success | Self::Redirect => None,
        }
    }
}

/// The redirect statuses that carry a `Location` to follow (RFC 9110 §15.4).
pub fn is_redirect_status(status: u16) -> bool {
    matches!(status, 301 | 302 | 303 | 307 | 308)
}

/// What `status` makes of the robots.txt (RFC 9309 §2.3.1); `has_redirect_target` says
/// whether the response names a target (a `Location` header), and `too_many_requests` how
/// 429 is read.
///
/// ```
/// use robotrules_fetch::status::{status_access, StatusAccess, TooManyRequests};
///
/// assert_eq!(status_access(404, false, TooManyRequests::default()), StatusAccess::Unavailable);
/// assert_eq!(status_access(429, false, TooManyRequests::default()), StatusAccess::Unreachable);
/// assert_eq!(status_access(429, false, TooManyRequests::Unavailable), StatusAccess::Unavailable);
/// ```
pub fn status_access(
    status: u16,
    has_redirect_target: bool,
    too_many_requests: TooManyRequests,
) -> StatusAccess {
    match status {
        200..=299 => StatusAccess::Success,
        _ if is_redirect_status(status) && has_redirect_target => StatusAccess::Redirect,
        429 if too_many_requests == TooManyRequests::Unreachable => StatusAccess::Unreachable,
        300..=499 => StatusAccess::Unavailable,
        _ => StatusAccess::Unreachable,
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    const DEFAULT: TooManyRequests = TooManyRequests::Unreachable;
    const LITERAL: TooManyRequests = TooManyRequests::Unavailable;

    #[rstest]
    #[case(200, false, DEFAULT, StatusAccess::Success)]
    #[case(204, true, DEFAULT, StatusAccess::Success)]
    #[case(299, false, DEFAULT, StatusAccess::Success)]
    #[case(301, true, DEFAULT, StatusAccess::Redirect)]
    #[case(308, true, DEFAULT, StatusAccess::Redirect)]
    #[case(301, false, DEFAULT, StatusAccess::Unavailable)]
    #[case(304, true, DEFAULT, StatusAccess::Unavailable)]
    #[case(300, true, DEFAULT, StatusAccess::Unavailable)]
    #[case(401, false, DEFAULT, StatusAccess::Unavailable)]
    #[case(403, false, DEFAULT, StatusAccess::Unavailable)]
    #[case(404, false, DEFAULT, StatusAccess::Unavailable)]
    #[case(429, false, DEFAULT, StatusAccess::Unreachable)]
    #[case(429, true, LITERAL, StatusAccess::Unavailable)]
    #[case(499, false, DEFAULT, StatusAccess::Unavailable)]
    #[case(500, false, DEFAULT, StatusAccess::Unreachable)]
    #[case(503, false, LITERAL, StatusAccess::Unreachable)]
    #[case(599, false, DEFAULT, StatusAccess::Unreachable)]
    #[case(600, false, DEFAULT, StatusAccess::Unreachable)]
    #[case(101, false, DEFAULT, StatusAccess::Unreachable)]
    #[case(0, false, DEFAULT, StatusAccess::Unreachable)]
    fn statuses_read_as_rfc_9309_section_2_3_1(
        #[case] status: u16,
        #[case] has_target: bool,
        #[case] policy: TooManyRequests,
        #[case] expected: StatusAccess,
    ) {
        assert_eq!(status_access(status, has_target, policy), expected);
    }

    #[test]
    fn names_round_trip() {
        for policy in [DEFAULT, LITERAL] {
            assert_eq!(TooManyRequests::from_name(policy.name()), Some(policy));
        }
        assert_eq!(TooManyRequests::from_name("allow"), None);
    }
}

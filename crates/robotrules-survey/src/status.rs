//! What an HTTP status makes of a robots.txt (RFC 9309 §2.3.1), as the robotrules fetch
//! client reads it: the same status gives the same reach here as `robotrules fetch` and
//! `check` on a live site.

/// What a capture's status means for its host's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusClass {
    /// 2xx: the body is the robots.txt (RFC 9309 §2.3.1.1).
    Success,
    /// 301, 302, 303, 307, 308 with a `Location`: follow it (RFC 9309 §2.3.1.2).
    Redirect,
    /// Any other 3xx, and 400–499 but 429: "unavailable", every path allowed (RFC 9309
    /// §2.3.1.3).
    Unavailable,
    /// 429 (read as a server error, as Google and the fetch client's default do), 5xx and any
    /// other status: "unreachable", every path disallowed (RFC 9309 §2.3.1.4).
    Unreachable,
}

/// The class of `status`; `has_location` says whether the response names a target.
pub fn status_class(status: u16, has_location: bool) -> StatusClass {
    match status {
        200..=299 => StatusClass::Success,
        301 | 302 | 303 | 307 | 308 if has_location => StatusClass::Redirect,
        429 => StatusClass::Unreachable,
        300..=499 => StatusClass::Unavailable,
        _ => StatusClass::Unreachable,
    }
}

/// How many redirects in a row are followed (RFC 9309 §2.3.1.2: "at least five"); past them
/// the robots.txt is unavailable.
pub const MAX_REDIRECTS: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_rfc_9309() {
        assert_eq!(status_class(200, false), StatusClass::Success);
        assert_eq!(status_class(301, true), StatusClass::Redirect);
        assert_eq!(status_class(301, false), StatusClass::Unavailable);
        assert_eq!(status_class(304, true), StatusClass::Unavailable);
        assert_eq!(status_class(404, false), StatusClass::Unavailable);
        assert_eq!(status_class(429, false), StatusClass::Unreachable);
        assert_eq!(status_class(503, false), StatusClass::Unreachable);
        assert_eq!(status_class(101, false), StatusClass::Unreachable);
    }
}

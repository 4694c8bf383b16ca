//! The cache policy as pure functions (no server, no clock): lifetimes from headers per
//! profile (RFC 9309 §2.4, RFC 9111 §4.2.1), the error back-off, and what is served during
//! an outage (RFC 9309 §2.3.1.4).

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::time::{Duration, SystemTime};

use robotrules_fetch::cache::{Basis, CacheEntry, CachePolicy, POLITENESS_FLOOR};
use robotrules_fetch::{
    Access, CacheHeaders, FetchOutcome, UnavailableReason, UnreachableReason, VerdictClass,
};
use rstest::rstest;

const HOUR: u64 = 3600;
const DAY: u64 = 24 * HOUR;

fn at(seconds: u64) -> SystemTime {
    // Sun, 06 Nov 1994 08:49:37 GMT, the date of RFC 9110's examples.
    SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777 + seconds)
}

fn success(fetched_at: SystemTime, headers: CacheHeaders) -> FetchOutcome {
    FetchOutcome {
        robots_txt_url: "https://example.com/robots.txt".into(),
        chain: vec![],
        access: Access::Success {
            body: "User-agent: *\nDisallow: /\n".into(),
            truncation: None,
            content_type: Some("text/plain".into()),
        },
        fetched_at,
        elapsed: Duration::ZERO,
        headers,
        retry_after: None,
    }
}

fn failure(fetched_at: SystemTime, retry_after: Option<Duration>) -> FetchOutcome {
    FetchOutcome {
        access: Access::Unreachable {
            reason: UnreachableReason::ServerError { status: 503 },
        },
        retry_after,
        ..success(fetched_at, CacheHeaders::default())
    }
}

fn not_found(fetched_at: SystemTime) -> FetchOutcome {
    FetchOutcome {
        access: Access::Unavailable {
            reason: UnavailableReason::ClientError { status: 404 },
        },
        ..success(fetched_at, CacheHeaders::default())
    }
}

fn headers(cache_control: Option<&str>, expires: Option<&str>, age: Option<&str>) -> CacheHeaders {
    CacheHeaders {
        cache_control: cache_control.map(str::to_owned),
        expires: expires.map(str::to_owned),
        date: Some("Sun, 06 Nov 1994 08:49:37 GMT".into()),
        age: age.map(str::to_owned),
        retry_after: None,
    }
}

#[rstest]
#[case::nothing_said(None, None, None, DAY, DAY)]
#[case::max_age(Some("max-age=600"), None, None, 600, 600)]
#[case::max_age_zero(Some("max-age=0"), None, None, 0, 0)]
#[case::max_age_two_days(Some("max-age=172800"), None, None, DAY, 2 * DAY)]
#[case::max_age_a_year(Some("public, max-age=31536000"), None, None, DAY, 365 * DAY)]
#[case::no_store(Some("no-store"), None, None, 0, 0)]
#[case::no_store_wins_over_max_age(Some("max-age=600, no-store"), None, None, 0, 0)]
#[case::no_cache(Some("no-cache"), None, None, 0, 0)]
#[case::invalid_max_age(Some("max-age=soon"), None, None, 0, 0)]
#[case::other_directives_only(Some("public, must-revalidate"), None, None, DAY, DAY)]
#[case::expires_two_hours(None, Some("Sun, 06 Nov 1994 10:49:37 GMT"), None, 2 * HOUR, 2 * HOUR)]
#[case::expires_three_days(None, Some("Wed, 09 Nov 1994 08:49:37 GMT"), None, DAY, 3 * DAY)]
#[case::expires_in_the_past(None, Some("Sat, 05 Nov 1994 08:49:37 GMT"), None, 0, 0)]
#[case::expires_invalid(None, Some("0"), None, 0, 0)]
#[case::max_age_wins_over_expires(
    Some("max-age=60"),
    Some("Sun, 06 Nov 1994 10:49:37 GMT"),
    None,
    60,
    60
)]
#[case::age_is_subtracted(Some("max-age=600"), None, Some("100"), 500, 500)]
#[case::age_beyond_max_age(Some("max-age=600"), None, Some("900"), 0, 0)]
#[case::age_then_cap(Some("max-age=172800"), None, Some("3600"), DAY, 2 * DAY - HOUR)]
fn lifetime_follows_the_headers_within_each_profile(
    #[case] cache_control: Option<&str>,
    #[case] expires: Option<&str>,
    #[case] age: Option<&str>,
    #[case] rfc9309_seconds: u64,
    #[case] google_seconds: u64,
) {
    let outcome = success(at(0), headers(cache_control, expires, age));
    // The headers alone (no politeness floor) ...
    let no_floor = |policy: CachePolicy| CachePolicy {
        min_lifetime: Duration::ZERO,
        ..policy
    };
    assert_eq!(
        no_floor(CachePolicy::rfc9309()).freshness_lifetime(&outcome),
        Duration::from_secs(rfc9309_seconds),
        "rfc9309"
    );
    assert_eq!(
        no_floor(CachePolicy::google()).freshness_lifetime(&outcome),
        Duration::from_secs(google_seconds),
        "google"
    );
    // ... and with the default floor of one hour, whatever they say.
    for (policy, seconds) in [
        (CachePolicy::rfc9309(), rfc9309_seconds),
        (CachePolicy::google(), google_seconds),
    ] {
        assert_eq!(
            policy.freshness_lifetime(&outcome),
            Duration::from_secs(seconds).max(POLITENESS_FLOOR)
        );
    }
}

#[test]
fn expires_without_a_date_counts_from_the_fetch() {
    let outcome = success(
        at(0),
        CacheHeaders {
            expires: Some("Sun, 06 Nov 1994 09:49:37 GMT".into()),
            ..CacheHeaders::default()
        },
    );
    assert_eq!(
        CachePolicy::rfc9309().freshness_lifetime(&outcome),
        Duration::from_secs(HOUR)
    );
}

#[test]
fn min_lifetime_is_a_floor() {
    let policy = CachePolicy {
        min_lifetime: Duration::from_secs(300),
        ..CachePolicy::rfc9309()
    };
    let outcome = success(at(0), headers(Some("no-cache"), None, None));
    assert_eq!(
        policy.freshness_lifetime(&outcome),
        Duration::from_secs(300)
    );
}

#[test]
fn no_store_responses_are_storable_only_under_the_floor_and_failures_always() {
    let no_store = success(at(0), headers(Some("no-store"), None, None));
    assert!(CachePolicy::rfc9309().is_storable(&no_store));
    assert_eq!(CachePolicy::rfc9309().min_lifetime, POLITENESS_FLOOR);
    assert_eq!(CachePolicy::google().min_lifetime, POLITENESS_FLOOR);
    let policy = CachePolicy {
        min_lifetime: Duration::ZERO,
        ..CachePolicy::rfc9309()
    };
    assert!(!policy.is_storable(&no_store));
    assert!(policy.is_storable(&success(at(0), headers(Some("max-age=5"), None, None))));
    assert!(policy.is_storable(&failure(at(0), None)));
}

#[rstest]
#[case(1, None, 60)]
#[case(2, None, 120)]
#[case(3, None, 240)]
#[case(6, None, 1920)]
#[case(7, None, 3600)]
#[case(1000, None, 3600)]
#[case(1, Some(30), 60)]
#[case(1, Some(900), 900)]
#[case(7, Some(7200), 7200)]
#[case(1, Some(10 * DAY), DAY)]
fn errors_back_off_and_honour_retry_after(
    #[case] failures: u32,
    #[case] retry_after: Option<u64>,
    #[case] expected: u64,
) {
    assert_eq!(
        CachePolicy::rfc9309().retry_delay(failures, retry_after.map(Duration::from_secs)),
        Duration::from_secs(expected)
    );
}

#[test]
fn a_success_is_fresh_for_its_lifetime() {
    let policy = CachePolicy {
        min_lifetime: Duration::ZERO,
        ..CachePolicy::rfc9309()
    };
    let entry = policy.next_entry(
        None,
        success(at(0), headers(Some("max-age=60"), None, None)),
    );
    assert!(policy.is_fresh(&entry, at(59)));
    assert!(!policy.is_fresh(&entry, at(60)));
    let served = policy.serve(&entry, at(10));
    assert_eq!(served.basis, Basis::Current);
    assert_eq!(served.access.verdict_class(), VerdictClass::Conditional);
    assert!(entry.last_good.is_some());
}

#[test]
fn consecutive_failures_count_up_and_keep_the_outage_start() {
    let policy = CachePolicy::rfc9309();
    let good = policy.next_entry(None, success(at(0), CacheHeaders::default()));
    let first = policy.next_entry(Some(&good), failure(at(DAY), None));
    let second = policy.next_entry(Some(&first), failure(at(DAY + 60), None));
    assert_eq!(first.consecutive_failures, 1);
    assert_eq!(second.consecutive_failures, 2);
    assert_eq!(second.unreachable_since, Some(at(DAY)));
    assert_eq!(second.fresh_until, at(DAY + 60 + 120));
    assert_eq!(second.last_good, good.last_good);
    let recovered = policy.next_entry(
        Some(&second),
        success(at(DAY + 200), CacheHeaders::default()),
    );
    assert_eq!(recovered.consecutive_failures, 0);
    assert_eq!(recovered.unreachable_since, None);
}

#[test]
fn an_unavailable_result_forgets_the_good_copy() {
    let policy = CachePolicy::rfc9309();
    let good = policy.next_entry(None, success(at(0), CacheHeaders::default()));
    let gone = policy.next_entry(Some(&good), not_found(at(DAY)));
    assert_eq!(gone.last_good, None);
    assert_eq!(gone.fresh_until, at(2 * DAY));
    let down = policy.next_entry(Some(&gone), failure(at(2 * DAY), None));
    assert_eq!(
        policy.serve(&down, at(2 * DAY)).access.verdict_class(),
        VerdictClass::FullDisallow
    );
}

/// (seconds since the outage began, verdict with a good copy, verdict without one)
#[rstest]
#[case::rfc9309_at_once(
    CachePolicy::rfc9309(),
    0,
    VerdictClass::Conditional,
    VerdictClass::FullDisallow
)]
#[case::rfc9309_after_a_day(
    CachePolicy::rfc9309(),
    DAY,
    VerdictClass::Conditional,
    VerdictClass::FullDisallow
)]
#[case::rfc9309_before_30_days(CachePolicy::rfc9309(), 30 * DAY - 1, VerdictClass::Conditional, VerdictClass::FullDisallow)]
#[case::rfc9309_at_30_days(CachePolicy::rfc9309(), 30 * DAY, VerdictClass::FullAllow, VerdictClass::FullAllow)]
#[case::google_at_once(
    CachePolicy::google(),
    0,
    VerdictClass::FullDisallow,
    VerdictClass::FullDisallow
)]
#[case::google_before_12_hours(CachePolicy::google(), 12 * HOUR - 1, VerdictClass::FullDisallow, VerdictClass::FullDisallow)]
#[case::google_at_12_hours(CachePolicy::google(), 12 * HOUR, VerdictClass::Conditional, VerdictClass::FullAllow)]
#[case::google_before_30_days(CachePolicy::google(), 30 * DAY - 1, VerdictClass::Conditional, VerdictClass::FullAllow)]
#[case::google_at_30_days(CachePolicy::google(), 30 * DAY, VerdictClass::FullAllow, VerdictClass::FullAllow)]
fn what_an_outage_serves(
    #[case] policy: CachePolicy,
    #[case] down_for: u64,
    #[case] with_copy: VerdictClass,
    #[case] without_copy: VerdictClass,
) {
    let outage = at(DAY);
    let good = policy.next_entry(None, success(at(0), CacheHeaders::default()));
    let with = policy.next_entry(Some(&good), failure(outage, None));
    let without = policy.next_entry(None, failure(outage, None));
    let now = at(DAY + down_for);
    let served_with = policy.serve(&with, now);
    let served_without = policy.serve(&without, now);
    assert_eq!(served_with.access.verdict_class(), with_copy);
    assert_eq!(served_without.access.verdict_class(), without_copy);
    let expected_basis = match with_copy {
        VerdictClass::Conditional => Basis::LastGoodCopy { since: outage },
        VerdictClass::FullAllow => Basis::UnreachableTooLong { since: outage },
        VerdictClass::FullDisallow => Basis::Current,
    };
    assert_eq!(served_with.basis, expected_basis);
    if with_copy == VerdictClass::Conditional {
        assert_eq!(
            served_with.from.fetched_at,
            at(0),
            "served from the good copy"
        );
    }
}

#[test]
fn the_cache_lifetime_of_a_failure_is_its_first_retry_delay() {
    let policy = CachePolicy::rfc9309();
    assert_eq!(
        policy.cache_lifetime(&failure(at(0), None)),
        Duration::from_secs(60)
    );
    assert_eq!(
        policy.cache_lifetime(&failure(at(0), Some(Duration::from_secs(7200)))),
        Duration::from_secs(7200)
    );
    assert_eq!(
        policy.cache_lifetime(&not_found(at(0))),
        Duration::from_secs(DAY)
    );
}

/// `Served::until` is when the answer may change: the entry's freshness, or earlier, the next
/// threshold of the unreachable schedule (Google: the last good copy after 12 hours; every
/// profile: unavailable after 30 days).
#[test]
fn an_answer_holds_until_the_next_threshold() {
    let policy = CachePolicy::google();
    let good = policy.next_entry(None, success(at(0), CacheHeaders::default()));
    assert_eq!(policy.serve(&good, at(10)).until, good.fresh_until);
    // Down for 12 hours less 30 seconds; the last failure is fresh for minutes of back-off.
    let down = policy.next_entry(Some(&good), failure(at(DAY), None));
    let half_day = 12 * HOUR;
    let late = policy.next_entry(Some(&down), failure(at(DAY + half_day - 30), None));
    let served = policy.serve(&late, at(DAY + half_day - 30));
    assert_eq!(served.basis, Basis::Current);
    assert_eq!(served.until, at(DAY + half_day));
    let copy = policy.serve(&late, at(DAY + half_day));
    assert!(matches!(copy.basis, Basis::LastGoodCopy { .. }));
    // Twenty-nine days and a half in, with an hour of back-off: the answer holds until day 30.
    let long = CacheEntry {
        fresh_until: at(DAY + 30 * DAY + HOUR),
        ..late.clone()
    };
    let served = policy.serve(&long, at(DAY + 29 * DAY + half_day));
    assert_eq!(served.until, at(DAY + 30 * DAY));
}

#[test]
fn a_basis_serialises_its_outage_start_as_a_date_and_unix_seconds() {
    let since = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_521_600);
    assert_eq!(
        serde_json::to_value(Basis::LastGoodCopy { since }).unwrap(),
        serde_json::json!({
            "basis": "last-good-copy",
            "since": "Tue, 24 Nov 2026 12:00:00 GMT",
            "since_unix": 1_795_521_600_u64,
        })
    );
    assert_eq!(
        serde_json::to_value(Basis::Current).unwrap(),
        serde_json::json!({ "basis": "current" })
    );
    assert_eq!(
        Basis::UnreachableTooLong { since }.as_str(),
        "unreachable-too-long"
    );
}

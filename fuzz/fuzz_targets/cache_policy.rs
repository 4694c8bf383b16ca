//! The cache policy on arbitrary header values: `Cache-Control`, `Expires`, `Date`, `Age` and
//! `Retry-After` from the input (fields separated by `0xFF`), for each access result and both
//! policies. Never panics; lifetimes respect the policy's bounds; serving an entry at any
//! later time works.
#![no_main]

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use libfuzzer_sys::fuzz_target;
use robotrules_fetch::cache::directives::{
    parse_delta_seconds, parse_http_date, parse_retry_after, CacheControl,
};
use robotrules_fetch::cache::CachePolicy;
use robotrules_fetch::{Access, CacheHeaders, FetchOutcome, UnavailableReason, UnreachableReason};

fn field(parts: &[&[u8]], i: usize) -> Option<String> {
    parts
        .get(i)
        .map(|b| String::from_utf8_lossy(b).into_owned())
}

fuzz_target!(|data: &[u8]| {
    let parts: Vec<&[u8]> = data.split(|&b| b == 0xFF).collect();
    let headers = CacheHeaders {
        cache_control: field(&parts, 0),
        expires: field(&parts, 1),
        date: field(&parts, 2),
        age: field(&parts, 3),
        retry_after: field(&parts, 4),
    };
    // 2026-11-21T00:00:00Z: a realistic clock.
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_219_200);
    for value in parts.iter().map(|b| String::from_utf8_lossy(b)) {
        let _ = CacheControl::parse(&value);
        let _ = parse_delta_seconds(&value);
        let _ = parse_http_date(&value);
        let _ = parse_retry_after(&value, now);
    }
    let retry_after = headers
        .retry_after
        .as_deref()
        .and_then(|v| parse_retry_after(v, now));
    let accesses = [
        Access::Success {
            body: bytes::Bytes::from_static(b"user-agent: *\ndisallow: /\n"),
            truncation: None,
            content_type: None,
        },
        Access::Unavailable {
            reason: UnavailableReason::ClientError { status: 404 },
        },
        Access::Unreachable {
            reason: UnreachableReason::ServerError { status: 503 },
        },
    ];
    for policy in [CachePolicy::rfc9309(), CachePolicy::google()] {
        let mut previous = None;
        for access in &accesses {
            let outcome = FetchOutcome {
                robots_txt_url: "https://example.com/robots.txt".to_owned(),
                chain: Vec::new(),
                access: access.clone(),
                fetched_at: now,
                elapsed: Duration::from_millis(5),
                headers: headers.clone(),
                retry_after,
            };
            let lifetime = policy.freshness_lifetime(&outcome);
            if let Some(max) = policy.max_lifetime {
                assert!(lifetime <= max.max(policy.min_lifetime), "{lifetime:?}");
            }
            assert!(lifetime >= policy.min_lifetime);
            let _ = policy.is_storable(&outcome);
            let _ = policy.cache_lifetime(&outcome);
            let entry = policy.next_entry(previous.as_ref(), outcome);
            for later in [0u64, 3_600, 13 * 3_600, 31 * 86_400, 400 * 86_400] {
                let at = now + Duration::from_secs(later);
                let _ = policy.is_fresh(&entry, at);
                let served = policy.serve(&entry, at);
                assert!(Arc::strong_count(&served.from) >= 1);
            }
            previous = Some(entry);
        }
    }
});

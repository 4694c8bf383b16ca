//! The [`Budget`] of a bounded in-memory tier (the `robotrules` client's entries, on
//! quick_cache): entries beyond its bounds, by count and by body bytes, are evicted; an entry
//! just used outlives one never read again.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use quick_cache::sync::{Cache, DefaultLifecycle};
use quick_cache::{DefaultHashBuilder, Weighter};
use robotrules_fetch::cache::{Budget, CacheEntry};
use robotrules_fetch::{Access, CacheHeaders, FetchOutcome, Origin};

fn origin(name: &str) -> Origin {
    Origin::parse(&format!("https://{name}/")).unwrap()
}

fn entry(body_len: usize) -> CacheEntry {
    let outcome = Arc::new(FetchOutcome {
        robots_txt_url: "https://example.com/robots.txt".into(),
        chain: vec![],
        access: Access::Success {
            body: vec![b'#'; body_len].into(),
            truncation: None,
            content_type: None,
        },
        fetched_at: SystemTime::UNIX_EPOCH,
        elapsed: Duration::ZERO,
        headers: CacheHeaders::default(),
        retry_after: None,
    });
    CacheEntry {
        last_good: Some(Arc::clone(&outcome)),
        latest: outcome,
        unreachable_since: None,
        consecutive_failures: 0,
        fresh_until: SystemTime::UNIX_EPOCH,
    }
}

/// An entry's weight under the budget: its bodies.
#[derive(Clone)]
struct Weight(Budget);

impl Weighter<Origin, CacheEntry> for Weight {
    fn weight(&self, _origin: &Origin, entry: &CacheEntry) -> u64 {
        self.0.weight(entry.body_bytes())
    }
}

type Bounded =
    Cache<Origin, CacheEntry, Weight, DefaultHashBuilder, DefaultLifecycle<Origin, CacheEntry>>;

/// A tier bounded as the client bounds its entries.
fn bounded(max_entries: usize, max_body_bytes: usize) -> Bounded {
    let budget = Budget::new(max_entries, max_body_bytes);
    Cache::with_options(
        budget.cache_options(),
        Weight(budget),
        DefaultHashBuilder::default(),
        DefaultLifecycle::default(),
    )
}

fn body_bytes(tier: &Bounded) -> usize {
    tier.iter().map(|(_, entry)| entry.body_bytes()).sum()
}

#[test]
fn the_least_recently_used_entry_is_evicted_first() {
    let tier = bounded(2, usize::MAX);
    tier.insert(origin("a.example"), entry(1));
    tier.insert(origin("b.example"), entry(1));
    // Touch a, so b is now the least recently used.
    assert!(tier.get(&origin("a.example")).is_some());
    tier.insert(origin("c.example"), entry(1));
    assert_eq!(tier.len(), 2);
    assert!(tier.get(&origin("a.example")).is_some());
    assert!(tier.get(&origin("b.example")).is_none());
    assert!(tier.get(&origin("c.example")).is_some());
}

#[test]
fn the_body_budget_evicts_old_entries_and_counts_a_shared_copy_once() {
    let tier = bounded(100, 1000);
    tier.insert(origin("a.example"), entry(400));
    tier.insert(origin("b.example"), entry(400));
    assert_eq!(body_bytes(&tier), 800);
    tier.insert(origin("c.example"), entry(400));
    assert_eq!(body_bytes(&tier), 800);
    assert!(tier.get(&origin("a.example")).is_none());
    assert_eq!(tier.len(), 2);
}

#[test]
fn an_entry_over_budget_on_its_own_is_still_kept() {
    let tier = bounded(100, 10);
    tier.insert(origin("a.example"), entry(50));
    assert_eq!(tier.len(), 1);
}

#[test]
fn replacing_and_removing_keep_the_accounting_right() {
    let tier = bounded(10_000, 256 * 1024 * 1024);
    let key = origin("a.example");
    tier.insert(key.clone(), entry(100));
    tier.insert(key.clone(), entry(30));
    assert_eq!(tier.len(), 1);
    assert_eq!(body_bytes(&tier), 30);
    tier.remove(&key);
    assert!(tier.is_empty());
    assert_eq!(body_bytes(&tier), 0);
}

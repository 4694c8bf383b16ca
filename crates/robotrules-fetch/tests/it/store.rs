//! The bounded in-memory store (on quick_cache): entries beyond its bounds, by count and by body
//! bytes, are evicted; an entry just used outlives one never read again.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use robotrules_fetch::cache::{CacheEntry, MemoryStore, Store};
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

#[tokio::test]
async fn the_least_recently_used_entry_is_evicted_first() {
    let store = MemoryStore::new(2, usize::MAX);
    store.put(&origin("a.example"), entry(1)).await;
    store.put(&origin("b.example"), entry(1)).await;
    // Touch a, so b is now the least recently used.
    assert!(store.get(&origin("a.example")).await.is_some());
    store.put(&origin("c.example"), entry(1)).await;
    assert_eq!(store.len(), 2);
    assert!(store.get(&origin("a.example")).await.is_some());
    assert!(store.get(&origin("b.example")).await.is_none());
    assert!(store.get(&origin("c.example")).await.is_some());
}

#[tokio::test]
async fn the_body_budget_evicts_old_entries_and_counts_a_shared_copy_once() {
    let store = MemoryStore::new(100, 1000);
    store.put(&origin("a.example"), entry(400)).await;
    store.put(&origin("b.example"), entry(400)).await;
    assert_eq!(store.body_bytes(), 800);
    store.put(&origin("c.example"), entry(400)).await;
    assert_eq!(store.body_bytes(), 800);
    assert!(store.get(&origin("a.example")).await.is_none());
    assert_eq!(store.len(), 2);
}

#[tokio::test]
async fn an_entry_over_budget_on_its_own_is_still_kept() {
    let store = MemoryStore::new(100, 10);
    store.put(&origin("a.example"), entry(50)).await;
    assert_eq!(store.len(), 1);
}

#[tokio::test]
async fn replacing_and_removing_keep_the_accounting_right() {
    let store = MemoryStore::default();
    let key = origin("a.example");
    store.put(&key, entry(100)).await;
    store.put(&key, entry(30)).await;
    assert_eq!(store.len(), 1);
    assert_eq!(store.body_bytes(), 30);
    store.remove(&key).await;
    assert!(store.is_empty());
    assert_eq!(store.body_bytes(), 0);
}

#[tokio::test]
async fn the_store_is_usable_as_a_trait_object() {
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new(4, 1 << 20));
    store.put(&origin("a.example"), entry(3)).await;
    let got = store.get(&origin("a.example")).await.unwrap();
    assert_eq!(got.latest.body().map(|b| b.len()), Some(3));
}

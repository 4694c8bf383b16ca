//! URL layer: origin, scope, target path, Google's path extraction and pattern escaping never
//! panic; the canonical forms are idempotent; an origin's own robots.txt governs the URL it
//! came from (http, https, ftp).
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules_url::{canonical, google, governs, robots_txt_url, target_path, Origin};

fuzz_target!(|data: &[u8]| {
    let bytes = data.splitn(2, |&b| b == 0xFF).next().unwrap_or_default();
    let other = data.splitn(2, |&b| b == 0xFF).nth(1).unwrap_or_default();
    for side in [canonical::path, canonical::pattern] {
        let once = side(bytes).into_owned();
        assert_eq!(&*side(&once), &once[..], "canonical form not idempotent");
    }
    let escaped = google::escape_pattern(bytes).into_owned();
    assert_eq!(&*google::escape_pattern(&escaped), &escaped[..]);

    let text = String::from_utf8_lossy(bytes);
    let other = String::from_utf8_lossy(other);
    let path = google::path_params_query(&text);
    assert!(path.starts_with('/'), "path_params_query {path:?}");
    if let Ok(target) = target_path(&text) {
        assert!(target.starts_with('/'), "target_path {target:?}");
    }
    let _ = governs(&text, &other);
    let _ = governs(&other, &text);
    let _ = robots_txt_url(&text);
    if let Ok(origin) = Origin::parse(&text) {
        if matches!(origin.scheme(), "http" | "https" | "ftp") {
            let robots = origin.robots_txt_url();
            assert_eq!(
                Origin::parse(&robots).ok(),
                Some(origin.clone()),
                "{robots}"
            );
            assert_eq!(
                governs(&robots, &text).ok(),
                Some(true),
                "{robots} vs {text:?}"
            );
        }
    }
});

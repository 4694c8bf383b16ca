//! The model's matcher against the reference position-set matcher (Google's algorithm),
//! through the public API: `user-agent: *` / `disallow: <pattern>` in the `google` profile
//! must disallow a URL exactly when the reference matches the Google-escaped pattern against
//! the URL's path. Any disagreement is a crash. The same in `rfc9309`, on the canonical
//! pattern (RFC 9309 §2.2.2; a `/` put in front of a value that starts with neither `/` nor
//! `*`) against the path as the profile reads it (`Crawler::target`), except for
//! `/robots.txt`, which is always allowed there; a URL the profile refuses must be refused by
//! `is_allowed` too.
//!
//! Input: `pattern 0xFF url`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::{ParseOptions, Profile, Robots};
use robotrules_fuzz::reference_matches;
use robotrules_url::{canonical, google};

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0b | 0x0c)
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == 0xFF);
    let raw = parts.next().unwrap_or_default();
    let url = parts.next().unwrap_or(b"/");
    // The reference is O(pattern × path): keep both short enough for thousands of runs/s.
    let url = String::from_utf8_lossy(&url[..url.len().min(4096)]);
    // A value the grammar reads back unchanged: one line, no comment, no NUL, trimmed.
    let mut pattern: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|&b| !matches!(b, b'\r' | b'\n' | b'#' | 0))
        .take(1024)
        .collect();
    while pattern.last().is_some_and(|&b| is_ws(b)) {
        pattern.pop();
    }
    let lead = pattern.iter().take_while(|&&b| is_ws(b)).count();
    pattern.drain(..lead);
    if pattern.is_empty() {
        return;
    }
    let mut body = b"user-agent: *\ndisallow: ".to_vec();
    body.extend_from_slice(&pattern);
    body.push(b'\n');
    let options = ParseOptions::new().with_profile(Profile::Google);
    let robots = Robots::parse_with(&body, &options);
    let allowed = robots
        .is_allowed("FooBot", &url)
        .expect("google takes any name");
    let path = google::path_params_query(&url);
    let escaped = google::escape_pattern(&pattern);
    let expected = !reference_matches(path.as_bytes(), &escaped);
    assert_eq!(
        allowed,
        expected,
        "pattern {:?} (escaped {:?}) path {:?}",
        String::from_utf8_lossy(&pattern),
        String::from_utf8_lossy(&escaped),
        path
    );
    // The model's crawler: the target the matcher sees is the model's (the facade shows none).
    let robots = std::sync::Arc::new(robotrules_model::RobotsTxt::parse(
        &body,
        Profile::Rfc9309,
        robotrules::DEFAULT_PARSE_LIMIT,
    ));
    let rules = robotrules_model::Crawler::new(robots, "FooBot").expect("a product token");
    let target = match rules.target(&url) {
        Ok(target) => target,
        Err(_) => {
            assert!(rules.is_allowed(&url).is_err(), "{url:?}");
            return;
        }
    };
    let path = target.path();
    if path.split(|&b| b == b'?').next() == Some(&b"/robots.txt"[..]) {
        return;
    }
    let mut value = pattern.clone();
    if !matches!(value[0], b'/' | b'*') {
        value.insert(0, b'/');
    }
    let canonical = canonical::pattern(&value);
    assert_eq!(
        rules.is_allowed(&url),
        Ok(!reference_matches(path, &canonical)),
        "rfc9309: pattern {:?} (canonical {:?}) path {:?}",
        String::from_utf8_lossy(&pattern),
        String::from_utf8_lossy(&canonical),
        String::from_utf8_lossy(path)
    );
});

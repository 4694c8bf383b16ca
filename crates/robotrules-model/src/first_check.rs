//! A crawler's first check tries its groups' rules as it compiles them, keeping nothing; later
//! checks use the compiled groups. Both must give the same verdict and the same deciding rule
//! (every field but where its compiled pattern is placed), on every profile: random files over
//! a small alphabet (so that rules tie, repeat and overlap), with wildcards, anchors,
//! percent-escapes, bytes above 0x7F, empty rules, Google's `index.html` rewrite and merged
//! groups.

use std::sync::Arc;

use crate::test_rng::Rng;
use crate::{Crawler, Profile, RobotsTxt, Verdict};

/// A path or a pattern over a small alphabet.
fn text(rng: &mut Rng, pattern: bool) -> String {
    const PIECES: &[&str] = &[
        "a",
        "b",
        "/",
        ".",
        "?",
        "=",
        "%61",
        "%2f",
        "%2F",
        "é",
        "index.html",
        "index.htm",
    ];
    let mut out = String::new();
    if !pattern || rng.below(8) != 0 {
        out.push('/');
    }
    for _ in 0..rng.below(7) {
        if pattern && rng.below(6) == 0 {
            out.push('*');
        } else {
            out.push_str(rng.pick(PIECES));
        }
    }
    if pattern && rng.below(5) == 0 {
        out.push('$');
    }
    out
}

/// A file of a few groups for `a`, `b` and `*`, each with a few rules.
fn file(rng: &mut Rng) -> String {
    let mut file = String::new();
    for _ in 0..1 + rng.below(4) {
        for _ in 0..1 + rng.below(2) {
            file.push_str(&format!("user-agent: {}\n", rng.pick(&["a", "b", "*"])));
        }
        for _ in 0..rng.below(24) {
            let key = rng.pick(&["allow", "disallow"]);
            let value = if rng.below(12) == 0 {
                String::new()
            } else {
                text(rng, true)
            };
            file.push_str(&format!("{key}: {value}\n"));
        }
        if rng.below(3) == 0 {
            file.push('\n');
        }
    }
    file
}

/// What a verdict says, the deciding rule's fields included, but where its compiled pattern is
/// placed.
fn said(v: &Verdict, robots: &RobotsTxt) -> impl PartialEq + std::fmt::Debug {
    let rule = v.rule.map(|r| {
        (
            r.kind,
            r.line,
            r.derived,
            r.value(robots).into_owned(),
            r.priority(),
            r.is_anchored(),
            r.is_empty(),
        )
    });
    (v.allowed, v.reason, rule)
}

#[test]
fn the_first_check_decides_as_the_compiled_groups_do() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut decided = 0;
    for _ in 0..1_500 {
        let file = file(&mut rng);
        let paths: Vec<String> = (0..6).map(|_| text(&mut rng, false)).collect();
        for profile in Profile::ALL {
            let robots = Arc::new(RobotsTxt::parse(file.as_bytes(), profile, 512_000));
            for agent in ["a", "b", "c"] {
                let compiled = Crawler::new(Arc::clone(&robots), agent).expect("a token");
                // Asking for the groups compiles them: one compiled group per chosen one.
                assert_eq!(compiled.groups().count(), compiled.group_indices().len());
                for path in &paths {
                    let fresh = Crawler::new(Arc::clone(&robots), agent).expect("a token");
                    let target = fresh.target(path).expect("a token");
                    let first = fresh.verdict(&target);
                    let later = compiled.verdict(&target);
                    assert_eq!(
                        said(&first, &robots),
                        said(&later, &robots),
                        "{profile}, {agent}, {path:?}, in\n{file}"
                    );
                    // The same crawler's second check compiles; it agrees field for field.
                    assert_eq!(fresh.verdict(&target), later);
                    decided += usize::from(first.rule.is_some());
                }
            }
        }
    }
    // Rules decided often enough for the comparison to mean something.
    assert!(decided > 20_000, "{decided}");
}

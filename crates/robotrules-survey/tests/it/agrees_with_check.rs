//! Every row agrees with the model's check of `/` for its crawler and profile, as `robotrules
//! check FILE AGENT /` would say: `blocked` only where `/` is disallowed, `open` only where it
//! is allowed; and, on paths the survey's witnesses do not choose ([`probes`]), `blocked`
//! disallows and `open` allows every one. Over the committed corpus of robotrules-bench, and the real sample when it is
//! beside the repository (`ROBOTRULES_REAL_SAMPLE` names another folder).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use robotrules_model::{Crawler, Profile, RobotsTxt};
use robotrules_survey::{default_agents, Capture, Reach, Survey};

fn folders() -> Vec<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let real = std::env::var_os("ROBOTRULES_REAL_SAMPLE").map_or_else(
        || here.join("../../../shared/corpora/real-sample"),
        PathBuf::from,
    );
    let mut folders = vec![here.join("../robotrules-bench/corpus")];
    if real.is_dir() {
        folders.push(real);
    }
    folders
}

#[test]
fn every_row_agrees_with_check_of_the_root() {
    let mut agents = default_agents();
    agents.push(robotrules_survey::Agent::named("EtaoSpider"));
    let mut checked = 0;
    let mut seen = [0_u64; 3];
    for profile in Profile::ALL {
        let survey = Survey::new(agents.clone(), profile, 512_000).unwrap();
        for folder in folders() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            for file in files {
                let body = std::fs::read(&file).unwrap();
                let surveyed = survey.capture(&Capture {
                    status: Some(200),
                    body: body.clone(),
                    ..Capture::default()
                });
                let robots = Arc::new(RobotsTxt::parse(&body, profile, 512_000));
                for row in surveyed.rows(survey.agents()) {
                    let crawler = Crawler::new(Arc::clone(&robots), row.agent).unwrap();
                    let root = crawler.is_allowed("/").unwrap();
                    match row.reach {
                        Reach::Blocked => assert!(!root, "{file:?} {} {profile}", row.agent),
                        Reach::Open => assert!(root, "{file:?} {} {profile}", row.agent),
                        Reach::Partial => {}
                        Reach::Unknown => panic!("{file:?}: unknown for a 200"),
                    }
                    // Paths the survey's witnesses do not choose: `blocked` must disallow and
                    // `open` must allow every one of them.
                    for path in probes(&crawler) {
                        let allowed = crawler.is_allowed(&path).unwrap();
                        match row.reach {
                            Reach::Blocked => {
                                assert!(!allowed, "{file:?} {} {profile} {path}", row.agent);
                            }
                            Reach::Open => {
                                assert!(allowed, "{file:?} {} {profile} {path}", row.agent);
                            }
                            _ => {}
                        }
                    }
                    let named = crawler.named_by().is_some();
                    assert_eq!(row.named, named, "{file:?} {}", row.agent);
                    seen[match row.reach {
                        Reach::Blocked => 0,
                        Reach::Partial => 1,
                        _ => 2,
                    }] += 1;
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1_000, "{checked}");
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// Paths independent of the survey's witness choice (not `/robots.txt`, which a crawler may
/// always fetch): a few fixed ones, and each rule's literal
/// lead (up to its first `*` or `$`) with a tail no rule names.
fn probes(crawler: &Crawler) -> Vec<String> {
    let mut paths: Vec<String> = ["/", "/zz9", "/index.html", "/a?x=1"]
        .map(str::to_owned)
        .to_vec();
    for (_, group) in crawler.groups() {
        for rule in group.rules() {
            let pattern = group.normalized(rule);
            let lead = pattern.split(['*', '$']).next().unwrap_or_default();
            if lead.starts_with('/') {
                paths.push(format!("{lead}zz9"));
            }
        }
    }
    paths
}

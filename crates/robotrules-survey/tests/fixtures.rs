//! The survey of the WARC fixtures (`tests/fixtures/make_fixtures.py` documents each record):
//! both layouts, plain and one gzip member per record, give the same rows; malformed records
//! are reported with their offsets and the rest is surveyed; redirects are followed when
//! their target is in the input.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use robotrules_model::Profile;
use robotrules_survey::{run, Access, Agent, Event, Input, RunOptions, Survey, Tally};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Per host: status, body kind, redirect and per-agent (access, named); the tally; the
/// malformed offsets.
type Report = (
    BTreeMap<String, (Option<u16>, String, Option<String>, Vec<(Access, bool)>)>,
    Tally,
    Vec<u64>,
);

fn survey_of(name: &str, threads: usize) -> Report {
    let agents = ["GPTBot", "Googlebot", "Bingbot"]
        .map(Agent::named)
        .to_vec();
    let survey = Survey::new(agents, Profile::Google, 512_000).unwrap();
    let (mut hosts, mut tally, mut malformed) = (BTreeMap::new(), Tally::default(), Vec::new());
    run(
        &[Input::at(fixture(name)).unwrap()],
        &survey,
        RunOptions { threads },
        |batch| batch.to_vec(),
        |event| match event {
            Event::Batch(batch, t) => {
                tally.merge(&t);
                for s in batch {
                    let agents = s
                        .verdicts
                        .agents
                        .iter()
                        .map(|a| (a.access, a.named))
                        .collect();
                    let f = s.facts;
                    hosts.insert(
                        f.host,
                        (f.status, f.body_kind.to_string(), f.redirect, agents),
                    );
                }
            }
            Event::Malformed(_, error) => malformed.push(error.offset),
            Event::Started(_) => {}
            Event::Failed(path, error) => panic!("{path:?}: {error}"),
        },
    )
    .unwrap();
    (hosts, tally, malformed)
}

#[test]
fn every_class_status_and_bad_record_of_the_fixtures() {
    let (hosts, tally, malformed) = survey_of("captures.warc.gz", 2);
    let access = |host: &str| -> Vec<Access> { hosts[host].3.iter().map(|a| a.0).collect() };
    let named = |host: &str| -> Vec<bool> { hosts[host].3.iter().map(|a| a.1).collect() };
    use Access::*;
    // ai.robots.txt's file names GPTBot and blocks it; the others fall to nothing.
    assert_eq!(access("a.example"), [Blocked, Open, Open]);
    assert_eq!(named("a.example"), [true, false, false]);
    // r-bloggers' file has a Googlebot group with a crawl-delay only: open to it.
    assert_eq!(access("b.example"), [Partial, Open, Partial]);
    assert_eq!(named("b.example"), [false, true, false]);
    assert_eq!(named("c.example"), [false, true, false]);
    assert_eq!(access("c.example"), [Partial, Partial, Partial]);
    assert_eq!(access("d.example"), [Open; 3]);
    assert_eq!(hosts["d.example"].1, "html");
    assert_eq!(access("e.example"), [Blocked; 3]);
    assert_eq!(access("f.example"), [Blocked; 3]);
    assert_eq!(
        hosts["f.example"].2.as_deref(),
        Some("https://www.f.example/robots.txt")
    );
    assert_eq!(access("www.f.example"), [Blocked; 3]);
    assert_eq!(access("g.example"), [Unknown; 3]);
    assert_eq!(
        (access("h.example"), hosts["h.example"].1.as_str()),
        (vec![Open; 3], "html")
    );
    assert_eq!(access("j.example"), [Partial; 3]);
    assert!(!hosts.contains_key("i.example") && !hosts.contains_key("k.example"));
    assert!(!hosts.contains_key("l.example"));
    // warcinfo, request, metadata and the DNS record.
    assert_eq!((tally.captures, tally.skipped, tally.malformed), (10, 4, 2));
    assert_eq!(malformed.len(), 2);
    assert_eq!(tally.agents[0].unknown, 1);
    assert_eq!(tally.agents[0].blocked, 4);
}

#[test]
fn plain_and_gzipped_files_give_the_same_rows_on_any_number_of_threads() {
    let (gz_hosts, gz_tally, _) = survey_of("captures.warc.gz", 1);
    for threads in [1, 3] {
        let (hosts, tally, malformed) = survey_of("captures.warc", threads);
        assert_eq!(hosts, gz_hosts);
        assert_eq!(tally, gz_tally);
        assert_eq!(malformed.len(), 2);
    }
}

#[test]
fn malformed_records_are_reported_at_their_record_s_offset() {
    let plain = std::fs::read(fixture("captures.warc")).unwrap();
    let (_, _, malformed) = survey_of("captures.warc", 2);
    for offset in malformed {
        let at = usize::try_from(offset).unwrap();
        assert!(plain[at..].starts_with(b"WARC/1.0\r\n"), "{offset}");
    }
    let gz = std::fs::read(fixture("captures.warc.gz")).unwrap();
    let (_, _, malformed) = survey_of("captures.warc.gz", 2);
    for offset in malformed {
        let at = usize::try_from(offset).unwrap();
        assert!(gz[at..].starts_with(&[0x1f, 0x8b, 0x08]), "{offset}");
    }
}

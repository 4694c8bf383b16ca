//! The survey of the WARC fixtures (`tests/fixtures/make_fixtures.py` documents each record):
//! both layouts, plain and one gzip member per record, give the same rows; malformed records
//! are reported with their offsets and the rest is surveyed; redirects are followed when
//! their target is in the input.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::PathBuf;

use robotrules_model::Profile;
use robotrules_survey::{run, Agent, Event, Input, Reach, RunOptions, Survey, Tally};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Per host: status, body kind, redirect and per-agent (reach, named); the tally; the
/// malformed offsets.
type Report = (
    BTreeMap<String, (Option<u16>, String, Option<String>, Vec<(Reach, bool)>)>,
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
        |event| {
            match event {
                Event::Batch(batch, t) => {
                    tally.merge(&t);
                    for s in batch {
                        let agents = s
                            .per_agent
                            .agents
                            .iter()
                            .map(|a| (a.reach, a.named))
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
                Event::Ignored(path, why) => panic!("{path:?}: {why}"),
            }
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    (hosts, tally, malformed)
}

#[test]
fn every_class_status_and_bad_record_of_the_fixtures() {
    let (hosts, tally, malformed) = survey_of("captures.warc.gz", 2);
    let reach = |host: &str| -> Vec<Reach> { hosts[host].3.iter().map(|a| a.0).collect() };
    let named = |host: &str| -> Vec<bool> { hosts[host].3.iter().map(|a| a.1).collect() };
    use Reach::*;
    // ai.robots.txt's file names GPTBot and blocks it; the others fall to nothing.
    assert_eq!(reach("a.example"), [Blocked, Open, Open]);
    assert_eq!(named("a.example"), [true, false, false]);
    // r-bloggers' file has a Googlebot group with a crawl-delay only: open to it.
    assert_eq!(reach("b.example"), [Partial, Open, Partial]);
    assert_eq!(named("b.example"), [false, true, false]);
    assert_eq!(named("c.example"), [false, true, false]);
    assert_eq!(reach("c.example"), [Partial, Partial, Partial]);
    assert_eq!(reach("d.example"), [Open; 3]);
    assert_eq!(hosts["d.example"].1, "html");
    assert_eq!(reach("e.example"), [Blocked; 3]);
    assert_eq!(reach("f.example"), [Blocked; 3]);
    assert_eq!(
        hosts["f.example"].2.as_deref(),
        Some("https://www.f.example/robots.txt")
    );
    assert_eq!(reach("www.f.example"), [Blocked; 3]);
    assert_eq!(reach("g.example"), [Unknown; 3]);
    assert_eq!(
        (reach("h.example"), hosts["h.example"].1.as_str()),
        (vec![Open; 3], "html")
    );
    assert_eq!(reach("j.example"), [Partial; 3]);
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

/// A plain WARC of `response` records: (URL, status, Location, body).
fn warc_of(records: &[(&str, u16, Option<&str>, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (url, status, location, body) in records {
        let location = location.map_or(String::new(), |l| format!("Location: {l}\r\n"));
        let http = format!("HTTP/1.1 {status} X\r\n{location}\r\n{body}");
        out.extend_from_slice(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
                http.len()
            )
            .as_bytes(),
        );
    }
    out
}

#[test]
fn redirect_chains_are_followed_through_the_input_and_loops_are_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chains.warc");
    std::fs::write(
        &path,
        warc_of(&[
            (
                "https://a.example/robots.txt",
                301,
                Some("https://b.example/robots.txt"),
                "",
            ),
            ("https://x.example/robots.txt", 302, Some("/loop.txt"), ""),
            (
                "https://x.example/loop.txt",
                302,
                Some("https://x.example/robots.txt"),
                "",
            ),
            (
                "https://b.example/robots.txt",
                308,
                Some("https://c.example/robots.txt"),
                "",
            ),
            (
                "https://c.example/robots.txt",
                200,
                None,
                "User-agent: *\nDisallow: /\n",
            ),
            (
                "https://d.example/robots.txt",
                307,
                Some("https://e.example/robots.txt"),
                "",
            ),
            ("https://e.example/robots.txt", 404, None, ""),
        ]),
    )
    .unwrap();
    let survey = Survey::new(vec![Agent::named("GPTBot")], Profile::Google, 512_000).unwrap();
    let mut reach = BTreeMap::new();
    run(
        &[Input::at(&path).unwrap()],
        &survey,
        RunOptions { threads: 2 },
        |batch| batch.to_vec(),
        |event| {
            if let Event::Batch(batch, _) = event {
                for s in batch {
                    reach.insert(s.facts.url.clone(), s.per_agent.agents[0].reach);
                }
            }
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    let of = |url: &str| reach[&format!("https://{url}")];
    // a → b → c: c's rules; b → c too.
    assert_eq!(of("a.example/robots.txt"), Reach::Blocked);
    assert_eq!(of("b.example/robots.txt"), Reach::Blocked);
    // A loop is unavailable, as the fetch client reads it.
    assert_eq!(of("x.example/robots.txt"), Reach::Open);
    assert_eq!(of("x.example/loop.txt"), Reach::Open);
    // A redirect to a 404: the target's status decides.
    assert_eq!(of("d.example/robots.txt"), Reach::Open);
    assert_eq!(of("e.example/robots.txt"), Reach::Open);
}

//! Where resolving a crawler shows outside the crawler's own loop (issue 26 item 4): the
//! one-shot `Robots::is_allowed(agent, url)`, the client's first decision for an origin,
//! `batch` over many origins and the survey, each on real crawl files. The
//! `where_it_shows` binary times them; the work itself is here, so that a profiler can
//! collect exactly it (`valgrind --tool=callgrind --toggle-collect='robotrules_bench::where_it_shows::*'`).
//!
//! - [`one_shot`]: per file, parse with `Robots::parse_with` (`google`) and ask
//!   `Robots::is_allowed(AGENT, url)` once, the site's first URL: parse + resolve + check
//!   through the facade's cache of recent crawlers;
//! - [`client_first`]: a fresh `Client`, one `is_allowed` per origin, each origin a loopback
//!   HTTP server serving one crawl file: fetch + parse + resolve + check;
//! - [`survey_captures`]: `Survey::capture` on captures already in memory (the 22 default
//!   crawlers): parse once, resolve every crawler, decide reach;
//! - [`pack_warc`]: files packed into a gzipped WARC file as Common Crawl writes them, for
//!   the survey end to end (the `robotrules survey` binary, rows written).

use std::hint::black_box;
use std::io::Write;
use std::path::Path;

use robotrules::{ParseOptions, Profile, Robots};

use crate::contenders::AGENT;
use crate::crawler_pays::Site;

/// Per site: parse, then the one-shot `Robots::is_allowed(AGENT, url)` on its first URL.
/// Returns how many were allowed.
pub fn one_shot(sites: &[Site]) -> usize {
    let options = ParseOptions::new().with_profile(Profile::Google);
    let mut allowed = 0;
    for site in sites {
        let robots = Robots::parse_with(black_box(&site.bytes), &options);
        let url = site.urls.first().map_or("/", String::as_str);
        allowed += usize::from(robots.is_allowed(AGENT, black_box(url)) == Ok(true));
    }
    allowed
}

/// A fresh client's first decision on each of `urls` (one per origin, each origin's
/// robots.txt not yet fetched): how many were answered, and how many of them allowed.
///
/// # Panics
/// When the client cannot be built (a benchmark's setup).
pub async fn client_first(urls: &[String]) -> (usize, usize) {
    let client = robotrules::client::Client::builder()
        .crawler(AGENT)
        .use_env_proxy(false)
        .build()
        .unwrap_or_else(|e| panic!("a client: {e}"));
    let (mut answered, mut allowed) = (0, 0);
    for url in urls {
        if let Ok(answer) = client.is_allowed(black_box(url)).await {
            answered += 1;
            allowed += usize::from(answer.allowed);
        }
    }
    (answered, allowed)
}

/// `survey` on every capture: how many rows it gives.
pub fn survey_captures(
    survey: &robotrules_survey::Survey,
    captures: &[robotrules_survey::Capture],
) -> usize {
    captures
        .iter()
        .map(|c| {
            black_box(survey.capture(black_box(c)))
                .per_agent
                .agents
                .len()
        })
        .sum()
}

/// `files` as captures of hosts `host{copy}-{i}.example`, HTTP 200, in memory.
pub fn captures(files: &[Vec<u8>]) -> Vec<robotrules_survey::Capture> {
    files
        .iter()
        .enumerate()
        .map(|(i, body)| robotrules_survey::Capture {
            host: format!("host{i}.example"),
            url: format!("https://host{i}.example/robots.txt"),
            time: "2024-06-01T12:00:00Z".to_owned(),
            file: "sample.warc.gz".to_owned(),
            offset: Some(i as u64),
            status: Some(200),
            headers: vec![("Content-Type".to_owned(), "text/plain".to_owned())],
            body: body.clone(),
        })
        .collect()
}

/// Writes `copies` copies of `files` to `out` as a gzipped WARC file: each file a `response`
/// record of a 200 for `https://host{copy}-{i}.example/robots.txt`, one gzip member per
/// record (as Common Crawl writes them). Returns the number of records.
///
/// # Errors
/// When `out` cannot be written.
pub fn pack_warc(files: &[Vec<u8>], copies: usize, out: &Path) -> std::io::Result<u64> {
    let mut warc = std::io::BufWriter::new(std::fs::File::create(out)?);
    let mut records = 0;
    for copy in 0..copies {
        for (i, body) in files.iter().enumerate() {
            let mut http = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .into_bytes();
            http.extend_from_slice(body);
            let mut record = format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Date: 2024-06-01T12:00:00Z\r\nWARC-Target-URI: https://host{copy}-{i}.example/robots.txt\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
                http.len()
            )
            .into_bytes();
            record.extend_from_slice(&http);
            record.extend_from_slice(b"\r\n\r\n");
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(&record)?;
            warc.write_all(&gz.finish()?)?;
            records += 1;
        }
    }
    warc.flush()?;
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Sample;
    use crate::crawler_pays::sites;

    #[test]
    fn one_shot_answers_as_the_crawler_does() {
        let body = b"User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n".to_vec();
        let blocked = sites(&[Sample::new("t", body)]);
        assert_eq!(one_shot(&blocked), 0);
        let open = sites(&[Sample::new("o", b"User-agent: *\nDisallow: /x\n".to_vec())]);
        assert_eq!(one_shot(&open), 1);
    }

    #[test]
    fn a_packed_warc_reads_back_as_its_files() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("t.warc.gz");
        let files = vec![b"User-agent: *\nDisallow: /\n".to_vec(), b"".to_vec()];
        assert_eq!(pack_warc(&files, 2, &path).ok(), Some(4));
        let survey = robotrules_survey::Survey::new(
            robotrules_survey::default_agents(),
            Profile::Google,
            512_000,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut rows = 0;
        robotrules_survey::read_input(&robotrules_survey::Input::Warc(path), |raw| {
            if let robotrules_survey::Reading::Capture(c) = raw.read() {
                rows += survey.capture(&c).per_agent.agents.len();
            }
            true
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rows, 4 * survey.agents().len());
        assert_eq!(
            survey_captures(&survey, &captures(&files)),
            2 * survey.agents().len()
        );
    }
}

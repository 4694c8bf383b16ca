//! End-to-end tests of `robotrules survey`: the WARC fixtures of robotrules-survey (see its
//! `tests/fixtures/make_fixtures.py`), directories, `-`, every output format, the summary, and
//! bad input refused before any work.

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use crate::support::run;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../robotrules-survey/tests/fixtures")
        .join(name)
        .to_str()
        .unwrap()
        .to_owned()
}

/// The CSV header: the row's columns, then the AI usage columns.
const HEADER: &str = "host,capture_time,warc_file,warc_offset,status,redirect,content_type,body_kind,bytes,parse_limit_cut,agent,named,reach,crawl_delay,sitemaps,\
    content_usage,content_signal,license,llm_policy,usage_train_ai,usage_search,signal_search,signal_ai_input,signal_ai_train,train_ai,search,contradiction";

/// The CSV rows as (host, agent, reach, named).
fn rows(stdout: &str) -> Vec<(String, String, String, String)> {
    let mut lines = stdout.lines();
    assert_eq!(lines.next().unwrap(), HEADER);
    lines
        .map(|line| {
            // The fixtures' fields hold no comma.
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 27, "{line}");
            (f[0].into(), f[10].into(), f[12].into(), f[11].into())
        })
        .collect()
}

#[test]
fn a_warc_file_gives_a_row_per_capture_and_crawler_and_a_summary() {
    let gz = fixture("captures.warc.gz");
    let r = run(&["survey", "--agents", "GPTBot,Googlebot", &gz], b"");
    assert_eq!(r.code, 0, "{r:?}");
    let rows = rows(&r.stdout);
    assert_eq!(rows.len(), 10 * 2);
    let find = |host: &str, agent: &str| {
        rows.iter()
            .find(|row| row.0 == host && row.1 == agent)
            .map(|row| (row.2.as_str(), row.3.as_str()))
            .unwrap()
    };
    assert_eq!(find("a.example", "GPTBot"), ("blocked", "true"));
    assert_eq!(find("a.example", "Googlebot"), ("open", "false"));
    assert_eq!(find("d.example", "GPTBot"), ("open", "false"));
    assert_eq!(find("e.example", "GPTBot"), ("blocked", "false"));
    assert_eq!(find("f.example", "Googlebot"), ("blocked", "false"));
    assert_eq!(find("g.example", "Googlebot"), ("unknown", "false"));
    // Redirects come last, once their targets are known.
    assert_eq!(rows.last().unwrap().0, "g.example");
    // Malformed records: a warning each, with file and offset; the summary counts them.
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("robotrules: warning:"))
        .collect();
    assert_eq!(warnings.len(), 2, "{r:?}");
    assert!(warnings
        .iter()
        .all(|w| w.contains("captures.warc.gz") && w.contains("at byte")));
    assert!(r.stderr.contains("\nGPTBot "), "{r:?}");
    // No progress bar (redrawn with CR and escape sequences) when standard error is not a
    // terminal.
    assert!(!r.stderr.contains(['\r', '\x1b']), "{r:?}");
    assert!(
        r.stderr.contains("10 captures (google profile); 1 redirect to a capture not in the input (unknown); 4 records skipped (not a robots.txt response), 2 malformed"),
        "{r:?}"
    );
}

#[test]
fn json_lines_to_a_file_and_the_summary_on_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.jsonl");
    let r = run(
        &[
            "survey",
            "--format",
            "json",
            "-o",
            out.to_str().unwrap(),
            "--agents",
            "CCBot",
            &fixture("captures.warc"),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("agent "), "{r:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 10);
    let f = rows.iter().find(|r| r["host"] == "f.example").unwrap();
    assert_eq!(f["redirect"], "https://www.f.example/robots.txt");
    assert_eq!(
        (f["status"].as_u64(), f["reach"].as_str()),
        (Some(301), Some("blocked"))
    );
    let d = rows.iter().find(|r| r["host"] == "d.example").unwrap();
    assert_eq!(d["body_kind"], "html");
}

#[test]
fn directories_and_paths_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("shop.example.txt"),
        "User-agent: GPTBot\nDisallow: /\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("blog.example"),
        "User-agent: *\nDisallow: /drafts/\n",
    )
    .unwrap();
    let listing = format!("{}\n", dir.path().display());
    let r = run(
        &[
            "survey",
            "--agents",
            "GPTBot,Bingbot",
            "--profile",
            "rfc9309",
            "-",
        ],
        listing.as_bytes(),
    );
    assert_eq!(r.code, 0, "{r:?}");
    let rows = rows(&r.stdout);
    assert_eq!(
        rows.iter()
            .map(|r| (r.0.as_str(), r.1.as_str(), r.2.as_str()))
            .collect::<Vec<_>>(),
        [
            ("blog.example", "GPTBot", "partial"),
            ("blog.example", "Bingbot", "partial"),
            ("shop.example", "GPTBot", "blocked"),
            ("shop.example", "Bingbot", "open"),
        ]
    );
    assert!(r.stderr.contains("(rfc9309 profile)"), "{r:?}");
}

/// A mirror's layout (`HOST/robots.txt`), `HOST_robots.txt` and `HOST.txt` in a directory:
/// each is a capture named after its host; what is skipped is named and counted.
#[test]
fn a_mirror_directory_is_read_and_what_is_skipped_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let mirror = dir.path();
    std::fs::create_dir(mirror.join("a.example")).unwrap();
    std::fs::write(
        mirror.join("a.example/robots.txt"),
        "User-agent: GPTBot\nDisallow: /\n",
    )
    .unwrap();
    std::fs::write(mirror.join("a.example/index.html"), "<html>").unwrap();
    std::fs::write(
        mirror.join("b.example_robots.txt"),
        "User-agent: *\nDisallow: /x\n",
    )
    .unwrap();
    std::fs::create_dir(mirror.join("empty.example")).unwrap();
    std::fs::write(mirror.join(".listing"), "x").unwrap();
    let r = run(
        &["survey", "--agents", "GPTBot", mirror.to_str().unwrap()],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    let rows = rows(&r.stdout);
    assert_eq!(
        rows.iter()
            .map(|r| (r.0.as_str(), r.2.as_str()))
            .collect::<Vec<_>>(),
        [("a.example", "blocked"), ("b.example", "partial")]
    );
    assert!(
        r.stderr
            .contains("empty.example\": a directory without a robots.txt"),
        "{r:?}"
    );
    assert!(r.stderr.contains(".listing\": hidden"), "{r:?}");
    assert!(r.stderr.contains("2 captures"), "{r:?}");
    assert!(r.stderr.contains("2 directory entries not read"), "{r:?}");
}

/// `find mirror -name robots.txt | robotrules survey -` and plain files as arguments: read as
/// robots.txt files, not as WARC files.
#[test]
fn plain_robots_txt_files_from_standard_input_and_arguments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("a.example")).unwrap();
    let a = dir.path().join("a.example/robots.txt");
    std::fs::write(&a, "User-agent: GPTBot\nDisallow: /\n").unwrap();
    let c = dir.path().join("c.example.txt");
    std::fs::write(&c, "User-agent: *\nAllow: /\n").unwrap();
    let listing = format!("{}\n", a.display());
    let r = run(
        &["survey", "--agents", "GPTBot", "-", c.to_str().unwrap()],
        listing.as_bytes(),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("malformed WARC"), "{r:?}");
    let rows = rows(&r.stdout);
    assert_eq!(
        rows.iter()
            .map(|r| (r.0.as_str(), r.2.as_str()))
            .collect::<Vec<_>>(),
        [("a.example", "blocked"), ("c.example", "open")]
    );
}

/// The CSV rows as maps of column name to field, for the rows whose fields hold no comma.
fn fields(stdout: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = stdout.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), header.len(), "{line}");
            header
                .iter()
                .zip(f)
                .map(|(h, v)| ((*h).to_owned(), v.to_owned()))
                .collect()
        })
        .collect()
}

/// Three files with AI usage lines: Cloudflare's managed `Content-signal` in `User-agent: *`
/// with Googlebot blocked below it, a file-wide `Content-Signal` allowing training above a
/// GPTBot block, and a file without any.
fn usage_files(dir: &std::path::Path) -> Vec<String> {
    let files = [
        (
            "cf.example.txt",
            "User-Agent: *\nContent-signal: search=yes,ai-train=no\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n",
        ),
        (
            "wide.example.txt",
            "Content-Signal: ai-train=yes\n\nUser-agent: GPTBot\nDisallow: /\n",
        ),
        ("plain.example.txt", "User-agent: *\nAllow: /\n"),
    ];
    files
        .iter()
        .map(|(name, body)| {
            let path = dir.join(name);
            std::fs::write(&path, body).unwrap();
            path.to_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn usage_columns_carry_the_signals_the_outcomes_and_the_contradictions() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("agents.tsv");
    // Googlebot's purpose makes the search contradiction apply.
    std::fs::write(
        &list,
        "GPTBot\tOpenAI\ttraining\nGooglebot\tGoogle\tsearch\n",
    )
    .unwrap();
    let files = usage_files(dir.path());
    let mut args = vec!["survey", "--agents-file", list.to_str().unwrap()];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{r:?}");
    let rows = fields(&r.stdout);
    let find = |host: &str, agent: &str| {
        rows.iter()
            .find(|row| row["host"] == host && row["agent"] == agent)
            .unwrap()
    };
    let columns = [
        "content_usage",
        "content_signal",
        "license",
        "llm_policy",
        "usage_train_ai",
        "usage_search",
        "signal_search",
        "signal_ai_input",
        "signal_ai_train",
        "train_ai",
        "search",
        "contradiction",
    ];
    let usage = |host: &str, agent: &str| {
        let row = find(host, agent);
        columns.map(|c| row[c].as_str()).join(" ")
    };
    // GPTBot reads the `*` group's signal: search allowed, training not.
    assert_eq!(
        usage("cf.example", "GPTBot"),
        "false true false false unknown unknown allowed unknown disallowed disallowed allowed "
    );
    // Googlebot may not crawl /, so it has no preference, and the `*` group allows search.
    assert_eq!(find("cf.example", "Googlebot")["reach"], "blocked");
    assert_eq!(
        usage("cf.example", "Googlebot"),
        "false true false false unknown unknown unknown unknown unknown unknown unknown search-allowed-disallowed"
    );
    // The file-wide signal allows training to GPTBot, which may not crawl /.
    assert_eq!(
        usage("wide.example", "GPTBot"),
        "false true false false unknown unknown unknown unknown unknown unknown unknown allows-disallowed"
    );
    assert_eq!(
        usage("plain.example", "GPTBot"),
        "false false false false unknown unknown unknown unknown unknown unknown unknown "
    );
    // The summary: the adoption line, and a contradiction for each crawler.
    assert!(
        r.stderr.contains(
            "AI usage signals: Content-Usage 0 (0.0%), Content-Signal 2 (66.7%), License 0 (0.0%), LLM-Policy 0 (0.0%), any 2 (66.7%)\n"
        ),
        "{r:?}"
    );
    let table: Vec<&str> = r.stderr.lines().collect();
    assert!(table[0].ends_with("unknown  contradictions"), "{r:?}");
    for agent in ["GPTBot", "Googlebot"] {
        let line = table.iter().find(|l| l.starts_with(agent)).unwrap();
        assert!(line.ends_with(" 1"), "{r:?}");
    }
}

#[test]
fn json_rows_carry_the_usage_columns() {
    let dir = tempfile::tempdir().unwrap();
    let files = usage_files(dir.path());
    let mut args = vec!["survey", "--format", "json", "--agents", "GPTBot"];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{r:?}");
    let rows: Vec<serde_json::Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    let cf = rows.iter().find(|r| r["host"] == "cf.example").unwrap();
    assert_eq!(cf["content_signal"], true);
    assert_eq!(cf["train_ai"], "disallowed");
    assert_eq!(cf["signal_search"], "allowed");
    assert!(cf["contradiction"].is_null());
    let wide = rows.iter().find(|r| r["host"] == "wide.example").unwrap();
    assert_eq!(wide["contradiction"], "allows-disallowed");
    assert_eq!(wide["reach"], "blocked");
}

/// A survey that read no capture says why in one line, exits non-zero and prints no table.
#[test]
fn a_survey_that_reads_nothing_fails_without_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        &["survey", "--agents", "GPTBot", dir.path().to_str().unwrap()],
        b"",
    );
    r.assert_one_line_error("the survey read no robots.txt capture: the inputs hold nothing");
    std::fs::create_dir(dir.path().join("empty.example")).unwrap();
    let r = run(
        &["survey", "--agents", "GPTBot", dir.path().to_str().unwrap()],
        b"",
    );
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stderr.contains("GPTBot"), "no table: {r:?}");
    assert!(!r.stderr.contains("0 captures"), "no table: {r:?}");
    let last = r.stderr.lines().last().unwrap();
    assert!(
        last.ends_with(
            "the survey read no robots.txt capture: 1 directory entry skipped (named above)"
        ),
        "{r:?}"
    );
}

#[test]
fn bad_crawler_names_and_missing_inputs_are_refused_before_any_work() {
    let gz = fixture("captures.warc.gz");
    let r = run(
        &[
            "survey",
            "--profile",
            "rfc9309",
            "--agents",
            "GPTBot,Mozilla/5.0 (compatible; ClaudeBot/1.0)",
            &gz,
        ],
        b"",
    );
    r.assert_error("pass `ClaudeBot`");
    // Under google (the default) too: a survey counts crawlers, named by product tokens.
    run(&["survey", "--agents", "GPT Bot", &gz], b"").assert_error("pass `GPTBot`");
    run(
        &["survey", "--agents", "GPTBot", &gz, "no-such.warc.gz"],
        b"",
    )
    .assert_error("cannot read input \"no-such.warc.gz\"");
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("agents.tsv");
    std::fs::write(&list, "GPTBot\tOpenAI\tfun\n").unwrap();
    run(
        &["survey", "--agents-file", list.to_str().unwrap(), &gz],
        b"",
    )
    .assert_error("line 1: purpose \"fun\"");
    run(&["survey", "--agents", "GPTBot"], b"").assert_error("missing argument INPUT");
    run(&["survey", "--agents", "GPTBot,,CCBot", &gz], b"").assert_error("empty crawler name");
}

#[test]
fn an_agents_file_names_the_crawlers_and_their_purposes() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("agents.tsv");
    std::fs::write(&list, "# mine\nGPTBot\tOpenAI\ttraining\nExampleBot\n").unwrap();
    let r = run(
        &[
            "survey",
            "--agents-file",
            list.to_str().unwrap(),
            &fixture("captures.warc.gz"),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(rows(&r.stdout).len(), 20);
    assert!(
        r.stderr
            .lines()
            .any(|l| l.starts_with("GPTBot") && l.contains("training")),
        "{r:?}"
    );
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_needs_the_feature() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.parquet");
    run(
        &[
            "survey",
            "--format",
            "parquet",
            "-o",
            out.to_str().unwrap(),
            &fixture("captures.warc.gz"),
        ],
        b"",
    )
    .assert_error("--features parquet");
}

#[test]
fn parquet_needs_an_output_file() {
    run(
        &[
            "survey",
            "--format",
            "parquet",
            &fixture("captures.warc.gz"),
        ],
        b"",
    )
    .assert_error("-o FILE");
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_holds_the_same_rows() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::RowAccessor;

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.parquet");
    let r = run(
        &[
            "survey",
            "--format",
            "parquet",
            "-o",
            out.to_str().unwrap(),
            "--agents",
            "GPTBot,Googlebot",
            &fixture("captures.warc.gz"),
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{r:?}");
    let reader = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let meta = reader.metadata();
    assert_eq!(meta.file_metadata().num_rows(), 20);
    let names: Vec<String> = meta
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .map(|c| c.name().to_owned())
        .collect();
    assert_eq!(names.join(","), HEADER);
    let csv = run(
        &[
            "survey",
            "--agents",
            "GPTBot,Googlebot",
            &fixture("captures.warc.gz"),
        ],
        b"",
    );
    let expected: Vec<(String, String)> =
        rows(&csv.stdout).into_iter().map(|r| (r.0, r.2)).collect();
    let got: Vec<(String, String)> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            (
                row.get_string(0).unwrap().clone(),
                row.get_string(12).unwrap().clone(),
            )
        })
        .collect();
    assert_eq!(got, expected);
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_holds_the_usage_columns() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::RowAccessor;

    let dir = tempfile::tempdir().unwrap();
    let files = usage_files(dir.path());
    let out = dir.path().join("rows.parquet");
    let mut args = vec![
        "survey",
        "--format",
        "parquet",
        "-o",
        out.to_str().unwrap(),
        "--agents",
        "GPTBot",
    ];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args, b"");
    assert_eq!(r.code, 0, "{r:?}");
    let reader = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    // Per row: host, content_signal, train_ai, contradiction (optional).
    let got: Vec<(String, bool, String, Option<String>)> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            let row = row.unwrap();
            (
                row.get_string(0).unwrap().clone(),
                row.get_bool(16).unwrap(),
                row.get_string(24).unwrap().clone(),
                row.get_string(26).ok().cloned(),
            )
        })
        .collect();
    let expected = [
        ("cf.example", true, "disallowed", None),
        ("wide.example", true, "unknown", Some("allows-disallowed")),
        ("plain.example", false, "unknown", None),
    ];
    assert_eq!(got.len(), expected.len());
    for (host, signal, train, contradiction) in expected {
        let row = got.iter().find(|g| g.0 == host).unwrap();
        assert_eq!(
            (row.1, row.2.as_str(), row.3.as_deref()),
            (signal, train, contradiction),
            "{host}"
        );
    }
}

#[test]
fn a_closed_output_pipe_ends_the_survey_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..300 {
        std::fs::write(
            dir.path().join(format!("host{i}.example.txt")),
            "User-agent: *\nDisallow: /private/\n",
        )
        .unwrap();
    }
    let mut child = crate::support::Harness::default()
        .command(&["survey", dir.path().to_str().unwrap()])
        .spawn()
        .unwrap();
    // About 700 KB of rows: more than a pipe holds.
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

//! The rows of `survey`: CSV (RFC 4180, a header line of the column names), JSON Lines, or
//! Parquet (the `parquet` feature). Rows are formatted on the worker threads
//! ([`format_batch`]); the writer only writes. Every text field from the input (host, URL,
//! file name, content type) is written terminal-safe: control and other invisible characters
//! escaped (`<U+001B>` in CSV, `\u001b` in JSON, as [`crate::output`] does). Each row is
//! [`COLUMNS`] then the AI usage columns ([`USAGE_COLUMNS`], `docs/survey.md`).

use std::io::Write;

use robotrules_survey::{Agent, AgentUsage, Row, Surveyed, UsageRow, COLUMNS, USAGE_COLUMNS};

use crate::error::CliError;
use crate::output;

/// The output formats of `survey`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RowFormat {
    /// CSV with a header line.
    #[default]
    Csv,
    /// JSON Lines: one object per row.
    Json,
    /// Parquet (one file; needs -o and a build with the `parquet` feature).
    Parquet,
}

/// A batch of surveyed captures, ready to write.
pub(crate) enum Formatted {
    /// CSV or JSON Lines text.
    Text(Vec<u8>),
    /// The captures themselves (Parquet is written column by column).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    Captures(Vec<Surveyed>),
}

/// Room for a CSV row's crawler columns after its name (`named`, `reach`, `crawl_delay`,
/// `sitemaps`, their commas) and for outcomes longer than the unknown ones: a little more
/// than they take.
const AGENT_COLUMNS: usize = 48;

/// Formats `batch` in `format` (on a worker thread).
pub(crate) fn format_batch(format: RowFormat, batch: &[Surveyed], agents: &[Agent]) -> Formatted {
    match format {
        RowFormat::Csv => {
            let mut out = Vec::new();
            // The columns of a capture are the same in each of its rows, and a crawler's name
            // in every capture: each is written once.
            let names: Vec<Vec<u8>> = agents
                .iter()
                .map(|agent| {
                    let mut name = Vec::new();
                    text(&mut name, Some(&agent.name));
                    name
                })
                .collect();
            // So are a capture's signal columns; most crawlers' outcomes are all unknown (the
            // file states nothing to them), written once here.
            let mut unstated = Vec::with_capacity(64);
            csv_outcomes(&mut unstated, &AgentUsage::UNSTATED);
            let mut capture = Vec::with_capacity(128);
            let mut signals = Vec::with_capacity(32);
            let names_len: usize = names.iter().map(Vec::len).sum();
            for (i, surveyed) in batch.iter().enumerate() {
                let mut rows = surveyed.rows(agents).peekable();
                if let Some(first) = rows.peek() {
                    capture.clear();
                    csv_capture(&mut capture, first);
                }
                let mut usages = surveyed.usage_rows(agents).peekable();
                if let Some(first) = usages.peek() {
                    signals.clear();
                    csv_signals(&mut signals, first);
                }
                // When the capture's rows may not fit, room for the rest of the batch at their
                // length (a batch's rows differ little): the buffer is seldom copied to grow.
                let row = capture.len() + signals.len() + unstated.len() + AGENT_COLUMNS;
                let rows_len = agents.len() * row + names_len;
                if out.capacity() - out.len() < rows_len {
                    out.reserve(rows_len * (batch.len() - i));
                }
                for ((row, usage), name) in rows.zip(usages).zip(&names) {
                    out.extend_from_slice(&capture);
                    csv_agent(&mut out, name, &row);
                    out.extend_from_slice(&signals);
                    if usage.usage == AgentUsage::UNSTATED {
                        out.extend_from_slice(&unstated);
                    } else {
                        csv_outcomes(&mut out, &usage.usage);
                    }
                }
            }
            Formatted::Text(out)
        }
        RowFormat::Json => {
            let mut out = Vec::with_capacity(batch.len() * agents.len() * 512);
            for s in batch {
                for (row, usage) in s.rows(agents).zip(s.usage_rows(agents)) {
                    // Serialising plain data to JSON does not fail.
                    if let Ok(line) = output::json_line(&JsonRow { row, usage }) {
                        out.extend_from_slice(line.as_bytes());
                    }
                }
            }
            Formatted::Text(out)
        }
        RowFormat::Parquet => Formatted::Captures(batch.to_vec()),
    }
}

/// One JSON Lines row: the row's columns, then its usage columns, in one object.
#[derive(serde::Serialize)]
struct JsonRow<'a> {
    #[serde(flatten)]
    row: Row<'a>,
    #[serde(flatten)]
    usage: UsageRow,
}

/// Writes rows in one format.
pub(crate) enum RowWriter<W: Write + Send> {
    /// CSV or JSON Lines.
    Text(W),
    /// Parquet (boxed: its column buffers are large beside a writer).
    #[cfg(feature = "parquet")]
    Parquet(Box<super::parquet::ParquetRows<W>>),
}

impl<W: Write + Send> RowWriter<W> {
    /// A writer of `format` to `out`; CSV starts with its header line.
    ///
    /// # Errors
    /// A failed write, or Parquet in a build without it.
    pub(crate) fn new(format: RowFormat, mut out: W, agents: &[Agent]) -> Result<Self, CliError> {
        match format {
            RowFormat::Csv => {
                let header = [COLUMNS.join(","), USAGE_COLUMNS.join(",")].join(",") + "\n";
                write_all(&mut out, header.as_bytes())?;
                Ok(RowWriter::Text(out))
            }
            RowFormat::Json => Ok(RowWriter::Text(out)),
            #[cfg(feature = "parquet")]
            RowFormat::Parquet => Ok(RowWriter::Parquet(Box::new(
                super::parquet::ParquetRows::new(out, agents)?,
            ))),
            #[cfg(not(feature = "parquet"))]
            RowFormat::Parquet => {
                let _ = agents;
                Err(CliError::Usage(
                    "this robotrules was built without Parquet: install it with `cargo install --locked --path crates/robotrules-cli --features parquet`".to_owned(),
                ))
            }
        }
    }

    /// Writes a formatted batch.
    ///
    /// # Errors
    /// A failed write ([`CliError::OutputClosed`] for a closed pipe).
    pub(crate) fn write(&mut self, batch: Formatted) -> Result<(), CliError> {
        match (self, batch) {
            (RowWriter::Text(out), Formatted::Text(bytes)) => write_all(out, &bytes),
            #[cfg(feature = "parquet")]
            (RowWriter::Parquet(parquet), Formatted::Captures(captures)) => parquet.add(&captures),
            // A writer gets the batches of its own format only.
            _ => Ok(()),
        }
    }

    /// Flushes (for Parquet, writes the last row group and the footer).
    ///
    /// # Errors
    /// A failed write.
    pub(crate) fn finish(self) -> Result<(), CliError> {
        match self {
            RowWriter::Text(mut out) => out.flush().map_err(crate::output::write_error),
            #[cfg(feature = "parquet")]
            RowWriter::Parquet(parquet) => parquet.finish(),
        }
    }
}

/// The [`COLUMNS`] of one CSV row (RFC 4180): fields with a comma, a quote or a line break
/// quoted, quotes doubled; empty for a missing value. [`csv_usage`] ends the line.
#[cfg(test)]
fn csv_row(out: &mut Vec<u8>, row: &Row<'_>) {
    csv_capture(out, row);
    let mut name = Vec::new();
    text(&mut name, Some(row.agent));
    csv_agent(out, &name, row);
}

/// A whole number in decimal, or nothing for a missing value (as `Display` writes it, with
/// `itoa` rather than the formatting machinery: a few numbers in every row).
fn number(out: &mut Vec<u8>, n: Option<impl Into<u64>>) {
    if let Some(n) = n {
        out.extend_from_slice(itoa::Buffer::new().format(n.into()).as_bytes());
    }
}

/// A number of seconds as `Display` writes it, or nothing for a missing value.
fn seconds(out: &mut Vec<u8>, n: Option<f64>) {
    if let Some(n) = n {
        // Writing to a `Vec` does not fail.
        let _ = write!(out, "{n}");
    }
}

/// The leading columns of a row, those of its capture (up to `parse_limit_cut`), each
/// followed by a comma.
fn csv_capture(out: &mut Vec<u8>, row: &Row<'_>) {
    text(out, Some(row.host));
    out.push(b',');
    text(out, Some(row.capture_time));
    out.push(b',');
    text(out, Some(row.warc_file));
    out.push(b',');
    number(out, row.warc_offset);
    out.push(b',');
    number(out, row.status);
    out.push(b',');
    text(out, row.redirect);
    out.push(b',');
    text(out, row.content_type);
    out.push(b',');
    out.extend_from_slice(row.body_kind.as_str().as_bytes());
    out.push(b',');
    number(out, Some(row.bytes));
    out.push(b',');
    out.extend_from_slice(if row.parse_limit_cut {
        b"true"
    } else {
        b"false"
    });
    out.push(b',');
}

/// The columns of a row from `agent` on (`name`: the agent's field, already written as
/// [`text`] writes it), and the line break.
fn csv_agent(out: &mut Vec<u8>, name: &[u8], row: &Row<'_>) {
    out.extend_from_slice(name);
    out.push(b',');
    out.extend_from_slice(if row.named { b"true" } else { b"false" });
    out.push(b',');
    out.extend_from_slice(row.reach.as_str().as_bytes());
    out.push(b',');
    seconds(out, row.crawl_delay);
    out.push(b',');
    number(out, Some(row.sitemaps));
}

/// The usage columns of a CSV row ([`USAGE_COLUMNS`]), after its [`COLUMNS`], and the line
/// break: `true`/`false`, the outcomes' names, the contradiction's (empty when none). The test
/// writes rows one by one with it; [`format_batch`] writes its parts once where it can.
#[cfg(test)]
fn csv_usage(out: &mut Vec<u8>, usage: &UsageRow) {
    csv_signals(out, usage);
    csv_outcomes(out, &usage.usage);
}

/// The signal columns of [`csv_usage`] (the same in every row of a capture).
fn csv_signals(out: &mut Vec<u8>, usage: &UsageRow) {
    for flag in usage.signal_flags() {
        out.push(b',');
        out.extend_from_slice(if flag { b"true" } else { b"false" });
    }
}

/// The crawler's columns of [`csv_usage`]: its outcomes and contradiction, and the line break.
fn csv_outcomes(out: &mut Vec<u8>, usage: &AgentUsage) {
    for outcome in usage.outcomes() {
        out.push(b',');
        out.extend_from_slice(outcome.as_str().as_bytes());
    }
    out.push(b',');
    if let Some(contradiction) = usage.contradiction {
        out.extend_from_slice(contradiction.as_str().as_bytes());
    }
    out.push(b'\n');
}

/// One text field, terminal-safe and quoted when it must be.
fn text(out: &mut Vec<u8>, value: Option<&str>) {
    let Some(value) = value else {
        return;
    };
    // `visible` already writes line breaks as `<U+000A>`: only a comma or a quote needs
    // quoting.
    let value = robotrules_text::visible(value);
    if value.contains([',', '"']) {
        out.push(b'"');
        out.extend_from_slice(value.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(value.as_bytes());
    }
}

/// Writes `bytes` to `out`.
fn write_all(out: &mut impl Write, bytes: &[u8]) -> Result<(), CliError> {
    out.write_all(bytes).map_err(crate::output::write_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use robotrules::Profile;
    use robotrules_survey::{Capture, Survey};

    #[test]
    fn numbers_are_written_as_display_writes_them() {
        for n in [0, 7, 10, 99, 100, 4_170, u64::from(u32::MAX), u64::MAX] {
            let mut out = b"x".to_vec();
            number(&mut out, Some(n));
            assert_eq!(out, format!("x{n}").as_bytes());
        }
        let mut out = Vec::new();
        number(&mut out, Some(u16::MAX));
        number(&mut out, None::<u64>);
        assert_eq!(out, b"65535");
    }

    fn surveyed(host: &str) -> (Survey, Surveyed) {
        let survey = Survey::new(
            vec![robotrules_survey::Agent::named("GPTBot")],
            Profile::Google,
            512_000,
        )
        .unwrap();
        let capture = Capture {
            host: host.into(),
            url: format!("https://{host}/robots.txt"),
            status: Some(200),
            headers: vec![("Content-Type".into(), "text/plain, charset=\"x\"".into())],
            body: b"User-agent: *\nDisallow: /\nCrawl-delay: 1.5\n".to_vec(),
            ..Capture::default()
        };
        let s = survey.capture(&capture);
        (survey, s)
    }

    #[test]
    fn csv_rows_quote_and_escape() {
        let (survey, s) = surveyed("a.example\x1b[2J");
        let Formatted::Text(out) = format_batch(RowFormat::Csv, &[s], survey.agents()) else {
            panic!("text expected");
        };
        let line = String::from_utf8(out).unwrap();
        assert_eq!(
            line,
            "a.example<U+001B>[2J,,,,200,,\"text/plain, charset=\"\"x\"\"\",robots,43,false,GPTBot,false,blocked,1.5,0,\
             false,false,false,false,unknown,unknown,unknown,unknown,unknown,unknown,unknown,\n"
        );
    }

    #[test]
    fn csv_batches_write_each_capture_s_columns_in_every_row_of_it() {
        let survey = Survey::new(
            ["GPTBot", "CCBot", "Googlebot"]
                .map(robotrules_survey::Agent::named)
                .to_vec(),
            Profile::Google,
            512_000,
        )
        .unwrap();
        let batch: Vec<Surveyed> = [
            ("a.example", 200, "User-agent: CCBot\nDisallow: /\n"),
            ("b,example", 404, ""),
            // Usage lines: signal columns set, and outcomes other than unknown for some.
            (
                "c.example",
                200,
                "Content-Signal: search=yes\nUser-agent: GPTBot\nDisallow: /\n\
                 Content-Usage: train-ai=y\nUser-agent: *\nContent-Usage: train-ai=n\n\
                 License: /license.xml\n",
            ),
        ]
        .iter()
        .map(|(host, status, body)| {
            survey.capture(&Capture {
                host: (*host).into(),
                status: Some(*status),
                body: body.as_bytes().to_vec(),
                offset: Some(7),
                ..Capture::default()
            })
        })
        .collect();
        let Formatted::Text(out) = format_batch(RowFormat::Csv, &batch, survey.agents()) else {
            panic!("text expected");
        };
        let mut one_by_one = Vec::new();
        for s in &batch {
            for (row, usage) in s.rows(survey.agents()).zip(s.usage_rows(survey.agents())) {
                csv_row(&mut one_by_one, &row);
                csv_usage(&mut one_by_one, &usage);
            }
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(one_by_one).unwrap()
        );
        let Formatted::Text(out) = format_batch(RowFormat::Csv, &batch, survey.agents()) else {
            panic!("text expected");
        };
        let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
        assert_eq!(lines.len(), 9);
        // GPTBot may not crawl `/` (no preference), and its statement allows training: a
        // contradiction; CCBot gets the `*` group's and the file-wide statements.
        assert!(
            lines[6].ends_with(",true,true,true,false,unknown,unknown,unknown,unknown,unknown,unknown,unknown,allows-disallowed"),
            "{}",
            lines[6]
        );
        assert!(lines[7].contains(",CCBot,"), "{}", lines[7]);
        assert!(
            lines[7].ends_with(",true,true,true,false,disallowed,unknown,allowed,unknown,unknown,disallowed,allowed,"),
            "{}",
            lines[7]
        );
        assert!(
            lines[1].starts_with("a.example,,,7,200,,,robots,30,false,CCBot,true,blocked,,0,"),
            "{}",
            lines[1]
        );
        assert!(
            lines[3].starts_with("\"b,example\",,,7,404,"),
            "{}",
            lines[3]
        );
    }

    #[test]
    fn json_rows_have_every_column() {
        let (survey, s) = surveyed("a.example");
        let Formatted::Text(out) = format_batch(RowFormat::Json, &[s], survey.agents()) else {
            panic!("text expected");
        };
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut columns = [COLUMNS.as_slice(), USAGE_COLUMNS.as_slice()].concat();
        columns.sort_unstable();
        let mut keys = keys;
        keys.sort_unstable();
        assert_eq!(keys, columns);
        assert_eq!(value["reach"], "blocked");
        assert_eq!(value["train_ai"], "unknown");
        assert_eq!(value["content_signal"], false);
        assert!(value["contradiction"].is_null());
    }
}

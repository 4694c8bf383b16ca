//! Surveys of robots.txt captures at corpus scale: for every capture (a WARC `response`
//! record of a host's `/robots.txt`, or a file of a directory) and every crawler of a list,
//! one row saying whether the host is `open`, `partial` or `blocked` to it, decided by the
//! robotrules model under a profile, never by text patterns.
//!
//! - [`Survey::capture`] is the per-capture function: one [`Capture`] in (host, URL, status,
//!   headers, body), a [`Surveyed`] out, whose [`Surveyed::rows`] are the rows
//!   ([`COLUMNS`]). It is what an engine such as Spark calls per record.
//! - [`reach_of`] decides the reach class of one crawler on one file, with witness paths
//!   (see [`reach`] for the method and its limits).
//! - [`WarcReader`] reads WARC files, plain or one gzip member per record (Common Crawl's
//!   layout), with each record's offset; malformed records are reported and skipped.
//! - [`run`] surveys many inputs on every core, streaming, in input order, and resolves
//!   redirects whose targets are in the input.
//! - [`default_agents`] is the default crawler list, the model's `data/agents.tsv`.
//!
//! ```
//! use robotrules_model::Profile;
//! use robotrules_survey::{default_agents, Reach, Capture, Survey};
//!
//! let survey = Survey::new(default_agents(), Profile::Google, 512_000)?;
//! let capture = Capture {
//!     host: "example.com".into(),
//!     url: "https://example.com/robots.txt".into(),
//!     status: Some(200),
//!     body: b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n".to_vec(),
//!     ..Capture::default()
//! };
//! let surveyed = survey.capture(&capture);
//! let gptbot = surveyed.rows(survey.agents()).find(|r| r.agent == "GPTBot").unwrap();
//! assert_eq!((gptbot.reach, gptbot.named), (Reach::Blocked, true));
//! let ccbot = surveyed.rows(survey.agents()).find(|r| r.agent == "CCBot").unwrap();
//! assert_eq!((ccbot.reach, ccbot.named), (Reach::Partial, false));
//! # Ok::<(), robotrules_model::InvalidAgent>(())
//! ```

mod body;
mod gzip_member;
mod http;
mod input;
mod pipeline;
pub mod reach;
mod survey;
mod tally;
mod usage;
pub mod warc;

pub use body::{body_kind, BodyKind};
pub use http::{parse_response, Response};
pub use input::{read_input, Input, Raw, Reading};
pub use pipeline::{run, Event, RunOptions};
pub use reach::{reach_of, Reach};
pub use robotrules_model::agents::{
    default_agents, parse_agent_list, Agent, AgentListError, Purpose, DEFAULT_AGENTS_TSV,
};
pub use survey::{
    host_of, resolve, url_key, AgentFacts, Capture, Facts, PerAgent, Row, Survey, Surveyed, COLUMNS,
};
pub use tally::{AgentTally, SignalTally, Tally};
pub use usage::{AgentUsage, Contradiction, Signals, UsageRow, USAGE_COLUMNS};
pub use warc::WarcReader;

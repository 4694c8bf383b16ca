//! The JSON API of `serve`: one request type per endpoint, each answered with what the
//! command of the same name computes (`explain`'s report, `lint`'s findings, `show`'s view,
//! `diff`'s changes, `fetch`'s summary) and, where the command prints text, that text too.
//! Errors are `{"error": "…"}` with the command's message. The shapes are in `docs/serve.md`.

use hyper::StatusCode;
use robotrules::{Profile, DEFAULT_PARSE_LIMIT};
use robotrules_lint::render::{self, TextOptions};
use robotrules_lint::{Deadline, LintOptions};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::time::Duration;

use crate::cmd::{diff, show};
use crate::error::CliError;
use crate::explain::{self, Report};

use super::check;
use super::error::{too_many_urls, ApiError};
use super::fetch;
use super::limits::{Config, HEAVY_BODY, MAX_URLS};

/// The file name in lint's and explain's text.
const FILE_NAME: &str = "robots.txt";

/// The API's endpoints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Endpoint {
    Check,
    Explain,
    Lint,
    Show,
    Diff,
    Fetch,
}

impl Endpoint {
    /// The endpoint at `/api/{name}`.
    pub(crate) fn of(name: &str) -> Option<Endpoint> {
        Some(match name {
            "check" => Endpoint::Check,
            "explain" => Endpoint::Explain,
            "lint" => Endpoint::Lint,
            "show" => Endpoint::Show,
            "diff" => Endpoint::Diff,
            "fetch" => Endpoint::Fetch,
            _ => return None,
        })
    }
}

/// Answers a request to `endpoint` with `body`: the JSON of the answer.
///
/// # Errors
/// An [`ApiError`] for a body that is not the endpoint's request, an input the command
/// rejects (its message), a request past [`MAX_URLS`], one past the deadline
/// ([`Config::deadline`]: its computation stops too), or a heavy one while
/// [`super::limits::MAX_HEAVY`] others are computed ([`ApiError::busy`]).
pub(crate) async fn answer(
    endpoint: Endpoint,
    body: bytes::Bytes,
    config: &Config,
) -> Result<Vec<u8>, ApiError> {
    let limit = config.deadline;
    if endpoint == Endpoint::Fetch {
        let request: fetch::FetchRequest = parse(&body)?;
        let answer =
            tokio::time::timeout(limit, fetch::fetch(&request, config.allow_private_fetch))
                .await
                .map_err(|_| ApiError::deadline(limit))??;
        return to_json(&answer);
    }
    let stop = Stop {
        deadline: Deadline::after(limit),
        limit,
    };
    // A heavy request computes only with one of the few heavy turns, taken now or never.
    let heavy = if endpoint != Endpoint::Check && body.len() > HEAVY_BODY {
        let turn = std::sync::Arc::clone(&config.heavy)
            .try_acquire_owned()
            .map_err(|_| ApiError::busy())?;
        Some(turn)
    } else {
        None
    };
    // The rest is computation: on a blocking thread, so a large request does not hold up the
    // connections the runtime serves meanwhile, and at most MAX_COMPUTATIONS at once.
    let work = async {
        // The semaphore is never closed: a turn always comes.
        let turn = std::sync::Arc::clone(&config.computations)
            .acquire_owned()
            .await
            .ok();
        tokio::task::spawn_blocking(move || {
            // Both turns are held until the computation ends: at its end, or at the first
            // look at the deadline past it.
            let answer = compute(endpoint, &body, stop);
            drop((turn, heavy));
            answer
        })
        .await
    };
    match tokio::time::timeout(limit, work).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request could not be answered (internal error)".to_owned(),
        )),
        Err(_) => Err(ApiError::deadline(limit)),
    }
}

/// When a computation gives up: its deadline, and the time it was given (for the message).
#[derive(Clone, Copy, Debug)]
struct Stop {
    deadline: Deadline,
    limit: Duration,
}

impl Stop {
    /// The deadline error once the deadline has passed.
    fn check(&self) -> Result<(), ApiError> {
        self.deadline.check().map_err(|_| self.expired())
    }

    fn expired(&self) -> ApiError {
        ApiError::deadline(self.limit)
    }
}

/// The answer of a computing endpoint, given up at the deadline (then a deadline error, which
/// the caller's own timer has usually answered already).
fn compute(endpoint: Endpoint, body: &[u8], stop: Stop) -> Result<Vec<u8>, ApiError> {
    match endpoint {
        Endpoint::Check => to_json(&check::check(&parse(body)?)?),
        Endpoint::Explain => to_json(&explain(&parse(body)?, stop)?),
        Endpoint::Lint => to_json(&lint(&parse(body)?, stop)?),
        Endpoint::Show => to_json(&show(&parse(body)?, stop)?),
        Endpoint::Diff => diff(&parse(body)?, stop),
        Endpoint::Fetch => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "fetch is not a computation".to_owned(),
        )),
    }
}

/// The endpoint's request in `body`.
fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|error| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("not a request this endpoint takes: {error}"),
        )
    })
}

pub(crate) fn to_json(value: &impl Serialize) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(value).map_err(|error| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write the answer: {error}"),
        )
    })
}

/// A profile's name, or `all`, as the commands' `--profile` reads it.
fn profiles(name: Option<&str>, default: &[Profile]) -> Result<Vec<Profile>, ApiError> {
    match name {
        None => Ok(default.to_vec()),
        Some(name) => crate::args::parse_profiles(name)
            .map(crate::args::Profiles::list)
            .map_err(|message| ApiError::new(StatusCode::BAD_REQUEST, message)),
    }
}

/// One profile by name (`rfc9309` when none is given).
fn one_profile(name: Option<&str>) -> Result<Profile, ApiError> {
    match profiles(name, &[Profile::default()])?.as_slice() {
        [one] => Ok(*one),
        _ => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "this endpoint takes one profile, not all".to_owned(),
        )),
    }
}

/// `POST /api/explain`: why `agent` may fetch `url`, or not, under every profile.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExplainRequest {
    robots: String,
    agent: String,
    url: String,
}

/// `explain --profile all --format json`'s report, and its text.
#[derive(Debug, Serialize)]
struct ExplainReply {
    report: Report,
    text: String,
}

fn explain(request: &ExplainRequest, stop: Stop) -> Result<ExplainReply, ApiError> {
    let bytes = request.robots.as_bytes();
    let report = Report::new(
        bytes,
        &request.agent,
        &request.url,
        &Profile::ALL,
        DEFAULT_PARSE_LIMIT,
    );
    stop.check()?;
    let text = explain::text(
        &report,
        bytes,
        &TextOptions {
            path: FILE_NAME.to_owned(),
            color: false,
        },
    );
    stop.check()?;
    Ok(ExplainReply { report, text })
}

/// `POST /api/lint`: what is wrong with the file, read for `profile`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LintRequest {
    robots: String,
    #[serde(default)]
    profile: Option<String>,
    /// The file's URL, if it was fetched (lints about sitemaps use it).
    #[serde(default)]
    robots_txt_url: Option<String>,
}

/// `lint`'s report, its text and its summary line.
#[derive(Debug, Serialize)]
struct Linted {
    report: robotrules_lint::LintReport,
    text: String,
    summary: String,
}

fn lint(request: &LintRequest, stop: Stop) -> Result<Linted, ApiError> {
    let options = LintOptions {
        profile: one_profile(request.profile.as_deref())?,
        robots_txt_url: request.robots_txt_url.clone(),
        ..LintOptions::default()
    };
    let bytes = request.robots.as_bytes();
    let report =
        robotrules_lint::lint_within(bytes, &options, stop.deadline).map_err(|_| stop.expired())?;
    stop.check()?;
    let text_options = TextOptions {
        path: FILE_NAME.to_owned(),
        color: false,
    };
    Ok(Linted {
        text: render::findings_text(&report, bytes, &text_options),
        summary: render::summary(&report, FILE_NAME),
        report,
    })
}

/// `POST /api/show`: what the crawler gets under `profile`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShowRequest {
    robots: String,
    agent: String,
    #[serde(default)]
    profile: Option<String>,
    /// The file's URL, if it was fetched: sitemaps are resolved against it.
    #[serde(default)]
    robots_txt_url: Option<String>,
}

/// `show --format json`'s view, and its text.
#[derive(Debug, Serialize)]
struct ShowReply {
    show: show::Shown,
    text: String,
}

fn show(request: &ShowRequest, stop: Stop) -> Result<ShowReply, ApiError> {
    let profile = one_profile(request.profile.as_deref())?;
    let shown = show::shown(
        request.robots.as_bytes(),
        profile,
        &request.agent,
        request.robots_txt_url.clone(),
        None,
    )?;
    stop.check()?;
    Ok(ShowReply {
        text: show::text(&shown),
        show: shown,
    })
}

/// `POST /api/diff`: what changes when `old` is replaced by `new`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DiffRequest {
    old: String,
    new: String,
    /// Crawler names; none: every crawler either file names.
    #[serde(default)]
    agents: Vec<String>,
    /// URLs to compare; none: the rules whose effect changed, on witness paths.
    #[serde(default)]
    urls: Vec<String>,
    /// A profile or `all` (the default).
    #[serde(default)]
    profile: Option<String>,
}

/// `diff --format json`'s records (each with its sentence) and summary, as one object.
fn diff(request: &DiffRequest, stop: Stop) -> Result<Vec<u8>, ApiError> {
    if request.urls.len() > MAX_URLS {
        return Err(too_many_urls(request.urls.len()));
    }
    let profiles = profiles(request.profile.as_deref(), &Profile::ALL)?;
    let url_mode = !request.urls.is_empty();
    let mut changes = Vec::new();
    let compared = diff::compare(
        request.old.as_bytes(),
        request.new.as_bytes(),
        &profiles,
        &request.agents,
        url_mode.then_some(&request.urls[..]),
        stop.deadline,
        |record| {
            let mut value = serde_json::to_value(&record)
                .map_err(|error| CliError::Usage(format!("cannot write a change: {error}")))?;
            if let Some(object) = value.as_object_mut() {
                object.insert(
                    "sentence".to_owned(),
                    record.sentence().trim_end().to_owned().into(),
                );
            }
            changes.push(value);
            Ok(())
        },
    )
    .map_err(|error| match error {
        CliError::Expired(_) => stop.expired(),
        error => ApiError::from(error),
    })?;
    let summary = diff::Summary {
        mode: if url_mode { "url" } else { "rule" },
        changes: changes.len() as u64,
        profiles: &profiles,
        agents: &compared,
        urls: url_mode.then_some(request.urls.len()),
    };
    to_json(&serde_json::json!({ "changes": changes, "summary": summary }))
}

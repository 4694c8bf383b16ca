//! One capture in, one row per crawler out: the per-capture survey, which the CLI runs over
//! WARC files and a binding can run on any engine (a Spark job reading WARC records with
//! warcio calls it once per record).

use std::ops::Range;
use std::sync::Arc;

use robotrules_model::{Crawler, InvalidAgent, Profile, RobotsTxt, Selection};

use crate::agents::Agent;
use crate::body::{body_kind, BodyKind};
use crate::http::header;
use crate::reach::{reach_of, Reach};
use robotrules_fetch::status::{status_access, StatusAccess, TooManyRequests};
use crate::usage::{default_allows_search, AgentUsage, Signals};

/// One robots.txt capture: what a crawler got when it fetched a host's `/robots.txt`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The host, as the `host` column shows it (lower-case, the port only when not the
    /// scheme's default); [`host_of`] gives it for a URL.
    pub host: String,
    /// The URL fetched (`WARC-Target-URI`); empty for a file read from a directory.
    pub url: String,
    /// When it was fetched (`WARC-Date`); empty when not known.
    pub time: String,
    /// Where the capture was read: the WARC file or the robots.txt file.
    pub file: String,
    /// The WARC record's offset in `file` (its gzip member's, in a gzipped file).
    pub offset: Option<u64>,
    /// The HTTP status; `None` for a file read from a directory, read as a 200.
    pub status: Option<u16>,
    /// The HTTP response's header fields.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked and decoded.
    pub body: Vec<u8>,
}

/// The columns of a capture that do not depend on the crawler.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// See [`Capture::host`].
    pub host: String,
    /// See [`Capture::url`].
    pub url: String,
    /// See [`Capture::time`].
    pub time: String,
    /// See [`Capture::file`].
    pub file: String,
    /// See [`Capture::offset`].
    pub offset: Option<u64>,
    /// See [`Capture::status`].
    pub status: Option<u16>,
    /// A redirect's target, resolved against the capture's URL.
    pub redirect: Option<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// What the body is.
    pub body_kind: BodyKind,
    /// The body's length in bytes.
    pub bytes: u64,
    /// Whether the body is longer than the parse limit (RFC 9309 §2.5), so its end was not
    /// read.
    pub cut: bool,
}

/// What the rules that apply give one crawler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentFacts {
    /// Open, partial, blocked (or unknown).
    pub reach: Reach,
    /// Whether a group names the crawler (rather than it falling back to `*`).
    pub named: bool,
    /// Its crawl-delay in seconds.
    pub crawl_delay: Option<f64>,
    /// Its AI usage outcomes for `/`, and whether the file contradicts itself for it.
    pub usage: AgentUsage,
}

impl AgentFacts {
    /// A crawler that no rules name, with reach `reach` (a status decided it).
    pub const fn by_status(reach: Reach) -> AgentFacts {
        AgentFacts {
            reach,
            named: false,
            crawl_delay: None,
            usage: AgentUsage::UNSTATED,
        }
    }
}

/// What the rules that apply to a capture give every crawler of the survey.
#[derive(Clone, Debug, PartialEq)]
pub struct PerAgent {
    /// Per crawler, in the survey's order.
    pub agents: Vec<AgentFacts>,
    /// How many `Sitemap:` lines the robots.txt has.
    pub sitemaps: u32,
    /// Which AI usage signals the robots.txt carries.
    pub signals: Signals,
}

/// One capture surveyed: its facts and, per crawler, its verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Surveyed {
    /// The columns that do not depend on the crawler.
    pub facts: Facts,
    /// The columns that do.
    pub per_agent: PerAgent,
}

/// The column names of a row, in order: the schema of CSV, JSON Lines and Parquet output.
pub const COLUMNS: [&str; 15] = [
    "host",
    "capture_time",
    "warc_file",
    "warc_offset",
    "status",
    "redirect",
    "content_type",
    "body_kind",
    "bytes",
    "parse_limit_cut",
    "agent",
    "named",
    "reach",
    "crawl_delay",
    "sitemaps",
];

/// One row: a capture and one crawler (the [`COLUMNS`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Row<'a> {
    /// The host.
    pub host: &'a str,
    /// When the capture was made.
    pub capture_time: &'a str,
    /// The WARC file (or robots.txt file) read.
    pub warc_file: &'a str,
    /// The record's offset in the WARC file.
    pub warc_offset: Option<u64>,
    /// The HTTP status.
    pub status: Option<u16>,
    /// A redirect's target.
    pub redirect: Option<&'a str>,
    /// The `Content-Type` header.
    pub content_type: Option<&'a str>,
    /// What the body is.
    pub body_kind: BodyKind,
    /// The body's length.
    pub bytes: u64,
    /// Whether the parse limit cut the body.
    pub parse_limit_cut: bool,
    /// The crawler.
    pub agent: &'a str,
    /// Whether a group names it.
    pub named: bool,
    /// Its reach class.
    pub reach: Reach,
    /// Its crawl-delay in seconds.
    pub crawl_delay: Option<f64>,
    /// The number of sitemaps.
    pub sitemaps: u32,
}

impl Surveyed {
    /// The rows, one per crawler of `agents` (the survey's list, in its order).
    pub fn rows<'a>(&'a self, agents: &'a [Agent]) -> impl Iterator<Item = Row<'a>> + 'a {
        let f = &self.facts;
        agents
            .iter()
            .zip(&self.per_agent.agents)
            .map(move |(agent, v)| Row {
                host: &f.host,
                capture_time: &f.time,
                warc_file: &f.file,
                warc_offset: f.offset,
                status: f.status,
                redirect: f.redirect.as_deref(),
                content_type: f.content_type.as_deref(),
                body_kind: f.body_kind,
                bytes: f.bytes,
                parse_limit_cut: f.cut,
                agent: &agent.name,
                named: v.named,
                reach: v.reach,
                crawl_delay: v.crawl_delay,
                sitemaps: self.per_agent.sitemaps,
            })
    }

    /// The usage columns of the rows ([`crate::USAGE_COLUMNS`]), one per crawler of `agents`,
    /// in the order of [`Surveyed::rows`].
    pub fn usage_rows<'a>(
        &'a self,
        agents: &'a [Agent],
    ) -> impl Iterator<Item = crate::UsageRow> + 'a {
        let signals = self.per_agent.signals;
        agents
            .iter()
            .zip(&self.per_agent.agents)
            .map(move |(_, v)| crate::UsageRow {
                signals,
                usage: v.usage,
            })
    }

    /// Whether this is a redirect whose reach waits for its target.
    pub fn awaits_target(&self) -> bool {
        self.facts.redirect.is_some()
            && self
                .per_agent
                .agents
                .iter()
                .all(|a| a.reach == Reach::Unknown)
    }
}

/// A survey: the crawlers asked about and how robots.txt files are read.
#[derive(Clone, Debug)]
pub struct Survey {
    agents: Vec<Agent>,
    profile: Profile,
    parse_limit: usize,
}

impl Survey {
    /// A survey of `agents` under `profile`, files read up to `parse_limit` bytes.
    ///
    /// A survey counts crawlers, and a crawler is named by a product token (RFC 9309
    /// §2.2.1) whatever the profile: `google` would read `GPT Bot` as Google's library does
    /// (only a group named by the whole string matches it), which in a survey is a typo that
    /// silently counts the `*` group. So every name must be a token under `rfc9309` too.
    ///
    /// # Errors
    /// The first name that is not a product token, or that `profile` refuses, with the
    /// model's message and suggestion (`pass `GPTBot`` for a full User-Agent string).
    pub fn new(
        agents: Vec<Agent>,
        profile: Profile,
        parse_limit: usize,
    ) -> Result<Survey, InvalidAgent> {
        for agent in &agents {
            for reading in [profile, Profile::Rfc9309] {
                reading.check_crawler_name(&agent.name)?;
            }
        }
        Ok(Survey {
            agents,
            profile,
            parse_limit,
        })
    }

    /// The crawlers, in order.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Surveys one capture. A redirect (RFC 9309 §2.3.1.2) gets its target in
    /// [`Facts::redirect`] and reach [`Reach::Unknown`] for every crawler: whoever holds the
    /// target's capture replaces the verdicts with the target's ([`Survey::per_agent`]); the CLI
    /// does when the target is in its input.
    pub fn capture(&self, capture: &Capture) -> Surveyed {
        let status = capture.status.unwrap_or(200);
        let location = header(&capture.headers, "location");
        let mut class = status_access(status, location.is_some(), TooManyRequests::default());
        let mut redirect = None;
        if class == StatusAccess::Redirect {
            match location.and_then(|l| resolve(&capture.url, l)) {
                Some(target) => redirect = Some(target),
                // A Location that is no URL, or not http or https: unavailable, as the fetch
                // client reads it.
                None => {
                    redirect = location.map(str::to_owned);
                    class = StatusAccess::Unavailable;
                }
            }
        }
        let facts = Facts {
            host: capture.host.clone(),
            url: capture.url.clone(),
            time: capture.time.clone(),
            file: capture.file.clone(),
            offset: capture.offset,
            status: capture.status,
            redirect,
            content_type: header(&capture.headers, "content-type").map(str::to_owned),
            body_kind: body_kind(&capture.body),
            bytes: capture.body.len() as u64,
            cut: capture.body.len() > self.parse_limit,
        };
        let per_agent = match class {
            StatusAccess::Success => self.per_agent(&capture.body),
            StatusAccess::Redirect => self.all(Reach::Unknown),
            StatusAccess::Unavailable => self.all(Reach::Open),
            _ => self.all(Reach::Blocked),
        };
        Surveyed { facts, per_agent }
    }

    /// Every crawler with reach `reach` and no rules (a status decided).
    pub fn all(&self, reach: Reach) -> PerAgent {
        PerAgent {
            agents: vec![AgentFacts::by_status(reach); self.agents.len()],
            sitemaps: 0,
            signals: Signals::default(),
        }
    }

    /// The verdicts of the robots.txt `body`: parsed once; each crawler's groups chosen
    /// ([`RobotsTxt::selection_into`]); each distinct set of groups compiled once (most crawlers
    /// fall back to `*`) and its reach decided by [`reach_of`].
    pub fn per_agent(&self, body: &[u8]) -> PerAgent {
        let robots = Arc::new(RobotsTxt::parse(body, self.profile, self.parse_limit));
        let sitemaps = u32::try_from(robots.sitemaps().count()).unwrap_or(u32::MAX);
        let signals = Signals::of(&robots);
        let stated = signals.content_usage || signals.content_signal;
        // Whether the file's default statements allow search: asked once, when a search
        // crawler may not crawl `/` (usage::Contradiction::SearchAllowedDisallowed).
        let mut allows_search: Option<bool> = None;
        // The crawler's groups; every distinct set of groups met, one after another; and per
        // distinct set, where it is in `sets`, its facts (`named` aside) and whether it may
        // crawl `/`. Three vectors for the capture, not one or two per crawler.
        let mut groups: Vec<usize> = Vec::new();
        let mut sets: Vec<usize> = Vec::new();
        let mut decided: Vec<(Range<usize>, AgentFacts, bool)> = Vec::new();
        let agents = self
            .agents
            .iter()
            .map(|agent| {
                // Names are checked in `Survey::new`; a file cannot make one invalid.
                let Ok(selection) = robots.selection_into(&agent.name, &mut groups) else {
                    return AgentFacts::by_status(Reach::Unknown);
                };
                let named = matches!(selection, Selection::Exact | Selection::Substring);
                let known = decided
                    .iter()
                    .find(|(set, ..)| sets[set.clone()] == groups[..]);
                let (facts, root_allowed) = match known {
                    Some((_, facts, root)) => (*facts, *root),
                    None => {
                        let Ok(crawler) = Crawler::new(Arc::clone(&robots), &agent.name) else {
                            return AgentFacts::by_status(Reach::Unknown);
                        };
                        // Without a usage line no crawler has a statement: nothing to ask.
                        let (usage, root) = if stated {
                            let root = AgentUsage::root_allowed(&crawler);
                            (AgentUsage::of(&crawler, root), root)
                        } else {
                            (AgentUsage::UNSTATED, true)
                        };
                        let facts = AgentFacts {
                            reach: reach_of(&crawler),
                            named: false,
                            crawl_delay: crawler.crawl_delay().map(|d| d.as_secs_f64()),
                            usage,
                        };
                        let start = sets.len();
                        sets.extend_from_slice(&groups);
                        decided.push((start..sets.len(), facts, root));
                        (facts, root)
                    }
                };
                let default_allows = stated
                    && !root_allowed
                    && agent.purpose == crate::agents::Purpose::Search
                    && *allows_search.get_or_insert_with(|| default_allows_search(&robots));
                AgentFacts {
                    named,
                    usage: facts
                        .usage
                        .for_purpose(agent.purpose, root_allowed, default_allows),
                    ..facts
                }
            })
            .collect();
        PerAgent {
            agents,
            sitemaps,
            signals,
        }
    }
}

/// `location` resolved against `base` as the fetch client follows a redirect
/// ([`robotrules_url::redirect_target`]: RFC 3986 §5, the fragment dropped, http and https
/// only), serialised as [`url_key`] does; `None` when it is no redirect to follow.
pub fn resolve(base: &str, location: &str) -> Option<String> {
    let base = url::Url::parse(base)
        .or_else(|_| url::Url::parse(location.trim()))
        .ok()?;
    robotrules_url::redirect_target(&base, location)
        .ok()
        .map(String::from)
}

/// `url` in the one serialisation redirect targets are compared in (the URL Standard's); `url`
/// itself when it is no URL.
pub fn url_key(url: &str) -> String {
    url::Url::parse(url).map_or_else(|_| url.to_owned(), |u| u.to_string())
}

/// The host column for `url`: lower-case (punycode) host, `:port` when not the scheme's
/// default; `None` when `url` has no host.
pub fn host_of(url: &str) -> Option<String> {
    let origin = robotrules_url::Origin::parse(url).ok()?;
    Some(match origin.port() {
        Some(port) => format!("{}:{port}", origin.host()),
        None => origin.host().to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Agent;

    fn survey() -> Survey {
        let agents = ["GPTBot", "Googlebot", "CCBot"].map(Agent::named).to_vec();
        Survey::new(agents, Profile::Google, 512_000).unwrap()
    }

    fn capture(status: u16, headers: &[(&str, &str)], body: &str) -> Capture {
        Capture {
            host: "example.com".into(),
            url: "https://example.com/robots.txt".into(),
            status: Some(status),
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            body: body.as_bytes().to_vec(),
            ..Capture::default()
        }
    }

    fn reach(s: &Surveyed) -> Vec<Reach> {
        s.per_agent.agents.iter().map(|a| a.reach).collect()
    }

    #[test]
    fn rules_decide_per_crawler() {
        let body = "User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\nCrawl-delay: 2\n\nSitemap: https://example.com/s.xml\n";
        let survey = survey();
        let s = survey.capture(&capture(200, &[("Content-Type", "text/plain")], body));
        assert_eq!(reach(&s), [Reach::Blocked, Reach::Partial, Reach::Partial]);
        assert!(s.per_agent.agents[0].named && !s.per_agent.agents[1].named);
        assert_eq!(s.per_agent.agents[1].crawl_delay, Some(2.0));
        assert_eq!(s.per_agent.sitemaps, 1);
        assert_eq!(s.facts.content_type.as_deref(), Some("text/plain"));
        let rows: Vec<Row<'_>> = s.rows(survey.agents()).collect();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2].agent, "CCBot");
    }

    #[test]
    fn an_empty_sitemap_line_is_not_counted() {
        let body = "Sitemap:\nUser-agent: *\nDisallow: /x\nSitemap: https://example.com/s.xml\n";
        let s = survey().capture(&capture(200, &[], body));
        assert_eq!(s.per_agent.sitemaps, 1);
    }

    #[test]
    fn statuses_follow_rfc_9309() {
        let survey = survey();
        let body = "User-agent: *\nDisallow: /\n";
        assert_eq!(
            reach(&survey.capture(&capture(404, &[], body))),
            [Reach::Open; 3]
        );
        assert_eq!(
            reach(&survey.capture(&capture(503, &[], body))),
            [Reach::Blocked; 3]
        );
        let moved = survey.capture(&capture(
            301,
            &[("Location", "//www.example.com/robots.txt")],
            "",
        ));
        assert_eq!(reach(&moved), [Reach::Unknown; 3]);
        assert!(moved.awaits_target());
        assert_eq!(
            moved.facts.redirect.as_deref(),
            Some("https://www.example.com/robots.txt")
        );
    }

    #[test]
    fn names_that_are_not_product_tokens_are_refused_up_front_in_every_profile() {
        for profile in [Profile::Rfc9309, Profile::Google, Profile::Legacy1994] {
            let error = Survey::new(
                vec![
                    Agent::named("ClaudeBot"),
                    Agent::named("Mozilla/5.0 (compatible; GPTBot/1.2)"),
                ],
                profile,
                512_000,
            )
            .unwrap_err();
            assert_eq!(error.suggestion.as_deref(), Some("GPTBot"), "{profile}");
        }
        assert!(Survey::new(vec![Agent::named("GPTBot")], Profile::Google, 512_000).is_ok());
    }

    #[test]
    fn hosts_and_urls() {
        assert_eq!(
            host_of("https://Example.COM/robots.txt").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            host_of("http://example.com:8080/robots.txt").as_deref(),
            Some("example.com:8080")
        );
        assert_eq!(
            host_of("http://example.com:80/robots.txt").as_deref(),
            Some("example.com")
        );
        assert_eq!(
            url_key("HTTP://Example.com/robots.txt"),
            "http://example.com/robots.txt"
        );
    }

    #[test]
    fn redirects_are_read_as_the_fetch_client_follows_them() {
        let base = "https://example.com/robots.txt";
        assert_eq!(
            resolve(base, "/new/robots.txt#top").as_deref(),
            Some("https://example.com/new/robots.txt")
        );
        assert_eq!(
            resolve(base, "https://www.example.com/robots.txt").as_deref(),
            Some("https://www.example.com/robots.txt")
        );
        // Not http or https: no redirect to follow (the fetch client reads it as unavailable).
        assert_eq!(resolve(base, "ftp://example.com/robots.txt"), None);
        assert_eq!(resolve(base, "http://[::1"), None);
    }
}

//! `show`: what a crawler gets from a robots.txt file — how its groups were chosen, each
//! group's user-agent lines and rules as written, its crawl-delay, request-rate and
//! visit-time, the file's sitemaps (resolved against the robots.txt URL when there is one),
//! its AI usage rules (`Content-Usage`, `Content-Signal`: path, statement of preference, the
//! RFC 9651 Dictionary read or where it stops parsing) and the file-wide records about AI use
//! (`License`, `LLM-Policy`, a `Content-Signal` outside any group).

use robotrules::usage::{DictionaryError, Member, UsageStatement, Vocabulary};
use robotrules::{Crawler, Group, Profile, RequestRate, Robots};
use serde::{Deserialize, Serialize};

/// The request: the file's text, the crawler's name, a profile's name (the host reads it) and
/// the file's URL, when it was fetched (sitemaps and file-wide URLs are resolved against it).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShowRequest {
    /// The robots.txt file's text.
    pub robots: String,
    /// The crawler's name.
    pub agent: String,
    /// The profile's name; none: `rfc9309`.
    #[serde(default)]
    pub profile: Option<String>,
    /// The file's URL, if it was fetched.
    #[serde(default)]
    pub robots_txt_url: Option<String>,
}

/// What the crawler gets, past the view's head (profile, name, URL), which each host writes
/// with its own fields beside it and this flattened after them.
#[derive(Debug, Serialize)]
pub struct CrawlerView {
    /// How the groups were chosen (`exact`, `substring`, `global`, `unmatched`).
    pub selection: String,
    /// Each group's first line, user-agent values and rules as written (`{"line", "kind",
    /// "pattern"}`, in line order).
    pub groups: Vec<Group>,
    /// Seconds, from the first valid `crawl-delay` record.
    pub crawl_delay: Option<f64>,
    /// The first valid `request-rate` record.
    pub request_rate: Option<RequestRate>,
    /// The `visit-time` values as written.
    pub visit_time: Vec<String>,
    /// The file's sitemaps, resolved against the robots.txt URL when there is one.
    pub sitemaps: Vec<String>,
    /// The crawler's AI usage rules: its groups' `Content-Usage` and `Content-Signal` lines
    /// and the file-wide `Content-Signal` lines, in file order.
    pub usage: Vec<Statement>,
    /// The file-wide records about AI use, for every crawler.
    pub file_wide: FileWide,
}

impl CrawlerView {
    /// What `rules` gets from its file; `url` is the file's URL, when it was fetched.
    pub fn of(rules: &Crawler, url: Option<&str>) -> CrawlerView {
        let robots = rules.robots();
        CrawlerView {
            selection: rules.selection().to_string(),
            groups: rules.groups(),
            crawl_delay: rules.crawl_delay().map(|d| d.as_secs_f64()),
            request_rate: rules.request_rate(),
            visit_time: rules.visit_times(),
            sitemaps: match url {
                Some(base) => robots.sitemaps_from(base),
                None => robots.sitemaps().map(str::to_owned).collect(),
            },
            usage: statements(rules),
            file_wide: FileWide::of(&robots, url),
        }
    }
}

/// The whole view with nothing added: the head, then [`CrawlerView`].
#[derive(Debug, Serialize)]
pub struct Shown {
    /// The reading applied.
    pub profile: Profile,
    /// The crawler's name as asked.
    pub agent: String,
    /// The robots.txt URL, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robots_txt_url: Option<String>,
    /// What the crawler gets.
    #[serde(flatten)]
    pub crawler: CrawlerView,
}

impl Shown {
    /// What `rules` gets; `url` is the file's URL, when it was fetched.
    pub fn of(rules: &Crawler, url: Option<String>) -> Shown {
        Shown {
            profile: rules.robots().profile(),
            agent: rules.name().to_owned(),
            crawler: CrawlerView::of(rules, url.as_deref()),
            robots_txt_url: url,
        }
    }
}

/// One `Content-Usage` or `Content-Signal` line as the crawler reads it.
#[derive(Debug, Serialize)]
pub struct Statement {
    /// Its 1-based line.
    pub line: u32,
    /// `content-usage` or `content-signal`.
    pub key: &'static str,
    /// `aipref` or `content-signals`.
    pub vocabulary: Vocabulary,
    /// The first line of the group it stands in; none outside any group (for every crawler).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_line: Option<u32>,
    /// The path as written, when there is one (draft-ietf-aipref-attach-05 §3.2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The statement of preference as written.
    pub preference: String,
    /// Its RFC 9651 Dictionary's members, when it parses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<Member>>,
    /// Where it stops parsing, when it does not (every category unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<DictionaryError>,
}

impl Statement {
    /// `statement`, of the file `robots`.
    pub fn of(statement: &UsageStatement, robots: &Robots) -> Statement {
        let (members, error) = match &statement.members {
            Ok(members) => (Some(members.clone()), None),
            Err(error) => (None, Some(error.clone())),
        };
        Statement {
            line: statement.line,
            key: statement.vocabulary.key(),
            vocabulary: statement.vocabulary,
            group_line: statement.group.and_then(|g| robots.group_line(g)),
            path: statement.path.clone(),
            preference: statement.preference.clone(),
            members,
            error,
        }
    }
}

/// The AI usage rules of `rules` ([`Crawler::usage_statements`]), in file order.
pub fn statements(rules: &Crawler) -> Vec<Statement> {
    let robots = rules.robots();
    rules
        .usage_statements()
        .iter()
        .map(|s| Statement::of(s, &robots))
        .collect()
}

/// A file-wide record's line and value (a URL resolved against the robots.txt URL).
#[derive(Debug, Serialize)]
pub struct FileRecord {
    /// Its 1-based line.
    pub line: u32,
    /// Its value (a `License` or `LLM-Policy` URL resolved when there is a robots.txt URL).
    pub value: String,
}

/// The file-wide records about AI use.
#[derive(Debug, Serialize)]
pub struct FileWide {
    /// `License:` (RSL 1.0).
    pub licenses: Vec<FileRecord>,
    /// `LLM-Policy:`.
    pub llm_policies: Vec<FileRecord>,
    /// `Content-Signal:` outside any group.
    pub content_signals: Vec<FileRecord>,
}

impl FileWide {
    /// The records of `robots`, URLs resolved against `url` (the robots.txt URL) as sitemaps
    /// are, when there is one.
    pub fn of(robots: &Robots, url: Option<&str>) -> FileWide {
        FileWide {
            licenses: records(
                robots.licenses().collect(),
                url.map(|base| robots.licenses_from(base)),
            ),
            llm_policies: records(
                robots.llm_policies().collect(),
                url.map(|base| robots.llm_policies_from(base)),
            ),
            content_signals: records(robots.file_signals().collect(), None),
        }
    }
}

/// Records with their lines: the values `resolved`, when given (in the same order), else as
/// `written`.
fn records(written: Vec<(u32, &str)>, resolved: Option<Vec<String>>) -> Vec<FileRecord> {
    match resolved {
        Some(resolved) => written
            .into_iter()
            .zip(resolved)
            .map(|((line, _), value)| FileRecord { line, value })
            .collect(),
        None => written
            .into_iter()
            .map(|(line, value)| FileRecord {
                line,
                value: value.to_owned(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn usage_rules_and_file_wide_records_are_listed() {
        let robots = Robots::parse(
            b"Content-Signal: ai-train=no\nUser-agent: *\nContent-Usage: /ai-ok/ train-ai=y\n\
              Content-Usage: train-ai=yes;;\nLicense: /license.xml\nLLM-Policy: /llm.txt\n",
        );
        let rules = robots.crawler("ExampleBot").expect("a token");
        let shown = Shown::of(&rules, Some("https://example.com/robots.txt".to_owned()));
        let json = serde_json::to_value(&shown).expect("JSON");
        assert_eq!(
            json["usage"][1],
            json!({"line": 3, "key": "content-usage", "vocabulary": "aipref",
                "group_line": 2, "path": "/ai-ok/", "preference": "train-ai=y",
                "members": [{"label": "train-ai", "value": {"token": "y"}}]})
        );
        assert_eq!(json["usage"][0]["group_line"], serde_json::Value::Null);
        assert!(json["usage"][2]["error"]["offset"].is_number(), "{json}");
        assert_eq!(
            json["file_wide"],
            json!({
                "licenses": [{"line": 5, "value": "https://example.com/license.xml"}],
                "llm_policies": [{"line": 6, "value": "https://example.com/llm.txt"}],
                "content_signals": [{"line": 1, "value": "ai-train=no"}]})
        );
        let unresolved = serde_json::to_value(Shown::of(&rules, None)).expect("JSON");
        assert_eq!(
            unresolved["file_wide"]["licenses"],
            json!([{"line": 5, "value": "/license.xml"}])
        );
        assert!(unresolved.get("robots_txt_url").is_none());
    }

    #[test]
    fn groups_and_records_are_the_crawler_s() {
        let robots = Robots::parse(
            b"User-agent: ExampleBot\nDisallow: /a\nCrawl-delay: 2\nSitemap: /s.xml\n",
        );
        let rules = robots.crawler("ExampleBot").expect("a token");
        let json = serde_json::to_value(Shown::of(
            &rules,
            Some("https://example.com/robots.txt".to_owned()),
        ))
        .expect("JSON");
        assert_eq!(json["selection"], "exact");
        assert_eq!(
            json["groups"][0]["rules"][0],
            json!({"line": 2, "kind": "disallow", "pattern": "/a"})
        );
        assert_eq!(json["crawl_delay"], 2.0);
        assert_eq!(json["sitemaps"], json!(["https://example.com/s.xml"]));
        assert_eq!(json["usage"], json!([]));
    }
}

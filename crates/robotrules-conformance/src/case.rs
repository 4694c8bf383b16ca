//! The case format of `conformance/**.jsonl` (see `conformance/README.md`).
//!
//! A line is a [`Case`], read by serde: the common fields, then a [`Test`] tagged by `layer`
//! whose [`Spec`] carries that layer's typed `input` and `expect`, so that the runner never has
//! to guess at a field. What the types cannot say (checks across fields) is [`Test::check`].

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use robotrules::Profile;
use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::fetch_case::{FetchEvent, FetchInput, FetchObservation, FetchTest, Scheme};
pub use crate::spec::Spec;

/// The layer of robotrules a case exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// `robotrules-grammar`: bytes to lines.
    Grammar,
    /// `robotrules-url`: robots.txt location, origin, scope, path extraction.
    Url,
    /// The facade's `Robots::is_allowed`: groups, precedence, matching.
    Model,
    /// `robotrules-fetch`: status codes and network events to an access result.
    Fetch,
    /// The facade's `Crawler::usage`: AI usage preferences (`Content-Usage`,
    /// `Content-Signal`, the HTTP `Content-Usage` header).
    Usage,
    /// The `robotrules` command-line tool.
    Cli,
}

impl fmt::Display for Layer {
    /// The name used in the case format (`model`, ...).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layer::Grammar => "grammar",
            Layer::Url => "url",
            Layer::Model => "model",
            Layer::Fetch => "fetch",
            Layer::Usage => "usage",
            Layer::Cli => "cli",
        })
    }
}

/// One line of a `.jsonl` file.
#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    /// Unique, stable identifier (the expected-differences file refers to it).
    #[serde(deserialize_with = "non_empty")]
    pub id: String,
    /// Where the case comes from (`rfc9309`, `google-robotstxt`, ...).
    pub source: String,
    /// The RFC section, seed table or upstream test name.
    pub section: String,
    /// The profiles the expectation holds for, in the order written.
    #[serde(deserialize_with = "profiles")]
    pub profiles: Vec<Profile>,
    /// The layer, with its input and expectation.
    #[serde(flatten)]
    pub test: Test,
    /// Why the case cannot run yet, if it cannot.
    pub pending: Option<String>,
    /// Where the case was taken from.
    pub provenance: Option<String>,
    /// Free text.
    pub note: Option<String>,
    /// Any other field (e.g. `semantics`, `google_robotstxt`), kept for the report.
    #[serde(flatten, deserialize_with = "other_fields")]
    pub extra: BTreeMap<String, Value>,
    /// The file the case was read from, relative to the corpus directory.
    #[serde(skip)]
    pub file: String,
    /// Its 1-based line number in that file.
    #[serde(skip)]
    pub line: usize,
}

impl Case {
    /// The layer the case exercises.
    pub fn layer(&self) -> Layer {
        self.test.layer()
    }

    /// Reads and checks the JSON object of line `line` of `file`; `Err` says what is wrong.
    pub fn from_json(value: &Value, file: &str, line: usize) -> Result<Case, String> {
        let mut case = Case::deserialize(value).map_err(|error| error.to_string())?;
        case.test.check()?;
        case.file = file.to_owned();
        case.line = line;
        Ok(case)
    }
}

/// Parses a profile name (`rfc9309`, `google`, `legacy1994`).
pub fn parse_profile(name: &str) -> Result<Profile, String> {
    name.parse::<Profile>().map_err(|_| {
        let known: Vec<String> = Profile::ALL.iter().map(ToString::to_string).collect();
        format!("unknown profile `{name}` (known: {})", known.join(", "))
    })
}

fn non_empty<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if text.trim().is_empty() {
        return Err(D::Error::custom("`id` is empty"));
    }
    Ok(text)
}

fn profiles<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Profile>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    if names.is_empty() {
        return Err(D::Error::custom(
            "`profiles` is empty: name the profiles the expectation holds for",
        ));
    }
    let mut profiles = Vec::with_capacity(names.len());
    for name in &names {
        let profile = parse_profile(name).map_err(D::Error::custom)?;
        if profiles.contains(&profile) {
            return Err(D::Error::custom(format!(
                "profile `{name}` is listed twice"
            )));
        }
        profiles.push(profile);
    }
    Ok(profiles)
}

/// The fields left over once the named ones are read, less the layer's own.
fn other_fields<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Value>, D::Error> {
    let mut fields = BTreeMap::<String, Value>::deserialize(d)?;
    for layer_field in ["layer", "input", "expect"] {
        fields.remove(layer_field);
    }
    Ok(fields)
}

/// The layer a case exercises, with that layer's input and expectation.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "layer", rename_all = "lowercase")]
pub enum Test {
    /// What the grammar makes of a body.
    Grammar(GrammarTest),
    /// One operation of `robotrules-url`.
    Url(UrlTest),
    /// Is a URL allowed for a crawler?
    Model(ModelTest),
    /// A fetch against loopback servers.
    Fetch(FetchTest),
    /// What a crawler may use a URL for.
    Usage(UsageTest),
    /// A `cli` case (not run by this runner yet; kept as written).
    Cli(Spec<Value, Value>),
}

impl Test {
    /// The layer of this test.
    pub fn layer(&self) -> Layer {
        match self {
            Test::Grammar(_) => Layer::Grammar,
            Test::Url(_) => Layer::Url,
            Test::Model(_) => Layer::Model,
            Test::Fetch(_) => Layer::Fetch,
            Test::Usage(_) => Layer::Usage,
            Test::Cli(_) => Layer::Cli,
        }
    }

    /// The robots.txt body of a `model` or `grammar` case.
    pub fn body(&self) -> Option<&[u8]> {
        match self {
            Test::Model(test) => body(&test.input.robots, &test.input.robots_b64),
            Test::Grammar(test) => body(&test.input.robots, &test.input.robots_b64),
            Test::Usage(test) => body(&test.input.robots, &test.input.robots_b64),
            _ => None,
        }
    }

    /// The input as JSON, for reports (the body is in [`Test::body`]).
    pub fn input_json(&self) -> Value {
        match self {
            Test::Grammar(test) => serde_json::to_value(&test.input),
            Test::Url(test) => serde_json::to_value(&test.input),
            Test::Model(test) => serde_json::to_value(&test.input),
            Test::Fetch(test) => serde_json::to_value(&test.input),
            Test::Usage(test) => serde_json::to_value(&test.input),
            Test::Cli(test) => Ok(test.input.clone()),
        }
        .unwrap_or(Value::Null)
    }

    /// The checks across fields that the types cannot make.
    pub fn check(&self) -> Result<(), String> {
        match self {
            Test::Model(_) | Test::Grammar(_) | Test::Usage(_) if self.body().is_none() => {
                Err("`input` needs `robots` or `robots_b64`".to_owned())
            }
            Test::Grammar(test)
                if test.expect.lines.is_none() && test.expect.directives.is_none() =>
            {
                Err("`expect` needs `lines` or `directives`".to_owned())
            }
            Test::Url(Spec { input, expect }) => match (input, expect) {
                (_, UrlExpect::Error(true))
                | (UrlOp::RobotsTxtUrl { .. }, UrlExpect::RobotsTxtUrl(_))
                | (UrlOp::Governs { .. }, UrlExpect::Governs(_))
                | (UrlOp::Origin { .. }, UrlExpect::Origin(_))
                | (UrlOp::Path { .. }, UrlExpect::Path(_)) => Ok(()),
                (op, _) => Err(format!(
                    "`expect` needs exactly one of `{}` or `error: true`",
                    op.name()
                )),
            },
            Test::Fetch(test) => crate::fetch_case::check(test),
            Test::Usage(test) => test.expect.check(),
            _ => Ok(()),
        }
    }
}

/// A body given as `robots` (UTF-8 text) or `robots_b64` (the exact bytes, which win).
fn body<'a>(text: &'a Option<String>, bytes: &'a Option<Vec<u8>>) -> Option<&'a [u8]> {
    bytes.as_deref().or(text.as_deref().map(str::as_bytes))
}

/// `robots_b64`: the exact bytes of a body that is not UTF-8.
fn base64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
    let text = String::deserialize(d)?;
    base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map(Some)
        .map_err(|error| D::Error::custom(format_args!("not valid base64: {error}")))
}

/// A `model` case: is `url` allowed for `agent` by the body?
pub type ModelTest = Spec<ModelInput, ModelExpect>;

/// The input of a `model` case.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ModelInput {
    /// The robots.txt body as UTF-8 text.
    pub robots: Option<String>,
    /// The exact bytes of the body (base64 in the case), when it is not UTF-8.
    #[serde(default, deserialize_with = "base64", skip_serializing)]
    pub robots_b64: Option<Vec<u8>>,
    /// The crawler's name as the suite passed it.
    pub agent: String,
    /// Absolute URL, bare path, or empty.
    pub url: String,
}

impl ModelInput {
    /// The body: `robots_b64` when given (it is the exact form), else `robots`.
    pub fn body(&self) -> &[u8] {
        body(&self.robots, &self.robots_b64).unwrap_or_default()
    }
}

/// The expectation of a `model` case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelExpect {
    /// `{"allowed": bool}`: `is_allowed` returns `Ok(allowed)`.
    Allowed(bool),
    /// `{"error": "invalid-agent"}`: `is_allowed` returns this error.
    Error(ModelError),
}

/// The errors a `model` case can expect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelError {
    /// The crawler's name is rejected.
    InvalidAgent,
}

impl fmt::Display for ModelExpect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelExpect::Allowed(true) => f.write_str("allowed"),
            ModelExpect::Allowed(false) => f.write_str("disallowed"),
            ModelExpect::Error(ModelError::InvalidAgent) => f.write_str("error: invalid-agent"),
        }
    }
}

/// A `usage` case: what may `agent` use `url` for, by the body (and the HTTP header)?
pub type UsageTest = Spec<UsageInput, UsageExpect>;

/// The input of a `usage` case.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UsageInput {
    /// The robots.txt body as UTF-8 text.
    pub robots: Option<String>,
    /// The exact bytes of the body (base64 in the case), when it is not UTF-8.
    #[serde(default, deserialize_with = "base64", skip_serializing)]
    pub robots_b64: Option<Vec<u8>>,
    /// The crawler's name.
    pub agent: String,
    /// Absolute URL or path.
    pub url: String,
    /// The value of the HTTP `Content-Usage` response header, when the case gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
}

impl UsageInput {
    /// The body: `robots_b64` when given (it is the exact form), else `robots`.
    pub fn body(&self) -> &[u8] {
        body(&self.robots, &self.robots_b64).unwrap_or_default()
    }
}

/// The expectation of a `usage` case (also what robotrules gave, in the same terms): whether
/// the URL is crawlable, and the outcome (`allowed`, `disallowed`, `unknown`) of each category
/// named `VOCABULARY:LABEL` (`aipref:train-ai`, `content-signals:ai-input`) or
/// `combined:CATEGORY` (`combined:train-ai`, `combined:search`), with, when given, the deciding
/// lines of each (`0` stands for the header).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UsageExpect {
    /// Whether the crawler may crawl the URL.
    pub crawlable: bool,
    /// The outcome of each category the case checks.
    #[serde(default)]
    pub outcomes: BTreeMap<String, String>,
    /// The deciding lines of each category the case checks them for.
    #[serde(default)]
    pub lines: BTreeMap<String, Vec<u32>>,
}

impl UsageExpect {
    /// Category names are `VOCABULARY:LABEL` or `combined:CATEGORY`, outcomes one of the
    /// three, and a URL that is not crawlable has no outcomes.
    fn check(&self) -> Result<(), String> {
        for (name, outcome) in &self.outcomes {
            if !name.contains(':') {
                return Err(format!(
                    "`expect.outcomes.{name}`: name it `VOCABULARY:LABEL`"
                ));
            }
            if !matches!(outcome.as_str(), "allowed" | "disallowed" | "unknown") {
                return Err(format!(
                    "`expect.outcomes.{name}`: `{outcome}` is not allowed, disallowed or unknown"
                ));
            }
        }
        if let Some(name) = self.lines.keys().find(|n| !self.outcomes.contains_key(*n)) {
            return Err(format!(
                "`expect.lines.{name}` has no outcome in `expect.outcomes`"
            ));
        }
        if !self.crawlable && !self.outcomes.is_empty() {
            return Err("a URL that is not crawlable has no outcomes".to_owned());
        }
        Ok(())
    }
}

impl fmt::Display for UsageExpect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.crawlable {
            "crawlable"
        } else {
            "not crawlable, no preference"
        })?;
        for (name, outcome) in &self.outcomes {
            write!(f, "; {name}={outcome}")?;
            if let Some(lines) = self.lines.get(name) {
                write!(f, " {lines:?}")?;
            }
        }
        Ok(())
    }
}

/// A `url` case: one operation of `robotrules-url`.
pub type UrlTest = Spec<UrlOp, UrlExpect>;

/// The operations a `url` case can name (`input.op`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum UrlOp {
    /// The robots.txt URL that governs `url`.
    RobotsTxtUrl {
        /// Any URL.
        url: String,
    },
    /// Does the robots.txt at `robots_txt` govern `url`?
    Governs {
        /// The robots.txt URL.
        robots_txt: String,
        /// The URL in question.
        url: String,
    },
    /// The origin key of `url`.
    Origin {
        /// Any URL.
        url: String,
    },
    /// The path (+ params + query) the matcher sees.
    Path {
        /// Absolute URL or bare path.
        url: String,
        /// Whose reading of the URL.
        #[serde(default)]
        profile_style: PathStyle,
    },
}

impl UrlOp {
    /// The operation's name in the case format.
    pub fn name(&self) -> &'static str {
        match self {
            UrlOp::RobotsTxtUrl { .. } => "robots_txt_url",
            UrlOp::Governs { .. } => "governs",
            UrlOp::Origin { .. } => "origin",
            UrlOp::Path { .. } => "path",
        }
    }
}

/// Whose reading of a URL the `path` operation applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathStyle {
    /// The RFC's reading.
    #[default]
    Rfc9309,
    /// Google's `GetPathParamsQuery`.
    Google,
}

/// The expected result of a `url` case, keyed by the operation it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UrlExpect {
    /// The result of `robots_txt_url`.
    RobotsTxtUrl(String),
    /// The result of `governs`.
    Governs(bool),
    /// The result of `origin`.
    Origin(String),
    /// The result of `path`.
    Path(String),
    /// `{"error": true}`: the operation must fail (`false` is refused).
    Error(bool),
}

impl fmt::Display for UrlExpect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlExpect::Error(_) => f.write_str("an error"),
            UrlExpect::RobotsTxtUrl(text) | UrlExpect::Origin(text) | UrlExpect::Path(text) => {
                write!(f, "{text:?}")
            }
            UrlExpect::Governs(governs) => write!(f, "{governs}"),
        }
    }
}

/// A `grammar` case: what the grammar makes of a robots.txt body.
pub type GrammarTest = Spec<GrammarInput, GrammarExpect>;

/// The input of a `grammar` case.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GrammarInput {
    /// The robots.txt body as UTF-8 text.
    pub robots: Option<String>,
    /// The exact bytes of the body (base64 in the case), when it is not UTF-8.
    #[serde(default, deserialize_with = "base64", skip_serializing)]
    pub robots_b64: Option<Vec<u8>>,
}

impl GrammarInput {
    /// The body: `robots_b64` when given (it is the exact form), else `robots`.
    pub fn body(&self) -> &[u8] {
        body(&self.robots, &self.robots_b64).unwrap_or_default()
    }
}

/// The expectation of a `grammar` case (also what the grammar gave, in the same terms).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrammarExpect {
    /// The number of lines, if the case checks it.
    pub lines: Option<usize>,
    /// The `[kind, value]` pairs of the lines that have a key, if the case checks them.
    pub directives: Option<Vec<(DirectiveKind, String)>>,
}

impl fmt::Display for GrammarExpect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(lines) = self.lines {
            write!(f, "{lines} lines")?;
        }
        if let Some(directives) = &self.directives {
            f.write_str(if self.lines.is_some() {
                ", directives "
            } else {
                "directives "
            })?;
            for (index, (kind, value)) in directives.iter().enumerate() {
                let space = if index == 0 { "" } else { " " };
                write!(f, "{space}[{} {value:?}]", kind.name())?;
            }
        }
        Ok(())
    }
}

/// The kind of a key, as a grammar case names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DirectiveKind {
    /// `user-agent`
    UserAgent,
    /// `allow`
    Allow,
    /// `disallow`
    Disallow,
    /// `sitemap`
    Sitemap,
    /// Any other key.
    Other,
}

impl DirectiveKind {
    /// The name used in the case format.
    pub fn name(self) -> &'static str {
        match self {
            DirectiveKind::UserAgent => "user-agent",
            DirectiveKind::Allow => "allow",
            DirectiveKind::Disallow => "disallow",
            DirectiveKind::Sitemap => "sitemap",
            DirectiveKind::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use serde_json::json;

    fn case(layer: &str, input: Value, expect: Value) -> Result<Case, String> {
        let line = json!({
            "id": "t/1", "source": "robotrules", "section": "s", "layer": layer,
            "profiles": ["rfc9309"], "input": input, "expect": expect, "semantics": "kept"
        });
        Case::from_json(&line, "f.jsonl", 3)
    }

    #[test]
    fn model_case_with_base64_body_reads_exact_bytes() {
        let case = case(
            "model",
            json!({"robots_b64": "/w==", "agent": "a", "url": "/"}),
            json!({"allowed": true}),
        )
        .unwrap();
        assert_eq!(case.test.body(), Some(&[0xff][..]));
        assert_eq!(
            case.extra,
            BTreeMap::from([("semantics".into(), json!("kept"))])
        );
        assert_eq!((case.file.as_str(), case.line), ("f.jsonl", 3));
        let Test::Model(model) = case.test else {
            panic!("not a model test")
        };
        assert_eq!(model.input.body(), [0xff]);
    }

    #[test]
    fn model_invalid_agent_expectation() {
        let case = case(
            "model",
            json!({"robots": "", "agent": "", "url": ""}),
            json!({"error": "invalid-agent"}),
        )
        .unwrap();
        let Test::Model(model) = case.test else {
            panic!("not a model test")
        };
        assert_eq!(model.expect, ModelExpect::Error(ModelError::InvalidAgent));
    }

    #[rstest]
    #[case(json!({"op": "robots_txt_url", "url": "http://a/b"}), json!({"robots_txt_url": "http://a/robots.txt"}),
        UrlOp::RobotsTxtUrl { url: "http://a/b".into() }, UrlExpect::RobotsTxtUrl("http://a/robots.txt".into()))]
    #[case(json!({"op": "governs", "robots_txt": "http://a/robots.txt", "url": "http://a/"}), json!({"governs": false}),
        UrlOp::Governs { robots_txt: "http://a/robots.txt".into(), url: "http://a/".into() }, UrlExpect::Governs(false))]
    #[case(json!({"op": "path", "url": "/x", "profile_style": "google"}), json!({"path": "/x"}),
        UrlOp::Path { url: "/x".into(), profile_style: PathStyle::Google }, UrlExpect::Path("/x".into()))]
    #[case(json!({"op": "origin", "url": "x"}), json!({"error": true}),
        UrlOp::Origin { url: "x".into() }, UrlExpect::Error(true))]
    fn url_cases_map_each_op(
        #[case] input: Value,
        #[case] expect: Value,
        #[case] op: UrlOp,
        #[case] expected: UrlExpect,
    ) {
        let case = case("url", input.clone(), expect).unwrap();
        assert_eq!(
            case.test,
            Test::Url(Spec {
                input: op,
                expect: expected
            })
        );
        assert_eq!(
            case.test.input_json(),
            input,
            "the report shows the input as written"
        );
    }

    #[test]
    fn grammar_directives_are_typed() {
        let case = case(
            "grammar",
            json!({"robots": "user-agent: a\n"}),
            json!({"lines": 1, "directives": [["user-agent", "a"]]}),
        )
        .unwrap();
        let Test::Grammar(grammar) = case.test else {
            panic!("not a grammar test")
        };
        assert_eq!(
            grammar.expect.directives,
            Some(vec![(DirectiveKind::UserAgent, "a".to_owned())])
        );
        assert_eq!(
            grammar.expect.to_string(),
            "1 lines, directives [user-agent \"a\"]"
        );
    }

    #[test]
    fn usage_cases_are_typed_and_checked() {
        let read = case(
            "usage",
            json!({"robots": "user-agent: *\n", "agent": "a", "url": "/", "header": "train-ai=n"}),
            json!({"crawlable": true, "outcomes": {"aipref:train-ai": "disallowed"}, "lines": {"aipref:train-ai": [0]}}),
        )
        .unwrap();
        assert_eq!(read.layer(), Layer::Usage);
        let Test::Usage(usage) = &read.test else {
            panic!("not a usage test")
        };
        assert_eq!(usage.input.header.as_deref(), Some("train-ai=n"));
        assert_eq!(
            usage.expect.to_string(),
            "crawlable; aipref:train-ai=disallowed [0]"
        );
        for (expect, error) in [
            (
                json!({"crawlable": true, "outcomes": {"train-ai": "allowed"}}),
                "VOCABULARY:LABEL",
            ),
            (
                json!({"crawlable": true, "outcomes": {"aipref:search": "y"}}),
                "is not allowed",
            ),
            (
                json!({"crawlable": true, "lines": {"aipref:search": [1]}}),
                "has no outcome",
            ),
            (
                json!({"crawlable": false, "outcomes": {"aipref:search": "unknown"}}),
                "not crawlable",
            ),
        ] {
            let refused = case(
                "usage",
                json!({"robots": "", "agent": "a", "url": "/"}),
                expect,
            );
            assert!(refused.unwrap_err().contains(error), "{error}");
        }
    }
}

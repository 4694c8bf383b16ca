//! The case format of `conformance/**.jsonl` (see `conformance/README.md`).
//!
//! A line is first read as a [`RawCase`] (the JSON object as written), then checked and
//! turned into a [`Case`] whose [`Test`] carries the layer-specific input and expectation in
//! typed form, so that the runner never has to guess at a field.

use std::collections::BTreeMap;
use std::fmt;

use base64::Engine as _;
use robotrules::Profile;
use serde::Deserialize;
use serde_json::Value;

pub use crate::fetch_case::{FetchEvent, FetchTest};

/// The layer of robotrules a case exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// `robotrules-grammar`: bytes to lines.
    Grammar,
    /// `robotrules-url`: robots.txt location, origin, scope, path extraction.
    Url,
    /// The facade's `Robots::is_allowed`: groups, precedence, matching.
    Model,
    /// `robotrules-fetch`: status codes and network events to an access result.
    Fetch,
    /// The `robotrules` command-line tool.
    Cli,
}

impl Layer {
    /// Every layer, in the order reports list them.
    pub const ALL: [Layer; 5] = [
        Layer::Grammar,
        Layer::Url,
        Layer::Model,
        Layer::Fetch,
        Layer::Cli,
    ];

    /// The name used in the case format (`"model"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Grammar => "grammar",
            Layer::Url => "url",
            Layer::Model => "model",
            Layer::Fetch => "fetch",
            Layer::Cli => "cli",
        }
    }
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One line of a `.jsonl` file, as written, before its input and expectation are checked.
#[derive(Debug, Deserialize)]
pub struct RawCase {
    /// Unique, stable identifier.
    pub id: String,
    /// Where the case comes from (`rfc9309`, `google-robotstxt`, ...).
    pub source: String,
    /// The RFC section, seed table or upstream test name.
    pub section: String,
    /// The layer the case exercises.
    pub layer: Layer,
    /// The profiles the expectation holds for, by name.
    pub profiles: Vec<String>,
    /// Layer-specific input.
    pub input: Value,
    /// Layer-specific expectation.
    pub expect: Value,
    /// Why the case cannot run yet, if it cannot.
    #[serde(default)]
    pub pending: Option<String>,
    /// Where the case was taken from.
    #[serde(default)]
    pub provenance: Option<String>,
    /// Free text.
    #[serde(default)]
    pub note: Option<String>,
    /// Any other field (e.g. `semantics`, `google_robotstxt`), kept for the report.
    #[serde(flatten)]
    pub extra: BTreeMap<String, Value>,
}

/// A checked case, ready to run.
#[derive(Clone, Debug)]
pub struct Case {
    /// Unique, stable identifier (the expected-differences file refers to it).
    pub id: String,
    /// Where the case comes from.
    pub source: String,
    /// The RFC section, seed table or upstream test name.
    pub section: String,
    /// The profiles the expectation holds for, in the order written.
    pub profiles: Vec<Profile>,
    /// The input and expectation, by layer.
    pub test: Test,
    /// Why the case cannot run yet, if it cannot.
    pub pending: Option<String>,
    /// Where the case was taken from.
    pub provenance: Option<String>,
    /// Free text.
    pub note: Option<String>,
    /// Other fields of the line, for the report.
    pub extra: BTreeMap<String, Value>,
    /// The file the case was read from, relative to the corpus directory.
    pub file: String,
    /// Its 1-based line number in that file.
    pub line: usize,
}

impl Case {
    /// The layer the case exercises.
    pub fn layer(&self) -> Layer {
        self.test.layer()
    }

    /// Checks a raw case; `Err` says which field is wrong.
    pub fn from_raw(raw: RawCase, file: &str, line: usize) -> Result<Case, String> {
        if raw.id.trim().is_empty() {
            return Err("`id` is empty".to_owned());
        }
        if raw.profiles.is_empty() {
            return Err("`profiles` is empty: name the profiles the expectation holds for".into());
        }
        let mut profiles: Vec<Profile> = Vec::with_capacity(raw.profiles.len());
        for name in &raw.profiles {
            let profile = parse_profile(name)?;
            if profiles.contains(&profile) {
                return Err(format!("profile `{name}` is listed twice"));
            }
            profiles.push(profile);
        }
        let test = Test::from_json(raw.layer, raw.input, raw.expect)?;
        Ok(Case {
            id: raw.id,
            source: raw.source,
            section: raw.section,
            profiles,
            test,
            pending: raw.pending,
            provenance: raw.provenance,
            note: raw.note,
            extra: raw.extra,
            file: file.to_owned(),
            line,
        })
    }
}

/// Parses a profile name (`rfc9309`, `google`, `legacy1994`).
pub fn parse_profile(name: &str) -> Result<Profile, String> {
    name.parse::<Profile>().map_err(|_| {
        let known: Vec<String> = Profile::ALL.iter().map(ToString::to_string).collect();
        format!("unknown profile `{name}` (known: {})", known.join(", "))
    })
}

/// The layer-specific part of a case.
#[derive(Clone, Debug)]
pub enum Test {
    /// A `model` case.
    Model(ModelTest),
    /// A `url` case.
    Url(UrlTest),
    /// A `grammar` case.
    Grammar(GrammarTest),
    /// A `fetch` case, run against loopback servers.
    Fetch(FetchTest),
    /// A `cli` case (not run by this runner yet; kept as written).
    Cli {
        /// The input as written.
        input: Value,
        /// The expectation as written.
        expect: Value,
    },
}

impl Test {
    /// The layer of this test.
    pub fn layer(&self) -> Layer {
        match self {
            Test::Model(_) => Layer::Model,
            Test::Url(_) => Layer::Url,
            Test::Grammar(_) => Layer::Grammar,
            Test::Fetch(_) => Layer::Fetch,
            Test::Cli { .. } => Layer::Cli,
        }
    }

    fn from_json(layer: Layer, input: Value, expect: Value) -> Result<Test, String> {
        match layer {
            Layer::Model => ModelTest::from_json(input, expect).map(Test::Model),
            Layer::Url => UrlTest::from_json(input, expect).map(Test::Url),
            Layer::Grammar => GrammarTest::from_json(input, expect).map(Test::Grammar),
            Layer::Fetch => FetchTest::from_json(input, expect).map(Test::Fetch),
            Layer::Cli => Ok(Test::Cli { input, expect }),
        }
    }
}

/// Reads a layer's input or expectation object, naming which one failed.
fn typed<T: serde::de::DeserializeOwned>(what: &str, value: Value) -> Result<T, String> {
    serde_json::from_value(value).map_err(|e| format!("`{what}`: {e}"))
}

/// The exact bytes of a robots.txt body: `robots_b64` when given (it is the exact form), else
/// `robots` (UTF-8 text).
fn robots_bytes(robots: Option<String>, robots_b64: Option<String>) -> Result<Vec<u8>, String> {
    match (robots_b64, robots) {
        (Some(b64), _) => base64::engine::general_purpose::STANDARD
            .decode(b64.trim())
            .map_err(|e| format!("`input.robots_b64` is not valid base64: {e}")),
        (None, Some(text)) => Ok(text.into_bytes()),
        (None, None) => Err("`input` needs `robots` or `robots_b64`".to_owned()),
    }
}

/// A `model` case: is `url` allowed for `agent` by `robots`?
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelTest {
    /// The robots.txt bytes.
    pub robots: Vec<u8>,
    /// The crawler's name as the suite passed it.
    pub agent: String,
    /// Absolute URL, bare path, or empty.
    pub url: String,
    /// What the profile must answer.
    pub expect: ModelExpect,
}

/// The expectation of a `model` case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelExpect {
    /// `is_allowed` returns `Ok(allowed)`.
    Allowed(bool),
    /// `is_allowed` rejects the crawler's name (`Err(InvalidAgent)`).
    InvalidAgent,
}

impl fmt::Display for ModelExpect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelExpect::Allowed(true) => f.write_str("allowed"),
            ModelExpect::Allowed(false) => f.write_str("disallowed"),
            ModelExpect::InvalidAgent => f.write_str("error: invalid-agent"),
        }
    }
}

impl ModelTest {
    fn from_json(input: Value, expect: Value) -> Result<ModelTest, String> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Input {
            #[serde(default)]
            robots: Option<String>,
            #[serde(default)]
            robots_b64: Option<String>,
            agent: String,
            url: String,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Expect {
            #[serde(default)]
            allowed: Option<bool>,
            #[serde(default)]
            error: Option<String>,
        }
        let input: Input = typed("input", input)?;
        let expect: Expect = typed("expect", expect)?;
        let expect = match (expect.allowed, expect.error.as_deref()) {
            (Some(allowed), None) => ModelExpect::Allowed(allowed),
            (None, Some("invalid-agent")) => ModelExpect::InvalidAgent,
            (None, Some(other)) => {
                return Err(format!(
                    "`expect.error` is `{other}`; a model case knows only `invalid-agent`"
                ))
            }
            _ => return Err("`expect` needs exactly one of `allowed`, `error`".to_owned()),
        };
        Ok(ModelTest {
            robots: robots_bytes(input.robots, input.robots_b64)?,
            agent: input.agent,
            url: input.url,
            expect,
        })
    }
}

/// A `url` case: one operation of `robotrules-url`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlTest {
    /// The operation and its input.
    pub op: UrlOp,
    /// The expected result: `Ok(value)` or `Err(())` when the operation must fail.
    pub expect: UrlExpect,
}

/// The operations a `url` case can name.
#[derive(Clone, Debug, PartialEq, Eq)]
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
        /// Google's `GetPathParamsQuery` reading instead of the RFC's.
        google_style: bool,
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

/// The expected result of a `url` case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UrlExpect {
    /// The operation must fail.
    Error,
    /// The string result (`robots_txt_url`, `origin`, `path`).
    Text(String),
    /// The boolean result (`governs`).
    Bool(bool),
}

impl fmt::Display for UrlExpect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlExpect::Error => f.write_str("an error"),
            UrlExpect::Text(text) => write!(f, "{text:?}"),
            UrlExpect::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl UrlTest {
    fn from_json(input: Value, expect: Value) -> Result<UrlTest, String> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Input {
            op: String,
            #[serde(default)]
            url: Option<String>,
            #[serde(default)]
            robots_txt: Option<String>,
            #[serde(default)]
            profile_style: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Expect {
            #[serde(default)]
            robots_txt_url: Option<String>,
            #[serde(default)]
            governs: Option<bool>,
            #[serde(default)]
            origin: Option<String>,
            #[serde(default)]
            path: Option<String>,
            #[serde(default)]
            error: Option<bool>,
        }
        let input: Input = typed("input", input)?;
        let expect: Expect = typed("expect", expect)?;
        let given = [
            expect.robots_txt_url.is_some(),
            expect.governs.is_some(),
            expect.origin.is_some(),
            expect.path.is_some(),
            expect.error.is_some(),
        ]
        .iter()
        .filter(|present| **present)
        .count();
        let url = input
            .url
            .ok_or_else(|| format!("`input.url` is required for op `{}`", input.op))?;
        let (op, value) = match input.op.as_str() {
            "robots_txt_url" => (
                UrlOp::RobotsTxtUrl { url },
                expect.robots_txt_url.map(UrlExpect::Text),
            ),
            "governs" => {
                let robots_txt = input
                    .robots_txt
                    .ok_or("`input.robots_txt` is required for op `governs`")?;
                (
                    UrlOp::Governs { robots_txt, url },
                    expect.governs.map(UrlExpect::Bool),
                )
            }
            "origin" => (UrlOp::Origin { url }, expect.origin.map(UrlExpect::Text)),
            "path" => {
                let google_style = match input.profile_style.as_deref() {
                    None | Some("rfc9309") => false,
                    Some("google") => true,
                    Some(other) => {
                        return Err(format!(
                            "`input.profile_style` is `{other}`; expected `google` or `rfc9309`"
                        ))
                    }
                };
                (
                    UrlOp::Path { url, google_style },
                    expect.path.map(UrlExpect::Text),
                )
            }
            other => {
                return Err(format!(
                    "unknown `input.op` `{other}` (known: robots_txt_url, governs, origin, path)"
                ))
            }
        };
        let expect = match (value, expect.error) {
            (Some(value), None) if given == 1 => value,
            (None, Some(true)) if given == 1 => UrlExpect::Error,
            _ => {
                return Err(format!(
                    "`expect` needs exactly one of `{}` or `error: true`",
                    op.name()
                ))
            }
        };
        Ok(UrlTest { op, expect })
    }
}

/// A `grammar` case: what the grammar makes of a robots.txt body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarTest {
    /// The robots.txt bytes.
    pub robots: Vec<u8>,
    /// The expected number of lines, if the case checks it.
    pub lines: Option<usize>,
    /// The expected `[kind, value]` pairs of the lines that have a key, if the case checks them.
    pub directives: Option<Vec<(DirectiveKind, String)>>,
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

impl GrammarTest {
    fn from_json(input: Value, expect: Value) -> Result<GrammarTest, String> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Input {
            #[serde(default)]
            robots: Option<String>,
            #[serde(default)]
            robots_b64: Option<String>,
        }
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Expect {
            #[serde(default)]
            lines: Option<usize>,
            #[serde(default)]
            directives: Option<Vec<(DirectiveKind, String)>>,
        }
        let input: Input = typed("input", input)?;
        let expect: Expect = typed("expect", expect)?;
        if expect.lines.is_none() && expect.directives.is_none() {
            return Err("`expect` needs `lines` or `directives`".to_owned());
        }
        Ok(GrammarTest {
            robots: robots_bytes(input.robots, input.robots_b64)?,
            lines: expect.lines,
            directives: expect.directives,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use serde_json::json;

    fn raw(layer: &str, input: Value, expect: Value) -> RawCase {
        serde_json::from_value(json!({
            "id": "t/1", "source": "robotrules", "section": "s", "layer": layer,
            "profiles": ["rfc9309"], "input": input, "expect": expect,
            "semantics": "kept"
        }))
        .unwrap()
    }

    #[test]
    fn model_case_with_base64_body_reads_exact_bytes() {
        let case = Case::from_raw(
            raw(
                "model",
                json!({"robots_b64": "/w==", "agent": "a", "url": "/"}),
                json!({"allowed": true}),
            ),
            "f.jsonl",
            3,
        )
        .unwrap();
        let Test::Model(model) = &case.test else {
            panic!("not a model test")
        };
        assert_eq!(model.robots, vec![0xff]);
        assert_eq!(case.extra.get("semantics"), Some(&json!("kept")));
        assert_eq!(case.line, 3);
    }

    #[test]
    fn model_invalid_agent_expectation() {
        let case = Case::from_raw(
            raw(
                "model",
                json!({"robots": "", "agent": "", "url": ""}),
                json!({"error": "invalid-agent"}),
            ),
            "f",
            1,
        )
        .unwrap();
        let Test::Model(model) = case.test else {
            panic!("not a model test")
        };
        assert_eq!(model.expect, ModelExpect::InvalidAgent);
    }

    #[rstest]
    #[case::no_body("model", json!({"agent": "a", "url": "/"}), json!({"allowed": true}), "robots")]
    #[case::both_expectations("model", json!({"robots": "", "agent": "a", "url": "/"}),
        json!({"allowed": true, "error": "invalid-agent"}), "exactly one")]
    #[case::unknown_error("model", json!({"robots": "", "agent": "a", "url": "/"}),
        json!({"error": "boom"}), "boom")]
    #[case::bad_base64("model", json!({"robots_b64": "!!", "agent": "a", "url": "/"}),
        json!({"allowed": true}), "base64")]
    #[case::unknown_op("url", json!({"op": "frobnicate", "url": "x"}), json!({"error": true}), "frobnicate")]
    #[case::wrong_expectation_for_op("url", json!({"op": "origin", "url": "x"}),
        json!({"path": "/"}), "exactly one of `origin`")]
    #[case::governs_without_robots_txt("url", json!({"op": "governs", "url": "x"}),
        json!({"governs": true}), "robots_txt")]
    #[case::grammar_without_expectation("grammar", json!({"robots": ""}), json!({}), "lines")]
    #[case::fetch_without_status("fetch", json!({"scheme": "http"}), json!({"access": "success"}), "status")]
    fn malformed_cases_are_rejected(
        #[case] layer: &str,
        #[case] input: Value,
        #[case] expect: Value,
        #[case] needle: &str,
    ) {
        let err = Case::from_raw(raw(layer, input, expect), "f", 1).unwrap_err();
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }

    #[test]
    fn url_cases_map_each_op() {
        let cases = [
            (
                json!({"op": "robots_txt_url", "url": "http://a/b"}),
                json!({"robots_txt_url": "http://a/robots.txt"}),
                UrlOp::RobotsTxtUrl {
                    url: "http://a/b".into(),
                },
                UrlExpect::Text("http://a/robots.txt".into()),
            ),
            (
                json!({"op": "governs", "robots_txt": "http://a/robots.txt", "url": "http://a/"}),
                json!({"governs": false}),
                UrlOp::Governs {
                    robots_txt: "http://a/robots.txt".into(),
                    url: "http://a/".into(),
                },
                UrlExpect::Bool(false),
            ),
            (
                json!({"op": "path", "url": "/x", "profile_style": "google"}),
                json!({"path": "/x"}),
                UrlOp::Path {
                    url: "/x".into(),
                    google_style: true,
                },
                UrlExpect::Text("/x".into()),
            ),
            (
                json!({"op": "origin", "url": "x"}),
                json!({"error": true}),
                UrlOp::Origin { url: "x".into() },
                UrlExpect::Error,
            ),
        ];
        for (input, expect, op, expected) in cases {
            let case = Case::from_raw(raw("url", input, expect), "f", 1).unwrap();
            let Test::Url(url) = case.test else {
                panic!("not a url test")
            };
            assert_eq!(url.op, op);
            assert_eq!(url.expect, expected);
        }
    }

    #[test]
    fn grammar_directives_are_typed() {
        let case = Case::from_raw(
            raw(
                "grammar",
                json!({"robots": "user-agent: a\n"}),
                json!({"lines": 1, "directives": [["user-agent", "a"]]}),
            ),
            "f",
            1,
        )
        .unwrap();
        let Test::Grammar(grammar) = case.test else {
            panic!("not a grammar test")
        };
        assert_eq!(
            grammar.directives,
            Some(vec![(DirectiveKind::UserAgent, "a".to_owned())])
        );
    }

    #[rstest]
    #[case::empty(json!([]), "empty")]
    #[case::unknown(json!(["rfc9309", "bing"]), "bing")]
    #[case::twice(json!(["google", "google"]), "twice")]
    fn bad_profiles_are_rejected(#[case] profiles: Value, #[case] needle: &str) {
        let mut case = raw("cli", json!({}), json!({}));
        case.profiles = serde_json::from_value(profiles).unwrap();
        let err = Case::from_raw(case, "f", 1).unwrap_err();
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

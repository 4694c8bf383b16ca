//! `Crawler`: one crawler's groups in a parsed file, resolved once.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::failure::Failure;
use crate::{batch, json};

/// The answer of the `…Code` methods for a question the profile cannot answer.
pub(crate) const REFUSED: u32 = 2;

/// `1` allowed, `0` not, `REFUSED` for no verdict.
pub(crate) fn verdict_code(verdict: Option<bool>) -> u32 {
    verdict.map_or(REFUSED, u32::from)
}

/// One crawler's rules in a parsed file (immutable; it shares the file).
#[wasm_bindgen]
pub struct Crawler {
    pub(crate) inner: robotrules::Crawler,
}

impl Crawler {
    pub(crate) fn new(inner: robotrules::Crawler) -> Crawler {
        Crawler { inner }
    }
}

#[wasm_bindgen]
impl Crawler {
    /// The crawler's name as given.
    pub fn name(&self) -> String {
        self.inner.name().to_owned()
    }

    /// How its groups were chosen: `exact`, `substring`, `global` or `unmatched`.
    pub fn selection(&self) -> String {
        self.inner.selection().as_str().to_owned()
    }

    /// May the crawler fetch `url` (absolute, or a path starting with `/`)?
    ///
    /// # Errors
    /// A URL the profile cannot read.
    #[wasm_bindgen(js_name = isAllowed)]
    pub fn is_allowed(&self, url: &str) -> Result<bool, Failure> {
        Ok(self.inner.is_allowed(url)?)
    }

    /// [`Crawler::is_allowed`] as a number, for the hot path (a `Result` comes back to
    /// JavaScript as an array made per call): `1` allowed, `0` not, `2` for a URL the
    /// profile cannot read (then `isAllowed` says why).
    #[wasm_bindgen(js_name = isAllowedCode)]
    pub fn is_allowed_code(&self, url: &str) -> u32 {
        verdict_code(self.inner.is_allowed(url).ok())
    }

    /// The verdicts on the `count` URLs of `joined` (their UTF-8, joined with NUL), one byte
    /// each, or
    /// `undefined` when a URL holds a NUL itself.
    ///
    /// # Errors
    /// The first URL the profile cannot read.
    #[wasm_bindgen(js_name = allowedJoined)]
    pub fn allowed_joined(&self, joined: &[u8], count: u32) -> Result<Option<Vec<u8>>, Failure> {
        Ok(batch::joined_verdicts(&self.inner, joined, count as usize)?)
    }

    /// The deciding line of `url`'s verdict, `0` when no rule decided (as cheap as
    /// `isAllowed`; the `robots-parser` drop-in's `getMatchingLineNumber`).
    ///
    /// # Errors
    /// A URL the profile cannot read.
    #[wasm_bindgen(js_name = decidingLine)]
    pub fn deciding_line(&self, url: &str) -> Result<u32, Failure> {
        let decision = self.inner.decide(url)?;
        Ok(decision.decided_by.map_or(0, |rule| rule.line()))
    }

    /// May the crawler fetch `url`, why, and which rule decided, as JSON; with the URL's AI
    /// usage preferences (`usage`) when the crawler has usage lines, as the tester's verdicts.
    ///
    /// # Errors
    /// A URL the profile cannot read.
    #[wasm_bindgen(js_name = decideJson)]
    pub fn decide_json(&self, url: &str) -> Result<String, Failure> {
        let decision = robotrules_tester_api::check::decide(&self.inner, url)?;
        Ok(json::verdict(decision, self.inner.robots().profile()))
    }

    /// May the crawler use `url` for AI training, for search, for AI input, and which line
    /// says so, as JSON (the facade's `Usage`, as `robotrules usage --format json` gives it);
    /// `header`, when given, is the value of the URL's HTTP `Content-Usage` response header,
    /// combined as one more statement, most-restrictively (`Usage::with_header`).
    ///
    /// # Errors
    /// A URL the profile cannot read.
    #[wasm_bindgen(js_name = usageJson)]
    pub fn usage_json(&self, url: &str, header: Option<Vec<u8>>) -> Result<String, Failure> {
        let usage = self.inner.usage(url)?;
        Ok(json::usage(&match header {
            Some(value) => usage.with_header(&value),
            None => usage,
        }))
    }

    /// The crawler's `Content-Usage` and `Content-Signal` lines, as JSON (as `show` lists
    /// them).
    #[wasm_bindgen(js_name = usageStatementsJson)]
    pub fn usage_statements_json(&self) -> String {
        json::statements(&robotrules_tester_api::show::statements(&self.inner))
    }

    /// The full account of `url`'s verdict, as JSON.
    ///
    /// # Errors
    /// A URL the profile cannot read.
    #[wasm_bindgen(js_name = explainJson)]
    pub fn explain_json(&self, url: &str) -> Result<String, Failure> {
        Ok(json::explanation(&self.inner.explain(url)?))
    }

    /// The crawl delay in seconds, or `undefined`.
    #[wasm_bindgen(js_name = crawlDelay)]
    pub fn crawl_delay(&self) -> Option<f64> {
        self.inner.crawl_delay().map(|d| d.as_secs_f64())
    }

    /// The request rate as `[requests, seconds]`, or `undefined`.
    #[wasm_bindgen(js_name = requestRate)]
    pub fn request_rate(&self) -> Option<Vec<u32>> {
        self.inner
            .request_rate()
            .map(|rate| vec![rate.requests, rate.seconds])
    }

    /// The values of the crawler's groups' `visit-time` records, as written.
    #[wasm_bindgen(js_name = visitTimes)]
    pub fn visit_times(&self) -> Vec<String> {
        self.inner.visit_times()
    }

    /// The extension records of the crawler's groups, as JSON.
    #[wasm_bindgen(js_name = extensionsJson)]
    pub fn extensions_json(&self) -> String {
        json::extensions(self.inner.extensions())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_are_the_verdicts_or_refused() {
        let robots = robotrules::Robots::parse(b"user-agent: *\ndisallow: /a\n");
        let crawler = Crawler::new(robots.crawler("bot").unwrap());
        assert_eq!(crawler.is_allowed_code("/a"), 0);
        assert_eq!(crawler.is_allowed_code("https://example.com/b"), 1);
        assert_eq!(crawler.is_allowed_code("example.com/b"), REFUSED);
        let robots =
            crate::Robots::parse(b"user-agent: *\ndisallow: /a\n", "rfc9309", None).unwrap();
        assert_eq!(robots.is_allowed_code("bot", "/a"), 0);
        assert_eq!(robots.is_allowed_code("bot", "/b"), 1);
        assert_eq!(robots.is_allowed_code("Bot/1.0", "/b"), REFUSED);
        assert_eq!(robots.is_allowed_code("bot", "b"), REFUSED);
    }

    fn parsed(text: &str) -> serde_json::Value {
        serde_json::from_str(text).expect("JSON")
    }

    /// draft-ietf-aipref-attach-05 §3.1's example file.
    const ATTACH_EXAMPLE: &[u8] = b"User-Agent: *\nAllow: /\nDisallow: /never/\n\
        Content-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n\
        User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n";

    #[test]
    fn usage_is_the_facade_s_with_the_header_combined_most_restrictively() {
        let robots = robotrules::Robots::parse(ATTACH_EXAMPLE);
        let star = Crawler::new(robots.crawler("OtherBot").expect("a token"));
        let usage = parsed(&star.usage_json("/ai-ok/test", None).expect("a URL"));
        let facade = robots.usage("OtherBot", "/ai-ok/test").expect("a URL");
        assert_eq!(usage, serde_json::to_value(&facade).expect("JSON"));
        assert_eq!(usage["combined"][0]["category"], "train-ai");
        assert_eq!(usage["combined"][0]["outcome"], "allowed");
        let never = parsed(&star.usage_json("/never/test", None).expect("a URL"));
        assert_eq!(
            never,
            serde_json::json!({"crawlable": false, "vocabularies": [], "combined": []})
        );
        let with_header = parsed(
            &star
                .usage_json("/ai-ok/test", Some(b"train-ai=n".to_vec()))
                .expect("a URL"),
        );
        let train = &with_header["vocabularies"][0]["categories"][0];
        assert_eq!(
            train,
            &serde_json::json!({"label": "train-ai", "outcome": "disallowed", "lines": [],
                "header": true})
        );
        assert!(matches!(
            star.usage_json("ai-ok/test", None),
            Err(failure) if failure.kind == "url"
        ));
    }

    #[test]
    fn decide_carries_usage_only_where_the_crawler_has_usage_lines() {
        let robots = robotrules::Robots::parse(ATTACH_EXAMPLE);
        let bot = Crawler::new(robots.crawler("ExampleBot").expect("a token"));
        let decided = parsed(&bot.decide_json("/test").expect("a URL"));
        assert_eq!(decided["usage"]["combined"][0]["outcome"], "allowed");
        let statements = parsed(&bot.usage_statements_json());
        assert_eq!(
            statements,
            serde_json::json!([{"line": 9, "key": "content-usage", "vocabulary": "aipref",
                "group_line": 7, "preference": "train-ai=y",
                "members": [{"label": "train-ai", "value": {"token": "y"}}]}])
        );
        let plain = robotrules::Robots::parse(b"user-agent: *\ndisallow: /a\n");
        let bot = Crawler::new(plain.crawler("ExampleBot").expect("a token"));
        assert!(parsed(&bot.decide_json("/b").expect("a URL"))
            .get("usage")
            .is_none());
        assert_eq!(parsed(&bot.usage_statements_json()), serde_json::json!([]));
    }
}

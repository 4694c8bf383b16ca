//! AI usage preferences through the facade: `Crawler::usage`, the `Decision` that carries
//! them, their JSON, the file-wide records; and the client's answer, with the HTTP
//! `Content-Usage` header (draft-ietf-aipref-attach-05 §2), against loopback servers.

use robotrules::usage::{Outcome, SharedCategory, Vocabulary};
use robotrules::Robots;
use rstest::rstest;

const FILE: &str = "\
License: /license.xml
User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y
Content-Signal: search=yes, ai-train=no
LLM-Policy: https://example.com/llm.txt
";

#[test]
fn the_facade_answers_the_models_usage() {
    let robots = Robots::parse(FILE.as_bytes());
    let bot = robots.crawler("ExampleBot").unwrap();
    let usage = bot.usage("https://example.com/ai-ok/x").unwrap();
    let model = bot
        .model()
        .usage(&bot.model().target("https://example.com/ai-ok/x").unwrap());
    assert_eq!(usage, model);
    assert_eq!(robots.usage("ExampleBot", "/ai-ok/x").unwrap(), usage);
    assert_eq!(
        usage.outcome(Vocabulary::Aipref, "train-ai"),
        Outcome::Allowed
    );
    assert_eq!(usage.combined(SharedCategory::TrainAi), Outcome::Disallowed);
    assert_eq!(bot.usage_statements().len(), 3);
    assert!(bot.usage("not a url").is_err());
}

/// `decide` stays as it was (no usage); `decide_with_usage` is `decide` plus `usage`.
#[rstest]
#[case("/test")]
#[case("/never/test")]
#[case("/ai-ok/test")]
fn decide_with_usage_is_decide_and_usage(#[case] url: &str) {
    let bot = Robots::parse(FILE.as_bytes())
        .crawler("ExampleBot")
        .unwrap();
    let plain = bot.decide(url).unwrap();
    assert!(plain.usage.is_none());
    let with = bot.decide_with_usage(url).unwrap();
    assert_eq!(
        (with.allowed, with.reason, &with.decided_by),
        (plain.allowed, plain.reason, &plain.decided_by)
    );
    assert_eq!(with.usage.as_deref(), Some(&bot.usage(url).unwrap()));
    assert_eq!(
        with.usage.as_deref().map(|u| u.crawlable),
        Some(plain.allowed)
    );
}

#[cfg(feature = "serde")]
#[test]
fn the_decision_json_carries_usage_only_when_asked() {
    let bot = Robots::parse(FILE.as_bytes())
        .crawler("ExampleBot")
        .unwrap();
    let plain = serde_json::to_value(bot.decide("/test").unwrap()).unwrap();
    assert!(plain.get("usage").is_none());
    let with = serde_json::to_value(bot.decide_with_usage("/test").unwrap()).unwrap();
    let usage = &with["usage"];
    assert_eq!(usage["crawlable"], true);
    assert_eq!(usage["vocabularies"][0]["vocabulary"], "aipref");
    assert_eq!(
        usage["vocabularies"][0]["categories"][0]["label"],
        "train-ai"
    );
    assert_eq!(
        usage["vocabularies"][0]["categories"][0]["outcome"],
        "disallowed"
    );
    assert_eq!(
        usage["vocabularies"][0]["categories"][0]["lines"],
        serde_json::json!([5])
    );
    assert_eq!(usage["combined"][1]["category"], "search");
    assert_eq!(usage["combined"][1]["outcome"], "allowed");
    assert!(usage["combined"][1].get("header").is_none());
}

#[test]
fn file_wide_records_are_typed_and_resolved() {
    let robots = Robots::parse(b"content-signal: ai-train=no\nuser-agent: *\nlicense: /l.xml\nllm-policy: /llm.txt\nlicense:\n");
    assert_eq!(robots.licenses().collect::<Vec<_>>(), [(3, "/l.xml")]);
    assert_eq!(
        robots.licenses_from("https://example.com/robots.txt"),
        ["https://example.com/l.xml"]
    );
    assert_eq!(
        robots.llm_policies_from("https://example.com/robots.txt"),
        ["https://example.com/llm.txt"]
    );
    assert_eq!(
        robots.file_signals().collect::<Vec<_>>(),
        [(1, "ai-train=no")]
    );
    // License and LLM-Policy are file-wide: not the `*` group's records.
    let bot = robots.crawler("Bot").unwrap();
    assert!(bot.extensions().is_empty());
    let keys: Vec<_> = robots
        .file_extensions()
        .into_iter()
        .map(|e| e.key)
        .collect();
    assert_eq!(keys, ["content-signal", "license", "llm-policy", "license"]);
}

#[cfg(feature = "fetch")]
mod client {
    use super::FILE;
    use robotrules::client::Client;
    use robotrules::usage::{Outcome, SharedCategory, Vocabulary};
    use robotrules_testserver::http::{HttpServer, Reply};
    use std::time::Duration;

    fn client() -> Client {
        Client::builder()
            .crawler("ExampleBot")
            .connect_timeout(Duration::from_secs(1))
            .total_timeout(Duration::from_secs(2))
            .use_env_proxy(false)
            .build()
            .unwrap()
    }

    #[tokio::test]
    async fn the_answer_carries_the_files_usage_and_the_header() {
        let server = HttpServer::start().await;
        server.route("/robots.txt", Reply::ok(FILE));
        let client = client();
        let plain = client.is_allowed(&server.url("/ai-ok/x")).await.unwrap();
        assert!(plain.usage.is_none());
        let answer = client.usage(&server.url("/ai-ok/x"), None).await.unwrap();
        let usage = answer.usage.clone().unwrap();
        assert_eq!(
            usage.outcome(Vocabulary::Aipref, "train-ai"),
            Outcome::Allowed
        );
        // The header disallows search: combined with the file's `search=yes`, disallowed.
        let answer = client
            .usage(&server.url("/ai-ok/x"), Some(b"search=n"))
            .await
            .unwrap();
        let usage = answer.usage.clone().unwrap();
        let search = usage.category(Vocabulary::Aipref, "search").unwrap();
        assert_eq!((search.outcome, search.header), (Outcome::Disallowed, true));
        assert_eq!(usage.combined(SharedCategory::Search), Outcome::Disallowed);
        let json = serde_json::to_value(&answer).unwrap();
        assert_eq!(json["usage"]["combined"][1]["header"], true);
        assert!(serde_json::to_value(&plain).unwrap().get("usage").is_none());
        // Not crawlable: no preference, whatever the header says.
        let answer = client
            .usage(&server.url("/never/x"), Some(b"train-ai=y"))
            .await
            .unwrap();
        assert!(!answer.allowed);
        assert!(!answer.usage.unwrap().crawlable);
        assert_eq!(server.hits("/robots.txt"), 1);
    }

    #[tokio::test]
    async fn without_a_file_only_the_header_speaks() {
        let server = HttpServer::start().await;
        server.route("/robots.txt", Reply::status(404));
        let answer = client()
            .usage(&server.url("/a"), Some(b"train-ai=n"))
            .await
            .unwrap();
        let usage = answer.usage.unwrap();
        assert!(usage.crawlable);
        assert_eq!(usage.combined(SharedCategory::TrainAi), Outcome::Disallowed);
        assert_eq!(
            usage.outcome(Vocabulary::ContentSignals, "ai-input"),
            Outcome::Unknown
        );
        let unreachable = HttpServer::start().await;
        unreachable.route("/robots.txt", Reply::status(503));
        let answer = client()
            .usage(&unreachable.url("/a"), Some(b"train-ai=y"))
            .await
            .unwrap();
        assert!(!answer.usage.unwrap().crawlable);
    }
}

//! The AI usage columns on real-looking captures, for the default crawlers: Cloudflare's
//! managed robots.txt, the same file with a search crawler blocked, an AIPREF file with
//! paths, an RSL `License:` file, and a file-wide signal that a block contradicts.

use robotrules_model::{Outcome, Profile};
use robotrules_survey::{
    default_agents, AgentUsage, Capture, Contradiction, Signals, Survey, Surveyed, Tally, UsageRow,
    USAGE_COLUMNS,
};

/// Cloudflare's managed robots.txt (content signals policy, September 2025), shortened
/// comment block, as served to millions of domains.
const CLOUDFLARE_MANAGED: &str = "\
# As a condition of accessing this website, you agree to abide by the following
# content signals:
#
# (a)  If a content-signal = yes, you may collect content for the corresponding
#      use.
# (b)  If a content-signal = no, you may not collect content for the
#      corresponding use.
# (c)  If the website operator does not include a content signal for a
#      corresponding use, the website operator neither grants nor restricts
#      permission via content signal with respect to the corresponding use.
#
# The content signals and their meanings are:
#
# search:   building a search index and providing search results.
# ai-input: inputting content into one or more AI models.
# ai-train: training or fine-tuning AI models.

# BEGIN Cloudflare Managed content

User-Agent: *
Content-signal: search=yes,ai-train=no
Allow: /

User-agent: Amazonbot
Disallow: /

User-agent: Applebot-Extended
Disallow: /

User-agent: Bytespider
Disallow: /

User-agent: CCBot
Disallow: /

User-agent: ClaudeBot
Disallow: /

User-agent: Google-Extended
Disallow: /

User-agent: GPTBot
Disallow: /

User-agent: meta-externalagent
Disallow: /

# END Cloudflare Managed Content
";

fn survey() -> Survey {
    Survey::new(default_agents(), Profile::Google, 512_000).unwrap()
}

fn capture(host: &str, body: &str) -> Capture {
    Capture {
        host: host.into(),
        url: format!("https://{host}/robots.txt"),
        status: Some(200),
        headers: vec![("Content-Type".into(), "text/plain".into())],
        body: body.as_bytes().to_vec(),
        ..Capture::default()
    }
}

/// The usage columns of `agent`'s row.
fn row(survey: &Survey, surveyed: &Surveyed, agent: &str) -> UsageRow {
    let at = survey
        .agents()
        .iter()
        .position(|a| a.name == agent)
        .unwrap();
    surveyed.usage_rows(survey.agents()).nth(at).unwrap()
}

#[test]
fn cloudflares_managed_file() {
    let survey = survey();
    let s = survey.capture(&capture("shop.example", CLOUDFLARE_MANAGED));
    assert_eq!(
        s.per_agent.signals,
        Signals {
            content_usage: false,
            content_signal: true,
            license: false,
            llm_policy: false
        }
    );
    // Googlebot falls back to `*`: it may crawl `/`, search allowed, AI training not.
    let googlebot = row(&survey, &s, "Googlebot").usage;
    assert_eq!(
        (
            googlebot.signal_search,
            googlebot.signal_ai_input,
            googlebot.signal_ai_train
        ),
        (Outcome::Allowed, Outcome::Unknown, Outcome::Disallowed)
    );
    assert_eq!(
        (googlebot.usage_train_ai, googlebot.usage_search),
        (Outcome::Unknown, Outcome::Unknown)
    );
    assert_eq!(
        (googlebot.train_ai, googlebot.search),
        (Outcome::Disallowed, Outcome::Allowed)
    );
    // GPTBot has its own group, blocked, and no signal speaks to it: no preference, and no
    // contradiction (its group says nothing about use).
    assert_eq!(row(&survey, &s, "GPTBot").usage, AgentUsage::UNSTATED);
    // No crawler of the default list is contradicted by this file.
    assert!(s
        .per_agent
        .agents
        .iter()
        .all(|a| a.usage.contradiction.is_none()));
}

#[test]
fn a_blocked_search_crawler_under_search_yes_is_a_contradiction() {
    let survey = survey();
    let body = format!("{CLOUDFLARE_MANAGED}\nUser-agent: Googlebot\nDisallow: /\n");
    let s = survey.capture(&capture("news.example", &body));
    let googlebot = row(&survey, &s, "Googlebot").usage;
    assert_eq!(
        googlebot.contradiction,
        Some(Contradiction::SearchAllowedDisallowed)
    );
    // Disallowed from `/`: no preference for it (attach-05 §3.1).
    assert_eq!(googlebot.search, Outcome::Unknown);
    // Bingbot, also a search crawler, may crawl: no contradiction.
    assert_eq!(row(&survey, &s, "Bingbot").usage.contradiction, None);
    // GPTBot is blocked as well, but is not a search crawler.
    assert_eq!(row(&survey, &s, "GPTBot").usage.contradiction, None);
}

#[test]
fn a_file_wide_signal_that_allows_what_a_block_forbids() {
    let survey = survey();
    let body = "Content-Signal: search=yes, ai-input=yes, ai-train=yes\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\n";
    let s = survey.capture(&capture("blog.example", body));
    assert_eq!(
        row(&survey, &s, "GPTBot").usage.contradiction,
        Some(Contradiction::AllowsDisallowed)
    );
    let ccbot = row(&survey, &s, "CCBot").usage;
    assert_eq!(ccbot.contradiction, None);
    assert_eq!(ccbot.train_ai, Outcome::Allowed);
}

#[test]
fn aipref_lines_with_paths_and_rsl_and_llm_policy_pointers() {
    let survey = survey();
    let body = "\
User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ClaudeBot
Allow: /
Content-Usage: train-ai=y, search=y

License: https://example.org/license.xml
LLM-Policy: /llm-policy.txt
";
    let s = survey.capture(&capture("example.org", body));
    assert_eq!(
        s.per_agent.signals,
        Signals {
            content_usage: true,
            content_signal: false,
            license: true,
            llm_policy: true
        }
    );
    let ccbot = row(&survey, &s, "CCBot").usage;
    assert_eq!(
        (ccbot.usage_train_ai, ccbot.train_ai, ccbot.signal_ai_train),
        (Outcome::Disallowed, Outcome::Disallowed, Outcome::Unknown)
    );
    let claude = row(&survey, &s, "ClaudeBot").usage;
    assert_eq!(
        (claude.usage_train_ai, claude.usage_search, claude.search),
        (Outcome::Allowed, Outcome::Allowed, Outcome::Allowed)
    );
}

#[test]
fn statuses_carry_no_signal_and_the_tally_counts_adoption() {
    let survey = survey();
    let mut tally = Tally::default();
    let captures = [
        capture("a.example", CLOUDFLARE_MANAGED),
        capture(
            "b.example",
            &format!("{CLOUDFLARE_MANAGED}\nUser-agent: Googlebot\nDisallow: /\n"),
        ),
        capture("c.example", "User-agent: *\nDisallow: /private/\n"),
        capture(
            "d.example",
            "User-agent: *\nContent-Usage: train-ai=n\nLicense: /license.xml\n",
        ),
        Capture {
            status: Some(503),
            ..capture("e.example", CLOUDFLARE_MANAGED)
        },
    ];
    for c in &captures {
        let s = survey.capture(c);
        assert_eq!(s.usage_rows(survey.agents()).count(), survey.agents().len());
        tally.add(&s);
    }
    // The 503 is unreachable: its body is not read, so it carries nothing.
    let s = survey.capture(&captures[4]);
    assert!(!s.per_agent.signals.any());
    assert_eq!(
        (
            tally.signals.content_signal,
            tally.signals.content_usage,
            tally.signals.license,
            tally.signals.llm_policy,
            tally.signals.any
        ),
        (2, 1, 1, 0, 3)
    );
    let googlebot = survey
        .agents()
        .iter()
        .position(|a| a.name == "Googlebot")
        .unwrap();
    assert_eq!(tally.agents[googlebot].contradictions, 1);
    assert_eq!(
        tally.signals.line(tally.captures),
        "AI usage signals: Content-Usage 1 (20.0%), Content-Signal 2 (40.0%), License 1 (20.0%), LLM-Policy 0 (0.0%), any 3 (60.0%)"
    );
    // Tallies add up.
    let mut merged = Tally::default();
    merged.merge(&tally);
    merged.merge(&tally);
    assert_eq!(merged.signals.any, 6);
    assert_eq!(merged.agents[googlebot].contradictions, 2);
    assert_eq!(USAGE_COLUMNS.len(), 12);
}

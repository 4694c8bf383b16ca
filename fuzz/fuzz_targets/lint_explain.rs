//! Lint and multi-profile explain on arbitrary bytes, crawler name and URL: never panic; every
//! finding's span lies in the input with a line and column; rendering works; the explain
//! report's verdict per profile is `is_allowed`'s.
//!
//! Input: `robots 0xFF agent 0xFF url` (see `robotrules_fuzz::split_robots_agent_url`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::lint::explain::{explain, ExplainOptions};
use robotrules::lint::render::{json_lines, summary, text, TextOptions};
use robotrules::lint::{lint, LintOptions};
use robotrules::{ParseOptions, Profile, Robots};
use robotrules_fuzz::split_robots_agent_url;

fuzz_target!(|data: &[u8]| {
    let (body, agent, url) = split_robots_agent_url(data);
    for profile in Profile::ALL {
        let options = LintOptions {
            profile,
            max_findings: 50,
            ..LintOptions::default()
        };
        let report = lint(body, &options);
        assert!(report.findings.len() <= 50);
        for finding in &report.findings {
            assert!(finding.span.start <= finding.span.end && finding.span.end <= body.len());
            assert!(finding.line >= 1 && finding.column >= 1, "{finding:?}");
        }
        let _ = text(&report, body, &TextOptions::default());
        let _ = json_lines(&report);
        let _ = summary(&report, "robots.txt");
    }
    let options = ExplainOptions::default();
    let report = explain(body, &agent, &url, &options);
    let _ = robotrules::lint::explain::text(&report, body, &TextOptions::default());
    for account in &report.profiles {
        let robots = Robots::parse_with(
            body,
            &ParseOptions {
                profile: account.profile,
                parse_limit: options.parse_limit,
            },
        );
        assert_eq!(
            account.allowed(),
            robots.is_allowed(&agent, &url).ok(),
            "{}: {agent:?} {url:?}",
            account.profile
        );
    }
});

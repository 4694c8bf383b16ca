//! Lint and explain on arbitrary bytes, crawler name and URL: never panic; every finding's
//! span lies in the input with a line and column; rendering works; in every profile the
//! explanation's verdict is `is_allowed`'s, and its deciding line is a rule of the file.
//!
//! Input: `robots 0xFF agent 0xFF url` (see `robotrules_fuzz::split_robots_agent_url`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::{ParseOptions, Profile, Robots};
use robotrules_fuzz::split_robots_agent_url;
use robotrules_lint::render::{json_lines, summary, text, TextOptions};
use robotrules_lint::{lint, LintOptions};

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

        let robots = Robots::parse_with(
            body,
            &ParseOptions::new().with_profile(profile),
        );
        let Ok(why) = robots.explain(&agent, &url) else {
            assert!(robots.is_allowed(&agent, &url).is_err());
            continue;
        };
        assert_eq!(
            Some(why.allowed),
            robots.is_allowed(&agent, &url).ok(),
            "{profile}: {agent:?} {url:?}"
        );
        if let Some(rule) = &why.decided_by {
            // The model's groups and rules (the facade shows no rules).
            let model =
                robotrules_model::RobotsTxt::parse(body, profile, robotrules::DEFAULT_PARSE_LIMIT);
            let found = model
                .groups()
                .iter()
                .any(|g| g.rules(&model).rules().iter().any(|r| r.line == rule.line));
            assert!(found, "deciding line {} is no rule", rule.line);
        }
    }
});

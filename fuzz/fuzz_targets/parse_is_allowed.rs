//! Model and facade: arbitrary robots.txt bytes, crawler name and URL, in every profile, under
//! the default parse limit and one that cuts the file. `explain` must agree with `is_allowed`,
//! name the deciding rule first among the matches; `agent` must fail exactly for names outside
//! the profile's token alphabet when the profile only answers for tokens (`rfc9309`); a URL is
//! refused by `is_allowed` exactly when `target` and `explain` refuse it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

use robotrules::{ParseOptions, Profile, Reason, Robots};
use robotrules_fuzz::split_robots_agent_url;
use robotrules_model::{Crawler, CrawlerNames, RobotsTxt};

fuzz_target!(|data: &[u8]| {
    let (body, agent, url) = split_robots_agent_url(data);
    for profile in Profile::ALL {
        let reading = profile.reading();
        for parse_limit in [robotrules::DEFAULT_PARSE_LIMIT, body.len() / 2] {
            // The facade, and the model it wraps (groups, rules and targets are the model's).
            let facade = Robots::parse_with(
                body,
                &ParseOptions::new().with_profile(profile).with_parse_limit(parse_limit),
            );
            assert!(facade.bytes_read() <= body.len());
            let robots = Arc::new(RobotsTxt::parse(body, profile, parse_limit));
            assert_eq!(robots.bytes_read(), facade.bytes_read());
            let _ = robots.sitemaps().count();
            let _ = robots.diagnostics().len();
            for group in robots.groups() {
                let compiled = group.rules(&robots);
                for rule in compiled.rules() {
                    let _ = compiled.normalized(rule);
                }
            }
            let rules = Crawler::new(Arc::clone(&robots), &agent);
            assert_eq!(facade.crawler(&agent).is_err(), rules.is_err());
            let token =
                !agent.is_empty() && agent.bytes().all(|b| reading.agent_token.is_token_byte(b));
            let invalid = reading.crawler_names == CrawlerNames::Token && !token;
            assert_eq!(rules.is_err(), invalid, "agent {agent:?} in {profile}");
            let Ok(rules) = rules else { continue };
            let allowed = rules.is_allowed(&url);
            assert_eq!(allowed.is_err(), rules.target(&url).is_err(), "{url:?}");
            assert_eq!(
                facade.is_allowed(&agent, &url).ok(),
                allowed.as_ref().ok().copied()
            );
            let _ = rules.crawl_delay();
            let why = rules.explain(&url);
            let (Ok(allowed), Ok(why)) = (allowed, why) else {
                assert!(rules.explain(&url).is_err(), "{url:?}");
                continue;
            };
            assert_eq!(why.allowed, allowed, "explain disagrees: {why:?}");
            match why.reason {
                Reason::RuleMatched => {
                    let decided = why.decided_by.as_ref().expect("a deciding rule");
                    assert_eq!(Some(decided), why.matches.first(), "{why:?}");
                }
                Reason::RobotsTxtImplicitlyAllowed => assert!(why.decided_by.is_none()),
                Reason::NoGroup | Reason::NoMatchingRule => {
                    assert!(
                        why.decided_by.is_none() && why.matches.is_empty(),
                        "{why:?}"
                    );
                }
                _ => {}
            }
        }
    }
});

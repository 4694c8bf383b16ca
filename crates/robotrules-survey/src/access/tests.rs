//! Hand-written cases for every class, in every profile where they differ.

use std::sync::Arc;

use robotrules_model::{Crawler, Profile, RobotsTxt};
use rstest::rstest;

use super::*;

fn access(profile: Profile, robots: &str, agent: &str) -> Access {
    let robots = Arc::new(RobotsTxt::parse(robots.as_bytes(), profile, 512_000));
    access_of(&Crawler::new(robots, agent).unwrap())
}

#[rstest]
// Nothing applies, or nothing disallows.
#[case("", Access::Open)]
#[case("user-agent: OtherBot\ndisallow: /\n", Access::Open)]
#[case("user-agent: *\ndisallow:\n", Access::Open)]
#[case("user-agent: *\nallow: /\n", Access::Open)]
// Everything disallowed, in every spelling.
#[case("user-agent: *\ndisallow: /\n", Access::Blocked)]
#[case("user-agent: *\ndisallow: /*\n", Access::Blocked)]
#[case("user-agent: *\ndisallow: *\n", Access::Blocked)]
#[case("user-agent: *\ndisallow: /\ndisallow: /a\n", Access::Blocked)]
#[case(
    "user-agent: TestBot\ndisallow: /\n\nuser-agent: *\nallow: /\n",
    Access::Blocked
)]
// Some of it.
#[case("user-agent: *\ndisallow: /private/\n", Access::Partial)]
#[case("user-agent: *\ndisallow: /\nallow: /public/\n", Access::Partial)]
#[case("user-agent: *\ndisallow: /*\nallow: /*.html$\n", Access::Partial)]
#[case("user-agent: *\ndisallow: /$\n", Access::Partial)]
#[case("user-agent: *\ndisallow: /*?\n", Access::Partial)]
#[case("user-agent: *\ndisallow: /\nallow: /$\n", Access::Partial)]
// The longer allow of the same length wins: `/` allowed again.
#[case("user-agent: *\ndisallow: /\nallow: /\n", Access::Open)]
fn classes(#[case] robots: &str, #[case] class: Access) {
    for profile in [Profile::Google, Profile::Rfc9309] {
        assert_eq!(
            access(profile, robots, "TestBot"),
            class,
            "{profile}: {robots:?}"
        );
    }
}

#[test]
fn robots_txt_itself_does_not_make_a_blocked_host_partial() {
    let robots = "user-agent: *\ndisallow: /\n";
    let rfc = Arc::new(RobotsTxt::parse(
        robots.as_bytes(),
        Profile::Rfc9309,
        512_000,
    ));
    let crawler = Crawler::new(rfc, "TestBot").unwrap();
    assert!(crawler.is_allowed("/robots.txt").unwrap());
    assert_eq!(access_of(&crawler), Access::Blocked);
}

#[test]
fn the_1994_convention_reads_patterns_literally_and_in_file_order() {
    let p = Profile::Legacy1994;
    // `*` is literal: only paths starting `/*` are disallowed.
    assert_eq!(
        access(p, "user-agent: *\ndisallow: /*\n", "TestBot"),
        Access::Partial
    );
    // First match wins: the allow after a full disallow never decides.
    assert_eq!(
        access(
            p,
            "user-agent: *\ndisallow: /\nallow: /public/\n",
            "TestBot"
        ),
        Access::Blocked
    );
    assert_eq!(
        access(
            p,
            "user-agent: *\nallow: /public/\ndisallow: /\n",
            "TestBot"
        ),
        Access::Partial
    );
}

#[test]
fn google_reads_index_html_as_the_directory() {
    // Google's library: `Allow: /d/index.html` also allows `/d/` (a derived rule).
    let robots = "user-agent: *\ndisallow: /\nallow: /index.html\n";
    assert_eq!(access(Profile::Google, robots, "TestBot"), Access::Partial);
}

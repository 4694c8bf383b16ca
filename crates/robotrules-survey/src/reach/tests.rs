//! Hand-written cases for every class, in every profile where they differ.

use std::sync::Arc;

use robotrules_model::{Crawler, Profile, RobotsTxt};
use rstest::rstest;

use super::*;

fn reach(profile: Profile, robots: &str, agent: &str) -> Reach {
    let robots = Arc::new(RobotsTxt::parse(robots.as_bytes(), profile, 512_000));
    reach_of(&Crawler::new(robots, agent).unwrap())
}

#[rstest]
// Nothing applies, or nothing disallows.
#[case("", Reach::Open)]
#[case("user-agent: OtherBot\ndisallow: /\n", Reach::Open)]
#[case("user-agent: *\ndisallow:\n", Reach::Open)]
#[case("user-agent: *\nallow: /\n", Reach::Open)]
// Everything disallowed, in every spelling.
#[case("user-agent: *\ndisallow: /\n", Reach::Blocked)]
#[case("user-agent: *\ndisallow: /*\n", Reach::Blocked)]
#[case("user-agent: *\ndisallow: *\n", Reach::Blocked)]
#[case("user-agent: *\ndisallow: /\ndisallow: /a\n", Reach::Blocked)]
#[case(
    "user-agent: TestBot\ndisallow: /\n\nuser-agent: *\nallow: /\n",
    Reach::Blocked
)]
// Some of it.
#[case("user-agent: *\ndisallow: /private/\n", Reach::Partial)]
#[case("user-agent: *\ndisallow: /\nallow: /public/\n", Reach::Partial)]
#[case("user-agent: *\ndisallow: /*\nallow: /*.html$\n", Reach::Partial)]
#[case("user-agent: *\ndisallow: /$\n", Reach::Partial)]
#[case("user-agent: *\ndisallow: /*?\n", Reach::Partial)]
#[case("user-agent: *\ndisallow: /\nallow: /$\n", Reach::Partial)]
// The longer allow of the same length wins: `/` allowed again.
#[case("user-agent: *\ndisallow: /\nallow: /\n", Reach::Open)]
fn classes(#[case] robots: &str, #[case] class: Reach) {
    for profile in [Profile::Google, Profile::Rfc9309] {
        assert_eq!(
            reach(profile, robots, "TestBot"),
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
    assert_eq!(reach_of(&crawler), Reach::Blocked);
}

#[test]
fn the_1994_convention_reads_patterns_literally_and_in_file_order() {
    let p = Profile::Legacy1994;
    // `*` is literal: only paths starting `/*` are disallowed.
    assert_eq!(
        reach(p, "user-agent: *\ndisallow: /*\n", "TestBot"),
        Reach::Partial
    );
    // First match wins: the allow after a full disallow never decides.
    assert_eq!(
        reach(
            p,
            "user-agent: *\ndisallow: /\nallow: /public/\n",
            "TestBot"
        ),
        Reach::Blocked
    );
    assert_eq!(
        reach(
            p,
            "user-agent: *\nallow: /public/\ndisallow: /\n",
            "TestBot"
        ),
        Reach::Partial
    );
}

#[test]
fn google_reads_index_html_as_the_directory() {
    // Google's library: `Allow: /d/index.html` also allows `/d/` (a derived rule).
    let robots = "user-agent: *\ndisallow: /\nallow: /index.html\n";
    assert_eq!(reach(Profile::Google, robots, "TestBot"), Reach::Partial);
}

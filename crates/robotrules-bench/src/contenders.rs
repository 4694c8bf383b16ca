//! The implementations compared, each parsed and asked the same way everywhere.
//!
//! - robotrules, in each of its three profiles: `Robots::parse_with` builds a value for every
//!   crawler; checks go through `Robots::crawler(name)` resolved once, then `is_allowed(url)`
//!   with the whole URL, read inside the timed work;
//! - `robotxt` 0.7: `Robots::parse(bytes, agent)` keeps the rules for one crawler; checks are
//!   `Robots::is_allowed(path)` with the URL's path and query, cut out before timing (it takes
//!   a relative URL), which favours it;
//! - `texting_robots`: `Robot::new(agent, bytes)` keeps only the rules for one crawler; checks
//!   are `Robot::allowed(url)`;
//! - `robotstxt` (a port of Google's C++ library): nothing is kept; every check
//!   `DefaultMatcher::one_agent_allowed_by_robots(body, agent, url)` parses the body again, as
//!   Google's library does, so its "parse" figure is that call with one URL.
//!
//! [`Contender::parsed_bytes`] says how many bytes of a file each one reads, so that
//! throughput counts only those: robotrules and `robotxt` stop at 512,000 bytes
//! (RFC 9309 §2.5's 500 KiB), the other two read everything.

use robotrules::{ParseOptions, Profile, Robots, DEFAULT_PARSE_LIMIT};

/// The crawler asked for in the corpus figures: many real files name it.
pub const AGENT: &str = "Googlebot";

/// `robotxt`'s parse limit (`robotxt::BYTE_LIMIT`, 500 KiB).
pub const ROBOTXT_LIMIT: usize = 500 * 1024;

/// The contenders, in the order tables list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// robotrules in one profile.
    Robotrules(Profile),
    /// The `robotxt` crate (0.7).
    Robotxt,
    /// The `texting_robots` crate.
    TextingRobots,
    /// The `robotstxt` crate.
    Robotstxt,
}

impl Contender {
    /// Every contender: robotrules in `rfc9309`, `google`, `legacy1994`, then the peers.
    pub const ALL: [Contender; 6] = [
        Contender::Robotrules(Profile::Rfc9309),
        Contender::Robotrules(Profile::Google),
        Contender::Robotrules(Profile::Legacy1994),
        Contender::Robotxt,
        Contender::TextingRobots,
        Contender::Robotstxt,
    ];

    /// The name used for criterion functions and table rows.
    pub fn name(self) -> String {
        match self {
            Contender::Robotrules(profile) => format!("robotrules-{profile}"),
            Contender::Robotxt => "robotxt".to_owned(),
            Contender::TextingRobots => "texting_robots".to_owned(),
            Contender::Robotstxt => "robotstxt".to_owned(),
        }
    }

    /// How many bytes of a file of `len` bytes the contender reads: up to its parse limit.
    pub fn parsed_bytes(self, len: usize) -> usize {
        match self {
            Contender::Robotrules(_) => len.min(DEFAULT_PARSE_LIMIT),
            Contender::Robotxt => len.min(ROBOTXT_LIMIT),
            Contender::TextingRobots | Contender::Robotstxt => len,
        }
    }
}

/// robotrules: parse `bytes` in `profile` with the default parse limit.
pub fn parse_robotrules(bytes: &[u8], profile: Profile) -> Robots {
    Robots::parse_with(bytes, &ParseOptions::new().with_profile(profile))
}

/// robotrules: how many of `urls` crawler `agent` may fetch (0 when the name is refused).
pub fn count_allowed_robotrules(robots: &Robots, agent: &str, urls: &[String]) -> usize {
    match robots.crawler(agent) {
        Ok(rules) => urls
            .iter()
            .filter(|u| rules.is_allowed(u).unwrap_or(false))
            .count(),
        Err(_) => 0,
    }
}

/// `robotxt`: the rules of `bytes` for `agent`.
pub fn parse_robotxt(agent: &str, bytes: &[u8]) -> robotxt::Robots {
    robotxt::Robots::parse(bytes, agent)
}

/// The path and query of `url` (what `robotxt` takes), without the fragment: everything from
/// the first `/` after `://`, `/` when there is none.
pub fn path_and_query(url: &str) -> String {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after_scheme..];
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    path.split('#').next().unwrap_or("/").to_owned()
}

/// `robotxt`: how many of `paths` (from [`path_and_query`]) the parsed rules allow.
pub fn count_allowed_robotxt(robots: &robotxt::Robots, paths: &[String]) -> usize {
    paths.iter().filter(|p| robots.is_allowed(p)).count()
}

/// `texting_robots`: the rules of `bytes` for `agent`, or `None` when it refuses the file.
pub fn parse_texting(agent: &str, bytes: &[u8]) -> Option<texting_robots::Robot> {
    texting_robots::Robot::new(agent, bytes).ok()
}

/// `texting_robots`: how many of `urls` the parsed rules allow.
pub fn count_allowed_texting(robot: &texting_robots::Robot, urls: &[String]) -> usize {
    urls.iter().filter(|u| robot.allowed(u)).count()
}

/// `robotstxt`: parse `body` and answer for one URL, as Google's library does per query.
pub fn robotstxt_allowed(body: &str, agent: &str, url: &str) -> bool {
    robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url)
}

/// Whether `f` panics, with the panic message silenced. `robotstxt` 0.3.0 panics on some real
/// files (a line longer than 16,664 bytes that holds multi-byte characters makes it slice
/// inside a character); those files are left out of its figures and counted in the reports.
pub fn panics(f: impl FnOnce() + std::panic::UnwindSafe) -> bool {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let panicked = std::panic::catch_unwind(f).is_err();
    std::panic::set_hook(hook);
    panicked
}

/// `robotstxt`: how many of `urls` are allowed, parsing `body` once per URL.
pub fn count_allowed_robotstxt(body: &str, agent: &str, urls: &[String]) -> usize {
    urls.iter()
        .filter(|u| robotstxt_allowed(body, agent, u))
        .count()
}

/// The limit of any parse: one `memchr` scan for line ends over the same bytes, counting them.
pub fn line_scan(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    const FILE: &[u8] = b"User-agent: Googlebot\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: *\nDisallow: /\n";

    fn urls() -> Vec<String> {
        ["/", "/private/x", "/private/press/1", "/public"]
            .iter()
            .map(|p| format!("https://www.example.com{p}"))
            .collect()
    }

    #[test]
    fn the_peers_agree_on_a_plain_file() {
        let texting = parse_texting(AGENT, FILE).unwrap();
        let body = std::str::from_utf8(FILE).unwrap();
        let paths: Vec<String> = urls().iter().map(|u| path_and_query(u)).collect();
        assert_eq!(count_allowed_texting(&texting, &urls()), 3);
        assert_eq!(count_allowed_robotstxt(body, AGENT, &urls()), 3);
        assert_eq!(
            count_allowed_robotxt(&parse_robotxt(AGENT, FILE), &paths),
            3
        );
    }

    #[rstest]
    #[case("https://www.example.com", "/")]
    #[case("https://www.example.com/", "/")]
    #[case("https://www.example.com/a/b?c=d#e", "/a/b?c=d")]
    #[case("https://www.Example.com/A%20b/?q=%7E#f", "/A%20b/?q=%7E")]
    #[case("/a?b", "/a?b")]
    fn path_and_query_cuts_the_origin_and_the_fragment(#[case] url: &str, #[case] path: &str) {
        assert_eq!(path_and_query(url), path);
    }

    /// Longest match allows `/private/press/1`; the 1994 convention's first match does not.
    #[rstest]
    #[case::rfc9309(Profile::Rfc9309, 3)]
    #[case::google(Profile::Google, 3)]
    #[case::legacy_first_match(Profile::Legacy1994, 2)]
    fn robotrules_answers_each_profile(#[case] profile: Profile, #[case] allowed: usize) {
        let robots = parse_robotrules(FILE, profile);
        assert_eq!(count_allowed_robotrules(&robots, AGENT, &urls()), allowed);
    }

    #[test]
    fn a_refused_crawler_name_counts_nothing() {
        let robots = parse_robotrules(FILE, Profile::Rfc9309);
        assert_eq!(
            count_allowed_robotrules(&robots, "Not a token/1.0", &urls()),
            0
        );
    }

    #[test]
    fn panics_tells_a_panic_from_a_return() {
        assert!(panics(|| panic!("expected")));
        assert!(!panics(|| {
            robotstxt_allowed("user-agent: *\ndisallow: /\n", AGENT, "/");
        }));
    }

    #[test]
    fn every_contender_has_a_distinct_name() {
        let names: std::collections::HashSet<_> = Contender::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(names.len(), Contender::ALL.len());
    }

    #[rstest]
    #[case(Contender::Robotrules(Profile::Google), 600_000, 512_000)]
    #[case(Contender::Robotxt, 600_000, 512_000)]
    #[case(Contender::TextingRobots, 600_000, 600_000)]
    #[case(Contender::Robotstxt, 712, 712)]
    fn parsed_bytes_stop_at_each_parse_limit(
        #[case] contender: Contender,
        #[case] len: usize,
        #[case] parsed: usize,
    ) {
        assert_eq!(contender.parsed_bytes(len), parsed);
    }

    #[test]
    fn the_line_scan_counts_line_feeds() {
        assert_eq!(line_scan(FILE), 6);
    }
}

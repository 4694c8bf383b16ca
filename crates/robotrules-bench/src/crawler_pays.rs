//! What a crawler pays per site (issue 26): fetch the robots.txt, parse it, resolve its own
//! crawler, then check a few of the site's URLs. A broad crawl checks only a handful of URLs
//! per site in each copy's lifetime, so parse + resolve is most of the bill.
//!
//! Each [`Work`] is done by every [`Payer`] the same way, over the same files and crawl-like
//! URLs ([`crate::urls::site_urls_for`]); the `compare` bench times them in criterion groups
//! `crawler_<work>` and the `crawler_pays` binary prints them as a table of ratios to the best
//! peer, with one summary line.
//!
//! - robotrules: `Robots::parse_with`, then `Robots::crawler(AGENT)` (select and merge the
//!   groups, build the matcher), then `Crawler::is_allowed(url)` with the whole URL;
//! - `robotxt`: `Robots::parse(bytes, agent)` keeps one agent's rules (its parse *is* its
//!   resolve), then `is_allowed(path)` with the path and query, cut out before timing;
//! - `texting_robots`: `Robot::new(agent, bytes)`, then `allowed(url)`.
//!
//! `robotstxt` is left out: it parses the file again for every check, so every row would be
//! its check count times its parse.

use std::hint::black_box;

use robotrules::{Profile, Robots};

use crate::contenders::{parse_robotrules, parse_robotxt, parse_texting, path_and_query, AGENT};
use crate::corpus::Sample;
use crate::urls::site_urls_for;

/// One row of the table: a crawler's work on one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Parse and resolve the crawler: what a peer's parse does.
    Resolve,
    /// Parse, resolve and check the site's first URL.
    FirstCheck,
    /// Parse, resolve and check the site's first ten URLs.
    TenChecks,
    /// Parse, resolve and check all of the site's URLs.
    SiteChecks,
    /// One check, the crawler resolved before timing.
    CheckAlone,
}

impl std::str::FromStr for Work {
    type Err = String;

    fn from_str(s: &str) -> Result<Work, String> {
        Work::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| format!("unknown work {s:?}"))
    }
}

impl Work {
    /// Every row, in table order.
    pub const ALL: [Work; 5] = [
        Work::Resolve,
        Work::FirstCheck,
        Work::TenChecks,
        Work::SiteChecks,
        Work::CheckAlone,
    ];

    /// The name used for criterion groups (`crawler_<name>`) and table rows.
    pub const fn name(self) -> &'static str {
        match self {
            Work::Resolve => "parse_resolve",
            Work::FirstCheck => "first_check",
            Work::TenChecks => "ten_checks",
            Work::SiteChecks => "site_checks",
            Work::CheckAlone => "check_alone",
        }
    }

    /// How many of a site's URLs the work checks after resolving (`None`: all of them).
    fn checks(self) -> Option<usize> {
        match self {
            Work::Resolve => Some(0),
            Work::FirstCheck => Some(1),
            Work::TenChecks => Some(10),
            Work::SiteChecks | Work::CheckAlone => None,
        }
    }

    /// The ratio issue 26 asks of robotrules over the best peer; ten checks have none of
    /// their own.
    pub const fn target_ratio(self) -> Option<f64> {
        match self {
            Work::Resolve | Work::FirstCheck => Some(3.0),
            Work::TenChecks => None,
            Work::SiteChecks => Some(8.0),
            Work::CheckAlone => Some(12.0),
        }
    }
}

/// Who does the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payer {
    /// robotrules in one profile.
    Robotrules(Profile),
    /// The `robotxt` crate.
    Robotxt,
    /// The `texting_robots` crate.
    TextingRobots,
}

impl Payer {
    /// Every payer: robotrules in `google`, `rfc9309`, `legacy1994`, then the peers.
    pub const ALL: [Payer; 5] = [
        Payer::Robotrules(Profile::Google),
        Payer::Robotrules(Profile::Rfc9309),
        Payer::Robotrules(Profile::Legacy1994),
        Payer::Robotxt,
        Payer::TextingRobots,
    ];

    /// The peers robotrules is compared with.
    pub const PEERS: [Payer; 2] = [Payer::Robotxt, Payer::TextingRobots];

    /// The name used for criterion functions and table columns.
    pub fn name(self) -> String {
        match self {
            Payer::Robotrules(profile) => format!("robotrules-{profile}"),
            Payer::Robotxt => "robotxt".to_owned(),
            Payer::TextingRobots => "texting_robots".to_owned(),
        }
    }
}

/// One site: its robots.txt and the URLs a crawler asks about it (whole URLs, and the path
/// and query `robotxt` takes).
#[derive(Clone, Debug)]
pub struct Site {
    /// The robots.txt file.
    pub bytes: Vec<u8>,
    /// The URLs checked, in order.
    pub urls: Vec<String>,
    /// The same URLs' paths and queries.
    pub paths: Vec<String>,
}

/// The sites of `samples`, each asked [`site_urls_for`] its file.
pub fn sites(samples: &[Sample]) -> Vec<Site> {
    samples
        .iter()
        .map(|s| {
            let urls = site_urls_for(&s.bytes);
            let paths = urls.iter().map(|u| path_and_query(u)).collect();
            Site {
                bytes: s.bytes.clone(),
                urls,
                paths,
            }
        })
        .collect()
}

/// The units `work` is counted in over `sites`: checks for [`Work::CheckAlone`], else sites.
pub fn units(work: Work, sites: &[Site]) -> usize {
    match work {
        Work::CheckAlone => sites.iter().map(|s| s.urls.len()).sum(),
        _ => sites.len(),
    }
}

/// The crawlers resolved ahead of the timing, for [`Work::CheckAlone`].
pub enum Resolved {
    /// robotrules' crawlers (`None` where the name is refused).
    Robotrules(Vec<Option<robotrules::Crawler>>),
    /// `robotxt`'s per-agent rules.
    Robotxt(Vec<robotxt::Robots>),
    /// `texting_robots`' per-agent rules (`None` where it refuses the file).
    TextingRobots(Vec<Option<texting_robots::Robot>>),
}

impl Resolved {
    /// `payer` resolves [`AGENT`] in every site.
    pub fn new(payer: Payer, sites: &[Site]) -> Resolved {
        match payer {
            Payer::Robotrules(profile) => Resolved::Robotrules(
                sites
                    .iter()
                    .map(|s| parse_robotrules(&s.bytes, profile).crawler(AGENT).ok())
                    .collect(),
            ),
            Payer::Robotxt => Resolved::Robotxt(
                sites
                    .iter()
                    .map(|s| parse_robotxt(AGENT, &s.bytes))
                    .collect(),
            ),
            Payer::TextingRobots => Resolved::TextingRobots(
                sites
                    .iter()
                    .map(|s| parse_texting(AGENT, &s.bytes))
                    .collect(),
            ),
        }
    }

    /// Every site's URLs checked once: how many are allowed.
    pub fn check_all(&self, sites: &[Site]) -> usize {
        let mut allowed = 0usize;
        match self {
            Resolved::Robotrules(crawlers) => {
                for (crawler, site) in crawlers.iter().zip(sites) {
                    let Some(crawler) = crawler else { continue };
                    for url in &site.urls {
                        allowed += usize::from(crawler.is_allowed(black_box(url)) == Ok(true));
                    }
                }
            }
            Resolved::Robotxt(parsed) => {
                for (robots, site) in parsed.iter().zip(sites) {
                    for path in &site.paths {
                        allowed += usize::from(robots.is_allowed(black_box(path)));
                    }
                }
            }
            Resolved::TextingRobots(parsed) => {
                for (robot, site) in parsed.iter().zip(sites) {
                    let Some(robot) = robot else { continue };
                    for url in &site.urls {
                        allowed += usize::from(robot.allowed(black_box(url)));
                    }
                }
            }
        }
        allowed
    }
}

/// `payer` does `work` (not [`Work::CheckAlone`], see [`Resolved`]) on every site: parse,
/// resolve [`AGENT`], check the first URLs. Returns how many checks allowed, plus one per
/// resolved crawler, so that nothing is optimised away.
pub fn pay(payer: Payer, work: Work, sites: &[Site]) -> usize {
    let mut count = 0usize;
    for site in sites {
        let n = work
            .checks()
            .unwrap_or(site.urls.len())
            .min(site.urls.len());
        let bytes = black_box(site.bytes.as_slice());
        match payer {
            Payer::Robotrules(profile) => {
                let robots: Robots = parse_robotrules(bytes, profile);
                if let Ok(crawler) = robots.crawler(AGENT) {
                    count += 1;
                    for url in &site.urls[..n] {
                        count += usize::from(crawler.is_allowed(black_box(url)) == Ok(true));
                    }
                }
            }
            Payer::Robotxt => {
                let robots = parse_robotxt(AGENT, bytes);
                count += 1;
                for path in &site.paths[..n] {
                    count += usize::from(robots.is_allowed(black_box(path)));
                }
            }
            Payer::TextingRobots => {
                if let Some(robot) = parse_texting(AGENT, bytes) {
                    count += 1;
                    for url in &site.urls[..n] {
                        count += usize::from(robot.allowed(black_box(url)));
                    }
                }
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> Vec<Site> {
        sites(&[Sample::new(
            "t",
            // The allow first, so that the 1994 convention's first match agrees too.
            b"User-agent: Googlebot\nAllow: /a/b\nDisallow: /a/\n\nUser-agent: *\nDisallow: /\n"
                .to_vec(),
        )])
    }

    #[test]
    fn every_payer_agrees_on_a_plain_site() {
        let sites = site();
        let expected = Resolved::new(Payer::Robotxt, &sites).check_all(&sites);
        assert!(expected > 0 && expected < sites[0].urls.len());
        for payer in Payer::ALL {
            assert_eq!(
                Resolved::new(payer, &sites).check_all(&sites),
                expected,
                "{}",
                payer.name()
            );
            // One resolved crawler plus the allowed checks of the whole site.
            assert_eq!(pay(payer, Work::SiteChecks, &sites), expected + 1);
            assert_eq!(pay(payer, Work::Resolve, &sites), 1);
        }
    }

    #[test]
    fn units_count_checks_or_sites() {
        let sites = site();
        assert_eq!(units(Work::Resolve, &sites), 1);
        assert_eq!(units(Work::FirstCheck, &sites), 1);
        assert_eq!(units(Work::TenChecks, &sites), 1);
        assert_eq!(units(Work::SiteChecks, &sites), 1);
        assert_eq!(units(Work::CheckAlone, &sites), sites[0].urls.len());
    }
}

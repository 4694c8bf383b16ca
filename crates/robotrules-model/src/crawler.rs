//! A crawler's view of a file: choosing its groups (RFC 9309 §2.2.1), compiling them once,
//! and answering for URLs (RFC 9309 §2.2.2).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use robotrules_url::{OriginRef, Target, Targets};

use crate::compile::{beats, first_match_uncompiled, GroupRules, Rule};
use crate::error::{InvalidAgent, InvalidUrl};
use crate::extension::{Extension, ExtensionKey, RequestRate};
use crate::matcher::Probe;
use crate::pattern::{len_u32, RuleKind};
use crate::profile::{AgentToken, CrawlerNames, GroupMerge, Precedence, Profile};
use crate::robots::{Group, RobotsTxt, UserAgent};
use crate::usage::{Usage, UsageRules, UsageStatement};
use crate::user_agent::{is_any_crawler, suggested_token};

/// How the groups for a crawler were chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Selection {
    /// Groups whose user-agent token equals the crawler's name, ignoring ASCII case; several
    /// are merged (RFC 9309 §2.2.1).
    Exact,
    /// The first record whose user-agent is found in the crawler's name, ignoring case (the
    /// 1994 convention's substring match).
    Substring,
    /// No group names the crawler: the `*` group (all of them, merged, or the first record,
    /// as the profile's [`GroupMerge`] says).
    Global,
    /// No group names the crawler and there is no `*` group: no rules apply.
    Unmatched,
}

impl Selection {
    /// The name used in JSON and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Selection::Exact => "exact",
            Selection::Substring => "substring",
            Selection::Global => "global",
            Selection::Unmatched => "unmatched",
        }
    }
}

impl std::fmt::Display for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the verdict is what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum Reason {
    /// `/robots.txt` itself is always allowed (RFC 9309 §2.2.2).
    RobotsTxtImplicitlyAllowed,
    /// No group names the crawler and there is no `*` group: no rules apply (RFC 9309 §2.2.1).
    NoGroup,
    /// Groups apply but none of their rules match the URL: allowed (RFC 9309 §2.2.2).
    NoMatchingRule,
    /// The deciding rule matched.
    RuleMatched,
}

impl Reason {
    /// The name used in JSON and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::RobotsTxtImplicitlyAllowed => "robots-txt-implicitly-allowed",
            Reason::NoGroup => "no-group",
            Reason::NoMatchingRule => "no-matching-rule",
            Reason::RuleMatched => "rule-matched",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The verdict on one URL: allowed or not, why, and the deciding rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// Why.
    pub reason: Reason,
    /// The deciding rule, when a rule decided.
    pub rule: Option<Rule>,
}

/// How a crawler's groups are chosen, and the user-agent line that named it (index into the
/// file's agents); the groups' indices go to a vector of the caller's.
type Selected = (Selection, Option<u32>);

/// A group's index as a caller keeps it: `u32` in a [`Chosen`], `usize` in the public API.
trait GroupIndex: Copy + PartialEq {
    /// The index `group` (a file has fewer than 2^32 groups).
    fn of(group: u32) -> Self;
}

impl GroupIndex for u32 {
    fn of(group: u32) -> u32 {
        group
    }
}

impl GroupIndex for usize {
    fn of(group: u32) -> usize {
        group as usize
    }
}

/// The groups chosen for a crawler in one file, compiled when needed: what a [`Crawler`]
/// holds besides the file. Its methods take the file it was chosen in.
///
/// The first check tries the groups' rules as it compiles them, one at a time, keeping
/// nothing ([`first_match_uncompiled`]); the second compiles the groups ([`GroupRules`]) for
/// every check after it. Groups of more than [`FIRST_SCAN_MAX`] rules are compiled at the
/// first check. A crawler that checks one URL per site (most of a broad crawl) pays
/// about a third of what compiling costs; one that checks many pays that third once more.
#[derive(Debug)]
pub(crate) struct Chosen {
    selection: Selection,
    /// The user-agent line that named the crawler (index into the file's agents).
    named_by: Option<u32>,
    /// The chosen groups' indices, in file order, each once.
    indices: Box<[u32]>,
    /// Their compiled rules, in the same order, once compiled.
    groups: OnceLock<Box<[GroupRules]>>,
    /// Whether the next check compiles: set by the first check, answered without compiling,
    /// and from the start when the groups hold more than [`FIRST_SCAN_MAX`] rules.
    checked: AtomicBool,
}

/// Chosen groups with more rules than this are compiled at the first check. Trying a large
/// group's rules one at a time costs up to about half of compiling it (every rule compiled and
/// dropped when all of them may match, as `Disallow: /*…` rules do), and a crawler that checks
/// a second URL then compiles anyway: a 500 KiB file of 20,000 such rules paid 22% more for
/// parse + 1,000 checks. A group this large is rare in crawls (the crawl sample's files are
/// ≤ 16 KiB), where the first check stays uncompiled.
const FIRST_SCAN_MAX: usize = 1024;

impl RobotsTxt {
    /// Choose and compile crawler `name`'s groups (RFC 9309 §2.2.1).
    ///
    /// Under a profile whose [`CrawlerNames`] is `Token` (`rfc9309`), a name that is not a
    /// token of the profile's alphabet is refused; the error suggests the token to pass
    /// ([`crate::suggested_token`]). `*` is read as a crawler that no group names
    /// ([`crate::ANY_CRAWLER`]). `google` and `legacy1994` take any string (under `google`,
    /// one that is not a token only ever gets `*`).
    pub(crate) fn choose(&self, name: &str) -> Result<Chosen, InvalidAgent> {
        let mut indices = Vec::new();
        let (selection, named_by) = self.select(name, &mut indices)?;
        let rules: usize = indices
            .iter()
            .filter_map(|&i| self.groups.get(i as usize))
            .map(|g| g.rules.len())
            .sum();
        Ok(Chosen {
            selection,
            named_by,
            indices: indices.into_boxed_slice(),
            groups: OnceLock::new(),
            checked: AtomicBool::new(rules > FIRST_SCAN_MAX),
        })
    }

    /// How crawler `name`'s groups are chosen, and their indices in file order, without
    /// compiling them: what [`Crawler::new`] would compile ([`Crawler::selection`],
    /// [`Crawler::group_indices`]). Two crawlers given the same groups get the same verdicts,
    /// crawl delay and other records, so a survey of many crawlers compiles each set of groups
    /// once.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use robotrules_model::{Crawler, Profile, RobotsTxt, Selection};
    ///
    /// let robots = Arc::new(RobotsTxt::parse(b"user-agent: a\ndisallow: /\n\nuser-agent: *\ndisallow: /x\n", Profile::Google, 512_000));
    /// assert_eq!(robots.selection_of("A")?, (Selection::Exact, vec![0]));
    /// assert_eq!(robots.selection_of("B")?, (Selection::Global, vec![1]));
    /// let b = Crawler::new(Arc::clone(&robots), "B")?;
    /// assert_eq!((b.selection(), b.group_indices()), robots.selection_of("B")?);
    /// # Ok::<(), robotrules_model::InvalidAgent>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::new`]: a name the profile refuses.
    pub fn selection_of(&self, name: &str) -> Result<(Selection, Vec<usize>), InvalidAgent> {
        let mut groups = Vec::new();
        let (selection, _) = self.select(name, &mut groups)?;
        Ok((selection, groups))
    }

    /// As [`RobotsTxt::selection_of`], the groups' indices written into `groups` (cleared
    /// first) instead of a new vector: asking about many crawlers with one vector allocates
    /// nothing once it has grown.
    ///
    /// ```
    /// use robotrules_model::{Profile, RobotsTxt, Selection};
    ///
    /// let robots = RobotsTxt::parse(b"user-agent: a\ndisallow: /\n\nuser-agent: *\ndisallow: /x\n", Profile::Google, 512_000);
    /// let mut groups = Vec::new();
    /// assert_eq!(robots.selection_into("A", &mut groups)?, Selection::Exact);
    /// assert_eq!(groups, [0]);
    /// assert_eq!(robots.selection_into("B", &mut groups)?, Selection::Global);
    /// assert_eq!(groups, [1]);
    /// # Ok::<(), robotrules_model::InvalidAgent>(())
    /// ```
    ///
    /// # Errors
    /// As [`Crawler::new`]: a name the profile refuses (`groups` is left empty).
    pub fn selection_into(
        &self,
        name: &str,
        groups: &mut Vec<usize>,
    ) -> Result<Selection, InvalidAgent> {
        Ok(self.select(name, groups)?.0)
    }

    /// The selection and the naming user-agent line; the chosen groups into `groups`, cleared
    /// first (RFC 9309 §2.2.1).
    fn select<I: GroupIndex>(
        &self,
        name: &str,
        groups: &mut Vec<I>,
    ) -> Result<Selected, InvalidAgent> {
        groups.clear();
        self.profile.check_crawler_name(name)?;
        let reading = self.profile.reading();
        Ok(match reading.groups {
            GroupMerge::First => self.select_first(reading.agent_token, name, groups),
            GroupMerge::All => self.select_all(name, groups),
        })
    }

    /// Is `url` allowed for crawler `agent`? For many URLs, make a [`Crawler`] once.
    ///
    /// # Errors
    /// A crawler name or a URL the profile cannot read.
    pub fn is_allowed(&self, agent: &str, url: &str) -> Result<bool, crate::Error> {
        let chosen = self.choose(agent)?;
        Ok(chosen.verdict(self, &chosen.target(self, url)?).allowed)
    }

    /// Every group whose token equals `name` (ignoring ASCII case), merged; else every `*`
    /// group. The user-agent lines are scanned until one names the crawler, then its groups
    /// (or the `*` groups) counted and gathered into `groups`, grown to fit them exactly.
    fn select_all<I: GroupIndex>(&self, name: &str, groups: &mut Vec<I>) -> Selected {
        let name = name.as_bytes();
        let names = |a: &&UserAgent| !a.global && a.token_bytes(self).eq_ignore_ascii_case(name);
        if let Some(first) = self.agents.iter().position(|a| names(&a)) {
            groups_of(self.agents[first..].iter().filter(names), groups);
            return (Selection::Exact, Some(len_u32(first)));
        }
        groups_of(self.agents.iter().filter(|a| a.global), groups);
        if groups.is_empty() {
            (Selection::Unmatched, None)
        } else {
            (Selection::Global, None)
        }
    }

    /// The first record whose token is found in the crawler's name (itself cut at its first
    /// `/`, as CPython does), else the first `*` record.
    fn select_first<I: GroupIndex>(
        &self,
        token: AgentToken,
        name: &str,
        groups: &mut Vec<I>,
    ) -> Selected {
        let name = token.leading(name.as_bytes());
        let found = self.agents.iter().position(|a| {
            let token = a.token_bytes(self);
            !a.global && !token.is_empty() && contains_ignore_case(name, token)
        });
        let first_global = self.agents.iter().find(|a| a.global).map(|a| a.group);
        let (selection, named_by, group) = match (found, first_global) {
            (Some(i), _) => (Selection::Substring, Some(len_u32(i)), self.agents[i].group),
            (None, Some(g)) => (Selection::Global, None, g),
            (None, None) => return (Selection::Unmatched, None),
        };
        groups.reserve_exact(1);
        groups.push(I::of(group));
        (selection, named_by)
    }
}

/// The groups of `agents` (user-agent lines in file order), each once, pushed to `groups`: a
/// group's lines are next to each other, so only repeats in a row are dropped. An empty
/// `groups` is given the room for every line exactly (one allocation, as the boxed slice of a
/// [`Chosen`] wants); one with room enough is not grown.
fn groups_of<'a, I: GroupIndex>(
    agents: impl Iterator<Item = &'a UserAgent> + Clone,
    groups: &mut Vec<I>,
) {
    groups.reserve_exact(agents.clone().count());
    for agent in agents {
        let group = I::of(agent.group);
        if groups.last() != Some(&group) {
            groups.push(group);
        }
    }
}

/// Whether `needle` occurs in `haystack`, ignoring ASCII case.
fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

impl Profile {
    /// Whether this profile answers for crawler `name`: what [`Crawler::new`] checks before
    /// choosing groups, without a file. Under a profile whose [`CrawlerNames`] is `Token`
    /// (`rfc9309`), the name must be a product token (RFC 9309 §2.2.1); the error suggests the
    /// token to pass (`Googlebot` for `Mozilla/5.0 (compatible; Googlebot/2.1; …)`, never
    /// `Mozilla`). `google` and `legacy1994` take any string.
    ///
    /// ```
    /// use robotrules_model::Profile;
    ///
    /// assert!(Profile::Google.check_crawler_name("Example Bot/1.0").is_ok());
    /// let refused = Profile::Rfc9309.check_crawler_name("ExampleBot/1.0").unwrap_err();
    /// assert_eq!(refused.suggestion.as_deref(), Some("ExampleBot"));
    /// ```
    ///
    /// # Errors
    /// A name the profile refuses, as above.
    pub fn check_crawler_name(self, name: &str) -> Result<(), InvalidAgent> {
        let reading = self.reading();
        if reading.crawler_names == CrawlerNames::Token {
            check_token(reading.agent_token, name)?;
        }
        Ok(())
    }

    /// Whether this profile can read `url` for matching: what [`Crawler::target`] checks,
    /// without a file. Under `rfc9309` and `legacy1994` it must be an absolute URL with a host
    /// or a path starting with `/`; `google` reads any string.
    ///
    /// ```
    /// use robotrules_model::Profile;
    ///
    /// assert!(Profile::Rfc9309.check_url("https://example.com/a").is_ok());
    /// assert!(Profile::Rfc9309.check_url("relative").is_err());
    /// ```
    ///
    /// # Errors
    /// A URL the profile cannot read, with the reason.
    pub fn check_url(self, url: &str) -> Result<(), InvalidUrl> {
        Target::parse(url, self.reading().urls)
            .map(drop)
            .map_err(|source| InvalidUrl {
                url: url.to_owned(),
                source,
            })
    }
}

/// A crawler name must be a non-empty token of the profile's alphabet, or [`crate::ANY_CRAWLER`]
/// (`*`: a crawler that no group names, which gets the `*` groups).
fn check_token(alphabet: AgentToken, name: &str) -> Result<(), InvalidAgent> {
    let bytes = name.as_bytes();
    if is_any_crawler(name)
        || (!bytes.is_empty() && bytes.iter().all(|&b| alphabet.is_token_byte(b)))
    {
        return Ok(());
    }
    Err(InvalidAgent {
        name: name.to_owned(),
        suggestion: suggested_token(name, |b| alphabet.is_token_byte(b)),
    })
}

impl Chosen {
    /// How the groups were chosen.
    pub(crate) fn selection(&self) -> Selection {
        self.selection
    }

    /// The user-agent line that named the crawler, when a group names it.
    pub(crate) fn named_by<'a>(&self, robots: &'a RobotsTxt) -> Option<&'a UserAgent> {
        robots.agents.get(self.named_by? as usize)
    }

    /// `url` read as `robots`' profile matches it.
    pub(crate) fn target<'u>(
        &self,
        robots: &RobotsTxt,
        url: &'u str,
    ) -> Result<Target<'u>, InvalidUrl> {
        Target::parse(url, robots.profile.reading().urls).map_err(|source| InvalidUrl {
            url: url.to_owned(),
            source,
        })
    }

    /// The chosen groups' compiled rules, in file order: compiled now if they are not yet.
    fn compiled(&self, robots: &RobotsTxt) -> &[GroupRules] {
        self.groups.get_or_init(|| {
            self.indices
                .iter()
                .map(|&i| GroupRules::new(robots, i))
                .collect()
        })
    }

    /// The chosen groups with their compiled rules, in file order.
    pub(crate) fn groups<'a>(
        &'a self,
        robots: &'a RobotsTxt,
    ) -> impl Iterator<Item = (&'a Group, &'a GroupRules)> + 'a {
        self.indices
            .iter()
            .zip(self.compiled(robots).iter())
            .filter_map(|(&i, rules)| Some((robots.groups.get(i as usize)?, rules)))
    }

    /// The verdict on the URL read as `target`.
    pub(crate) fn verdict(&self, robots: &RobotsTxt, target: &Target<'_>) -> Verdict {
        if robots.profile.reading().implicit_robots_txt && target.is_robots_txt() {
            return Verdict {
                allowed: true,
                reason: Reason::RobotsTxtImplicitlyAllowed,
                rule: None,
            };
        }
        self.decide(robots, target.path(), |rule| match rule {
            Some(rule) => Verdict {
                allowed: rule.kind == RuleKind::Allow,
                reason: Reason::RuleMatched,
                rule: Some(*rule),
            },
            None if self.selection == Selection::Unmatched => Verdict {
                allowed: true,
                reason: Reason::NoGroup,
                rule: None,
            },
            None => Verdict {
                allowed: true,
                reason: Reason::NoMatchingRule,
                rule: None,
            },
        })
    }

    /// [`Chosen::verdict`]'s `allowed`, without making the verdict.
    #[inline]
    pub(crate) fn allows(&self, robots: &RobotsTxt, target: &Target<'_>) -> bool {
        if robots.profile.reading().implicit_robots_txt && target.is_robots_txt() {
            return true;
        }
        self.decide(robots, target.path(), |rule| {
            rule.is_none_or(|rule| rule.kind == RuleKind::Allow)
        })
    }

    /// `then` of the deciding rule for a path in the profile's form, if any rule matches: each
    /// group's best (its matcher's, or [`first_match_uncompiled`]'s at the first check); across
    /// merged groups the best of the bests wins ([`beats`]; the earlier group on a tie).
    #[inline]
    fn decide<R>(
        &self,
        robots: &RobotsTxt,
        path: &[u8],
        then: impl FnOnce(Option<&Rule>) -> R,
    ) -> R {
        let longest = robots.profile.reading().precedence == Precedence::LongestMatch;
        let compiled = match self.groups.get() {
            Some(groups) => groups,
            None if !self.checked.swap(true, Ordering::Relaxed) => {
                return then(self.decide_uncompiled(robots, path).as_ref());
            }
            None => self.compiled(robots),
        };
        let mut probe = Probe::new(path);
        let mut best: Option<&Rule> = None;
        for group in compiled.iter() {
            if let Some(rule) = group.first_match(&mut probe) {
                if beats(rule, best, longest) {
                    best = Some(rule);
                }
            }
        }
        then(best)
    }

    /// [`Chosen::decide`] before the groups are compiled: each group's best is
    /// [`first_match_uncompiled`]'s.
    #[cold]
    fn decide_uncompiled(&self, robots: &RobotsTxt, path: &[u8]) -> Option<Rule> {
        let longest = robots.profile.reading().precedence == Precedence::LongestMatch;
        let mut probe = Probe::new(path);
        let mut best: Option<Rule> = None;
        for &index in self.indices.iter() {
            if let Some(rule) = first_match_uncompiled(robots, index, &mut probe) {
                if beats(&rule, best.as_ref(), longest) {
                    best = Some(rule);
                }
            }
        }
        best
    }
}

/// One crawler's rules in one file: the parsed file (shared) and the crawler's groups, chosen
/// once and compiled once, at the second check (at the first past 1,024 rules;
/// see `Chosen`). Owned, `Send + Sync` and cheap to clone (an `Arc`), so it can be kept in a
/// per-origin cache and asked from many threads.
///
/// ```
/// use std::sync::Arc;
/// use robotrules_model::{Crawler, Profile, RobotsTxt};
///
/// let robots = Arc::new(RobotsTxt::parse(b"user-agent: *\ndisallow: /x\n", Profile::Rfc9309, 512_000));
/// let crawler = Crawler::new(robots, "ExampleBot")?;
/// let shared = crawler.clone(); // an Arc clone: no copy of the file or the rules
/// assert!(!shared.is_allowed("https://example.com/x")?);
/// assert!(crawler.is_allowed("/y")?);
/// assert_eq!(crawler.name(), "ExampleBot");
/// # Ok::<(), robotrules_model::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Crawler {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    robots: Arc<RobotsTxt>,
    name: Box<str>,
    chosen: Chosen,
    /// The chosen groups' usage statements (`Content-Usage`, `Content-Signal`), read once;
    /// crawl verdicts never look at them.
    usage: UsageRules,
}

impl Crawler {
    /// Choose crawler `name`'s groups in `robots` (they are compiled at the second check, or at
    /// the first past 1,024 rules).
    ///
    /// # Errors
    /// Under a profile whose [`CrawlerNames`] is `Token` (`rfc9309`), a name that is not a
    /// product token (letters, digits, `_`, `-`); the error suggests the token to pass
    /// (`Googlebot` for `Mozilla/5.0 (compatible; Googlebot/2.1; …)`, never `Mozilla`).
    pub fn new(robots: Arc<RobotsTxt>, name: &str) -> Result<Crawler, InvalidAgent> {
        let chosen = robots.choose(name)?;
        let usage = UsageRules::new(&robots, &chosen.indices);
        Ok(Crawler {
            inner: Arc::new(Inner {
                robots,
                name: name.into(),
                chosen,
                usage,
            }),
        })
    }

    /// Whether `a` and `b` are one crawler's compiled rules, shared (clones of one handle).
    pub fn ptr_eq(a: &Crawler, b: &Crawler) -> bool {
        Arc::ptr_eq(&a.inner, &b.inner)
    }

    pub(crate) fn chosen(&self) -> &Chosen {
        &self.inner.chosen
    }

    /// The crawler's name as given.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The parsed file.
    pub fn robots(&self) -> &Arc<RobotsTxt> {
        &self.inner.robots
    }

    /// How the groups were chosen.
    pub fn selection(&self) -> Selection {
        self.chosen().selection
    }

    /// The user-agent line that named the crawler (the first in file order), when a group
    /// names it.
    pub fn named_by(&self) -> Option<&UserAgent> {
        self.chosen().named_by(self.robots())
    }

    /// The chosen groups' indices, in file order.
    pub fn group_indices(&self) -> Vec<usize> {
        self.chosen().indices.iter().map(|&i| i as usize).collect()
    }

    /// Whether `other` holds the same rules as this crawler: a file read under the same
    /// profile, and its chosen groups' allow and disallow lines the same as these, as written
    /// and in the same order (their line numbers aside). Every URL then gets the same verdict
    /// from both. Compares the lines without compiling them; stops at the first that differs.
    pub fn same_rules(&self, other: &Crawler) -> bool {
        fn lines(crawler: &Crawler) -> impl Iterator<Item = (RuleKind, &[u8])> {
            let robots = crawler.robots();
            crawler
                .chosen()
                .indices
                .iter()
                .filter_map(|&i| robots.groups.get(i as usize))
                .flat_map(move |group| {
                    robots
                        .rule_lines
                        .get(group.rules.start as usize..group.rules.end as usize)
                        .unwrap_or_default()
                        .iter()
                        .map(move |rule| (rule.kind, rule.value.get(&robots.text)))
                })
        }
        self.robots().profile == other.robots().profile && lines(self).eq(lines(other))
    }

    /// The chosen groups with their compiled rules, in file order.
    pub fn groups(&self) -> impl Iterator<Item = (&Group, &GroupRules)> {
        self.chosen().groups(self.robots())
    }

    /// `url` read as this profile matches it ([`robotrules_url::Target`] under the profile's
    /// [`UrlReading`](crate::UrlReading)).
    ///
    /// # Errors
    /// A URL the profile cannot read (under the RFC reading: neither an absolute URL with a
    /// host nor a path starting with `/`).
    pub fn target<'u>(&self, url: &'u str) -> Result<Target<'u>, InvalidUrl> {
        self.chosen().target(self.robots(), url)
    }

    /// The URL whose origin was read as `origin`, read as this profile matches it, without
    /// reading its authority again (see [`robotrules_url::Target::of`]).
    pub fn target_of<'u>(&self, origin: &OriginRef<'u>) -> Target<'u> {
        Target::of(origin, self.robots().profile.reading().urls)
    }

    /// Is `url` (absolute, or a path starting with `/`) allowed?
    ///
    /// # Errors
    /// As [`Crawler::target`].
    pub fn is_allowed(&self, url: &str) -> Result<bool, InvalidUrl> {
        Ok(self.allows(&self.target(url)?))
    }

    /// The verdict on each of `urls`, in order: [`Crawler::is_allowed`] on each, which stops
    /// at the first URL the profile cannot read. An authority that is the one of the URL before
    /// is not checked again ([`robotrules_url::Targets`]).
    ///
    /// # Errors
    /// As [`Crawler::target`], for the first URL it refuses.
    pub fn allowed_many<'u>(
        &self,
        urls: impl IntoIterator<Item = &'u str>,
    ) -> Result<Vec<bool>, InvalidUrl> {
        let mut targets = Targets::new(self.robots().profile.reading().urls);
        urls.into_iter()
            .map(|url| match targets.parse(url) {
                Ok(target) => Ok(self.allows(&target)),
                Err(source) => Err(InvalidUrl {
                    url: url.to_owned(),
                    source,
                }),
            })
            .collect()
    }

    /// Is the URL read as `target` allowed? `target` must come from [`Crawler::target`] of a
    /// file read under the same profile.
    #[inline]
    pub fn allows(&self, target: &Target<'_>) -> bool {
        self.chosen().allows(self.robots(), target)
    }

    /// The verdict on the URL read as `target`, with the deciding rule and why: what
    /// [`Crawler::explain`] says first, without listing every matching rule (no allocation).
    #[inline]
    pub fn verdict(&self, target: &Target<'_>) -> Verdict {
        self.chosen().verdict(self.robots(), target)
    }

    /// The AI usage preferences for the URL read as `target` ([`Usage`]): none when the
    /// crawler may not crawl it (draft-ietf-aipref-attach-05 §3.1), else each vocabulary's
    /// answer per category with its deciding lines, and the combined answer. Reads the
    /// statements read once by [`Crawler::new`]; the crawl verdict is [`Crawler::verdict`]'s.
    pub fn usage(&self, target: &Target<'_>) -> Usage {
        if !self.verdict(target).allowed {
            return Usage::not_crawlable();
        }
        Usage::of(&self.inner.usage, target.path())
    }

    /// The statements that speak of the URL read as `target`, whether the crawler may crawl it
    /// or not, in file order: in each vocabulary, those whose path matches it with the most
    /// octets (all of them on a tie), else those without a path (draft-ietf-aipref-attach-05
    /// §3.1). [`Crawler::usage`] reads exactly these, for a URL it may crawl.
    pub fn usage_statements_for(&self, target: &Target<'_>) -> Vec<&UsageStatement> {
        let mut speaking: Vec<&UsageStatement> = crate::Vocabulary::ALL
            .into_iter()
            .flat_map(|vocabulary| self.inner.usage.applying(vocabulary, target.path()))
            .collect();
        speaking.sort_by_key(|s| s.line);
        speaking
    }

    /// The crawler's usage statements, in file order: its groups' `Content-Usage` and
    /// `Content-Signal` lines, and the file-wide `Content-Signal` lines the profile reads for
    /// every crawler ([`crate::FileWideSignal`]).
    pub fn usage_statements(&self) -> &[UsageStatement] {
        self.inner.usage.statements()
    }

    /// The crawl delay from the chosen groups' first valid `crawl-delay` record.
    pub fn crawl_delay(&self) -> Option<Duration> {
        // Records are in file order and so are the chosen groups: no `Extension` is made.
        let chosen = &self.chosen().indices;
        let robots = self.robots();
        robots
            .records
            .iter()
            .filter(|r| chosen.binary_search(&r.group).is_ok())
            .find_map(|r| r.crawl_delay(&robots.text))
    }

    /// The request rate from the chosen groups' first valid `request-rate` record.
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.extensions().iter().find_map(Extension::request_rate)
    }

    /// The values of the chosen groups' `visit-time` records, as written (`0100-0800`).
    pub fn visit_times(&self) -> Vec<String> {
        self.extensions()
            .into_iter()
            .filter(|e| e.kind == ExtensionKey::VisitTime)
            .map(|e| e.value)
            .collect()
    }

    /// The chosen groups' extension records, group by group in file order.
    pub fn extensions(&self) -> Vec<Extension> {
        let robots = self.robots();
        self.chosen()
            .indices
            .iter()
            .flat_map(|&g| robots.extensions_of(g))
            .collect()
    }

    /// Every `Sitemap:` URL in the file, as written (RFC 9309 §2.2.4: sitemaps belong to the
    /// file, not to a group).
    pub fn sitemaps(&self) -> impl Iterator<Item = &str> {
        self.robots().sitemaps()
    }

    /// Approximate heap bytes held by the crawler's compiled rules (the file is counted by
    /// [`RobotsTxt::heap_size`]).
    pub fn heap_size(&self) -> usize {
        let chosen = self.chosen();
        std::mem::size_of::<Inner>()
            + self.inner.name.len()
            + chosen.indices.len() * 4
            + chosen
                .groups
                .get()
                .map_or(0, |groups| groups.iter().map(GroupRules::heap_size).sum())
            + self.inner.usage.heap_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups of more than `FIRST_SCAN_MAX` rules (merged groups counted together) are
    /// compiled at the first check, with the answers a compiled crawler and the uncompiled
    /// scan give; smaller ones are not.
    #[test]
    fn large_groups_compile_at_the_first_check() {
        let rules = |n: usize, prefix: &str| -> String {
            (0..n)
                .map(|i| format!("disallow: /{prefix}{i}/*x\n"))
                .collect()
        };
        let at = FIRST_SCAN_MAX;
        let cases = [
            (format!("user-agent: a\n{}", rules(at, "p")), false),
            (format!("user-agent: a\n{}", rules(at + 1, "p")), true),
            // Two groups for `a`, merged (not where the profile takes the first record):
            // together past the limit.
            (
                format!(
                    "user-agent: a\n{}\nuser-agent: b\ndisallow: /\n\nuser-agent: a\n{}",
                    rules(at / 2, "p"),
                    rules(at / 2 + 1, "q")
                ),
                true,
            ),
        ];
        for (file, compiles) in cases {
            for profile in Profile::ALL {
                let robots = Arc::new(RobotsTxt::parse(file.as_bytes(), profile, 512_000));
                let first = Crawler::new(Arc::clone(&robots), "a").expect("a token");
                let later = Crawler::new(Arc::clone(&robots), "a").expect("a token");
                later.chosen().compiled(&robots);
                for path in ["/p7/yx", "/q3/x", "/p7", "/elsewhere"] {
                    let fresh = Crawler::new(Arc::clone(&robots), "a").expect("a token");
                    assert_eq!(
                        fresh.is_allowed(path).ok(),
                        later.is_allowed(path).ok(),
                        "{profile} {path}"
                    );
                    // The scan the first check skips for large groups answers alike.
                    let target = later.target(path).expect("a path");
                    let scanned = later.chosen().decide_uncompiled(&robots, target.path());
                    assert_eq!(
                        Some(scanned.is_none_or(|rule| rule.kind == RuleKind::Allow)),
                        later.is_allowed(path).ok(),
                        "{profile} {path}"
                    );
                }
                first.is_allowed("/p7/yx").expect("a path");
                let merged = robots.groups.len() > 2;
                let first_only = profile.reading().groups == GroupMerge::First;
                let compiles = compiles && !(merged && first_only);
                assert_eq!(
                    first.chosen().groups.get().is_some(),
                    compiles,
                    "{profile}, {} rules",
                    robots.rule_lines.len()
                );
            }
        }
    }

    /// One vector reused for every question gives what a new one and a crawler give: cleared
    /// each time, whatever was in it (longer selections before shorter ones included).
    #[test]
    fn a_reused_vector_of_groups_gives_what_a_new_one_gives() {
        let files = [
            // `a` in two groups (merged), one of them named twice in a row; two `*` groups.
            "user-agent: a\nuser-agent: a\ndisallow: /1\n\nuser-agent: *\ndisallow: /2\n\n\
             user-agent: b\nuser-agent: a\ndisallow: /3\n\nuser-agent: *\nallow: /4\n",
            // No `*` group: an unnamed crawler is unmatched.
            "user-agent: a\ndisallow: /\n",
            // A crawler whose name holds another's token (the 1994 reading's substring).
            "user-agent: ab\ndisallow: /x\n\nuser-agent: a\ndisallow: /y\n",
            "",
        ];
        let mut groups = vec![7; 9];
        for file in files {
            for profile in Profile::ALL {
                let robots = Arc::new(RobotsTxt::parse(file.as_bytes(), profile, 512_000));
                for name in ["a", "b", "ab", "abc", "c", "*"] {
                    let selection = robots.selection_into(name, &mut groups).expect("a token");
                    let fresh = robots.selection_of(name).expect("a token");
                    assert_eq!(
                        (selection, groups.clone()),
                        fresh,
                        "{profile} {name} {file:?}"
                    );
                    let crawler = Crawler::new(Arc::clone(&robots), name).expect("a token");
                    assert_eq!((crawler.selection(), crawler.group_indices()), fresh);
                }
            }
        }
        // A refused name leaves the vector empty.
        let robots = RobotsTxt::parse(files[0].as_bytes(), Profile::Rfc9309, 512_000);
        assert!(robots.selection_into("a b", &mut groups).is_err());
        assert!(groups.is_empty());
    }
}

//! The usage decision, rule by rule (draft-ietf-aipref-attach-05 §3.1, draft-ietf-aipref-vocab-07
//! §5.1 and §6.5, draft-romm-aipref-contentsignals-00).

use std::sync::Arc;

use rstest::rstest;

use super::*;
use crate::{Crawler, Profile, RobotsTxt};
use Outcome::{Allowed, Disallowed, Unknown};
use Vocabulary::{Aipref, ContentSignals};

fn crawler(file: &str, profile: Profile, name: &str) -> Crawler {
    let robots = Arc::new(RobotsTxt::parse(file.as_bytes(), profile, 512_000));
    Crawler::new(robots, name).unwrap()
}

fn usage_of(file: &str, profile: Profile, name: &str, url: &str) -> Usage {
    let crawler = crawler(file, profile, name);
    let target = crawler.target(url).unwrap();
    crawler.usage(&target)
}

/// `(outcome, deciding lines)` of one category in one vocabulary, under `rfc9309`.
fn category(
    file: &str,
    name: &str,
    url: &str,
    vocabulary: Vocabulary,
    label: &str,
) -> (Outcome, Vec<u32>) {
    let usage = usage_of(file, Profile::Rfc9309, name, url);
    usage
        .category(vocabulary, label)
        .map_or((Unknown, vec![]), |c| (c.outcome, c.lines.clone()))
}

/// attach-05 §3.4, Figure 2 and its table.
const ATTACH_EXAMPLE: &str = "User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
";

/// attach-05 §3.4: the table for `*`, and ExampleBot's group, in every profile.
#[rstest]
#[case("AnyBot", "/test", true, Disallowed, vec![4])]
#[case("AnyBot", "/never/test", false, Unknown, vec![])]
#[case("AnyBot", "/ai-ok/test", true, Allowed, vec![5])]
#[case("ExampleBot", "/test", true, Allowed, vec![9])]
#[case("ExampleBot", "/never/test", true, Allowed, vec![9])]
#[case("ExampleBot", "/ai-ok/test", true, Allowed, vec![9])]
fn the_attach_draft_example(
    #[case] name: &str,
    #[case] url: &str,
    #[case] crawlable: bool,
    #[case] train: Outcome,
    #[case] lines: Vec<u32>,
    #[values(Profile::Rfc9309, Profile::Google)] profile: Profile,
) {
    let usage = usage_of(ATTACH_EXAMPLE, profile, name, url);
    assert_eq!(usage.crawlable, crawlable);
    assert_eq!(usage.outcome(Aipref, "train-ai"), train);
    let decided = usage.category(Aipref, "train-ai").map(|c| c.lines.clone());
    assert_eq!(decided.unwrap_or_default(), lines);
    assert_eq!(usage.outcome(Aipref, "search"), Unknown);
}

/// Under the 1994 convention the first matching rule decides: `Allow: /` comes first, so
/// `/never/test` is crawlable, and the path-less line applies to it.
#[test]
fn the_attach_draft_example_under_the_1994_convention() {
    let usage = usage_of(ATTACH_EXAMPLE, Profile::Legacy1994, "AnyBot", "/never/test");
    assert!(usage.crawlable);
    assert_eq!(usage.outcome(Aipref, "train-ai"), Disallowed);
}

/// attach-05 §3.1: "no preferences are implied for resources that are disallowed" — nothing
/// is reported, however the lines read.
#[test]
fn a_disallowed_url_has_no_preference() {
    let file = "user-agent: *\ndisallow: /private/\ncontent-usage: /private/ train-ai=y\ncontent-signal: search=yes\n";
    let usage = usage_of(file, Profile::Rfc9309, "Bot", "/private/x");
    assert_eq!(usage, Usage::not_crawlable());
    assert!(usage.vocabularies.is_empty() && usage.combined.is_empty());
    assert_eq!(usage.combined(SharedCategory::Search), Unknown);
}

/// attach-05 §3.1: the longest matching path wins, counted in octets as for Allow/Disallow;
/// a path beats a statement without one.
#[rstest]
#[case("/a/b/c", Allowed, vec![4])]
#[case("/a/x", Disallowed, vec![3])]
#[case("/b", Unknown, vec![])]
#[case("/", Allowed, vec![5])]
fn longest_path_wins(#[case] url: &str, #[case] outcome: Outcome, #[case] lines: Vec<u32>) {
    let file = "user-agent: *\nallow: /\ncontent-usage: /a/ train-ai=n\ncontent-usage: /a/b/ train-ai=y\ncontent-usage: train-ai=y, search=n\ncontent-usage: /b search=y\n";
    let (got, at) = category(file, "Bot", url, Aipref, "train-ai");
    // `/b` matches line 6 only, which says nothing of train-ai: unknown, not line 5's `y`.
    assert_eq!((got, at), (outcome, lines));
}

/// attach-05 §3.1 with vocab-07 §5.1: statements with paths of equal length combine
/// most-restrictively, whatever their order; each deciding line is reported.
#[rstest]
#[case(&["/a train-ai=y", "/a train-ai=n"], Disallowed, vec![4])]
#[case(&["/a train-ai=n", "/a train-ai=y"], Disallowed, vec![3])]
#[case(&["/a train-ai=y", "/a train-ai=y, search=n"], Allowed, vec![3, 4])]
#[case(&["/a train-ai=y", "/a search=n"], Allowed, vec![3])]
#[case(&["/a train-ai=n", "/a train-ai=n"], Disallowed, vec![3, 4])]
#[case(&["/a search=y", "/a train-ai=maybe"], Unknown, vec![])]
// Paths of equal length but different text: both match `/ab`, both apply.
#[case(&["/a* train-ai=y", "/ab train-ai=n"], Disallowed, vec![4])]
// Without paths, all apply.
#[case(&["train-ai=y", "train-ai=n"], Disallowed, vec![4])]
fn equal_lengths_combine_most_restrictively(
    #[case] values: &[&str],
    #[case] outcome: Outcome,
    #[case] lines: Vec<u32>,
) {
    let mut file = String::from("user-agent: *\nallow: /\n");
    for v in values {
        file.push_str(&format!("content-usage: {v}\n"));
    }
    assert_eq!(
        category(&file, "Bot", "/ab", Aipref, "train-ai"),
        (outcome, lines)
    );
}

/// vocab-07 §6.4: unknown labels are ignored — they change no defined category — and are
/// reported in their vocabulary's terms; labels of the other vocabulary are no exception.
#[test]
fn unknown_labels_are_reported_and_ignored() {
    let file = "user-agent: *\ncontent-usage: train-genai=n, train-ai=y, ai-train=n\n";
    let usage = usage_of(file, Profile::Rfc9309, "Bot", "/");
    let labels: Vec<(&str, Outcome)> = usage
        .vocabulary(Aipref)
        .unwrap()
        .categories
        .iter()
        .map(|c| (c.label.as_str(), c.outcome))
        .collect();
    assert_eq!(
        labels,
        [
            ("train-ai", Allowed),
            ("search", Unknown),
            ("train-genai", Disallowed),
            ("ai-train", Disallowed)
        ]
    );
    // `ai-train` in Content-Usage is not Cloudflare's label: the combined answer is `y`.
    assert_eq!(usage.combined(SharedCategory::TrainAi), Allowed);
    assert_eq!(usage.outcome(ContentSignals, "ai-train"), Unknown);
}

/// vocab-07 §6.5.1: a Dictionary that does not parse gives unknown for every category; the
/// statement still applies (its path is the longest), so a shorter path does not decide.
#[rstest]
#[case::uppercase("Train-AI=n")]
#[case::trailing_comma("train-ai=n,")]
#[case::not_a_dictionary("train-ai = n")]
#[case::cloudflare_separator("train-ai=n;search=n foo")]
fn an_unparsed_dictionary_is_unknown(#[case] preference: &str) {
    let file =
        format!("user-agent: *\ncontent-usage: train-ai=y\ncontent-usage: /a {preference}\n");
    let usage = usage_of(&file, Profile::Rfc9309, "Bot", "/a");
    let aipref = usage.vocabulary(Aipref).unwrap();
    assert_eq!(
        (aipref.applied.clone(), aipref.unparsed.clone()),
        (vec![3], vec![3])
    );
    assert!(aipref.categories.iter().all(|c| c.outcome == Unknown));
    // Elsewhere the path-less line applies.
    assert_eq!(
        category(&file, "Bot", "/b", Aipref, "train-ai"),
        (Allowed, vec![2])
    );
}

/// vocab-07 §6.5: only the Tokens `y` and `n` state a preference in AIPREF; Cloudflare's
/// content signals read `yes` and `no`.
#[rstest]
#[case("content-usage: train-ai=n", Aipref, "train-ai", Disallowed)]
#[case("content-usage: train-ai=no", Aipref, "train-ai", Unknown)]
#[case("content-usage: train-ai", Aipref, "train-ai", Unknown)]
#[case("content-usage: train-ai=\"n\"", Aipref, "train-ai", Unknown)]
#[case("content-usage: train-ai;q=n", Aipref, "train-ai", Unknown)]
#[case("content-signal: ai-train=no", ContentSignals, "ai-train", Disallowed)]
#[case("content-signal: ai-input=yes", ContentSignals, "ai-input", Allowed)]
#[case("content-signal: search=y", ContentSignals, "search", Unknown)]
#[case("content-signal: search=n", ContentSignals, "search", Unknown)]
fn each_vocabulary_reads_its_own_values(
    #[case] line: &str,
    #[case] vocabulary: Vocabulary,
    #[case] label: &str,
    #[case] outcome: Outcome,
) {
    let file = format!("user-agent: *\n{line}\n");
    assert_eq!(category(&file, "Bot", "/x", vocabulary, label).0, outcome);
}

/// Cloudflare's three labels are always reported, AIPREF's two.
#[test]
fn every_defined_label_is_reported() {
    let usage = usage_of("user-agent: *\nallow: /\n", Profile::Rfc9309, "Bot", "/");
    for vocabulary in Vocabulary::ALL {
        let labels: Vec<&str> = usage
            .vocabulary(vocabulary)
            .unwrap()
            .categories
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(labels, vocabulary.labels());
    }
}

/// The shared categories combine both vocabularies most-restrictively (vocab-07 §5.1), with
/// the deciding lines of both; `ai-input` has no AIPREF counterpart.
#[rstest]
#[case("content-usage: train-ai=y", "content-signal: ai-train=no", SharedCategory::TrainAi, Disallowed, vec![3])]
#[case("content-usage: train-ai=n", "content-signal: ai-train=yes", SharedCategory::TrainAi, Disallowed, vec![2])]
#[case("content-usage: train-ai=y", "content-signal: ai-train=yes", SharedCategory::TrainAi, Allowed, vec![2, 3])]
#[case("content-usage: train-ai=y", "content-signal: search=no", SharedCategory::TrainAi, Allowed, vec![2])]
#[case("content-usage: search=n", "content-signal: search=yes", SharedCategory::Search, Disallowed, vec![2])]
#[case("content-usage: search=y", "content-signal: ai-input=no", SharedCategory::Search, Allowed, vec![2])]
#[case("content-usage: train-ai=y", "content-signal: ai-input=no", SharedCategory::Search, Unknown, vec![])]
fn shared_categories_combine(
    #[case] usage_line: &str,
    #[case] signal_line: &str,
    #[case] shared: SharedCategory,
    #[case] outcome: Outcome,
    #[case] lines: Vec<u32>,
) {
    let file = format!("user-agent: *\n{usage_line}\n{signal_line}\n");
    let usage = usage_of(&file, Profile::Rfc9309, "Bot", "/");
    let combined = usage
        .combined
        .iter()
        .find(|c| c.category == shared)
        .unwrap();
    assert_eq!((combined.outcome, combined.lines.clone()), (outcome, lines));
}

/// A `Content-Signal` outside any group speaks to every crawler (`FileWideSignal::
/// EveryCrawler`), as a statement without a path beside the crawler's own; a
/// `Content-Usage` outside any group is not read (attach-05 §3: a group rule).
#[rstest]
#[case("Bot", "/x", Disallowed, vec![1])]
#[case("NamedBot", "/x", Disallowed, vec![1, 6])]
#[case("NamedBot", "/open/x", Allowed, vec![7])]
fn a_file_wide_signal_applies_to_every_crawler(
    #[case] name: &str,
    #[case] url: &str,
    #[case] outcome: Outcome,
    #[case] lines: Vec<u32>,
) {
    let file = "content-signal: ai-train=no\ncontent-usage: train-ai=n\nuser-agent: *\nallow: /\nuser-agent: NamedBot\ncontent-signal: ai-train=no, search=yes\ncontent-signal: /open/ ai-train=yes\nallow: /\n";
    assert_eq!(
        category(file, name, url, ContentSignals, "ai-train"),
        (outcome, lines)
    );
    assert_eq!(
        category(file, name, url, Aipref, "train-ai"),
        (Unknown, vec![])
    );
}

/// Only the crawler's own groups speak to it (RFC 9309 §2.2.1 group selection): a
/// `Content-Signal` in the `*` group does not reach a crawler a group names.
#[test]
fn only_the_crawlers_groups_apply() {
    let file = "user-agent: *\nallow: /\ncontent-signal: ai-train=no\n\nuser-agent: GoodBot\nallow: /\n\nuser-agent: GoodBot\ncontent-usage: train-ai=y\n";
    assert_eq!(
        category(file, "OtherBot", "/", ContentSignals, "ai-train").0,
        Disallowed
    );
    assert_eq!(
        category(file, "GoodBot", "/", ContentSignals, "ai-train").0,
        Unknown
    );
    // GoodBot's two groups are merged, as for crawl rules.
    assert_eq!(
        category(file, "GoodBot", "/", Aipref, "train-ai"),
        (Allowed, vec![9])
    );
}

/// Paths are matched as the profile matches Allow/Disallow paths: wildcards and the end
/// anchor in `rfc9309` and `google`, literal prefixes in `legacy1994`; the canonical
/// percent-encoding in `rfc9309`.
#[rstest]
#[case(Profile::Rfc9309, "/doc.pdf", Disallowed)]
#[case(Profile::Google, "/doc.pdf", Disallowed)]
#[case(Profile::Legacy1994, "/doc.pdf", Unknown)]
#[case(Profile::Rfc9309, "/doc.pdf?x", Unknown)]
#[case(Profile::Rfc9309, "/%7Ea/x", Allowed)]
#[case(Profile::Legacy1994, "/*.pdf$", Disallowed)]
fn paths_match_as_the_profile_matches_rules(
    #[case] profile: Profile,
    #[case] url: &str,
    #[case] outcome: Outcome,
) {
    let file = "user-agent: *\ncontent-usage: /*.pdf$ train-ai=n\ncontent-usage: /~a/ train-ai=y\n";
    let usage = usage_of(file, profile, "Bot", url);
    assert_eq!(usage.outcome(Aipref, "train-ai"), outcome);
}

/// Reading usage lines changes no crawl verdict, in any profile: the verdict on every URL is
/// the one of the file without them.
#[rstest]
fn usage_lines_change_no_crawl_verdict(
    #[values(Profile::Rfc9309, Profile::Google, Profile::Legacy1994)] profile: Profile,
) {
    let with = "content-signal: search=yes\nuser-agent: a\ncontent-usage: /x train-ai=n\nuser-agent: b\ncontent-signal: ai-train=no\ndisallow: /x\nallow: /x/y\ncontent-usage: /x/y/ train-ai=y\n\nuser-agent: *\ncontent-usage: /\ndisallow: /p\n";
    let without: String = with
        .lines()
        .filter(|l| !l.starts_with("content-"))
        .map(|l| format!("{l}\n"))
        .collect();
    for name in ["a", "b", "c"] {
        let (c1, c2) = (
            crawler(with, profile, name),
            crawler(&without, profile, name),
        );
        for url in ["/", "/x", "/x/y", "/x/y/z", "/p", "/q"] {
            let (t1, t2) = (c1.target(url).unwrap(), c2.target(url).unwrap());
            let (v1, v2) = (c1.verdict(&t1), c2.verdict(&t2));
            let pattern = |c: &Crawler, v: &crate::Verdict| {
                v.rule.map(|r| (r.kind, r.value(c.robots()).into_owned()))
            };
            assert_eq!(
                (v1.allowed, v1.reason),
                (v2.allowed, v2.reason),
                "{profile} {name} {url}"
            );
            assert_eq!(
                pattern(&c1, &v1),
                pattern(&c2, &v2),
                "{profile} {name} {url}"
            );
            assert_eq!(c1.usage(&t1).crawlable, c1.verdict(&t1).allowed);
        }
    }
}

/// attach-05 §2: the header is one more AIPREF statement, combined most-restrictively.
#[rstest]
#[case("train-ai=y", b"train-ai=n", Disallowed, vec![], true)]
#[case("train-ai=n", b"train-ai=y", Disallowed, vec![2], false)]
#[case("train-ai=n", b"train-ai=n", Disallowed, vec![2], true)]
#[case("search=n", b"train-ai=y", Allowed, vec![], true)]
#[case("train-ai=y", b"Train-AI=n", Allowed, vec![2], false)]
#[case("train-ai=y", b"", Allowed, vec![2], false)]
fn the_header_combines_with_the_file(
    #[case] preference: &str,
    #[case] header: &[u8],
    #[case] outcome: Outcome,
    #[case] lines: Vec<u32>,
    #[case] from_header: bool,
) {
    let file = format!("user-agent: *\ncontent-usage: {preference}\n");
    let usage = usage_of(&file, Profile::Rfc9309, "Bot", "/").with_header(header);
    let train = usage.category(Aipref, "train-ai").unwrap();
    assert_eq!(
        (train.outcome, train.lines.clone(), train.header),
        (outcome, lines, from_header)
    );
    let combined = &usage.combined[0];
    assert_eq!((combined.outcome, combined.header), (outcome, from_header));
}

#[test]
fn the_header_does_not_make_a_disallowed_url_crawlable() {
    let usage = usage_of(
        "user-agent: *\ndisallow: /\n",
        Profile::Rfc9309,
        "Bot",
        "/x",
    );
    assert_eq!(usage.clone().with_header(b"train-ai=y"), usage);
}

/// Bounded work: a line of thirty thousand labels (under the parse limit) is read once and
/// reported linearly.
#[test]
fn many_labels_are_read_linearly() {
    let members: Vec<String> = (0..30_000).map(|i| format!("l{i}=n")).collect();
    let file = format!("user-agent: *\ncontent-usage: {}\n", members.join(", "));
    let usage = usage_of(&file, Profile::Rfc9309, "Bot", "/");
    assert_eq!(usage.vocabulary(Aipref).unwrap().categories.len(), 30_002);
}

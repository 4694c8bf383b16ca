//! The behaviours a new user meets, each asserted on codes, lines and message text: which
//! notes appear by default, what a misspelt group line does to the lines below it, the byte
//! order mark's help, and a file that is not text.

#![allow(clippy::unwrap_used)]

use crate::support::noise;

use robotrules_lint::{lint, Code, Finding, Level, LevelTarget, Levels, LintOptions, Profile};

fn lint_for(source: &[u8], profile: Profile) -> Vec<Finding> {
    let options = LintOptions {
        profile,
        ..LintOptions::default()
    };
    lint(source, &options).findings
}

fn codes(findings: &[Finding]) -> Vec<(Code, u32)> {
    findings.iter().map(|f| (f.code, f.line)).collect()
}

const WORDPRESS: &[u8] = b"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n";

#[test]
fn rule_order_is_reported_only_for_first_match_readers_or_when_asked() {
    for profile in [Profile::Rfc9309, Profile::Google] {
        assert_eq!(codes(&lint_for(WORDPRESS, profile)), [], "{profile}");
    }
    let legacy = lint_for(WORDPRESS, Profile::Legacy1994);
    assert_eq!(codes(&legacy), [(Code::RuleOrder, 3)]);
    assert_eq!(legacy[0].severity, robotrules_lint::Severity::Note);
    assert_eq!(
        legacy[0].message,
        "`Allow: /wp-admin/admin-ajax.php` is never used by first-match readers: \
         `Disallow: /wp-admin/` (line 2) matches every URL it does, first"
    );
    // `-W rule-order` asks for it under any profile: a warning.
    let asked = LintOptions {
        levels: Levels::from_list([(LevelTarget::Code(Code::RuleOrder), Level::Warn)]),
        ..LintOptions::default()
    };
    let report = lint(WORDPRESS, &asked);
    assert_eq!(codes(&report.findings), [(Code::RuleOrder, 3)]);
    assert_eq!(
        report.findings[0].severity,
        robotrules_lint::Severity::Warning
    );
    assert_eq!(report.findings[0].profiles, [Profile::Legacy1994]);
    // A group level does not bring it back: `-W notes` names the notes that are reported.
    let notes = LintOptions {
        levels: Levels::from_list([(LevelTarget::Notes, Level::Warn)]),
        ..LintOptions::default()
    };
    assert_eq!(codes(&lint(WORDPRESS, &notes).findings), []);
    // `-A rule-order` under legacy1994 leaves it out.
    let allowed = LintOptions {
        profile: Profile::Legacy1994,
        levels: Levels::from_list([(LevelTarget::Code(Code::RuleOrder), Level::Allow)]),
        ..LintOptions::default()
    };
    assert_eq!(codes(&lint(WORDPRESS, &allowed).findings), []);
    assert!(Code::RuleOrder.allowed_by_default(Profile::Rfc9309));
    assert!(!Code::RuleOrder.allowed_by_default(Profile::Legacy1994));
    assert!(!Code::MisspeltKey.allowed_by_default(Profile::Rfc9309));
}

#[test]
fn the_byte_order_mark_help_names_the_real_first_key() {
    let findings = lint_for(
        b"\xEF\xBB\xBFDisallow: /private\nUser-agent: *\n",
        Profile::Rfc9309,
    );
    let bom = findings
        .iter()
        .find(|f| f.code == Code::ByteOrderMark)
        .unwrap();
    assert_eq!(
        (bom.line, bom.severity),
        (1, robotrules_lint::Severity::Warning)
    );
    let help = bom.help.as_deref().unwrap();
    assert!(
        help.contains("reads the first key as `<U+FEFF>Disallow`"),
        "{help}"
    );
    assert!(
        help.contains("loses the first line, `Disallow: /private`"),
        "{help}"
    );
    assert!(!help.contains("user-agent"), "{help}");

    let findings = lint_for(
        b"\xEF\xBB\xBFuser-agent: *\ndisallow: /x\n",
        Profile::Google,
    );
    let help = findings[0].help.as_deref().unwrap();
    assert!(help.contains("`<U+FEFF>user-agent`"), "{help}");

    // Part of a mark: its bytes, not U+FEFF.
    let findings = lint_for(b"\xEF\xBBUser-agent: *\nDisallow: /x\n", Profile::Rfc9309);
    let help = findings[0].help.as_deref().unwrap();
    assert!(help.contains("`<EF><BB>User-agent`"), "{help}");

    // A comment first: nothing is lost, a note that says so.
    let findings = lint_for(
        b"\xEF\xBB\xBF# robots\nUser-agent: *\nDisallow: /x\n",
        Profile::Rfc9309,
    );
    assert_eq!(codes(&findings), [(Code::ByteOrderMark, 1)]);
    assert_eq!(findings[0].severity, robotrules_lint::Severity::Note);
    assert!(findings[0]
        .help
        .as_deref()
        .unwrap()
        .contains("loses nothing yet"));
}

#[test]
fn a_file_that_is_not_text_gets_one_finding() {
    for profile in Profile::ALL {
        let report = lint(
            &noise(300_000, 1),
            &LintOptions {
                profile,
                ..LintOptions::default()
            },
        );
        assert_eq!(
            report.findings.len(),
            1,
            "{profile}: {:#?}",
            report.findings
        );
        assert_eq!(report.truncated_count, 0);
        assert_eq!((report.errors, report.warnings, report.notes), (1, 0, 0));
        let f = &report.findings[0];
        assert_eq!(f.code, Code::NotText);
        assert_eq!(f.profiles, Profile::ALL);
        assert!(
            f.message.starts_with("the file is not a text file: ")
                && f.message.contains("of its first 65536 bytes")
                && f.message.contains("are control characters"),
            "{}",
            f.message
        );
        assert!(f.help.as_deref().unwrap().contains("Serve the text file"));
    }
    // A file of NUL bytes only.
    let nul = lint(&[0; 100_000], &LintOptions::default());
    assert_eq!(codes(&nul.findings), [(Code::NotText, 1)]);
    assert!(
        nul.findings[0]
            .message
            .contains("100000 of its first 65536")
            || nul.findings[0].message.contains("65536 of its first 65536")
    );
    // The line of the first control byte.
    let mut late = b"User-agent: *\nDisallow: /a\n".to_vec();
    late.extend(noise(2_000, 2));
    let report = lint(&late, &LintOptions::default());
    assert_eq!(report.findings.len(), 1, "{:#?}", report.findings);
    assert_eq!(report.findings[0].code, Code::NotText);
    assert!(report.findings[0].line >= 3, "{:?}", report.findings[0]);
}

#[test]
fn text_with_stray_bytes_is_still_text() {
    // Rules, then NUL padding (as one file of the real sample has): `nul-byte`, not `not-text`.
    let mut padded = b"User-agent: *\nDisallow: /a\n".to_vec();
    padded.extend([0; 8_000]);
    let findings = lint_for(&padded, Profile::Rfc9309);
    assert_eq!(codes(&findings), [(Code::NulByte, 3)]);
    // Latin-1: `invalid-utf8` findings, no `not-text`.
    let latin1 = b"# R\xE8gles\nUser-agent: *\nDisallow: /caf\xE9/\n";
    let findings = lint_for(latin1, Profile::Rfc9309);
    assert!(
        findings.iter().all(|f| f.code == Code::InvalidUtf8),
        "{findings:#?}"
    );
    assert!(!findings.is_empty());
}

/// The file of the issue: a `*` group, then a group for `BadBot` whose user-agent line is
/// misspelt.
const BADBOT: &[u8] =
    b"User-agent: *\nAllow: /\n\nUser agent: BadBot\nDisallow: /\nCrawl-delay: 10\n";

fn misspelt(findings: &[Finding], line: u32) -> &Finding {
    findings
        .iter()
        .find(|f| f.code == Code::MisspeltKey && f.line == line)
        .unwrap_or_else(|| panic!("no misspelt-key on line {line}: {findings:#?}"))
}

#[test]
fn a_misspelt_group_line_says_where_the_lines_below_it_go_in_each_profile() {
    let findings = lint_for(BADBOT, Profile::Rfc9309);
    let f = misspelt(&findings, 4);
    assert_eq!(f.severity, robotrules_lint::Severity::Error);
    assert_eq!(
        f.message,
        "`User agent` is not a directive; did you mean `user-agent`?"
    );
    assert_eq!(
        f.label.as_deref(),
        Some("ignored by rfc9309 and legacy1994: the lines below join the `*` group")
    );
    let help = f.help.as_deref().unwrap();
    assert!(
        help.contains(
            "What the lines meant for `BadBot` become: under rfc9309 and legacy1994, \
             `Disallow: /` (line 5) and `Crawl-delay: 10` (line 6) join the `*` group (line 1), \
             so they apply to every crawler that group covers"
        ),
        "{help}"
    );
    assert!(
        help.contains(
            "google reads it as a user-agent line: the lines below it are the group for `BadBot`"
        ),
        "{help}"
    );
    let related: Vec<(u32, &str)> = f
        .related
        .iter()
        .map(|r| (r.line, r.label.as_str()))
        .collect();
    assert_eq!(
        related,
        [
            (1, "the `*` group starts here (rfc9309)"),
            (5, "in the `*` group under rfc9309"),
            (6, "in the `*` group under rfc9309"),
        ]
    );
    // Under google the line is accepted: a warning, labelled as before, with the same
    // per-profile account.
    let findings = lint_for(BADBOT, Profile::Google);
    let f = misspelt(&findings, 4);
    assert_eq!(f.severity, robotrules_lint::Severity::Warning);
    assert_eq!(
        f.label.as_deref(),
        Some("read as `user-agent` by google only")
    );
    assert!(f
        .help
        .as_deref()
        .unwrap()
        .contains("join the `*` group (line 1)"));
}

#[test]
fn a_misspelt_group_line_names_a_named_group_and_lines_that_belong_to_none() {
    // Below a named group: the rule now applies to Googlebot.
    let source = b"User-agent: Googlebot\nDisallow: /x\nUseragent: BadBot\nDisallow: /\n";
    let f = misspelt(&lint_for(source, Profile::Rfc9309), 3).clone();
    let help = f.help.unwrap();
    assert!(
        help.contains(
            "under rfc9309 and legacy1994, `Disallow: /` (line 4) joins the group for \
             `Googlebot` (line 1), so it applies to `Googlebot`"
        ),
        "{help}"
    );
    assert_eq!(
        f.label.as_deref(),
        Some("ignored by rfc9309 and legacy1994: the lines below join the group for `Googlebot`")
    );
    // First in the file: the lines below belong to no group.
    let findings = lint_for(b"User agent: BadBot\nDisallow: /\n", Profile::Rfc9309);
    assert_eq!(
        codes(&findings),
        [(Code::MisspeltKey, 1), (Code::RuleOutsideGroup, 2)]
    );
    let help = findings[0].help.as_deref().unwrap();
    assert!(
        help.contains(
            "under rfc9309 and legacy1994, `Disallow: /` (line 2) follows no user-agent line \
             and is ignored"
        ),
        "{help}"
    );
    assert!(findings[0].related.is_empty());
    // A spelling no profile reads: the same account for every profile.
    let source = b"User-agent: *\nDisallow: /a\nUser_agent: BadBot\nDisallow: /\n";
    let f = misspelt(&lint_for(source, Profile::Google), 3).clone();
    assert_eq!(
        f.label.as_deref(),
        Some("ignored by every profile: the lines below join the `*` group")
    );
    assert!(
        f.help.as_deref().unwrap().contains(
            "under rfc9309, google and legacy1994, `Disallow: /` (line 4) joins the `*` group \
             (line 1)"
        ),
        "{:?}",
        f.help
    );
    // Nothing below before the next user-agent line: said so, nothing moves.
    let source =
        b"User-agent: *\nDisallow: /a\nUser agent: BadBot\nUser-agent: Other\nDisallow: /\n";
    let f = misspelt(&lint_for(source, Profile::Rfc9309), 3).clone();
    assert!(
        f.help.as_deref().unwrap().contains(
            "under rfc9309 and legacy1994, no rule or record follows it before the next \
             user-agent line"
        ),
        "{:?}",
        f.help
    );
    assert!(f.related.is_empty());
    // A missing colon on a group line: the same account, on the `missing-colon` finding.
    let source = b"User-agent: *\nDisallow: /a\nUser-agent BadBot\nDisallow: /\n";
    let findings = lint_for(source, Profile::Rfc9309);
    let f = findings
        .iter()
        .find(|f| f.code == Code::MissingColon && f.line == 3)
        .unwrap();
    assert!(
        f.help.as_deref().unwrap().contains(
            "under rfc9309 and legacy1994, `Disallow: /` (line 4) joins the `*` group (line 1)"
        ),
        "{:?}",
        f.help
    );
    // A misspelt rule below is ignored for its spelling (its own finding), not named as
    // ignored for where it stands.
    let source = b"User agent: BadBot\nDissallow: /\n";
    let f = misspelt(&lint_for(source, Profile::Rfc9309), 1).clone();
    assert!(
        f.help.as_deref().unwrap().contains(
            "under rfc9309 and legacy1994, no rule or record follows it before the next \
             user-agent line"
        ),
        "{:?}",
        f.help
    );
    // A misspelt rule key is no group line: no account of lines below.
    let f = misspelt(
        &lint_for(
            b"User-agent: *\nDissallow: /x\nAllow: /y\n",
            Profile::Rfc9309,
        ),
        2,
    )
    .clone();
    assert!(!f.help.unwrap().contains("What the lines"));
}

/// A record (`crawl-delay`) moves with the group line as a rule does: each profile's model
/// says which group holds it, and the lint repeats that.
#[test]
fn a_record_below_a_misspelt_group_line_moves_too() {
    let source = b"User-agent: Googlebot\nDisallow: /x\nUser agent: BadBot\nCrawl-delay: 10\n";
    let f = misspelt(&lint_for(source, Profile::Rfc9309), 3).clone();
    let help = f.help.unwrap();
    assert!(
        help.contains("`Crawl-delay: 10` (line 4) joins the group for `Googlebot` (line 1)"),
        "{help}"
    );
}

/// `License`, `LLM-Policy` and the keys of Google's known-but-unsupported list that robotrules
/// does not read (`domain`, `revisit-after`) are not unknown directives; `noindex` keeps its
/// warning.
#[test]
fn known_records_are_not_unknown_directives() {
    let file = b"User-agent: *\nAllow: /\nLicense: https://example.com/license.xml\nLLM-Policy: https://example.com/llm.txt\nDomain: example.com\nRevisit-After: 7 days\nContent-Signal: search=yes\nNoindex: /x\n";
    for profile in Profile::ALL {
        assert_eq!(
            codes(&lint_for(file, profile)),
            [(Code::UnknownDirective, 8)],
            "{profile}"
        );
    }
}

/// A Dictionary that does not parse is shown at the byte where it stops, under every profile.
#[test]
fn a_preference_that_does_not_parse_is_shown_at_its_offending_byte() {
    let file = b"User-agent: *\nContent-Usage: /a/ train-ai=y, Search=n\n";
    for profile in Profile::ALL {
        let findings = lint_for(file, profile);
        assert_eq!(codes(&findings), [(Code::PreferenceNotADictionary, 2)]);
        let at = findings[0].span;
        assert_eq!(&file[at.start..at.end], b"S", "{profile}");
    }
}

/// The usage lints fire on what they name and stay quiet on the forms they suggest.
#[test]
fn usage_lints_fire_on_their_forms_only() {
    let fires: [(&[u8], Code); 6] = [
        (
            b"User-agent: *\nContent-Usage: train-ai=yes\n",
            Code::PreferenceValue,
        ),
        (
            b"User-agent: *\nContent-Signal: ai-train=n\n",
            Code::PreferenceValue,
        ),
        (
            b"User-agent: *\nContent-Usage: ai=n\n",
            Code::UndefinedUsageLabel,
        ),
        (
            b"Content-Usage: train-ai=n\nUser-agent: *\nAllow: /\n",
            Code::UsageOutsideGroup,
        ),
        (
            b"User-agent: *\nDisallow: /a/\nContent-Usage: /a/b train-ai=n\n",
            Code::UsagePathDisallowed,
        ),
        (
            b"User-agent: CCBot\nDisallow: /\nContent-Usage: train-ai=y\n",
            Code::UsageContradictsCrawl,
        ),
    ];
    for (file, code) in fires {
        let found = codes(&lint_for(file, Profile::Rfc9309));
        assert!(found.iter().any(|(c, _)| *c == code), "{code}: {found:?}");
    }
    // `search=yes` for every crawler while Googlebot's own group blocks everything: a note.
    let search = b"User-agent: *\nAllow: /\nContent-Signal: search=yes\n\nUser-agent: Googlebot\nDisallow: /\n";
    let found = lint_for(search, Profile::Rfc9309);
    assert_eq!(codes(&found), [(Code::UsageContradictsCrawl, 3)]);
    assert_eq!(found[0].severity, robotrules_lint::Severity::Note);
    assert!(
        found[0].message.contains("`Googlebot`"),
        "{}",
        found[0].message
    );
    // Googlebot allowed, or search not allowed: nothing.
    for file in [
        &b"User-agent: *\nAllow: /\nContent-Signal: search=yes\n\nUser-agent: Googlebot\nDisallow: /private\n"[..],
        b"User-agent: *\nAllow: /\nContent-Signal: search=no\n\nUser-agent: Googlebot\nDisallow: /\n",
    ] {
        assert_eq!(codes(&lint_for(file, Profile::Rfc9309)), []);
    }
    let quiet: [&[u8]; 5] = [
        b"User-agent: *\nContent-Usage: train-ai=n, search=y\n",
        b"User-agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no\n",
        // A path under a disallow that an allow rule opens again.
        b"User-agent: *\nDisallow: /a/\nAllow: /a/b/open\nContent-Usage: /a/b train-ai=n\n",
        // A disallowed crawler whose preference disallows: no contradiction.
        b"User-agent: CCBot\nDisallow: /\nContent-Usage: train-ai=n\n",
        // A crawler blocked from `/` but allowed a part of the site.
        b"User-agent: CCBot\nDisallow: /\nAllow: /public/\nContent-Usage: train-ai=y\n",
    ];
    for file in quiet {
        assert_eq!(
            codes(&lint_for(file, Profile::Rfc9309)),
            [],
            "{}",
            String::from_utf8_lossy(file)
        );
    }
}

#[test]
fn a_lint_within_its_deadline_is_the_lint_and_past_it_there_is_none() {
    use robotrules_lint::{lint_within, Deadline, Expired};
    use std::time::Duration;
    let file = b"User-agent: *\nDissallow: /x\nDisallow: /a%2f\n";
    let options = LintOptions::default();
    let ahead = Deadline::after(Duration::from_secs(3600));
    assert_eq!(lint_within(file, &options, ahead), Ok(lint(file, &options)));
    assert_eq!(
        lint_within(file, &options, Deadline::NONE),
        Ok(lint(file, &options))
    );
    let passed = Deadline::after(Duration::ZERO);
    assert_eq!(lint_within(file, &options, passed), Err(Expired));
}

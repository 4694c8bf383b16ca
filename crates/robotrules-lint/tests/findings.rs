//! The behaviours a new user meets, each asserted on codes, lines and message text: which
//! notes appear by default, what a misspelt group line does to the lines below it, the byte
//! order mark's help, and a file that is not text.

#![allow(clippy::unwrap_used)]

use robotrules_lint::{lint, Code, Level, LevelTarget, Levels, Lint, LintOptions, Profile};

fn lint_for(source: &[u8], profile: Profile) -> Vec<Lint> {
    let options = LintOptions {
        profile,
        ..LintOptions::default()
    };
    lint(source, &options).findings
}

fn codes(findings: &[Lint]) -> Vec<(Code, u32)> {
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
    assert_eq!(legacy[0].severity, robotrules_lint::Severity::Info);
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
    assert_eq!(findings[0].severity, robotrules_lint::Severity::Info);
    assert!(findings[0]
        .help
        .as_deref()
        .unwrap()
        .contains("loses nothing yet"));
}

//! Unit tests of the sweep on files it writes itself.

use super::*;
use rstest::rstest;
use std::time::Duration;

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("robotrules-sweep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    dir
}

#[test]
fn sweeps_every_file_recursively() {
    let dir = temp_dir("recursive");
    let a = b"user-agent: *\ndisallow: /private\n";
    let b = b"\xef\xbb\xbf<html>\x00\xff junk";
    std::fs::write(dir.join("a.txt"), a).unwrap();
    std::fs::write(dir.join("nested/b.txt"), b).unwrap();
    std::fs::write(dir.join("nested/c.txt"), b"").unwrap();
    let report = sweep(&dir, &SweepOptions::default());
    assert_eq!(report.files, 3);
    assert_eq!(report.bytes, (a.len() + b.len()) as u64);
    assert!(report.is_success(), "{report}");
    assert_eq!(report.panics().count(), 0);
    assert!(
        report.disallowed > 0,
        "the file's own pattern is asked about"
    );
    assert_eq!(report.slowest.len(), 3);
    assert!(report.slowest[0].time >= report.slowest[2].time);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_directory_is_a_read_error_not_a_failure() {
    let report = sweep(
        "/nonexistent/robotrules-sweep".as_ref(),
        &SweepOptions::default(),
    );
    assert_eq!(report.files, 0);
    assert!(matches!(report.problems[..], [Problem::Read { .. }]));
    assert!(report.is_success());
}

#[test]
fn a_file_over_the_time_budget_fails_the_sweep() {
    let dir = temp_dir("budget");
    std::fs::write(dir.join("a.txt"), b"user-agent: *\ndisallow: /\n").unwrap();
    let options = SweepOptions {
        time_budget: Duration::ZERO,
        ..SweepOptions::default()
    };
    let report = sweep(&dir, &options);
    assert_eq!(report.over_budget.len(), 1);
    assert!(!report.is_success());
    assert!(report.to_string().contains("OVER BUDGET"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn panics_are_caught_with_their_location() {
    let capture = panic_capture::Capture::install();
    let outcome = catch_unwind(|| panic!("boom"));
    let message = capture.take();
    drop(capture);
    assert!(outcome.is_err());
    let message = message.unwrap();
    assert!(
        message.contains("boom") && message.contains("tests.rs"),
        "{message}"
    );
}

#[rstest]
#[case("VmPeak:\t  100 kB\nVmHWM:\t    2048 kB\nVmRSS: 1 kB\n", Some(2048))]
#[case("VmRSS: 1 kB\n", None)]
#[case("VmHWM: lots\n", None)]
fn reads_vm_hwm(#[case] status: &str, #[case] expected: Option<u64>) {
    assert_eq!(memory::parse_vm_hwm(status), expected);
}

#[test]
fn peak_memory_is_known_on_linux() {
    if cfg!(target_os = "linux") {
        assert!(peak_rss_kib().is_some_and(|k| k > 0));
    }
}

#[rstest]
#[case(b"", 12)]
#[case(b"user-agent: *\ndisallow: /a\nallow: /b*c$\nallow: nothing\n", 18)]
fn urls_are_fixed_ones_then_the_files_own(#[case] file: &[u8], #[case] expected: usize) {
    let urls = urls::for_file(file, 50);
    assert_eq!(urls.len(), expected);
    assert_eq!(urls[..12], urls::FIXED);
    assert!(urls
        .iter()
        .all(|u| u.starts_with('/') || u.starts_with("http")));
}

#[test]
fn urls_stop_at_the_count() {
    let file: String = (0..100).map(|i| format!("disallow: /p{i}\n")).collect();
    assert_eq!(urls::for_file(file.as_bytes(), 50).len(), 50);
    assert_eq!(urls::for_file(file.as_bytes(), 5).len(), 5);
}

#[test]
fn the_files_own_agents_are_asked_about() {
    let robots = std::sync::Arc::new(RobotsTxt::parse(
        b"user-agent: CCBot\nuser-agent: *\nuser-agent: ccbot/2\ndisallow: /\n",
        Profile::Rfc9309,
        robotrules::DEFAULT_PARSE_LIMIT,
    ));
    assert_eq!(agents(&robots), ["Googlebot", "FooBot", "CCBot"]);
}

#[test]
fn markdown_has_the_figures() {
    let report = sweep(
        "/nonexistent/robotrules-sweep".as_ref(),
        &SweepOptions::default(),
    );
    let md = report.to_markdown();
    assert!(md.contains("| panics | 0 |"), "{md}");
    assert!(md.contains("peak memory"));
}

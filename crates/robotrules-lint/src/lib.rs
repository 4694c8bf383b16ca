//! Lints for robots.txt files, with stable codes and byte spans, rendered like rustc's
//! diagnostics, as JSON lines or as a SARIF log.
//!
//! [`lint`] reads a file under every profile (RFC 9309, Google, the 1994 convention) and
//! reports what is wrong for the profile it is checked for: an **error** when that reading
//! drops a line or rule, a **warning** when it keeps it but the author likely meant something
//! else, or another reading differs. Each [`Finding`] has a stable [`Code`] (documented in
//! `docs/lints.md`), a byte span, line and column, a message, a help text and the profiles the
//! problem occurs under. Findings the grammar and the model already report are reused, not
//! detected again.
//!
//! ```
//! use robotrules_lint::{lint, Code, LintOptions};
//!
//! let report = lint(b"user-agent: *\ndissallow: /private\n", &LintOptions::default());
//! assert_eq!(report.findings[0].code, Code::MisspeltKey);
//! assert_eq!((report.findings[0].line, report.findings[0].column), (2, 1));
//! ```
//!
//! [`render`] turns a report into text like rustc's (source line, caret, code, help) or JSON
//! lines; it also shows any spans of a file that way ([`render::snippet`]), which the
//! command-line tool's `explain` uses for the deciding line.

mod checks;
mod code;
mod context;
mod finding;
mod level;
pub mod render;
pub mod sarif;
mod source;

pub use code::{Code, Family, UnknownCode};
pub use finding::{Finding, LintOptions, LintReport, Related, Summary, DEFAULT_MAX_FINDINGS};
pub use level::{Level, LevelTarget, Levels};
pub use robotrules_model::{Deadline, Expired, Profile, Severity, Span};

/// Lint `bytes` as a robots.txt file. Never fails and never panics; the report holds at most
/// [`LintOptions::max_findings`] findings, in file order, and counts the rest.
pub fn lint(bytes: &[u8], options: &LintOptions) -> LintReport {
    let mut ctx = context::Context::new(bytes, options, Deadline::NONE);
    checks::run(&mut ctx);
    ctx.finish()
}

/// [`lint`], stopped at `deadline`: the checks ask it as they go, and give up once it has
/// passed.
///
/// # Errors
/// [`Expired`] when the deadline passed before the checks were done.
pub fn lint_within(
    bytes: &[u8],
    options: &LintOptions,
    deadline: Deadline,
) -> Result<LintReport, Expired> {
    let mut ctx = context::Context::new(bytes, options, deadline);
    checks::run(&mut ctx);
    if ctx.expired() {
        return Err(Expired);
    }
    Ok(ctx.finish())
}

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

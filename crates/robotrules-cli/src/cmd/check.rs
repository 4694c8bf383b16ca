//! `robotrules check [--profile P] [--format F] [--explain] [--timeout SECS] [--ca-cert FILE]
//! ROBOTS AGENT [URL...]`: may crawler AGENT fetch each URL under the robots.txt file ROBOTS?
//!
//! The file is parsed once and the crawler's groups resolved once (RFC 9309 §2.2.1); then each
//! URL gets one line (see [`crate::output`]). Which URLs a profile reads is the model's call
//! (its URL reading): in `rfc9309` and `legacy1994` a URL must be an absolute URL with a host
//! or a path starting with `/`; in `google` every string is read as Google's `robots` tool
//! reads it, so no URL is an error there. The library answers for exactly the same strings.
//!
//! ROBOTS may be an `http://`, `https://` or `ftp://` URL (the robots.txt itself or any page of
//! the site), fetched once with the rules of RFC 9309 §2.3–§2.5. Its access result matters: a
//! success is parsed like a file; an unavailable file (4xx, too many redirects, FTP 550)
//! allows every URL (§2.3.1.3); an unreachable one (5xx, network errors, deadline) disallows
//! every URL (§2.3.1.4), a certificate that does not verify included (`--ca-cert` adds a
//! trusted root). URLs are matched by their path, as with a file.

use std::io;

use robotrules::{AgentRules, ParseOptions, Profile, Robots};

use crate::cmd::{self, Outcome};
use crate::error::CliError;
use crate::input::{self, RobotsSource, UrlSource};
use crate::output::{self, Fetched, Format, Printer, Verdict};
use crate::remote::TimeoutArg;
use crate::trust::TrustArgs;

/// Arguments of `robotrules check`.
#[derive(Debug, clap::Args)]
#[command(override_usage = "robotrules check [OPTIONS] ROBOTS AGENT [URL...]")]
pub(crate) struct CheckArgs {
    /// How to read the file: RFC 9309, Google's reference library, or the 1994 convention.
    #[arg(
        long,
        value_name = "PROFILE",
        default_value_t = Profile::default(),
        ignore_case = true,
        value_parser = cmd::profile_parser(),
    )]
    profile: Profile,

    /// Output: tab-separated text, or one JSON object per line.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    format: Format,

    /// Also show the deciding rule (line number and rule as written) or why none decided;
    /// for a fetched robots.txt that is unavailable or unreachable, that and why.
    #[arg(long)]
    explain: bool,

    /// Fetch deadline for a ROBOTS URL.
    #[command(flatten)]
    fetch: TimeoutArg,

    /// Certificates trusted for an https:// ROBOTS.
    #[command(flatten)]
    trust: TrustArgs,

    /// The robots.txt file, `-` for standard input, or an http://, https:// or ftp:// URL (the
    /// robots.txt or any page of the site). A fetched file that is unavailable (4xx) allows
    /// every URL; one that is unreachable (5xx, network error, timeout) disallows every URL.
    #[arg(value_name = "ROBOTS")]
    robots: String,

    /// The crawler's name, a product token such as `Googlebot` (RFC 9309 §2.2.1).
    #[arg(value_name = "AGENT")]
    agent: String,

    /// URLs to check: absolute (`https://example.com/a?b`) or a path (`/a?b`). When none are
    /// given, they are read from standard input, one per line.
    #[arg(value_name = "URL")]
    urls: Vec<String>,
}

/// Runs `check`: [`Outcome::AllClear`] when every URL is allowed, [`Outcome::Flagged`] when
/// any is disallowed.
///
/// URLs given as arguments are all checked before anything is written, so a bad one leaves no
/// partial output; URLs from standard input are answered as they arrive.
///
/// # Errors
/// A [`CliError`] for ROBOTS `-` without URL arguments, an unusable `--ca-cert` file, an
/// unreadable file, a ROBOTS URL that cannot have a robots.txt, an invalid crawler name or
/// URL, or a failed write.
pub(crate) fn run(args: CheckArgs) -> Result<Outcome, CliError> {
    let urls = UrlSource::new(args.urls);
    if args.robots == input::STDIN && matches!(urls, UrlSource::Stdin) {
        return Err(CliError::StdinTwice);
    }
    let trust = args.trust.load()?;
    let options = ParseOptions {
        profile: args.profile,
        ..ParseOptions::default()
    };
    let source = input::load_robots_or_fetch(
        &args.robots,
        options.parse_limit,
        args.fetch.timeout,
        &trust,
    )?;
    let (bytes, fetched): (&[u8], _) = match &source {
        RobotsSource::Local(bytes) => (bytes, None),
        RobotsSource::Remote(outcome) => (
            outcome.body().map_or(&[][..], |body| &body[..]),
            Some(Fetched::new(outcome)),
        ),
    };
    let robots = Robots::parse_with(bytes, &options);
    let blanket = fetched.as_ref().and_then(Fetched::blanket);
    let checker = Checker {
        rules: robots.agent(&args.agent)?,
        agent: &args.agent,
        profile: args.profile,
        explain: args.explain,
        fetched: fetched.as_ref(),
        blanket: blanket
            .as_ref()
            .map(|(allowed, reason)| (*allowed, reason.as_str())),
    };

    let mut printer = Printer::new(io::stdout().lock(), args.format);
    let mut any_disallowed = false;
    let mut report = |verdict: &Verdict<'_>| {
        any_disallowed |= !verdict.allowed;
        printer.print(verdict)
    };
    let written = match urls {
        UrlSource::Args(urls) => urls
            .iter()
            .map(|url| checker.verdict(url))
            .collect::<Result<Vec<_>, _>>()?
            .iter()
            .try_for_each(&mut report),
        UrlSource::Stdin => input::for_each_stdin_url(|url| report(&checker.verdict(url)?)),
    }
    .and_then(|()| printer.flush());
    output::closed_is_done(written)?;
    Ok(Outcome::flagged_if(any_disallowed))
}

/// One crawler's rules and how to answer with them.
struct Checker<'a> {
    rules: AgentRules<'a>,
    agent: &'a str,
    profile: Profile,
    explain: bool,
    /// The access result of a fetched robots.txt.
    fetched: Option<&'a Fetched>,
    /// The verdict for every URL and its reason, when the access result decides alone.
    blanket: Option<(bool, &'a str)>,
}

impl<'a> Checker<'a> {
    /// The verdict on `url`.
    ///
    /// # Errors
    /// [`CliError::InvalidUrl`] when the profile cannot read `url`.
    fn verdict<'u>(&self, url: &'u str) -> Result<Verdict<'u>, CliError>
    where
        'a: 'u,
    {
        let target = self.rules.target(url)?;
        if let Some((allowed, reason)) = self.blanket {
            return Ok(Verdict {
                url,
                allowed,
                profile: self.profile,
                explanation: None,
                fetched: self.fetched,
                blanket: self.explain.then_some(reason),
            });
        }
        let (allowed, explanation) = if self.explain {
            let explanation = self.rules.explain(self.agent, url)?;
            (explanation.allowed, Some(explanation))
        } else {
            (self.rules.allows(&target), None)
        };
        Ok(Verdict {
            url,
            allowed,
            profile: self.profile,
            explanation,
            fetched: self.fetched,
            blanket: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// Whether `profile` reads `url`, as `check` asks it.
    fn reads(profile: Profile, url: &str) -> bool {
        let options = ParseOptions {
            profile,
            ..ParseOptions::default()
        };
        let robots = Robots::parse_with(b"", &options);
        let rules = robots.agent("ExampleBot").unwrap();
        rules.target(url).is_ok()
    }

    #[rstest]
    #[case("/")]
    #[case("/a/b?c#d")]
    #[case("https://example.com")]
    #[case("http://[::1]:8080/a")]
    #[case("ftp://ftp.example.com/pub")]
    fn readable_urls(#[case] url: &str) {
        for profile in Profile::ALL {
            assert!(reads(profile, url), "{profile} {url}");
        }
    }

    #[rstest]
    #[case("")]
    #[case("example.com/a")]
    #[case("a/b")]
    #[case("mailto:x@example.com")]
    #[case("file:///etc/passwd")]
    #[case("http://")]
    #[case("http://example.com:99999/")]
    fn unreadable_urls_are_errors_except_in_google(#[case] url: &str) {
        assert!(!reads(Profile::Rfc9309, url), "{url}");
        assert!(!reads(Profile::Legacy1994, url), "{url}");
        assert!(reads(Profile::Google, url), "{url}");
    }
}

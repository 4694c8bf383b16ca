//! The arguments the commands share, defined once: `--profile` ([`ProfileArg`]) and the
//! remote options ([`RemoteArgs`]: `--timeout`, `--ca-cert`, `--platform-roots`,
//! `--user-agent`, `--cache`, `--cache-timeout`), which every command that may fetch a
//! robots.txt flattens (`check`, `explain`, `show`, `lint`, `fetch`, `batch`, `diff`); the
//! `cache` commands take only the Redis ones (`cmd::cache::options`).

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use robotrules::Profile;

/// The value parser of `--profile` for commands that take one profile: the names of
/// [`Profile::ALL`] (listed in `--help`), any case when the argument sets `ignore_case`.
pub(crate) fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    PossibleValuesParser::new(Profile::ALL.map(Profile::as_str))
        .try_map(|name| name.parse::<Profile>())
}

/// `--profile`, shared by the commands that read robots.txt files for crawlers (`check`,
/// `batch`, `show`, `cache show`); `lint` and `fetch` say what the profile means for them in
/// their own, and `explain` also takes `all`.
#[derive(Clone, Copy, Debug, clap::Args)]
pub(crate) struct ProfileArg {
    /// How to read robots.txt files: RFC 9309, Google's reference library, or the 1994
    /// convention.
    #[arg(
        long = "profile",
        value_name = "PROFILE",
        default_value_t = Profile::default(),
        ignore_case = true,
        value_parser = profile_parser(),
    )]
    pub(crate) profile: Profile,
}

/// `--color`: when the output is coloured (lint's rustc-style findings, explain's snippets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour when the stream is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    /// Always colour, even into a pipe and whatever `NO_COLOR` says.
    Always,
    /// Never colour.
    Never,
}

/// The process's `--color`, set once by `main` before the command runs.
static COLOR: OnceLock<ColorChoice> = OnceLock::new();

impl ColorChoice {
    /// Makes `self` the process's choice (the first call wins).
    pub(crate) fn set(self) {
        let _ = COLOR.set(self);
    }

    /// The process's choice: what `main` set, else `auto`.
    pub(crate) fn current() -> ColorChoice {
        COLOR.get().copied().unwrap_or_default()
    }

    /// Whether to colour a stream that `is_terminal` or not, with `NO_COLOR` as `no_color`
    /// (no-color.org: set and not empty turns colour off, unless `--color always`).
    pub(crate) fn colors(self, is_terminal: bool, no_color: Option<&OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && no_color.is_none_or(OsStr::is_empty),
        }
    }
}

/// The process's `--verbose`, set once by `main` before the command runs.
static VERBOSE: OnceLock<bool> = OnceLock::new();

/// `--verbose`: whether a network failure's reason carries the network library's error chain.
pub(crate) struct Verbose;

impl Verbose {
    /// Sets the process's `--verbose` (the first call wins).
    pub(crate) fn set(verbose: bool) {
        let _ = VERBOSE.set(verbose);
    }

    /// Whether `--verbose` was given.
    pub(crate) fn on() -> bool {
        VERBOSE.get().copied().unwrap_or(false)
    }

    /// `reason` (`connection refused`), with `chain` (the library's error chain) after it
    /// under `--verbose`: `connection refused; error chain: error sending request …`.
    pub(crate) fn reason(reason: &str, chain: Option<&str>) -> String {
        match chain {
            Some(chain) if Verbose::on() => format!("{reason}; error chain: {chain}"),
            _ => reason.to_owned(),
        }
    }
}

/// The default `--timeout`, in seconds: `FetchOptions`' default total deadline.
pub(crate) const DEFAULT_TIMEOUT_SECS: &str = "30";

/// The default `--cache-timeout`, in seconds: `RedisOptions`' default command timeout.
pub(crate) const DEFAULT_CACHE_TIMEOUT_SECS: &str = "0.5";

/// The longest `--timeout` accepted (one hour).
const MAX_TIMEOUT: Duration = Duration::from_secs(3600);

/// How a remote robots.txt is fetched and cached: the options of every command that may fetch
/// one, read by [`crate::remote`] into the library's client.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct RemoteArgs {
    /// Deadline in seconds for fetching a remote robots.txt, redirects and body included
    /// (decimals allowed).
    #[arg(long = "timeout", value_name = "SECS", default_value = DEFAULT_TIMEOUT_SECS, value_parser = parse_timeout)]
    pub(crate) timeout: Duration,

    /// Also trust the root certificates in FILE (PEM; a bundle may hold several) for https://,
    /// besides the built-in web roots, and for a rediss:// --cache, besides the platform's
    /// store: a private CA, or the CA of a TLS-inspecting proxy. Repeatable.
    #[arg(long = "ca-cert", value_name = "FILE")]
    pub(crate) ca_certs: Vec<PathBuf>,

    /// Also trust the platform's certificate store for https:// (on Linux the system bundle, or
    /// the files named by SSL_CERT_FILE and SSL_CERT_DIR).
    #[arg(long = "platform-roots")]
    pub(crate) platform_roots: bool,

    /// The User-Agent header to send instead of the default (the crawler's name before
    /// `robotrules/VERSION`, as the library sends it; `robotrules/VERSION` alone where there is
    /// no crawler, as in `fetch` and `lint`).
    #[arg(long = "user-agent", value_name = "TEXT", value_parser = parse_user_agent)]
    pub(crate) user_agent: Option<String>,

    /// Share robots.txt answers with other processes through Redis or Valkey at URL
    /// (`redis://[:PASSWORD@]HOST:PORT[/DB]`, `rediss://` for TLS, trusting the platform's
    /// certificate store and --ca-cert): each origin is fetched once across all of them. When
    /// Redis is down or slow, this process fetches for itself and warns.
    #[arg(long = "cache", value_name = "URL")]
    pub(crate) cache: Option<String>,

    /// How long each Redis command may take, in seconds (decimals allowed); past it this
    /// process fetches for itself and warns.
    #[arg(long = "cache-timeout", value_name = "SECS", default_value = DEFAULT_CACHE_TIMEOUT_SECS, value_parser = parse_timeout)]
    pub(crate) cache_timeout: Duration,
}

/// Parses `--user-agent`: printable ASCII, not empty (an HTTP header value).
pub(crate) fn parse_user_agent(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        return Err(format!(
            "`{text}`: a User-Agent is printable ASCII and not empty"
        ));
    }
    Ok(text.to_owned())
}

/// Parses `--timeout` and `--cache-timeout`: a positive number of seconds, at most an hour.
pub(crate) fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    match Duration::try_from_secs_f64(seconds) {
        Ok(timeout) if !timeout.is_zero() && timeout <= MAX_TIMEOUT => Ok(timeout),
        _ => Err(format!(
            "`{text}`: the timeout must be more than 0 and at most {} seconds",
            MAX_TIMEOUT.as_secs()
        )),
    }
}

/// `--profile` where `all` is also taken (`explain`, `diff`, the tester's API): one profile,
/// or every profile side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Profiles {
    /// One profile.
    One(Profile),
    /// Every profile, side by side.
    All,
}

impl Profiles {
    pub(crate) fn list(self) -> Vec<Profile> {
        match self {
            Profiles::One(p) => vec![p],
            Profiles::All => Profile::ALL.to_vec(),
        }
    }
}

/// Parses `--profile`: a profile name or `all`, any case.
pub(crate) fn parse_profiles(s: &str) -> Result<Profiles, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(Profiles::All);
    }
    s.to_ascii_lowercase()
        .parse::<Profile>()
        .map(Profiles::One)
        .map_err(|_| {
            let names: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
            format!(
                "`{}`: the profile is one of {}, or all",
                robotrules_text::excerpt(s, 40),
                names.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn the_default_timeouts_are_the_librarys() {
        assert_eq!(
            parse_timeout(DEFAULT_TIMEOUT_SECS),
            Ok(robotrules::client::FetchOptions::default().total_timeout)
        );
        assert_eq!(
            parse_timeout(DEFAULT_CACHE_TIMEOUT_SECS),
            Ok(robotrules::client::RedisOptions::default().command_timeout)
        );
    }

    #[rstest]
    #[case("30", 30_000)]
    #[case("0.25", 250)]
    #[case(" 2 ", 2_000)]
    #[case("3600", 3_600_000)]
    fn timeouts(#[case] text: &str, #[case] millis: u128) {
        assert_eq!(parse_timeout(text).unwrap().as_millis(), millis);
    }

    #[rstest]
    #[case("0")]
    #[case("-1")]
    #[case("3601")]
    #[case("NaN")]
    #[case("inf")]
    #[case("ten")]
    #[case("")]
    fn bad_timeouts(#[case] text: &str) {
        assert!(parse_timeout(text).is_err(), "{text:?}");
    }

    #[rstest]
    #[case(ColorChoice::Auto, true, None, true)]
    #[case(ColorChoice::Auto, true, Some(""), true)]
    #[case(ColorChoice::Auto, true, Some("1"), false)]
    #[case(ColorChoice::Auto, false, None, false)]
    #[case(ColorChoice::Always, false, Some("1"), true)]
    #[case(ColorChoice::Never, true, None, false)]
    fn color_follows_the_flag_the_terminal_and_no_color(
        #[case] choice: ColorChoice,
        #[case] terminal: bool,
        #[case] no_color: Option<&str>,
        #[case] colors: bool,
    ) {
        assert_eq!(choice.colors(terminal, no_color.map(OsStr::new)), colors);
    }

    #[test]
    fn user_agents_are_printable_ascii() {
        assert_eq!(
            parse_user_agent(" ExampleBot/1.0 ").as_deref(),
            Ok("ExampleBot/1.0")
        );
        assert!(parse_user_agent("").is_err());
        assert!(parse_user_agent("Bot\r\nX: y").is_err());
        assert!(parse_user_agent("Bötchen").is_err());
    }
}

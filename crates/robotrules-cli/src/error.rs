//! The errors every command can end with: each one is a usage or input error, shown as one
//! line on standard error (`robotrules: error: …`) with exit status 2.
//!
//! Messages quote user input as a short excerpt ([`robotrules_text::excerpt`]: control
//! characters shown as `<U+000A>`, so a newline in a path or URL stays on one line) in `{:?}`,
//! so a megabyte of garbage never becomes a megabyte of error text.

use std::io;

use robotrules::client::{FetchError, FleetError};
use robotrules::{InvalidAgent, InvalidUrl, Profile, Robots};
use robotrules_text::excerpt;

/// The longest excerpt of user input that a message quotes, in characters.
const EXCERPT_CHARS: usize = 100;

/// A usage or input error: the command stops and the process exits with status 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// The command line does not fit the command's usage (clap's errors, brought to one line).
    #[error("{0}")]
    Usage(String),
    /// The computation stopped at its deadline (`serve` gives its requests one).
    #[error(transparent)]
    Expired(#[from] robotrules_lint::Expired),
    /// ROBOTS is `-` and no URL was given: standard input cannot hold both.
    #[error("no URL given and ROBOTS is `-`: standard input cannot hold both the robots.txt file and the URLs; pass the URLs as arguments")]
    StdinTwice,
    /// The robots.txt file could not be opened or read.
    #[error("cannot read robots.txt {:?}: {source}", excerpt(path, EXCERPT_CHARS))]
    ReadRobots {
        /// The path as given (`-` for standard input).
        path: String,
        /// Why.
        source: io::Error,
    },
    /// ROBOTS is a URL that cannot have a robots.txt (no host, a bad IDN or port, …).
    #[error(
        "cannot fetch robots.txt for {:?}: {source}",
        excerpt(url, EXCERPT_CHARS)
    )]
    RobotsUrl {
        /// The URL as given.
        url: String,
        /// Why.
        source: FetchError,
    },
    /// ROBOTS (or `fetch`'s URL) is a bare host, `example.com` or `127.0.0.1:8080/robots.txt`:
    /// no such file, or no scheme. The message gives the robots.txt URL to pass.
    #[error(
        "{what} {:?}; for the site's robots.txt, pass {url}",
        excerpt(arg, EXCERPT_CHARS)
    )]
    BareHost {
        /// The argument as given.
        arg: String,
        /// What it is not: `no such file`, `not a URL`.
        what: &'static str,
        /// The robots.txt URL it stands for ([`crate::bare_host::bare_host_url`]).
        url: String,
    },
    /// A `--ca-cert` file cannot be read or holds no usable certificate.
    #[error("cannot use --ca-cert {:?}: {reason}", excerpt(path, EXCERPT_CHARS))]
    CaCert {
        /// The path as given.
        path: String,
        /// Why.
        reason: String,
    },
    /// `serve` could not start (the runtime, or the address to listen on).
    #[error("cannot serve: {0}")]
    Serve(String),
    /// Fetching could not be set up (the runtime or the HTTP client failed to start).
    #[error("cannot set up fetching: {0}")]
    FetchSetup(String),
    /// A file to write (`fetch --output`) could not be written.
    #[error("cannot write {:?}: {source}", excerpt(path, EXCERPT_CHARS))]
    WriteFile {
        /// The path as given.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// An ORIGIN argument (`cache show`, `cache purge`) that is no URL of a site with a
    /// robots.txt.
    #[error("not a site URL {:?}: {source}", excerpt(text, EXCERPT_CHARS))]
    Origin {
        /// The argument as given.
        text: String,
        /// Why.
        source: FetchError,
    },
    /// `--cache`: the URL is not a Redis URL, Redis refuses the credentials, or (for the
    /// `cache` commands, which cannot fall back) Redis does not answer.
    #[error("--cache: {0}")]
    Cache(FleetError),
    /// The crawler name is not one the profile accepts (RFC 9309 §2.2.1).
    #[error(transparent)]
    InvalidAgent(#[from] InvalidAgent),
    /// A URL the profile cannot read (in `rfc9309` and `legacy1994`, neither an absolute URL
    /// with a host nor a path starting with `/`).
    #[error(transparent)]
    InvalidUrl(#[from] InvalidUrl),
    /// Some lines were not URLs the command could answer for; each has an `error` row in the
    /// output, and the others were answered.
    #[error(
        "{count} line{} could not be checked (see the `error` rows)",
        if *count == 1 { "" } else { "s" }
    )]
    LinesFailed {
        /// How many.
        count: u64,
    },
    /// `batch` gave some lines `error` rows: its summary, which counts them (after every row
    /// is written).
    #[error("{0}")]
    BatchFailed(String),
    /// A `survey` INPUT that does not exist or cannot be opened (checked before any work).
    #[error("cannot read input {:?}: {source}", excerpt(path, EXCERPT_CHARS))]
    ReadInput {
        /// The path as given.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// `survey --agents-file`: the file cannot be read, or a line of it is not a crawler.
    #[error(
        "cannot use --agents-file {:?}: {reason}",
        excerpt(path, EXCERPT_CHARS)
    )]
    AgentList {
        /// The path as given.
        path: String,
        /// Why.
        reason: String,
    },
    /// `survey`: some inputs could not be read; the others were surveyed (after the summary).
    #[error(
        "{count} input{} could not be read (see the warnings above)",
        if *count == 1 { "" } else { "s" }
    )]
    InputsFailed {
        /// How many.
        count: u64,
    },
    /// `survey`: no capture was read at all (no summary table is printed).
    #[error("the survey read no robots.txt capture: {why}")]
    NoCaptures {
        /// What was read instead (`2 directory entries skipped (named above)`).
        why: String,
    },
    /// Reading URLs from standard input failed.
    #[error("cannot read URLs from standard input: {0}")]
    ReadUrls(io::Error),
    /// The reader of standard output has gone away (a closed pipe, as in `… | head -1`).
    /// Commands stop writing and end with the status of what they wrote; it is never shown.
    #[error("output closed")]
    OutputClosed,
    /// Writing the results failed (other than the reader going away).
    #[error("cannot write output: {0}")]
    Write(io::Error),
}

impl CliError {
    /// clap's error for a command line that does not fit, on one line:
    /// `missing argument AGENT (usage: robotrules check <ROBOTS> <AGENT> [URL]...)`.
    ///
    /// clap renders a message, a blank line, the usage and a hint to try `--help`, and lists
    /// missing arguments on lines of their own; this keeps the message and the usage only.
    pub(crate) fn from_clap(error: &clap::Error) -> CliError {
        use clap::error::{ContextKind, ContextValue, ErrorKind};

        let rendered = error.render().to_string();
        let mut usage = None;
        let mut message = Vec::new();
        for line in rendered.lines().map(str::trim) {
            if let Some(text) = line.strip_prefix("Usage:") {
                usage = Some(text.trim());
            } else if let Some(tip) = line.strip_prefix("tip:") {
                message.push(format!("; {}", tip.trim()));
            } else if !line.is_empty() && !line.starts_with("For more information") {
                message.push(format!(
                    " {}",
                    line.strip_prefix("error:").unwrap_or(line).trim()
                ));
            }
        }
        let mut message = message.concat().trim().to_owned();
        match error.kind() {
            ErrorKind::MissingRequiredArgument => {
                if let Some(ContextValue::Strings(names)) = error.get(ContextKind::InvalidArg) {
                    let names: Vec<_> = names
                        .iter()
                        .map(|name| name.replace(['<', '>'], "").trim_matches('.').to_owned())
                        .collect();
                    let plural = if names.len() == 1 { "" } else { "s" };
                    message = format!("missing argument{plural} {}", names.join(" "));
                }
            }
            // `robotrules` alone: clap would print the whole help as the "error".
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
                message = "missing command; `robotrules --help` lists them".to_owned();
            }
            _ => {}
        }
        match usage {
            Some(usage) => CliError::Usage(format!("{message} (usage: {usage})")),
            None => CliError::Usage(message),
        }
    }
}

/// The warning for a crawler name that `profile` answers for although no group can name it
/// as it is (the facade's [`robotrules::NameReading`]: Google's library reads `User-agent:
/// MJ12bot` as `MJ`), with the token to pass. Commands print it once per run;
/// [`agent_warning_in`] adds which groups a file gives.
pub(crate) fn agent_warning(profile: Profile, name: &str) -> Option<String> {
    robotrules::name_reading(profile, name).map(|reading| reading.to_string())
}

/// [`agent_warning`] for a name asked about in `robots`: it also says which group the name
/// gets and which the suggested token selects (by line).
pub(crate) fn agent_warning_in(robots: &Robots, name: &str) -> Option<String> {
    robots.name_reading(name).map(|reading| reading.to_string())
}

/// `message` on one line and terminal-safe: line breaks (which no message should contain, but
/// a third-party message might) are shown as `\n` and `\r`, any other control or invisible
/// character as `<U+001B>` ([`robotrules_text::visible`]).
pub(crate) fn one_line(message: &str) -> String {
    let message = message.replace('\r', "\\r").replace('\n', "\\n");
    robotrules_text::visible(message.trim()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("robots.txt", "\"robots.txt\"")]
    #[case("a\nb", "\"a<U+000A>b\"")]
    #[case("", "\"\"")]
    fn paths_are_quoted_on_one_line(#[case] path: &str, #[case] quoted: &str) {
        let error = CliError::WriteFile {
            path: path.into(),
            source: io::Error::other("full"),
        };
        assert_eq!(error.to_string(), format!("cannot write {quoted}: full"));
    }

    #[test]
    fn long_paths_are_cut_on_a_char_boundary() {
        let error = CliError::WriteFile {
            path: "ü".repeat(1_000),
            source: io::Error::other("full"),
        };
        let quoted = format!("\"{}…\"", "ü".repeat(EXCERPT_CHARS));
        assert_eq!(error.to_string(), format!("cannot write {quoted}: full"));
    }

    #[test]
    fn a_name_that_is_not_a_token_is_warned_about_where_it_is_accepted() {
        let googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
        let warning = agent_warning(Profile::Google, googlebot).unwrap();
        assert!(
            warning.ends_with("it gets the `*` group; pass `Googlebot`"),
            "{warning}"
        );
        assert!(!warning.contains("`Mozilla`"), "{warning}");
        assert_eq!(agent_warning(Profile::Google, "Googlebot"), None);
        assert_eq!(agent_warning(Profile::Google, "*"), None);
        // Refused outright (an error), or read by substring: no warning.
        assert_eq!(agent_warning(Profile::Rfc9309, googlebot), None);
        assert_eq!(agent_warning(Profile::Legacy1994, googlebot), None);
    }

    #[rstest]
    #[case("MJ12bot", "MJ")]
    #[case("my-bot_2", "my-bot_")]
    fn the_google_warning_says_what_the_library_reads(#[case] name: &str, #[case] reads: &str) {
        let warning = agent_warning(Profile::Google, name).unwrap();
        assert!(!warning.contains("not a product token"), "{warning}");
        assert!(
            warning.contains(&format!("`User-agent: {name}` names `{reads}`"))
                && warning.ends_with(&format!("pass `{reads}`")),
            "{warning}"
        );
        let robots = Robots::parse_with(
            format!("user-agent: *\ndisallow: /a\n\nuser-agent: {name}\ndisallow: /b\n").as_bytes(),
            &robotrules::ParseOptions::new().with_profile(Profile::Google),
        );
        let warning = agent_warning_in(&robots, name).unwrap();
        assert!(
            warning.contains("it gets the `*` group at line 1;")
                && warning.ends_with(&format!("pass `{reads}`, which gets the group at line 4")),
            "{warning}"
        );
    }

    #[rstest]
    #[case("plain", "plain")]
    #[case("two\nlines\r\n", "two\\nlines\\r\\n")]
    #[case(
        "osc \x1b]0;x\x07 csi \u{9b}2J \u{202E}",
        "osc <U+001B>]0;x<U+0007> csi <U+009B>2J <U+202E>"
    )]
    fn one_line_escapes_line_breaks(#[case] message: &str, #[case] line: &str) {
        assert_eq!(one_line(message), line);
    }

    #[test]
    fn every_message_is_one_line() {
        let errors = [
            CliError::StdinTwice,
            CliError::FetchSetup("no runtime".into()),
            CliError::CaCert {
                path: "ca\n.pem".into(),
                reason: "the file is empty".into(),
            },
            CliError::ReadRobots {
                path: "no\nsuch".into(),
                source: io::Error::new(io::ErrorKind::NotFound, "not found"),
            },
        ];
        for error in errors {
            assert!(!error.to_string().contains('\n'), "{error}");
        }
    }
}

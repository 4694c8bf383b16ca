//! The subcommands, one module each. A command is a `clap::Args` struct plus a
//! `run(args) -> Result<Outcome, CliError>` function; `main.rs` only dispatches to it.

pub(crate) mod batch;
pub(crate) mod cache;
pub(crate) mod check;
pub(crate) mod explain;
pub(crate) mod fetch;
pub(crate) mod lint;
pub(crate) mod show;

use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use robotrules::Profile;

/// The value parser of `--profile` for commands that take one profile: the names of
/// [`Profile::ALL`] (listed in `--help`), any case when the argument sets `ignore_case`.
pub(crate) fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    PossibleValuesParser::new(Profile::ALL.map(Profile::as_str))
        .try_map(|name| name.parse::<Profile>())
}

/// `--profile`, shared by the commands that read robots.txt files for crawlers (`check`,
/// `batch`, `show`); `lint` and `fetch` say what the profile means for them in their own.
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

/// How a command that ran to the end came out; errors are [`crate::error::CliError`] (exit 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing to report (`check`: every URL allowed): exit status 0.
    AllClear,
    /// Something to report (`check`: some URL disallowed): exit status 1.
    Flagged,
}

impl Outcome {
    /// [`Outcome::Flagged`] when `flagged`, else [`Outcome::AllClear`].
    pub(crate) fn flagged_if(flagged: bool) -> Outcome {
        if flagged {
            Outcome::Flagged
        } else {
            Outcome::AllClear
        }
    }

    /// The process exit status for this outcome.
    pub(crate) fn exit_code(self) -> ExitCode {
        match self {
            Outcome::AllClear => ExitCode::SUCCESS,
            Outcome::Flagged => ExitCode::from(1),
        }
    }
}

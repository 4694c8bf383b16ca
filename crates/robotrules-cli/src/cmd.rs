//! The subcommands, one module each. A command is a `clap::Args` struct plus a
//! `run(args) -> Result<Outcome, CliError>` function; `main.rs` only dispatches to it. The
//! arguments commands share are defined once, in [`crate::args`].

pub(crate) mod batch;
pub(crate) mod cache;
pub(crate) mod check;
pub(crate) mod completions;
pub(crate) mod diff;
pub(crate) mod explain;
pub(crate) mod fetch;
pub(crate) mod lint;
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod survey;
pub(crate) mod usage;

use std::process::ExitCode;

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

//! Running cargo and the commands xtask hands over to: the cargo that runs xtask, the
//! workspace's root, whether arguments choose packages, and a child's exit status as xtask's.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitCode};

use anyhow::Context as _;

/// Whether `args` choose packages (`-p NAME`, `-pNAME`, `--package NAME`, `--package=NAME`).
pub(crate) fn names_packages(args: &[OsString]) -> bool {
    args.iter().any(|arg| {
        let arg = arg.to_string_lossy();
        arg.starts_with("-p") || arg == "--package" || arg.starts_with("--package=")
    })
}

/// The cargo that runs xtask.
pub(crate) fn cargo_command() -> anyhow::Result<Command> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Ok(Command::new(cargo))
}

/// The workspace's root directory.
pub(crate) fn workspace_root() -> anyhow::Result<&'static Path> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("xtask/ has no parent directory")
}

/// Runs `command`; its exit status becomes xtask's.
pub(crate) fn run(mut command: Command) -> anyhow::Result<ExitCode> {
    let status = command
        .status()
        .with_context(|| format!("running {}", command.get_program().to_string_lossy()))?;
    // A child ended by a signal has no code: report a failure.
    let code = status.code().and_then(|code| u8::try_from(code).ok());
    Ok(code.map_or(ExitCode::FAILURE, ExitCode::from))
}

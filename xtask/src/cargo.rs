//! Running cargo and the commands xtask hands over to: the cargo that runs xtask, the
//! workspace's root, whether arguments choose packages, and a child's exit status as xtask's.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitCode};

use anyhow::{bail, Context as _};

/// Whether `args` choose packages (`-p NAME`, `-pNAME`, `--package NAME`, `--package=NAME`).
pub(crate) fn names_packages(args: &[OsString]) -> bool {
    args.iter().any(|arg| {
        let arg = arg.to_string_lossy();
        arg.starts_with("-p") || arg == "--package" || arg.starts_with("--package=")
    })
}

/// The cargo that runs xtask (or runs its tests): `$CARGO`, else `cargo` on `PATH`.
pub(crate) fn cargo_command() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// The workspace's root directory: the one above `xtask/`.
pub(crate) fn workspace_root() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest)
}

/// Runs `command`, failing unless it succeeds.
pub(crate) fn check(mut command: Command) -> anyhow::Result<()> {
    let status = command
        .status()
        .with_context(|| format!("running {}", command.get_program().to_string_lossy()))?;
    if !status.success() {
        bail!(
            "`{} {}` failed ({status})",
            command.get_program().to_string_lossy(),
            command
                .get_args()
                .map(|a| a.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(())
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

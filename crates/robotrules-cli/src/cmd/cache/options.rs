//! The remote options as the `cache` commands take them: `--cache` is required and says what
//! it is for, and the options that mean nothing to commands that fetch nothing are hidden.

/// The help of `--cache` for the `cache` commands, which need it and never fall back.
const CACHE_HELP: &str = "The shared cache to look into: Redis or Valkey at URL \
(`redis://[:PASSWORD@]HOST:PORT[/DB]`, `rediss://` for TLS, trusting the platform's certificate \
store and --ca-cert)";

/// The help of `--cache-timeout` for the `cache` commands, which fetch nothing: past the
/// timeout the command fails.
const CACHE_TIMEOUT_HELP: &str = "How long each Redis command may take, in seconds (decimals \
allowed); past it the command fails";

/// The remote options as the `cache` commands take them: `--cache` required, with their help;
/// the options that mean nothing to them (they fetch nothing) out of their help.
pub(super) fn cache_command_arg(arg: clap::Arg) -> clap::Arg {
    match arg.get_id().as_str() {
        "cache" => arg.required(true).help(CACHE_HELP).long_help(CACHE_HELP),
        "cache_timeout" => arg.help(CACHE_TIMEOUT_HELP).long_help(CACHE_TIMEOUT_HELP),
        "timeout" | "platform_roots" | "user_agent" => arg.hide(true),
        _ => arg,
    }
}

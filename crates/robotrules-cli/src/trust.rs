//! `--ca-cert FILE` and `--platform-roots`: the certificates trusted for `https://`, besides
//! the built-in web roots, for the commands that fetch (`check`, `fetch`; a command flattens
//! [`TrustArgs`] to take them). `--ca-cert` also applies to a `rediss://` `--cache` (where the
//! platform's store is always trusted), and the `cache` commands take it alone
//! ([`CaCertArgs`]).
//!
//! The files are read and checked before anything is fetched: a file that is missing,
//! unreadable, empty, not PEM, or holds no certificate (a private key, say) is a usage error
//! naming the file, even when no `https://` URL is fetched.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

use robotrules_fetch::{FetchOptions, RootCertificate};

use crate::error::CliError;

/// The largest `--ca-cert` file read (a full public CA bundle is about 200 KB).
const MAX_CA_FILE_BYTES: u64 = 16 << 20;

/// `--ca-cert FILE` (repeatable) and `--platform-roots`.
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct TrustArgs {
    /// Also trust the root certificates in FILE (PEM; a bundle may hold several) for https://,
    /// besides the built-in web roots, and for a rediss:// --cache (where the command takes
    /// one), besides the platform's store: a private CA, or the CA of a TLS-inspecting proxy.
    /// Repeatable.
    #[arg(long = "ca-cert", value_name = "FILE")]
    ca_certs: Vec<PathBuf>,

    /// Also trust the platform's certificate store for https:// (on Linux the system bundle, or
    /// the files named by SSL_CERT_FILE and SSL_CERT_DIR).
    #[arg(long)]
    platform_roots: bool,
}

/// The trust settings of one run, read from [`TrustArgs`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Trust {
    roots: Vec<RootCertificate>,
    platform_roots: bool,
}

impl TrustArgs {
    /// Reads every `--ca-cert` file.
    ///
    /// # Errors
    /// [`CliError::CaCert`] naming the first file that cannot be read or holds no usable
    /// certificate.
    pub(crate) fn load(&self) -> Result<Trust, CliError> {
        Ok(Trust {
            roots: load_roots(&self.ca_certs)?,
            platform_roots: self.platform_roots,
        })
    }
}

/// `--ca-cert FILE` (repeatable) alone, for the `cache` commands: the roots trusted for a
/// `rediss://` `--cache` besides the platform's store.
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct CaCertArgs {
    /// For a rediss:// --cache, also trust the root certificates in FILE (PEM; a bundle may
    /// hold several) besides the platform's store: the private CA of the Redis server.
    /// Repeatable.
    #[arg(long = "ca-cert", value_name = "FILE")]
    ca_certs: Vec<PathBuf>,
}

impl CaCertArgs {
    /// Reads every `--ca-cert` file.
    ///
    /// # Errors
    /// As [`TrustArgs::load`].
    pub(crate) fn load(&self) -> Result<Vec<RootCertificate>, CliError> {
        load_roots(&self.ca_certs)
    }
}

/// The certificates of every file of `paths`.
fn load_roots(paths: &[PathBuf]) -> Result<Vec<RootCertificate>, CliError> {
    let mut roots = Vec::new();
    for path in paths {
        let error = |reason: String| CliError::CaCert {
            path: path.to_string_lossy().into_owned(),
            reason,
        };
        let bytes = read_capped(path).map_err(error)?;
        roots.extend(RootCertificate::from_pem(&bytes).map_err(|e| error(e.to_string()))?);
    }
    Ok(roots)
}

impl Trust {
    /// The roots of `--ca-cert`.
    pub(crate) fn roots(&self) -> &[RootCertificate] {
        &self.roots
    }

    /// Puts these settings into `options`.
    pub(crate) fn apply(&self, options: &mut FetchOptions) {
        options
            .extra_root_certificates
            .extend(self.roots.iter().cloned());
        options.platform_roots |= self.platform_roots;
    }
}

/// The bytes of `path`, at most [`MAX_CA_FILE_BYTES`].
fn read_capped(path: &PathBuf) -> Result<Vec<u8>, String> {
    let file = File::open(path).map_err(|error| error.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_CA_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| error.to_string())?;
    if bytes.len() as u64 > MAX_CA_FILE_BYTES {
        return Err(format!(
            "larger than {} MiB, too large for a certificate file",
            MAX_CA_FILE_BYTES >> 20
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_flags_trust_nothing_more() {
        let mut options = FetchOptions::default();
        TrustArgs::default().load().unwrap().apply(&mut options);
        assert_eq!(options, FetchOptions::default());
    }

    #[test]
    fn platform_roots_are_passed_on() {
        let args = TrustArgs {
            ca_certs: Vec::new(),
            platform_roots: true,
        };
        let mut options = FetchOptions::default();
        args.load().unwrap().apply(&mut options);
        assert!(options.platform_roots);
    }

    #[test]
    fn a_directory_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let args = TrustArgs {
            ca_certs: vec![dir.path().to_path_buf()],
            platform_roots: false,
        };
        let error = args.load().unwrap_err().to_string();
        assert!(
            error.contains(&format!("{:?}", dir.path().to_string_lossy())),
            "{error}"
        );
    }
}

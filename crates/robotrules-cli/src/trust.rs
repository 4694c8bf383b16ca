//! `--ca-cert FILE` ([`crate::args::RemoteArgs`]): the certificates trusted for `https://`,
//! besides the built-in web roots, and for a `rediss://` `--cache`, besides the platform's
//! store.
//!
//! The files are read and checked before anything is fetched: a file that is missing,
//! unreadable, empty, not PEM, or holds no certificate (a private key, say) is a usage error
//! naming the file, even when no `https://` URL is fetched.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

use robotrules::client::RootCertificate;

use crate::error::CliError;

/// The largest `--ca-cert` file read (a full public CA bundle is about 200 KB).
const MAX_CA_FILE_BYTES: u64 = 16 << 20;

/// The certificates of every file of `paths`.
///
/// # Errors
/// [`CliError::CaCert`] naming the first file that cannot be read or holds no usable
/// certificate.
pub(crate) fn load_roots(paths: &[PathBuf]) -> Result<Vec<RootCertificate>, CliError> {
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
    fn a_directory_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let error = load_roots(&[dir.path().to_path_buf()])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("{:?}", dir.path().to_string_lossy())),
            "{error}"
        );
    }
}

//! Extra trust roots for HTTPS: root certificates a crawler trusts besides the built-in web
//! roots, read from PEM (a private CA, a TLS-inspecting proxy's CA).
//!
//! Each certificate is checked when it is read, so a file that holds no certificate, or a
//! certificate that cannot be a trust anchor, is an error before any fetch is made.

use rustls_pki_types::pem::{self, PemObject, SectionKind};
use rustls_pki_types::CertificateDer;

/// A root certificate to trust for HTTPS, in addition to the built-in ones
/// ([`FetchOptions::extra_root_certificates`](crate::FetchOptions::extra_root_certificates)).
///
/// ```
/// use robotrules_fetch::RootCertificate;
///
/// let error = RootCertificate::from_pem(b"").unwrap_err();
/// assert_eq!(error.to_string(), "the file is empty");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RootCertificate {
    der: Vec<u8>,
}

impl std::fmt::Debug for RootCertificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RootCertificate")
            .field("der_bytes", &self.der.len())
            .finish()
    }
}

/// Why PEM or DER bytes give no usable root certificate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// Nothing but white space.
    #[error("the file is empty")]
    Empty,
    /// No PEM section (`-----BEGIN …-----`) at all.
    #[error("not PEM: no `-----BEGIN CERTIFICATE-----` section")]
    NotPem,
    /// PEM sections, none of them a certificate (a private key, a certificate request, …).
    #[error("holds {found}, not a certificate")]
    NoCertificate {
        /// What the sections hold, for example `a private key`.
        found: String,
    },
    /// The PEM is malformed (a section without its end line, bad base64, …).
    #[error("malformed PEM: {detail}")]
    MalformedPem {
        /// What was wrong.
        detail: String,
    },
    /// A certificate section that is not an X.509 certificate usable as a trust anchor.
    #[error("certificate {index} cannot be a trust root: {detail}")]
    Invalid {
        /// Its position among the certificates, from 1.
        index: usize,
        /// Why.
        detail: String,
    },
}

impl RootCertificate {
    /// Every certificate in `pem` (a CA bundle may hold several). Sections other than
    /// certificates (a key next to the certificate, say) are skipped, as long as there is at
    /// least one certificate.
    ///
    /// # Errors
    /// [`CertificateError`] when `pem` is empty, not PEM, holds no certificate, is malformed,
    /// or holds a certificate that cannot be a trust anchor.
    pub fn from_pem(pem: &[u8]) -> Result<Vec<RootCertificate>, CertificateError> {
        if pem.iter().all(u8::is_ascii_whitespace) {
            return Err(CertificateError::Empty);
        }
        let mut certificates = Vec::new();
        let mut others = Vec::new();
        for section in <(SectionKind, Vec<u8>)>::pem_slice_iter(pem) {
            match section.map_err(|error| malformed(&error))? {
                (SectionKind::Certificate, der) => {
                    certificates.push(Self::checked(der, certificates.len() + 1)?);
                }
                (kind, _) => others.push(kind),
            }
        }
        if !certificates.is_empty() {
            return Ok(certificates);
        }
        if others.is_empty() {
            return Err(CertificateError::NotPem);
        }
        Err(CertificateError::NoCertificate {
            found: describe_sections(&others),
        })
    }

    /// One certificate in DER.
    ///
    /// # Errors
    /// [`CertificateError::Invalid`] when `der` cannot be a trust anchor.
    pub fn from_der(der: impl Into<Vec<u8>>) -> Result<RootCertificate, CertificateError> {
        Self::checked(der.into(), 1)
    }

    /// The certificate in DER.
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    /// `der` if rustls accepts it as a trust anchor (the check the HTTPS client makes).
    fn checked(der: Vec<u8>, index: usize) -> Result<RootCertificate, CertificateError> {
        let mut store = rustls::RootCertStore::empty();
        store
            .add(CertificateDer::from(der.as_slice()))
            .map_err(|error| CertificateError::Invalid {
                index,
                detail: error.to_string(),
            })?;
        Ok(RootCertificate { der })
    }
}

fn malformed(error: &pem::Error) -> CertificateError {
    CertificateError::MalformedPem {
        detail: error.to_string(),
    }
}

/// `a private key`, `a certificate request and a public key`, … for the kinds of `sections`.
fn describe_sections(sections: &[SectionKind]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for kind in sections {
        let name = match kind {
            SectionKind::RsaPrivateKey | SectionKind::PrivateKey | SectionKind::EcPrivateKey => {
                "a private key"
            }
            SectionKind::PublicKey => "a public key",
            SectionKind::Crl => "a certificate revocation list",
            SectionKind::Csr => "a certificate request",
            _ => "another PEM object",
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(" and ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// A section labelled as a private key; its content is never looked at (and is no key).
    const KEY: &str = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";

    #[rstest]
    #[case::empty("", CertificateError::Empty)]
    #[case::blank(" \n\r\n\t", CertificateError::Empty)]
    #[case::text("User-agent: *\nDisallow: /\n", CertificateError::NotPem)]
    #[case::key(KEY, CertificateError::NoCertificate { found: "a private key".into() })]
    fn unusable_pem(#[case] pem: &str, #[case] expected: CertificateError) {
        assert_eq!(RootCertificate::from_pem(pem.as_bytes()), Err(expected));
    }

    #[test]
    fn a_certificate_section_with_garbage_inside_is_invalid() {
        let pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assert!(matches!(
            RootCertificate::from_pem(pem.as_bytes()),
            Err(CertificateError::Invalid { index: 1, .. })
        ));
    }

    #[test]
    fn a_section_without_its_end_is_malformed() {
        let pem = "-----BEGIN CERTIFICATE-----\nAAAA\n";
        assert!(matches!(
            RootCertificate::from_pem(pem.as_bytes()),
            Err(CertificateError::MalformedPem { .. })
        ));
    }

    #[test]
    fn sections_are_named_once_each() {
        let kinds = [
            SectionKind::PrivateKey,
            SectionKind::EcPrivateKey,
            SectionKind::Csr,
        ];
        assert_eq!(
            describe_sections(&kinds),
            "a private key and a certificate request"
        );
    }

    #[test]
    fn der_that_is_no_certificate_is_invalid() {
        assert!(matches!(
            RootCertificate::from_der(vec![0x30, 0x03, 0x02, 0x01, 0x01]),
            Err(CertificateError::Invalid { .. })
        ));
    }
}

//! `rediss://` with extra trust roots: redis-rs takes custom roots as one PEM bundle that
//! *replaces* the platform store it trusts by default, so the bundle handed to it holds the
//! platform's roots (read as redis-rs reads them, with rustls-native-certs) and the extra
//! ones ([`RedisOptions::extra_root_certificates`](super::RedisOptions::extra_root_certificates)).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use redis::{ConnectionAddr, IntoConnectionInfo, RedisResult, TlsCertificates};

use crate::RootCertificate;

/// The client for `url`: with `extra` trusted besides the platform's roots when `url` is
/// `rediss://` and `extra` is not empty; as `redis::Client::open` otherwise.
pub(super) fn client(url: &str, extra: &[RootCertificate]) -> RedisResult<redis::Client> {
    let info = url.into_connection_info()?;
    if extra.is_empty() || !matches!(info.addr(), ConnectionAddr::TcpTls { .. }) {
        return redis::Client::open(info);
    }
    redis::Client::build_with_tls(info, certificates(extra))
}

/// The certificates of a cluster whose nodes are `nodes`, when they are `rediss://` and there
/// are `extra` roots (`None` leaves redis-rs' defaults).
pub(super) fn cluster_certificates(
    nodes: &[&str],
    extra: &[RootCertificate],
) -> Option<TlsCertificates> {
    let tls = nodes.iter().any(|node| {
        node.get(..9)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("rediss://"))
    });
    (tls && !extra.is_empty()).then(|| certificates(extra))
}

/// The platform's roots and `extra`, as the PEM bundle redis-rs reads.
fn certificates(extra: &[RootCertificate]) -> TlsCertificates {
    let platform = rustls_native_certs::load_native_certs();
    for error in &platform.errors {
        tracing::debug!(%error, "a platform root certificate could not be read for rediss://");
    }
    let mut pem = String::new();
    let ders = platform
        .certs
        .iter()
        .map(|certificate| certificate.as_ref())
        .chain(extra.iter().map(RootCertificate::der));
    for der in ders {
        push_pem(&mut pem, der);
    }
    TlsCertificates {
        client_tls: None,
        root_cert: Some(pem.into_bytes()),
    }
}

/// Appends `der` as a PEM `CERTIFICATE` section.
fn push_pem(pem: &mut String, der: &[u8]) {
    pem.push_str("-----BEGIN CERTIFICATE-----\n");
    let base64 = STANDARD.encode(der);
    for line in base64.as_bytes().chunks(64) {
        // Base64 is ASCII.
        pem.push_str(std::str::from_utf8(line).unwrap_or_default());
        pem.push('\n');
    }
    pem.push_str("-----END CERTIFICATE-----\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls_pki_types::pem::PemObject;

    #[test]
    fn pem_sections_read_back_as_the_same_der() {
        let der: Vec<u8> = (0..=255).cycle().take(1000).collect();
        let mut pem = String::new();
        push_pem(&mut pem, &der);
        push_pem(&mut pem, &der[..3]);
        assert!(pem.lines().all(|line| line.len() <= 64));
        let read: Vec<Vec<u8>> = rustls_pki_types::CertificateDer::pem_slice_iter(pem.as_bytes())
            .map(|certificate| certificate.unwrap().to_vec())
            .collect();
        assert_eq!(read, vec![der.clone(), der[..3].to_vec()]);
    }

    #[test]
    fn only_rediss_with_extra_roots_gets_a_bundle_holding_them() {
        let ca = robotrules_testserver::tls::TestCa::new("unit CA").unwrap();
        let extra = RootCertificate::from_pem(ca.pem().as_bytes()).unwrap();
        assert!(cluster_certificates(&["rediss://a:1"], &[]).is_none());
        assert!(cluster_certificates(&["redis://a:1", "redis://b:1"], &extra).is_none());
        let bundle = cluster_certificates(&["REDISS://a:1"], &extra).unwrap();
        let pem = bundle.root_cert.unwrap();
        let ders: Vec<Vec<u8>> = rustls_pki_types::CertificateDer::pem_slice_iter(&pem)
            .map(|certificate| certificate.unwrap().to_vec())
            .collect();
        assert_eq!(ders.last(), Some(&ca.der()));

        // The client builds for plain and TLS URLs alike (the bundle is checked above, through
        // the same `certificates`); a URL that is not Redis's is refused.
        assert!(client("redis://127.0.0.1:1/0", &extra).is_ok());
        assert!(client("rediss://127.0.0.1:1/0", &extra).is_ok());
        assert!(client("http://127.0.0.1:1/", &extra).is_err());
    }
}

//! Which addresses a fetch may connect to ([`AddressPolicy`]): any (the default), or only
//! public ones, for a fetcher that strangers drive (`robotrules serve`), so that a robots.txt
//! URL cannot make it reach the machine itself or its private network (server-side request
//! forgery).
//!
//! With [`AddressPolicy::Public`], every address is checked where it is known: an IP-literal
//! host before each request (the first and every redirect, in [`crate::http`]), a host name
//! when it is resolved ([`GuardedResolver`]: the addresses checked are the addresses connected
//! to, so a name that resolves differently the second time gains nothing), a `resolve`
//! override, and the FTP server's addresses. Proxies from the environment are not used then:
//! the proxy, not the fetcher, would resolve the name.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use crate::outcome::UnreachableReason;
use crate::special_address::non_public;

/// Which addresses a fetch may connect to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddressPolicy {
    /// Any address (the default): a crawler's own fetcher.
    #[default]
    Any,
    /// Only public addresses: every address IANA's special-purpose address registries mark
    /// not globally reachable is refused (loopback, private, shared, link-local,
    /// documentation, benchmarking, reserved, …; the table is `special_address.rs`), and
    /// multicast; an IPv6 address that carries an IPv4 address (IPv4-mapped, NAT64, 6to4,
    /// Teredo) is refused when that IPv4 address is.
    Public {
        /// Socket addresses allowed all the same when a URL names them by IP address (a known
        /// internal host; the tests' first hop). Host names are always checked.
        except: Vec<SocketAddr>,
    },
}

/// A fetch refused by [`AddressPolicy::Public`]: what was asked for and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    /// The host as the URL names it.
    host: String,
    /// The address refused.
    address: IpAddr,
    /// `a loopback address`, `a private address`, ….
    kind: String,
}

/// `localhost is 127.0.0.1, a loopback address: …` for a name; `127.0.0.1 is a loopback
/// address: …` for an address written in the URL.
impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (host, address, kind) = (&self.host, self.address, &self.kind);
        let literal = host.trim_start_matches('[').trim_end_matches(']');
        if literal.parse::<IpAddr>().is_ok_and(|ip| ip == address) {
            write!(f, "{host} is {kind}: only public addresses are fetched")
        } else {
            write!(
                f,
                "{host} is {address}, {kind}: only public addresses are fetched"
            )
        }
    }
}

impl std::error::Error for Refused {}

/// A refusal as the access result's reason: unreachable, with the refusal's sentence.
impl From<&Refused> for UnreachableReason {
    fn from(refused: &Refused) -> Self {
        UnreachableReason::Refused {
            detail: refused.to_string(),
        }
    }
}

impl AddressPolicy {
    /// Only public addresses, no exceptions.
    pub fn public() -> AddressPolicy {
        AddressPolicy::Public { except: Vec::new() }
    }

    /// Whether addresses are checked.
    pub(crate) fn is_guarded(&self) -> bool {
        matches!(self, AddressPolicy::Public { .. })
    }

    /// Checks `address`, which `host` resolved to (or names); `port` is `None` where it is
    /// not known (name resolution), so that no exception applies.
    pub(crate) fn check(
        &self,
        host: &str,
        address: IpAddr,
        port: Option<u16>,
    ) -> Result<(), Refused> {
        let AddressPolicy::Public { except } = self else {
            return Ok(());
        };
        let Some(kind) = non_public(address) else {
            return Ok(());
        };
        if port.is_some_and(|port| except.contains(&SocketAddr::new(address, port))) {
            return Ok(());
        }
        Err(Refused {
            host: host.to_owned(),
            address,
            kind,
        })
    }
}

/// Checks an IP-literal `host` (`[::1]` or `127.0.0.1`) on `port`; host names pass (their
/// addresses are checked when they are resolved).
pub(crate) fn check_literal(policy: &AddressPolicy, host: &str, port: u16) -> Result<(), Refused> {
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    match literal.parse::<IpAddr>() {
        Ok(ip) => policy.check(host, ip, Some(port)),
        Err(_) => Ok(()),
    }
}

/// A reqwest resolver that refuses names resolving to an address the policy refuses (any
/// one of them: a name that also resolves to a loopback address is refused).
#[derive(Debug)]
pub(crate) struct GuardedResolver {
    policy: AddressPolicy,
}

impl GuardedResolver {
    /// A resolver for `policy`.
    pub(crate) fn new(policy: AddressPolicy) -> Arc<GuardedResolver> {
        Arc::new(GuardedResolver { policy })
    }
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addresses: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            for address in &addresses {
                policy.check(&host, address.ip(), None)?;
            }
            let addresses: reqwest::dns::Addrs = Box::new(addresses.into_iter());
            Ok(addresses)
        })
    }
}

/// The refusal in a reqwest error's chain, if the resolver refused.
pub(crate) fn refusal_in<'e>(
    errors: &[&'e (dyn std::error::Error + 'static)],
) -> Option<&'e Refused> {
    errors
        .iter()
        .find_map(|error| error.downcast_ref::<Refused>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exceptions_need_the_port_and_apply_to_literals_only() {
        let allowed: SocketAddr = "127.0.0.1:8080".parse().expect("an address");
        let policy = AddressPolicy::Public {
            except: vec![allowed],
        };
        assert!(check_literal(&policy, "127.0.0.1", 8080).is_ok());
        let refused = check_literal(&policy, "127.0.0.1", 8081).expect_err("another port");
        assert_eq!(
            refused.to_string(),
            "127.0.0.1 is a loopback address: only public addresses are fetched"
        );
        assert!(policy.check("localhost", allowed.ip(), None).is_err());
        assert!(check_literal(&policy, "example.com", 80).is_ok());
        assert!(check_literal(&AddressPolicy::Any, "[::1]", 80).is_ok());
        assert!(check_literal(&AddressPolicy::public(), "[::1]", 80).is_err());
    }

    #[test]
    fn special_purpose_blocks_are_refused_with_their_kind() {
        let refused =
            check_literal(&AddressPolicy::public(), "198.18.0.1", 80).expect_err("benchmarking");
        assert_eq!(
            refused.to_string(),
            "198.18.0.1 is a benchmarking address: only public addresses are fetched"
        );
        let refused = check_literal(&AddressPolicy::public(), "[2002:a00:1::1]", 80)
            .expect_err("6to4 of a private address");
        assert_eq!(
            refused.to_string(),
            "[2002:a00:1::1] is a private address (10.0.0.1, carried in a 6to4 address): only \
             public addresses are fetched"
        );
        assert!(check_literal(&AddressPolicy::public(), "[2002:808:808::1]", 80).is_ok());
    }
}

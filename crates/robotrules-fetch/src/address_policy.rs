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

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use crate::outcome::UnreachableReason;

/// Which addresses a fetch may connect to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AddressPolicy {
    /// Any address (the default): a crawler's own fetcher.
    #[default]
    Any,
    /// Only public addresses: loopback, private, shared (carrier-grade NAT), link-local,
    /// multicast, broadcast and unspecified addresses are refused, IPv4-mapped IPv6 addresses
    /// as their IPv4 address.
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
    kind: &'static str,
}

/// `localhost is 127.0.0.1, a loopback address: …` for a name; `127.0.0.1 is a loopback
/// address: …` for an address written in the URL.
impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (host, address, kind) = (&self.host, self.address, self.kind);
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

/// What kind of non-public address `ip` is, or `None` for a public one.
pub(crate) fn non_public(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => non_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => non_public_v4(v4),
            None => non_public_v6(v6),
        },
    }
}

fn non_public_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_unspecified() || a == 0 {
        Some("an unspecified address")
    } else if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_private() {
        Some("a private address")
    } else if a == 100 && (64..128).contains(&b) {
        Some("a shared (carrier-grade NAT) address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if ip.is_broadcast() || a >= 240 {
        Some("a broadcast or reserved address")
    } else {
        None
    }
}

fn non_public_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip.is_unspecified() {
        Some("an unspecified address")
    } else if ip.is_loopback() {
        Some("a loopback address")
    } else if first & 0xfe00 == 0xfc00 {
        Some("a private (unique local) address")
    } else if first & 0xffc0 == 0xfe80 {
        Some("a link-local address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if let Some(v4) = ip.to_ipv4() {
        // IPv4-compatible (::a.b.c.d, deprecated) addresses: as their IPv4 address.
        non_public_v4(v4)
    } else {
        None
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
    use rstest::rstest;

    #[rstest]
    #[case("127.0.0.1", "a loopback address")]
    #[case("127.8.9.10", "a loopback address")]
    #[case("::1", "a loopback address")]
    #[case("::ffff:127.0.0.1", "a loopback address")]
    #[case("10.1.2.3", "a private address")]
    #[case("172.16.0.1", "a private address")]
    #[case("192.168.1.1", "a private address")]
    #[case("::ffff:192.168.1.1", "a private address")]
    #[case("fd00::1", "a private (unique local) address")]
    #[case("100.64.0.1", "a shared (carrier-grade NAT) address")]
    #[case("169.254.169.254", "a link-local address")]
    #[case("fe80::1", "a link-local address")]
    #[case("224.0.0.1", "a multicast address")]
    #[case("ff02::1", "a multicast address")]
    #[case("0.0.0.0", "an unspecified address")]
    #[case("0.1.2.3", "an unspecified address")]
    #[case("::", "an unspecified address")]
    #[case("255.255.255.255", "a broadcast or reserved address")]
    fn non_public_addresses(#[case] ip: &str, #[case] kind: &str) {
        let ip: IpAddr = ip.parse().expect("an address");
        assert_eq!(non_public(ip), Some(kind), "{ip}");
    }

    #[rstest]
    #[case("93.184.215.14")]
    #[case("8.8.8.8")]
    #[case("100.128.0.1")]
    #[case("2606:4700::1111")]
    fn public_addresses(#[case] ip: &str) {
        let ip: IpAddr = ip.parse().expect("an address");
        assert_eq!(non_public(ip), None, "{ip}");
    }

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
}

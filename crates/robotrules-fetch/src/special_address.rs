//! The addresses that are not globally reachable: IANA's IPv4 and IPv6 Special-Purpose Address
//! Registries (RFC 6890), one row per block, as one table ([`BLOCKS`]), with multicast and
//! the deprecated site-local block besides. [`non_public`] looks an address up: the most
//! specific block that holds it decides, so a globally reachable assignment inside a block that
//! is not (`192.0.0.9/32` in `192.0.0.0/24`) is public.
//!
//! Blocks that carry an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are judged by that
//! address: a connection to them reaches it. The registries:
//! <https://www.iana.org/assignments/iana-ipv4-special-registry/> and
//! <https://www.iana.org/assignments/iana-ipv6-special-registry/>.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What a block's "Globally Reachable" column means for a fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Not globally reachable: refused, as this kind of address (`a loopback address`).
    Refused(&'static str),
    /// Globally reachable, although a wider block is not (an anycast service address).
    Public,
    /// Judged by the IPv4 address it carries.
    Carries(Embedded),
}

/// Where a block's addresses carry an IPv4 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Embedded {
    /// In the last 32 bits of an IPv4-mapped address (`::ffff:a.b.c.d`), which is that
    /// IPv4 address.
    Mapped,
    /// In the last 32 bits of a NAT64 address (`64:ff9b::a.b.c.d`, RFC 6052 §2.2).
    Nat64,
    /// In bits 16 to 47 (6to4, `2002:AABB:CCDD::`, RFC 3056 §2).
    SixToFour,
    /// The Teredo server in bits 32 to 63 and the client, inverted, in the last 32 bits
    /// (RFC 4380 §4): both are judged.
    Teredo,
}

/// An address block: a prefix of an IPv4 or an IPv6 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Net {
    /// `address/length`.
    V4(Ipv4Addr, u8),
    /// `address/length`.
    V6(Ipv6Addr, u8),
}

/// One row: the block, the registry row it comes from, and what it means for a fetch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    /// The block.
    pub(crate) net: Net,
    /// The registry and row (its name and its RFC), as IANA lists it: the citation, read by
    /// the tests' failure messages.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) row: &'static str,
    /// Refused, public or judged by the IPv4 address inside.
    pub(crate) reach: Reach,
}

/// A row for the IPv4 block `a.b.c.d/length`.
const fn v4(a: u8, b: u8, c: u8, d: u8, length: u8, row: &'static str, reach: Reach) -> Block {
    Block {
        net: Net::V4(Ipv4Addr::new(a, b, c, d), length),
        row,
        reach,
    }
}

/// A row for the IPv6 block `segments/length`.
const fn v6(segments: [u16; 8], length: u8, row: &'static str, reach: Reach) -> Block {
    let [a, b, c, d, e, f, g, h] = segments;
    Block {
        net: Net::V6(Ipv6Addr::new(a, b, c, d, e, f, g, h), length),
        row,
        reach,
    }
}

use Reach::{Carries, Public, Refused};

const UNSPECIFIED: Reach = Refused("an unspecified address");
const LOOPBACK: Reach = Refused("a loopback address");
const PRIVATE: Reach = Refused("a private address");
const LINK_LOCAL: Reach = Refused("a link-local address");
const DOCUMENTATION: Reach = Refused("a documentation address");
const BENCHMARKING: Reach = Refused("a benchmarking address");
const PROTOCOL: Reach = Refused("an IETF protocol assignment");
const MULTICAST: Reach = Refused("a multicast address");

/// Every block that is not globally reachable, and the globally reachable rows inside them.
/// `v4`: IANA IPv4 Special-Purpose Address Registry; `v6`: the IPv6 one; the RFC is the row's.
#[rustfmt::skip]
pub(crate) static BLOCKS: &[Block] = &[
    // IPv4 Special-Purpose Address Registry.
    v4(0, 0, 0, 0, 8, "v4 0.0.0.0/8 \"This network\" (RFC 791 §3.2)", UNSPECIFIED),
    v4(0, 0, 0, 0, 32, "v4 0.0.0.0/32 \"This host on this network\" (RFC 1122 §3.2.1.3)", UNSPECIFIED),
    v4(10, 0, 0, 0, 8, "v4 10.0.0.0/8 Private-Use (RFC 1918)", PRIVATE),
    v4(100, 64, 0, 0, 10, "v4 100.64.0.0/10 Shared Address Space (RFC 6598)", Refused("a shared (carrier-grade NAT) address")),
    v4(127, 0, 0, 0, 8, "v4 127.0.0.0/8 Loopback (RFC 1122 §3.2.1.3)", LOOPBACK),
    v4(169, 254, 0, 0, 16, "v4 169.254.0.0/16 Link Local (RFC 3927)", LINK_LOCAL),
    v4(172, 16, 0, 0, 12, "v4 172.16.0.0/12 Private-Use (RFC 1918)", PRIVATE),
    v4(192, 0, 0, 0, 24, "v4 192.0.0.0/24 IETF Protocol Assignments (RFC 6890 §2.1)", PROTOCOL),
    v4(192, 0, 0, 0, 29, "v4 192.0.0.0/29 IPv4 Service Continuity Prefix (RFC 7335)", PROTOCOL),
    v4(192, 0, 0, 8, 32, "v4 192.0.0.8/32 IPv4 dummy address (RFC 7600)", PROTOCOL),
    v4(192, 0, 0, 9, 32, "v4 192.0.0.9/32 Port Control Protocol Anycast (RFC 7723)", Public),
    v4(192, 0, 0, 10, 32, "v4 192.0.0.10/32 Traversal Using Relays around NAT Anycast (RFC 8155)", Public),
    v4(192, 0, 0, 170, 32, "v4 192.0.0.170/32 NAT64/DNS64 Discovery (RFC 8880, RFC 7050 §2.2)", PROTOCOL),
    v4(192, 0, 0, 171, 32, "v4 192.0.0.171/32 NAT64/DNS64 Discovery (RFC 8880, RFC 7050 §2.2)", PROTOCOL),
    v4(192, 0, 2, 0, 24, "v4 192.0.2.0/24 Documentation (TEST-NET-1) (RFC 5737)", DOCUMENTATION),
    v4(192, 31, 196, 0, 24, "v4 192.31.196.0/24 AS112-v4 (RFC 7535)", Public),
    v4(192, 52, 193, 0, 24, "v4 192.52.193.0/24 AMT (RFC 7450)", Public),
    // "N/A" in the registry: the anycast relays are gone (RFC 7526), nothing to fetch there.
    v4(192, 88, 99, 0, 24, "v4 192.88.99.0/24 Deprecated (6to4 Relay Anycast) (RFC 7526)", Refused("a deprecated 6to4 relay anycast address")),
    v4(192, 168, 0, 0, 16, "v4 192.168.0.0/16 Private-Use (RFC 1918)", PRIVATE),
    v4(192, 175, 48, 0, 24, "v4 192.175.48.0/24 Direct Delegation AS112 Service (RFC 7534)", Public),
    v4(198, 18, 0, 0, 15, "v4 198.18.0.0/15 Benchmarking (RFC 2544)", BENCHMARKING),
    v4(198, 51, 100, 0, 24, "v4 198.51.100.0/24 Documentation (TEST-NET-2) (RFC 5737)", DOCUMENTATION),
    v4(203, 0, 113, 0, 24, "v4 203.0.113.0/24 Documentation (TEST-NET-3) (RFC 5737)", DOCUMENTATION),
    v4(240, 0, 0, 0, 4, "v4 240.0.0.0/4 Reserved (RFC 1112 §4)", Refused("a reserved address")),
    v4(255, 255, 255, 255, 32, "v4 255.255.255.255/32 Limited Broadcast (RFC 8190, RFC 919 §7)", Refused("a broadcast address")),
    // Not in the registry (multicast has its own): no fetch is multicast.
    v4(224, 0, 0, 0, 4, "IPv4 Multicast Address Space Registry 224.0.0.0/4 (RFC 5771)", MULTICAST),
    // IPv6 Special-Purpose Address Registry.
    v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "v6 ::1/128 Loopback Address (RFC 4291)", LOOPBACK),
    v6([0; 8], 128, "v6 ::/128 Unspecified Address (RFC 4291)", UNSPECIFIED),
    // The registry marks it not globally reachable; a connection to it reaches the IPv4
    // address, so that address is judged.
    v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, "v6 ::ffff:0:0/96 IPv4-mapped Address (RFC 4291)", Carries(Embedded::Mapped)),
    // Deprecated (RFC 4291 §2.5.5.1), not a registry row: refused whatever it carries.
    v6([0; 8], 96, "RFC 4291 §2.5.5.1 ::/96 IPv4-Compatible IPv6 Address (deprecated)", Refused("an IPv4-compatible IPv6 address (deprecated)")),
    v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96, "v6 64:ff9b::/96 IPv4-IPv6 Translat. (RFC 6052)", Carries(Embedded::Nat64)),
    v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, "v6 64:ff9b:1::/48 IPv4-IPv6 Translat. (RFC 8215)", Refused("a local-use IPv4/IPv6 translation address")),
    v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "v6 100::/64 Discard-Only Address Block (RFC 6666)", Refused("a discard-only address")),
    v6([0x100, 0, 0, 1, 0, 0, 0, 0], 64, "v6 100:0:0:1::/64 Dummy IPv6 Prefix (RFC 9780)", Refused("a dummy address")),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, "v6 2001::/23 IETF Protocol Assignments (RFC 2928)", PROTOCOL),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, "v6 2001::/32 TEREDO (RFC 4380, RFC 8190)", Carries(Embedded::Teredo)),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 1], 128, "v6 2001:1::1/128 Port Control Protocol Anycast (RFC 7723)", Public),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 2], 128, "v6 2001:1::2/128 Traversal Using Relays around NAT Anycast (RFC 8155)", Public),
    v6([0x2001, 1, 0, 0, 0, 0, 0, 3], 128, "v6 2001:1::3/128 DNS-SD Service Registration Protocol Anycast (RFC 9665)", Public),
    v6([0x2001, 2, 0, 0, 0, 0, 0, 0], 48, "v6 2001:2::/48 Benchmarking (RFC 5180, RFC Errata 1752)", BENCHMARKING),
    v6([0x2001, 3, 0, 0, 0, 0, 0, 0], 32, "v6 2001:3::/32 AMT (RFC 7450)", Public),
    v6([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48, "v6 2001:4:112::/48 AS112-v6 (RFC 7535)", Public),
    // "N/A" in the registry: deprecated, not routed.
    v6([0x2001, 0x10, 0, 0, 0, 0, 0, 0], 28, "v6 2001:10::/28 Deprecated (previously ORCHID) (RFC 4843)", Refused("a deprecated ORCHID address")),
    v6([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28, "v6 2001:20::/28 ORCHIDv2 (RFC 7343)", Public),
    v6([0x2001, 0x30, 0, 0, 0, 0, 0, 0], 28, "v6 2001:30::/28 Drone Remote ID Protocol Entity Tags (DETs) Prefix (RFC 9374)", Public),
    v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "v6 2001:db8::/32 Documentation (RFC 3849)", DOCUMENTATION),
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "v6 2002::/16 6to4 (RFC 3056)", Carries(Embedded::SixToFour)),
    v6([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0], 48, "v6 2620:4f:8000::/48 Direct Delegation AS112 Service (RFC 7534)", Public),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "v6 3fff::/20 Documentation (RFC 9637)", DOCUMENTATION),
    v6([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, "v6 5f00::/16 Segment Routing (SRv6) SIDs (RFC 9602)", Refused("a segment routing (SRv6) address")),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "v6 fc00::/7 Unique-Local (RFC 4193, RFC 8190)", Refused("a private (unique local) address")),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "v6 fe80::/10 Link-Local Unicast (RFC 4291)", LINK_LOCAL),
    // Not registry rows: site-local is deprecated (RFC 3879) and multicast has its own registry.
    v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "RFC 3879 fec0::/10 Site-Local (deprecated)", Refused("a site-local address (deprecated)")),
    v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "IPv6 Multicast Address Space Registry ff00::/8 (RFC 4291)", MULTICAST),
];

impl Net {
    /// Whether `ip` lies in the block.
    fn contains(self, ip: IpAddr) -> bool {
        match (self, ip) {
            (Net::V4(net, length), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(length)).unwrap_or(0);
                u32::from(ip) & mask == u32::from(net) & mask
            }
            (Net::V6(net, length), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(length)).unwrap_or(0);
                u128::from(ip) & mask == u128::from(net) & mask
            }
            _ => false,
        }
    }

    /// The prefix length.
    fn length(self) -> u8 {
        match self {
            Net::V4(_, length) | Net::V6(_, length) => length,
        }
    }
}

/// The most specific row of [`BLOCKS`] that holds `ip`, if any.
pub(crate) fn block_of(ip: IpAddr) -> Option<&'static Block> {
    BLOCKS
        .iter()
        .filter(|block| block.net.contains(ip))
        .max_by_key(|block| block.net.length())
}

/// What kind of non-public address `ip` is (`a loopback address`; for an address carrying a
/// non-public IPv4 address, that address's kind and the carrier: `a private address (in a 6to4
/// address)`), or `None` for a globally reachable one.
pub(crate) fn non_public(ip: IpAddr) -> Option<String> {
    let block = block_of(ip)?;
    match block.reach {
        Reach::Public => None,
        Reach::Refused(kind) => Some(kind.to_owned()),
        Reach::Carries(embedded) => {
            let IpAddr::V6(v6) = ip else {
                return None;
            };
            carried(v6, embedded)
                .into_iter()
                .find_map(|v4| non_public(IpAddr::V4(v4)).map(|kind| (v4, kind)))
                .map(|(v4, kind)| match carrier(embedded) {
                    None => kind,
                    Some(carrier) => format!("{kind} ({v4}, carried in {carrier})"),
                })
        }
    }
}

/// The name of the kind of address that carries the IPv4 address; `None` for an IPv4-mapped
/// address, which is its IPv4 address.
fn carrier(embedded: Embedded) -> Option<&'static str> {
    match embedded {
        Embedded::Mapped => None,
        Embedded::Nat64 => Some("a NAT64 address"),
        Embedded::SixToFour => Some("a 6to4 address"),
        Embedded::Teredo => Some("a Teredo address"),
    }
}

/// The IPv4 addresses `ip` carries.
fn carried(ip: Ipv6Addr, embedded: Embedded) -> Vec<Ipv4Addr> {
    let bits = u128::from(ip);
    // Truncation is the point: each cast keeps the 32 bits shifted down.
    #[allow(clippy::cast_possible_truncation)]
    let word = |shift: u32| Ipv4Addr::from((bits >> shift) as u32);
    match embedded {
        Embedded::Mapped | Embedded::Nat64 => vec![word(0)],
        Embedded::SixToFour => vec![word(80)],
        Embedded::Teredo => vec![word(64), Ipv4Addr::from(!u32::from(word(0)))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One address inside each row, and the kind it must be refused as (`None`: public). Every
    /// row of [`BLOCKS`] is the most specific block of one of these (checked below).
    #[rustfmt::skip]
    const CASES: &[(&str, Option<&str>)] = &[
        // IPv4 Special-Purpose Address Registry.
        ("0.1.2.3", Some("an unspecified address")),
        ("0.0.0.0", Some("an unspecified address")),
        ("10.1.2.3", Some("a private address")),
        ("100.64.0.1", Some("a shared (carrier-grade NAT) address")),
        ("127.8.9.10", Some("a loopback address")),
        ("169.254.169.254", Some("a link-local address")),
        ("172.16.0.1", Some("a private address")),
        ("192.0.0.200", Some("an IETF protocol assignment")),
        ("192.0.0.1", Some("an IETF protocol assignment")),
        ("192.0.0.8", Some("an IETF protocol assignment")),
        ("192.0.0.9", None),
        ("192.0.0.10", None),
        ("192.0.0.170", Some("an IETF protocol assignment")),
        ("192.0.0.171", Some("an IETF protocol assignment")),
        ("192.0.2.1", Some("a documentation address")),
        ("192.31.196.1", None),
        ("192.52.193.1", None),
        ("192.88.99.1", Some("a deprecated 6to4 relay anycast address")),
        ("192.168.1.1", Some("a private address")),
        ("192.175.48.1", None),
        ("198.18.0.1", Some("a benchmarking address")),
        ("198.19.255.254", Some("a benchmarking address")),
        ("198.51.100.7", Some("a documentation address")),
        ("203.0.113.7", Some("a documentation address")),
        ("240.0.0.1", Some("a reserved address")),
        ("255.255.255.254", Some("a reserved address")),
        ("255.255.255.255", Some("a broadcast address")),
        ("224.0.0.1", Some("a multicast address")),
        // IPv6 Special-Purpose Address Registry.
        ("::1", Some("a loopback address")),
        ("::", Some("an unspecified address")),
        ("::ffff:127.0.0.1", Some("a loopback address")),
        ("::ffff:192.168.1.1", Some("a private address")),
        ("::ffff:8.8.8.8", None),
        ("::8.8.8.8", Some("an IPv4-compatible IPv6 address (deprecated)")),
        ("::127.0.0.1", Some("an IPv4-compatible IPv6 address (deprecated)")),
        ("64:ff9b::10.0.0.1", Some("a private address (10.0.0.1, carried in a NAT64 address)")),
        ("64:ff9b::8.8.8.8", None),
        ("64:ff9b:1::1", Some("a local-use IPv4/IPv6 translation address")),
        ("100::1", Some("a discard-only address")),
        ("100:0:0:1::1", Some("a dummy address")),
        // Teredo: server 8.8.8.8, client 8.8.4.4 (inverted: f7f7:fbfb) or 10.0.0.1.
        ("2001:0:808:808::f7f7:fbfb", None),
        ("2001:0:808:808::f5ff:fffe", Some("a private address (10.0.0.1, carried in a Teredo address)")),
        ("2001:0:7f00:1::f7f7:fbfb", Some("a loopback address (127.0.0.1, carried in a Teredo address)")),
        ("2001:1::1", None),
        ("2001:1::2", None),
        ("2001:1::3", None),
        ("2001:1::4", Some("an IETF protocol assignment")),
        ("2001:2::1", Some("a benchmarking address")),
        ("2001:3::1", None),
        ("2001:4:112::1", None),
        ("2001:10::1", Some("a deprecated ORCHID address")),
        ("2001:20::1", None),
        ("2001:30::1", None),
        ("2001:db8::1", Some("a documentation address")),
        ("2002:a00:1::1", Some("a private address (10.0.0.1, carried in a 6to4 address)")),
        ("2002:c612:1::1", Some("a benchmarking address (198.18.0.1, carried in a 6to4 address)")),
        ("2002:808:808::1", None),
        ("2620:4f:8000::1", None),
        ("3fff::1", Some("a documentation address")),
        ("5f00::1", Some("a segment routing (SRv6) address")),
        ("fd00::1", Some("a private (unique local) address")),
        ("fe80::1", Some("a link-local address")),
        ("fec0::1", Some("a site-local address (deprecated)")),
        ("ff02::1", Some("a multicast address")),
        // Outside every block.
        ("93.184.215.14", None),
        ("100.128.0.1", None),
        ("198.20.0.1", None),
        ("2606:4700::1111", None),
    ];

    fn ip(text: &str) -> IpAddr {
        text.parse()
            .unwrap_or_else(|_| panic!("{text} is not an address"))
    }

    #[test]
    fn each_row_decides_its_addresses() {
        let wrong: Vec<String> = CASES
            .iter()
            .filter(|(address, kind)| non_public(ip(address)).as_deref() != *kind)
            .map(|(address, kind)| {
                let row = block_of(ip(address)).map_or("no row", |block| block.row);
                format!(
                    "{address} ({row}): {:?}, expected {kind:?}",
                    non_public(ip(address))
                )
            })
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn every_row_is_tested() {
        for block in BLOCKS {
            assert!(
                CASES.iter().any(|(address, _)| {
                    block_of(ip(address)).is_some_and(|found| std::ptr::eq(found, block))
                }),
                "no test address for {}",
                block.row
            );
        }
    }
}

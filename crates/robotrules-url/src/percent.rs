//! Small percent-encoding helpers shared by the Google and RFC 9309 normalisers.
//!
//! RFC 3986 §2.1: "A percent-encoded octet is encoded as a character triplet, consisting of the
//! percent character "%" followed by the two hexadecimal digits representing that octet's
//! numeric value", and "URI producers and normalizers should use uppercase hexadecimal digits".

/// The value of an ASCII hex digit (`0-9`, `a-f`, `A-F`), or `None`.
pub(crate) fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

/// Appends `%XX` (upper-case hex) for `byte` to `out`.
pub(crate) fn push_escaped(out: &mut Vec<u8>, byte: u8) {
    out.extend_from_slice(percent_encoding::percent_encode_byte(byte).as_bytes());
}

/// Whether `byte` is an RFC 3986 §2.3 unreserved character:
/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
pub(crate) fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_values() {
        let digits = b"0123456789abcdef";
        for (value, &digit) in (0u8..).zip(digits) {
            assert_eq!(hex_value(digit), Some(value));
            assert_eq!(hex_value(digit.to_ascii_uppercase()), Some(value));
        }
        for digit in [b'g', b'G', b'%', b' ', 0x80, b'/'] {
            assert_eq!(hex_value(digit), None);
        }
    }

    #[test]
    fn escapes_every_byte_with_upper_case_hex() {
        for byte in 0..=u8::MAX {
            let mut out = Vec::new();
            push_escaped(&mut out, byte);
            assert_eq!(out, format!("%{byte:02X}").into_bytes());
        }
    }

    #[test]
    fn unreserved_is_exactly_rfc3986_section_2_3() {
        let unreserved: Vec<u8> = (0..=u8::MAX).filter(|&b| is_unreserved(b)).collect();
        let expected: Vec<u8> =
            b"-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".to_vec();
        assert_eq!(unreserved, expected);
    }
}

//! A statement of preference read as an RFC 9651 Structured Fields Dictionary
//! (draft-ietf-aipref-vocab-07 §6, §6.5: "those bytes are parsed into a Dictionary"), with the
//! `sfv` crate.
//!
//! ```text
//! sf-dictionary  = dict-member *( OWS "," OWS dict-member )    ; RFC 9651 §3.2
//! dict-member    = member-key ( parameters / ( "=" member-value ))
//! member-key     = key                                          ; lcalpha / "*" first
//! ```
//!
//! The members come back in the Dictionary's order, a repeated key holding its last value
//! (RFC 9651 §4.2.2, vocab-07 §6.5.1); a value is reported as a Token, a Boolean (a key
//! without `=` is `?1`) or the name of its other type. Parameters are dropped (vocab-07
//! §6.4: "any unknown parameters MUST be ignored"). Bytes that are not a Dictionary give
//! the offset of the first byte the parser could not read.

/// One member of a statement of preference: its label and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Member {
    /// The key (lower-case letters, digits, `_`, `-`, `.`, `*`: RFC 9651 §3.1.2).
    pub label: String,
    /// Its value, parameters dropped.
    pub value: MemberValue,
}

/// A member's value, as far as a vocabulary needs to tell values apart.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum MemberValue {
    /// A Token (RFC 9651 §3.3.4): `y`, `n`, `yes`, `no`, …
    Token(String),
    /// A Boolean (RFC 9651 §3.3.6); a key written without a value is `true`.
    Boolean(bool),
    /// Any other type, named: `integer`, `decimal`, `string`, `byte sequence`, `date`,
    /// `display string` or `inner list`.
    Other(&'static str),
}

/// Bytes that are not an RFC 9651 Dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DictionaryError {
    /// Offset, in the bytes given, of the byte the parser stopped at.
    pub offset: usize,
    /// What it expected there (the `sfv` crate's message).
    pub message: String,
}

impl std::fmt::Display for DictionaryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for DictionaryError {}

/// `sf-dictionary` (RFC 9651 §3.2, parsed as §4.2.2 says): the members of `bytes`, in order,
/// each key once with its last value.
///
/// Never panics; linear in the length of `bytes`. Leading and trailing SP are allowed
/// (RFC 9651 §4.2); empty input is the empty Dictionary.
///
/// ```
/// use robotrules_grammar::{dictionary, MemberValue};
///
/// let members = dictionary(b"train-ai=n, search=y").unwrap();
/// assert_eq!(members[0].label, "train-ai");
/// assert_eq!(members[0].value, MemberValue::Token("n".into()));
/// assert_eq!(dictionary(b"train-ai=y, Search=n").unwrap_err().offset, 12);
/// ```
///
/// # Errors
/// Bytes that are not a Dictionary, with the offset of the byte the parser stopped at.
pub fn dictionary(bytes: &[u8]) -> Result<Vec<Member>, DictionaryError> {
    let parsed: sfv::Dictionary =
        sfv::Parser::new(bytes)
            .parse()
            .map_err(|error: sfv::Error| DictionaryError {
                offset: error.index().unwrap_or(bytes.len()).min(bytes.len()),
                message: format!("{error:#}"),
            })?;
    Ok(parsed
        .into_iter()
        .map(|(key, entry)| Member {
            label: key.as_str().to_owned(),
            value: member_value(&entry),
        })
        .collect())
}

/// A member's value without its parameters.
fn member_value(entry: &sfv::ListEntry) -> MemberValue {
    let item = match entry {
        sfv::ListEntry::Item(item) => item,
        sfv::ListEntry::InnerList(_) => return MemberValue::Other("inner list"),
    };
    match &item.bare_item {
        sfv::BareItem::Token(token) => MemberValue::Token(token.as_str().to_owned()),
        sfv::BareItem::Boolean(b) => MemberValue::Boolean(*b),
        sfv::BareItem::Integer(_) => MemberValue::Other("integer"),
        sfv::BareItem::Decimal(_) => MemberValue::Other("decimal"),
        sfv::BareItem::String(_) => MemberValue::Other("string"),
        sfv::BareItem::ByteSequence(_) => MemberValue::Other("byte sequence"),
        sfv::BareItem::Date(_) => MemberValue::Other("date"),
        sfv::BareItem::DisplayString(_) => MemberValue::Other("display string"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn token(s: &str) -> MemberValue {
        MemberValue::Token(s.into())
    }

    /// `(label, value)` pairs of a Dictionary that parses.
    fn read(bytes: &str) -> Vec<(String, MemberValue)> {
        dictionary(bytes.as_bytes())
            .unwrap()
            .into_iter()
            .map(|m| (m.label, m.value))
            .collect()
    }

    #[rstest]
    #[case::vocab_example("train-ai=y, search=n", vec![("train-ai", token("y")), ("search", token("n"))])]
    #[case::cloudflare("search=yes, ai-input=yes, ai-train=no", vec![("search", token("yes")), ("ai-input", token("yes")), ("ai-train", token("no"))])]
    // vocab-07 §6.5.1: a repeated key holds its last value, at the place of its first.
    #[case::last_value_wins("train-ai=y, train-ai, search=n, search=\"n\"", vec![("train-ai", MemberValue::Boolean(true)), ("search", MemberValue::Other("string"))])]
    // vocab-07 §6.5.2: parameters are dropped; only the selected value's would count.
    #[case::parameters("train-ai;allow=n, train-ai=y", vec![("train-ai", token("y"))])]
    #[case::parameters_without_value("train-ai;has;parameters=\"?\"", vec![("train-ai", MemberValue::Boolean(true))])]
    // `;` starts parameters: `search=n` is a parameter of `train-ai`, not a member.
    #[case::semicolon_is_a_parameter("train-ai=n; search=n", vec![("train-ai", token("n"))])]
    #[case::integer("train-ai=1", vec![("train-ai", MemberValue::Other("integer"))])]
    #[case::inner_list("train-ai=(y n)", vec![("train-ai", MemberValue::Other("inner list"))])]
    #[case::boolean_false("search=?0", vec![("search", MemberValue::Boolean(false))])]
    #[case::surrounding_spaces("  train-ai=n  ", vec![("train-ai", token("n"))])]
    #[case::empty("", vec![])]
    fn reads_members(#[case] bytes: &str, #[case] members: Vec<(&str, MemberValue)>) {
        let members: Vec<(String, MemberValue)> = members
            .into_iter()
            .map(|(l, v)| (l.to_owned(), v))
            .collect();
        assert_eq!(read(bytes), members);
    }

    /// vocab-07 §6.5.1: "If the parsing of the Dictionary fails, preferences are unknown.
    /// This includes where keys include uppercase characters". The offset is the byte the
    /// parser stopped at.
    #[rstest]
    #[case::uppercase_key("Train-ai=n", 0)]
    #[case::uppercase_later("train-ai=y, Search=n", 12)]
    #[case::trailing_comma("train-ai=n,", 10)]
    #[case::space_separator("train-ai=n search=n", 11)]
    #[case::tab_before("\ttrain-ai=n", 0)]
    #[case::bad_value("train-ai=é", 9)]
    #[case::replacement_character("train-ai=n, \u{fffd}", 12)]
    fn reports_where_a_dictionary_does_not_parse(#[case] bytes: &str, #[case] offset: usize) {
        let error = dictionary(bytes.as_bytes()).unwrap_err();
        assert_eq!(error.offset, offset, "{error}");
        assert!(!error.message.is_empty());
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let error = dictionary(b"train-ai=\xff").unwrap_err();
        assert_eq!(error.offset, 9);
    }
}

use super::*;
use proptest::prelude::*;
use rstest::rstest;

#[rstest]
#[case::empty(b"", 10, "")]
#[case::empty_with_no_room(b"", 0, "")]
#[case::short(b"abc", 5, "abc")]
#[case::exactly_max(b"abc", 3, "abc")]
#[case::cut(b"abcdef", 3, "abc…")]
#[case::no_room(b"abc", 0, "…")]
#[case::escape(b"a\x1bb", 5, "a<U+001B>b")]
#[case::line_breaks_and_tab(b"a\nb\r\tc", 9, "a<U+000A>b<U+000D><U+0009>c")]
#[case::nul_and_del(b"\0\x7f", 5, "<U+0000><U+007F>")]
#[case::escape_is_one_char(b"\x1b\x1b\x1b", 2, "<U+001B><U+001B>…")]
#[case::invalid_utf8(b"a\xffb", 5, "a\u{FFFD}b")]
#[case::each_invalid_sequence_once(b"\xff\xfe\xfd", 2, "\u{FFFD}\u{FFFD}…")]
#[case::truncated_sequence(b"\xE2\x82x", 5, "\u{FFFD}x")]
#[case::invalid_after_the_cut(b"ab\xff", 2, "ab…")]
#[case::tab_kept_out(b"a\tb", 3, "a<U+0009>b")]
fn bytes(#[case] input: &[u8], #[case] max: usize, #[case] shown: &str) {
    assert_eq!(excerpt(input, max), shown);
}

#[rstest]
#[case::c1_csi("\u{9b}2J", "<U+009B>2J")]
#[case::next_line("a\u{85}b", "a<U+0085>b")]
#[case::bidi_override("abc\u{202E}gpj.exe", "abc<U+202E>gpj.exe")]
#[case::bidi_isolate("\u{2066}x\u{2069}", "<U+2066>x<U+2069>")]
#[case::zero_width("a\u{200B}b", "a<U+200B>b")]
#[case::byte_order_mark("\u{FEFF}User-agent", "<U+FEFF>User-agent")]
#[case::line_separator("a\u{2028}b\u{2029}", "a<U+2028>b<U+2029>")]
#[case::private_use("\u{F148}", "<U+F148>")]
#[case::visible_text("Müller 日本 😀 …", "Müller 日本 😀 …")]
fn text(#[case] input: &str, #[case] shown: &str) {
    assert_eq!(excerpt(input, 100), shown);
}

#[rstest]
#[case::two_bytes("ü", 64)]
#[case::three_bytes("日", 7)]
#[case::four_bytes("😀", 1)]
fn long_input_is_cut_on_a_char_boundary(#[case] unit: &str, #[case] max: usize) {
    let long = unit.repeat(1_000);
    let cut = excerpt(long.as_str(), max);
    assert_eq!(cut, format!("{}…", unit.repeat(max)));
    assert_eq!(excerpt(&long.as_bytes()[..long.len() - 1], max), cut);
}

#[test]
fn takes_str_string_and_bytes() {
    let owned = String::from("abc");
    assert_eq!(excerpt(&owned, 2), "ab…");
    assert_eq!(excerpt("abc", 2), "ab…");
    assert_eq!(excerpt(owned.as_bytes(), 2), "ab…");
    assert_eq!(excerpt(&b"abc".to_vec(), 2), "ab…");
}

#[test]
fn debug_quotes_it_on_one_line() {
    assert_eq!(format!("{:?}", excerpt("a\nb", 10)), "\"a<U+000A>b\"");
    assert_eq!(
        format!("{:?}", excerpt("say \"hi\"", 10)),
        "\"say \\\"hi\\\"\""
    );
    assert_eq!(format!("{:?}", excerpt("abcdef", 3)), "\"abc…\"");
}

#[test]
fn a_huge_max_is_no_huge_allocation() {
    assert_eq!(excerpt("abc", usize::MAX), "abc");
}

proptest! {
    #[test]
    fn never_panics_and_never_emits_a_control_character(
        input in proptest::collection::vec(any::<u8>(), 0..300),
        max in 0usize..120,
    ) {
        let shown = excerpt(&input, max);
        prop_assert!(!shown.chars().any(|c| c.is_control() || is_invisible(c)), "{:?}", shown);
        let chars = String::from_utf8_lossy(&input).chars().count();
        if chars > max {
            prop_assert!(shown.ends_with('…'), "{:?}", shown);
        }
    }

    #[test]
    fn text_with_nothing_to_escape_is_shown_as_it_is_up_to_the_cut(
        input in "\\PC{0,80}",
        max in 0usize..100,
    ) {
        let shown = excerpt(input.as_str(), max);
        prop_assert!(!shown.chars().any(|c| c.is_control() || is_invisible(c)), "{:?}", shown);
        if !input.chars().any(is_invisible) {
            let kept: String = input.chars().take(max).collect();
            let cut = if input.chars().count() > max { "…" } else { "" };
            prop_assert_eq!(shown, format!("{kept}{cut}"));
        }
    }

    #[test]
    fn any_char_is_escaped_or_kept(c in any::<char>()) {
        let shown = excerpt(c.to_string().as_str(), 1);
        if is_invisible(c) {
            prop_assert_eq!(shown, format!("<U+{:04X}>", u32::from(c)));
        } else {
            prop_assert!(!c.is_control());
            prop_assert_eq!(shown, c.to_string());
        }
    }
}

#[rstest]
#[case::plain("/a/b?c=d", "/a/b?c=d")]
#[case::osc("/\x1b]0;pwned\x07x", "/<U+001B>]0;pwned<U+0007>x")]
#[case::csi_c1_bidi("\x1b[31m\u{9b}\u{202E}", "<U+001B>[31m<U+009B><U+202E>")]
#[case::tab_cr_lf("a\tb\rc\n", "a<U+0009>b<U+000D>c<U+000A>")]
#[case::long_is_not_cut("x", "x")]
fn visible_escapes_everything_and_cuts_nothing(#[case] input: &str, #[case] shown: &str) {
    assert_eq!(visible(input), shown);
    let long = input.repeat(500);
    assert_eq!(visible(&long), shown.repeat(500));
}

#[test]
fn visible_lines_keeps_line_feed_and_tab_only() {
    assert_eq!(
        visible_lines("a\tb\nc\rd\x1b\u{85}"),
        "a\tb\nc<U+000D>d<U+001B><U+0085>"
    );
    assert!(matches!(visible_lines("a\tb\n"), Cow::Borrowed("a\tb\n")));
    assert!(matches!(visible("Müller"), Cow::Borrowed("Müller")));
}

proptest! {
    #[test]
    fn visible_leaves_no_invisible_character(input in any::<String>()) {
        let shown = visible(&input);
        prop_assert!(!shown.chars().any(|c| c.is_control() || is_invisible(c)), "{:?}", shown);
        let lines = visible_lines(&input);
        prop_assert!(!lines.chars().any(|c| c != '\n' && c != '\t' && (c.is_control() || is_invisible(c))));
        if !input.chars().any(is_invisible) {
            prop_assert_eq!(shown.as_ref(), input.as_str());
        }
    }
}

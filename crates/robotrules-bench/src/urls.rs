//! The fixed list of URLs asked about each file.
//!
//! Every file gets the same generic URLs plus URLs built from the first paths its own
//! `allow`/`disallow` lines name, so that checks reach the file's rules rather than only
//! falling through. The list depends on nothing but the file's bytes.

/// The host every URL is on.
pub const ORIGIN: &str = "https://www.example.com";

/// Paths asked about every file.
pub const GENERIC_PATHS: [&str; 6] = [
    "/",
    "/index.html",
    "/search?q=robots+txt&page=2",
    "/images/2024/logo.png",
    "/wp-admin/admin-ajax.php",
    "/shop/category/shoes/running/product-12345.html?utm_source=news&utm_medium=email",
];

/// How many paths at most are taken from the file's own rules.
pub const MAX_RULE_PATHS: usize = 4;

/// The URLs asked about `body`: [`GENERIC_PATHS`], then up to [`MAX_RULE_PATHS`] paths from the
/// file's rules (`*` read as `x`, a final `$` dropped, `page.html` appended), each on [`ORIGIN`].
pub fn urls_for(body: &[u8]) -> Vec<String> {
    let mut urls: Vec<String> = GENERIC_PATHS
        .iter()
        .map(|p| format!("{ORIGIN}{p}"))
        .collect();
    urls.extend(
        rule_paths(body)
            .take(MAX_RULE_PATHS)
            .map(|p| format!("{ORIGIN}{p}page.html")),
    );
    urls
}

/// The paths of `allow`/`disallow` lines that start with `/`, in file order, made concrete.
fn rule_paths(body: &[u8]) -> impl Iterator<Item = String> + '_ {
    body.split(|&b| b == b'\n').filter_map(|line| {
        let line = line.split(|&b| b == b'#').next().unwrap_or_default();
        let colon = line.iter().position(|&b| b == b':')?;
        let (key, value) = line.split_at(colon);
        let key = key.trim_ascii();
        let is_rule = key.eq_ignore_ascii_case(b"allow") || key.eq_ignore_ascii_case(b"disallow");
        let value = value.get(1..).unwrap_or_default().trim_ascii();
        let value = value.strip_suffix(b"$").unwrap_or(value);
        if !is_rule || !value.starts_with(b"/") {
            return None;
        }
        let concrete: String = String::from_utf8_lossy(value)
            .chars()
            .map(|c| match c {
                '*' => 'x',
                c if c.is_ascii_graphic() => c,
                _ => '_',
            })
            .collect();
        Some(concrete)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::no_rules(b"user-agent: *\n".as_slice(), vec![])]
    #[case::rules_in_order(
        b"User-agent: *\nDisallow: /a/*/b$\nallow: /c # note\nSitemap: /s\n".as_slice(),
        vec!["/a/x/bpage.html", "/cpage.html"]
    )]
    #[case::paths_only(b"disallow: *.gif\ndisallow:\ndisallow: /x\n".as_slice(), vec!["/xpage.html"])]
    #[case::at_most_four(
        b"disallow: /1\ndisallow: /2\ndisallow: /3\ndisallow: /4\ndisallow: /5\n".as_slice(),
        vec!["/1page.html", "/2page.html", "/3page.html", "/4page.html"]
    )]
    fn urls_are_generic_then_from_rules(#[case] body: &[u8], #[case] from_rules: Vec<&str>) {
        let urls = urls_for(body);
        let (generic, rest) = urls.split_at(GENERIC_PATHS.len());
        assert_eq!(generic[0], "https://www.example.com/");
        let rest: Vec<&str> = rest
            .iter()
            .map(|u| u.strip_prefix(ORIGIN).unwrap())
            .collect();
        assert_eq!(rest, from_rules);
    }
}

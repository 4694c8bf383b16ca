//! The fixed lists of URLs asked about each file.
//!
//! Two sets, both depending on nothing but the file's bytes:
//!
//! - [`urls_for`], the *own-pattern* set: the same generic URLs for every file plus URLs built
//!   from the first paths its own `allow`/`disallow` lines name, so that checks reach the
//!   file's rules rather than only falling through;
//! - [`crawl_urls_for`], the *crawl-like* set: URLs shaped like those a crawler takes from
//!   links — long paths, query strings, percent-escapes (upper- and lower-case), `index.html`,
//!   trailing slashes, a fragment, mixed case — generic ones plus variations of the file's own
//!   rule paths.

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

/// Crawl-like paths asked about every file (on [`ORIGIN`], or on the mixed-case
/// [`MIXED_CASE_ORIGIN`] where the path says so).
pub const CRAWL_PATHS: [&str; 8] = [
    "/blog/2024/05/17/how-we-rebuilt-our-search-index-for-speed-and-scale/",
    "/shop/Category/Running-Shoes/index.html",
    "/search?q=caf%C3%A9+au+lait&sort=price_asc&page=3",
    "/wp-content/uploads/2023/11/Product%20Photo%20(1).JPG",
    "/products/12345/reviews/?utm_source=newsletter&utm_medium=email&utm_campaign=spring#reviews",
    "/de/damen/bekleidung/kleider/sommerkleid-blau-42.html?color=blue&size=M",
    "/wiki/Caf%c3%a9_Society",
    "/index.php?option=com_content&view=article&id=42&Itemid=7",
];

/// The origin with its scheme and host in mixed case, as links sometimes write it.
pub const MIXED_CASE_ORIGIN: &str = "https://WWW.Example.COM";

/// The crawl-like URLs asked about `body`: [`CRAWL_PATHS`] (every other one on
/// [`MIXED_CASE_ORIGIN`]), then for each of up to [`MAX_RULE_PATHS`] paths from the file's
/// rules an `index.html` below it and the path with a query, an escaped slash and a fragment.
pub fn crawl_urls_for(body: &[u8]) -> Vec<String> {
    let mut urls: Vec<String> = CRAWL_PATHS
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let origin = if i % 2 == 1 {
                MIXED_CASE_ORIGIN
            } else {
                ORIGIN
            };
            format!("{origin}{p}")
        })
        .collect();
    for path in rule_paths(body).take(MAX_RULE_PATHS) {
        let dir = if path.ends_with('/') { "" } else { "/" };
        urls.push(format!("{ORIGIN}{path}{dir}index.html"));
        urls.push(format!(
            "{MIXED_CASE_ORIGIN}{path}?sessionid=AbC123&ref=%2Fhome%2F#top"
        ));
    }
    urls
}

/// How many URLs at most a site is asked about in [`site_urls_for`]: a broad crawl checks
/// about this many of a site's URLs during one robots.txt copy's lifetime.
pub const SITE_URLS: usize = 90;

/// A whole site's checks for `body`: the crawl-like URLs of [`crawl_urls_for`] over *every*
/// rule path of the file (not only the first [`MAX_RULE_PATHS`]), then the generic
/// [`GENERIC_PATHS`], then the crawl paths again with a page number, up to [`SITE_URLS`].
pub fn site_urls_for(body: &[u8]) -> Vec<String> {
    let mut urls = crawl_urls_for(b"");
    for path in rule_paths(body) {
        if urls.len() + 2 > SITE_URLS {
            break;
        }
        let dir = if path.ends_with('/') { "" } else { "/" };
        urls.push(format!("{ORIGIN}{path}{dir}index.html"));
        urls.push(format!(
            "{MIXED_CASE_ORIGIN}{path}?sessionid=AbC123&ref=%2Fhome%2F#top"
        ));
    }
    let mut page = 2;
    while urls.len() < SITE_URLS {
        for p in GENERIC_PATHS.iter().chain(&CRAWL_PATHS) {
            if urls.len() == SITE_URLS {
                break;
            }
            let sep = if p.contains('?') { '&' } else { '?' };
            let p = p.split('#').next().unwrap_or(p);
            urls.push(format!("{ORIGIN}{p}{sep}page={page}"));
        }
        page += 1;
    }
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

    #[test]
    fn crawl_urls_vary_the_rule_paths() {
        let urls = crawl_urls_for(b"User-agent: *\nDisallow: /a/*/b$\nAllow: /c/\n");
        assert_eq!(urls.len(), CRAWL_PATHS.len() + 4);
        assert_eq!(
            urls[1],
            "https://WWW.Example.COM/shop/Category/Running-Shoes/index.html"
        );
        assert_eq!(
            &urls[CRAWL_PATHS.len()..],
            [
                "https://www.example.com/a/x/b/index.html",
                "https://WWW.Example.COM/a/x/b?sessionid=AbC123&ref=%2Fhome%2F#top",
                "https://www.example.com/c/index.html",
                "https://WWW.Example.COM/c/?sessionid=AbC123&ref=%2Fhome%2F#top",
            ]
        );
    }

    #[test]
    fn a_site_is_asked_ninety_urls_its_rules_first() {
        let urls = site_urls_for(b"User-agent: *\nDisallow: /a/\nAllow: /b\n");
        assert_eq!(urls.len(), SITE_URLS);
        assert_eq!(
            urls[CRAWL_PATHS.len()],
            "https://www.example.com/a/index.html"
        );
        assert_eq!(
            urls[CRAWL_PATHS.len() + 2],
            "https://www.example.com/b/index.html"
        );
        let distinct: std::collections::HashSet<_> = urls.iter().collect();
        assert_eq!(distinct.len(), SITE_URLS);
        let many: String = (0..100).map(|i| format!("disallow: /p{i}/\n")).collect();
        let urls = site_urls_for(many.as_bytes());
        assert_eq!(urls.len(), SITE_URLS);
        assert!(urls[SITE_URLS - 1].contains("/p40/"));
    }

    #[test]
    fn the_crawl_set_has_every_shape_the_issue_names() {
        let urls = crawl_urls_for(b"");
        let any = |test: &dyn Fn(&str) -> bool| urls.iter().any(|u| test(u));
        assert!(any(&|u| u.contains('?')), "query");
        assert!(any(&|u| u.contains("%C3%A9")), "upper-case escape");
        assert!(any(&|u| u.contains("%c3%a9")), "lower-case escape");
        assert!(any(&|u| u.ends_with("index.html")), "index.html");
        assert!(any(&|u| u.ends_with('/')), "trailing slash");
        assert!(any(&|u| u.contains('#')), "fragment");
        assert!(any(&|u| u.starts_with(MIXED_CASE_ORIGIN)), "mixed case");
        assert!(any(&|u| u.len() > 80), "long path");
    }
}

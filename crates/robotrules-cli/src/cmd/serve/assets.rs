//! The tester page's files, embedded in the binary: the HTML, the stylesheet and the script
//! (plain JavaScript served as a file, so the Content-Security-Policy can forbid inline
//! script). The page builds every piece of user data into the DOM as text (`textContent`),
//! never as markup.

/// One embedded file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Asset {
    /// Its `Content-Type`.
    pub(crate) content_type: &'static str,
    /// Its bytes.
    pub(crate) body: &'static [u8],
}

/// Every file the page is made of, by path.
pub(crate) const ASSETS: [(&str, Asset); 3] = [
    (
        "/",
        Asset {
            content_type: "text/html; charset=utf-8",
            body: include_bytes!("assets/index.html"),
        },
    ),
    (
        "/app.js",
        Asset {
            content_type: "text/javascript; charset=utf-8",
            body: include_bytes!("assets/app.js"),
        },
    ),
    (
        "/app.css",
        Asset {
            content_type: "text/css; charset=utf-8",
            body: include_bytes!("assets/app.css"),
        },
    ),
];

/// The file at `path`, if the page has one there.
pub(crate) fn find(path: &str) -> Option<Asset> {
    ASSETS
        .iter()
        .find(|(at, _)| *at == path)
        .map(|(_, asset)| *asset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's total weight in bytes: every file it loads.
    fn total_bytes() -> usize {
        ASSETS.iter().map(|(_, asset)| asset.body.len()).sum()
    }

    #[test]
    fn the_page_loads_only_its_own_files_and_no_inline_script() {
        let html = std::str::from_utf8(include_bytes!("assets/index.html")).expect("UTF-8");
        assert!(html.contains(r#"<script src="/app.js" defer></script>"#));
        assert!(html.contains(r#"<link rel="stylesheet" href="/app.css">"#));
        assert_eq!(
            html.matches("<script").count(),
            1,
            "one script, from a file"
        );
        assert!(!html.contains("style="), "no inline style");
        for external in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
            assert!(!html.contains(external), "the page loads {external}…");
        }
    }

    #[test]
    fn the_script_never_writes_markup() {
        let js = std::str::from_utf8(include_bytes!("assets/app.js")).expect("UTF-8");
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(!js.contains(sink), "app.js uses {sink}");
        }
    }

    #[test]
    fn the_page_weighs_under_150_kb() {
        assert!(total_bytes() < 150 * 1024, "{} bytes", total_bytes());
    }
}

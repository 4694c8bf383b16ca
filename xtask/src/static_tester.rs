//! `cargo xtask static-tester DIR`: the tester page of `robotrules serve` as static files that
//! any web server (or a `file`-less static host) can serve, answered by the WebAssembly engine
//! in the browser, so a site owner's file never leaves it.
//!
//! DIR gets:
//! - `index.html`: the server's page (`crates/robotrules-cli/src/cmd/serve/assets`) with its
//!   files linked relatively (so the site works under any path), `static.js` loaded first,
//!   and the server's Content-Security-Policy as a `<meta>` ([`CSP`]);
//! - `app.js`, `app.css`: the server's, unchanged (`app.js` asks `window.robotrulesEngine`
//!   when it is there, else posts to `/api/...`);
//! - `static.js` (`crates/robotrules-js/tester/static.js`): loads the engine and sets
//!   `window.robotrulesEngine`, calling the package's `testerApi`; it disables what needs the
//!   server (loading a live file, the diff) with a message saying so;
//! - `robotrules_js.js`, `robotrules_js_bg.wasm`: the npm package's `--target web` build.
//!
//! The JS step of `cargo xtask test` (and `cargo xtask js`) writes it to `target/js/tester`
//! and opens it in headless Chromium (`crates/robotrules-js/tests/tester`).

use std::path::Path;

use anyhow::{bail, Context as _};

/// The server page's script tag, replaced by the engine's module and the relative script.
const SCRIPT_TAG: &str = r#"<script src="/app.js" defer></script>"#;

/// The server page's stylesheet link.
const STYLE_LINK: &str = r#"<link rel="stylesheet" href="/app.css">"#;

/// The static page's Content-Security-Policy, as a `<meta>` (a static host may send no
/// header): the server's (`robotrules serve`), less `frame-ancestors` (which a `<meta>` cannot
/// set), plus `'wasm-unsafe-eval'` so that the engine's WebAssembly may be compiled. No inline
/// script, nothing loaded or sent anywhere but the site itself.
const CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
                   connect-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'";

/// The static page's HTML: the server's `html` with its files linked relatively and the
/// engine's module loaded before the page's script.
pub(crate) fn static_html(html: &str) -> anyhow::Result<String> {
    for wanted in [SCRIPT_TAG, STYLE_LINK, "<meta charset=\"utf-8\">"] {
        if !html.contains(wanted) {
            bail!("the tester page no longer holds {wanted}: update xtask/src/static_tester.rs");
        }
    }
    Ok(html
        .replacen(
            "<meta charset=\"utf-8\">",
            &format!("<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">"),
            1,
        )
        .replace(STYLE_LINK, r#"<link rel="stylesheet" href="app.css">"#)
        .replace(
            SCRIPT_TAG,
            "<script type=\"module\" src=\"static.js\"></script>\n<script src=\"app.js\" defer></script>",
        ))
}

/// Writes the static site into `dir` from the workspace at `root` and the wasm-bindgen
/// `--target web` output in `web`.
pub(crate) fn write(root: &Path, web: &Path, dir: &Path) -> anyhow::Result<()> {
    let assets = root.join("crates/robotrules-cli/src/cmd/serve/assets");
    std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    let html = std::fs::read_to_string(assets.join("index.html"))
        .context("reading the tester page's index.html")?;
    std::fs::write(dir.join("index.html"), static_html(&html)?)
        .with_context(|| format!("writing {}", dir.join("index.html").display()))?;
    let files = [
        (assets.join("app.js"), "app.js"),
        (assets.join("app.css"), "app.css"),
        (
            root.join("crates/robotrules-js/tester/static.js"),
            "static.js",
        ),
        (web.join("robotrules_js.js"), "robotrules_js.js"),
        (web.join("robotrules_js_bg.wasm"), "robotrules_js_bg.wasm"),
    ];
    for (from, name) in files {
        std::fs::copy(&from, dir.join(name))
            .with_context(|| format!("copying {} into {}", from.display(), dir.display()))?;
    }
    eprintln!("xtask: wrote the static tester into {}", dir.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_static_page_loads_the_engine_before_the_page_s_script() {
        let root = crate::cargo::workspace_root();
        let html = std::fs::read_to_string(
            root.join("crates/robotrules-cli/src/cmd/serve/assets/index.html"),
        )
        .unwrap();
        let page = static_html(&html).unwrap();
        let engine = page
            .find(r#"<script type="module" src="static.js">"#)
            .unwrap();
        let app = page.find(r#"<script src="app.js" defer>"#).unwrap();
        assert!(engine < app, "static.js must run first");
        assert!(page.contains(r#"href="app.css""#));
        assert!(page.contains("script-src 'self' 'wasm-unsafe-eval';"));
        assert!(!page.contains("\"/app."), "no path from the server's root");
        assert!(static_html("<html></html>").is_err());
    }
}

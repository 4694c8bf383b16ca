//! The tester page in a real browser: headless Chromium (Debian's `chromium`) driven through
//! WebDriver (`chromium-driver`, with fantoccini) against `robotrules serve` on loopback.
//!
//! The test types a robots.txt, picks crawlers (a listed one and a custom name), enters URLs,
//! reads the three verdicts and the highlighted deciding line, sees a lint finding in the
//! gutter, walks the results with the keyboard, loads a file from a loopback site, follows a
//! shared link, confirms that the XSS fixture renders as text, checks the phone-width layout,
//! and saves a screenshot to `docs/serve.png`.
//!
//! Without Chromium or chromedriver the test fails and says how to install them: `cargo
//! xtask test` installs both (xtask/src/browser.rs).

// Helpers outside `#[test]` functions unwrap too: a failure there is a failed test.
#![allow(clippy::unwrap_used)]

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use robotrules_testserver::http::{HttpServer, Reply};
use serde_json::{json, Value};

use crate::support::serve::Server;

/// Where Debian installs the browser and its driver.
const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// How long the page may take to answer after an edit (it waits 250 ms, then asks the API).
const SETTLE: Duration = Duration::from_secs(15);

const ROBOTS: &str = "User-agent: *
Disallow: /private/
Allow: /private/press/
Disalow: /typo
Content-Signal: search=yes, ai-train=no

User-agent: GPTBot
Disallow: /

Sitemap: /sitemap.xml
";

/// The URLs the test enters.
const URLS: &[&str] = &["/private/x", "/private/press/release", "/about"];

const XSS: &str = "# <script>window.pwned = 1</script>
User-agent: *
Disallow: /\"><img src=x onerror=\"window.pwned = 2\">
";

/// A program on `PATH` or at Debian's path; a missing one fails the test with what to do.
fn require(name: &str, debian: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    });
    on_path
        .or_else(|| Some(PathBuf::from(debian)).filter(|p| p.is_file()))
        .unwrap_or_else(|| {
            panic!(
                "{name} is not installed: the browser tests of `robotrules serve` need Debian's \
                 chromium and chromium-driver. `cargo xtask test` installs them (apt-get install \
                 chromium chromium-driver)"
            )
        })
}

/// chromedriver on a free loopback port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start() -> Driver {
        let chromedriver = require("chromedriver", CHROMEDRIVER);
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let driver = Driver { child, port };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        driver
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A headless Chromium session that reaches nothing but loopback.
async fn browser(driver: &Driver, profile_dir: &Path) -> Client {
    let chromium = require("chromium", CHROMIUM);
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".to_owned(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1280,1000",
                format!("--user-data-dir={}", profile_dir.display()),
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .unwrap_or_else(|error| panic!("cannot start a Chromium session: {error}"))
}

/// Runs `script` in the page and returns its value.
async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, Vec::new()).await.unwrap()
}

/// Waits until `script` returns `true`; fails with `what` and `report`'s value otherwise.
async fn wait_for(client: &Client, script: &str, what: &str) {
    let deadline = Instant::now() + SETTLE;
    loop {
        if js(client, script).await == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = js(
                client,
                "return document.getElementById('check-status').textContent",
            )
            .await;
            panic!("timed out waiting for {what} (check status: {status})");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Replaces the text of the textarea `id` by typing `text` into it.
async fn type_into(client: &Client, id: &str, text: &str) {
    let area = client.find(Locator::Id(id)).await.unwrap();
    area.clear().await.unwrap();
    area.send_keys(text).await.unwrap();
}

/// The text of each cell of the result rows.
async fn result_rows(client: &Client) -> Vec<Vec<String>> {
    let rows = js(
        client,
        "return Array.from(document.querySelectorAll('#results tbody tr')).map(r => \
         Array.from(r.cells).map(c => c.textContent))",
    )
    .await;
    serde_json::from_value(rows).unwrap()
}

/// Waits until the page has answered for crawler `agent` on exactly `urls`.
async fn wait_for_results(client: &Client, agent: &str, urls: &[&str]) {
    let script = format!(
        "return JSON.stringify(Array.from(document.querySelectorAll('#results tbody tr')).map(r => \
         r.cells[0].firstChild.textContent)) === {urls} && \
         document.getElementById('check-status').textContent.includes('checked for ' + {agent})",
        urls = json!(serde_json::to_string(urls).unwrap()),
        agent = json!(agent)
    );
    wait_for(
        client,
        &script,
        &format!("the results for {agent} on {urls:?}"),
    )
    .await;
}

#[cfg_attr(
    not(feature = "browser-tests"),
    ignore = "drives Chromium: `cargo xtask test` runs it (or --features browser-tests)"
)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tester_page_in_headless_chromium() {
    let server = Server::start(&["--allow-private-fetch"]);
    let driver = Driver::start();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(&driver, profile.path()).await;
    let outcome = exercise(&client, &server).await;
    let _ = client.close().await;
    outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
}

/// Picks the crawler labelled `label` in the page's crawler picker.
async fn pick_crawler(client: &Client, label: &str) {
    client
        .find(Locator::Id("crawler"))
        .await
        .unwrap()
        .select_by_label(label)
        .await
        .unwrap();
}

/// Every step; a failed step panics, and the session is closed by the caller either way.
async fn exercise(client: &Client, server: &Server) -> Result<(), Box<dyn std::any::Any + Send>> {
    let steps = async {
        client.goto(&server.url("/")).await.unwrap();
        wait_for(
            client,
            "return !!document.body.dataset.ready",
            "the first answer",
        )
        .await;

        // Type a file, pick a crawler, enter URLs.
        type_into(client, "robots", ROBOTS).await;
        pick_crawler(client, "Googlebot").await;
        type_into(
            client,
            "urls",
            "/private/x\n/private/press/release\n/about\n",
        )
        .await;
        wait_for_results(client, "Googlebot", URLS).await;
        let rows = result_rows(client).await;
        assert!(rows[0][0].starts_with("/private/x"), "{rows:?}");
        for cell in &rows[0][1..4] {
            assert!(cell.starts_with("disallowed"), "{rows:?}");
            assert!(cell.contains("line 2: disallow: /private/"), "{rows:?}");
        }
        // rfc9309 and google: the longest match (line 3); legacy1994: the first (line 2),
        // flagged with the cause.
        for cell in &rows[1][1..3] {
            assert!(cell.starts_with("allowed"), "{rows:?}");
            assert!(cell.contains("line 3: allow: /private/press/"), "{rows:?}");
        }
        assert!(rows[1][3].starts_with("disallowed"), "{rows:?}");
        assert!(
            rows[1][0].contains("legacy1994 lets the first matching rule in file order decide"),
            "{rows:?}"
        );
        assert!(rows[2][1].starts_with("allowed"), "{rows:?}");
        // The usage column: the `*` group's Content-Signal (line 5, as Cloudflare writes it) for a crawlable URL, no
        // preference for a disallowed one.
        assert_eq!(rows[0][4], "not crawlable, no preference", "{rows:?}");
        assert!(
            rows[2][4].contains("train-ai: disallowedline 5")
                && rows[2][4].contains("search: allowedline 5"),
            "{rows:?}"
        );

        // Selecting a result highlights its deciding line and shows the explanation.
        let first = client
            .find(Locator::Css("#results tbody tr"))
            .await
            .unwrap();
        first.click().await.unwrap();
        wait_for(
            client,
            "return document.querySelector('#gutter .ln.hl')?.dataset.line === '2'",
            "line 2 highlighted",
        )
        .await;
        let deciding = js(
            client,
            "return document.getElementById('deciding').textContent",
        )
        .await;
        assert!(
            deciding
                .as_str()
                .unwrap()
                .contains("rfc9309: blocked by line 2: disallow: /private/"),
            "{deciding}"
        );
        wait_for(
            client,
            "return document.getElementById('explanation').textContent.includes('/private/')",
            "the explanation",
        )
        .await;

        // The keyboard: the next row from the focused one moves the highlight to line 3.
        first.send_keys(&Key::Down.to_string()).await.unwrap();
        wait_for(
            client,
            "return document.querySelector('#gutter .ln.hl')?.dataset.line === '3'",
            "line 3 highlighted after ArrowDown",
        )
        .await;

        // A usage answer highlights its deciding line, and the row's summary names it.
        js(
            client,
            "document.querySelectorAll('#results tbody tr')[2].focus(); \
             document.querySelector('#results tbody tr:nth-child(3) td.usage .usage-item').focus({preventScroll: true}); \
             return true",
        )
        .await;
        wait_for(
            client,
            "return document.querySelector('#gutter .ln.hl')?.dataset.line === '5'",
            "line 5 (the Content-Signal) highlighted",
        )
        .await;
        let deciding = js(
            client,
            "return document.getElementById('deciding').textContent",
        )
        .await;
        assert!(
            deciding.as_str().unwrap().contains(
                "usage (rfc9309): train-ai disallowed by line 5, search allowed by line 5"
            ),
            "{deciding}"
        );

        // The lint finding on line 4 (`Disalow`) sits in the gutter with its code.
        let marker = client
            .find(Locator::Css("#gutter .ln[data-line='4'] .marker"))
            .await
            .unwrap();
        let title = marker.attr("title").await.unwrap().unwrap_or_default();
        assert!(title.contains("misspelt-key"), "{title}");
        let finding = js(
            client,
            "return document.querySelector('#lint-list li[data-line=\"4\"]').textContent",
        )
        .await;
        assert!(finding.as_str().unwrap().contains("help: "), "{finding}");
        // Markdown code spans in the help are code, not backticks.
        let help = js(
            client,
            "const help = document.querySelector('#lint-list li[data-line=\"4\"] .help'); \
             return [help.textContent, help.querySelectorAll('code').length]",
        )
        .await;
        assert!(!help[0].as_str().unwrap().contains('`'), "{help}");
        assert!(help[1].as_u64().unwrap() > 0, "{help}");

        // Another listed crawler: GPTBot has its own group.
        pick_crawler(client, "GPTBot").await;
        wait_for_results(client, "GPTBot", URLS).await;
        let rows = result_rows(client).await;
        assert!(rows[2][1].contains("line 8: disallow: /"), "{rows:?}");

        // A custom name that is a full User-Agent string: the CLI's message and the token.
        client
            .find(Locator::Id("crawler"))
            .await
            .unwrap()
            .select_by_value("")
            .await
            .unwrap();
        let custom = client.find(Locator::Id("custom-agent")).await.unwrap();
        custom
            .send_keys("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")
            .await
            .unwrap();
        wait_for(
            client,
            "return document.getElementById('agent-notes').textContent.includes('suggested crawler token: bingbot')",
            "the suggested token",
        )
        .await;
        let notes = js(
            client,
            "return document.getElementById('agent-notes').textContent",
        )
        .await;
        assert!(
            notes.as_str().unwrap().contains("invalid crawler name"),
            "{notes}"
        );

        // The crawler view: sitemaps resolved against the file's URL, once loaded from a site.
        pick_crawler(client, "Bingbot").await;
        let site = HttpServer::start().await;
        site.route("/robots.txt", Reply::ok(ROBOTS));
        let missing = HttpServer::start().await;
        missing.route("/robots.txt", Reply::status(404));
        type_into(client, "load-url", &site.url("/")).await;
        client
            .find(Locator::Id("load-button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(
            client,
            "return document.getElementById('load-status').textContent.startsWith('Loaded ')",
            "the file loaded from the site",
        )
        .await;
        let value = js(client, "return document.getElementById('robots').value").await;
        assert_eq!(value, ROBOTS);
        let sitemap = site.url("/sitemap.xml");
        wait_for(
            client,
            &format!(
                "return document.getElementById('crawler-view').textContent.includes({})",
                json!(sitemap)
            ),
            "the sitemap resolved against the file's URL",
        )
        .await;
        type_into(client, "load-url", &missing.url("/")).await;
        client
            .find(Locator::Id("load-button"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(
            client,
            "return document.getElementById('load-status').textContent.includes('every URL is allowed')",
            "the plain words for a 404",
        )
        .await;

        // A shared link reproduces the test in a fresh page.
        type_into(client, "robots", ROBOTS).await;
        pick_crawler(client, "Googlebot").await;
        wait_for_results(client, "Googlebot", URLS).await;
        let link = client.current_url().await.unwrap().to_string();
        assert!(link.contains("#s="), "{link}");
        client.goto("about:blank").await.unwrap();
        client.goto(&link).await.unwrap();
        wait_for_results(client, "Googlebot", URLS).await;
        let value = js(client, "return document.getElementById('robots').value").await;
        assert_eq!(value, ROBOTS);
        assert_eq!(
            js(client, "return document.getElementById('crawler').value").await,
            "Googlebot"
        );
        let shared_rows = result_rows(client).await;
        assert!(
            shared_rows[0][1].starts_with("disallowed"),
            "{shared_rows:?}"
        );

        // Diff: a second editor; the URLs whose verdict changes, in `diff`'s sentences.
        type_into(
            client,
            "new-robots",
            &ROBOTS.replace("Allow: /private/press/\n", ""),
        )
        .await;
        client
            .find(Locator::Id("compare"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(
            client,
            "return document.getElementById('diff-summary').textContent.length > 0",
            "the diff",
        )
        .await;
        let changes = js(
            client,
            "return document.getElementById('diff-list').textContent",
        )
        .await;
        assert!(
            changes.as_str().unwrap().contains(
                "Googlebot (rfc9309): /private/press/release was allowed by line 3: Allow: \
                 /private/press/, now disallowed by line 2: Disallow: /private/"
            ),
            "{changes}"
        );

        // The screenshot in the README, of the page as a user sees it.
        client
            .find(Locator::Css("#results tbody tr"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(
            client,
            "return document.getElementById('explanation').textContent.length > 0",
            "the explanation",
        )
        .await;
        // From the top: the editor, the crawler picker and the verdicts, as a user first sees
        // them (selecting a row may have scrolled to the explanation).
        js(client, "window.scrollTo(0, 0); return true").await;
        let png = client.screenshot().await.unwrap();
        let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/serve.png");
        std::fs::write(&docs, &png).unwrap();

        // The XSS fixture renders as text: no element is made from it, no script runs.
        type_into(client, "robots", XSS).await;
        type_into(
            client,
            "urls",
            "/\"><img src=x onerror=\"window.pwned = 3\">\n",
        )
        .await;
        wait_for(
            client,
            "return document.querySelectorAll('#results tbody tr').length === 1 && \
             document.querySelector('#results tbody td.url').textContent.includes('<img')",
            "the fixture's URL as text",
        )
        .await;
        wait_for(
            client,
            "return document.getElementById('lint-summary').textContent.length > 0",
            "lint of the fixture",
        )
        .await;
        let made = js(
            client,
            "return {imgs: document.querySelectorAll('img').length, \
             scripts: document.querySelectorAll('script').length, pwned: window.pwned || 0, \
             cell: document.querySelector('#results tbody td.url').textContent}",
        )
        .await;
        assert_eq!(made["imgs"], 0, "{made}");
        assert_eq!(made["scripts"], 1, "{made}");
        assert_eq!(made["pwned"], 0, "{made}");
        assert!(
            made["cell"].as_str().unwrap().starts_with("/\"><img src=x"),
            "{made}"
        );

        // Phone width: one column, nothing wider than the screen.
        client.set_window_size(390, 844).await.unwrap();
        wait_for(
            client,
            "return window.innerWidth <= 400",
            "the phone-width window",
        )
        .await;
        let overflow = js(
            client,
            "return document.documentElement.scrollWidth - window.innerWidth",
        )
        .await;
        assert!(overflow.as_i64().unwrap() <= 0, "{overflow} px too wide");
    };
    use futures_util::FutureExt as _;
    std::panic::AssertUnwindSafe(steps).catch_unwind().await
}

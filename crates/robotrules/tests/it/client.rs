//! The async client end to end, against real HTTP and FTP servers on 127.0.0.1 (from
//! `robotrules-testserver`): fetch, access result (RFC 9309 §2.3.1), cache (§2.4), parse once,
//! decide.

// The client is behind the `fetch` feature (`cargo test -p robotrules --features fetch`; the
// workspace turns it on through the command line and the conformance runner).
#![cfg(feature = "fetch")]
#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::Arc;
use std::time::Duration;

use robotrules::client::{
    AccessKind, Basis, CachePolicy, Client, ClientBuilder, ClientError, ManualClock, VerdictClass,
    POLITENESS_FLOOR,
};
use robotrules::{ParseOptions, Profile, Robots, RuleKind};
use robotrules_testserver::ftp::FtpServer;
use robotrules_testserver::http::{HttpServer, Reply};
use rstest::rstest;

const ROBOTS: &str = "\
User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2.5

User-agent: OtherBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
Sitemap: https://example.com/news.xml
";

const HOUR: Duration = Duration::from_secs(3600);

/// Short deadlines, no proxy from the environment.
fn quick(builder: ClientBuilder) -> ClientBuilder {
    builder
        .connect_timeout(Duration::from_secs(1))
        .total_timeout(Duration::from_secs(2))
        .use_env_proxy(false)
}

fn client() -> Client {
    quick(Client::builder().crawler("ExampleBot"))
        .build()
        .unwrap()
}

fn client_with_clock(clock: &ManualClock) -> Client {
    quick(Client::builder().crawler("ExampleBot"))
        .clock(Arc::new(clock.clone()))
        .build()
        .unwrap()
}

async fn server_with(reply: Reply) -> HttpServer {
    let server = HttpServer::start().await;
    server.route("/robots.txt", reply);
    server
}

#[rstest]
#[case::disallowed("/private/report.pdf", false, Some((RuleKind::Disallow, 2)))]
#[case::allowed_by_a_longer_rule("/private/press/2024", true, Some((RuleKind::Allow, 3)))]
#[case::no_rule_matches("/public/page?x=1", true, None)]
#[tokio::test]
async fn the_fetched_rules_decide(
    #[case] path: &str,
    #[case] allowed: bool,
    #[case] rule: Option<(RuleKind, u32)>,
) {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let decision = client().is_allowed(&server.url(path)).await.unwrap();
    assert_eq!(decision.allowed, allowed, "{decision:?}");
    assert_eq!(decision.access, AccessKind::Success);
    assert_eq!(decision.verdict_class, VerdictClass::Conditional);
    assert_eq!(decision.basis, Basis::Current);
    assert!(!decision.from_cache);
    assert_eq!(&*decision.robots_txt_url, server.url("/robots.txt"));
    assert_eq!(
        decision.decided_by().map(|rule| (rule.kind(), rule.line())),
        rule
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn relative_sitemaps_are_resolved_against_the_robots_txt_url() {
    let server = server_with(Reply::ok(
        "User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\nSitemap: https://cdn.example.net/s.xml\n",
    ))
    .await;
    let client = client();
    assert_eq!(
        client.sitemaps(&server.url("/page")).await.unwrap(),
        [
            server.url("/sitemap.xml"),
            "https://cdn.example.net/s.xml".to_owned()
        ]
    );
}

#[rstest]
#[case::not_found(404)]
#[case::forbidden(403)]
#[case::unauthorized(401)]
#[tokio::test]
async fn an_unavailable_file_allows_everything(#[case] status: u16) {
    let server = server_with(Reply::status(status)).await;
    let client = client();
    for path in ["/", "/private/x", "/robots.txt"] {
        let decision = client.is_allowed(&server.url(path)).await.unwrap();
        assert!(decision.allowed, "{path}: {decision:?}");
        assert_eq!(decision.access, AccessKind::Unavailable);
        assert_eq!(decision.verdict_class, VerdictClass::FullAllow);
        assert_eq!(decision.decided_by(), None);
    }
    assert_eq!(client.crawl_delay(&server.url("/")).await.unwrap(), None);
    assert!(client.sitemaps(&server.url("/")).await.unwrap().is_empty());
}

#[rstest]
#[case::service_unavailable(Reply::status(503))]
#[case::internal_server_error(Reply::status(500))]
#[case::too_many_requests(Reply::status(429))]
#[case::garbage(Reply::Raw(b"not http at all\r\n\r\n".to_vec()))]
#[tokio::test]
async fn an_unreachable_file_disallows_everything_even_robots_txt(#[case] reply: Reply) {
    let server = server_with(reply).await;
    let client = client();
    for path in ["/", "/public", "/robots.txt"] {
        let decision = client.is_allowed(&server.url(path)).await.unwrap();
        assert!(!decision.allowed, "{path}: {decision:?}");
        assert_eq!(decision.access, AccessKind::Unreachable);
        assert_eq!(decision.verdict_class, VerdictClass::FullDisallow);
        assert_eq!(decision.decided_by(), None);
    }
}

#[tokio::test]
async fn a_refused_connection_disallows_everything() {
    let server = HttpServer::start().await;
    let url = server.url("/page");
    drop(server);
    let decision = client().is_allowed(&url).await.unwrap();
    assert!(!decision.allowed);
    assert_eq!(decision.access, AccessKind::Unreachable);
}

#[tokio::test]
async fn the_second_question_is_answered_from_the_cache_with_the_same_parse() {
    let clock = ManualClock::default();
    let server = server_with(Reply::ok(ROBOTS)).await;
    let client = client_with_clock(&clock);
    let first = client.is_allowed(&server.url("/private/a")).await.unwrap();
    assert!(!first.from_cache);
    assert_eq!(first.cache_age, Duration::ZERO);
    clock.advance(HOUR);
    let second = client.is_allowed(&server.url("/public/b")).await.unwrap();
    assert!(second.from_cache);
    assert!(second.allowed);
    assert_eq!(second.cache_age, HOUR);
    assert_eq!(server.hits("/robots.txt"), 1);

    let a = client.lookup(&server.url("/")).await.unwrap();
    let b = client.lookup(&server.url("/x")).await.unwrap();
    let (a, b) = (a.robots().unwrap(), b.robots().unwrap());
    assert!(Robots::ptr_eq(&a, &b), "parsed once, shared");
}

#[tokio::test]
async fn a_new_copy_is_parsed_again() {
    let clock = ManualClock::default();
    let server = server_with(Reply::ok("User-agent: *\nDisallow: /old\n")).await;
    let client = client_with_clock(&clock);
    assert!(
        !client
            .is_allowed(&server.url("/old"))
            .await
            .unwrap()
            .allowed
    );
    server.route("/robots.txt", Reply::ok("User-agent: *\nDisallow: /new\n"));
    clock.advance(25 * HOUR);
    let old = client.is_allowed(&server.url("/old")).await.unwrap();
    assert!(old.allowed, "{old:?}");
    assert!(!old.from_cache);
    assert!(
        !client
            .is_allowed(&server.url("/new"))
            .await
            .unwrap()
            .allowed
    );
    assert_eq!(server.hits("/robots.txt"), 2);
}

#[tokio::test]
async fn while_unreachable_the_last_good_copy_decides() {
    let clock = ManualClock::default();
    let server = server_with(Reply::ok(ROBOTS)).await;
    let client = client_with_clock(&clock);
    assert!(
        client
            .is_allowed(&server.url("/public"))
            .await
            .unwrap()
            .allowed
    );
    server.route("/robots.txt", Reply::status(503));
    clock.advance(25 * HOUR);
    let decision = client.is_allowed(&server.url("/public")).await.unwrap();
    assert!(decision.allowed, "{decision:?}");
    assert_eq!(decision.access, AccessKind::Success);
    assert!(matches!(decision.basis, Basis::LastGoodCopy { .. }));
    assert_eq!(decision.cache_age, 25 * HOUR);
    assert!(
        !client
            .is_allowed(&server.url("/private/x"))
            .await
            .unwrap()
            .allowed
    );
    assert_eq!(server.hits("/robots.txt"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_tasks_share_one_fetch_and_one_parse() {
    let server = server_with(Reply::ok(ROBOTS).after(Duration::from_millis(200))).await;
    let client = client();
    let tasks: Vec<_> = (0..32)
        .map(|i| {
            let client = client.clone();
            let url = if i % 2 == 0 {
                server.url(&format!("/private/{i}"))
            } else {
                server.url(&format!("/public/{i}"))
            };
            tokio::spawn(async move {
                let decision = client.is_allowed(&url).await.unwrap();
                let lookup = client.lookup(&url).await.unwrap();
                (i, decision, lookup.robots().unwrap())
            })
        })
        .collect();
    let mut parsed = Vec::new();
    for task in tasks {
        let (i, decision, robots) = task.await.unwrap();
        assert_eq!(decision.allowed, i % 2 == 1, "{i}: {decision:?}");
        parsed.push(robots);
    }
    assert_eq!(server.hits("/robots.txt"), 1, "one request for 32 tasks");
    assert!(parsed
        .iter()
        .all(|robots| Robots::ptr_eq(robots, &parsed[0])));
}

#[tokio::test]
async fn each_origin_has_its_own_robots_txt() {
    let blocking = server_with(Reply::ok("User-agent: *\nDisallow: /\n")).await;
    let open = server_with(Reply::ok("User-agent: *\nDisallow:\n")).await;
    let client = client();
    assert!(
        !client
            .is_allowed(&blocking.url("/a"))
            .await
            .unwrap()
            .allowed
    );
    assert!(client.is_allowed(&open.url("/a")).await.unwrap().allowed);
    // Same host, other port: another origin (the seed's robots.txt location table).
    assert_ne!(blocking.port(), open.port());
    assert_eq!(blocking.hits("/robots.txt"), 1);
    assert_eq!(open.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn an_idn_host_is_asked_about_in_punycode() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let client = quick(Client::builder().crawler("ExampleBot"))
        .resolve("www.xn--mller-kva.example", server.addr())
        .build()
        .unwrap();
    let port = server.port();
    let decision = client
        .is_allowed(&format!("http://WWW.Müller.example:{port}/private/x"))
        .await
        .unwrap();
    assert!(!decision.allowed, "{decision:?}");
    assert_eq!(
        &*decision.robots_txt_url,
        format!("http://www.xn--mller-kva.example:{port}/robots.txt")
    );
    let again = client
        .is_allowed(&format!("http://www.xn--mller-kva.example:{port}/public"))
        .await
        .unwrap();
    assert!(again.from_cache, "the same origin");
    let requests = server.requests();
    assert_eq!(
        requests[0].header("host"),
        Some(format!("www.xn--mller-kva.example:{port}").as_str())
    );
}

#[tokio::test]
async fn crawl_delay_and_sitemaps_come_from_the_origins_file() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let client = client();
    assert_eq!(
        client.crawl_delay(&server.url("/any")).await.unwrap(),
        Some(std::time::Duration::from_millis(2500))
    );
    // Every decision carries it too.
    let decision = client.is_allowed(&server.url("/any")).await.unwrap();
    assert_eq!(decision.crawl_delay, Some(Duration::from_millis(2500)));
    assert_eq!(serde_json::to_value(&decision).unwrap()["crawl_delay"], 2.5);
    assert_eq!(
        client.sitemaps(&server.url("/")).await.unwrap(),
        [
            "https://example.com/sitemap.xml",
            "https://example.com/news.xml"
        ]
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

#[tokio::test]
async fn the_user_agent_header_names_the_crawler() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    client().is_allowed(&server.url("/")).await.unwrap();
    let user_agent = server.requests()[0]
        .header("user-agent")
        .unwrap()
        .to_owned();
    assert!(user_agent.starts_with("ExampleBot "), "{user_agent}");
}

#[tokio::test]
async fn the_profile_reads_the_file() {
    // `Disallow: private` has no leading slash: never matches in google, read as `/private`
    // in rfc9309 (docs/profiles.md).
    let server = server_with(Reply::ok("User-agent: *\nDisallow: private\n")).await;
    let google = quick(Client::builder().crawler("ExampleBot"))
        .parse_options(ParseOptions::new().with_profile(Profile::Google))
        .build()
        .unwrap();
    let url = server.url("/private");
    assert!(google.is_allowed(&url).await.unwrap().allowed);
    assert!(!client().is_allowed(&url).await.unwrap().allowed);
}

#[tokio::test]
async fn ftp_robots_txt_is_fetched_with_an_anonymous_login() {
    let server = FtpServer::anonymous().await;
    server.put_robots_txt(b"User-agent: *\r\nDisallow: /pub/private/\r\n");
    let client = client();
    let denied = client
        .is_allowed(&server.url("/pub/private/file.tar.gz"))
        .await
        .unwrap();
    assert!(!denied.allowed, "{denied:?}");
    assert_eq!(&*denied.robots_txt_url, server.url("/robots.txt"));
    assert_eq!(denied.decided_by().map(|rule| rule.line()), Some(2));
    let allowed = client.is_allowed(&server.url("/pub/file")).await.unwrap();
    assert!(allowed.allowed);
    assert!(allowed.from_cache);
}

#[tokio::test]
async fn a_missing_ftp_file_allows_everything() {
    let server = FtpServer::anonymous().await;
    let decision = client().is_allowed(&server.url("/pub/x")).await.unwrap();
    assert!(decision.allowed);
    assert_eq!(decision.access, AccessKind::Unavailable);
}

#[tokio::test]
async fn a_refused_ftp_login_disallows_everything() {
    let server = FtpServer::refusing_logins().await;
    let decision = client().is_allowed(&server.url("/pub/x")).await.unwrap();
    assert!(!decision.allowed);
    assert_eq!(decision.access, AccessKind::Unreachable);
}

#[rstest]
#[case::relative("/relative/path")]
#[case::no_scheme("example.com/a")]
#[case::no_host("http://")]
#[case::mailto("mailto:someone@example.com")]
#[case::unsupported_scheme("gopher://example.com/")]
#[case::file("file:///etc/passwd")]
#[case::bad_port("http://example.com:99999/")]
#[tokio::test]
async fn urls_without_a_robots_txt_are_errors(#[case] url: &str) {
    let result = client().is_allowed(url).await;
    assert!(
        matches!(&result, Err(ClientError::Url { url: given, .. }) if given == url),
        "{result:?}"
    );
}

#[tokio::test]
async fn invalidate_fetches_again() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let client = client();
    client.is_allowed(&server.url("/")).await.unwrap();
    client.invalidate(&server.url("/x")).await.unwrap();
    let decision = client.is_allowed(&server.url("/")).await.unwrap();
    assert!(!decision.from_cache);
    assert_eq!(server.hits("/robots.txt"), 2);
}

#[tokio::test]
async fn an_explicit_cache_policy_wins_over_the_profiles_preset() {
    let clock = ManualClock::default();
    let server = server_with(Reply::ok(ROBOTS).header("Cache-Control", "max-age=172800")).await;
    let client = quick(Client::builder().crawler("ExampleBot"))
        .cache_policy(CachePolicy::google())
        .clock(Arc::new(clock.clone()))
        .build()
        .unwrap();
    client.is_allowed(&server.url("/")).await.unwrap();
    clock.advance(36 * HOUR);
    // google follows max-age beyond 24 hours; the rfc9309 preset would have fetched again.
    assert!(
        client
            .is_allowed(&server.url("/"))
            .await
            .unwrap()
            .from_cache
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

/// The politeness floor (RFC 9309 §2.4 makes cache control a MAY): a server that says
/// `no-store` (or `no-cache`, `max-age=0`, an `Expires` in the past) is still asked at most
/// once an hour by a crawler on default options, however many tasks ask how often.
#[rstest]
#[case::no_store(Reply::ok(ROBOTS).header("Cache-Control", "no-store"))]
#[case::no_cache(Reply::ok(ROBOTS).header("Cache-Control", "no-cache"))]
#[case::max_age_zero(Reply::ok(ROBOTS).header("Cache-Control", "max-age=0"))]
#[case::expires_in_the_past(Reply::ok(ROBOTS).header("Expires", "Thu, 01 Jan 1970 00:00:00 GMT"))]
#[case::bad_expires(Reply::ok(ROBOTS).header("Expires", "soon"))]
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_calls_from_fifty_tasks_make_one_request(#[case] reply: Reply) {
    let server = server_with(reply).await;
    let clock = ManualClock::default();
    let client = client_with_clock(&clock);
    let tasks: Vec<_> = (0..50)
        .map(|task| {
            let client = client.clone();
            let base = server.url("/");
            tokio::spawn(async move {
                for i in 0..20 {
                    let url = format!("{base}private/{task}/{i}");
                    assert!(!client.is_allowed(&url).await.unwrap().allowed);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(server.hits("/robots.txt"), 1);
    // Just before the floor: still one; at the floor: asked again.
    clock.advance(POLITENESS_FLOOR - Duration::from_secs(1));
    client.is_allowed(&server.url("/a")).await.unwrap();
    assert_eq!(server.hits("/robots.txt"), 1);
    clock.advance(Duration::from_secs(1));
    client.is_allowed(&server.url("/a")).await.unwrap();
    assert_eq!(server.hits("/robots.txt"), 2);
}

/// A failing origin is shared for its back-off (one minute first), not asked per URL.
#[tokio::test]
async fn a_failing_origin_is_asked_once_per_back_off() {
    let server = server_with(Reply::status(503)).await;
    let clock = ManualClock::default();
    let client = client_with_clock(&clock);
    for i in 0..100 {
        let decision = client
            .is_allowed(&server.url(&format!("/{i}")))
            .await
            .unwrap();
        assert!(!decision.allowed);
        assert_eq!(decision.access, AccessKind::Unreachable);
    }
    assert_eq!(server.hits("/robots.txt"), 1);
    clock.advance(Duration::from_secs(59));
    client.is_allowed(&server.url("/x")).await.unwrap();
    assert_eq!(server.hits("/robots.txt"), 1);
    clock.advance(Duration::from_secs(1));
    client.is_allowed(&server.url("/x")).await.unwrap();
    assert_eq!(server.hits("/robots.txt"), 2);
}

/// `explain` gives the decision `is_allowed` gives, with the model's account of it.
#[tokio::test]
async fn explain_is_the_decision_and_its_account() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let client = client();
    let url = server.url("/private/press/1");
    let decision = client.is_allowed(&url).await.unwrap();
    let explained = client.explain(&url).await.unwrap();
    assert_eq!(explained.decision.allowed, decision.allowed);
    assert_eq!(explained.decision.decided_by(), decision.decided_by());
    let explanation = explained.explanation.unwrap();
    assert_eq!(explanation.matches.len(), 2);
    assert_eq!(explanation.decided_by.map(|r| r.line), Some(3));
    assert_eq!(
        decision
            .decided_by()
            .map(|r| (r.kind(), r.line(), r.pattern().into_owned())),
        Some((RuleKind::Allow, 3, "/private/press/".to_owned()))
    );
    let json = serde_json::to_value(&decision).unwrap_or_default();
    assert_eq!(json["access"], "success");
    assert_eq!(json["reason"], "rule-matched");
    assert_eq!(json["decided_by"]["pattern"], "/private/press/");
}

/// The owned crawler handle lives anywhere: `'static`, `Send + Sync`, cheap to clone.
#[test]
fn the_crawler_handle_is_owned_and_shareable() {
    fn owned<T: Send + Sync + Clone + 'static>() {}
    owned::<robotrules::Crawler>();
    owned::<robotrules::client::Answer>();
}

/// `try_is_allowed` answers without waiting once the origin is known, and says so (`None`)
/// before.
#[tokio::test]
async fn try_is_allowed_answers_from_what_is_known() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let clock = ManualClock::default();
    let client = client_with_clock(&clock);
    let url = server.url("/private/x");
    assert!(client.try_is_allowed(&url).is_none());
    assert!(matches!(
        client.try_is_allowed("not a url"),
        Some(Err(ClientError::Url { .. }))
    ));
    let asked = client.is_allowed(&url).await.unwrap();
    let known = client.try_is_allowed(&url).unwrap().unwrap();
    assert_eq!(
        (known.allowed, known.decided_by()),
        (asked.allowed, asked.decided_by())
    );
    assert!(known.from_cache);
    clock.advance(Duration::from_secs(24 * 3600));
    assert!(client.try_is_allowed(&url).is_none(), "no longer current");
    assert_eq!(server.hits("/robots.txt"), 1);
}

/// A known origin is found however its URL spells it: the common lower-case form (looked up
/// by its borrowed origin), upper case, and the scheme's default port written out.
#[tokio::test]
async fn a_known_origin_is_found_in_every_spelling() {
    let server = server_with(Reply::ok(ROBOTS)).await;
    let clock = ManualClock::default();
    let client = client_with_clock(&clock);
    let url = server.url("/private/x");
    let first = client.is_allowed(&url).await.unwrap();
    assert!(!first.from_cache);
    let upper = url.replacen("http://", "HTTP://", 1);
    for spelling in [url.clone(), upper] {
        let known = client.try_is_allowed(&spelling).unwrap().unwrap();
        assert_eq!(known.allowed, first.allowed, "{spelling}");
        assert!(known.from_cache, "{spelling}");
    }
    assert!(
        client.try_is_allowed("http://other.invalid/").is_none(),
        "another origin is not known"
    );
    assert_eq!(server.hits("/robots.txt"), 1);
}

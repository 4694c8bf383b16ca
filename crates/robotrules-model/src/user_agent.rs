//! The crawler's product token in a full `User-Agent` header.
//!
//! A crawler is asked about by its product token (`Googlebot`, RFC 9309 §2.2.1), but what a
//! log line or an HTTP request carries is the whole header:
//! `Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)`.
//! [`crawler_token`] reads the token out of it, from the header's structure rather than from
//! a list of crawlers.
//!
//! **The structure** (RFC 9110 §10.1.5): a `User-Agent` value is a sequence of *products*
//! (`name/version`, in decreasing order of significance) and *comments* (in parentheses, by
//! convention `;`-separated parts). Browsers lead with `Mozilla/5.0` and then name their
//! engines (`AppleWebKit/…`, `Gecko/…`, `Chrome/…`, `Safari/…`). Crawlers show up in one of
//! three places, and are looked for in this order:
//!
//! 1. **The leading product**, when it is not a browser's: `CCBot/2.0 (…)`,
//!    `facebookexternalhit/1.1 (…)`, `AdsBot-Google (…)`, `DuckDuckBot/1.1; (…)`.
//! 2. **After `compatible`**: the part that follows a `compatible` part, inside a comment
//!    (`(compatible; Googlebot/2.1; …)`) or, as OpenAI writes it, after one
//!    (`(KHTML, like Gecko); compatible; ChatGPT-User/1.0; …`). The version may be missing
//!    (`compatible; Bytespider; …`).
//! 3. **A versioned part of a comment**: `(Applebot/0.1; +http://www.apple.com/go/applebot)`,
//!    `(X11; Linux x86_64; Storebot-Google/1.0)`.
//!
//! A candidate counts only when its name is a whole product token — letters, digits, `_` and
//! `-`, as the `rfc9309` profile reads crawler names — and is not one of the few
//! [`BROWSER_PRODUCTS`] browsers put in those places (`Mozilla`, `Trident` in Internet
//! Explorer's comment, …). So a browser's header gives `None`: its leading product is
//! `Mozilla` or `Opera`, nothing follows `compatible` but `MSIE 10.0` (not a token), and its
//! comments hold platforms (`Windows NT 10.0`, `Linux x86_64`, `Nexus 5X Build/MMB29P`), not
//! products.
//!
//! **Limits.** Products after the first, outside comments, are not read: that is where
//! browsers add their brand (`Edg/…`, `OPR/…`, `SamsungBrowser/…`), and reading them would
//! need a list of every browser. A crawler that only appends its product to a browser's
//! header (`… Safari/537.36 ExampleBot/1.0`) is therefore not recognised, and neither is
//! one whose name is not a token (`compatible; Yahoo! Slurp; …`). The function reads
//! what a header says; it cannot tell a real crawler from one that borrows its name.
//!
//! Any string is accepted: parentheses need not balance, control characters and non-ASCII
//! text are separators or parts of names that then do not count, and the work is one pass
//! over the string.

/// Products that browsers put first or in a comment, compared ignoring ASCII case: never a
/// crawler's token. Kept short on purpose (see the module docs for why later products are not
/// read at all): the engines and the brands that lead a header or stand in its comments.
pub const BROWSER_PRODUCTS: &[&str] = &[
    "Mozilla",
    "Opera",
    "AppleWebKit",
    "KHTML",
    "Gecko",
    "Trident",
    "Presto",
    "Chrome",
    "Safari",
    "Firefox",
    "MSIE",
    "Version",
    "Mobile",
];

/// The crawler's product token in a full `User-Agent` header, as written (`bingbot` stays
/// lower-case: groups match it ignoring case), or `None` when the header names no crawler
/// (a browser's) or names it in a way not read here (see the module docs).
///
/// ```
/// use robotrules_model::crawler_token;
///
/// let googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/// assert_eq!(crawler_token(googlebot), Some("Googlebot"));
/// assert_eq!(crawler_token("CCBot/2.0 (https://commoncrawl.org/faq/)"), Some("CCBot"));
/// let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
/// assert_eq!(crawler_token(firefox), None);
/// ```
pub fn crawler_token(user_agent: &str) -> Option<&str> {
    let parts = parts(user_agent);
    // 1. The leading product, outside any comment.
    if let Some(first) = parts.first().filter(|p| !p.in_comment) {
        if let Some(name) = product(first.text, false) {
            return Some(name);
        }
    }
    // 2. The part after `compatible`.
    let after_compatible = parts
        .windows(2)
        .filter(|w| w[0].text.eq_ignore_ascii_case("compatible"))
        .find_map(|w| product(w[1].text, false));
    if after_compatible.is_some() {
        return after_compatible;
    }
    // 3. A versioned part of a comment.
    parts
        .iter()
        .filter(|p| p.in_comment)
        .find_map(|p| product(p.text, true))
}

/// Whether `name` is one of [`BROWSER_PRODUCTS`], ignoring ASCII case.
pub fn is_browser_product(name: &str) -> bool {
    BROWSER_PRODUCTS
        .iter()
        .any(|b| b.eq_ignore_ascii_case(name))
}

/// One part of a header: a word outside comments (split at whitespace, `;` and `,`), or one
/// `;`-separated part of a comment, trimmed.
#[derive(Clone, Copy, Debug)]
struct Part<'a> {
    text: &'a str,
    in_comment: bool,
}

/// The header's parts, in order. Comments nest (RFC 9110 `comment`); an unclosed comment runs
/// to the end, and a stray `)` outside one is a separator.
fn parts<'a>(header: &'a str) -> Vec<Part<'a>> {
    let mut out = Vec::new();
    let mut push = |text: &'a str, in_comment: bool| {
        let text = text.trim_matches(|c: char| c.is_whitespace() || c.is_control());
        if !text.is_empty() {
            out.push(Part { text, in_comment });
        }
    };
    let bytes = header.as_bytes();
    let mut depth = 0usize;
    // Where the current word (outside) or part (inside a comment) starts.
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        // Every byte looked at is ASCII, so `i` and `i + 1` are char boundaries.
        match (depth, b) {
            (0, b'(') => {
                push(&header[start..i], false);
                depth = 1;
                start = i + 1;
            }
            (0, _) if b == b';' || b == b',' || b == b')' || b.is_ascii_whitespace() => {
                push(&header[start..i], false);
                start = i + 1;
            }
            (0, _) => {}
            (_, b'(') => depth += 1,
            (_, b')') => {
                depth -= 1;
                if depth == 0 {
                    push(&header[start..i], true);
                    start = i + 1;
                }
            }
            (1, b';') => {
                push(&header[start..i], true);
                start = i + 1;
            }
            _ => {}
        }
    }
    push(&header[start..], depth > 0);
    out
}

/// The name of `text` when it is a product `name` or `name/version` whose name is a product
/// token and not a browser's (nor the `compatible` marker); with `versioned`, only
/// `name/version`.
fn product(text: &str, versioned: bool) -> Option<&str> {
    let (name, version) = match text.split_once('/') {
        Some((name, version)) => (name, Some(version)),
        None => (text, None),
    };
    let token = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let version_ok = match version {
        Some(v) => !v.is_empty() && !v.chars().any(|c| c.is_whitespace() || c.is_control()),
        None => !versioned,
    };
    let marker = name.eq_ignore_ascii_case("compatible");
    (token && version_ok && !marker && !is_browser_product(name)).then_some(name)
}

/// The crawler name that stands for "a crawler that no group names": `*`, the global group's
/// own token (RFC 9309 §2.2.1). Every profile answers for it with the `*` group(s), exactly as
/// for a crawler whose name no `user-agent` line gives, which is what site owners ask when they
/// ask "what does the `*` group give?".
pub const ANY_CRAWLER: &str = "*";

/// How output names [`ANY_CRAWLER`]: what it stands for.
pub const ANY_CRAWLER_LABEL: &str = "a crawler that no group names";

/// What a crawler name stands for when it is [`ANY_CRAWLER`]: [`ANY_CRAWLER_LABEL`], the label
/// every surface shows after `*`; `None` for any other name.
pub fn any_crawler_label(name: &str) -> Option<&'static str> {
    is_any_crawler(name).then_some(ANY_CRAWLER_LABEL)
}

/// Whether `name` is [`ANY_CRAWLER`].
pub fn is_any_crawler(name: &str) -> bool {
    name == ANY_CRAWLER
}

/// Whether a crawler name is a URL or a path rather than a name (`https://example.com/x`,
/// `/x`): what is passed when the crawler's name is left out before the URLs.
pub fn looks_like_url(name: &str) -> bool {
    let name = name.trim();
    let scheme = name.split_once("://").map(|(scheme, _)| scheme);
    name.starts_with('/')
        || scheme.is_some_and(|s| {
            s.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.')
        })
}

/// The product token the caller most likely meant by `name`, a name that is not a token of
/// the alphabet `is_token_byte`, or `None` when there is no good guess:
///
/// - a full `User-Agent` header gives its crawler's token ([`crawler_token`]): `Googlebot` for
///   `Mozilla/5.0 (compatible; Googlebot/2.1; …)`, never a browser's `Mozilla`;
/// - words of one name give the words joined, up to a version: `MyBot` for `My Bot 2.0`,
///   `ExampleBot` for `Example Bot/1.0` (the first word alone is rarely what was meant);
/// - one word gives its product name or the token it starts with: `ExampleBot` for
///   `ExampleBot/1.0`;
/// - a URL or a path ([`looks_like_url`]) and [`ANY_CRAWLER`] give none.
///
/// ```
/// use robotrules_model::suggested_token;
///
/// let rfc = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
/// assert_eq!(suggested_token("My Bot 2.0", rfc).as_deref(), Some("MyBot"));
/// assert_eq!(suggested_token("Example Bot/1.0", rfc).as_deref(), Some("ExampleBot"));
/// assert_eq!(suggested_token("https://example.com/x", rfc), None);
/// ```
pub fn suggested_token(name: &str, is_token_byte: impl Fn(u8) -> bool) -> Option<String> {
    let is_token = |s: &str| !s.is_empty() && s.bytes().all(&is_token_byte);
    if looks_like_url(name) || is_any_crawler(name) {
        return None;
    }
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or_default();
    if name.contains('(') || first.contains('/') {
        // A header (`CCBot/2.0 (…)`, `Mozilla/5.0 (compatible; …)`): its structure names it.
        return crawler_token(name)
            .filter(|t| is_token(t))
            .map(str::to_owned);
    }
    if words.next().is_some() {
        // Words of one name, joined up to the first that is no token or carries a version.
        let (mut joined, mut count) = (String::new(), 0);
        for word in name.split_whitespace() {
            let (word, versioned) = match word.split_once('/') {
                Some((word, _)) => (word, true),
                None => (word, false),
            };
            if !is_token(word) {
                break;
            }
            joined.push_str(word);
            count += 1;
            if versioned {
                break;
            }
        }
        return (count > 1 && !is_browser_product(&joined)).then_some(joined);
    }
    let leading_end = name
        .bytes()
        .position(|b| !is_token_byte(b))
        .unwrap_or(name.len());
    let leading = &name[..leading_end];
    crawler_token(name)
        .filter(|t| is_token(t))
        .or_else(|| (!leading.is_empty() && !is_browser_product(leading)).then_some(leading))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// The headers the crawlers' operators document, and the token each names.
    #[rstest]
    // Google (developers.google.com/search/docs/crawling-indexing/overview-google-crawlers).
    #[case::googlebot_desktop(
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Googlebot"
    )]
    #[case::googlebot_desktop_chrome(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; \
         +http://www.google.com/bot.html) Chrome/120.0.6099.199 Safari/537.36",
        "Googlebot"
    )]
    #[case::googlebot_smartphone(
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 \
         (KHTML, like Gecko) Chrome/120.0.6099.199 Mobile Safari/537.36 (compatible; \
         Googlebot/2.1; +http://www.google.com/bot.html)",
        "Googlebot"
    )]
    #[case::googlebot_image("Googlebot-Image/1.0", "Googlebot-Image")]
    #[case::googlebot_video("Googlebot-Video/1.0", "Googlebot-Video")]
    // Googlebot-News has no header of its own (it crawls as Googlebot): its token passes.
    #[case::googlebot_news_token("Googlebot-News", "Googlebot-News")]
    #[case::storebot_desktop(
        "Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, \
         like Gecko) Chrome/79.0.3945.88 Safari/537.36",
        "Storebot-Google"
    )]
    #[case::storebot_mobile(
        "Mozilla/5.0 (Linux; Android 8.0; Pixel 2 Build/OPD3.170816.012; Storebot-Google/1.0) \
         AppleWebKit/537.36 (KHTML, like Gecko) Chrome/81.0.4044.138 Mobile Safari/537.36",
        "Storebot-Google"
    )]
    #[case::inspection_tool(
        "Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)",
        "Google-InspectionTool"
    )]
    #[case::inspection_tool_mobile(
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 \
         (KHTML, like Gecko) Chrome/120.0.6099.199 Mobile Safari/537.36 (compatible; \
         Google-InspectionTool/1.0;)",
        "Google-InspectionTool"
    )]
    #[case::adsbot("AdsBot-Google (+http://www.google.com/adsbot.html)", "AdsBot-Google")]
    #[case::adsbot_mobile(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 \
         (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; \
         AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)",
        "AdsBot-Google-Mobile"
    )]
    #[case::mediapartners("Mediapartners-Google", "Mediapartners-Google")]
    #[case::mediapartners_mobile(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_1 like Mac OS X) AppleWebKit/603.1.30 \
         (KHTML, like Gecko) Version/10.0 Mobile/14E304 Safari/602.1 (compatible; \
         Mediapartners-Google/2.1; +http://www.google.com/bot.html)",
        "Mediapartners-Google"
    )]
    // Bing.
    #[case::bingbot(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; \
         +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
        "bingbot"
    )]
    #[case::bingbot_classic(
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        "bingbot"
    )]
    // OpenAI (platform.openai.com/docs/bots): ChatGPT-User and OAI-SearchBot close the
    // comment before `compatible`.
    #[case::gptbot(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; \
         +https://openai.com/gptbot)",
        "GPTBot"
    )]
    #[case::chatgpt_user(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; \
         +https://openai.com/bot",
        "ChatGPT-User"
    )]
    #[case::oai_searchbot(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; \
         +https://openai.com/searchbot",
        "OAI-SearchBot"
    )]
    // Anthropic.
    #[case::claudebot(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; \
         +claudebot@anthropic.com)",
        "ClaudeBot"
    )]
    #[case::claude_user(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; \
         +Claude-User@anthropic.com)",
        "Claude-User"
    )]
    #[case::ccbot("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot")]
    #[case::applebot(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like \
         Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
        "Applebot"
    )]
    #[case::applebot_mobile(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
         like Gecko) Version/17.0 Mobile/15E148 Safari/604.1 (Applebot/0.1; \
         +http://www.apple.com/go/applebot)",
        "Applebot"
    )]
    #[case::yandexbot(
        "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
        "YandexBot"
    )]
    #[case::yandexbot_mobile(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 15_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
         like Gecko) Version/15.4 Mobile/15E148 Safari/604.1 (compatible; YandexBot/3.0; \
         +http://yandex.com/bots)",
        "YandexBot"
    )]
    #[case::baiduspider(
        "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
        "Baiduspider"
    )]
    #[case::duckduckbot(
        "DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)",
        "DuckDuckBot"
    )]
    #[case::facebookexternalhit(
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "facebookexternalhit"
    )]
    #[case::perplexitybot(
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; \
         +https://perplexity.ai/perplexitybot)",
        "PerplexityBot"
    )]
    #[case::bytespider(
        "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile \
         Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
        "Bytespider"
    )]
    // Plain tokens and products.
    #[case::token("ExampleBot", "ExampleBot")]
    #[case::product("ExampleBot/1.0", "ExampleBot")]
    #[case::digits("360Spider", "360Spider")]
    #[case::curl("curl/8.5.0", "curl")]
    #[case::compatible_first("compatible; ExampleBot/1.0", "ExampleBot")]
    fn crawlers_are_named(#[case] header: &str, #[case] token: &str) {
        assert_eq!(crawler_token(header), Some(token));
    }

    /// Browsers' headers (and headers that name no crawler in a way read here) give none.
    #[rstest]
    #[case::chrome_windows(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
         Chrome/120.0.0.0 Safari/537.36"
    )]
    #[case::chrome_android(
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) \
         Chrome/120.0.0.0 Mobile Safari/537.36"
    )]
    #[case::android_webview(
        "Mozilla/5.0 (Linux; Android 9; SM-G960F Build/PPR1.180610.011; wv) \
         AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.193 Mobile \
         Safari/537.36"
    )]
    #[case::firefox("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0")]
    #[case::firefox_windows(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0"
    )]
    #[case::safari_mac(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like \
         Gecko) Version/17.1 Safari/605.1.15"
    )]
    #[case::safari_iphone(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
         like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"
    )]
    #[case::edge(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
         Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0"
    )]
    #[case::ie11("Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko")]
    #[case::ie10("Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)")]
    #[case::old_opera("Opera/9.80 (Windows NT 6.1; U; en) Presto/2.10.289 Version/12.00")]
    #[case::mozilla_only("Mozilla/5.0")]
    // Hostile or empty input.
    #[case::empty("")]
    #[case::spaces("   \t ")]
    #[case::parens_only("((()))")]
    #[case::unclosed("Mozilla/5.0 (compatible; ")]
    #[case::stray_close(") ) ;;; ,")]
    #[case::slash_only("/1.0")]
    #[case::empty_version("Bot/ (x)")]
    #[case::url("+http://example.com/bot")]
    #[case::compatible_only("Mozilla/5.0 (compatible)")]
    // A name that is not a token is not read (Yahoo's robots.txt token is `Slurp`).
    #[case::not_a_token(
        "Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)"
    )]
    fn browsers_name_no_crawler(#[case] header: &str) {
        assert_eq!(crawler_token(header), None, "{header:?}");
    }

    #[rstest]
    #[case::unclosed_comment("Mozilla/5.0 (compatible; Googlebot/2.1", Some("Googlebot"))]
    #[case::stray_close("Mozilla/5.0 ) (compatible; Googlebot/2.1)", Some("Googlebot"))]
    #[case::nested("Mozilla/5.0 (x (y; z); compatible; Googlebot/2.1)", Some("Googlebot"))]
    #[case::control(
        "Mozilla/5.0 (compatible;\u{7}\u{0}Googlebot/2.1\r\n)",
        Some("Googlebot")
    )]
    #[case::csi("Mozilla/5.0 (compatible;\u{1b}[2JGooglebot/2.1)", None)]
    #[case::escape_in_name("Mozilla/5.0 (compatible; Goo\u{1b}glebot/2.1)", None)]
    #[case::non_ascii("Mozilla/5.0 (compatible; Göoglebot/2.1)", None)]
    #[case::non_ascii_leading("Ünïcode/1.0 (compatible; Googlebot/2.1)", Some("Googlebot"))]
    fn hostile_headers_are_read_structurally(#[case] header: &str, #[case] token: Option<&str>) {
        assert_eq!(crawler_token(header), token);
    }

    /// The token suggested for a name that is not one (RFC alphabet).
    #[rstest]
    #[case::words("My Bot 2.0", Some("MyBot"))]
    #[case::words_versioned("Example Bot/1.0", Some("ExampleBot"))]
    #[case::product("ExampleBot/1.0", Some("ExampleBot"))]
    #[case::header(
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        Some("Googlebot")
    )]
    #[case::header_leading_product("CCBot/2.0 (https://commoncrawl.org/faq/)", Some("CCBot"))]
    #[case::browser("Mozilla/5.0", None)]
    #[case::url("https://example.com/x", None)]
    #[case::path("/x", None)]
    #[case::any("*", None)]
    #[case::not_a_word("Yahoo! Slurp", None)]
    #[case::leading("my.bot", Some("my"))]
    fn names_suggest_the_token_meant(#[case] name: &str, #[case] token: Option<&str>) {
        let rfc = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
        assert_eq!(suggested_token(name, rfc).as_deref(), token, "{name:?}");
    }

    #[rstest]
    #[case("https://example.com/x", true)]
    #[case("HTTP://example.com", true)]
    #[case("/x", true)]
    #[case("ExampleBot", false)]
    #[case("Example Bot/1.0", false)]
    #[case("://x", false)]
    fn urls_are_told_from_names(#[case] name: &str, #[case] url: bool) {
        assert_eq!(looks_like_url(name), url);
    }

    proptest::proptest! {
        /// Any string: a token that lies in the header, or none.
        #[test]
        fn any_string_gives_a_token_of_it_or_none(header in "\\PC{0,200}") {
            if let Some(token) = crawler_token(&header) {
                proptest::prop_assert!(is_token(token) && header.contains(token));
            }
        }

        /// Headers made of the pieces real ones are made of, in any order and nesting.
        #[test]
        fn header_like_strings_give_a_token_or_none(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "Mozilla/5.0", " ", "(", ")", "; ", "compatible", "Googlebot/2.1",
                    "+http://x.example/bot", "KHTML, like Gecko", "Chrome/1.2", "Bot", "/",
                    "\u{1b}", "ü",
                ]),
                0..30,
            )
        ) {
            let header = pieces.concat();
            if let Some(token) = crawler_token(&header) {
                proptest::prop_assert!(is_token(token) && !is_browser_product(token));
            }
        }
    }

    fn is_token(s: &str) -> bool {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    }

    #[test]
    fn any_input_gives_a_token_or_none_without_panicking() {
        let long = "Mozilla/5.0 (".repeat(800) + &")".repeat(800);
        let junk: String = (0u8..=255).cycle().take(10_240).map(char::from).collect();
        let parens: String = "(;)/".repeat(2_560);
        for header in [long.as_str(), junk.as_str(), parens.as_str()] {
            if let Some(token) = crawler_token(header) {
                assert!(!token.is_empty());
                assert!(token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
            }
        }
        let ten_kb = format!("{}Bot/1", "a".repeat(10_240));
        assert_eq!(crawler_token(&ten_kb), Some(&ten_kb[..10_243]));
    }
}

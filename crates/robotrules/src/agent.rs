//! From what callers hold to the crawler they mean: a foreign library's user-agent argument
//! or a User-Agent header read as one crawler name ([`crawler_name_for`], the one policy of
//! every drop-in and adapter), and what a profile reads of a name that is not a token of its
//! own ([`NameReading`], Google's `MJ12bot` → `MJ`).

use std::borrow::Cow;
use std::fmt;

use robotrules_model::{
    crawler_token, is_browser_product, AgentToken, CrawlerNames, Profile, Selection, ANY_CRAWLER,
};
use robotrules_text::excerpt;

/// How many characters of a name a [`NameReading`]'s sentence quotes.
const EXCERPT_CHARS: usize = 80;

/// The crawler name that `user_agent` stands for under `profile`: what the drop-ins for other
/// libraries (Protego, Scrapy, `urllib.robotparser`, robots-parser, Crawlee) pass for the `ua`
/// they are handed, which may be a product token (`ExampleBot`), a full User-Agent header
/// (`Mozilla/5.0 (compatible; ExampleBot/1.0)`), `*` or nothing. The one policy:
///
/// 1. blank or `*`: `*`, a crawler that no group names (only the `*` group applies);
/// 2. a string of letters, digits, `_` and `-` (a product token, RFC 9309 §2.2.1): itself;
/// 3. else the crawler's token in the header ([`crawler_token`]: the leading product, the
///    product after `compatible`, or a versioned product in a comment);
/// 4. else the string itself when `profile` answers for it, else the token the profile
///    suggests ([`InvalidAgent::suggestion`](crate::InvalidAgent)), else `*` (a browser's
///    header names no crawler).
///
/// Every name returned is one `profile` answers for, so
/// [`Robots::crawler_for`](crate::Robots::crawler_for) never fails.
///
/// ```
/// use robotrules::{crawler_name_for, Profile};
///
/// let header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/// assert_eq!(crawler_name_for(header, Profile::Rfc9309), "Googlebot");
/// assert_eq!(crawler_name_for(" MJ12bot ", Profile::Google), "MJ12bot");
/// assert_eq!(crawler_name_for("", Profile::Rfc9309), "*");
/// let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
/// assert_eq!(crawler_name_for(firefox, Profile::Rfc9309), "*");
/// ```
pub fn crawler_name_for(user_agent: &str, profile: Profile) -> Cow<'_, str> {
    let user_agent = user_agent.trim();
    if user_agent.is_empty() || user_agent == ANY_CRAWLER {
        return Cow::Borrowed(ANY_CRAWLER);
    }
    let token_shaped = user_agent
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if token_shaped {
        return Cow::Borrowed(user_agent);
    }
    if let Some(token) = crawler_token(user_agent) {
        return Cow::Borrowed(token);
    }
    match profile.check_crawler_name(user_agent) {
        Ok(()) => Cow::Borrowed(user_agent),
        Err(refused) => refused
            .suggestion
            .map_or(Cow::Borrowed(ANY_CRAWLER), Cow::Owned),
    }
}

/// What a profile reads of a crawler's name when a group can never name it as it is:
/// Google's library reads only the letters, `_` and `-` a `user-agent` line starts with, so
/// `User-agent: MJ12bot` names `MJ`, and a crawler called `MJ12bot` matches no group (it gets
/// the `*` group). [`NameReading::token`] is the name to pass instead. Shown by every surface
/// that takes a crawler's name under such a profile; its [`Display`](fmt::Display) is the
/// sentence they show.
///
/// ```
/// use robotrules::{name_reading, Profile};
///
/// let reading = name_reading(Profile::Google, "MJ12bot").expect("google reads `MJ`");
/// assert_eq!((reading.reads(), reading.token()), ("MJ", Some("MJ")));
/// assert!(name_reading(Profile::Rfc9309, "MJ12bot").is_none());
/// assert!(name_reading(Profile::Google, "Googlebot").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameReading {
    name: String,
    reads: String,
    token: Option<String>,
    /// The groups the name gets, and those the token gets, when read in a file.
    groups: Option<(GroupsGiven, Option<GroupsGiven>)>,
}

/// The groups a crawler name gets in a file: how they were chosen, and their first lines.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GroupsGiven {
    selection: Selection,
    lines: Vec<u32>,
}

/// What `profile` reads of crawler name `name`, when that is not all of it and the profile
/// answers for the name anyway (`google`); `None` for a name a group can name, for `*`, and
/// for profiles that refuse such names (their error says why) or find a group's token
/// anywhere in the name (`legacy1994`).
pub fn name_reading(profile: Profile, name: &str) -> Option<NameReading> {
    let reading = profile.reading();
    let alphabet = reading.agent_token;
    let reads = alphabet.leading(name.as_bytes());
    if reading.crawler_names != CrawlerNames::Any
        || !matches!(alphabet, AgentToken::LeadingRun { .. })
        || reads == name.as_bytes()
        || name == ANY_CRAWLER
    {
        return None;
    }
    let reads = String::from_utf8_lossy(reads).into_owned();
    // The token a profile that reads names as tokens suggests: the crawler's token of a full
    // User-Agent header (never `Mozilla`), else what is read.
    let strict = Profile::ALL
        .into_iter()
        .find(|p| p.reading().crawler_names == CrawlerNames::Token)
        .and_then(|strict| strict.check_crawler_name(name).err()?.suggestion);
    let token = strict.or_else(|| (!reads.is_empty()).then(|| reads.clone()));
    Some(NameReading {
        name: name.to_owned(),
        reads,
        token,
        groups: None,
    })
}

impl NameReading {
    /// This reading with the groups the name gets in a file (how they were chosen, and their
    /// first lines), asked of the file by `given`, and those the token gets.
    pub(crate) fn in_file(
        mut self,
        given: impl Fn(&str) -> Option<(Selection, Vec<u32>)>,
    ) -> NameReading {
        let given =
            |name: &str| given(name).map(|(selection, lines)| GroupsGiven { selection, lines });
        if let Some(name_gets) = given(&self.name) {
            let token_gets = self.token.as_deref().and_then(given);
            self.groups = Some((name_gets, token_gets));
        }
        self
    }

    /// The crawler's name as asked.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the profile reads of a `user-agent` line that gives the name (empty when the name
    /// starts with no letter, `_` or `-`).
    pub fn reads(&self) -> &str {
        &self.reads
    }

    /// The name to pass instead: the crawler's product token of a full User-Agent header, else
    /// what the profile reads; none when it reads nothing.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The first lines of the groups the name gets in the file it was read in, and whether
    /// they are the `*` group(s); `None` outside a file ([`name_reading`]).
    pub fn groups(&self) -> Option<(Selection, &[u32])> {
        self.groups
            .as_ref()
            .map(|(given, _)| (given.selection, given.lines.as_slice()))
    }

    /// The same for [`NameReading::token`].
    pub fn token_groups(&self) -> Option<(Selection, &[u32])> {
        self.groups
            .as_ref()
            .and_then(|(_, token)| token.as_ref())
            .map(|given| (given.selection, given.lines.as_slice()))
    }
}

impl fmt::Display for NameReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = excerpt(&self.name, EXCERPT_CHARS);
        let example = if self.reads.is_empty() || is_browser_product(&self.reads) {
            String::new()
        } else {
            format!(" (`User-agent: {shown}` names `{}`)", self.reads)
        };
        let name_gets = self.groups.as_ref().map(|(given, _)| given);
        write!(
            f,
            "Google's library reads only the letters, `_` and `-` a user-agent line starts \
             with{example}, so no group names {shown:?}: it gets {}",
            name_gets.map_or_else(|| "the `*` group".to_owned(), GroupsGiven::sentence)
        )?;
        if let Some(token) = &self.token {
            write!(f, "; pass `{}`", excerpt(token, EXCERPT_CHARS))?;
            if let Some(given) = self.groups.as_ref().and_then(|(_, token)| token.as_ref()) {
                write!(f, ", which gets {}", given.sentence())?;
            }
        }
        Ok(())
    }
}

/// `{"name", "reads", "token", "message"}`: every surface's one shape of a reading (the
/// groups are in `message`).
#[cfg(feature = "serde")]
impl serde::Serialize for NameReading {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("NameReading", 4)?;
        out.serialize_field("name", &self.name)?;
        out.serialize_field("reads", &self.reads)?;
        out.serialize_field("token", &self.token)?;
        out.serialize_field("message", &self.to_string())?;
        out.end()
    }
}

impl GroupsGiven {
    /// `the group at line 1`, `the `*` group at line 7`, `the groups at lines 1, 4`.
    fn sentence(&self) -> String {
        let lines: Vec<String> = self.lines.iter().map(u32::to_string).collect();
        let which = if self.selection == Selection::Global {
            "the `*` group"
        } else {
            "the group"
        };
        match lines.as_slice() {
            [] => "no group (the file has no `*` group)".to_owned(),
            [line] => format!("{which} at line {line}"),
            lines => format!("{which}s at lines {}", lines.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reading_names_the_groups_in_a_file() {
        let robots = crate::Robots::parse_with(
            b"user-agent: *\ndisallow: /\n\nuser-agent: MJ12bot\ndisallow: /x\n",
            &crate::ParseOptions::new().with_profile(Profile::Google),
        );
        let reading = robots.name_reading("MJ12bot").unwrap();
        assert_eq!(reading.groups(), Some((Selection::Global, &[1][..])));
        assert_eq!(reading.token_groups(), Some((Selection::Exact, &[4][..])));
        assert_eq!(
            reading.to_string(),
            "Google's library reads only the letters, `_` and `-` a user-agent line starts with \
             (`User-agent: MJ12bot` names `MJ`), so no group names \"MJ12bot\": it gets the `*` \
             group at line 1; pass `MJ`, which gets the group at line 4"
        );
    }
}

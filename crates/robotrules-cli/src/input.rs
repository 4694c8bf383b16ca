//! Reading the inputs of a command: the robots.txt file (ROBOTS) and the URLs to check.
//!
//! ROBOTS is a file path, `-` for standard input, or an `http://`, `https://` or `ftp://` URL
//! (a robots.txt URL or any page URL, whose robots.txt is then fetched, see
//! [`crate::remote`]). [`load_robots_or_fetch`] hands back what was fetched with its access
//! result (`check` needs it: an unavailable file allows everything, an unreachable one
//! disallows everything); `load_local` hands back bytes only, for commands that read the
//! file itself. The URLs to check are read by [`crate::lines`].

use std::fs::File;
use std::io::{self, Read};

use robotrules::client::{Lookup, Truncation};
use robotrules::{Crawler, InvalidAgent, ParseOptions, Robots};

use crate::bare_host::bare_host_url;
use crate::error::CliError;
use crate::remote::{For, Remote};

/// The ROBOTS argument that means standard input.
pub(crate) const STDIN: &str = "-";

/// Bytes read past the parse limit. The parser keeps a line that ends right at the limit
/// (with its CR LF, two bytes) and reports that content past the limit was ignored only when
/// it sees some; a few bytes more than the limit are all it needs for both.
const READ_PAST_LIMIT: u64 = 16;

/// The hint written to standard error when URLs are awaited from standard input: only when it
/// is a terminal (`stdin_is_terminal`), where a silent wait looks like a hang; never for a
/// pipe or a file.
pub(crate) fn urls_from_stdin_hint(stdin_is_terminal: bool) -> Option<&'static str> {
    stdin_is_terminal
        .then_some("robotrules: reading URLs from standard input, one per line (Ctrl-D to end)")
}

/// Whether `arg` names a remote robots.txt (`http://`, `https://`, `ftp://`, any case).
pub(crate) fn is_remote(arg: &str) -> bool {
    ["http://", "https://", "ftp://"].iter().any(|scheme| {
        arg.get(..scheme.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(scheme))
    })
}

/// A robots.txt as a command received it.
#[derive(Debug)]
pub(crate) enum RobotsSource {
    /// Read from a file or standard input.
    Local(Vec<u8>),
    /// Fetched from a URL by the library's client: the access result says whether there are
    /// rules at all.
    Remote(Box<Lookup>),
}

impl RobotsSource {
    /// The file's bytes: as read, or the body fetched (none for a file that is unavailable or
    /// unreachable).
    pub(crate) fn body(&self) -> &[u8] {
        match self {
            RobotsSource::Local(bytes) => bytes,
            RobotsSource::Remote(lookup) => lookup.served().body().unwrap_or_default(),
        }
    }

    /// How the fetcher's size limit cut the body fetched, if it did (RFC 9309 §2.5).
    pub(crate) fn truncation(&self) -> Option<Truncation> {
        match self {
            RobotsSource::Local(_) => None,
            RobotsSource::Remote(lookup) => lookup.served().truncation(),
        }
    }

    /// Crawler `agent`'s rules in the file: for a fetched file, the client's (parsed once,
    /// when it was fetched, for this crawler); else the bytes parsed here under `options`.
    ///
    /// # Errors
    /// A crawler name `options.profile` rejects (the client then holds no crawler: asking the
    /// file for it says why).
    pub(crate) fn crawler(
        &self,
        options: &ParseOptions,
        agent: &str,
    ) -> Result<Crawler, InvalidAgent> {
        let fetched = match self {
            RobotsSource::Remote(lookup) => {
                lookup.crawler().filter(|crawler| crawler.name() == agent)
            }
            RobotsSource::Local(_) => None,
        };
        match fetched {
            Some(crawler) => Ok(crawler),
            None => Robots::parse_with(self.body(), options).crawler(agent),
        }
    }
}

/// The robots.txt named by `arg`: a file or `-` read as `load_local` reads it (at most
/// `parse_limit` bytes and a few more), or a URL looked up with the library's client as
/// `remote` and `purpose` say (the body kept up to `purpose`'s parse limit, RFC 9309 §2.5).
///
/// # Errors
/// [`CliError::ReadRobots`] when a file cannot be opened or read; as [`Remote::lookup`] for a
/// URL. A server that fails is not an error: it is the access result of the lookup.
pub(crate) fn load_robots_or_fetch(
    arg: &str,
    parse_limit: usize,
    remote: &Remote,
    purpose: For<'_>,
) -> Result<RobotsSource, CliError> {
    if is_remote(arg) {
        remote
            .lookup(arg, purpose)
            .map(|lookup| RobotsSource::Remote(Box::new(lookup)))
    } else {
        load_local(arg, parse_limit).map(RobotsSource::Local)
    }
}

/// The bytes of the file `arg` (a path, or `-` for standard input), at most `parse_limit`
/// bytes plus [`READ_PAST_LIMIT`].
fn load_local(arg: &str, parse_limit: usize) -> Result<Vec<u8>, CliError> {
    let read_error = |source: io::Error| match bare_host_url(arg) {
        Some(url) if source.kind() == io::ErrorKind::NotFound => CliError::BareHost {
            arg: arg.to_owned(),
            what: "no such file",
            url,
        },
        _ => CliError::ReadRobots {
            path: arg.to_owned(),
            source,
        },
    };
    let cap = u64::try_from(parse_limit)
        .unwrap_or(u64::MAX)
        .saturating_add(READ_PAST_LIMIT);
    if arg == STDIN {
        read_capped(io::stdin().lock(), cap).map_err(read_error)
    } else {
        let file = File::open(arg).map_err(read_error)?;
        read_capped(file, cap).map_err(read_error)
    }
}

/// Reads at most `cap` bytes of `source`.
fn read_capped(source: impl Read, cap: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    source.take(cap).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn the_stdin_hint_is_only_for_a_terminal() {
        let hint = urls_from_stdin_hint(true).unwrap();
        assert!(hint.starts_with("robotrules: ") && !hint.contains('\n'));
        assert_eq!(urls_from_stdin_hint(false), None);
    }

    #[rstest]
    #[case("http://example.com/robots.txt", true)]
    #[case("HTTPS://example.com/robots.txt", true)]
    #[case("ftp://example.com/robots.txt", true)]
    #[case("robots.txt", false)]
    #[case("-", false)]
    #[case("http:/robots.txt", false)]
    #[case("./http://x", false)]
    #[case("", false)]
    #[case("ü", false)]
    fn remote_robots_are_urls_with_a_fetchable_scheme(#[case] arg: &str, #[case] remote: bool) {
        assert_eq!(is_remote(arg), remote);
    }

    #[test]
    fn reading_stops_at_the_cap() {
        let source = io::repeat(b'a');
        assert_eq!(read_capped(source, 10).unwrap().len(), 10);
        assert_eq!(read_capped(&b"abc"[..], 10).unwrap(), b"abc");
    }
}

//! Helpers shared by the fuzz targets: the input format, a deliberately simple reference
//! matcher, and the span-tiling check.
//!
//! Input format of the targets that need more than one field: the fields separated by the
//! byte `0xFF`, which never occurs in UTF-8 text, so a real robots.txt file is a valid input
//! on its own and `seed.sh` can append `0xFF agent 0xFF url` to a conformance case's body.

use robotrules_grammar::{Parsed, Span};

/// The separator between fields of a fuzz input.
pub const SEP: u8 = 0xFF;

/// Split `data` as `robots 0xFF agent 0xFF url`: the last two separators delimit agent and
/// URL, everything before them is the robots.txt body (which may contain `0xFF` itself).
/// Missing fields get defaults, so any byte string is a valid input.
pub fn split_robots_agent_url(data: &[u8]) -> (&[u8], String, String) {
    let mut parts = data.rsplitn(3, |&b| b == SEP);
    let last = parts.next().unwrap_or_default();
    let middle = parts.next();
    let first = parts.next();
    let (robots, agent, url) = match (first, middle) {
        (Some(robots), Some(agent)) => (robots, agent, last),
        (None, Some(robots)) => (robots, &b"FooBot"[..], last),
        _ => (last, &b"FooBot"[..], &b"/"[..]),
    };
    (
        robots,
        String::from_utf8_lossy(agent).into_owned(),
        String::from_utf8_lossy(url).into_owned(),
    )
}

/// Google's `RobotsMatchStrategy::Matches` (robots.cc), written as plainly as possible: the set
/// of path positions the pattern prefix can end at, O(path × pattern). `*` is any sequence, a
/// `$` that is the pattern's last byte anchors at the end of the path, every other byte
/// (including a `$` elsewhere) is literal. An empty pattern matches every path.
pub fn reference_matches(path: &[u8], pattern: &[u8]) -> bool {
    let mut positions = vec![0usize];
    for (i, &c) in pattern.iter().enumerate() {
        if c == b'$' && i + 1 == pattern.len() {
            return positions.last() == Some(&path.len());
        }
        if c == b'*' {
            let first = positions[0];
            positions = (first..=path.len()).collect();
        } else {
            positions = positions
                .into_iter()
                .filter(|&p| p < path.len() && path[p] == c)
                .map(|p| p + 1)
                .collect();
            if positions.is_empty() {
                return false;
            }
        }
    }
    true
}

fn inside(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.start <= inner.end && inner.end <= outer.end
}

/// Panics unless the BOM, the lines (content + terminator) and the ignored tail tile the
/// input exactly, and every inner span lies where it should.
pub fn assert_spans_tile(parsed: &Parsed<'_>) {
    let len = parsed.source.len();
    let mut pos = 0;
    if let Some(bom) = parsed.bom {
        assert_eq!(bom.start, 0, "BOM not at the start");
        assert!(bom.len() <= 3, "BOM longer than 3 bytes");
        pos = bom.end;
    }
    for (i, line) in parsed.lines.iter().enumerate() {
        assert_eq!(line.number as usize, i + 1, "line numbers not sequential");
        assert_eq!(
            line.span.start, pos,
            "gap or overlap before line {}",
            line.number
        );
        assert_eq!(
            line.span.end, line.eol.start,
            "eol not after line {}",
            line.number
        );
        let eol = parsed.slice(line.eol);
        assert!(
            matches!(eol, b"" | b"\r" | b"\n" | b"\r\n"),
            "bad terminator {eol:?} on line {}",
            line.number
        );
        assert!(
            !parsed
                .slice(line.span)
                .iter()
                .any(|&b| b == b'\r' || b == b'\n'),
            "line {} holds a line break",
            line.number
        );
        assert_eq!(
            line.read.start, line.span.start,
            "read does not start the line"
        );
        assert!(
            inside(line.span, line.read),
            "read outside line {}",
            line.number
        );
        if let Some(d) = line.directive {
            assert!(
                inside(line.read, d.key),
                "key outside read, line {}",
                line.number
            );
            assert!(
                inside(line.read, d.value),
                "value outside read, line {}",
                line.number
            );
            assert!(
                d.key.end <= d.value.start,
                "value before key, line {}",
                line.number
            );
        }
        if let Some(c) = line.comment {
            assert!(
                inside(line.read, c),
                "comment outside read, line {}",
                line.number
            );
            assert_eq!(parsed.slice(c).first(), Some(&b'#'), "comment without #");
        }
        pos = line.eol.end;
    }
    match parsed.ignored {
        Some(ignored) => {
            assert_eq!(ignored.start, pos, "gap before the ignored tail");
            assert_eq!(ignored.end, len, "ignored tail does not reach the end");
        }
        None => assert_eq!(pos, len, "lines do not reach the end of the input"),
    }
    let whole = Span::new(0, len);
    for d in &parsed.diagnostics {
        assert!(
            inside(whole, d.span),
            "diagnostic span outside the input: {d:?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_fields() {
        let (r, a, u) = split_robots_agent_url(b"user-agent: *\xFFBot\xFF/x");
        assert_eq!(
            (r, a.as_str(), u.as_str()),
            (&b"user-agent: *"[..], "Bot", "/x")
        );
        let (r, a, u) = split_robots_agent_url(b"a\xFFb\xFFc\xFFd");
        assert_eq!((r, a.as_str(), u.as_str()), (&b"a\xFFb"[..], "c", "d"));
        let (r, a, u) = split_robots_agent_url(b"plain");
        assert_eq!((r, a.as_str(), u.as_str()), (&b"plain"[..], "FooBot", "/"));
    }

    #[test]
    fn reference_examples() {
        assert!(reference_matches(b"/fish.html", b"/fish"));
        assert!(!reference_matches(b"/catfish", b"/fish"));
        assert!(reference_matches(b"/a/b.php", b"/*.php$"));
        assert!(!reference_matches(b"/a/b.php?x", b"/*.php$"));
        assert!(reference_matches(b"/a$b", b"/a$b"));
    }
}

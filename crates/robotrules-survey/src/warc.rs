//! Reading WARC files (ISO 28500, WARC/1.0 and 1.1): plain, or gzip-compressed with one gzip
//! member per record (the layout Common Crawl writes, so that a record can be fetched by its
//! offset alone).
//!
//! [`WarcReader`] hands out each record with the byte offset where it starts in the file (for
//! a gzipped file, the offset of its gzip member: Common Crawl's `offset`), its WARC headers
//! and its block. A record that cannot be read (a bad version line, a `Content-Length` that
//! does not end where the record ends, a truncated file, a corrupt gzip member) comes out as a
//! [`Malformed`] item naming the offset, and reading goes on at the next record: the next
//! gzip member, or the next line starting `WARC/1.`.
//!
//! Why not the `warc` crate: it inflates a gzipped file as one stream, so records lose the
//! offset of their member, and it stops at the first malformed record; it also brings a
//! second nom, libflate and an old uuid into the workspace.

use std::io::{self, BufRead, Read, Seek, SeekFrom};

use crate::gzip_member::Inflater;

/// The largest record block read (a robots.txt capture is a few KiB; Common Crawl cuts
/// payloads at 1 MiB). A larger block is reported as malformed and skipped.
pub const MAX_BLOCK: u64 = 64 << 20;

/// The largest WARC header section read.
const MAX_HEADER: usize = 1 << 20;

/// The most data read from one gzip member: one record's block and header section.
const MAX_MEMBER: usize = MAX_BLOCK as usize + MAX_HEADER;

/// One WARC record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Where the record starts in the file: the first byte of its gzip member in a gzipped
    /// file, else of its `WARC/` line.
    pub offset: u64,
    /// `WARC-Type`, lower-cased (`response`, `request`, `metadata`, `warcinfo`, …).
    pub kind: String,
    /// `WARC-Target-URI`, without the angle brackets WARC/1.0 examples put round it.
    pub target_uri: String,
    /// `WARC-Date`.
    pub date: String,
    /// `Content-Type` of the block (`application/http; msgtype=response` for HTTP).
    pub content_type: String,
    /// The block: for a `response` record, the HTTP response as received.
    pub block: Vec<u8>,
}

/// A record that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed WARC record at byte {offset}: {reason}")]
pub struct Malformed {
    /// Where the record (or its gzip member) starts.
    pub offset: u64,
    /// Why it cannot be read.
    pub reason: String,
}

/// One item of a WARC file.
pub type Item = Result<Record, Malformed>;

/// Reads the records of a WARC file, plain or gzipped (see the module docs).
#[derive(Debug)]
pub struct WarcReader<R> {
    inner: R,
    /// Bytes of `inner` consumed so far: the offset of what comes next.
    pos: u64,
    /// Whether the file is gzipped (it starts with the gzip magic bytes).
    gzip: Option<bool>,
    /// Records decoded from one gzip member and not yet handed out (a member normally holds
    /// one record; WARC allows more).
    queued: std::collections::VecDeque<Item>,
    done: bool,
    /// The inflater of every gzip member (and the buffer of their data), made at the first.
    inflater: Option<Inflater>,
}

impl<R: BufRead + Seek> WarcReader<R> {
    /// A reader of `inner`, read from its start.
    pub fn new(inner: R) -> WarcReader<R> {
        WarcReader {
            inner,
            pos: 0,
            gzip: None,
            queued: std::collections::VecDeque::new(),
            done: false,
            inflater: None,
        }
    }

    /// Whether the input is gzipped (known once the first record is asked for).
    pub fn is_gzip(&self) -> Option<bool> {
        self.gzip
    }

    /// The next item: a record, or a record that could not be read (reading goes on after
    /// it). `None` at the end of the file, and after an error of the file itself (which the
    /// last item reports).
    pub fn next_item(&mut self) -> Option<Item> {
        if let Some(item) = self.queued.pop_front() {
            return Some(item);
        }
        if self.done {
            return None;
        }
        let gzip = match self.gzip {
            Some(gzip) => gzip,
            None => match self.inner.fill_buf() {
                Ok(buf) => {
                    let gzip = buf.starts_with(&[0x1f, 0x8b]);
                    self.gzip = Some(gzip);
                    gzip
                }
                Err(error) => return self.fail(error),
            },
        };
        let item = if gzip {
            self.next_member()
        } else {
            self.next_plain()
        };
        match item {
            Ok(Some(item)) => Some(item),
            Ok(None) => {
                self.done = true;
                self.queued.pop_front()
            }
            Err(error) => self.fail(error),
        }
    }

    /// An error reading the file itself: reported once, at the current offset, and the end.
    fn fail(&mut self, error: io::Error) -> Option<Item> {
        self.done = true;
        Some(Err(Malformed {
            offset: self.pos,
            reason: format!("cannot read the file: {error}"),
        }))
    }

    /// Whether the input has no more bytes.
    fn at_end(&mut self) -> io::Result<bool> {
        Ok(self.inner.fill_buf()?.is_empty())
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.pos += n as u64;
    }

    /// Moves to `pos` in the file.
    fn seek_to(&mut self, pos: u64) -> io::Result<()> {
        self.inner.seek(SeekFrom::Start(pos))?;
        self.pos = pos;
        Ok(())
    }

    /// Consumes bytes until `pattern` starts the buffered input (or the input ends); `true`
    /// when found.
    fn skip_to(&mut self, pattern: &[u8]) -> io::Result<bool> {
        loop {
            let buf = self.inner.fill_buf()?;
            if buf.len() < pattern.len() {
                // Too little buffered to tell: a short tail cannot hold the pattern unless
                // more comes; read on byte by byte.
                if buf.is_empty() {
                    return Ok(false);
                }
                if buf.starts_with(&pattern[..buf.len()]) {
                    // Possibly the pattern cut by the buffer: look at the rest of the file.
                    let mut rest = Vec::new();
                    let at = self.pos;
                    self.inner
                        .by_ref()
                        .take(pattern.len() as u64)
                        .read_to_end(&mut rest)?;
                    self.seek_to(at)?;
                    if rest.starts_with(pattern) {
                        return Ok(true);
                    }
                    if rest.len() < pattern.len() {
                        return Ok(false);
                    }
                }
                self.consume(1);
                continue;
            }
            match memchr::memmem::find(buf, pattern) {
                Some(at) => {
                    self.consume(at);
                    return Ok(true);
                }
                None => {
                    let keep = pattern.len() - 1;
                    let n = buf.len() - keep;
                    self.consume(n);
                }
            }
        }
    }

    /// The records of the next gzip member.
    fn next_member(&mut self) -> io::Result<Option<Item>> {
        if self.at_end()? {
            return Ok(None);
        }
        let start = self.pos;
        let inflater = self.inflater.get_or_insert_with(Inflater::new);
        let data = match inflater.member(&mut self.inner, MAX_MEMBER) {
            Ok((read, data)) => {
                self.pos += read;
                data
            }
            Err(error) => {
                // Resynchronise at the next gzip header after this member's first byte.
                self.seek_to(start + 1)?;
                self.skip_to(&GZIP_MAGIC)?;
                return Ok(Some(Err(Malformed {
                    offset: start,
                    reason: format!("corrupt or truncated gzip member: {error}"),
                })));
            }
        };
        let mut rest = data;
        loop {
            match parse_record(rest, start) {
                Ok((record, used)) => {
                    self.queued.push_back(Ok(record));
                    rest = &rest[used..];
                    if rest.is_empty() {
                        break;
                    }
                }
                Err(reason) => {
                    self.queued.push_back(Err(Malformed {
                        offset: start,
                        reason,
                    }));
                    break;
                }
            }
        }
        Ok(self.queued.pop_front())
    }

    /// The next record of a plain file.
    fn next_plain(&mut self) -> io::Result<Option<Item>> {
        // Line breaks between records beyond the two the format asks for are skipped.
        loop {
            let buf = self.inner.fill_buf()?;
            match buf.iter().position(|&b| b != b'\r' && b != b'\n') {
                Some(0) => break,
                Some(n) => self.consume(n),
                None if buf.is_empty() => return Ok(None),
                None => {
                    let n = buf.len();
                    self.consume(n);
                }
            }
        }
        let start = self.pos;
        match self.read_plain(start)? {
            Ok(record) => Ok(Some(Ok(record))),
            Err(reason) => {
                // Resynchronise at the next line starting `WARC/1.` after the record's start.
                self.seek_to(start + 1)?;
                if self.skip_to(b"\nWARC/1.")? {
                    self.consume(1);
                } else {
                    self.done = true;
                }
                Ok(Some(Err(Malformed {
                    offset: start,
                    reason,
                })))
            }
        }
    }

    /// Reads at most `n` bytes (fewer only at the end of the file).
    fn read_up_to(&mut self, n: u64, into: &mut Vec<u8>) -> io::Result<usize> {
        let read = (&mut self.inner).take(n).read_to_end(into)?;
        self.pos += read as u64;
        Ok(read)
    }

    /// Reads one plain record from the current position (`start`): its header section up to
    /// the blank line, its block, and the two line breaks after it.
    fn read_plain(&mut self, start: u64) -> io::Result<Result<Record, String>> {
        let mut header = Vec::new();
        loop {
            let n = (&mut self.inner)
                .take(MAX_HEADER as u64 + 1)
                .read_until(b'\n', &mut header)?;
            self.pos += n as u64;
            if n == 0 {
                return Ok(Err(truncated("header", header.len())));
            }
            if header.ends_with(b"\r\n\r\n") || header.ends_with(b"\n\n") {
                break;
            }
            if header.len() > MAX_HEADER {
                return Ok(Err(format!("header section over {MAX_HEADER} bytes")));
            }
        }
        let mut fields = match parse_header(&header) {
            Ok(fields) => fields,
            Err(reason) => return Ok(Err(reason)),
        };
        let mut block = Vec::new();
        let n = self.read_up_to(fields.length, &mut block)?;
        if (n as u64) < fields.length {
            return Ok(Err(format!(
                "truncated: Content-Length {} but the file ends {n} bytes into the block",
                fields.length
            )));
        }
        let mut end = Vec::with_capacity(4);
        self.read_up_to(4, &mut end)?;
        // The last record of a file may lack its closing line breaks.
        if end != b"\r\n\r\n" && !end.is_empty() {
            return Ok(Err(wrong_length(fields.length)));
        }
        fields.record.offset = start;
        fields.record.block = block;
        Ok(Ok(fields.record))
    }
}

impl<R: BufRead + Seek> Iterator for WarcReader<R> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        self.next_item()
    }
}

/// The first bytes of a gzip member: the magic number and the deflate method (RFC 1952).
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

fn truncated(what: &str, read: usize) -> String {
    format!("truncated: the file ends {read} bytes into the record's {what}")
}

fn wrong_length(length: u64) -> String {
    format!("the block does not end where Content-Length ({length}) says: no blank line after it")
}

/// A header section read: the record's fields, and the block's length.
struct Fields {
    record: Record,
    length: u64,
}

/// Reads a header section (the version line, named fields, the blank line).
fn parse_header(header: &[u8]) -> Result<Fields, String> {
    let text = String::from_utf8_lossy(header);
    let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
    let version = lines.next().unwrap_or_default();
    if !version.starts_with("WARC/") {
        let shown: String = version.chars().take(40).collect();
        return Err(format!(
            "expected a `WARC/1.x` version line, found {shown:?}"
        ));
    }
    let mut record = Record::default();
    let mut length = None;
    let mut last: Option<&mut String> = None;
    for line in lines {
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            // A continuation line (WARC/1.0 allows folded fields).
            if let Some(value) = last.as_deref_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            let shown: String = line.chars().take(40).collect();
            return Err(format!("a header line without a colon: {shown:?}"));
        };
        let value = value.trim();
        last = None;
        // The field names the reader uses, in any case (no lower-cased copy of each name).
        let name = name.trim();
        let is = |known: &str| name.eq_ignore_ascii_case(known);
        if is("warc-type") {
            record.kind = value.to_ascii_lowercase();
        } else if is("warc-target-uri") {
            record.target_uri = value
                .strip_prefix('<')
                .and_then(|v| v.strip_suffix('>'))
                .unwrap_or(value)
                .to_owned();
        } else if is("warc-date") {
            record.date = value.to_owned();
        } else if is("content-type") {
            record.content_type = value.to_owned();
            last = Some(&mut record.content_type);
        } else if is("content-length") {
            length = Some(
                value
                    .parse::<u64>()
                    .map_err(|_| format!("Content-Length {value:?} is not a number"))?,
            );
        }
    }
    let length = length.ok_or_else(|| "no Content-Length".to_owned())?;
    if length > MAX_BLOCK {
        return Err(format!("Content-Length {length} is over {MAX_BLOCK} bytes"));
    }
    Ok(Fields { record, length })
}

/// Reads one record from the start of `data` (a decoded gzip member): the record and the
/// bytes it used, trailing line breaks included.
fn parse_record(data: &[u8], offset: u64) -> Result<(Record, usize), String> {
    let header_end = memchr::memmem::find(data, b"\r\n\r\n")
        .map(|at| at + 4)
        .or_else(|| memchr::memmem::find(data, b"\n\n").map(|at| at + 2))
        .ok_or_else(|| truncated("header", data.len()))?;
    let fields = parse_header(&data[..header_end])?;
    let length = usize::try_from(fields.length).map_err(|_| wrong_length(fields.length))?;
    let block_end = header_end
        .checked_add(length)
        .filter(|&end| end <= data.len())
        .ok_or_else(|| {
            format!(
                "Content-Length {} runs past the end of the record ({} bytes of block)",
                fields.length,
                data.len() - header_end
            )
        })?;
    let after = &data[block_end..];
    let used = if after.starts_with(b"\r\n\r\n") {
        block_end + 4
    } else if after.is_empty() {
        block_end
    } else {
        return Err(wrong_length(fields.length));
    };
    let mut record = fields.record;
    record.offset = offset;
    record.block = data[header_end..block_end].to_vec();
    Ok((record, used))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
        let mut out = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-02T03:04:05Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn read_all(bytes: Vec<u8>) -> Vec<Item> {
        WarcReader::new(Cursor::new(bytes)).collect()
    }

    #[test]
    fn plain_records_come_with_their_offsets() {
        let a = record("warcinfo", "", b"software: test");
        let b = record(
            "response",
            "<http://a.example/robots.txt>",
            b"HTTP/1.1 200 OK\r\n\r\nx",
        );
        let items = read_all([a.clone(), b].concat());
        let records: Vec<Record> = items.into_iter().map(Result::unwrap).collect();
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].kind, "warcinfo");
        assert_eq!(records[1].offset, a.len() as u64);
        assert_eq!(records[1].target_uri, "http://a.example/robots.txt");
        assert_eq!(records[1].block, b"HTTP/1.1 200 OK\r\n\r\nx");
    }

    #[test]
    fn gzip_members_give_member_offsets() {
        let a = gzip(&record("request", "http://a.example/robots.txt", b"GET /"));
        let b = gzip(&record(
            "response",
            "http://a.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\n",
        ));
        let records: Vec<Record> = read_all([a.clone(), b].concat())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].offset, records[1].offset), (0, a.len() as u64));
    }

    #[test]
    fn a_wrong_content_length_is_reported_and_reading_goes_on() {
        let good = record(
            "response",
            "http://b.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\n",
        );
        let mut bad = record(
            "response",
            "http://a.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\nabc",
        );
        // Content-Length one too many: the block eats a byte of the line breaks.
        let text = String::from_utf8(bad.clone())
            .unwrap()
            .replace("Length: 22", "Length: 23");
        bad = text.into_bytes();
        for gzipped in [false, true] {
            let (first, second) = if gzipped {
                (gzip(&bad), gzip(&good))
            } else {
                (bad.clone(), good.clone())
            };
            let items = read_all([first.clone(), second].concat());
            assert_eq!(items.len(), 2, "{items:?}");
            let error = items[0].clone().unwrap_err();
            assert_eq!(error.offset, 0);
            let record = items[1].clone().unwrap();
            assert_eq!(record.offset, first.len() as u64);
            assert_eq!(record.target_uri, "http://b.example/robots.txt");
        }
    }

    #[test]
    fn a_truncated_last_record_is_reported() {
        let good = record(
            "response",
            "http://a.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\n",
        );
        let cut = record(
            "response",
            "http://b.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\nabcdef",
        );
        for gzipped in [false, true] {
            let (first, mut second) = if gzipped {
                (gzip(&good), gzip(&cut))
            } else {
                (good.clone(), cut.clone())
            };
            second.truncate(second.len() - 8);
            let items = read_all([first.clone(), second].concat());
            assert_eq!(items.len(), 2, "{items:?}");
            assert!(items[0].is_ok());
            let error = items[1].clone().unwrap_err();
            assert_eq!(error.offset, first.len() as u64, "{error}");
            assert!(error.reason.contains("truncated"), "{error}");
        }
    }

    #[test]
    fn field_names_are_read_in_any_case() {
        let canonical = record(
            "Response",
            "<http://a.example/robots.txt>",
            b"HTTP/1.1 200 OK\r\n\r\n",
        );
        let mut cased = String::from_utf8(canonical.clone()).unwrap();
        for (from, to) in [
            ("WARC-Type:", "warc-TYPE:"),
            ("WARC-Target-URI:", "Warc-Target-Uri:"),
            ("WARC-Date:", "WARC-DATE:"),
            ("Content-Type:", "content-type:"),
            ("Content-Length:", "CONTENT-LENGTH:"),
        ] {
            cased = cased.replacen(from, to, 1);
        }
        let read = |bytes: Vec<u8>| read_all(bytes).remove(0).unwrap();
        let record = read(cased.into_bytes());
        assert_eq!(record, read(canonical));
        assert_eq!(record.kind, "response");
        assert_eq!(record.target_uri, "http://a.example/robots.txt");
        assert_eq!(record.date, "2024-01-02T03:04:05Z");
        assert_eq!(record.content_type, "application/http; msgtype=response");
    }

    #[test]
    fn garbage_before_a_record_is_skipped_with_one_report() {
        let good = record(
            "response",
            "http://a.example/robots.txt",
            b"HTTP/1.1 200 OK\r\n\r\n",
        );
        let items = read_all([b"not a warc\r\n".to_vec(), good].concat());
        assert_eq!(items.len(), 2, "{items:?}");
        assert!(items[0]
            .clone()
            .unwrap_err()
            .reason
            .contains("version line"));
        assert_eq!(items[1].clone().unwrap().offset, 12);
    }

    /// `data` as one gzip member whose header carries a file name, an extra field and a
    /// comment.
    fn gzip_with_fields(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::GzBuilder::new()
            .filename("record.warc")
            .extra(vec![1, 2, 3])
            .comment("one record")
            .write(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// Three response records, each gzipped by `gzip`, and where each member starts.
    fn three_members(gzip: impl Fn(&[u8]) -> Vec<u8>) -> (Vec<Vec<u8>>, Vec<u64>) {
        let members: Vec<Vec<u8>> = ["a", "b", "c"]
            .iter()
            .map(|host| {
                gzip(&record(
                    "response",
                    &format!("http://{host}.example/robots.txt"),
                    b"HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /\n",
                ))
            })
            .collect();
        let offsets = members
            .iter()
            .scan(0, |at, m| {
                let start = *at;
                *at += m.len() as u64;
                Some(start)
            })
            .collect();
        (members, offsets)
    }

    fn hosts(items: &[Item]) -> Vec<Result<(u64, &str), u64>> {
        items
            .iter()
            .map(|item| match item {
                Ok(r) => Ok((r.offset, &r.target_uri[7..8])),
                Err(e) => Err(e.offset),
            })
            .collect()
    }

    #[test]
    fn members_with_every_optional_header_field_are_read_one_after_another() {
        let (members, at) = three_members(gzip_with_fields);
        let items = read_all(members.concat());
        assert_eq!(
            hosts(&items),
            [Ok((at[0], "a")), Ok((at[1], "b")), Ok((at[2], "c"))]
        );
        // Members with and without the fields, mixed.
        let mixed = [
            members[0].clone(),
            gzip(b"WARC/1.0\r\n"),
            members[2].clone(),
        ];
        let items = read_all(mixed.concat());
        let second = members[0].len() as u64;
        assert_eq!(items.len(), 3, "{items:?}");
        assert_eq!(items[1].clone().unwrap_err().offset, second);
        assert!(items[2].is_ok());
    }

    #[test]
    fn a_member_whose_header_crc_is_wrong_is_reported_and_the_next_read() {
        let (members, at) = three_members(gzip);
        // A header with FHCRC (which flate2 does not write): the CRC16 of the fixed header.
        let with_crc = |member: &[u8], crc16: u16| {
            let mut header = member[..10].to_vec();
            header[3] |= 1 << 1;
            [header, crc16.to_le_bytes().to_vec(), member[10..].to_vec()].concat()
        };
        let mut fixed = members[1][..10].to_vec();
        fixed[3] |= 1 << 1;
        let mut crc = flate2::Crc::new();
        crc.update(&fixed);
        let good = with_crc(&members[1], crc.sum() as u16);
        let items = read_all([members[0].clone(), good.clone(), members[2].clone()].concat());
        let third = at[1] + good.len() as u64;
        assert_eq!(
            hosts(&items),
            [Ok((at[0], "a")), Ok((at[1], "b")), Ok((third, "c"))]
        );
        let bad = with_crc(&members[1], crc.sum() as u16 ^ 1);
        let items = read_all([members[0].clone(), bad, members[2].clone()].concat());
        assert_eq!(
            hosts(&items),
            [Ok((at[0], "a")), Err(at[1]), Ok((third, "c"))]
        );
        assert!(items[1].clone().unwrap_err().reason.contains("checksum"));
    }

    #[test]
    fn a_member_with_a_wrong_crc_or_length_is_reported_and_the_next_read() {
        let (members, at) = three_members(gzip);
        for from_end in [8, 4] {
            let mut bad = members[1].clone();
            let n = bad.len();
            bad[n - from_end] ^= 0x40;
            let items = read_all([members[0].clone(), bad, members[2].clone()].concat());
            assert_eq!(
                hosts(&items),
                [Ok((at[0], "a")), Err(at[1]), Ok((at[2], "c"))],
                "{items:?}"
            );
            let reason = &items[1].clone().unwrap_err().reason;
            assert_eq!(
                reason,
                "corrupt or truncated gzip member: corrupt gzip stream does not have a matching checksum"
            );
        }
    }

    #[test]
    fn a_member_cut_short_is_reported_and_the_next_read() {
        let (members, at) = three_members(gzip);
        for cut in [3, 12, members[1].len() / 2] {
            let short = members[1][..members[1].len() - cut].to_vec();
            let third = at[1] + short.len() as u64;
            let items = read_all([members[0].clone(), short, members[2].clone()].concat());
            // The cut member runs into the next one's bytes: it is reported, and reading
            // resumes at the next gzip header.
            assert_eq!(
                hosts(&items),
                [Ok((at[0], "a")), Err(at[1]), Ok((third, "c"))],
                "cut {cut}: {items:?}"
            );
        }
    }

    #[test]
    fn garbage_after_the_last_member_is_one_report() {
        let (members, at) = three_members(gzip);
        let end = at[2] + members[2].len() as u64;
        for garbage in [
            &b"\0\0\0\0\0\0\0\0\0\0\0\0"[..],
            b"\x1f\x8b\x08 and more",
            b"\n",
        ] {
            let items = read_all([members.concat(), garbage.to_vec()].concat());
            assert_eq!(
                hosts(&items),
                [
                    Ok((at[0], "a")),
                    Ok((at[1], "b")),
                    Ok((at[2], "c")),
                    Err(end)
                ],
                "{garbage:?}"
            );
        }
    }
}

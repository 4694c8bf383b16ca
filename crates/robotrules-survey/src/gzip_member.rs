//! Gzip members (RFC 1952) read one after another with one inflater: a gzipped WARC file has
//! one member per record, and setting up an inflater for each (`flate2`'s `GzDecoder::new`)
//! cost more than a twentieth of a survey. [`Inflater`] keeps one raw-deflate
//! [`Decompress`] (RFC 1951) and resets it between members; the member's header and trailer
//! around the deflate data are read here, one production per function.
//!
//! The errors are `flate2`'s, word for word, so that a corrupt or truncated member is reported
//! as it was when `GzDecoder` read it: `invalid gzip header`, `unexpected end of file` (in the
//! header or trailer), `gzip header field too long`, `incomplete deflate stream`, `corrupt
//! deflate stream`, `corrupt gzip stream does not have a matching checksum`.

use std::io::{self, BufRead};

use flate2::{Crc, Decompress, FlushDecompress, Status};

/// `ID1 ID2`: the gzip magic number (RFC 1952 §2.3.1).
const MAGIC: [u8; 2] = [0x1f, 0x8b];
/// `CM = 8`: deflate, the only compression method defined (RFC 1952 §2.3.1).
const DEFLATE: u8 = 8;
/// `FLG.FHCRC`: a CRC16 of the header ends it.
const FHCRC: u8 = 1 << 1;
/// `FLG.FEXTRA`: an extra field follows the fixed header.
const FEXTRA: u8 = 1 << 2;
/// `FLG.FNAME`: a zero-terminated original file name.
const FNAME: u8 = 1 << 3;
/// `FLG.FCOMMENT`: a zero-terminated comment.
const FCOMMENT: u8 = 1 << 4;
/// `FLG` bits 5 to 7, reserved: "must give an error indication if any reserved bit is
/// non-zero" (RFC 1952 §2.3.1.2).
const RESERVED: u8 = 0b1110_0000;
/// The longest file name or comment read (as `flate2`: enough for any real use, and a bound
/// on what a corrupt header can make the reader scan).
const MAX_FIELD: usize = 65_535;
/// How much the output grows by when the inflater has filled it (it grows by its length
/// past this).
const GROWTH: usize = 32 << 10;
/// The output buffer is kept for the next member up to this size: memory stays bounded by the
/// usual member's size.
const KEPT_BUFFER: usize = 4 << 20;

/// One raw-deflate inflater, and one output buffer, for every member of a file.
#[derive(Debug)]
pub(crate) struct Inflater {
    deflate: Decompress,
    /// The data of the last member read, and room after it. Every byte of it is initialised
    /// (zeroed when it grows, then overwritten), so that inflating into it clears nothing:
    /// `Decompress::decompress_vec` zeroes the vector's spare capacity on every call.
    out: Vec<u8>,
}

impl Inflater {
    /// An inflater for raw deflate data (no zlib header: gzip has its own).
    pub(crate) fn new() -> Inflater {
        Inflater {
            deflate: Decompress::new(false),
            out: Vec::new(),
        }
    }

    /// Reads one member from `input` and returns the bytes of `input` it used, and the
    /// member's data. Past `limit` bytes of data it stops (as `Read::take` would): what was
    /// decoded is kept, the rest of the member and its trailer are left unread.
    ///
    /// ```text
    /// member = header compressed-blocks trailer       ; RFC 1952 §2.2
    /// ```
    ///
    /// # Errors
    /// A header, deflate stream or trailer that is not valid, and a member cut short (the
    /// caller reports all of them as a corrupt or truncated member); an error reading `input`.
    pub(crate) fn member<R: BufRead>(
        &mut self,
        input: &mut R,
        limit: usize,
    ) -> io::Result<(u64, &[u8])> {
        if self.out.len() > KEPT_BUFFER {
            self.out = Vec::new();
        }
        let mut source = Source {
            input,
            read: 0,
            header_crc: None,
        };
        header(&mut source)?;
        let (whole, length) = self.compressed_blocks(&mut source, limit)?;
        let data = &self.out[..length];
        if whole {
            trailer(&mut source, data)?;
        }
        Ok((source.read, data))
    }

    /// The deflate data (RFC 1951), up to its last block, into `out`: whether it was read
    /// whole (`false` when `limit` stopped it), and its length.
    ///
    /// ```text
    /// compressed-blocks = *deflate-block final-block  ; RFC 1952 §2.2, RFC 1951 §3.2.3
    /// ```
    fn compressed_blocks<R: BufRead>(
        &mut self,
        source: &mut Source<'_, R>,
        limit: usize,
    ) -> io::Result<(bool, usize)> {
        self.deflate.reset(false);
        let mut length = 0;
        loop {
            if length == self.out.len() {
                let grown = length + GROWTH.max(length);
                self.out.resize(grown.min(limit), 0);
            }
            let buf = fill(source.input)?;
            let end = buf.is_empty();
            let flush = if end {
                FlushDecompress::Finish
            } else {
                FlushDecompress::None
            };
            let (before_in, before_out) = (self.deflate.total_in(), self.deflate.total_out());
            let room_end = limit.min(self.out.len());
            let room = &mut self.out[length..room_end];
            let status = self
                .deflate
                .decompress(buf, room, flush)
                .map_err(|_| corrupt_deflate())?;
            let used = self.deflate.total_in() - before_in;
            let made = self.deflate.total_out() - before_out;
            source.consume(usize::try_from(used).unwrap_or(usize::MAX));
            length += usize::try_from(made).unwrap_or(usize::MAX);
            match status {
                Status::StreamEnd => return Ok((true, length)),
                _ if length >= limit => return Ok((false, length)),
                // The input ends before the last block.
                _ if end && made == 0 => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "incomplete deflate stream",
                    ))
                }
                // With input to read and room to write, an inflater that does neither is
                // stuck: reported rather than looped on.
                _ if used == 0 && made == 0 => return Err(corrupt_deflate()),
                _ => {}
            }
        }
    }
}

/// The bytes of one member as read: how many, and the header's CRC while it is read.
struct Source<'a, R> {
    input: &'a mut R,
    /// Bytes consumed from `input`.
    read: u64,
    /// The CRC of the header bytes read so far, when the header ends in a CRC16.
    header_crc: Option<Crc>,
}

impl<R: BufRead> Source<'_, R> {
    /// Consumes `n` buffered bytes.
    fn consume(&mut self, n: usize) {
        self.input.consume(n);
        self.read += n as u64;
    }

    /// One step through the header: `take` is given the buffered bytes (at least one; the end
    /// of the input is an error) and answers how many of them it used and what it found; the
    /// bytes used are counted in the header's CRC and consumed.
    fn step<T>(&mut self, take: impl FnOnce(&[u8]) -> (usize, T)) -> io::Result<T> {
        let buf = fill(self.input)?;
        if buf.is_empty() {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let (used, found) = take(buf);
        if let Some(crc) = &mut self.header_crc {
            crc.update(&buf[..used]);
        }
        self.consume(used);
        Ok(found)
    }

    /// The next `N` bytes.
    fn array<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut bytes = [0; N];
        let mut filled = 0;
        while filled < N {
            filled += self.step(|buf| {
                let n = buf.len().min(N - filled);
                bytes[filled..filled + n].copy_from_slice(&buf[..n]);
                (n, n)
            })?;
        }
        Ok(bytes)
    }

    /// Skips `n` bytes.
    fn skip(&mut self, mut n: usize) -> io::Result<()> {
        while n > 0 {
            n -= self.step(|buf| {
                let here = buf.len().min(n);
                (here, here)
            })?;
        }
        Ok(())
    }

    /// Skips bytes up to and including the next zero byte, the field before it at most
    /// [`MAX_FIELD`] bytes long (an error before consuming what would make it longer).
    fn skip_zero_terminated(&mut self) -> io::Result<()> {
        let mut length = 0;
        loop {
            let done = self.step(|buf| {
                let (here, done) = match memchr::memchr(0, buf) {
                    Some(at) => (at, true),
                    None => (buf.len(), false),
                };
                if length + here > MAX_FIELD {
                    return (0, None);
                }
                length += here;
                (here + usize::from(done), Some(done))
            })?;
            match done {
                None => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "gzip header field too long",
                    ))
                }
                Some(true) => return Ok(()),
                Some(false) => {}
            }
        }
    }
}

/// `input`'s buffered bytes, read again when a read is interrupted (as `Read::read_to_end`
/// does); empty at the end of the input.
fn fill<R: BufRead>(input: &mut R) -> io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
            Ok(_) => break,
        }
    }
    input.fill_buf()
}

/// The member header (RFC 1952 §2.3.1): the fixed part, then the optional fields its flags
/// announce, in this order.
///
/// ```text
/// header = ID1 ID2 CM FLG MTIME XFL OS            ; 10 bytes, MTIME 4 of them
///          [FEXTRA-field] [FNAME-field] [FCOMMENT-field] [FHCRC-field]
/// ```
fn header<R: BufRead>(source: &mut Source<'_, R>) -> io::Result<()> {
    let fixed: [u8; 10] = source.array()?;
    let [id1, id2, cm, flg, _mtime @ .., _xfl, _os] = fixed;
    if [id1, id2] != MAGIC || cm != DEFLATE || flg & RESERVED != 0 {
        return Err(bad_header());
    }
    if flg & FHCRC != 0 {
        let mut crc = Crc::new();
        crc.update(&fixed);
        source.header_crc = Some(crc);
    }
    if flg & FEXTRA != 0 {
        extra_field(source)?;
    }
    if flg & FNAME != 0 {
        // FNAME-field = *non-zero-byte %x00 (the original file name, zero-terminated)
        source.skip_zero_terminated()?;
    }
    if flg & FCOMMENT != 0 {
        // FCOMMENT-field = *non-zero-byte %x00 (a comment, zero-terminated)
        source.skip_zero_terminated()?;
    }
    match source.header_crc.take() {
        Some(crc) => header_crc(source, &crc),
        None => Ok(()),
    }
}

/// The extra field: its length, then that many bytes (RFC 1952 §2.3.1.1).
///
/// ```text
/// FEXTRA-field = XLEN XLEN-bytes                  ; XLEN: 2 bytes, little-endian
/// ```
fn extra_field<R: BufRead>(source: &mut Source<'_, R>) -> io::Result<()> {
    let xlen = u16::from_le_bytes(source.array()?);
    source.skip(usize::from(xlen))
}

/// The header's CRC16: the two least significant bytes of the CRC32 of every header byte
/// before it (RFC 1952 §2.3.1).
///
/// ```text
/// FHCRC-field = CRC16                             ; 2 bytes, little-endian
/// ```
fn header_crc<R: BufRead>(source: &mut Source<'_, R>, crc: &Crc) -> io::Result<()> {
    let stored = u16::from_le_bytes(source.array()?);
    if u32::from(stored) != crc.sum() & 0xffff {
        return Err(corrupt());
    }
    Ok(())
}

/// The trailer: the CRC32 of the member's data and its length modulo 2^32, checked against
/// `data` (RFC 1952 §2.3.1).
///
/// ```text
/// trailer = CRC32 ISIZE                           ; 4 bytes each, little-endian
/// ```
fn trailer<R: BufRead>(source: &mut Source<'_, R>, data: &[u8]) -> io::Result<()> {
    let [c0, c1, c2, c3, i0, i1, i2, i3] = source.array()?;
    let mut crc = Crc::new();
    crc.update(data);
    if u32::from_le_bytes([c0, c1, c2, c3]) != crc.sum()
        || u32::from_le_bytes([i0, i1, i2, i3]) != crc.amount()
    {
        return Err(corrupt());
    }
    Ok(())
}

/// A header that is not gzip's, or announces what RFC 1952 does not define.
fn bad_header() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "invalid gzip header")
}

/// A deflate stream that cannot be decoded.
fn corrupt_deflate() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "corrupt deflate stream")
}

/// A header CRC16 or a trailer that does not match what was read.
fn corrupt() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "corrupt gzip stream does not have a matching checksum",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor, Read, Write};

    use flate2::{Compression, GzBuilder};

    /// `data` as one gzip member, with the header fields `build` sets.
    fn gzip_with(data: &[u8], build: impl FnOnce(GzBuilder) -> GzBuilder) -> Vec<u8> {
        let mut encoder = build(GzBuilder::new()).write(Vec::new(), Compression::fast());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        gzip_with(data, |b| b)
    }

    /// Every member of `bytes` read by one inflater through a small buffer (so that headers
    /// and trailers are cut across reads): each member's data, or its error's message.
    fn members(bytes: &[u8], buffer: usize) -> Vec<Result<Vec<u8>, String>> {
        let mut input = BufReader::with_capacity(buffer, Cursor::new(bytes));
        let mut inflater = Inflater::new();
        let mut items = Vec::new();
        while !input.fill_buf().unwrap().is_empty() {
            match inflater.member(&mut input, usize::MAX) {
                Ok((_, data)) => items.push(Ok(data.to_vec())),
                Err(error) => {
                    items.push(Err(error.to_string()));
                    break;
                }
            }
        }
        items
    }

    /// What `flate2`'s `GzDecoder` made of the first member of `bytes`: its data or error.
    fn gz_decoder(bytes: &[u8]) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        flate2::bufread::GzDecoder::new(bytes)
            .read_to_end(&mut out)
            .map(|_| out)
            .map_err(|e| e.to_string())
    }

    fn text(n: usize) -> Vec<u8> {
        (0..n).map(|i| b"robots.txt disallow /\n"[i % 22]).collect()
    }

    #[test]
    fn members_one_after_another_come_out_whole_with_their_lengths() {
        let datas = [text(10), Vec::new(), text(100_000), text(3)];
        let file: Vec<u8> = datas.iter().flat_map(|d| gzip(d)).collect();
        for buffer in [1, 7, 64, 1 << 16] {
            let got: Vec<_> = members(&file, buffer)
                .into_iter()
                .map(Result::unwrap)
                .collect();
            assert_eq!(got, datas, "buffer {buffer}");
        }
        // The bytes used are the member's own, the next left unread.
        let first = gzip(&datas[0]);
        let mut input = Cursor::new([first.clone(), gzip(b"x")].concat());
        let mut inflater = Inflater::new();
        let (read, _) = inflater.member(&mut input, usize::MAX).unwrap();
        assert_eq!(read, first.len() as u64);
    }

    #[test]
    fn optional_header_fields_are_read_past() {
        let data = text(500);
        let cases = [
            gzip_with(&data, |b| b.filename("robots.warc")),
            gzip_with(&data, |b| b.extra(vec![b'x'; 300])),
            gzip_with(&data, |b| b.comment("a comment")),
            gzip_with(&data, |b| {
                b.filename("f").extra(vec![7; 2]).comment("c").mtime(1)
            }),
        ];
        for member in &cases {
            for buffer in [1, 3, 1 << 16] {
                assert_eq!(members(member, buffer), vec![Ok(data.clone())]);
            }
        }
    }

    /// A member whose header has every optional field and a CRC16, written by hand (flate2
    /// writes no FHCRC).
    fn with_header_crc(data: &[u8], crc16: Option<u16>) -> Vec<u8> {
        let plain = gzip(data);
        let mut header = vec![
            0x1f,
            0x8b,
            8,
            FHCRC | FEXTRA | FNAME | FCOMMENT,
            0,
            0,
            0,
            0,
            0,
            255,
        ];
        header.extend_from_slice(&[2, 0, b'a', b'b']);
        header.extend_from_slice(b"name\0comment\0");
        let mut crc = Crc::new();
        crc.update(&header);
        let crc16 = crc16.unwrap_or(crc.sum() as u16);
        header.extend_from_slice(&crc16.to_le_bytes());
        [header, plain[10..].to_vec()].concat()
    }

    #[test]
    fn a_header_crc_is_checked() {
        let data = text(50);
        let good = with_header_crc(&data, None);
        assert_eq!(members(&good, 1 << 16), vec![Ok(data.clone())]);
        assert_eq!(gz_decoder(&good), Ok(data.clone()));
        let stored = u16::from_le_bytes([good[27], good[28]]);
        let bad = with_header_crc(&data, Some(stored ^ 1));
        let expected = "corrupt gzip stream does not have a matching checksum";
        assert_eq!(members(&bad, 1 << 16), vec![Err(expected.to_owned())]);
        assert_eq!(gz_decoder(&bad), Err(expected.to_owned()));
    }

    #[test]
    fn bad_members_fail_as_gz_decoder_fails() {
        let data = text(5_000);
        let good = gzip(&data);
        let n = good.len();
        let flip = |at: usize, bit: u8| {
            let mut bad = good.clone();
            bad[at] ^= bit;
            bad
        };
        let cases = [
            ("the data's CRC32", flip(n - 8, 1)),
            ("the data's length", flip(n - 4, 1)),
            ("the magic number", flip(1, 1)),
            ("the method", flip(2, 1)),
            ("a reserved flag", flip(3, 0x80)),
            ("the deflate data", flip(10, 0xff)),
            ("cut in the fixed header", good[..5].to_vec()),
            ("cut in the deflate data", good[..n / 2].to_vec()),
            ("cut in the trailer", good[..n - 3].to_vec()),
            ("without its trailer", good[..n - 8].to_vec()),
            (
                "cut in the file name",
                gzip_with(&data, |b| b.filename("name"))[..13].to_vec(),
            ),
            (
                "a file name too long",
                gzip_with(&data, |b| b.filename(vec![b'n'; 70_000])),
            ),
        ];
        for (what, bad) in cases {
            let expected = gz_decoder(&bad);
            assert!(expected.is_err(), "{what}: GzDecoder read it");
            for buffer in [1, 5, 1 << 16] {
                assert_eq!(members(&bad, buffer), vec![expected.clone()], "{what}");
            }
        }
    }

    #[test]
    fn garbage_after_a_member_is_not_read_as_part_of_it() {
        let data = text(100);
        for garbage in [&b"garbage after the member"[..], b"\x1f\x8b\x08"] {
            let file = [gzip(&data), garbage.to_vec()].concat();
            let got = members(&file, 1 << 16);
            let error = gz_decoder(garbage).unwrap_err();
            assert_eq!(got, vec![Ok(data.clone()), Err(error)]);
        }
        let got = members(
            &[gzip(&data), b"garbage after it".to_vec()].concat(),
            1 << 16,
        );
        assert_eq!(got[1], Err("invalid gzip header".to_owned()));
    }

    #[test]
    fn a_limit_stops_the_data_and_leaves_the_rest_unread() {
        let data = text(100_000);
        let member = gzip(&data);
        let mut input = Cursor::new(&member[..]);
        let mut inflater = Inflater::new();
        let (read, out) = inflater.member(&mut input, 1_000).unwrap();
        assert_eq!(out, &data[..1_000]);
        assert!(read < member.len() as u64);
        // The next member reads whole.
        let mut input = Cursor::new(&member[..]);
        assert_eq!(
            inflater.member(&mut input, usize::MAX).unwrap().1,
            &data[..]
        );
    }
}

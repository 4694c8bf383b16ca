//! The fleet cache's entry format on arbitrary values, as a Redis shared by other writers may
//! hold them: `fleet::codec::decode` never panics, and every value it accepts is an entry that
//! encodes again and decodes to the same entry. The input is tried as it is and behind the
//! current version byte, so the MessagePack decoder sees it either way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules_fetch::fleet::codec::{decode, encode, VERSION};
use robotrules_fetch::fleet::RedisOptions;

/// The size cap: the default entry cap of `RedisOptions`.
const CAP: usize = RedisOptions::DEFAULT_MAX_ENTRY_BYTES;

fn check(value: &[u8]) {
    let Ok(entry) = decode(value, CAP) else {
        return;
    };
    let again = encode(&entry, usize::MAX).expect("an entry that decoded encodes");
    assert_eq!(decode(&again, usize::MAX).as_ref(), Ok(&entry));
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut versioned = Vec::with_capacity(data.len() + 1);
    versioned.push(VERSION);
    versioned.extend_from_slice(data);
    check(&versioned);
});

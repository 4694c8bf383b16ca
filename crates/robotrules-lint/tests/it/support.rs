//! What the lint crate's integration tests share.

/// Deterministic pseudo-random bytes (a 64-bit LCG), so the tests are the same every run.
pub(crate) fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

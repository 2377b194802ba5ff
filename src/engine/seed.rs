//! Seeding: every stream of random numbers is a pure function of (seed, cell key, stream
//! index), so results never depend on threads or scheduling.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijective 64-bit mixer
/// whose outputs pass BigCrush; used to spread (seed, cell, stream) over the state space.
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A stable 64-bit key for a cell, from its canonical description (FNV-1a, then mixed).
/// The same description gives the same key on every machine and version of Rust.
pub fn cell_key(description: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in description.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    splitmix64(h)
}

/// The generator of stream `stream` of cell `cell` under `seed`: 256 bits of state
/// drawn from a SplitMix64 sequence started at a mix of the three.
pub fn stream_rng(seed: u64, cell: u64, stream: u64) -> Xoshiro256PlusPlus {
    let mut x = splitmix64(splitmix64(splitmix64(seed) ^ cell) ^ stream.wrapping_mul(0xd134_2543_de82_ef95));
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_exact_mut(8) {
        x = splitmix64(x);
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    // All-zero state is the one state Xoshiro cannot leave; SplitMix64 never yields
    // four zero outputs in a row, but keep the guarantee explicit.
    if bytes.iter().all(|&b| b == 0) {
        bytes[0] = 1;
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn value_stability() {
        // Pinned: a change here changes every published number.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(cell_key(""), splitmix64(0xcbf2_9ce4_8422_2325));
        let mut r = stream_rng(1, 2, 3);
        let first = r.next_u64();
        let mut again = stream_rng(1, 2, 3);
        assert_eq!(again.next_u64(), first);
        assert_ne!(stream_rng(1, 2, 4).next_u64(), first);
        assert_ne!(stream_rng(2, 2, 3).next_u64(), first);
        assert_ne!(stream_rng(1, 3, 3).next_u64(), first);
    }
}

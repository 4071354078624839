//! Seeded randomness, written once for every game: the SplitMix64 mixing step, the two streams
//! the games draw from, and the Fisher–Yates shuffle.
//!
//! Games never draw entropy themselves: a seed comes in from the edge (a drawn or typed
//! `seed:`), so the same seed replays the same game. Stored games depend on these exact
//! sequences, so they must never change; the tests pin them against an independent
//! implementation.
//!
//! - [`SplitMix64`] is the published generator (state advanced by the golden gamma, then
//!   mixed). Chex's stacks use it, because players check that shuffle by hand.
//! - [`Chain`] feeds each output back as the next input (`s = splitmix(s)`): the seating of
//!   Ultimate Chess, Nomic's Order, KFB's first picker and tournament teams draw from it.

/// The golden gamma SplitMix64 advances its state by.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 step: `x` advanced by the gamma, then mixed.
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A stream of seeded numbers.
pub trait Draw {
    /// The next number.
    fn next_u64(&mut self) -> u64;

    /// A number below `n` (0 when `n` is 0), as `next mod n`.
    fn below(&mut self, n: usize) -> usize {
        let x = self.next_u64();
        if n == 0 {
            0
        } else {
            // The remainder is below `n`, so it fits.
            (x % n as u64) as usize
        }
    }
}

/// SplitMix64 as published: the state advances by the gamma and each number is its mix.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl Draw for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        let out = splitmix(self.0);
        self.0 = self.0.wrapping_add(GAMMA);
        out
    }
}

/// The chained stream: each number is [`splitmix`] of the one before, starting from the seed.
#[derive(Clone, Debug)]
pub struct Chain(pub u64);

impl Draw for Chain {
    fn next_u64(&mut self) -> u64 {
        self.0 = splitmix(self.0);
        self.0
    }
}

/// Fisher–Yates: for `i` from the last index down to 1, swap `v[i]` with `v[j]`,
/// `j = next mod (i + 1)`.
pub fn shuffle<T>(rng: &mut impl Draw, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i + 1);
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chex::shuffle::shuffle_stacks;
    use crate::games::chex::{full_set, Side};

    /// Seeds covering the ends of the range players can type.
    const SEEDS: [u64; 4] = [0, 1, 42, (1 << 53) - 1];

    #[test]
    fn splitmix_matches_an_independent_implementation() {
        // Computed by a separate Python implementation of SplitMix64.
        assert_eq!(splitmix(0), 16_294_208_416_658_607_535);
        assert_eq!(splitmix(12_345), 2_454_886_589_211_414_944);
        let mut r = SplitMix64(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
    }

    /// The seatings, Orders and stacks stored games were drawn with, recorded from the code as
    /// it was before the shuffles were written once (and computed again in Python).
    #[test]
    fn draws_stay_byte_for_byte_what_stored_games_were_drawn_with() {
        let seats = ["cedfab", "acbedf", "feacdb", "fbeacd"];
        let orders: [[usize; 7]; 4] = [
            [1, 4, 6, 0, 5, 3, 2],
            [1, 3, 4, 5, 0, 6, 2],
            [1, 4, 6, 3, 0, 2, 5],
            [1, 5, 0, 6, 3, 4, 2],
        ];
        let stacks = [
            ["RPPPNQBPPRBNPPKP", "RRPNPBPPPQPPBNKP"],
            ["RPPNNPPKPBPPRPBQ", "RPPRNPPPNBQPPBKP"],
            ["PPBRPNNPPPPPRKQB", "PBPBPPRPNQPKNPPR"],
            ["PNQPNPRPBBPPRKPP", "BPQNPPPPKRRPPNBP"],
        ];
        let players: Vec<String> = "abcdef".chars().map(String::from).collect();
        for (k, seed) in SEEDS.into_iter().enumerate() {
            let seated = crate::games::ultimate::shuffle_seats(&players, seed).concat();
            assert_eq!(seated, seats[k], "seats, seed {seed}");
            assert_eq!(
                crate::games::nomic::drawn_order(7, seed),
                orders[k],
                "Order, seed {seed}"
            );
            let drawn = shuffle_stacks(seed, [full_set(), full_set()]);
            for (side, want) in [Side::White, Side::Black].into_iter().zip(stacks[k]) {
                let got: String = drawn[side as usize].iter().map(|p| p.letter()).collect();
                assert_eq!(got, want, "{side:?} stack, seed {seed}");
            }
        }
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_below_stays_below() {
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut Chain(9), &mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
        let mut r = SplitMix64(3);
        assert_eq!(r.below(0), 0);
        assert!((0..1000).all(|_| r.below(7) < 7));
    }
}

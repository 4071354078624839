//! The stacks' shuffle (Chex rules 5.1), written so a player can check it in a few lines of any
//! language (docs/games/chex.md, "Checking the shuffle").
//!
//! - The generator is SplitMix64 with the game's seed as its state: each number is
//!   `state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
//!   z = (z ^ (z >> 27)) * 0x94D049BB133111EB; z ^ (z >> 31)` (all wrapping 64-bit).
//! - White's stack, then Black's, each starts as its pieces in the order
//!   `K Q R R B B N N P P P P P P P P` (for a game begun from a position text: the pieces of
//!   that side's stack field, in that order) and is shuffled by Fisher–Yates with one
//!   generator for the whole game: for `i` from the last index down to 1, `j = next() mod
//!   (i + 1)`, swap the pieces at `i` and `j`.
//! - The first piece of the shuffled list is the top of the stack, drawn first.
//! - The hash shown at `/chex new` is the SHA-256 of the seed's decimal text (`"42"`), in
//!   lower-case hexadecimal.

use sha2::{Digest, Sha256};

use super::position::Kind;

use crate::games::seeded::shuffle;
pub use crate::games::seeded::SplitMix64;

/// Shuffles both stacks from a seed (see the module documentation); each stack given in its
/// starting order, returned top first.
pub fn shuffle_stacks(seed: u64, stacks: [Vec<Kind>; 2]) -> [Vec<Kind>; 2] {
    let mut rng = SplitMix64(seed);
    stacks.map(|mut v| {
        shuffle(&mut rng, &mut v);
        v
    })
}

/// The SHA-256 of the seed's decimal text, lower-case hexadecimal.
pub fn seed_hash(seed: u64) -> String {
    let digest = Sha256::digest(seed.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::chex::position::full_set;
    use crate::games::seeded::Draw;

    #[test]
    fn splitmix_matches_the_published_reference() {
        // SplitMix64 seeded with 1234567, as an independent Python implementation gives it.
        let mut r = SplitMix64(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn the_hash_is_sha256_of_the_decimal_text() {
        // sha256("42"), computed independently (printf 42 | sha256sum).
        assert_eq!(
            seed_hash(42),
            "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"
        );
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_depends_on_the_seed() {
        let a = shuffle_stacks(1, [full_set(), full_set()]);
        let b = shuffle_stacks(2, [full_set(), full_set()]);
        for s in [&a, &b] {
            for v in s.iter() {
                let mut sorted = v.clone();
                sorted.sort();
                assert_eq!(sorted, full_set());
            }
        }
        assert_ne!(a, b);
        assert_eq!(a, shuffle_stacks(1, [full_set(), full_set()]));
        assert_ne!(a[0], a[1], "Black's shuffle continues the generator");
    }
}

//! The picture caches' memory budget (shared rules 8.2): the caches together stay within
//! `ARBITER_PICTURE_CACHE_MB` megabytes, 64 by default; fewer games drawn over rather than
//! more memory.
//!
//! Each cache has a fixed share of the budget and counts the bytes it holds against it:
//! the last KFB picture of recent games (drawn over for the next move) half, the deflated
//! bands reused by the encoder a quarter (two generations of an eighth), the piece sprites
//! and their tiles an eighth, and laid-out texts and the spare row buffers of dropped
//! pictures a sixteenth each. A cache that would go over its share forgets its oldest
//! entries (or all of them, for those that start again).

use std::sync::atomic::{AtomicUsize, Ordering};

/// The budget when `ARBITER_PICTURE_CACHE_MB` is not set, in megabytes.
pub const DEFAULT_MB: usize = 64;

/// The budget in bytes; 0 until first read.
static BUDGET: AtomicUsize = AtomicUsize::new(0);

/// The caches, each with its share of the budget.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// The last KFB picture of recent games.
    KeptPictures,
    /// One generation of the encoder's deflated bands (two are kept).
    BandGeneration,
    /// Piece sprites and their tiles.
    Sprites,
    /// Laid-out texts.
    Texts,
    /// Row buffers of dropped pictures, kept for the next ones.
    SpareRows,
}

/// The budget in megabytes from the variable's text: a whole number of at least 1, else the
/// default.
pub fn parse_mb(text: Option<&str>) -> usize {
    text.and_then(|t| t.trim().parse::<usize>().ok())
        .filter(|&mb| mb >= 1)
        .unwrap_or(DEFAULT_MB)
}

/// The whole budget in bytes (`ARBITER_PICTURE_CACHE_MB`, read once).
pub fn total() -> usize {
    match BUDGET.load(Ordering::Relaxed) {
        0 => {
            let mb = parse_mb(std::env::var("ARBITER_PICTURE_CACHE_MB").ok().as_deref());
            let bytes = mb << 20;
            BUDGET.store(bytes, Ordering::Relaxed);
            bytes
        }
        b => b,
    }
}

/// Sets the whole budget in bytes (tests, and a bot configured otherwise than by the
/// environment).
pub fn set_total(bytes: usize) {
    BUDGET.store(bytes.max(1), Ordering::Relaxed);
}

/// A cache's share of the budget, in bytes.
pub(crate) fn share(part: Part) -> usize {
    let t = total();
    match part {
        Part::KeptPictures => t / 2,
        Part::BandGeneration => t / 8,
        Part::Sprites => t / 8,
        Part::Texts | Part::SpareRows => t / 16,
    }
}

/// Bytes held by the spare row buffers, on every thread together.
pub(crate) static SPARE_ROWS: AtomicUsize = AtomicUsize::new(0);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_reads_whole_megabytes_and_defaults_to_64() {
        assert_eq!(parse_mb(None), 64);
        assert_eq!(parse_mb(Some("32")), 32);
        assert_eq!(parse_mb(Some(" 128 ")), 128);
        assert_eq!(parse_mb(Some("0")), 64);
        assert_eq!(parse_mb(Some("lots")), 64);
    }

    #[test]
    fn the_shares_add_up_to_the_budget() {
        let t = total();
        let all = share(Part::KeptPictures)
            + 2 * share(Part::BandGeneration)
            + share(Part::Sprites)
            + share(Part::Texts)
            + share(Part::SpareRows);
        assert!(all <= t, "{all} > {t}");
    }
}

//! Seeds as players see them (shared rules 0.5): whole numbers a Discord integer option can
//! carry, drawn from the entropy the front end passes in, or typed back (`seed:<n>`).

/// The largest seed (shared rules 0.5: seeds are whole numbers from 0 to 2^53 − 1, so a seed
/// the bot shows can always be typed back into a Discord integer option).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A seed drawn from `entropy` (any 64 bits): its low 53 bits, so it is in `0..=MAX_SEED`.
pub fn drawn_seed(entropy: u64) -> u64 {
    entropy & MAX_SEED
}

/// A seed as typed (`seed:<n>`): a whole number from 0 to [`MAX_SEED`].
///
/// # Errors
/// The user-facing reason, for anything else.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(v) if v <= MAX_SEED => Ok(v),
        _ => Err(format!("seed must be a whole number from 0 to {MAX_SEED}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_fit_in_53_bits() {
        assert_eq!(MAX_SEED, 9_007_199_254_740_991);
        assert_eq!(drawn_seed(u64::MAX), MAX_SEED);
        assert_eq!(drawn_seed(12), 12);
        assert_eq!(parse_seed("0"), Ok(0));
        assert_eq!(parse_seed(" 9007199254740991 "), Ok(MAX_SEED));
        assert!(parse_seed("9007199254740992").is_err());
        assert!(parse_seed("18446744073709551615").is_err());
        assert!(parse_seed("-1").is_err());
        assert!(parse_seed("seven").is_err());
    }
}

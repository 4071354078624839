//! Fixed-width unsigned integers used as matching edge weights.
//!
//! The Dutch criteria are encoded as bit fields of one very wide integer, so
//! the matching works on `Wide<N>`: `N` little-endian 64-bit limbs with
//! wrapping arithmetic. Callers pick `N` large enough that real values never
//! wrap.

// Index loops mirror the vertex/position arithmetic of the algorithm.
#![allow(clippy::needless_range_loop)]

use std::cmp::Ordering;

/// Operations the weighted matching needs from an edge-weight type.
pub trait Weight: Copy + Ord + std::fmt::Debug {
    /// The value zero.
    fn zero() -> Self;
    /// A small value.
    fn from_u64(value: u64) -> Self;
    /// Whether the value is zero.
    fn is_zero(&self) -> bool;
    /// Wrapping addition.
    fn add(self, other: Self) -> Self;
    /// Wrapping subtraction.
    fn sub(self, other: Self) -> Self;
    /// Wrapping `self + plus - minus` in one pass.
    fn add_sub(self, plus: Self, minus: Self) -> Self;
    /// Left shift (bits shifted out are lost).
    fn shl(self, bits: u32) -> Self;
    /// Right shift by one bit.
    fn half(self) -> Self;
    /// Bitwise or with a small value.
    fn or_u64(self, value: u64) -> Self;
    /// The lowest bit is set.
    fn is_odd(&self) -> bool;
}

/// An unsigned integer of `N` 64-bit limbs (least significant first).
#[derive(Clone, Copy, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> PartialEq for Wide<N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        // Compare from the most significant limb, which differs most often.
        for i in (0..N).rev() {
            if self.0[i] != other.0[i] {
                return false;
            }
        }
        true
    }
}

impl<const N: usize> Eq for Wide<N> {}

impl<const N: usize> Ord for Wide<N> {
    #[inline(always)]
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Weight for Wide<N> {
    #[inline(always)]
    fn zero() -> Self {
        Wide([0; N])
    }

    #[inline(always)]
    fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        if N > 0 {
            limbs[0] = value;
        }
        Wide(limbs)
    }

    #[inline(always)]
    fn is_zero(&self) -> bool {
        // The most significant limb is the one most likely to be non-zero.
        self.0.iter().rev().all(|&limb| limb == 0)
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(other.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *slot = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    #[inline(always)]
    fn add_sub(self, plus: Self, minus: Self) -> Self {
        let mut out = [0; N];
        let mut carry: i128 = 0;
        for (i, slot) in out.iter_mut().enumerate() {
            let t = i128::from(self.0[i]) + i128::from(plus.0[i]) - i128::from(minus.0[i]) + carry;
            *slot = t as u64;
            carry = t >> 64;
        }
        Wide(out)
    }

    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *slot = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    fn shl(self, bits: u32) -> Self {
        let limb_shift = (bits / 64) as usize;
        let bit_shift = bits % 64;
        let mut out = [0; N];
        for i in (0..N).rev() {
            if i < limb_shift {
                break;
            }
            let src = i - limb_shift;
            let mut value = self.0[src] << bit_shift;
            if bit_shift > 0 && src > 0 {
                value |= self.0[src - 1] >> (64 - bit_shift);
            }
            out[i] = value;
        }
        Wide(out)
    }

    #[inline(always)]
    fn half(self) -> Self {
        let mut out = [0; N];
        for i in 0..N {
            let high = if i + 1 < N { self.0[i + 1] << 63 } else { 0 };
            out[i] = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    #[inline(always)]
    fn or_u64(self, value: u64) -> Self {
        let mut out = self;
        if N > 0 {
            out.0[0] |= value;
        }
        out
    }

    #[inline(always)]
    fn is_odd(&self) -> bool {
        N > 0 && self.0[0] & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_u128() {
        let a = Wide::<2>::from_u64(u64::MAX).shl(3).or_u64(5);
        let b = Wide::<2>::from_u64(12345);
        let a128 = ((u64::MAX as u128) << 3) | 5;
        let to128 = |w: Wide<2>| (w.0[1] as u128) << 64 | w.0[0] as u128;
        assert_eq!(to128(a.add(b)), a128 + 12345);
        assert_eq!(to128(a.sub(b)), a128 - 12345);
        assert_eq!(to128(a.half()), a128 >> 1);
        assert_eq!(to128(b.shl(70)), 12345u128 << 70);
        assert!(a > b);
        assert_eq!(to128(b.sub(a).add(a)), 12345);
        assert_eq!(to128(a.add_sub(b, Wide::from_u64(7))), a128 + 12345 - 7);
        assert_eq!(
            to128(b.add_sub(Wide::from_u64(1), a)),
            (12346u128).wrapping_sub(a128)
        );
    }
}

//! The palette of a picture drawn straight into palette indices (the fast path of issue 21).
//!
//! A PNG palette holds at most 256 colours, and a board picture has thousands of exact
//! colours (every anti-aliased edge blends two colours at its own coverage). The palette is
//! chosen while the picture is drawn, in the order colours are first drawn:
//!
//! - A **flat** colour (a fill: the page, a panel, a square, a badge; a piece's own fill) gets
//!   an entry of its own, exact, while there is room.
//! - Any other colour (anti-aliasing) takes an entry no more than [`NEAR`] levels away in
//!   every channel if there is one, or a new entry while there is room (the last [`RESERVED`]
//!   entries are kept for flat colours), or else the nearest entry.
//!
//! The choice for a colour is remembered per cell of 4×4×4 colour levels (so a lookup is
//! mostly one probe of a small hash table), which adds at most 3 levels: an anti-aliased
//! pixel is at most 13 levels off while the palette has room. The picture alone decides its
//! palette, so the same picture always encodes to the same bytes.
//!
//! Against the picture drawn in exact colours, the example pictures have 0–0.04% of their
//! pixels more than 12 levels off (the RGB renderer's reduction before it, the 256 fullest bins
//! of 5 bits a channel: up to 0.15%), and merging near colours makes the files a third smaller.

use std::cell::RefCell;

/// An opaque colour.
pub(crate) type Rgb8 = [u8; 3];

/// How far (levels, in every channel) an anti-aliasing colour may be moved to an entry:
/// merging near colours keeps the palette from filling up (KFB needs about 230 entries) and
/// gives longer repeats to deflate.
const NEAR: i32 = 10;
/// How far (levels, in every channel) an anti-aliasing colour may be from its entry, once
/// the palette is full, before it counts among the [`Palette::approximations`].
const LOOSE: i32 = 2 * NEAR;
/// Entries kept for flat colours once anti-aliasing has filled the rest.
const RESERVED: usize = 16;

/// Remembered choices, per colour cell and per coarse cell (see [`Palette::near`]). A
/// picture meets a few thousand cells, so the tables are small hash tables that stay in the
/// core's cache (direct tables of every cell were a megabyte, and cold after other work:
/// a third of a millisecond on the KFB picture). A palette borrows its thread's tables while
/// it lives and clears them first.
struct Memo {
    cells: CellTable,
    coarse: CellTable,
    /// The first entry of each exact colour (a flat colour is looked up here).
    exact: CellTable,
}

impl Memo {
    fn new() -> Memo {
        Memo {
            // 32 KB: the KFB picture meets about 1,500 cells (a table doubles when half full).
            cells: CellTable::with_bits(12),
            coarse: CellTable::with_bits(11),
            exact: CellTable::with_bits(9),
        }
    }

    /// No tables (a palette without them searches every time).
    fn none() -> Memo {
        Memo {
            cells: CellTable::default(),
            coarse: CellTable::default(),
            exact: CellTable::default(),
        }
    }
}

/// An open-addressing map from a cell or a colour (below 2^24) to a palette entry: a slot
/// holds `(key + 1) << 8 | entry`, 0 when empty. It doubles when half full, so it never
/// forgets.
#[derive(Default)]
struct CellTable {
    slots: Vec<u64>,
    used: usize,
}

impl CellTable {
    fn with_bits(bits: u32) -> CellTable {
        CellTable {
            slots: vec![0; 1 << bits],
            used: 0,
        }
    }

    fn clear(&mut self) {
        self.slots.fill(0);
        self.used = 0;
    }

    /// The first slot to probe for `cell` (the table's length is a power of two): high bits
    /// of a multiplicative hash, which depend on every bit of the key.
    #[inline]
    fn home(&self, cell: usize) -> usize {
        ((cell as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (self.slots.len() - 1)
    }

    #[inline]
    fn get(&self, cell: usize) -> Option<u8> {
        if self.slots.is_empty() {
            return None;
        }
        let want = (cell as u64 + 1) << 8;
        let mask = self.slots.len() - 1;
        let mut i = self.home(cell);
        loop {
            let v = self.slots[i];
            if v == 0 {
                return None;
            }
            if v & !0xff == want {
                return Some(v as u8);
            }
            i = (i + 1) & mask;
        }
    }

    /// Remembers `entry` for `cell` (in place of what was remembered).
    fn set(&mut self, cell: usize, entry: u8) {
        if self.slots.is_empty() {
            return;
        }
        if 2 * (self.used + 1) > self.slots.len() {
            let grown = vec![0; 2 * self.slots.len()];
            let old = std::mem::replace(&mut self.slots, grown);
            self.used = 0;
            for v in old.into_iter().filter(|&v| v != 0) {
                self.set(((v >> 8) - 1) as usize, v as u8);
            }
        }
        let key = (cell as u64 + 1) << 8;
        let mask = self.slots.len() - 1;
        let mut i = self.home(cell);
        while self.slots[i] != 0 && self.slots[i] & !0xff != key {
            i = (i + 1) & mask;
        }
        if self.slots[i] == 0 {
            self.used += 1;
        }
        self.slots[i] = key | u64::from(entry);
    }
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// A picture's palette, at most 256 colours.
pub(crate) struct Palette {
    colours: Vec<Rgb8>,
    /// The colours channel by channel, for a search the compiler vectorises.
    r: Vec<i32>,
    g: Vec<i32>,
    b: Vec<i32>,
    /// Whether the entry was made for a flat colour.
    flat: Vec<bool>,
    memo: Memo,
    /// The last flat colour asked for and its entry.
    last_flat: Option<(Rgb8, u8)>,
    /// See [`Palette::approximations`].
    approximated: u32,
}

impl Default for Palette {
    /// An empty palette without tables of its own (a placeholder: it searches every time).
    fn default() -> Palette {
        Palette::with_memo(Memo::none())
    }
}

impl Drop for Palette {
    /// Gives the tables back to the thread for its next palette.
    fn drop(&mut self) {
        let memo = std::mem::replace(&mut self.memo, Memo::none());
        if memo.cells.slots.is_empty() {
            return;
        }
        MEMO.with(|m| {
            if let Ok(mut m) = m.try_borrow_mut() {
                if m.is_none() {
                    *m = Some(memo);
                }
            }
        });
    }
}

/// A colour as one number, the key of its exact entry.
#[inline]
fn exact_key(c: Rgb8) -> usize {
    (c[0] as usize) << 16 | (c[1] as usize) << 8 | c[2] as usize
}

/// The memo cell of a colour (6 bits a channel).
#[inline]
pub(crate) fn cell_of(c: Rgb8) -> usize {
    ((c[0] as usize >> 2) << 12) | ((c[1] as usize >> 2) << 6) | (c[2] as usize >> 2)
}

impl Palette {
    /// An empty palette (with its thread's tables, cleared, or new ones).
    pub fn new() -> Palette {
        let mut memo = MEMO
            .with(|m| m.try_borrow_mut().ok().and_then(|mut m| m.take()))
            .unwrap_or_else(Memo::new);
        if memo.cells.slots.len() > 1 << 15 {
            // Grown for a picture of very many colours: not worth clearing for every picture.
            memo = Memo::new();
        }
        memo.cells.clear();
        memo.coarse.clear();
        memo.exact.clear();
        Palette::with_memo(memo)
    }

    /// A palette whose first entries are `seed`'s (colour, and whether made for a flat
    /// colour), in order: a replay's frame drawn with its last frame's entries keeps their
    /// indices, so the two compare byte for byte.
    pub fn seeded(seed: &[(Rgb8, bool)]) -> Palette {
        let mut p = Palette::new();
        for &(c, flat) in seed.iter().take(256) {
            p.push(c, flat);
        }
        p
    }

    /// The entries with, for each, whether it was made for a flat colour.
    pub fn entries(&self) -> Vec<(Rgb8, bool)> {
        self.colours
            .iter()
            .zip(&self.flat)
            .map(|(&c, &f)| (c, f))
            .collect()
    }

    fn with_memo(memo: Memo) -> Palette {
        Palette {
            colours: Vec::with_capacity(256),
            r: Vec::with_capacity(256),
            g: Vec::with_capacity(256),
            b: Vec::with_capacity(256),
            flat: Vec::with_capacity(256),
            memo,
            last_flat: None,
            approximated: 0,
        }
    }

    /// The largest channel difference between entry `i` (an entry there is) and `c`.
    #[inline]
    fn max_diff(&self, i: usize, c: Rgb8) -> i32 {
        (self.r[i] - c[0] as i32)
            .abs()
            .max((self.g[i] - c[1] as i32).abs())
            .max((self.b[i] - c[2] as i32).abs())
    }

    /// The entries, in order.
    pub fn colours(&self) -> &[Rgb8] {
        &self.colours
    }

    /// Colours given an entry further than [`LOOSE`] levels for want of room, and flat
    /// colours not given their own entry.
    pub fn approximations(&self) -> u32 {
        self.approximated
    }

    /// The colour of entry `i` (black for an entry not made yet).
    #[inline]
    pub fn colour(&self, i: u8) -> Rgb8 {
        self.colours.get(i as usize).copied().unwrap_or([0, 0, 0])
    }

    /// Whether entry `i` was made for a flat colour.
    #[inline]
    pub fn is_flat(&self, i: u8) -> bool {
        self.flat.get(i as usize).copied().unwrap_or(false)
    }

    /// The entries as PNG's `PLTE` wants them.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = self.colours.iter().flatten().copied().collect();
        if out.is_empty() {
            out.extend_from_slice(&[0, 0, 0]);
        }
        out
    }

    fn push(&mut self, c: Rgb8, flat: bool) -> u8 {
        let i = self.colours.len() as u8;
        if self.memo.exact.get(exact_key(c)).is_none() {
            self.memo.exact.set(exact_key(c), i);
        }
        self.colours.push(c);
        self.r.push(c[0] as i32);
        self.g.push(c[1] as i32);
        self.b.push(c[2] as i32);
        self.flat.push(flat);
        (self.colours.len() - 1) as u8
    }

    /// The entry nearest `c` (the first of equals): its index and its largest channel
    /// difference. Distances are worked out for all entries at once, then the least taken,
    /// which the compiler vectorises.
    fn nearest(&self, c: Rgb8) -> Option<(u8, i32)> {
        let n = self.colours.len();
        if n == 0 {
            return None;
        }
        let best = nearest_key(&self.r[..n], &self.g[..n], &self.b[..n], c);
        let i = (best & 0xff) as usize;
        Some((i as u8, self.max_diff(i, c)))
    }

    /// The entry for a flat colour: exact while there is room.
    pub fn flat(&mut self, c: Rgb8) -> u8 {
        if let Some((last, i)) = self.last_flat {
            if last == c {
                return i;
            }
        }
        let found = if self.memo.exact.slots.is_empty() {
            self.colours.iter().position(|&e| e == c).map(|i| i as u8)
        } else {
            self.memo.exact.get(exact_key(c))
        };
        let i = match found {
            Some(i) => i,
            None if self.colours.len() < 256 => self.push(c, true),
            None => {
                self.approximated += 1;
                self.nearest(c).map_or(0, |(i, _)| i)
            }
        };
        self.last_flat = Some((c, i));
        i
    }

    /// The entry for an anti-aliasing colour (see the module's notes).
    #[inline]
    pub fn near(&mut self, c: Rgb8) -> u8 {
        let cell = cell_of(c);
        let coarse =
            ((c[0] as usize >> 3) << 10) | ((c[1] as usize >> 3) << 5) | (c[2] as usize >> 3);
        if let Some(i) = self.memo.cells.get(cell) {
            return i;
        }
        // The entry chosen for a colour close by will do if it is near enough.
        let guess = self.memo.coarse.get(coarse);
        let i = match guess {
            Some(g) if self.within(g, c) => g,
            _ => self.choose(c),
        };
        self.memo.cells.set(cell, i);
        if guess != Some(i) {
            self.memo.coarse.set(coarse, i);
        }
        i
    }

    /// Whether entry `i` is no more than [`NEAR`] levels from `c` in every channel.
    #[inline]
    fn within(&self, i: u8, c: Rgb8) -> bool {
        (i as usize) < self.colours.len() && self.max_diff(i as usize, c) <= NEAR
    }

    fn choose(&mut self, c: Rgb8) -> u8 {
        match self.nearest(c) {
            Some((i, m)) if m <= NEAR => i,
            _ if self.colours.len() < 256 - RESERVED => self.push(c, false),
            Some((i, m)) => {
                if m > LOOSE {
                    self.approximated += 1;
                }
                i
            }
            None => self.push(c, false),
        }
    }
}

/// The least `distance² << 8 | index` over the entries (channels `r`, `g`, `b`, of one
/// length) from `c`: the nearest entry, the first of equals.
#[inline(always)]
fn nearest_key_portable(r: &[i32], g: &[i32], b: &[i32], c: Rgb8) -> i32 {
    let (cr, cg, cb) = (c[0] as i32, c[1] as i32, c[2] as i32);
    let n = r.len().min(g.len()).min(b.len());
    let (r, g, b) = (&r[..n], &g[..n], &b[..n]);
    // At most 3 × 255² < 2^18: the distance, then the index (below 256) for ties. A plain
    // loop, no iterator adaptors: their code would be the baseline's, not AVX2's.
    let mut best = i32::MAX;
    let mut i = 0;
    while i < n {
        let (dr, dg, db) = (r[i] - cr, g[i] - cg, b[i] - cb);
        let key = ((dr * dr + dg * dg + db * db) << 8) | i as i32;
        best = if key < best { key } else { best };
        i += 1;
    }
    if n == 0 {
        0
    } else {
        best
    }
}

/// [`nearest_key_portable`] compiled for AVX2: eight entries a step, with the 32-bit
/// multiply and minimum that the baseline x86-64 instruction set lacks. The KFB picture asks
/// about 850 times; this takes a third of the time the baseline build did (0.03 against
/// 0.1 ms a picture).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn nearest_key_avx2(r: &[i32], g: &[i32], b: &[i32], c: Rgb8) -> i32 {
    nearest_key_portable(r, g, b, c)
}

/// See [`nearest_key_portable`]; with AVX2 when the processor has it.
fn nearest_key(r: &[i32], g: &[i32], b: &[i32], c: Rgb8) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { nearest_key_avx2(r, g, b, c) };
    }
    nearest_key_portable(r, g, b, c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn flat_colours_are_exact_and_anti_aliasing_stays_near() {
        let mut p = Palette::new();
        let page = p.flat([40, 42, 48]);
        assert_eq!(p.flat([40, 42, 48]), page);
        let light = p.flat([240, 217, 181]);
        assert_ne!(light, page);
        // Close to the page: takes its entry.
        assert_eq!(p.near([44, 45, 50]), page);
        // Far from both: a new entry, exact.
        let mid = p.near([140, 130, 115]);
        assert_eq!(p.colour(mid), [140, 130, 115]);
        assert!(!p.is_flat(mid));
        // Every colour lands within NEAR + 3 levels while there is room.
        for v in (0..=255u8).step_by(5) {
            let c = [v, 255 - v, v / 2];
            let i = p.near(c);
            let e = p.colour(i);
            assert!(
                (0..3).all(|k| (e[k] as i32 - c[k] as i32).abs() <= NEAR + 3),
                "{c:?} {e:?}"
            );
        }
    }

    #[test]
    fn a_full_palette_keeps_room_for_flat_colours() {
        let mut p = Palette::new();
        for v in 0..=255u8 {
            for w in (0..=255u8).step_by(17) {
                p.near([v, w, 0]);
            }
        }
        assert_eq!(p.colours().len(), 256 - RESERVED);
        let badge = p.flat([1, 2, 250]);
        assert_eq!(p.colour(badge), [1, 2, 250]);
        assert!(p.is_flat(badge));
        assert!(p.colours().len() <= 256);
    }

    #[test]
    fn the_same_colours_in_the_same_order_give_the_same_palette() {
        let draw = || {
            let mut p = Palette::new();
            for i in 0..4000u32 {
                let c = [
                    (i * 7 % 256) as u8,
                    (i * 13 % 256) as u8,
                    (i * 29 % 256) as u8,
                ];
                if i % 50 == 0 {
                    p.flat(c);
                } else {
                    p.near(c);
                }
            }
            p.bytes()
        };
        assert_eq!(draw(), draw());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The nearest entry (AVX2 where the processor has it) is the one a plain search
        /// finds: least squared distance, the first of equals.
        #[test]
        fn nearest_is_the_first_least_distance(
            entries in proptest::collection::vec(any::<[u8; 3]>(), 1..=256),
            c in any::<[u8; 3]>(),
            // Duplicates make ties, which the index must break.
            dup in any::<proptest::sample::Index>(),
        ) {
            let mut entries = entries;
            let d = entries[dup.index(entries.len())];
            entries.push(d);
            entries.truncate(256);
            let chan = |k: usize| entries.iter().map(|e| e[k] as i32).collect::<Vec<_>>();
            let key = nearest_key(&chan(0), &chan(1), &chan(2), c);
            let dist = |e: &[u8; 3]| (0..3).map(|k| (e[k] as i32 - c[k] as i32).pow(2)).sum::<i32>();
            let least = entries.iter().map(dist).min().unwrap_or(0);
            let first = entries.iter().position(|e| dist(e) == least).unwrap_or(0);
            prop_assert_eq!(key, least << 8 | first as i32);
            prop_assert_eq!(nearest_key_portable(&chan(0), &chan(1), &chan(2), c), key);
        }
    }
}

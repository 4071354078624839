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
//! The choice for a colour is remembered per cell of 4×4×4 colour levels (so a lookup is an
//! array read), which adds at most 3 levels: an anti-aliased pixel is at most 13 levels off
//! while the palette has room. The picture alone decides its palette, so the same picture
//! always encodes to the same bytes.
//!
//! Against the picture drawn in exact colours, the example pictures have 0–0.04% of their
//! pixels more than 12 levels off (the legacy path's reduction, the 256 fullest bins of 5 bits
//! a channel: up to 0.15%), and merging near colours makes the files a third smaller.

use std::cell::RefCell;

use super::canvas::Rgb8;

/// How far (levels, in every channel) an anti-aliasing colour may be moved to an entry:
/// merging near colours keeps the palette from filling up (KFB needs about 230 entries) and
/// gives longer repeats to deflate.
const NEAR: i32 = 10;
/// Entries kept for flat colours once anti-aliasing has filled the rest.
const RESERVED: usize = 16;
/// Bits of the remembered cells: 6 per channel.
const CELL_BITS: u32 = 18;

/// Remembered choices: per colour cell, the palette's stamp in the high 24 bits and the
/// entry in the low 8 (a fresh stamp per palette, so nothing needs clearing between
/// pictures). A palette borrows its thread's tables while it lives.
struct Memo {
    cells: Vec<u32>,
    /// The same per cell of 8×8×8 levels: the entry last chosen for a colour in it, tried
    /// before a search.
    coarse: Vec<u32>,
    next_stamp: u32,
}

impl Memo {
    fn new() -> Memo {
        Memo {
            cells: vec![0; 1 << CELL_BITS],
            coarse: vec![0; 1 << 15],
            next_stamp: 1,
        }
    }

    /// No tables (a palette without them searches every time).
    fn none(next_stamp: u32) -> Memo {
        Memo {
            cells: Vec::new(),
            coarse: Vec::new(),
            next_stamp,
        }
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
    stamp: u32,
    /// The last flat colour asked for and its entry.
    last_flat: Option<(Rgb8, u8)>,
}

impl Default for Palette {
    /// An empty palette without tables of its own (a placeholder: it searches every time).
    fn default() -> Palette {
        Palette::with_memo(Memo::none(1), 0)
    }
}

impl Drop for Palette {
    /// Gives the tables back to the thread for its next palette.
    fn drop(&mut self) {
        let next_stamp = self.memo.next_stamp;
        let memo = std::mem::replace(&mut self.memo, Memo::none(next_stamp));
        if memo.cells.is_empty() {
            return;
        }
        MEMO.with(|m| {
            if let Ok(mut m) = m.try_borrow_mut() {
                // Keep the tables with the later stamps.
                if m.as_ref()
                    .is_none_or(|old| old.next_stamp < memo.next_stamp)
                {
                    *m = Some(memo);
                }
            }
        });
    }
}

/// The memo cell of a colour (6 bits a channel).
#[inline]
pub(crate) fn cell_of(c: Rgb8) -> usize {
    ((c[0] as usize >> 2) << 12) | ((c[1] as usize >> 2) << 6) | (c[2] as usize >> 2)
}

impl Palette {
    /// An empty palette with a fresh stamp.
    pub fn new() -> Palette {
        let mut memo = MEMO
            .with(|m| m.try_borrow_mut().ok().and_then(|mut m| m.take()))
            .unwrap_or_else(Memo::new);
        if memo.next_stamp >= 1 << 24 {
            memo = Memo::new();
        }
        let stamp = memo.next_stamp;
        memo.next_stamp += 1;
        Palette::with_memo(memo, stamp)
    }

    fn with_memo(memo: Memo, stamp: u32) -> Palette {
        Palette {
            colours: Vec::with_capacity(256),
            r: Vec::with_capacity(256),
            g: Vec::with_capacity(256),
            b: Vec::with_capacity(256),
            flat: Vec::with_capacity(256),
            memo,
            stamp,
            last_flat: None,
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
    #[cfg(test)]
    pub fn colours(&self) -> &[Rgb8] {
        &self.colours
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
        let (cr, cg, cb) = (c[0] as i32, c[1] as i32, c[2] as i32);
        let (r, g, b) = (&self.r[..n], &self.g[..n], &self.b[..n]);
        // At most 3 × 255² < 2^18: the distance, then the index for ties.
        let best = (0..n)
            .map(|i| {
                let (dr, dg, db) = (r[i] - cr, g[i] - cg, b[i] - cb);
                ((dr * dr + dg * dg + db * db) << 8) | i as i32
            })
            .min()
            .unwrap_or(0);
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
        let i = match self.colours.iter().position(|&e| e == c) {
            Some(i) => i as u8,
            None if self.colours.len() < 256 => self.push(c, true),
            None => self.nearest(c).map_or(0, |(i, _)| i),
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
        let stamp = self.stamp;
        if let Some(&v) = self.memo.cells.get(cell) {
            if v >> 8 == stamp {
                return v as u8;
            }
        }
        // The entry chosen for a colour close by will do if it is near enough.
        let guess = self
            .memo
            .coarse
            .get(coarse)
            .copied()
            .filter(|&v| v >> 8 == stamp);
        let i = match guess.map(|v| v as u8) {
            Some(g) if self.within(g, c) => g,
            _ => self.choose(c),
        };
        if let Some(v) = self.memo.cells.get_mut(cell) {
            *v = stamp << 8 | i as u32;
        }
        if let Some(v) = self.memo.coarse.get_mut(coarse) {
            *v = stamp << 8 | i as u32;
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
            Some((i, _)) => i,
            None => self.push(c, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}

//! A zlib encoder specialised for 8-bit palette PNG rows (filter byte 0, then the indices).
//!
//! Board pictures are mostly flat: a row is usually the row above again, runs of one index are
//! long, and the rest is anti-aliased edges of glyphs and pieces, the same glyph often drawn
//! on several squares. So the matcher is a greedy LZ77 that looks, at each position, at only
//! three candidates: the byte one row up (distance `stride`, which finds whole equal rows and
//! runs on across row ends, the filter bytes being equal too), a run (distance 1) and one entry
//! of a small hash table of 4-byte strings (repeats elsewhere within the 32 KiB window).
//! Lengths are compared eight bytes at a time. The tokens of each block are coded with
//! Huffman codes made for the block (length-limited, RFC 1951 dynamic blocks), or stored when
//! that is smaller (incompressible data).
//!
//! The rows are deflated in bands of about 64 KiB, each as if alone after the row above it,
//! so that the bot reuses the bands a move left unchanged from the game's picture before
//! ([`zlib_rows_reusing`]). In the fake-Discord burst this took PNG encoding from 2.2 to 0.8
//! ms a move (median). Deflating a picture afresh costs about 15% more than in one piece
//! (a block's Huffman codes, about 10 µs, per band: KFB 1.8 against 1.55 ms) and is 1%
//! smaller (codes fitted to each band). Bands of 128 KiB cost 5% more afresh but would be
//! found less often (a move on one board touches rows over most of the picture's height).
//!
//! Measured (`deflate::tests::timing`, best of 30, on the example pictures' rows): about the
//! speed of zlib-rs level 1 on `Up`-filtered rows (the `png` crate's fastest setting) and a
//! quarter smaller (KFB about 1.2 ms and 98 KB, against 1.3 ms and 134 KB). The time is per
//! token (about 65,000 for KFB, most of them literals and short matches on anti-aliased edges;
//! about 20 ns each), not per byte: a picture of equal rows (2 MB) takes 0.25 ms. A row above
//! or a run reaching 8 bytes is taken without asking the hash (the table and the data it
//! points into are mostly cold). Tried and not kept: an 8-byte hash as a fourth candidate
//! (slower, 0.6% smaller); skipping the hash at every other position of a long stretch of
//! literals (no faster); no hash at all (slower: more tokens, and larger); only runs, on
//! `Up`-filtered rows (slower, and 30% larger); hash tables of 2^12-2^16 entries (same
//! speed); blocks of 2^12-2^16 tokens (2^13 is as fast and smaller than larger blocks).

/// Tokens a block: the block's Huffman codes are made from its own statistics.
const BLOCK_TOKENS: usize = 1 << 13;
/// Largest distance deflate allows.
const WINDOW: usize = 32 * 1024;
/// Longest match deflate allows.
const MAX_MATCH: usize = 258;
/// The hash table has `1 << HASH_BITS` entries (positions of 4-byte strings).
const HASH_BITS: u32 = 14;
/// A match at least this long is taken without following another candidate (and, near the
/// start and the end of the data, without asking the hash).
const GOOD_ENOUGH: usize = 32;
/// A row-above or run match at least this long is taken without asking the hash.
const QUICK: usize = 8;

/// The literal/length alphabet's size (0-255 literals, 256 end of block, 257-285 lengths).
const LIT_CODES: usize = 286;
/// The distance alphabet's size.
const DIST_CODES: usize = 30;
/// The code-length alphabet's size.
const CL_CODES: usize = 19;
/// The order in which the code-length code's lengths are sent (RFC 1951, 3.2.7).
const CL_ORDER: [usize; CL_CODES] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// For each match length minus 3 (0..=255): its length symbol minus 257 and extra-bit count.
const LEN_CODE: [(u8, u8); 256] = len_codes();

const fn len_codes() -> [(u8, u8); 256] {
    let mut t = [(0u8, 0u8); 256];
    let mut l = 0;
    while l < 256 {
        t[l] = if l < 8 {
            (l as u8, 0)
        } else if l == 255 {
            (28, 0)
        } else {
            // floor(log2(l)) >= 3; four symbols per extra-bit count.
            let nb = 31 - (l as u32).leading_zeros();
            let extra = nb - 2;
            (
                (4 * (nb - 1) + ((l as u32 >> extra) & 3)) as u8,
                extra as u8,
            )
        };
        l += 1;
    }
    t
}

/// The distance symbol and its extra bits (count, value) of distance `d` (1..=32768).
#[inline]
fn dist_code(d: usize) -> (usize, u32, u32) {
    let x = (d - 1) as u32;
    if x < 4 {
        (x as usize, 0, 0)
    } else {
        let nb = 31 - x.leading_zeros();
        let extra = nb - 1;
        (
            (2 * nb + ((x >> extra) & 1)) as usize,
            extra,
            x & ((1 << extra) - 1),
        )
    }
}

/// Bands of rows are deflated each on their own (see [`zlib_rows_reusing`]): a band holds
/// whole rows, at least this many bytes (the last band what is left).
const BAND_BYTES: usize = 64 * 1024;

/// A zlib stream (RFC 1950 header, deflate RFC 1951 body, Adler-32 trailer) of `data`, which is
/// PNG image data: rows of `stride` bytes, each a filter-type byte (0, "None") followed by the
/// row's palette indices.
///
/// Any bytes and any stride give a valid stream of them; the row-up candidate is used only
/// when `stride` is within deflate's window (2..=32768).
#[cfg(test)]
pub(crate) fn zlib_rows(data: &[u8], stride: usize) -> Vec<u8> {
    zlib_rows_reusing(data, stride, None)
}

/// [`zlib_rows`], reusing the deflated bands of earlier pictures kept in `kept`, and keeping
/// this one's there.
///
/// The rows are cut into bands of [`BAND_BYTES`] or more, and each band is deflated as if
/// alone after the row above it: its matches reach back no further than that row (the row
/// above and runs; the hash finds repeats only within the band), its tokens make blocks of
/// their own, and a band other than the last ends with an empty stored block (a sync flush,
/// as zlib's `Z_SYNC_FLUSH`), on a byte boundary. So a band's bytes depend only on its rows,
/// the row above, its place and whether it is the last: the same band in the next picture
/// of a game (a move changes a few squares, a clock, a status line) is copied from `kept`
/// instead of deflated again. The stream is the same byte for byte whether bands were kept
/// or not (tested). Against one piece, a picture deflated afresh in bands takes about 15%
/// longer and is about 1% smaller (see the module's notes).
pub(crate) fn zlib_rows_reusing(data: &[u8], stride: usize, kept: Option<&KeptBands>) -> Vec<u8> {
    let mut enc = Encoder {
        out: BitWriter::with_capacity(data.len() / 8 + 1024),
        tokens: Vec::with_capacity(BLOCK_TOKENS + 1),
        sym_freq: [0; 512],
        dist_freq: [0; DIST_CODES],
    };
    // CMF: deflate with a 32 KiB window; FLG: fastest, no dictionary, check bits.
    enc.out.bytes.extend_from_slice(&[0x78, 0x01]);
    let mut table = vec![0u32; 1 << HASH_BITS];
    // The Adler-32 of the data so far: each band's own, taken while the band is in the cache
    // (or kept with its bytes), put together.
    let mut adler = 1;
    for (start, end) in bands(data.len(), stride) {
        let last = end == data.len();
        let keyed = kept.map(|k| (k, band_key(data, stride, start, end, last)));
        let band_adler = match keyed.and_then(|(k, key)| k.get(key)) {
            Some(band) => {
                enc.out.bytes.extend_from_slice(&band.bytes);
                band.adler
            }
            None => {
                let from = enc.out.bytes.len();
                enc.band(&data[..end], start, stride, last, &mut table);
                let band_adler = adler32(&data[start..end]);
                if let Some((k, key)) = keyed {
                    k.put(key, &enc.out.bytes[from..], band_adler);
                }
                band_adler
            }
        };
        adler = adler32_combine(adler, band_adler, end - start);
    }
    let mut out = enc.out.bytes;
    out.extend_from_slice(&adler.to_be_bytes());
    out
}

/// The Adler-32 (RFC 1950) of `data`.
fn adler32(data: &[u8]) -> u32 {
    let mut adler = simd_adler32::Adler32::new();
    adler.write(data);
    adler.finish()
}

/// The Adler-32 of `a ++ b` from the Adler-32 of `a` (`first`) and of `b` (`second`), and
/// the length of `b` (RFC 1950: the first sum adds `b`'s bytes, the second adds the first
/// sum once per byte of `b` as well).
fn adler32_combine(first: u32, second: u32, second_len: usize) -> u32 {
    const MOD: u64 = 65521;
    let n = second_len as u64 % MOD;
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    // `b`'s sums start at 1, not at `a1`: its first sum is off by a1 - 1, and its second sum
    // by n * (a1 - 1).
    let a = (a1 + a2 + MOD - 1) % MOD;
    let b = (b1 + b2 + n * a1 % MOD + MOD - n) % MOD;
    (b << 16 | a) as u32
}

/// The bands (start, end) of `n` bytes of rows of `stride`: whole rows, at least
/// [`BAND_BYTES`] each, the last one what is left (one band, empty, for no data).
fn bands(n: usize, stride: usize) -> Vec<(usize, usize)> {
    let band = stride.max(1) * BAND_BYTES.div_ceil(stride.max(1));
    let mut out = Vec::new();
    let mut start = 0;
    loop {
        let end = if n - start < 2 * band {
            n
        } else {
            start + band
        };
        out.push((start, end));
        if end == n {
            return out;
        }
        start = end;
    }
}

/// The key of the band `start..end` of `data`: a hash of its bytes and the row above (which
/// its matches may reach), its place, the stride and whether it is the last.
fn band_key(data: &[u8], stride: usize, start: usize, end: usize, last: bool) -> u128 {
    let from = start.saturating_sub(stride);
    let mut place = [0u8; 25];
    place[..8].copy_from_slice(&(start as u64).to_le_bytes());
    place[8..16].copy_from_slice(&(end as u64).to_le_bytes());
    place[16..24].copy_from_slice(&(stride as u64).to_le_bytes());
    place[24] = u8::from(last);
    let seed = xxhash_rust::xxh3::xxh3_64(&place);
    xxhash_rust::xxh3::xxh3_128_with_seed(&data[from..end], seed)
}

/// Deflated bands of recent pictures by [`band_key`], for [`zlib_rows_reusing`]: two
/// generations of at most [`KEPT_BYTES`] each; a band found in the older is moved to the
/// newer, and the older is dropped when the newer is full. Shared by the threads that draw.
pub(crate) struct KeptBands {
    gens: std::sync::Mutex<Generations>,
}

/// The bands kept from the pictures this process drew, for [`encode_rows`].
static KEPT: std::sync::LazyLock<KeptBands> = std::sync::LazyLock::new(KeptBands::new);

thread_local! {
    /// Whether [`encode_rows`] on this thread reuses kept bands; the benchmark turns it off
    /// to time the encoder itself (its pictures repeat, so every band would be found).
    static REUSE: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// The zlib stream of a picture's rows ([`zlib_rows_reusing`]), reusing the bands of the
/// pictures drawn before (unless [`without_reuse`] says not to).
pub(crate) fn encode_rows(data: &[u8], stride: usize) -> Vec<u8> {
    let kept = REUSE.with(std::cell::Cell::get).then_some(&*KEPT);
    zlib_rows_reusing(data, stride, kept)
}

/// Runs `f` with [`encode_rows`] deflating every band afresh on this thread.
pub(crate) fn without_reuse<T>(f: impl FnOnce() -> T) -> T {
    let before = REUSE.with(|r| r.replace(false));
    let out = f();
    REUSE.with(|r| r.set(before));
    out
}

/// Forgets the kept bands.
pub(crate) fn clear_kept() {
    KEPT.clear();
}

/// The bytes of the kept bands, both generations.
pub(crate) fn kept_band_bytes() -> usize {
    let g = KEPT.lock();
    g.new
        .values()
        .chain(g.old.values())
        .map(|b| b.bytes.len())
        .sum()
}

/// Bytes of deflated bands a generation of [`KeptBands`] holds: its share of the picture
/// caches' budget ([`super::budget`]; 8 MB of the default 64, about 80 KFB pictures).
fn kept_bytes() -> usize {
    super::budget::share(super::budget::Part::BandGeneration)
}

#[derive(Default)]
struct Generations {
    new: rustc_hash::FxHashMap<u128, std::sync::Arc<Band>>,
    old: rustc_hash::FxHashMap<u128, std::sync::Arc<Band>>,
    bytes: usize,
}

/// A deflated band: its bytes in the stream and the Adler-32 of its rows.
struct Band {
    bytes: Box<[u8]>,
    adler: u32,
}

impl KeptBands {
    pub(crate) fn new() -> KeptBands {
        KeptBands {
            gens: std::sync::Mutex::new(Generations::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        // A panic elsewhere cannot leave the maps inconsistent: each change is one insert.
        self.gens.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: u128) -> Option<std::sync::Arc<Band>> {
        let mut g = self.lock();
        if let Some(b) = g.new.get(&key) {
            return Some(b.clone());
        }
        let b = g.old.remove(&key)?;
        g.insert(key, b.clone());
        Some(b)
    }

    fn put(&self, key: u128, bytes: &[u8], adler: u32) {
        let band = Band {
            bytes: bytes.into(),
            adler,
        };
        self.lock().insert(key, std::sync::Arc::new(band));
    }

    /// Forgets every band.
    pub(crate) fn clear(&self) {
        *self.lock() = Generations::default();
    }
}

impl Generations {
    fn insert(&mut self, key: u128, band: std::sync::Arc<Band>) {
        if self.bytes + band.bytes.len() > kept_bytes() {
            self.old = std::mem::take(&mut self.new);
            self.bytes = 0;
        }
        self.bytes += band.bytes.len();
        self.new.insert(key, band);
    }
}

impl Encoder {
    /// Deflates the band `start..` of `data` (which ends where the band does), with matches
    /// reaching back no further than the row above `start` (`table` may hold positions before
    /// `start`: they are not used), and ends it on a byte boundary: with the final block if
    /// `last`, else with an empty stored block.
    fn band(&mut self, data: &[u8], start: usize, stride: usize, last: bool, table: &mut [u32]) {
        let row_up = (2..=WINDOW).contains(&stride);
        let n = data.len();
        let mut block_start = start;
        let mut p = start;
        // The next position's hash candidate and its first eight bytes, loaded one position
        // ahead (see below).
        let (mut pre_p, mut pre_c, mut pre_x) = (usize::MAX, 0, 0);
        while p < n {
            let max = MAX_MATCH.min(n - p);
            let (mut best, mut dist) = (0, 0);
            if p >= 1 && max >= 8 {
                // The three candidates' first eight bytes at once, without branches; only one
                // that matches all eight is followed further (seldom a second).
                let here = read8(data, p);
                let up = row_up && p >= stride;
                let x_up = (here ^ read8(data, if up { p - stride } else { p - 1 })) | mask(!up);
                let x_run = here ^ read8(data, p - 1);
                // The row above or a run going on for a good while is taken without asking the
                // hash (most of a picture: the table and the data it points into are cold).
                let (l_up, l_run) = (
                    (x_up.trailing_zeros() / 8) as usize,
                    (x_run.trailing_zeros() / 8) as usize,
                );
                let quick = if l_up == 8 {
                    Some((8 + match_len(data, p - stride + 8, p + 8, max - 8), stride))
                } else if l_run == 8 {
                    Some((8 + match_len(data, p + 7, p + 8, max - 8), 1))
                } else {
                    None
                };
                if let Some((l, d)) = quick.filter(|&(l, _)| l >= QUICK) {
                    p += l;
                    self.push_match(l, d, data, &mut block_start, p);
                    continue;
                }
                let h = hash4(here as u32);
                let (c, there) = if pre_p == p {
                    (pre_c, pre_x)
                } else {
                    let c = table[h] as usize;
                    (c, read8(data, if c < p { c } else { p - 1 }))
                };
                table[h] = p as u32;
                // On anti-aliased edges most positions are literals, and whether one is a literal
                // is hard to predict: the loads for the next position (its table entry, then the
                // data it points to, both mostly from the core's second-level cache) start here,
                // before that is known, instead of after (5% faster on KFB).
                if p + 9 <= n {
                    let h1 = hash4((here >> 8) as u32);
                    let c1 = if h1 == h { p } else { table[h1] as usize };
                    (pre_p, pre_c, pre_x) = (p + 1, c1, read8(data, c1.min(p)));
                }
                let near = c >= start && c < p && p - c <= WINDOW;
                let x_h = (here ^ there) | mask(!near);
                let l_h = (x_h.trailing_zeros() / 8) as usize;
                let l_h = if l_h >= 4 { l_h } else { 0 };
                (best, dist) = (l_up, stride);
                if l_run > best {
                    (best, dist) = (l_run, 1);
                }
                if l_h > best {
                    (best, dist) = (l_h, p.wrapping_sub(c));
                }
                if best == 8 {
                    best = 8 + match_len(data, p - dist + 8, p + 8, max - 8);
                    if best < GOOD_ENOUGH {
                        for (l, d) in [(l_run, 1), (l_h, p.wrapping_sub(c))] {
                            if l == 8 && d != dist {
                                let m = 8 + match_len(data, p - d + 8, p + 8, max - 8);
                                if m > best {
                                    (best, dist) = (m, d);
                                }
                            }
                        }
                    }
                }
            } else if max >= 3 {
                if row_up && p >= stride {
                    best = match_len(data, p - stride, p, max);
                    dist = stride;
                }
                if best < max && p >= 1 && data[p] == data[p - 1] {
                    let l = match_len(data, p - 1, p, max);
                    if l > best {
                        (best, dist) = (l, 1);
                    }
                }
                if best < GOOD_ENOUGH && max >= 4 {
                    let h = hash4(read4(data, p));
                    let c = table[h] as usize;
                    table[h] = p as u32;
                    if c >= start && c < p && p - c <= WINDOW {
                        let l = match_len(data, c, p, max);
                        if l > best && l >= 4 {
                            (best, dist) = (l, p - c);
                        }
                    }
                }
            }
            if best >= 3 {
                p += best;
                self.push_match(best, dist, data, &mut block_start, p);
            } else {
                p += 1;
                self.push(
                    u32::from(data[p - 1]) | NO_DIST << 9,
                    data,
                    &mut block_start,
                    p,
                );
            }
        }
        self.block(&data[block_start..], last);
        if last {
            self.out.align();
        } else {
            self.stored(&[], false);
        }
    }
}

/// A token is `a | d << 9 | x << 14`: `a` is a literal byte, or 256 + the match length - 3;
/// `d` is the distance symbol, or `NO_DIST` for a literal; `x` the distance's extra bits.
const NO_DIST: u32 = DIST_CODES as u32;

#[inline]
fn read4(data: &[u8], i: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&data[i..i + 4]);
    u32::from_le_bytes(b)
}

#[inline]
fn read8(data: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&data[i..i + 8]);
    u64::from_le_bytes(b)
}

/// All ones if `b`, else zero.
#[inline]
fn mask(b: bool) -> u64 {
    u64::from(b).wrapping_neg()
}

#[inline]
fn hash4(x: u32) -> usize {
    (x.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// How many bytes (at most `max`) from `b` equal those from `a` (`a < b`, `b + max <= len`).
///
/// The two stretches are taken as slices once, and walked in whole chunks, so that no read
/// in the loops needs a bounds check of its own (5% of the encoder's time on KFB).
#[inline(always)]
fn match_len(data: &[u8], a: usize, b: usize, max: usize) -> usize {
    let (x, y) = (&data[a..a + max], &data[b..b + max]);
    let mut l = 0;
    // Long equal stretches (whole rows) 32 bytes a step: the slices' comparison is vectorised.
    for (p, q) in x.chunks_exact(32).zip(y.chunks_exact(32)) {
        if p != q {
            break;
        }
        l += 32;
    }
    for (p, q) in x[l..].chunks_exact(8).zip(y[l..].chunks_exact(8)) {
        let d = word(p) ^ word(q);
        if d != 0 {
            return l + (d.trailing_zeros() / 8) as usize;
        }
        l += 8;
    }
    l + x[l..]
        .iter()
        .zip(&y[l..])
        .take_while(|(p, q)| p == q)
        .count()
}

/// The little-endian word of an 8-byte chunk.
#[inline(always)]
fn word(chunk: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(chunk);
    u64::from_le_bytes(b)
}

/// Bits written least significant first, as deflate wants them.
struct BitWriter {
    bytes: Vec<u8>,
    buf: u64,
    n: u32,
}

impl BitWriter {
    fn with_capacity(c: usize) -> BitWriter {
        BitWriter {
            bytes: Vec::with_capacity(c),
            buf: 0,
            n: 0,
        }
    }

    /// Writes the low `n` bits of `bits` (`n <= 32`, higher bits zero).
    #[inline]
    fn put(&mut self, bits: u32, n: u32) {
        self.buf |= u64::from(bits) << self.n;
        self.n += n;
        if self.n >= 32 {
            self.bytes
                .extend_from_slice(&(self.buf as u32).to_le_bytes());
            self.buf >>= 32;
            self.n -= 32;
        }
    }

    /// Writes the bits of `tokens` (see [`NO_DIST`]) by the tables of their parts: `a_tab`
    /// (bits, count) and `d_tab` (code, code length, count with the extra bits).
    fn tokens(&mut self, tokens: &[u32], a_tab: &[(u32, u32); 512], d_tab: &[(u32, u32, u32)]) {
        // Whole bytes out first, so that fewer than 8 bits wait; a token has at most 48 bits
        // (15 + 5 + 15 + 13), so the 64-bit buffer never overflows, and 8 bytes are stored
        // after each token (the spare ones are overwritten by the next).
        let whole = self.n / 8;
        self.bytes
            .extend_from_slice(&self.buf.to_le_bytes()[..whole as usize]);
        let (mut acc, mut n) = (self.buf >> (8 * whole), self.n % 8);
        let mut pos = self.bytes.len();
        self.bytes.resize(pos + 6 * tokens.len() + 8, 0);
        let out = &mut self.bytes[..];
        for &t in tokens {
            let (ab, an) = a_tab[(t & 0x1FF) as usize];
            let (db, dl, dn) = d_tab[((t >> 9) & 0x1F) as usize];
            acc |= u64::from(ab) << n;
            n += an;
            acc |= u64::from(db | (t >> 14) << dl) << n;
            n += dn;
            out[pos..pos + 8].copy_from_slice(&acc.to_le_bytes());
            let k = n / 8;
            pos += k as usize;
            acc >>= 8 * k;
            n %= 8;
        }
        self.bytes.truncate(pos);
        self.buf = acc;
        self.n = n;
    }

    /// Pads with zero bits to a byte boundary and writes out every whole byte.
    fn align(&mut self) {
        let bytes = self.n.div_ceil(8);
        self.bytes
            .extend_from_slice(&self.buf.to_le_bytes()[..bytes as usize]);
        self.buf = 0;
        self.n = 0;
    }
}

struct Encoder {
    out: BitWriter,
    tokens: Vec<u32>,
    /// Token counts by `a` (literal, or 256 + length - 3).
    sym_freq: [u32; 512],
    /// Matches by distance symbol.
    dist_freq: [u32; DIST_CODES],
}

/// A Huffman code: per symbol its code (bit-reversed, ready to write) and length.
struct Code<const N: usize> {
    code: [u16; N],
    len: [u8; N],
}

impl<const N: usize> Code<N> {
    /// The length-limited Huffman code of `freq` (which must have two or more used symbols).
    fn new(freq: &[u32; N], limit: usize) -> Code<N> {
        let mut len = [0u8; N];
        huffman_lengths(freq, limit, &mut len);
        let mut code = [0u16; N];
        canonical_codes(&len, &mut code);
        Code { code, len }
    }
}

impl Encoder {
    /// Adds a match of `len` bytes at distance `dist` that ends at `p` (see [`Encoder::push`]),
    /// counting its distance symbol.
    #[inline(always)]
    fn push_match(
        &mut self,
        len: usize,
        dist: usize,
        data: &[u8],
        block_start: &mut usize,
        p: usize,
    ) {
        let (ds, _, dx) = dist_code(dist);
        self.dist_freq[ds] += 1;
        let t = (256 + len as u32 - 3) | (ds as u32) << 9 | dx << 14;
        self.push(t, data, block_start, p);
    }

    /// Adds a token that ends at `p`, and writes the block so far (from `block_start`) when
    /// it is full and data is left. A match's distance symbol is counted by
    /// [`Encoder::push_match`] (so that runs of literals do not count one cell of memory over
    /// and over).
    #[inline]
    fn push(&mut self, t: u32, data: &[u8], block_start: &mut usize, p: usize) {
        self.sym_freq[(t & 0x1FF) as usize] += 1;
        self.tokens.push(t);
        if self.tokens.len() >= BLOCK_TOKENS && p < data.len() {
            self.block(&data[*block_start..p], false);
            *block_start = p;
        }
    }

    /// Writes the tokens gathered (whose bytes are `raw`) as one block, or as stored blocks
    /// when those are smaller, and starts the next block's statistics.
    fn block(&mut self, raw: &[u8], last: bool) {
        let mut lit_freq = [0u32; LIT_CODES];
        lit_freq[..256].copy_from_slice(&self.sym_freq[..256]);
        lit_freq[256] = 1;
        for (l, &f) in self.sym_freq[256..].iter().enumerate() {
            lit_freq[257 + LEN_CODE[l].0 as usize] += f;
        }
        let mut dist_freq = self.dist_freq;
        // Deflate decoders want complete codes: give an unused alphabet two symbols.
        for f in [&mut lit_freq[..], &mut dist_freq[..]] {
            let used = f.iter().filter(|&&x| x > 0).count();
            if used < 2 {
                let i = usize::from(f[0] > 0);
                f[i] = 1;
                if used == 0 {
                    f[1 - i] = 1;
                }
            }
        }
        let lit = Code::new(&lit_freq, 15);
        let dist = Code::new(&dist_freq, 15);
        let hlit = 257
            + lit_freq[257..]
                .iter()
                .rposition(|&f| f > 0)
                .map_or(0, |i| i + 1);
        let hdist = 1 + dist_freq.iter().rposition(|&f| f > 0).unwrap_or(0);

        // The code lengths, run-length coded: (symbol, extra bits value).
        let mut lens = [0u8; LIT_CODES + DIST_CODES];
        lens[..hlit].copy_from_slice(&lit.len[..hlit]);
        lens[hlit..hlit + hdist].copy_from_slice(&dist.len[..hdist]);
        let rle = rle_lengths(&lens[..hlit + hdist]);
        let mut cl_freq = [0u32; CL_CODES];
        for &(s, _) in &rle {
            cl_freq[s as usize] += 1;
        }
        if cl_freq.iter().filter(|&&x| x > 0).count() < 2 {
            let i = usize::from(cl_freq[0] > 0);
            cl_freq[i] += 1;
        }
        let cl = Code::new(&cl_freq, 7);
        let hclen = 4 + CL_ORDER
            .iter()
            .rposition(|&s| cl.len[s] > 0)
            .map_or(0, |i| i + 1)
            .saturating_sub(4);

        // Size of the dynamic block in bits, against stored blocks.
        let extra_bits = |f: &[u32], table_bits: &dyn Fn(usize) -> u64| -> u64 {
            f.iter()
                .enumerate()
                .map(|(i, &x)| u64::from(x) * table_bits(i))
                .sum()
        };
        let mut bits = 3 + 14 + 3 * hclen as u64;
        for &(s, _) in &rle {
            bits += u64::from(cl.len[s as usize])
                + match s {
                    16 => 2,
                    17 => 3,
                    18 => 7,
                    _ => 0,
                };
        }
        bits += extra_bits(&lit_freq, &|i| {
            let e = if (265..285).contains(&i) {
                (i as u64 - 261) / 4
            } else {
                0
            };
            u64::from(lit.len[i]) + e
        });
        bits += extra_bits(&dist_freq, &|i| {
            u64::from(dist.len[i]) + if i >= 4 { i as u64 / 2 - 1 } else { 0 }
        });
        let chunks = raw.len().div_ceil(0xFFFF).max(1) as u64;
        let stored_bits = chunks * (3 + 7 + 32) + 8 * raw.len() as u64;

        if stored_bits < bits {
            self.stored(raw, last);
        } else {
            let out = &mut self.out;
            out.put(u32::from(last) | 2 << 1, 3);
            out.put(
                (hlit as u32 - 257) | (hdist as u32 - 1) << 5 | (hclen as u32 - 4) << 10,
                14,
            );
            for &s in &CL_ORDER[..hclen] {
                out.put(u32::from(cl.len[s]), 3);
            }
            for &(s, x) in &rle {
                let s = s as usize;
                out.put(u32::from(cl.code[s]), u32::from(cl.len[s]));
                match s {
                    16 => out.put(u32::from(x), 2),
                    17 => out.put(u32::from(x), 3),
                    18 => out.put(u32::from(x), 7),
                    _ => {}
                }
            }
            // Each token's bits by table: `a` (a literal's code, or a length's code and extra
            // bits) and `d` (a distance's code, shifted for its extra bits; nothing for a
            // literal).
            let mut a_tab = [(0u32, 0u32); 512];
            for (i, e) in a_tab.iter_mut().enumerate() {
                *e = if i < 256 {
                    (u32::from(lit.code[i]), u32::from(lit.len[i]))
                } else {
                    let l = i - 256;
                    let (sym, eb) = LEN_CODE[l];
                    let s = 257 + sym as usize;
                    let ll = u32::from(lit.len[s]);
                    let extra = l as u32 & ((1 << eb) - 1);
                    (u32::from(lit.code[s]) | extra << ll, ll + u32::from(eb))
                };
            }
            let mut d_tab = [(0u32, 0u32, 0u32); DIST_CODES + 1];
            for (i, e) in d_tab[..DIST_CODES].iter_mut().enumerate() {
                let eb = if i >= 4 { i as u32 / 2 - 1 } else { 0 };
                let dl = u32::from(dist.len[i]);
                *e = (u32::from(dist.code[i]), dl, dl + eb);
            }
            out.tokens(&self.tokens, &a_tab, &d_tab);
            out.put(u32::from(lit.code[256]), u32::from(lit.len[256]));
        }
        self.tokens.clear();
        self.sym_freq = [0; 512];
        self.dist_freq = [0; DIST_CODES];
    }

    /// Writes `raw` as stored blocks (at most 65535 bytes each).
    fn stored(&mut self, raw: &[u8], last: bool) {
        let mut chunks = raw.chunks(0xFFFF).peekable();
        if raw.is_empty() {
            self.out.put(u32::from(last), 3);
            self.out.align();
            self.out.bytes.extend_from_slice(&[0, 0, 0xFF, 0xFF]);
            return;
        }
        while let Some(c) = chunks.next() {
            let fin = last && chunks.peek().is_none();
            self.out.put(u32::from(fin), 3);
            self.out.align();
            let len = c.len() as u16;
            self.out.bytes.extend_from_slice(&len.to_le_bytes());
            self.out.bytes.extend_from_slice(&(!len).to_le_bytes());
            self.out.bytes.extend_from_slice(c);
        }
    }
}

/// The code lengths `lens` run-length coded with symbols 16 (repeat the previous length 3-6
/// times), 17 (3-10 zeros) and 18 (11-138 zeros): (symbol, extra bits value).
fn rle_lengths(lens: &[u8]) -> Vec<(u8, u8)> {
    let mut out = Vec::with_capacity(lens.len());
    let mut i = 0;
    while i < lens.len() {
        let v = lens[i];
        let mut r = lens[i..].iter().take_while(|&&x| x == v).count();
        i += r;
        if v == 0 {
            while r >= 11 {
                let c = r.min(138);
                out.push((18, (c - 11) as u8));
                r -= c;
            }
            if r >= 3 {
                out.push((17, (r - 3) as u8));
                r = 0;
            }
        } else {
            out.push((v, 0));
            r -= 1;
            while r >= 3 {
                let c = r.min(6);
                out.push((16, (c - 3) as u8));
                r -= c;
            }
        }
        out.extend(std::iter::repeat_n((v, 0), r));
    }
    out
}

/// Huffman code lengths of `freq` limited to `limit` bits, into `len` (zero for unused
/// symbols). With fewer than two used symbols, a used symbol gets length 1.
fn huffman_lengths(freq: &[u32], limit: usize, len: &mut [u8]) {
    // Fixed-size scratch on the stack (no alphabet is larger than the literal/length one),
    // the leaves packed as `freq << 16 | symbol` so that one integer sort orders them: a
    // block's codes are made in a few microseconds, which matters with a block per band.
    const MAX: usize = LIT_CODES;
    let mut leaves = [0u64; MAX];
    let mut n = 0;
    for (i, &f) in freq.iter().enumerate().take(MAX) {
        if f > 0 {
            leaves[n] = u64::from(f) << 16 | i as u64;
            n += 1;
        }
    }
    let leaves = &mut leaves[..n];
    if n < 2 {
        if let Some(&l) = leaves.first() {
            len[(l & 0xFFFF) as usize] = 1;
        }
        return;
    }
    leaves.sort_unstable();
    // Two queues: the leaves by weight, and the internal nodes (made in weight order).
    // Nodes 0..n are the leaves, n..2n-1 the internal nodes; the root is the last.
    let mut weight = [0u64; 2 * MAX];
    for (w, &l) in weight.iter_mut().zip(leaves.iter()) {
        *w = l >> 16;
    }
    let mut parent = [0u16; 2 * MAX];
    let (mut i, mut j) = (0, n);
    for k in n..2 * n - 1 {
        let mut pick = || {
            if i < n && (j >= k || weight[i] <= weight[j]) {
                i += 1;
                i - 1
            } else {
                j += 1;
                j - 1
            }
        };
        let (a, b) = (pick(), pick());
        weight[k] = weight[a] + weight[b];
        parent[a] = k as u16;
        parent[b] = k as u16;
    }
    // Depths, from the root down (a parent comes after its children).
    let mut depth = [0u8; 2 * MAX];
    for k in (0..2 * n - 2).rev() {
        depth[k] = depth[usize::from(parent[k])].saturating_add(1);
    }
    let mut count = [0usize; 16];
    for &d in &depth[..n] {
        count[usize::from(d).min(limit)] += 1;
    }
    // Clamping made the code over-full: move leaves down until the Kraft sum is one again.
    let mut total: usize = (1..=limit).map(|l| count[l] << (limit - l)).sum();
    while total > 1 << limit {
        count[limit] -= 1;
        if let Some(l) = (1..limit).rev().find(|&l| count[l] != 0) {
            count[l] -= 1;
            count[l + 1] += 2;
        }
        total -= 1;
    }
    // The rarest symbols get the longest codes.
    let mut it = leaves.iter();
    for l in (1..=limit).rev() {
        for _ in 0..count[l] {
            if let Some(&leaf) = it.next() {
                len[(leaf & 0xFFFF) as usize] = l as u8;
            }
        }
    }
}

/// Canonical Huffman codes (RFC 1951, 3.2.2) of the lengths `len`, bit-reversed for writing.
fn canonical_codes(len: &[u8], code: &mut [u16]) {
    let mut count = [0u16; 16];
    for &l in len {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u16; 16];
    let mut c = 0u16;
    for b in 1..16 {
        c = (c + count[b - 1]) << 1;
        next[b] = c;
    }
    for (s, &l) in len.iter().enumerate() {
        if l > 0 {
            let v = next[l as usize];
            next[l as usize] += 1;
            code[s] = v.reverse_bits() >> (16 - l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::io::Read;

    fn inflate(z: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(z)
            .read_to_end(&mut out)
            .expect("a valid zlib stream");
        out
    }

    fn round_trip(data: &[u8], stride: usize) -> usize {
        let z = zlib_rows(data, stride);
        assert_eq!(inflate(&z), data, "stride {stride}, {} bytes", data.len());
        z.len()
    }

    /// A tiny deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Picture-like PNG rows: flat squares of two colours, a border, and a "glyph" (a small
    /// block of varied indices) stamped on several squares, with anti-aliased-looking noise on
    /// its edges.
    fn picture(width: usize, height: usize, seed: u64) -> Vec<u8> {
        let mut rng = Rng(seed | 1);
        let sq = 37;
        let glyph: Vec<u8> = (0..sq * sq).map(|_| 2 + rng.below(40) as u8).collect();
        let mut data = Vec::with_capacity((width + 1) * height);
        for y in 0..height {
            data.push(0);
            for x in 0..width {
                let (fx, fy) = (x / sq, y / sq);
                let base = if (fx + fy) % 2 == 0 { 0 } else { 1 };
                let (gx, gy) = (x % sq, y % sq);
                let on_glyph = (fx * 7 + fy * 3) % 5 == 0 && gx > 4 && gy > 4 && gx < 32;
                let v = if x < 3 || y < 3 {
                    200
                } else if on_glyph && (gx + gy) % 9 < 5 {
                    glyph[gy * sq + gx]
                } else {
                    base
                };
                data.push(v);
            }
        }
        data
    }

    #[test]
    fn tables_match_rfc1951() {
        assert_eq!(LEN_CODE[0], (0, 0)); // length 3: symbol 257
        assert_eq!(LEN_CODE[10 - 3], (7, 0)); // 10: 264
        assert_eq!(LEN_CODE[11 - 3], (8, 1)); // 11-12: 265
        assert_eq!(LEN_CODE[13 - 3], (9, 1)); // 13-14: 266
        assert_eq!(LEN_CODE[19 - 3], (12, 2)); // 19-22: 269
        assert_eq!(LEN_CODE[130 - 3], (23, 4)); // 115-130: 280
        assert_eq!(LEN_CODE[227 - 3], (27, 5)); // 227-257: 284
        assert_eq!(LEN_CODE[257 - 3], (27, 5));
        assert_eq!(LEN_CODE[258 - 3], (28, 0)); // 258: 285
        assert_eq!(dist_code(1), (0, 0, 0));
        assert_eq!(dist_code(4), (3, 0, 0));
        assert_eq!(dist_code(5), (4, 1, 0));
        assert_eq!(dist_code(8), (5, 1, 1));
        assert_eq!(dist_code(24576), (28, 13, 8191));
        assert_eq!(dist_code(24577), (29, 13, 0));
        assert_eq!(dist_code(32768), (29, 13, 8191));
    }

    #[test]
    fn huffman_lengths_are_limited_and_complete() {
        // Fibonacci weights make the unlimited code 40 deep.
        let mut freq = [0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut() {
            *f = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7, 15] {
            let mut len = [0u8; 40];
            huffman_lengths(&freq, limit, &mut len);
            assert!(len.iter().all(|&l| (1..=limit as u8).contains(&l)));
            let kraft: f64 = len.iter().map(|&l| 0.5f64.powi(l.into())).sum();
            assert!((kraft - 1.0).abs() < 1e-12, "limit {limit}: {kraft}");
        }
    }

    #[test]
    fn empty_and_tiny_inputs() {
        round_trip(&[], 0);
        round_trip(&[], 1825);
        round_trip(&[7], 1);
        round_trip(&[0, 5], 2);
        round_trip(&[0, 5, 0, 5], 2);
        round_trip(&[0, 1, 2, 0, 1, 2, 0, 1, 2], 3);
    }

    #[test]
    fn all_zero_megabyte() {
        let data = vec![0u8; 1 << 20];
        for stride in [1, 1825] {
            let n = round_trip(&data, stride);
            assert!(n < 6_000, "{n} bytes");
        }
    }

    #[test]
    fn random_bytes_grow_little() {
        let mut rng = Rng(0x1234_5678);
        let data: Vec<u8> = (0..300_000).map(|_| rng.next() as u8).collect();
        let n = round_trip(&data, 1825);
        assert!(n <= data.len() + data.len() / 1000 + 64, "{n} bytes");
    }

    #[test]
    fn structured_rows_round_trip() {
        for (w, h) in [(0, 50), (6, 300), (1824, 120), (39_999, 6)] {
            let data = picture(w, h, 7);
            round_trip(&data, w + 1);
        }
    }

    #[test]
    fn picture_like_rows_compress_well() {
        let data = picture(1824, 400, 3);
        let n = round_trip(&data, 1825);
        // Glyph pixels are random; everything else repeats.
        assert!(n * 20 < data.len(), "{n} of {} bytes", data.len());
        // No worse than zlib's fastest level on the same data.
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(1));
        std::io::Write::write_all(&mut z, &data).expect("in memory");
        let level1 = z.finish().expect("in memory").len();
        assert!(n <= level1, "{n} vs zlib level 1 {level1}");
    }

    #[test]
    fn kept_bands_give_the_same_stream() {
        let (width, height) = (1200, 400);
        let stride = width + 1;
        let a = picture(width, height, 11);
        let cut = bands(a.len(), stride);
        assert!(cut.len() >= 5, "{cut:?}");
        // The next picture differs in the last row of the second band (so the third band's
        // row above differs, not its own rows) and in one row of the fourth band.
        let mut b = a.clone();
        let mut rng = Rng(5);
        for (start, end) in [
            (cut[1].1 - stride, cut[1].1),
            (cut[3].0 + 7 * stride, cut[3].0 + 8 * stride),
        ] {
            for v in &mut b[start + 1..end] {
                *v = rng.below(50) as u8;
            }
        }
        let kept = KeptBands::new();
        let zb = zlib_rows_reusing(&b, stride, Some(&kept));
        assert_eq!(zb, zlib_rows(&b, stride));
        let key = |k: usize| {
            let (s, e) = cut[k];
            band_key(&a, stride, s, e, e == a.len())
        };
        // What `a` can take from `b`: the bands whose rows and row above are the same.
        let found: Vec<bool> = (0..cut.len()).map(|k| kept.get(key(k)).is_some()).collect();
        let mut expected = vec![true; cut.len()];
        for k in [1, 2, 3] {
            expected[k] = false;
        }
        assert_eq!(found, expected);
        let za = zlib_rows_reusing(&a, stride, Some(&kept));
        assert_eq!(za, zlib_rows(&a, stride), "kept bands change the stream");
        assert_eq!(inflate(&za), a);
        // Every band of `a` is kept now: encoding it again copies them all.
        assert!((0..cut.len()).all(|k| kept.get(key(k)).is_some()));
        assert_eq!(zlib_rows_reusing(&a, stride, Some(&kept)), za);
    }

    #[test]
    fn kept_bands_are_bounded() {
        let kept = KeptBands::new();
        let band = vec![7u8; 1 << 20];
        #[allow(non_snake_case)]
        let KEPT_BYTES = kept_bytes();
        let bands = ((3 * KEPT_BYTES) >> 20) as u128;
        for k in 0..bands {
            kept.put(k, &band, 1);
        }
        let g = kept.lock();
        assert!(g.bytes <= KEPT_BYTES);
        let held: usize = g
            .new
            .values()
            .chain(g.old.values())
            .map(|b| b.bytes.len())
            .sum();
        assert!(held <= 2 * KEPT_BYTES, "{held}");
        drop(g);
        // The newest band is there, the first long gone.
        assert!(kept.get(bands - 1).is_some());
        assert!(kept.get(0).is_none());
    }

    proptest! {
        /// The Adler-32 of two pieces put together is the Adler-32 of the whole, whatever
        /// the cut (lengths past the modulus included).
        #[test]
        fn adler_of_pieces_put_together(
            len in 0usize..200_000,
            seed in any::<u64>(),
            cut in 0.0f64..=1.0,
        ) {
            // Random bytes, or (for some seeds) all 255, which makes the sums largest.
            let mut rng = Rng(seed);
            let data: Vec<u8> = (0..len)
                .map(|_| if seed % 4 == 0 { 255 } else { rng.below(256) as u8 })
                .collect();
            let k = (data.len() as f64 * cut) as usize;
            let (a, b) = data.split_at(k);
            prop_assert_eq!(adler32_combine(adler32(a), adler32(b), b.len()), adler32(&data));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        /// A game's pictures one after the other, each a few rectangles different from the
        /// one before, encoded with the bands kept: each stream is the one made afresh.
        #[test]
        fn pictures_in_turn_encode_as_afresh(
            width in 300usize..700,
            edits in proptest::collection::vec(
                proptest::collection::vec((0usize..700, 0usize..300, 1usize..80, 1usize..40, any::<u8>()), 1..4),
                1..5,
            ),
        ) {
            let height = 300;
            let stride = width + 1;
            let mut data = picture(width, height, 3);
            let kept = KeptBands::new();
            for picture_edits in edits {
                for (x, y, w, h, v) in picture_edits {
                    for row in y.min(height - 1)..(y + h).min(height) {
                        let at = row * stride + 1;
                        for col in x.min(width - 1)..(x + w).min(width) {
                            data[at + col] = v;
                        }
                    }
                }
                let z = zlib_rows_reusing(&data, stride, Some(&kept));
                prop_assert_eq!(&z, &zlib_rows(&data, stride));
                prop_assert_eq!(inflate(&z), data.clone());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn arbitrary_bytes_round_trip(
            pieces in proptest::collection::vec((any::<u8>(), 1usize..600, any::<bool>()), 0..40),
            stride in 0usize..2000,
        ) {
            // Runs and copies of earlier bytes, mixed with random bytes.
            let mut data: Vec<u8> = Vec::new();
            for (b, n, copy) in pieces {
                if copy && !data.is_empty() {
                    let from = (b as usize * 131) % data.len();
                    for i in 0..n {
                        let v = data[from + i % (data.len() - from)];
                        data.push(v);
                    }
                } else if n % 3 == 0 {
                    data.extend((0..n).map(|i| b.wrapping_add((i * 7) as u8)));
                } else {
                    data.extend(std::iter::repeat_n(b, n));
                }
            }
            let z = zlib_rows(&data, stride);
            prop_assert_eq!(inflate(&z), data);
        }

        #[test]
        fn long_runs_round_trip(runs in proptest::collection::vec((0u8..4, 1usize..100_000), 1..8),
                                stride in 1usize..70_000) {
            let data: Vec<u8> = runs.iter().flat_map(|&(b, n)| std::iter::repeat_n(b, n)).collect();
            let z = zlib_rows(&data, stride);
            prop_assert_eq!(inflate(&z), data);
        }
    }

    /// Times the encoders on the rows of two pictures the renderer draws by itself (a board
    /// of Different Armies and the example standings table; every game's own pictures are
    /// timed by `arbiter render-bench`):
    /// `cargo test --release --lib deflate::tests::timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing() {
        use crate::render::{canvas::Canvas, RenderError};
        let pos = crate::engine::position_of("kcwda:clobberers-nutty", None).unwrap();
        let table = crate::render::table::example_table();
        #[allow(clippy::type_complexity)]
        let pictures: Vec<(&str, Box<dyn Fn() -> Result<Canvas, RenderError>>)> = vec![
            (
                "board",
                Box::new(|| {
                    crate::render::draw_position(
                        &pos,
                        None,
                        &crate::render::RenderOptions::default(),
                    )
                }),
            ),
            (
                "table",
                Box::new(|| crate::render::table::draw_table(&table)),
            ),
        ];
        for (name, draw) in pictures {
            let c = draw().unwrap();
            let (rows, stride) = c.rows();
            let best = |f: &dyn Fn() -> usize| {
                let mut t = f64::MAX;
                let mut n = 0;
                for _ in 0..30 {
                    let s = std::time::Instant::now();
                    n = f();
                    t = t.min(s.elapsed().as_secs_f64() * 1e3);
                }
                (t, n)
            };
            let (t_lz, n_lz) = best(&|| zlib_rows(rows, stride).len());
            // The same rows again with every band kept (hashing and copying only).
            let kept = KeptBands::new();
            let (t_kept, _) = best(&|| zlib_rows_reusing(rows, stride, Some(&kept)).len());
            let (t_z, n_z) = best(&|| {
                let mut f = rows.to_vec();
                for r in (1..f.len() / stride).rev() {
                    for i in 1..stride {
                        f[r * stride + i] = f[r * stride + i].wrapping_sub(f[(r - 1) * stride + i]);
                    }
                }
                let mut z = flate2::Compress::new(flate2::Compression::new(1), true);
                let mut out = Vec::with_capacity(f.len());
                z.compress_vec(&f, &mut out, flate2::FlushCompress::Finish)
                    .unwrap();
                out.len()
            });
            println!(
                "{name}: this encoder {t_lz:.3} ms {n_lz} B (every band kept: {t_kept:.3} ms); \
                 zlib L1 on Up-filtered rows {t_z:.3} ms {n_z} B"
            );
        }
    }
}

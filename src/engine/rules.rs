//! Rule sets: a variant is a configuration of the one engine (geometry, armies, check or king
//! capture, drops), compiled once into move tables for its board.

use std::sync::Arc;

use super::geometry::{Geometry, Square};
use super::piece::{ArmyId, Catalog, CatalogError, Kind};

/// Most sides (players or armies) one board can hold.
pub const MAX_SIDES: usize = 16;

/// A side on the board: 0 moves up the board (white), 1 moves down (black); more sides for
/// many-player games.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Side(pub u8);

impl Side {
    /// The side that moves up the board.
    pub const WHITE: Side = Side(0);
    /// The side that moves down the board.
    pub const BLACK: Side = Side(1);
    /// Index for arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a king is protected.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RuleSet {
    /// No move may leave one's own king attacked; castling not out of, through or into check.
    Orthodox,
    /// Kings are captured like other pieces (KFB rules 1.4); a side without a king on the
    /// board may only drop a king (the frozen board of KFB rules 1.5).
    KingCapture,
}

/// Where captured pieces go.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CaptureFate {
    /// They leave this board (bughouse: the game routes them to another board's hand).
    LeaveBoard,
    /// They go to the capturer's own hand (crazyhouse).
    CapturerHand,
}

/// Drop rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct DropRules {
    /// Whether pieces in hand may be dropped at all.
    pub enabled: bool,
    /// Pawns may be dropped on their own first rank.
    pub pawn_first_rank: bool,
    /// Pawns may be dropped on their last rank (they then never promote).
    pub pawn_last_rank: bool,
}

impl DropRules {
    /// No drops.
    pub const NONE: DropRules = DropRules {
        enabled: false,
        pawn_first_rank: false,
        pawn_last_rank: false,
    };
    /// Crazyhouse: no pawn drops on the first or last rank.
    pub const CRAZYHOUSE: DropRules = DropRules {
        enabled: true,
        pawn_first_rank: false,
        pawn_last_rank: false,
    };
    /// Kung Fu Bughouse (KFB rules 1.3): pawns may be dropped on every rank.
    pub const KFB: DropRules = DropRules {
        enabled: true,
        pawn_first_rank: true,
        pawn_last_rank: true,
    };
}

/// Errors in a variant description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// The name is not a known variant.
    #[error("unknown variant `{0}` (expected chess, bughouse, chessgi, cwda:W-B, kcwda:W-B, cwdazh:W-B, kcwdazh:W-B or kfb-board:W-B, with armies fide, clobberers, nutty, rookies, forward)")]
    UnknownVariant(String),
    /// An army name is unknown.
    #[error("unknown army `{0}` (expected fide, clobberers, nutty, rookies or forward)")]
    UnknownArmy(String),
    /// The built-in tables are broken.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// A leap longer than the board's border allows.
    #[error("piece {0} leaps further than the engine supports")]
    LeapTooLong(&'static str),
}

/// A compiled leap: the offset to the target and what it may do.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Leap {
    pub off: i32,
    pub quiet: bool,
    pub capture: bool,
    pub ep: bool,
    pub initial: bool,
    /// For lame leaps: the unit step and how many squares lie between.
    pub lame_step: i32,
    pub lame_n: u8,
}

/// A compiled ride.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Ride {
    pub step: i32,
    pub range: u8,
    pub quiet: bool,
    pub capture: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct KindMoves {
    pub leaps: Vec<Leap>,
    pub rides: Vec<Ride>,
}

impl KindMoves {
    /// Merges overlapping atoms so that no move is generated twice (a Colonel's king step
    /// sideways is also its first rook step).
    fn deduplicated(self) -> KindMoves {
        let mut rides: Vec<Ride> = Vec::new();
        for r in self.rides {
            match rides
                .iter_mut()
                .find(|q| q.step == r.step && q.quiet == r.quiet && q.capture == r.capture)
            {
                Some(q) => {
                    q.range = if q.range == 0 || r.range == 0 {
                        0
                    } else {
                        q.range.max(r.range)
                    }
                }
                None => rides.push(r),
            }
        }
        let mut leaps: Vec<Leap> = Vec::new();
        for l in self.leaps {
            let plain = !l.initial && l.lame_n == 0 && !l.ep;
            let covered = plain
                && rides
                    .iter()
                    .any(|r| r.step == l.off && (r.quiet || !l.quiet) && (r.capture || !l.capture));
            if covered {
                continue;
            }
            match leaps
                .iter_mut()
                .find(|q| plain && q.off == l.off && !q.initial && q.lame_n == 0 && !q.ep)
            {
                Some(q) => {
                    q.quiet |= l.quiet;
                    q.capture |= l.capture;
                }
                None => leaps.push(l),
            }
        }
        KindMoves { leaps, rides }
    }
}

/// For attack detection: from a target square, which kinds attack it from `target - off`.
#[derive(Clone, Debug)]
pub(crate) struct AttackLeap {
    pub off: i32,
    pub kinds: u64,
}

/// Riders attacking along a ray: the first piece met at distance `d` attacks if its kind is in
/// a mask whose range is 0 or at least `d`.
#[derive(Clone, Debug)]
pub(crate) struct AttackRay {
    pub step: i32,
    pub masks: Vec<(u64, u8)>,
    pub any: u64,
}

/// A variant: everything the engine needs to generate moves on one board.
#[derive(Debug)]
pub struct Rules {
    /// The name it was built from (`kcwda:clobberers-nutty`).
    pub name: String,
    /// Piece types and armies.
    pub catalog: Catalog,
    /// The board.
    pub geometry: Geometry,
    /// Number of sides.
    pub sides: u8,
    /// Army of each side (pawns written in a FEN belong to it).
    pub side_armies: Vec<ArmyId>,
    /// Check or king capture.
    pub rule_set: RuleSet,
    /// Whether castling exists.
    pub castling: bool,
    /// Drops.
    pub drops: DropRules,
    /// Where captured pieces go.
    pub capture_fate: CaptureFate,
    /// A captured promoted piece goes to hand as a pawn.
    pub promoted_revert: bool,
    pub(crate) moves: Vec<Vec<KindMoves>>,
    pub(crate) attack_leaps: Vec<Vec<AttackLeap>>,
    pub(crate) attack_rays: Vec<Vec<AttackRay>>,
    /// Relative rank of each cell per side (255 off the board).
    pub(crate) rel_rank: Vec<Vec<u8>>,
    pub(crate) king: Option<Kind>,
    pub(crate) pawn: Option<Kind>,
}

/// Shared handle to compiled rules.
pub type RulesRef = Arc<Rules>;

/// Turns a piece-relative vector into a board vector for a side (side 1 is rotated 180°,
/// sides 2 and 3 by 90°).
pub fn orient(side: Side, v: (i8, i8)) -> (i32, i32) {
    let (x, y) = (v.0 as i32, v.1 as i32);
    match side.0 % 4 {
        0 => (x, y),
        1 => (-x, -y),
        2 => (y, -x),
        _ => (-y, x),
    }
}

impl Rules {
    /// Compiles rules.
    ///
    /// # Errors
    /// When a piece leaps further than the mailbox border.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: impl Into<String>,
        catalog: Catalog,
        geometry: Geometry,
        side_armies: Vec<ArmyId>,
        rule_set: RuleSet,
        castling: bool,
        drops: DropRules,
        capture_fate: CaptureFate,
    ) -> Result<Rules, VariantError> {
        let sides = side_armies.len() as u8;
        let mut moves = Vec::new();
        let mut attack_leaps = Vec::new();
        let mut attack_rays = Vec::new();
        let cells = geometry.cells();
        for s in 0..sides {
            let side = Side(s);
            let mut per_kind = Vec::new();
            let mut leaps: Vec<AttackLeap> = Vec::new();
            let mut rays: Vec<AttackRay> = Vec::new();
            for (ki, def) in catalog.pieces.iter().enumerate() {
                let mut km = KindMoves::default();
                let bit = 1u64 << ki;
                for atom in &def.movement.atoms {
                    for &v in &atom.vectors {
                        let (dx, dy) = orient(side, v);
                        if dx.abs() > super::geometry::PAD || dy.abs() > super::geometry::PAD {
                            return Err(VariantError::LeapTooLong(def.name));
                        }
                        let off = geometry.offset(dx, dy);
                        let m = atom.modality;
                        if atom.rider {
                            km.rides.push(Ride {
                                step: off,
                                range: atom.range,
                                quiet: m.quiet,
                                capture: m.capture,
                            });
                            if m.capture {
                                match rays.iter_mut().find(|r| r.step == off) {
                                    Some(r) => {
                                        r.masks.push((bit, atom.range));
                                        r.any |= bit;
                                    }
                                    None => rays.push(AttackRay {
                                        step: off,
                                        masks: vec![(bit, atom.range)],
                                        any: bit,
                                    }),
                                }
                            }
                        } else {
                            let n = dx.abs().max(dy.abs());
                            let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                            let (lame_step, lame_n) = if atom.lame && straight && n > 1 {
                                (geometry.offset(dx.signum(), dy.signum()), (n - 1) as u8)
                            } else {
                                (0, 0)
                            };
                            km.leaps.push(Leap {
                                off,
                                quiet: m.quiet,
                                capture: m.capture,
                                ep: m.en_passant,
                                initial: atom.initial,
                                lame_step,
                                lame_n,
                            });
                            if m.capture && !atom.initial && lame_n == 0 {
                                match leaps.iter_mut().find(|l| l.off == off) {
                                    Some(l) => l.kinds |= bit,
                                    None => leaps.push(AttackLeap { off, kinds: bit }),
                                }
                            }
                        }
                    }
                }
                per_kind.push(km.deduplicated());
            }
            moves.push(per_kind);
            attack_leaps.push(leaps);
            attack_rays.push(rays);
        }
        let mut rel_rank = Vec::new();
        for s in 0..sides {
            let mut t = vec![u8::MAX; cells];
            for &sq in geometry.squares() {
                let c = geometry.coord(sq);
                t[sq.index()] = match s % 4 {
                    0 => c.rank,
                    1 => geometry.ranks() - 1 - c.rank,
                    2 => geometry.files() - 1 - c.file,
                    _ => c.file,
                };
            }
            rel_rank.push(t);
        }
        let king = catalog.king();
        let pawn = catalog.pawn();
        Ok(Rules {
            name: name.into(),
            catalog,
            geometry,
            sides,
            side_armies,
            rule_set,
            castling,
            drops,
            capture_fate,
            promoted_revert: true,
            moves,
            attack_leaps,
            attack_rays,
            rel_rank,
            king,
            pawn,
        })
    }

    /// Builds a variant from its name: `chess`, `cwda:W-B`, `kcwda:W-B`, `cwdazh:W-B`,
    /// `kcwdazh:W-B`, `kfb-board:W-B`.
    ///
    /// # Errors
    /// An unknown name or army.
    pub fn from_name(name: &str) -> Result<Rules, VariantError> {
        let catalog = Catalog::cwda()?;
        let (family, armies) = match name.split_once(':') {
            Some((f, a)) => (f, Some(a)),
            None => (name, None),
        };
        let (white, black) = match armies {
            None if matches!(family, "chess" | "bughouse" | "chessgi") => ("fide", "fide"),
            None => return Err(VariantError::UnknownVariant(name.into())),
            Some(a) => a
                .split_once('-')
                .ok_or_else(|| VariantError::UnknownVariant(name.into()))?,
        };
        let army = |code: &str| {
            catalog
                .army_by_code(code)
                .ok_or_else(|| VariantError::UnknownArmy(code.into()))
        };
        let armies = vec![army(white)?, army(black)?];
        let (rule_set, drops, fate) = match family {
            "chess" | "cwda" => (RuleSet::Orthodox, DropRules::NONE, CaptureFate::LeaveBoard),
            "kcwda" => (
                RuleSet::KingCapture,
                DropRules::NONE,
                CaptureFate::LeaveBoard,
            ),
            "cwdazh" => (
                RuleSet::Orthodox,
                DropRules::CRAZYHOUSE,
                CaptureFate::CapturerHand,
            ),
            "kcwdazh" => (
                RuleSet::KingCapture,
                DropRules::KFB,
                CaptureFate::CapturerHand,
            ),
            "kfb-board" => (
                RuleSet::KingCapture,
                DropRules::KFB,
                CaptureFate::LeaveBoard,
            ),
            "bughouse" => (
                RuleSet::Orthodox,
                DropRules::CRAZYHOUSE,
                CaptureFate::LeaveBoard,
            ),
            "chessgi" => (
                RuleSet::Orthodox,
                DropRules {
                    enabled: true,
                    pawn_first_rank: true,
                    pawn_last_rank: false,
                },
                CaptureFate::CapturerHand,
            ),
            _ => return Err(VariantError::UnknownVariant(name.into())),
        };
        let mut rules = Rules::new(
            name,
            catalog,
            Geometry::chess(),
            armies,
            rule_set,
            true,
            drops,
            fate,
        )?;
        rules.promoted_revert = family != "chessgi";
        Ok(rules)
    }

    /// The relative rank of a square for a side (0 = its first rank).
    #[inline]
    pub fn relative_rank(&self, side: Side, sq: Square) -> u8 {
        self.rel_rank[side.index()][sq.index()]
    }

    /// The last relative rank for a side.
    #[inline]
    pub fn last_rank(&self, side: Side) -> u8 {
        if side.0 % 4 < 2 {
            self.geometry.ranks() - 1
        } else {
            self.geometry.files() - 1
        }
    }

    /// The start position's placement for this variant's armies on an 8×8 board, as FEN.
    pub fn start_fen(&self) -> String {
        let row = |side: usize, upper: bool| -> String {
            let army = self.catalog.army(self.side_armies[side]);
            army.home
                .iter()
                .map(|&k| {
                    let abbr = self.catalog.def(k).abbr;
                    let t = if upper {
                        abbr.to_string()
                    } else {
                        abbr.to_lowercase()
                    };
                    if abbr.len() > 1 {
                        format!("{{{t}}}")
                    } else {
                        t
                    }
                })
                .collect()
        };
        let hands = if self.drops.enabled { "[]" } else { "" };
        format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{}{} w KQkq - 0 1",
            row(1, false),
            row(0, true),
            hands
        )
    }
}

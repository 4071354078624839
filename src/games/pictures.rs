//! Every game's pictures together: the caches they share (their size, clearing them to time a
//! cold render) and warming them when the bot starts.
//!
//! A piece's sprite is drawn the first time a picture needs it (about half a millisecond
//! each) and kept ([`crate::render::shapes`]). A KFB start picture needs about sixty, so the first
//! move of every game after a restart cost several times a warm one: in a burst of fifty
//! games the first round took a third more processor time than the next ones, and its
//! answers were the slowest of the run. [`warm_up`] draws a fixed set of pictures instead,
//! one per call, so the bot can draw them on its picture threads as it connects: the KFB
//! start boards with every army on either side in each player colour, and the example
//! picture of every other game (their text and common pieces). A fixed set: start-up costs
//! the same however many games are stored.

use super::chex::picture as chex;
use super::kfb::draft::Army;
use super::kfb::picture::{self as kfb, KfbBoardView, KfbView, SeatState, SeatView, TeamView};
use super::nomic::picture as nomic;
use super::party::picture as party;
use super::ultimate::picture as ultimate;
use crate::render::{table, PlayerColour, RenderError, RenderOptions};

/// The KFB armies, as the draft offers them.
const ARMIES: [Army; 5] = Army::ALL;

/// The KFB player colours, in the order of their numbers.
const COLOURS: [PlayerColour; 3] = [
    PlayerColour::Red,
    PlayerColour::LightGreen,
    PlayerColour::Blue,
];

/// The pictures [`warm_up`] draws: the KFB start pictures, then one of every other kind.
pub const WARM_PICTURES: usize = ARMIES.len() + 6;

/// The KFB start picture number `p` (0 to 4): board `b` has army `p + b` at the bottom in
/// colour `b` and army `p + b + 2` at the top in colour `b + 1` (armies and colours counted
/// round), so the five pictures show every army on either side in every colour.
fn kfb_start(p: usize) -> Result<KfbView, RenderError> {
    let seat = |n: usize, colour: PlayerColour, team: u8, state| SeatView {
        name: format!("Player {n}"),
        colour,
        team,
        hand: Vec::new(),
        note: "inactivity 0/8".into(),
        state,
    };
    let mut boards = Vec::with_capacity(3);
    for b in 0..3 {
        let (low, high) = (
            ARMIES[(p + b) % 5].as_str(),
            ARMIES[(p + b + 2) % 5].as_str(),
        );
        let position = crate::engine::position_of(&format!("kfb-board:{low}-{high}"), None)?;
        let (cb, ct) = (COLOURS[b], COLOURS[(b + 1) % 3]);
        boards.push(KfbBoardView {
            number: b as u8 + 1,
            position,
            bottom: seat(2 * b + 1, cb, (b % 2) as u8, SeatState::ToMove),
            top: seat(2 * b + 2, ct, ((b + 1) % 2) as u8, SeatState::Idle),
            frozen: false,
            status_line: format!("Player {} ({}) moves first", 2 * b + 1, cb.name()),
            last: None,
        });
    }
    let boards: [KfbBoardView; 3] = boards
        .try_into()
        .map_err(|_| RenderError::Message("a KFB picture has three boards".into()))?;
    // Kings held, in every colour, for the teams' icons.
    let team = |t: usize| TeamView {
        name: format!("Team {}", t + 1),
        kings: COLOURS.to_vec(),
    };
    Ok(KfbView {
        title: "Kung Fu Bughouse · action 0".into(),
        boards,
        teams: [team(0), team(1)],
        focus: None,
    })
}

/// Draws warm-up picture number `step` (not encoded: only drawing has caches), or `None`
/// once `step` is past the last ([`WARM_PICTURES`]).
///
/// # Errors
/// If a picture cannot be drawn (the built-in positions stopped parsing).
pub fn warm_up(step: usize) -> Option<Result<(), RenderError>> {
    let drawn = match step {
        s if s < ARMIES.len() => kfb_start(s).and_then(|v| kfb::draw_kfb(&v)),
        s if s == ARMIES.len() => ultimate::draw_ultimate(&ultimate::example_ultimate()),
        s if s == ARMIES.len() + 1 => chex::draw_chex(&chex::example_chex()),
        s if s == ARMIES.len() + 2 => nomic::draw_nomic(&nomic::example_nomic()),
        s if s == ARMIES.len() + 3 => party::example_party()
            .map_err(RenderError::Message)
            .and_then(|v| party::draw_party(&v)),
        s if s == ARMIES.len() + 4 => table::draw_table(&table::example_table()),
        s if s == ARMIES.len() + 5 => crate::engine::position_of("chess", None)
            .map_err(RenderError::from)
            .and_then(|p| crate::render::draw_position(&p, None, &RenderOptions::default())),
        _ => return None,
    };
    Some(drawn.map(|_| ()))
}

/// The bytes the picture caches hold now, together (shared rules 8.2: within
/// [`crate::render::budget::total`], `ARBITER_PICTURE_CACHE_MB`): the kept KFB pictures, the deflated bands,
/// the sprites with their tiles, the laid-out texts and the spare row buffers.
pub fn picture_cache_bytes() -> usize {
    crate::games::kfb::picture::kept_bytes()
        + crate::render::deflate::kept_band_bytes()
        + crate::render::shapes::cached_sprite_bytes()
        + crate::render::canvas::cached_text_bytes()
        + crate::render::budget::SPARE_ROWS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Forgets every cached piece sprite, tile and laid-out text (to time a cold render).
pub fn clear_caches() {
    crate::render::shapes::clear_cache();
    crate::render::canvas::clear_text_cache();
    crate::render::deflate::clear_kept();
    crate::games::kfb::picture::clear_kept();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::budget;

    /// Forty KFB games drawn over, each picture kept for its next move: the caches together
    /// stay within the default budget (before, the last pictures of up to 64 games were
    /// kept, about 2.3 MB each).
    #[test]
    fn the_picture_caches_stay_within_the_budget() {
        assert_eq!(
            budget::total(),
            budget::DEFAULT_MB << 20,
            "the tests run with the default budget"
        );
        let view = crate::games::kfb::picture::example_kfb().expect("the example");
        for game in 0..40 {
            let thread = format!("budget-test-{game}");
            crate::games::kfb::picture::render_kfb_over(&thread, view.clone()).expect("drawn");
            let held = picture_cache_bytes();
            assert!(
                held <= budget::total(),
                "after {} games: {held} bytes",
                game + 1
            );
        }
        // Some games are still drawn over.
        assert!(crate::games::kfb::picture::kept_bytes() > 0);
    }

    #[test]
    fn every_warm_up_picture_draws_and_then_none() {
        for step in 0..WARM_PICTURES {
            match warm_up(step) {
                Some(Ok(())) => {}
                other => panic!("warm-up picture {step}: {other:?}"),
            }
        }
        assert!(warm_up(WARM_PICTURES).is_none());
    }

    /// Every army is drawn on either side in every colour (so a KFB game's start picture
    /// finds its sprites whatever the draft chose), read back from the positions drawn.
    #[test]
    fn the_kfb_start_pictures_show_every_army_side_and_colour() {
        let mut seen = std::collections::BTreeSet::new();
        for p in 0..ARMIES.len() {
            let view = kfb_start(p).unwrap();
            for board in &view.boards {
                let name = &board.position.rules().name;
                let armies = name.strip_prefix("kfb-board:").unwrap();
                let (low, high) = armies.split_once('-').unwrap();
                assert_ne!(low, high, "{name}");
                seen.insert((low.to_string(), 0, board.bottom.colour.name()));
                seen.insert((high.to_string(), 1, board.top.colour.name()));
            }
        }
        assert_eq!(seen.len(), ARMIES.len() * 2 * COLOURS.len(), "{seen:?}");
    }
}

//! Board pictures for accepted moves.

use crate::games::kfb::Game;
use crate::time::Timestamp;

/// The PNG to attach to an accepted move's reply: the game's picture
/// ([`kfb_picture`](crate::commands::kfb_picture)), or `None` when it cannot be drawn (the
/// failure is logged; the move stands and its reply goes out without a picture).
///
/// It runs on a blocking thread after the interaction has been deferred. The game is a
/// snapshot taken right after the move.
pub fn board_png(game: &Game, now: Timestamp) -> Option<Vec<u8>> {
    match crate::commands::kfb_picture(game, now) {
        Ok(png) => Some(png),
        Err(e) => {
            tracing::warn!(error = %e, "board picture not drawn");
            None
        }
    }
}

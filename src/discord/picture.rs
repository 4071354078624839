//! The hook for board pictures: the renderer (another issue) plugs in here.

use crate::games::kfb::Game;

/// The PNG to attach to an accepted move's reply, or `None` while there is no renderer.
///
/// It runs on a blocking thread after the interaction has been deferred, so it may take a
/// while (drawing three boards). The game is a snapshot taken right after the move.
pub fn board_png(game: &Game) -> Option<Vec<u8>> {
    let _ = game;
    None
}

//! Board pictures for accepted moves.

use crate::commands::PictureJob;

/// The PNG to attach to an accepted move's reply, drawn by the game's picture job, or `None`
/// when it cannot be drawn (the failure is logged; the move stands and its reply goes out
/// without a picture).
///
/// It runs on a blocking thread after the interaction has been deferred. The job holds a
/// snapshot of the game taken right after the move.
pub fn board_png(job: PictureJob) -> Option<Vec<u8>> {
    match job() {
        Ok(png) => Some(png),
        Err(e) => {
            tracing::warn!(error = %e, "board picture not drawn");
            None
        }
    }
}

//! What the random-play tests (`tests/offered.rs`, `tests/<game>_offered_play.rs`) share: a
//! database file that outlives a console (so a restart replays every game from storage), the
//! seeded stream their choices come from, and reading a console reply.

use std::path::PathBuf;

use arbiter::games::seeded::{Chain, Draw};

/// A database file in the temporary directory, removed (with its WAL files) when dropped.
pub struct DbFile(PathBuf);

impl DbFile {
    /// A new file, named after `tag` (the game and the seed) and this process.
    pub fn new(tag: &str) -> DbFile {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        DbFile(std::env::temp_dir().join(format!(
            "arbiter-play-{tag}-{}-{nanos}.db",
            std::process::id()
        )))
    }

    /// Its SQLite URL, creating the file on first use.
    pub fn url(&self) -> String {
        format!("sqlite://{}?mode=rwc", self.0.display())
    }
}

impl Drop for DbFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

/// The random choices of a run, from its seed (the chained SplitMix64 stream).
pub struct Rng(Chain);

impl Rng {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(Chain(seed))
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n.max(1))
    }
}

/// The first line of a console reply (`ok: …`, `refused: …`), or "".
pub fn first_line(out: &[String]) -> &str {
    out.first().map_or("", String::as_str)
}

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

/// A console on a database file, with the last lines sent (for failure messages): the part of
/// a random-play run that is the same in every game.
pub struct Driver {
    /// The console commands go through.
    pub console: arbiter::console::Console,
    /// Its database, reopened by [`Driver::reopen`].
    pub db: DbFile,
    /// The run's seed (the console's entropy too).
    pub seed: u64,
    /// Steps taken, for failure messages.
    pub step: usize,
    trail: Vec<String>,
}

impl Driver {
    /// A console on a new database file named after `tag`.
    pub fn open(tag: &str, seed: u64) -> Driver {
        let db = DbFile::new(tag);
        let console =
            arbiter::console::Console::open(Some(&db.url()), seed).expect("open the test database");
        Driver {
            console,
            db,
            seed,
            step: 0,
            trail: Vec::new(),
        }
    }

    /// Sends one console line, remembering it.
    pub fn line(&mut self, text: &str) -> Vec<String> {
        self.trail.push(text.to_string());
        if self.trail.len() > 16 {
            self.trail.remove(0);
        }
        self.console.line(text)
    }

    /// Fails the test with the seed, the step, the last lines sent and the state.
    pub fn fail(&mut self, what: &str) -> ! {
        let state = self.console.line("!state");
        panic!(
            "seed {} step {}: {what}\n  last lines:\n    {}\n  state:\n    {}",
            self.seed,
            self.step,
            self.trail.join("\n    "),
            state.join("\n    ")
        )
    }

    /// Sends a line that must be accepted (`ok:`).
    pub fn expect_ok(&mut self, text: &str) -> Vec<String> {
        let out = self.line(text);
        if !first_line(&out).starts_with("ok:") {
            self.fail(&format!("`{text}` was refused: {}", out.join(" / ")));
        }
        out
    }

    /// A restart: the console closed and opened again on the same file, so every game is
    /// replayed from its stored log. (Lock expiries announced late on opening are read off
    /// with an empty line: they are not part of the state.) Roles are the caller's to set.
    pub fn reopen(&mut self) {
        let url = self.db.url();
        // Close the old console before opening the new one on the same file.
        self.console = arbiter::console::Console::new(0, 0);
        self.console = arbiter::console::Console::open(Some(&url), self.seed)
            .expect("reopen the test database");
        self.console.line("");
    }

    /// Fails unless the snapshots taken before and after a restart are the same.
    pub fn same_across_restart(&mut self, before: &[String], after: &[String]) {
        if before != after {
            let diff: Vec<String> = before
                .iter()
                .zip(after)
                .filter(|(x, y)| x != y)
                .map(|(x, y)| format!("before: {x}\n    after:  {y}"))
                .collect();
            self.fail(&format!(
                "the state changed across a restart:\n    {}",
                diff.join("\n    ")
            ));
        }
    }
}

/// What a random-play run counts, to make sure it went through the cases it is for: a
/// struct of counters with `Default`, `Debug` and `+=` (totals over seeds).
#[allow(unused_macros)] // used by the random-play tests, not by every test binary
macro_rules! counts {
    ($(#[$doc:meta])* struct $name:ident { $($field:ident),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Default, Debug)]
        struct $name {
            $($field: usize,)*
        }

        impl std::ops::AddAssign for $name {
            fn add_assign(&mut self, other: $name) {
                $(self.$field += other.$field;)*
            }
        }
    };
}

#[allow(unused_imports)]
pub(crate) use counts;

/// One game's random-play run (`tests/offered.rs`, `tests/<game>_offered_play.rs`): its
/// steps, a restart, and what it counted.
pub trait RandomRun {
    /// Its counters ([`counts!`]).
    type Seen: Default + std::fmt::Debug + std::ops::AddAssign;
    /// A run from `seed`.
    fn start(seed: u64) -> Self;
    /// One random step.
    fn step(&mut self);
    /// A restart: every game replayed from storage and compared.
    fn restart(&mut self);
    /// What it counted.
    fn seen(&mut self) -> Self::Seen;
}

/// Implements [`RandomRun`] for a test's `Run` with its own `new(seed)`, `step()` and
/// `restart()` and a `seen` field of counters.
#[allow(unused_macros)] // used by the random-play tests, not by every test binary
macro_rules! random_run {
    ($run:ident, $seen:ident) => {
        impl $crate::common::play::RandomRun for $run {
            type Seen = $seen;
            fn start(seed: u64) -> $run {
                $run::new(seed)
            }
            fn step(&mut self) {
                $run::step(self);
            }
            fn restart(&mut self) {
                $run::restart(self);
            }
            fn seen(&mut self) -> $seen {
                std::mem::take(&mut self.seen)
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use random_run;

/// Plays `steps` random steps from each seed, then a restart, printing what each seed saw:
/// the totals.
pub fn random_plays<R: RandomRun>(seeds: impl IntoIterator<Item = u64>, steps: usize) -> R::Seen {
    let mut total = R::Seen::default();
    for seed in seeds {
        let mut run = R::start(seed);
        for _ in 0..steps {
            run.step();
        }
        run.restart();
        let seen = run.seen();
        eprintln!("seed {seed}: {seen:?}");
        total += seen;
    }
    eprintln!("total: {total:?}");
    total
}

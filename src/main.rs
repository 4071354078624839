//! The `arbiter` command: runs the Discord bot, the console, and the engine tools (perft,
//! moves, import and export, benchmarks). The work is done by the library; this is its clap
//! front end.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tracing_subscriber::prelude::*;

/// Arbiter: a referee for chess-variant forum games.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum SwissCommand {
    /// Print the next round's pairing for a tournament in FIDE TRF: the number of pairs, then
    /// `white black` per line, a bye as `id 0`.
    Pair {
        /// The TRF file.
        #[arg(long)]
        trf: std::path::PathBuf,
    },
    /// Time the pairing of a TRF file's next round (median of several runs).
    Bench {
        /// The TRF file.
        #[arg(long)]
        trf: std::path::PathBuf,
        /// Runs.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
}

#[derive(Subcommand)]
enum Command {
    /// Play from the terminal: each line is `<user> /<command> …` as typed in Discord, a chat
    /// line `<user> <text>`, or a `!` control line (see docs/console.md).
    Console {
        /// Database URL: `sqlite://FILE` or a plain file path (created if missing),
        /// `postgres://…`, or `sqlite::memory:` for nothing kept. Default: `DATABASE_URL`,
        /// else the SQLite file `arbiter.db` here.
        #[arg(long)]
        db: Option<String>,
        /// Seed for games created without `seed:` (default: from the system clock).
        #[arg(long)]
        entropy: Option<u64>,
    },
    /// Run the Discord bot. Settings come from the environment or `.env`: DISCORD_TOKEN
    /// (required), DATABASE_URL, GUILD_ID, SHARDS, DISCORD_API_BASE, MEMBER_EVENTS,
    /// ARBITER_PICTURE_NICE, ARBITER_SQLITE_CHECKPOINT_MS, ARBITER_SQLITE_SYNCHRONOUS (see
    /// .env.example).
    Bot,
    /// Print every legal move of a position, one per line, sorted.
    Moves {
        /// Variant: chess, cwda:W-B, kcwda:W-B, cwdazh:W-B, kcwdazh:W-B, kfb-board:W-B
        /// (armies fide, clobberers, nutty, rookies, forward), ultimate, or chex.
        #[arg(long)]
        variant: String,
        /// Position (FEN with {Ca}-style pieces and [hands]; for ultimate and chex their position text);
        /// the start position if omitted.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Count the leaf nodes of the move tree; the count is on the last line.
    Perft {
        /// Variant (as for `moves`).
        #[arg(long)]
        variant: String,
        /// Position; the start position if omitted.
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Also print the count below each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Write a stored game as text: every action with its board, player and time (the format
    /// docs/games/kfb.md describes), then one PGN per board.
    Export {
        /// The game: the name (Discord id) of its thread.
        #[arg(long)]
        game: String,
        /// Database URL (default: `DATABASE_URL`, else `arbiter.db` here).
        #[arg(long)]
        db: Option<String>,
        /// Output file (default: standard output).
        #[arg(short = 'o', long = "output")]
        output: Option<std::path::PathBuf>,
    },
    /// Write a stored game's replay as an animated GIF (what `/replay` posts): the start,
    /// then one frame per action that changed the board.
    Replay {
        /// Database URL (default: `DATABASE_URL`, else `arbiter.db` here).
        #[arg(long)]
        db: Option<String>,
        /// The game: the name (Discord id) of its thread.
        #[arg(long)]
        thread: String,
        /// The GIF file to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// The first action to show.
        #[arg(long)]
        from: Option<u32>,
        /// The last action to show.
        #[arg(long)]
        to: Option<u32>,
        /// Kung Fu Bughouse: only this board (1–3).
        #[arg(long)]
        board: Option<u8>,
        /// slow, normal or fast.
        #[arg(long)]
        speed: Option<String>,
    },
    /// Read a game written by `export` into a database.
    Import {
        /// The export file.
        file: std::path::PathBuf,
        /// The thread to store it under.
        #[arg(long)]
        thread: String,
        /// Database URL (default: `DATABASE_URL`, else `arbiter.db` here).
        #[arg(long)]
        db: Option<String>,
    },
    /// Measure storage: actions committed per second and the time from command to committed
    /// action, playing random moves in new games.
    StoreBench {
        /// Database URL (default: `DATABASE_URL`, else `arbiter.db` here).
        #[arg(long)]
        db: Option<String>,
        /// Games played at once.
        #[arg(long, default_value_t = 8)]
        games: usize,
        /// Actions to commit.
        #[arg(long, default_value_t = 400)]
        actions: usize,
        /// Concurrent tasks sending commands.
        #[arg(long, default_value_t = 1)]
        tasks: usize,
    },
    /// Measure scale: fill a new database with games of every kind (most finished, some in
    /// play, some with a timer due), then, in a fresh process, start-up time, resident
    /// memory, the first command on a game not in memory and the timer sweep.
    ScaleBench {
        /// Database URL of an empty database (default: `DATABASE_URL`, else `arbiter.db`).
        #[arg(long)]
        db: Option<String>,
        /// Stored games in all.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// Of which in play.
        #[arg(long, default_value_t = 1_000)]
        active: usize,
        /// Of which (in play) with a timer due.
        #[arg(long, default_value_t = 100)]
        due: usize,
        /// Of which (in play) a day behind on their timers, as after the bot was away.
        #[arg(long, default_value_t = 20)]
        catch_up: usize,
        /// Log entries per game (at most).
        #[arg(long, default_value_t = 34)]
        actions: usize,
        /// Only measure (the database is filled already); used for the fresh process.
        #[arg(long)]
        measure: bool,
    },
    /// Swiss pairing (FIDE Dutch system) for tournaments.
    Swiss {
        #[command(subcommand)]
        command: SwissCommand,
    },
    /// Draw a board as a PNG picture.
    Render {
        /// Variant (as for `moves`).
        #[arg(long)]
        variant: String,
        /// Position; the start position if omitted.
        #[arg(long)]
        fen: Option<String>,
        /// A move to highlight, in the project's notation (e2-e4, N@f3).
        #[arg(long)]
        last: Option<String>,
        /// Output file.
        #[arg(short = 'o', long = "output")]
        output: std::path::PathBuf,
    },
    /// Measure picture speed: median time to render and encode an 8×8 board, the KFB
    /// three-board picture, every other game's picture and a standings table, their sizes,
    /// and each as a ratio to the 8×8 board's time; then the replays of a 200-action KFB
    /// game and a 300-play Party Chess game (time and bytes).
    RenderBench {
        /// Runs.
        #[arg(long, default_value_t = 21)]
        runs: usize,
    },
    /// Measure perft speed on start positions (median of several runs).
    Bench {
        /// Variants to time (chess-like names, or ultimate); the CwDA start positions under
        /// both rule sets by default.
        #[arg(long)]
        variant: Vec<String>,
        /// Depth (default 5; 4 for ultimate).
        #[arg(long)]
        depth: Option<u32>,
        /// Runs per variant.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
}

fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        Command::Console { db, entropy } => {
            let entropy = entropy.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            let db = db.or_else(|| std::env::var("DATABASE_URL").ok());
            arbiter::console::run(db.as_deref(), entropy)?;
        }
        Command::Bot => {
            let config = arbiter::discord::Config::from_env()?;
            tracing::info!(config = ?config, "starting the Discord bot");
            let runtime = tokio::runtime::Runtime::new()?;
            runtime.block_on(arbiter::discord::run(config))?;
        }
        Command::Moves { variant, fen } if variant == arbiter::cli::CHEX => {
            for m in arbiter::cli::chex_moves(fen.as_deref())? {
                println!("{m}");
            }
        }
        Command::Moves { variant, fen } if variant == arbiter::cli::PARTY => {
            let Some(fen) = fen else {
                return Err(
                    "party needs --fen '<position text>' (its game starts off-board)".into(),
                );
            };
            for m in arbiter::cli::party_moves(&fen)? {
                println!("{m}");
            }
        }
        Command::Moves { variant, fen } if variant == arbiter::cli::NOMIC => {
            let text = fen.unwrap_or_else(|| {
                let mut start = arbiter::games::nomic::Position::start(2, vec![0, 1]);
                start.turn.slot = arbiter::games::nomic::Slot::Army(0);
                start.to_text()
            });
            for m in arbiter::cli::nomic_moves(&text)? {
                println!("{m}");
            }
        }
        Command::Moves { variant, fen } if variant == arbiter::cli::ULTIMATE => {
            let pos = arbiter::cli::ultimate_position(fen.as_deref())?;
            for m in arbiter::cli::ultimate_moves(&pos) {
                println!("{m}");
            }
        }
        Command::Perft {
            variant,
            fen,
            depth,
            divide,
        } if variant == arbiter::cli::ULTIMATE => {
            let mut pos = arbiter::cli::ultimate_position(fen.as_deref())?;
            for line in arbiter::cli::ultimate_perft(&mut pos, depth, divide) {
                println!("{line}");
            }
        }
        Command::Moves { variant, fen } => {
            let mut pos = arbiter::cli::position(&variant, fen.as_deref())?;
            for m in arbiter::cli::moves(&mut pos) {
                println!("{m}");
            }
        }
        Command::Perft {
            variant,
            fen,
            depth,
            divide,
        } => {
            let mut pos = arbiter::cli::position(&variant, fen.as_deref())?;
            for line in arbiter::cli::perft(&mut pos, depth, divide) {
                println!("{line}");
            }
        }
        Command::Swiss { command } => match command {
            SwissCommand::Pair { trf } => {
                let text = std::fs::read_to_string(&trf)?;
                print!("{}", arbiter::swiss::pair_trf(&text)?);
            }
            SwissCommand::Bench { trf, runs } => {
                let text = std::fs::read_to_string(&trf)?;
                let t = arbiter::swiss::parse_trf(&text)?;
                let mut times = Vec::new();
                for _ in 0..runs.max(1) {
                    let start = std::time::Instant::now();
                    arbiter::swiss::pair_next_round(&t)?;
                    times.push(start.elapsed().as_secs_f64());
                }
                times.sort_by(f64::total_cmp);
                println!(
                    "{} entrants: median {:.3} s over {} runs",
                    t.entrants.len(),
                    times[times.len() / 2],
                    times.len()
                );
            }
        },
        Command::StoreBench {
            db,
            games,
            actions,
            tasks,
        } => {
            let db = db.or_else(|| std::env::var("DATABASE_URL").ok());
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            let report = rt.block_on(async {
                let store = arbiter::store::Store::connect(db.as_deref()).await?;
                arbiter::bench::service::bench(store, games, actions, tasks).await
            })?;
            println!("{report}");
        }
        Command::ScaleBench {
            db,
            games,
            active,
            due,
            catch_up,
            actions,
            measure,
        } => {
            let db = db.or_else(|| std::env::var("DATABASE_URL").ok());
            let plan = arbiter::bench::scale::Plan {
                games,
                active: active.min(games),
                due: due.min(active).min(games),
                catch_up: catch_up.min(active.saturating_sub(due)),
                actions,
            };
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            if measure {
                print!(
                    "{}",
                    rt.block_on(arbiter::bench::scale::measure(db.as_deref(), plan))?
                );
            } else {
                print!(
                    "{}",
                    rt.block_on(arbiter::bench::scale::fill(db.as_deref(), plan))?
                );
                drop(rt);
                let mut args: Vec<String> = std::env::args().skip(1).collect();
                args.push("--measure".into());
                let mut child = std::process::Command::new(std::env::current_exe()?);
                child.args(&args);
                if let Some(db) = &db {
                    child.env("DATABASE_URL", db);
                }
                let status = child.status()?;
                if !status.success() {
                    return Err("the measuring process failed".into());
                }
            }
        }
        Command::Export { game, db, output } => {
            let db = db.or_else(|| std::env::var("DATABASE_URL").ok());
            let text = runtime()?.block_on(async {
                let store = arbiter::store::Store::connect(db.as_deref()).await?;
                let stored = store.load(&game).await?;
                Ok::<_, arbiter::store::StoreError>(stored.map(|s| s.game.export()))
            })?;
            let Some(text) = text else {
                return Err(format!("no game in thread `{game}`").into());
            };
            match output {
                Some(path) => std::fs::write(&path, text)?,
                None => print!("{text}"),
            }
        }
        Command::Replay {
            db,
            thread,
            out,
            from,
            to,
            board,
            speed,
        } => {
            let db = db.or_else(|| std::env::var("DATABASE_URL").ok());
            let game = runtime()?.block_on(async {
                let store = arbiter::store::Store::connect(db.as_deref()).await?;
                let stored = store.load(&thread).await?;
                Ok::<_, arbiter::store::StoreError>(stored.map(|s| s.game))
            })?;
            let Some(game) = game else {
                return Err(format!("no game in thread `{thread}`").into());
            };
            let mut line = String::from("/replay");
            let options = [
                ("from", from.map(|n| n.to_string())),
                ("to", to.map(|n| n.to_string())),
                ("board", board.map(|n| n.to_string())),
                ("speed", speed),
            ];
            for (key, value) in options {
                if let Some(v) = value {
                    line.push_str(&format!(" {key}:{v}"));
                }
            }
            let cmd = arbiter::commands::parse_command(&line).ok_or("bad options")?;
            let opts = arbiter::layer::replay::ReplayOptions::of_command(&cmd)?;
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let replayed = game.replay_job(&opts, now)?()?;
            std::fs::write(&out, &replayed.replay.gif)?;
            println!("wrote {}: {}", out.display(), replayed.text());
        }
        Command::Import { file, thread, db } => {
            let db = db.or_else(|| std::env::var("DATABASE_URL").ok());
            let text = std::fs::read_to_string(&file)?;
            let game = arbiter::commands::import(&text)?;
            let actions = game.log_len();
            runtime()?.block_on(async {
                let store = arbiter::store::Store::connect(db.as_deref()).await?;
                if !store.create_game(&thread, &*game, 0).await? {
                    return Err::<(), Box<dyn std::error::Error>>(
                        format!("thread `{thread}` already has a game").into(),
                    );
                }
                store.commit(&thread, 0, &*game, 0, &[], None, "").await?;
                Ok(())
            })?;
            println!("imported {actions} log entries into thread `{thread}`");
        }
        Command::Render {
            variant,
            fen,
            last,
            output,
        } => {
            let fen = match fen {
                Some(f) => f,
                None => arbiter::cli::position(&variant, None)
                    .map(|p| arbiter::engine::fen::write(&p))?,
            };
            arbiter::render::render_cli(&variant, &fen, last.as_deref(), &output)?;
            println!("wrote {}", output.display());
        }
        Command::RenderBench { runs } => {
            println!("{}", arbiter::bench::pictures::bench(runs)?);
            let replays = arbiter::bench::replays::bench()?;
            print!("{}", arbiter::bench::replays::bench_text(&replays));
        }
        Command::Bench {
            variant,
            depth,
            runs,
        } => {
            let variants = if variant.is_empty() {
                vec![
                    "chess".to_string(),
                    "cwda:fide-fide".into(),
                    "cwda:clobberers-nutty".into(),
                    "kcwda:clobberers-nutty".into(),
                    "cwda:rookies-forward".into(),
                    "kcwda:rookies-forward".into(),
                ]
            } else {
                variant
            };
            println!("variant\tdepth\tnodes\tseconds\tMnodes/s");
            for r in arbiter::cli::bench(&variants, depth, runs)? {
                println!(
                    "{}\t{}\t{}\t{:.3}\t{:.1}",
                    r.variant,
                    r.depth,
                    r.nodes,
                    r.seconds,
                    r.nodes as f64 / r.seconds / 1e6
                );
            }
        }
    }
    Ok(())
}

fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// The log filter: `RUST_LOG` if it reads, else `default`. Serenity's HTTP spans stay off
/// unless `RUST_LOG` names serenity: each records its whole request with `Debug`, so an
/// uploaded picture (about 145 KB for KFB) was written out as a list of numbers on every move,
/// a third of the bot's CPU under load, only to be thrown away at the `info` level.
fn log_filter(env: Option<&str>, default: &str) -> tracing_subscriber::EnvFilter {
    let spec = env.filter(|s| !s.trim().is_empty());
    let filter = spec
        .and_then(|s| tracing_subscriber::EnvFilter::try_new(s).ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new(default));
    if spec.is_some_and(|s| s.contains("serenity")) {
        return filter;
    }
    match "serenity::http=warn".parse() {
        Ok(quiet) => filter.add_directive(quiet),
        Err(_) => filter,
    }
}

/// Whether serenity's spans are logged: only when `RUST_LOG` names serenity. Each records
/// its arguments with `Debug` as it opens: the gateway's formats every event it handles (a
/// whole interaction, with its member and user), about 1.3% of the bot's CPU in a burst of
/// moves, only to be thrown away. Serenity's events (a shard resumed or reconnecting) are
/// logged as the filter says.
fn serenity_spans(env: Option<&str>) -> bool {
    env.is_some_and(|s| s.contains("serenity"))
}

fn is_serenity_span(m: &tracing::Metadata<'_>) -> bool {
    m.is_span() && m.target().starts_with("serenity")
}

fn main() -> ExitCode {
    let args = Args::parse();
    // Logs go to standard error; RUST_LOG sets the level (default: warnings and errors, and
    // for the long-running bot also its info lines).
    let default = if matches!(args.command, Command::Bot) {
        "info"
    } else {
        "warn"
    };
    let env = std::env::var("RUST_LOG").ok();
    let spans = serenity_spans(env.as_deref());
    let layer = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_filter(log_filter(env.as_deref(), default))
        .with_filter(tracing_subscriber::filter::filter_fn(move |m| {
            spans || !is_serenity_span(m)
        }));
    tracing_subscriber::registry().with(layer).init();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{log_filter, serenity_spans};

    #[test]
    fn serenity_spans_are_logged_only_when_rust_log_names_serenity() {
        assert!(!serenity_spans(None));
        assert!(!serenity_spans(Some("info")));
        assert!(!serenity_spans(Some("info,arbiter=debug")));
        assert!(serenity_spans(Some("info,serenity=debug")));
        assert!(serenity_spans(Some("serenity::gateway=info")));
    }

    #[test]
    fn serenity_http_spans_stay_off_unless_rust_log_names_serenity() {
        for (env, default) in [(Some("info"), "warn"), (None, "info"), (Some(""), "info")] {
            let f = log_filter(env, default).to_string();
            assert!(f.contains("serenity::http=warn"), "{env:?}: {f}");
        }
        let f = log_filter(Some("info,serenity=debug"), "info").to_string();
        assert!(!f.contains("serenity::http=warn"), "{f}");
        assert!(f.contains("serenity=debug"), "{f}");
        // A filter that does not read falls back to the default.
        let f = log_filter(Some("info,=[bad"), "warn").to_string();
        assert_eq!(f, log_filter(None, "warn").to_string());
        assert_ne!(f, log_filter(None, "info").to_string());
    }
}

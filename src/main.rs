use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Arbiter: a referee for chess-variant forum games.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play from the terminal: each line is `<user> /<command> …` as typed in Discord, a chat
    /// line `<user> <text>`, or a `!` control line (see the README).
    Console {
        /// Database URL (storage comes with the storage issue; accepted and ignored for now).
        #[arg(long)]
        db: Option<String>,
        /// Seed for games created without `seed:` (default: from the system clock).
        #[arg(long)]
        entropy: Option<u64>,
    },
    /// Run the Discord bot. Settings come from the environment or `.env`: DISCORD_TOKEN
    /// (required), DATABASE_URL, GUILD_ID, SHARDS, DISCORD_API_BASE (see .env.example).
    Bot,
    /// Print every legal move of a position, one per line, sorted.
    Moves {
        /// Variant: chess, cwda:W-B, kcwda:W-B, cwdazh:W-B, kcwdazh:W-B, kfb-board:W-B
        /// (armies fide, clobberers, nutty, rookies, forward).
        #[arg(long)]
        variant: String,
        /// Position (FEN with {Ca}-style pieces and [hands]); the start position if omitted.
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
    /// Measure perft speed on start positions (median of several runs).
    Bench {
        /// Variants to time; the CwDA start positions under both rule sets by default.
        #[arg(long)]
        variant: Vec<String>,
        /// Depth.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Runs per variant.
        #[arg(long, default_value_t = 3)]
        runs: usize,
    },
}

fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        Command::Console { db: _, entropy } => {
            let entropy = entropy.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            arbiter::console::run(entropy)?;
        }
        Command::Bot => {
            let config = arbiter::discord::Config::from_env()?;
            tracing_subscriber::fmt()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_env_filter(
                    tracing_subscriber::EnvFilter::try_from_default_env()
                        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
                )
                .init();
            tracing::info!(config = ?config, "starting the Discord bot");
            let runtime = tokio::runtime::Runtime::new()?;
            runtime.block_on(arbiter::discord::run(config))?;
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

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

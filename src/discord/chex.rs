//! Chex's own slash commands (Chex rules 5.10). Like every slash command they only translate
//! typed options into a [`Command`](crate::commands::Command); `/move` (with `turn:`),
//! `/moves`, `/status`, `/offer`, `/accept`, `/decline`, `/resign`, `/takeback`, `/export`
//! and `/revert` are shared with the other games.

use poise::ChoiceParameter;
use serenity::UserId;

use super::context::{BotError, Ctx};
use super::slash::{act, command, new_game, user, Place};
use poise::serenity_prelude as serenity;

/// How a piece is drawn.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum DrawMode {
    /// `/draw` shows the piece, then `/place` puts it down.
    #[name = "reveal"]
    Reveal,
    /// `/draw square:` names the square before the piece is seen.
    #[name = "blind"]
    Blind,
}

/// What a stalemate does.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Stalemate {
    /// The bot declares the game drawn.
    #[name = "declare"]
    Declare,
    /// The bot offers a draw in the stalemated player's name.
    #[name = "offer"]
    Offer,
}

const PLACE: Place = Place {
    not_in_dm: "games are played in server channels, not in direct messages",
    not_in_thread: "run /chex new in a text channel: the game gets a thread of its own",
};

/// Chex: a board that grows and shrinks, pieces drawn at random.
#[poise::command(
    slash_command,
    subcommands("chex_new", "chex_resign"),
    subcommand_required
)]
pub async fn chex(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Start a Chex game in a new thread of this channel (organisers)
#[poise::command(slash_command, rename = "new")]
#[allow(clippy::too_many_arguments)]
pub async fn chex_new(
    ctx: Ctx<'_>,
    #[description = "White (plays first)"] white: UserId,
    #[description = "Black"] black: UserId,
    #[description = "reveal (default): /draw then /place; blind: /draw square:"] draw_mode: Option<
        DrawMode,
    >,
    #[description = "A stalemate: declare a draw (default) or offer one"] stalemate: Option<
        Stalemate,
    >,
    #[description = "Largest board, files and ranks (8-26, default 26)"]
    #[min = 8]
    #[max = 26]
    max_board: Option<u8>,
    #[description = "Announce a player who takes longer than this, like 2d (default none)"]
    move_limit: Option<String>,
    #[description = "Seed of the stacks' shuffle (default: random; its SHA-256 is shown)"]
    seed: Option<u64>,
    #[description = "Start from this position text"] position: Option<String>,
) -> Result<(), BotError> {
    let cmd = command(
        "chex new",
        vec![
            ("white", user(white).map(|u| format!("@{u}"))),
            ("black", user(black).map(|u| format!("@{u}"))),
            ("draw_mode", draw_mode.map(|m| m.name().to_string())),
            ("stalemate", stalemate.map(|s| s.name().to_string())),
            ("max_board", max_board.map(|n| n.to_string())),
            ("move_limit", move_limit),
            ("seed", seed.map(|n| n.to_string())),
            ("position", position),
        ],
    );
    new_game(ctx, &cmd, PLACE, "Chex").await
}

/// Resign for a player who overran the move limit (organisers)
#[poise::command(slash_command, rename = "resign")]
pub async fn chex_resign(
    ctx: Ctx<'_>,
    #[description = "The player who resigns"] player: UserId,
) -> Result<(), BotError> {
    act(ctx, command("chex resign", vec![("player", user(player))])).await
}

/// Draw the top piece of your stack (in a blind game, name the square first)
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Ctx<'_>,
    #[description = "Blind games: the square the piece goes on, like c3"] square: Option<String>,
    #[description = "The board number your square refers to (refused if the board changed)"]
    turn: Option<u32>,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "draw",
            vec![("square", square), ("turn", turn.map(|n| n.to_string()))],
        ),
    )
    .await
}

/// Place the piece you drew next to any piece in play
#[poise::command(slash_command)]
pub async fn place(
    ctx: Ctx<'_>,
    #[description = "The square, like c3 (/moves lists them)"]
    #[autocomplete = "super::slash::legal_moves"]
    square: String,
    #[description = "The board number your square refers to (refused if the board changed)"]
    turn: Option<u32>,
) -> Result<(), BotError> {
    let square = square
        .split_once('@')
        .map_or(square.clone(), |(_, s)| s.to_string());
    act(
        ctx,
        command(
            "place",
            vec![
                ("square", Some(square)),
                ("turn", turn.map(|n| n.to_string())),
            ],
        ),
    )
    .await
}

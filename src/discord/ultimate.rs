//! Ultimate Chess's own slash commands (Ultimate rules 4.9). Like every slash command they only
//! translate typed options into a [`Command`](crate::commands::Command); `/move`, `/moves`,
//! `/status`, `/takeback`, `/export` and `/revert` are shared with the other games.

use poise::ChoiceParameter;
use serenity::UserId;

use super::context::{BotError, Ctx};
use super::slash::{act, command, new_game, user, Place, Switch};
use poise::serenity_prelude as serenity;

/// What happens to a defeated player's pieces.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Mode {
    /// They leave the board.
    #[name = "standard"]
    Standard,
    /// They stay as neutral obstacles anyone may capture.
    #[name = "conquest"]
    Conquest,
    /// The victor takes them over.
    #[name = "devastation"]
    Devastation,
}

/// What a stalemated player's turn does.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Stalemate {
    /// The game is drawn.
    #[name = "draw"]
    Draw,
    /// The player is skipped until they have a move.
    #[name = "pass"]
    Pass,
}

const PLACE: Place = Place {
    not_in_dm: "games are played in server channels, not in direct messages",
    not_in_thread: "run /ultimate new in a text channel: the game gets a thread of its own",
};

/// Ultimate Chess: four players on a cross-shaped board.
#[poise::command(
    slash_command,
    subcommands("ultimate_new", "ultimate_concede"),
    subcommand_required
)]
pub async fn ultimate(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

fn mention_of(u: Option<UserId>) -> Option<String> {
    u.and_then(user).map(|id| format!("@{id}"))
}

/// Start an Ultimate Chess game in a new thread of this channel (organisers)
#[poise::command(slash_command, rename = "new")]
#[allow(clippy::too_many_arguments)]
pub async fn ultimate_new(
    ctx: Ctx<'_>,
    #[description = "Silver (south, moves first)"] silver: Option<UserId>,
    #[description = "Red (west)"] red: Option<UserId>,
    #[description = "Black (north)"] black: Option<UserId>,
    #[description = "Green (east)"] green: Option<UserId>,
    #[description = "Or four players as mentions, seated at random (@a @b @c @d)"] players: Option<
        String,
    >,
    #[description = "What happens to a defeated player's pieces (default standard)"] mode: Option<
        Mode,
    >,
    #[description = "A stalemated player: draw (default) or pass"] stalemate: Option<Stalemate>,
    #[description = "A pawn at the end of a short file promotes there (default off)"]
    promote_at_file_end: Option<Switch>,
    #[description = "Announce a player who takes longer than this, like 2d (default none)"]
    move_limit: Option<String>,
    #[description = "Seed for the seating (default: random)"] seed: Option<u64>,
    #[description = "Start from this position text instead of the start array"] position: Option<
        String,
    >,
) -> Result<(), BotError> {
    let cmd = command(
        "ultimate new",
        vec![
            ("silver", mention_of(silver)),
            ("red", mention_of(red)),
            ("black", mention_of(black)),
            ("green", mention_of(green)),
            ("players", players),
            ("mode", mode.map(|m| m.name().to_string())),
            ("stalemate", stalemate.map(|s| s.name().to_string())),
            (
                "promote_at_file_end",
                promote_at_file_end.map(|s| s.name().to_string()),
            ),
            ("move_limit", move_limit),
            ("seed", seed.map(|n| n.to_string())),
            ("position", position),
        ],
    );
    new_game(ctx, &cmd, PLACE, "Ultimate Chess").await
}

/// Concede for a player who overran the move limit (organisers)
#[poise::command(slash_command, rename = "concede")]
pub async fn ultimate_concede(
    ctx: Ctx<'_>,
    #[description = "The player who concedes"] player: UserId,
    #[description = "The victor, who takes over in Devastation"] to: Option<UserId>,
) -> Result<(), BotError> {
    let cmd = command(
        "ultimate concede",
        vec![("player", user(player)), ("to", to.and_then(user))],
    );
    act(ctx, cmd).await
}

/// Concede the game (in Devastation, name who takes over your pieces)
#[poise::command(slash_command)]
pub async fn concede(
    ctx: Ctx<'_>,
    #[description = "The player who takes over your pieces"] to: Option<UserId>,
) -> Result<(), BotError> {
    act(ctx, command("concede", vec![("to", to.and_then(user))])).await
}

/// Offer a draw to the players still in the game
#[poise::command(slash_command)]
pub async fn offer(
    ctx: Ctx<'_>,
    #[description = "What you offer"] what: Option<String>,
) -> Result<(), BotError> {
    let mut cmd = command("offer", Vec::new());
    cmd.positional
        .push(what.unwrap_or_else(|| "draw".to_string()));
    act(ctx, cmd).await
}

/// Accept the draw offer
#[poise::command(slash_command)]
pub async fn accept(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("accept", Vec::new())).await
}

/// Decline the draw offer (Nomic Chess: decline an army offered to you)
#[poise::command(slash_command)]
pub async fn decline(
    ctx: Ctx<'_>,
    #[description = "Nomic Chess: the army offered to you"]
    #[min = 1]
    army: Option<u32>,
) -> Result<(), BotError> {
    act(
        ctx,
        command("decline", vec![("army", army.map(|a| a.to_string()))]),
    )
    .await
}

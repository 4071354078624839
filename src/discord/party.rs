//! Party Chess's own slash commands (Party rules 3.9). Like every slash command they only
//! translate typed options into a [`Command`](crate::commands::Command); `/move`, `/moves`,
//! `/status`, `/takeback`, `/export` and `/revert` are shared with the other games.

use serenity::UserId;

use super::context::{BotError, Ctx};
use super::slash::{act, command, new_game, user, Place};
use poise::serenity_prelude as serenity;

const PLACE: Place = Place {
    not_in_dm: "games are played in server channels, not in direct messages",
    not_in_thread: "run /party new in a text channel: the game gets a thread of its own",
};

/// How an Echo reads its source (Party rules 3.2).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum EchoChoice {
    /// By the rules of the piece last moved (the default).
    #[name = "rules"]
    Rules,
    /// By the very move that piece made (its displacement).
    #[name = "vector"]
    Vector,
}

fn at(u: UserId) -> Option<String> {
    user(u).map(|id| format!("@{id}"))
}

/// Party Chess: any number of Swingers on a 20×20 board.
#[poise::command(
    slash_command,
    subcommands(
        "party_new",
        "party_pieces",
        "party_extend",
        "party_warm",
        "party_swinger",
        "party_create",
        "party_end"
    ),
    subcommand_required
)]
pub async fn party(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Start a Party Chess game in a new thread of this channel (organisers)
#[poise::command(slash_command, rename = "new")]
#[allow(clippy::too_many_arguments)] // one per slash option
pub async fn party_new(
    ctx: Ctx<'_>,
    #[description = "The Swingers as mentions (@a @b …), at least two"] swingers: String,
    #[description = "The Chess-Umpire (default: you)"] umpire: Option<UserId>,
    #[description = "The first (NAP) Swinger (default: the first named)"] first: Option<UserId>,
    #[description = "How long a turn lasts, like 3d (default 3d)"] turn_limit: Option<String>,
    #[description = "Seed for the Play List's order (default: random)"] seed: Option<u64>,
    #[description = "How an Echo moves: by the rules of the piece last moved (default) or by its very move"]
    echo: Option<EchoChoice>,
    #[description = "Start from this position text (seat n = the n-th Swinger)"] position: Option<
        String,
    >,
) -> Result<(), BotError> {
    use poise::ChoiceParameter;
    let cmd = command(
        "party new",
        vec![
            ("umpire", umpire.and_then(at)),
            ("swingers", Some(swingers)),
            ("first", first.and_then(at)),
            ("turn_limit", turn_limit),
            ("seed", seed.map(|n| n.to_string())),
            ("echo", echo.map(|e| e.name().to_string())),
            ("position", position),
        ],
    );
    new_game(ctx, &cmd, PLACE, "Party Chess").await
}

/// Pick your five pieces (total value at most 30), like RRCJP
#[poise::command(slash_command, rename = "pieces")]
pub async fn party_pieces(
    ctx: Ctx<'_>,
    #[description = "Five piece letters (see /pieces)"] set: String,
) -> Result<(), BotError> {
    act(ctx, command("party pieces", vec![("set", Some(set))])).await
}

/// Extend the current turn to at most 7 days after its announcement (Chess-Umpire)
#[poise::command(slash_command, rename = "extend")]
pub async fn party_extend(
    ctx: Ctx<'_>,
    #[description = "The Swinger whose turn it is"] player: UserId,
    #[description = "How long after the announcement, like 5d"] until: String,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "party extend",
            vec![("player", at(player)), ("until", Some(until))],
        ),
    )
    .await
}

/// Set a Swinger's office Warm or not (Chess-Umpire)
#[poise::command(slash_command, rename = "warm")]
pub async fn party_warm(
    ctx: Ctx<'_>,
    #[description = "The Swinger"] player: UserId,
    #[description = "on or off"] state: super::slash::Switch,
) -> Result<(), BotError> {
    use poise::ChoiceParameter;
    act(
        ctx,
        command(
            "party warm",
            vec![
                ("player", at(player)),
                ("state", Some(state.name().to_string())),
            ],
        ),
    )
    .await
}

/// Add or remove a Swinger (Chess-Umpire)
#[poise::command(slash_command, rename = "swinger")]
pub async fn party_swinger(
    ctx: Ctx<'_>,
    #[description = "add or remove"] action: String,
    #[description = "The Swinger"] player: UserId,
) -> Result<(), BotError> {
    let mut cmd = command("party swinger", vec![("player", at(player))]);
    cmd.positional.push(action);
    act(ctx, cmd).await
}

/// Create a bought piece, off the board, for a Swinger (Chess-Umpire)
#[poise::command(slash_command, rename = "create")]
pub async fn party_create(
    ctx: Ctx<'_>,
    #[description = "The piece's letter"] piece: String,
    #[description = "For whom"] r#for: UserId,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "party create",
            vec![("piece", Some(piece)), ("for", at(r#for))],
        ),
    )
    .await
}

/// End the game; the final Weights are its result (Chess-Umpire)
#[poise::command(slash_command, rename = "end")]
pub async fn party_end(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("party end", Vec::new())).await
}

/// Pass your turn
#[poise::command(slash_command)]
pub async fn pass(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("pass", Vec::new())).await
}

/// Surrender: all your pieces leave the board (a Warm Swinger may do it out of turn)
#[poise::command(slash_command)]
pub async fn surrender(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("surrender", Vec::new())).await
}

/// Every Party Chess piece with its value, limit and movement
#[poise::command(slash_command)]
pub async fn pieces(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("pieces", Vec::new())).await
}

/// The Chess-Umpire's ledger: add a line, or edit line n
#[poise::command(slash_command)]
pub async fn ledger(
    ctx: Ctx<'_>,
    #[description = "add or edit"] action: String,
    #[description = "The line's text"] text: String,
    #[description = "The line to edit (for edit)"] entry: Option<u32>,
) -> Result<(), BotError> {
    let mut cmd = command(
        "ledger",
        vec![
            ("text", Some(text)),
            ("entry", entry.map(|n| n.to_string())),
        ],
    );
    cmd.positional.push(action);
    act(ctx, cmd).await
}

//! Kung Fu Bughouse's own slash commands: `/kfb new`, the draft's `/pick`, `/give`, `/claim`
//! and `/proxy`. Like every slash command they only translate typed options into a
//! [`Command`](crate::commands::Command); `/move`, `/moves`, `/status`, `/takeback`, `/export`,
//! `/resign` and `/revert` are shared with the other games (`shared`).

use poise::serenity_prelude as serenity;
use poise::ChoiceParameter;
use serenity::UserId;

use super::context::{BotError, Ctx};
use super::slash::{act, command, new_game, user, with_defaults, Place};

/// Draft: which player of a board moves first.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Order {
    /// Moves first (bottom of the board).
    #[name = "first"]
    First,
    /// Moves second (top of the board).
    #[name = "second"]
    Second,
}

/// Draft: a colour, which decides where captured pieces go.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Colour {
    /// Red.
    #[name = "red"]
    Red,
    /// Light green.
    #[name = "lightgreen"]
    LightGreen,
    /// Blue.
    #[name = "blue"]
    Blue,
}

/// An army of Chess with Different Armies.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Army {
    /// The FIDE army (orthodox chess).
    #[name = "fide"]
    Fide,
    /// Colorbound Clobberers.
    #[name = "clobberers"]
    Clobberers,
    /// Nutty Knights.
    #[name = "nutty"]
    Nutty,
    /// Remarkable Rookies.
    #[name = "rookies"]
    Rookies,
    /// Forward FIDE.
    #[name = "forward"]
    Forward,
}

const PLACE: Place = Place {
    not_in_dm: "games are played in server channels, not in direct messages",
    not_in_thread: "run /kfb new in a text channel: the game gets a thread of its own",
};

/// Kung Fu Bughouse with Different Armies: start a game.
#[poise::command(slash_command, subcommands("kfb_new"), subcommand_required)]
pub async fn kfb(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Start a game in a new thread of this channel (organisers)
#[poise::command(slash_command, rename = "new")]
pub async fn kfb_new(
    ctx: Ctx<'_>,
    #[description = "Team 1: three players, as mentions (@a @b @c)"] team1: String,
    #[description = "Team 2: three players, as mentions (@d @e @f)"] team2: String,
    #[description = "Kung Fu move limit: how long a mover stays locked, like 6h or 45m (default 6h)"]
    move_limit: Option<String>,
    #[description = "Posts in the thread before inactivity may be claimed (default 18)"]
    #[min = 1]
    inactivity_posts: Option<u32>,
    #[description = "Seed for the draft order (default: random)"] seed: Option<u64>,
) -> Result<(), BotError> {
    let (move_limit, inactivity_posts) = with_defaults(ctx, move_limit, inactivity_posts);
    let cmd = command(
        "kfb new",
        vec![
            ("team1", Some(team1)),
            ("team2", Some(team2)),
            ("move_limit", move_limit),
            ("inactivity_posts", inactivity_posts.map(|n| n.to_string())),
            ("seed", seed.map(|n| n.to_string())),
        ],
    );
    new_game(ctx, &cmd, PLACE, "Kung Fu Bughouse").await
}

/// Make your draft pick: order, colour and army
#[poise::command(slash_command)]
pub async fn pick(
    ctx: Ctx<'_>,
    #[description = "Move first or second on your board"] order: Order,
    #[description = "Your colour"] color: Colour,
    #[description = "Your army"] army: Army,
    #[description = "Pick for this player of the other team (after a handed-over choice)"]
    #[rename = "for"]
    for_player: Option<UserId>,
) -> Result<(), BotError> {
    let cmd = command(
        "pick",
        vec![
            ("order", Some(order.name().to_string())),
            ("color", Some(color.name().to_string())),
            ("army", Some(army.name().to_string())),
            ("for", for_player.and_then(user)),
        ],
    );
    act(ctx, cmd).await
}

/// Give a king you hold to a teammate
#[poise::command(slash_command)]
pub async fn give(
    ctx: Ctx<'_>,
    #[description = "The teammate who receives it"] to: UserId,
    #[description = "The piece: K (only kings are given by hand)"] piece: Option<String>,
    #[description = "Which king, by colour, when you hold several"] color: Option<Colour>,
) -> Result<(), BotError> {
    let cmd = command(
        "give",
        vec![
            ("piece", Some(piece.unwrap_or_else(|| "K".to_string()))),
            ("to", user(to)),
            ("color", color.map(|c| c.name().to_string())),
        ],
    );
    act(ctx, cmd).await
}

/// Claim inactivity against your board opponent once their post counter is at the limit
#[poise::command(slash_command)]
pub async fn claim(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("claim", Vec::new())).await
}

/// Let a player act for another one (organisers)
#[poise::command(
    slash_command,
    subcommands("proxy_grant", "proxy_revoke"),
    subcommand_required
)]
pub async fn proxy(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Let a player move for another one (organisers)
#[poise::command(slash_command, rename = "grant")]
pub async fn proxy_grant(
    ctx: Ctx<'_>,
    #[description = "Who may act"] player: UserId,
    #[description = "For whom"]
    #[rename = "for"]
    for_player: UserId,
) -> Result<(), BotError> {
    let cmd = command(
        "proxy grant",
        vec![("player", user(player)), ("for", user(for_player))],
    );
    act(ctx, cmd).await
}

/// Withdraw a proxy grant (organisers)
#[poise::command(slash_command, rename = "revoke")]
pub async fn proxy_revoke(
    ctx: Ctx<'_>,
    #[description = "Who may no longer act"] player: UserId,
    #[description = "For whom"]
    #[rename = "for"]
    for_player: UserId,
) -> Result<(), BotError> {
    let cmd = command(
        "proxy revoke",
        vec![("player", user(player)), ("for", user(for_player))],
    );
    act(ctx, cmd).await
}

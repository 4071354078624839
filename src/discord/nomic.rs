//! Nomic Chess's own slash commands (Nomic rules 6.11). Like every slash command they only
//! translate typed options into a [`Command`](crate::commands::Command); `/move`, `/moves`,
//! `/status`, `/takeback`, `/export`, `/revert` and `/decline` are shared with the other
//! games. Votes also come as buttons under each proposal.

use poise::ChoiceParameter;
use serenity::UserId;

use super::context::{BotError, Ctx};
use super::slash::{act, command, new_game, user, Place};
use poise::serenity_prelude as serenity;

/// The pace preset.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Pace {
    /// Five minutes for each limit.
    #[name = "live"]
    Live,
    /// A day for each limit.
    #[name = "async"]
    Async,
}

/// For or against.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Choice {
    /// For.
    #[name = "for"]
    For,
    /// Against.
    #[name = "against"]
    Against,
}

/// A setting a Referee may change.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum Setting {
    /// Part 1's limit.
    #[name = "part1_limit"]
    Part1,
    /// Part 3's limit.
    #[name = "part3_limit"]
    Part3,
    /// The vote's limit.
    #[name = "vote_limit"]
    Vote,
    /// The longest proposal.
    #[name = "proposal_max"]
    ProposalMax,
    /// Friendly capture.
    #[name = "friendly_capture"]
    FriendlyCapture,
    /// The pace preset.
    #[name = "pace"]
    Pace,
}

const PLACE: Place = Place {
    not_in_dm: "games are played in server channels, not in direct messages",
    not_in_thread: "run /nomic new in a text channel: the game gets a thread of its own",
};

/// Add or remove.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum AddRemove {
    /// Add.
    #[name = "add"]
    Add,
    /// Remove.
    #[name = "remove"]
    Remove,
}

/// Nomic Chess: half-boards pushed together and a ruleset the players vote on.
#[poise::command(
    slash_command,
    subcommands("nomic_new", "nomic_referee"),
    subcommand_required
)]
pub async fn nomic(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Start a Nomic Chess game in a new thread of this channel (organisers)
#[poise::command(slash_command, rename = "new")]
#[allow(clippy::too_many_arguments)]
pub async fn nomic_new(
    ctx: Ctx<'_>,
    #[description = "The players in seating order, as mentions (@a @b @c …)"] players: String,
    #[description = "The Referees, as mentions (default: you)"] referees: Option<String>,
    #[description = "The Order of turns, as mentions (default: drawn from the seed)"] order: Option<
        String,
    >,
    #[description = "live (5 minutes) or async (a day) for every limit"] pace: Option<Pace>,
    #[description = "Part 1's limit, like 5m"] part1_limit: Option<String>,
    #[description = "Part 3's limit, like 5m"] part3_limit: Option<String>,
    #[description = "The vote's limit, like 5m"] vote_limit: Option<String>,
    #[description = "The longest proposal in characters (default 600)"]
    #[min = 1]
    proposal_max: Option<u32>,
    #[description = "Seed for the Order (default: random)"] seed: Option<u64>,
    #[description = "Start from this position text"] position: Option<String>,
) -> Result<(), BotError> {
    let cmd = command(
        "nomic new",
        vec![
            ("players", Some(players)),
            ("referees", referees),
            ("order", order),
            ("pace", pace.map(|p| p.name().to_string())),
            ("part1_limit", part1_limit),
            ("part3_limit", part3_limit),
            ("vote_limit", vote_limit),
            ("proposal_max", proposal_max.map(|n| n.to_string())),
            ("seed", seed.map(|n| n.to_string())),
            ("position", position),
        ],
    );
    new_game(ctx, &cmd, PLACE, "Nomic Chess").await
}

/// Add or remove a Referee during the game (organiser; a numbered action)
#[poise::command(slash_command, rename = "referee")]
pub async fn nomic_referee(
    ctx: Ctx<'_>,
    #[description = "add or remove"] action: AddRemove,
    #[description = "The Referee"] player: UserId,
) -> Result<(), BotError> {
    let mut cmd = command(
        "nomic referee",
        vec![("player", user(player).map(|u| format!("@{u}")))],
    );
    cmd.positional.push(action.name().to_string());
    act(ctx, cmd).await
}

/// Push two half-boards together before a move (Nomic Chess)
#[poise::command(slash_command)]
pub async fn push(
    ctx: Ctx<'_>,
    #[description = "The half at the bottom (its coordinates are the ones you write)"]
    bottom: String,
    #[description = "The half turned round on top"] top: String,
) -> Result<(), BotError> {
    act(
        ctx,
        command("push", vec![("bottom", Some(bottom)), ("top", Some(top))]),
    )
    .await
}

/// End the current part of your turn (Nomic Chess)
#[poise::command(slash_command)]
pub async fn done(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("done", Vec::new())).await
}

/// Take control of a checkmated army offered to you (Nomic Chess)
#[poise::command(slash_command)]
pub async fn take(
    ctx: Ctx<'_>,
    #[description = "The army's number"]
    #[min = 1]
    army: u32,
) -> Result<(), BotError> {
    act(ctx, command("take", vec![("army", Some(army.to_string()))])).await
}

/// Propose a rule-change in part 3 (Nomic Chess)
#[poise::command(slash_command)]
pub async fn propose(
    ctx: Ctx<'_>,
    #[description = "The rule-change (Repeal rule N / Amend rule N to read: … / a new rule)"]
    text: String,
    #[description = "The number you ask for a new rule"] number: Option<u32>,
    #[description = "Referees: a change to an immutable rule (113)"] immutable: Option<bool>,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "propose",
            vec![
                ("number", number.map(|n| n.to_string())),
                ("immutable", immutable.map(|b| b.to_string())),
                ("text", Some(text)),
            ],
        ),
    )
    .await
}

/// Vote on a proposal (Nomic Chess)
#[poise::command(slash_command)]
pub async fn vote(
    ctx: Ctx<'_>,
    #[description = "The proposal's number"]
    #[min = 1]
    proposal: u32,
    #[description = "for or against"] choice: Choice,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "vote",
            vec![
                ("proposal", Some(proposal.to_string())),
                ("choice", Some(choice.name().to_string())),
            ],
        ),
    )
    .await
}

/// Demote one of your non-king pieces after a defeated proposal (Nomic Chess)
#[poise::command(slash_command)]
pub async fn demote(
    ctx: Ctx<'_>,
    #[description = "The piece's square, half and local square, like A:d1"] square: String,
) -> Result<(), BotError> {
    act(ctx, command("demote", vec![("square", Some(square))])).await
}

/// Forfeit the game (Nomic Chess)
#[poise::command(slash_command)]
pub async fn forfeit(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("forfeit", Vec::new())).await
}

/// Invoke Judgment on a disagreement (Nomic Chess)
#[poise::command(slash_command)]
pub async fn judgment(
    ctx: Ctx<'_>,
    #[description = "The question"] question: String,
    #[description = "Other partisan players, as mentions"] partisan: Option<String>,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "judgment",
            vec![("partisan", partisan), ("question", Some(question))],
        ),
    )
    .await
}

/// Record a Judgment (Referees, Nomic Chess)
#[poise::command(slash_command)]
pub async fn judge(
    ctx: Ctx<'_>,
    #[description = "The judgment's number"]
    #[min = 1]
    judgment: u32,
    #[description = "The Judgment"] text: String,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "judge",
            vec![
                ("judgment", Some(judgment.to_string())),
                ("text", Some(text)),
            ],
        ),
    )
    .await
}

/// Vote to overrule a Judgment (non-partisan players, Nomic Chess)
#[poise::command(slash_command)]
pub async fn overrule(
    ctx: Ctx<'_>,
    #[description = "The judgment's number"]
    #[min = 1]
    judgment: u32,
) -> Result<(), BotError> {
    act(
        ctx,
        command("overrule", vec![("judgment", Some(judgment.to_string()))]),
    )
    .await
}

/// Pause play (Referees, Nomic Chess)
#[poise::command(slash_command)]
pub async fn pause(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("pause", Vec::new())).await
}

/// Resume play (Referees, Nomic Chess)
#[poise::command(slash_command)]
pub async fn resume(ctx: Ctx<'_>) -> Result<(), BotError> {
    act(ctx, command("resume", Vec::new())).await
}

/// Give an army to a player (Referees, Nomic Chess)
#[poise::command(slash_command)]
pub async fn assign(
    ctx: Ctx<'_>,
    #[description = "The army's number"]
    #[min = 1]
    army: u32,
    #[description = "The player"] to: UserId,
) -> Result<(), BotError> {
    act(
        ctx,
        command(
            "assign",
            vec![
                ("army", Some(army.to_string())),
                ("to", user(to).map(|u| format!("@{u}"))),
            ],
        ),
    )
    .await
}

/// Set the Order of turns (Referees, Nomic Chess)
#[poise::command(slash_command)]
pub async fn order(
    ctx: Ctx<'_>,
    #[description = "Every army once, like 2,1,3"] set: String,
) -> Result<(), BotError> {
    act(ctx, command("order", vec![("set", Some(set))])).await
}

/// Change a setting (Referees, Nomic Chess)
#[poise::command(slash_command)]
pub async fn set(
    ctx: Ctx<'_>,
    #[description = "The setting"] setting: Setting,
    #[description = "Its value (a duration like 10m, a number, on/off, live/async)"] value: String,
) -> Result<(), BotError> {
    act(ctx, command("set", vec![(setting.name(), Some(value))])).await
}

/// The ruleset, or one rule in full (Nomic Chess)
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Ctx<'_>,
    #[description = "A rule's number"] number: Option<u32>,
) -> Result<(), BotError> {
    act(
        ctx,
        command("rules", vec![("number", number.map(|n| n.to_string()))]),
    )
    .await
}

/// Void or fix a proposal (Referees, Nomic Chess)
#[poise::command(
    slash_command,
    subcommands("proposal_void", "proposal_fix"),
    subcommand_required
)]
pub async fn proposal(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

fn with_word(mut cmd: crate::commands::Command, word: &str) -> crate::commands::Command {
    cmd.positional.push(word.to_string());
    cmd
}

/// Void a proposal: it has no effect (Referees)
#[poise::command(slash_command, rename = "void")]
pub async fn proposal_void(
    ctx: Ctx<'_>,
    #[description = "The proposal's number"] proposal: u32,
) -> Result<(), BotError> {
    let cmd = command("proposal", vec![("proposal", Some(proposal.to_string()))]);
    act(ctx, with_word(cmd, "void")).await
}

/// Fix a proposal's spelling, grammar or punctuation during its vote (Referees)
#[poise::command(slash_command, rename = "fix")]
pub async fn proposal_fix(
    ctx: Ctx<'_>,
    #[description = "The proposal's number"] proposal: u32,
    #[description = "The fixed text"] text: String,
) -> Result<(), BotError> {
    let cmd = command(
        "proposal",
        vec![
            ("proposal", Some(proposal.to_string())),
            ("text", Some(text)),
        ],
    );
    act(ctx, with_word(cmd, "fix")).await
}

/// Edit the game (Referees, Nomic Chess): every edit is logged and revertible
#[poise::command(
    slash_command,
    subcommands(
        "edit_put",
        "edit_remove",
        "edit_move",
        "edit_clock",
        "edit_budget",
        "edit_position",
        "edit_player",
        "edit_controller",
        "edit_undead"
    ),
    subcommand_required
)]
pub async fn edit(_: Ctx<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Put a piece on a square (Referees)
#[poise::command(slash_command, rename = "put")]
pub async fn edit_put(
    ctx: Ctx<'_>,
    #[description = "Half and local square, like A:d1"] square: String,
    #[description = "Letter and army, like Q1"] piece: String,
) -> Result<(), BotError> {
    let cmd = command(
        "edit",
        vec![("square", Some(square)), ("piece", Some(piece))],
    );
    act(ctx, with_word(cmd, "put")).await
}

/// Remove a piece (Referees)
#[poise::command(slash_command, rename = "remove")]
pub async fn edit_remove(
    ctx: Ctx<'_>,
    #[description = "Half and local square, like A:d1"] square: String,
) -> Result<(), BotError> {
    let cmd = command("edit", vec![("square", Some(square))]);
    act(ctx, with_word(cmd, "remove")).await
}

/// Move a piece anywhere (Referees)
#[poise::command(slash_command, rename = "move")]
pub async fn edit_move(
    ctx: Ctx<'_>,
    #[description = "From, like A:d1"] from: String,
    #[description = "To, like B:d4"] to: String,
) -> Result<(), BotError> {
    let cmd = command("edit", vec![("from", Some(from)), ("to", Some(to))]);
    act(ctx, with_word(cmd, "move")).await
}

/// Give the running limit more time, or set the time left (Referees)
#[poise::command(slash_command, rename = "clock")]
pub async fn edit_clock(
    ctx: Ctx<'_>,
    #[description = "Time added, like 5m"] add: Option<String>,
    #[description = "Or: the time left, like 2m"] left: Option<String>,
) -> Result<(), BotError> {
    let cmd = command("edit", vec![("add", add), ("left", left)]);
    act(ctx, with_word(cmd, "clock")).await
}

/// Set who controls an army, or leave its control pending (Referees)
#[poise::command(slash_command, rename = "controller")]
pub async fn edit_controller(
    ctx: Ctx<'_>,
    #[description = "The army's number"] army: u32,
    #[description = "The player who controls it (leave out: control pending)"] to: Option<UserId>,
) -> Result<(), BotError> {
    let to = to
        .and_then(user)
        .map_or_else(|| "pending".to_string(), |u| format!("@{u}"));
    let cmd = command(
        "edit",
        vec![("army", Some(army.to_string())), ("to", Some(to))],
    );
    act(ctx, with_word(cmd, "controller")).await
}

/// Set the times of infection: the undead players, earliest first (Referees)
#[poise::command(slash_command, rename = "undead")]
pub async fn edit_undead(
    ctx: Ctx<'_>,
    #[description = "Every undead player, earliest infection first (- for none)"] order: String,
) -> Result<(), BotError> {
    let cmd = command("edit", vec![("order", Some(order))]);
    act(ctx, with_word(cmd, "undead")).await
}

/// Set the move budget: S and the halves involved (Referees)
#[poise::command(slash_command, rename = "budget")]
pub async fn edit_budget(
    ctx: Ctx<'_>,
    #[description = "S: halves like AB, or -"] s: Option<String>,
    #[description = "Halves involved, like A, or -"] involved: Option<String>,
) -> Result<(), BotError> {
    let cmd = command("edit", vec![("s", s), ("involved", involved)]);
    act(ctx, with_word(cmd, "budget")).await
}

/// Replace the whole position with a position text (Referees)
#[poise::command(slash_command, rename = "position")]
pub async fn edit_position(
    ctx: Ctx<'_>,
    #[description = "The position text"] text: String,
) -> Result<(), BotError> {
    let cmd = command("edit", vec![("text", Some(text))]);
    act(ctx, with_word(cmd, "position")).await
}

/// Mark a player as forfeited, or back in the game (Referees)
#[poise::command(slash_command, rename = "player")]
pub async fn edit_player(
    ctx: Ctx<'_>,
    #[description = "The player"] player: UserId,
    #[description = "Forfeited (true) or back in the game (false)"] forfeited: bool,
) -> Result<(), BotError> {
    let cmd = command(
        "edit",
        vec![
            ("player", user(player).map(|u| format!("@{u}"))),
            ("forfeited", Some(forfeited.to_string())),
        ],
    );
    act(ctx, with_word(cmd, "player")).await
}

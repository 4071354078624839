//! Party Chess's own commands: `/party …` (most of them the Chess-Umpire's), `/pass`,
//! `/surrender`, `/pieces` and the ledger (Party rules 3.9).

use crate::layer::declare::{
    command, mentions, opt, Entry, Kind, To, Who, COUNT, FOR_WHOM, REMIND, SEED, STALL, SWITCH,
    VACATION,
};

const PARTY: &[&str] = &["party"];

/// Party's commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::Group {
        name: "party",
        description: "Party Chess: any number of Swingers on a 20×20 board.",
        subs: &[
            command(
                "party new",
                "Start a Party Chess game in a new thread of this channel (organisers)",
                PARTY,
                &[
                    mentions("swingers", "The Swingers as mentions (@a @b …), at least two")
                        .required(),
                    mentions("players", "The Swingers as mentions").alias(),
                    opt("umpire", "The Chess-Umpire (default: you)", Kind::User),
                    opt(
                        "first",
                        "The first (NAP) Swinger (default: the first named)",
                        Kind::User,
                    ),
                    opt(
                        "turn_limit",
                        "How long a turn lasts, like 3d (default 3d)",
                        Kind::Text,
                    ).hint("<duration>"),
                    opt(
                        "seed",
                        "Seed for the Play List's order (default: random)",
                        SEED,
                    ),
                    opt(
                        "echo",
                        "How an Echo moves: by the rules of the piece last moved (default) or by its very move",
                        Kind::Choice(&["rules", "vector"]),
                    ),
                    REMIND,
                    STALL,
                    VACATION,
                    opt(
                        "position",
                        "Start from this position text (seat n = the n-th Swinger)",
                        Kind::Line,
                    ).hint("<position text>"),
                ],
            )
            .new_game("Party Chess", false),
            command(
                "party pieces",
                "Pick your five pieces (total value at most 30), like RRCJP",
                PARTY,
                &[opt("set", "Five piece letters (see /pieces)", Kind::Text).required()],
            ),
            command(
                "party extend",
                "Extend the current turn to at most 7 days after its announcement (Chess-Umpire)",
                PARTY,
                &[
                    opt("player", "The Swinger whose turn it is", Kind::User).required(),
                    opt(
                        "until",
                        "How long after the announcement, like 5d",
                        Kind::Text,
                    ).hint("<duration>")
                    .required(),
                ],
            )
            .by(Who::Umpire),
            command(
                "party warm",
                "Set a Swinger's office Warm or not (Chess-Umpire)",
                PARTY,
                &[
                    opt("player", "The Swinger", Kind::User).required(),
                    opt("state", "on or off", SWITCH).required(),
                    opt("on", "on or off", SWITCH).alias(),
                ],
            )
            .by(Who::Umpire),
            command(
                "party swinger",
                "Add or remove a Swinger (Chess-Umpire)",
                PARTY,
                &[
                    opt("action", "add or remove", Kind::Text)
                        .hint("add|remove")
                        .required()
                        .to(To::Word),
                    opt("player", "The Swinger", Kind::User).required(),
                ],
            )
            .by(Who::Umpire),
            command(
                "party create",
                "Create a bought piece, off the board, for a Swinger (Chess-Umpire)",
                PARTY,
                &[
                    opt("piece", "The piece's letter", Kind::Text).required(),
                    FOR_WHOM,
                ],
            )
            .by(Who::Umpire),
            command(
                "party end",
                "End the game; the final Weights are its result (Chess-Umpire)",
                PARTY,
                &[],
            )
            .by(Who::Umpire),
        ],
    },
    Entry::One(command("pass", "Pass your turn", PARTY, &[])),
    Entry::One(command(
        "surrender",
        "Surrender: all your pieces leave the board (a Warm Swinger may do it out of turn)",
        PARTY,
        &[],
    )),
    Entry::One(command(
        "pieces",
        "Every Party Chess piece with its value, limit and movement",
        PARTY,
        &[],
    )),
    Entry::One(
        command(
            "ledger",
            "The Chess-Umpire's ledger: show it, add a line, or edit line n",
            PARTY,
            &[
                opt("action", "add or edit (none: show the ledger)", Kind::Text)
                    .hint("add|edit")
                    .to(To::Word),
                opt("text", "The line's text (for add and edit)", Kind::Line),
                opt("entry", "The line to edit (for edit)", COUNT),
                opt("line", "The line to edit", COUNT).alias(),
            ],
        )
        .by(Who::Umpire),
    ),
];

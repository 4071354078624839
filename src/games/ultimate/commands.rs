//! Ultimate Chess's own commands: `/ultimate new`, `/concede` and the organiser's
//! `/ultimate concede` (Ultimate rules 4.2, 4.9).

use crate::layer::declare::{
    command, mentions, opt, Entry, Kind, Who, MOVE_LIMIT, REMIND, SEED, STALL, SWITCH, VACATION,
};

const ULTIMATE: &[&str] = &["ultimate"];

/// Ultimate's commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::Group {
        name: "ultimate",
        description: "Ultimate Chess: four players on a cross-shaped board.",
        subs: &[
            command(
                "ultimate new",
                "Start an Ultimate Chess game in a new thread of this channel (organisers)",
                ULTIMATE,
                &[
                    opt("silver", "Silver (south, moves first)", Kind::User),
                    opt("red", "Red (west)", Kind::User),
                    opt("black", "Black (north)", Kind::User),
                    opt("green", "Green (east)", Kind::User),
                    mentions(
                        "players",
                        "Or four players as mentions, seated at random (@a @b @c @d)",
                    ),
                    opt(
                        "mode",
                        "What happens to a defeated player's pieces (default standard)",
                        Kind::Choice(&["standard", "conquest", "devastation"]),
                    ),
                    opt(
                        "stalemate",
                        "A stalemated player: draw (default) or pass",
                        Kind::Choice(&["draw", "pass"]),
                    ),
                    opt(
                        "promote_at_file_end",
                        "A pawn at the end of a short file promotes there (default off)",
                        SWITCH,
                    ),
                    MOVE_LIMIT,
                    opt("seed", "Seed for the seating (default: random)", SEED),
                    REMIND,
                    STALL,
                    VACATION,
                    opt(
                        "position",
                        "Start from this position text instead of the start array",
                        Kind::Line,
                    )
                    .hint("<position text>"),
                ],
            )
            .new_game("Ultimate Chess", false),
            command(
                "ultimate concede",
                "Concede for a player who overran the move limit (organisers)",
                ULTIMATE,
                &[
                    opt("player", "The player who concedes", Kind::User).required(),
                    opt(
                        "to",
                        "The victor, who takes over in Devastation",
                        Kind::User,
                    ),
                ],
            )
            .by(Who::Organisers),
        ],
    },
    Entry::One(command(
        "concede",
        "Concede the game (in Devastation, name who takes over your pieces)",
        ULTIMATE,
        &[opt(
            "to",
            "The player who takes over your pieces",
            Kind::User,
        )],
    )),
];

//! Kung Fu Bughouse's own commands: `/kfb new`, the draft's `/pick`, `/give`, `/claim` and
//! `/proxy` (KFB rules 1.2, 1.9, 1.10).

use crate::layer::declare::{
    command, opt, Entry, Kind, Who, FOR_WHOM, NUMBER, REMIND, SEED, STALL, SWITCH, VACATION,
};

/// The armies of Chess with Different Armies (KFB's drops and draft).
pub const ARMIES: Kind = Kind::Choice(&["fide", "clobberers", "nutty", "rookies", "forward"]);

const KFB: &[&str] = &["kfb"];

/// A draft colour.
const COLOURS: Kind = Kind::Choice(&["red", "lightgreen", "blue"]);

/// KFB's commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::Group {
        name: "kfb",
        description: "Kung Fu Bughouse with Different Armies: start a game.",
        subs: &[command(
            "kfb new",
            "Start a game in a new thread of this channel (organisers)",
            KFB,
            &[
                opt("team1", "Team 1: three players, as mentions (@a @b @c)", Kind::Text).hint("@a @b @c").required(),
                opt("team2", "Team 2: three players, as mentions (@d @e @f)", Kind::Text).hint("@d @e @f").required(),
                opt(
                    "move_limit",
                    "Kung Fu move limit: how long a mover stays locked, like 6h or 45m (default 6h)",
                    Kind::Text,
                ).hint("<duration>"),
                opt(
                    "inactivity_posts",
                    "Posts in the thread before inactivity may be claimed (default 18)",
                    NUMBER,
                ),
                opt("seed", "Seed for the draft order (default: random)", SEED),
                REMIND,
                STALL,
                    VACATION,
                opt(
                    "promoted_pawns",
                    "on (default): a captured promoted piece returns to hand as a pawn",
                    SWITCH,
                )
                .console(),
            ],
        )
        .new_game("Kung Fu Bughouse", true)],
    },
    Entry::One(command(
        "pick",
        "Make your draft pick: order, colour and army",
        KFB,
        &[
            opt(
                "order",
                "Move first or second on your board",
                Kind::Choice(&["first", "second"]),
            )
            .required(),
            opt("color", "Your colour", COLOURS).required(),
            opt("colour", "Your colour", COLOURS).alias(),
            opt("army", "Your army", ARMIES).required(),
            opt(
                "for",
                "Pick for this player of the other team (after a handed-over choice)",
                Kind::User,
            ),
        ],
    )),
    Entry::One(command(
        "give",
        "Give a king you hold to a teammate",
        KFB,
        &[
            opt("to", "The teammate who receives it", Kind::User).required(),
            opt(
                "piece",
                "The piece: K (only kings are given by hand)",
                Kind::Text,
            )
            .or("K"),
            opt("color", "Which king, by colour, when you hold several", COLOURS),
            opt("colour", "Which king, by colour", COLOURS).alias(),
        ],
    )),
    Entry::One(command(
        "claim",
        "Claim inactivity against your board opponent once their post counter is at the limit",
        KFB,
        &[],
    )),
    Entry::Group {
        name: "proxy",
        description: "Let a player act for another one (organisers)",
        subs: &[
            command(
                "proxy grant",
                "Let a player move for another one (organisers)",
                KFB,
                &[
                    opt("player", "Who may act", Kind::User).required(),
                    FOR_WHOM,
                ],
            )
            .by(Who::Organisers),
            command(
                "proxy revoke",
                "Withdraw a proxy grant (organisers)",
                KFB,
                &[
                    opt("player", "Who may no longer act", Kind::User).required(),
                    FOR_WHOM,
                ],
            )
            .by(Who::Organisers),
        ],
    },
];

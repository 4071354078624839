//! Nomic Chess's own commands (Nomic rules 6.11): the turn's `/push`, `/done`, `/take`,
//! `/propose` and `/vote`; Judgments; and the Referees' `/pause`, `/resume`, `/assign`,
//! `/order`, `/set`, `/proposal …` and `/edit …`. Votes also come as buttons.

use crate::layer::declare::{
    command, mentions, opt, Entry, Kind, To, Who, COUNT, NUMBER, POSITION, REMIND, SEED, STALL,
    SWITCH, VACATION,
};

const NOMIC: &[&str] = &["nomic"];

/// Nomic's commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::Group {
        name: "nomic",
        description: "Nomic Chess: half-boards pushed together and a ruleset the players vote on.",
        subs: &[
            command(
                "nomic new",
                "Start a Nomic Chess game in a new thread of this channel (organisers)",
                NOMIC,
                &[
                    mentions(
                        "players",
                        "The players in seating order, as mentions (@a @b @c …)",
                    )
                    .required(),
                    opt(
                        "referees",
                        "The Referees, as mentions (default: you)",
                        Kind::Text,
                    )
                    .hint("@r …"),
                    opt(
                        "order",
                        "The Order of turns, as mentions (default: drawn from the seed)",
                        Kind::Text,
                    ),
                    opt(
                        "pace",
                        "live (5 minutes) or async (a day) for every limit",
                        Kind::Choice(&["live", "async"]),
                    ),
                    opt("part1_limit", "Part 1's limit, like 5m", Kind::Text).hint("<duration>"),
                    opt("part3_limit", "Part 3's limit, like 5m", Kind::Text).hint("<duration>"),
                    opt("vote_limit", "The vote's limit, like 5m", Kind::Text).hint("<duration>"),
                    opt(
                        "proposal_max",
                        "The longest proposal in characters (default 600)",
                        NUMBER,
                    ),
                    opt(
                        "friendly_capture",
                        "on: armies of one controller may capture each other (default off)",
                        SWITCH,
                    )
                    .console(),
                    opt("seed", "Seed for the Order (default: random)", SEED),
                    REMIND,
                    STALL,
                    VACATION,
                    POSITION,
                ],
            )
            .new_game("Nomic Chess", false),
            command(
                "nomic referee",
                "Add or remove a Referee during the game (organiser; a numbered action)",
                NOMIC,
                &[
                    opt("action", "add or remove", Kind::Choice(&["add", "remove"]))
                        .required()
                        .to(To::Word),
                    opt("player", "The Referee", Kind::User).required(),
                ],
            )
            .by(Who::Organisers),
        ],
    },
    Entry::One(command(
        "push",
        "Push two half-boards together before a move (Nomic Chess)",
        NOMIC,
        &[
            opt(
                "bottom",
                "The half at the bottom (its coordinates are the ones you write)",
                Kind::Text,
            )
            .hint("<half>")
            .required(),
            opt("top", "The half turned round on top", Kind::Text)
                .hint("<half>")
                .required(),
        ],
    )),
    Entry::One(command(
        "done",
        "End the current part of your turn (Nomic Chess)",
        NOMIC,
        &[],
    )),
    Entry::One(command(
        "take",
        "Take control of a checkmated army offered to you (Nomic Chess)",
        NOMIC,
        &[opt("army", "The army's number", NUMBER).required()],
    )),
    Entry::One(command(
        "propose",
        "Propose a rule-change in part 3 (Nomic Chess)",
        NOMIC,
        &[
            opt(
                "text",
                "The rule-change (Repeal rule N / Amend rule N to read: … / a new rule)",
                Kind::Line,
            )
            .required(),
            opt("number", "The number you ask for a new rule", COUNT),
            opt(
                "immutable",
                "Referees: a change to an immutable rule (113)",
                Kind::Bool,
            ),
        ],
    )),
    Entry::One(command(
        "vote",
        "Vote on a proposal (Nomic Chess)",
        NOMIC,
        &[
            opt("proposal", "The proposal's number", NUMBER).required(),
            opt(
                "choice",
                "for or against",
                Kind::Choice(&["for", "against"]),
            )
            .required(),
        ],
    )),
    Entry::One(command(
        "demote",
        "Demote one of your non-king pieces after a defeated proposal (Nomic Chess)",
        NOMIC,
        &[opt(
            "square",
            "The piece's square, half and local square, like A:d1",
            Kind::Text,
        )
        .hint("<half>:<sq>")
        .required()],
    )),
    Entry::One(command(
        "forfeit",
        "Forfeit the game (Nomic Chess)",
        NOMIC,
        &[],
    )),
    Entry::One(command(
        "judgment",
        "Invoke Judgment on a disagreement (Nomic Chess)",
        NOMIC,
        &[
            opt("question", "The question", Kind::Line).required(),
            opt(
                "partisan",
                "Other partisan players, as mentions",
                Kind::Text,
            )
            .hint("@a …"),
        ],
    )),
    Entry::One(
        command(
            "judge",
            "Record a Judgment (Referees, Nomic Chess)",
            NOMIC,
            &[
                opt("judgment", "The judgment's number", NUMBER).required(),
                opt("text", "The Judgment", Kind::Line).required(),
            ],
        )
        .by(Who::Referees),
    ),
    Entry::One(command(
        "overrule",
        "Vote to overrule a Judgment (non-partisan players, Nomic Chess)",
        NOMIC,
        &[opt("judgment", "The judgment's number", NUMBER).required()],
    )),
    Entry::One(
        command("pause", "Pause play (Referees, Nomic Chess)", NOMIC, &[]).by(Who::Referees),
    ),
    Entry::One(
        command(
            "assign",
            "Give an army to a player (Referees, Nomic Chess)",
            NOMIC,
            &[
                opt("army", "The army's number", NUMBER).required(),
                opt("to", "The player", Kind::User).required(),
            ],
        )
        .by(Who::Referees),
    ),
    Entry::One(
        command(
            "order",
            "Set the Order of turns (Referees, Nomic Chess)",
            NOMIC,
            &[opt("set", "Every army once, like 2,1,3", Kind::Text).required()],
        )
        .by(Who::Referees),
    ),
    Entry::One(
        command(
            "set",
            "Change a setting (Referees, Nomic Chess)",
            NOMIC,
            &[
                opt(
                    "setting",
                    "The setting",
                    Kind::Choice(&[
                        "part1_limit",
                        "part3_limit",
                        "vote_limit",
                        "proposal_max",
                        "friendly_capture",
                        "pace",
                    ]),
                )
                .required()
                .to(To::KeyOf("value")),
                opt(
                    "value",
                    "Its value (a duration like 10m, a number, on/off, live/async)",
                    Kind::Text,
                )
                .required()
                .to(To::Through),
            ],
        )
        .by(Who::Referees),
    ),
    Entry::One(command(
        "rules",
        "The ruleset, or one rule in full (Nomic Chess)",
        NOMIC,
        &[opt("number", "A rule's number", COUNT)],
    )),
    Entry::Group {
        name: "proposal",
        description: "Void or fix a proposal (Referees, Nomic Chess)",
        subs: &[
            command(
                "proposal void",
                "Void a proposal: it has no effect (Referees)",
                NOMIC,
                &[opt("proposal", "The proposal's number", COUNT).required()],
            )
            .by(Who::Referees)
            .word(),
            command(
                "proposal fix",
                "Fix a proposal's spelling, grammar or punctuation during its vote (Referees)",
                NOMIC,
                &[
                    opt("proposal", "The proposal's number", COUNT).required(),
                    opt("text", "The fixed text", Kind::Line).required(),
                ],
            )
            .by(Who::Referees)
            .word(),
        ],
    },
    Entry::Group {
        name: "edit",
        description: "Edit the game (Referees, Nomic Chess): every edit is logged and revertible",
        subs: &[
            command(
                "edit put",
                "Put a piece on a square (Referees)",
                NOMIC,
                &[
                    opt("square", "Half and local square, like A:d1", Kind::Text)
                        .hint("<half>:<sq>")
                        .required(),
                    opt("piece", "Letter and army, like Q1", Kind::Text).required(),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit remove",
                "Remove a piece (Referees)",
                NOMIC,
                &[
                    opt("square", "Half and local square, like A:d1", Kind::Text)
                        .hint("<half>:<sq>")
                        .required(),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit move",
                "Move a piece anywhere (Referees)",
                NOMIC,
                &[
                    opt("from", "From, like A:d1", Kind::Text).required(),
                    opt("to", "To, like B:d4", Kind::Text).required(),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit clock",
                "Give the running limit more time, or set the time left (Referees)",
                NOMIC,
                &[
                    opt("add", "Time added, like 5m", Kind::Text).hint("<duration>"),
                    opt("left", "Or: the time left, like 2m", Kind::Text).hint("<duration>"),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit budget",
                "Set the move budget: S and the halves involved (Referees)",
                NOMIC,
                &[
                    opt("s", "S: halves like AB, or -", Kind::Text),
                    opt("involved", "Halves involved, like A, or -", Kind::Text),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit position",
                "Replace the whole position with a position text (Referees)",
                NOMIC,
                &[
                    opt("text", "The position text", Kind::Line).required(),
                    opt("position", "The position text", Kind::Line)
                        .hint("<position text>")
                        .alias(),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit player",
                "Mark a player as forfeited, or back in the game (Referees)",
                NOMIC,
                &[
                    opt("player", "The player", Kind::User).required(),
                    opt(
                        "forfeited",
                        "Forfeited (true) or back in the game (false)",
                        Kind::Bool,
                    )
                    .required(),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit controller",
                "Set who controls an army, or leave its control pending (Referees)",
                NOMIC,
                &[
                    opt("army", "The army's number", COUNT).required(),
                    opt(
                        "to",
                        "The player who controls it (leave out: control pending)",
                        Kind::User,
                    )
                    .or("pending"),
                ],
            )
            .by(Who::Referees)
            .word(),
            command(
                "edit undead",
                "Set the times of infection: the undead players, earliest first (Referees)",
                NOMIC,
                &[opt(
                    "order",
                    "Every undead player, earliest infection first (- for none)",
                    Kind::Text,
                )
                .required()],
            )
            .by(Who::Referees)
            .word(),
        ],
    },
];

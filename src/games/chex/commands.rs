//! Chex's own commands: `/chex new`, `/draw`, `/place` and the organiser's `/chex resign`
//! (Chex rules 5.10).

use crate::layer::declare::{
    command, mentions, opt, Entry, Kind, Who, COUNT, MOVE_LIMIT, POSITION, REMIND, SEED, STALL,
    VACATION,
};

const CHEX: &[&str] = &["chex"];

/// Chex's commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::Group {
        name: "chex",
        description: "Chex: a board that grows and shrinks, pieces drawn at random.",
        subs: &[
            command(
                "chex new",
                "Start a Chex game in a new thread of this channel (organisers)",
                CHEX,
                &[
                    opt("white", "White (plays first)", Kind::User).required(),
                    opt("black", "Black", Kind::User).required(),
                    mentions("players", "White and Black, as mentions").alias(),
                    opt(
                        "draw_mode",
                        "reveal (default): /draw then /place; blind: /draw square:",
                        Kind::Choice(&["reveal", "blind"]),
                    ),
                    opt(
                        "stalemate",
                        "A stalemate: declare a draw (default) or offer one",
                        Kind::Choice(&["declare", "offer"]),
                    ),
                    opt(
                        "max_board",
                        "Largest board, files and ranks (8-26, default 26)",
                        Kind::Int { min: 8, max: 26 },
                    ),
                    MOVE_LIMIT,
                    opt(
                        "seed",
                        "Seed of the stacks' shuffle (default: random; its SHA-256 is shown)",
                        SEED,
                    ),
                    REMIND,
                    STALL,
                    VACATION,
                    POSITION,
                ],
            )
            .new_game("Chex", false),
            command(
                "chex resign",
                "Resign for a player who overran the move limit (organisers)",
                CHEX,
                &[opt("player", "The player who resigns", Kind::User).required()],
            )
            .by(Who::Organisers),
        ],
    },
    Entry::One(command(
        "draw",
        "Draw the top piece of your stack (in a blind game, name the square first)",
        CHEX,
        &[
            opt(
                "square",
                "Blind games: the square the piece goes on, like c3",
                Kind::Text,
            )
            .hint("<sq>"),
            opt(
                "turn",
                "The board number your square refers to (refused if the board changed)",
                COUNT,
            ),
        ],
    )),
    Entry::One(command(
        "place",
        "Place the piece you drew next to any piece in play",
        CHEX,
        &[
            opt(
                "square",
                "The square, like c3 (/moves lists them)",
                Kind::Text,
            )
            .hint("<sq>")
            .required()
            .moves(),
            opt(
                "turn",
                "The board number your square refers to (refused if the board changed)",
                COUNT,
            ),
        ],
    )),
];

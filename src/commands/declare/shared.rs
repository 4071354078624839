//! The commands several games share (`/move`, `/moves`, `/status`, `/takeback`, `/export`,
//! `/resign`, `/revert`, the draw offers), and `/help` and `/settings`, which belong to no
//! game. An option one game alone reads says so (`only`), for that game's help.

use super::{command, opt, Declared, Desk, Entry, Kind, Opt, Run, To, Who, COUNT, NUMBER, SWITCH};

use super::EVERY as ALL;
use crate::games::kfb::commands::ARMIES;

/// A Chex board number.
const TURN: Opt = opt(
    "turn",
    "Chex: the board number your move refers to (refused if the board changed)",
    COUNT,
)
.only(&["chex"]);

/// The games rated (`/rating`, `/leaderboard`, `/stats`).
const RATED: Kind = Kind::Choice(&["kfb", "ultimate", "chex", "party", "nomic"]);

/// The games with conditional moves (the others refuse `/premove`, saying why).
const PREMOVES: &[&str] = &["kfb", "ultimate", "party"];

/// The shared commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::One(command(
        "move",
        "Make a move or a drop: Nb1-c3, d4xe5, N@f3, e7-e8=Q, 0-0",
        ALL,
        &[
            opt(
                "notation",
                "The move in long algebraic notation (Nb1-c3, N@f3, e7-e8=Q, P@g6(nutty))",
                Kind::Text,
            )
            .hint("<move>")
            .required()
            .moves(),
            opt(
                "board",
                "The board to play on, when you play for someone by proxy",
                Kind::Int { min: 1, max: 3 },
            )
            .only(&["kfb"]),
            opt(
                "army",
                "Which army's pawn to drop, when you hold pawns of several armies",
                ARMIES,
            )
            .only(&["kfb"]),
            TURN,
            // A push picked from Nomic's offered list, as the console reads it.
            opt("bottom", "The half at the bottom", Kind::Text)
                .hint("<half>")
                .only(&["nomic"])
                .alias(),
            opt("top", "The half turned round on top", Kind::Text)
                .hint("<half>")
                .only(&["nomic"])
                .alias(),
        ],
    )),
    Entry::One(command(
        "takeback",
        "Take back your last action, if nothing happened since",
        ALL,
        &[],
    )),
    Entry::One(command(
        "status",
        "Show the game: draft or boards, locks, inactivity, kings",
        ALL,
        &[],
    )),
    Entry::One(command(
        "moves",
        "List your legal moves, optionally those touching a square",
        ALL,
        &[
            opt(
                "square",
                "Only moves that mention this square, like e2",
                Kind::Text,
            )
            .hint("<sq>"),
            opt(
                "piece",
                "Party Chess: only placements of this piece, like R",
                Kind::Text,
            )
            .only(&["party"]),
        ],
    )),
    Entry::One(command(
        "export",
        "Export the game as text (tags, then the action log)",
        ALL,
        &[],
    )),
    Entry::One(
        command(
            "replay",
            "Post the game so far as an animated GIF, one frame per move",
            ALL,
            &[
                opt(
                    "from",
                    "The first action to show (as in replies: #12)",
                    NUMBER,
                ),
                opt("to", "The last action to show", NUMBER),
                opt("board", "Only this board", Kind::Int { min: 1, max: 3 }).only(&["kfb"]),
                opt(
                    "speed",
                    "How fast the frames go (normal: one a second)",
                    Kind::Choice(&["slow", "normal", "fast"]),
                ),
            ],
        )
        .run(Run::Animation),
    ),
    Entry::One(command(
        "resign",
        "Resign the game for your team",
        &["kfb", "chex"],
        &[],
    )),
    Entry::One(
        command(
            "revert",
            "Undo the game back to before an action (moderators; asks for confirmation)",
            ALL,
            &[
                opt(
                    "to",
                    "The action number to undo, with all after it (as in replies: #12)",
                    NUMBER,
                )
                .required(),
                opt("reason", "Why (kept in the game log)", Kind::Text).required(),
            ],
        )
        .by(Who::Moderators),
    ),
    Entry::One(command(
        "offer",
        "Offer a draw to the players still in the game",
        &["ultimate", "chex"],
        &[opt("what", "What you offer", Kind::Text)
            .hint("draw")
            .to(To::Word)
            .or("draw")],
    )),
    Entry::One(command(
        "accept",
        "Accept the draw offer",
        &["ultimate", "chex"],
        &[],
    )),
    Entry::One(command(
        "decline",
        "Decline the draw offer (Nomic Chess: decline an army offered to you)",
        &["ultimate", "chex", "nomic"],
        &[opt("army", "Nomic Chess: the army offered to you", NUMBER).only(&["nomic"])],
    )),
    Entry::One(
        command(
            "mygames",
            "Your games in progress: those waiting on you first, most urgent first (only you see it)",
            &[],
            &[],
    )
        .anywhere(Desk::MyGames)
        .private(),
    ),
    Entry::One(
        command(
            "rating",
            "A player's rating on this server: rating, deviation, games, last change (only you see it)",
            &[],
            &[
                opt("player", "Whose rating (you by default)", Kind::User),
                opt("game", "Which game (every game they played by default)", RATED),
            ],
    )
        .anywhere(Desk::Rating),
    ),
    Entry::One(
        command(
            "leaderboard",
            "The top 20 players of a game on this server by rating",
            &[],
            &[opt("game", "Which game", RATED).required()],
    )
        .anywhere(Desk::Leaderboard)
        .picture("leaderboard.png"),
    ),
    Entry::One(
        command(
            "stats",
            "A player's finished games: results, and the median and slowest time to act",
            &[],
            &[
                opt("player", "Whose games (you by default)", Kind::User),
                opt("game", "Which game (every game by default)", RATED),
            ],
    )
        .anywhere(Desk::Stats),
    ),
    Entry::One(command(
        "notify",
        "Your reminders: on or off, how often, quiet hours in your zone (only you see it)",
        &[],
        &[
            opt("reminders", "Reminders when a game waits on you", SWITCH),
            opt(
                "after",
                "Remind you after this long, like 8h or 2d (yours wins over the game's), or default",
                Kind::Text,
            )
            .hint("<duration>"),
            opt(
                "quiet",
                "Hours without reminders, like 22-07, or off (turn pings still come)",
                Kind::Text,
            )
            .hint("<HH-HH>|off"),
            opt(
                "zone",
                "Your time zone for quiet hours: Europe/Paris, America/New_York, +05:30…",
                Kind::Text,
            )
            .hint("<zone>"),
        ],
    )),
    Entry::One(
        command(
            "vacation",
            "Be away: your turn limits and reminders stop until then (only you see it); or off",
            &[],
            &[
                opt(
                    "until",
                    "Back on this date or after this long: 2026-01-05, 2026-01-05 18:00 (your zone), 5d",
                    Kind::Line,
                )
                .hint("<date|duration>"),
                opt("off", "End your vacation now", Kind::Bool),
            ],
    )
        .anywhere(Desk::Vacation)
        .private(),
    ),
    Entry::One(
        command(
            "resume",
            "Resume a paused game: the organiser (Nomic Chess: the Referees); play also resumes it",
            &["nomic", "party"],
            &[],
        )
        .by(Who::Organisers),
    ),
    Entry::One(
        command(
            "substitute",
            "Hand a player's seat to a substitute from now on: pieces, hands, clocks and all",
            ALL,
            &[
                opt("player", "The player who leaves the seat", Kind::User).required(),
                opt("by", "The substitute who plays the seat from now on", Kind::User)
                    .required(),
            ],
        )
        .by(Who::Organisers),
    ),
    Entry::One(command(
        "premove",
        "Conditional moves: line:<their move> <your reply>…, now:<move> as soon as you may, or clear",
        PREMOVES,
        &[
            opt(
                "line",
                "Each play before yours (* for any), then your reply; KFB: pairs of their move, your reply",
                Kind::Line,
            )
            .hint("<plays>"),
            opt(
                "now",
                "A move played for you as soon as you may move (checked then)",
                Kind::Text,
            )
            .hint("<move>"),
            opt("clear", "Drop all your conditional moves in this game", Kind::Bool),
        ],
    )),
    Entry::One(command(
        "premoves",
        "Your conditional moves in this game, and those dropped (only you see it)",
        PREMOVES,
        &[],
    )),
    Entry::One(command(
        "help",
        "How to play with Arbiter: the commands",
        &[],
        &[opt(
            "game",
            "Only this game's commands: kfb, ultimate, chex, nomic, party or tournament",
            Kind::Text,
        )],
    )),
    Entry::One(SETTINGS),
];

/// `/settings`, answered by the front end.
const SETTINGS: Declared = command(
    "settings",
    "Choose the organiser and moderator roles and the defaults of new games (server admins)",
    &[],
    &[
        opt(
            "organiser_role",
            "Members with this role may start games and grant proxies",
            Kind::Role,
        ),
        opt(
            "moderator_role",
            "Members with this role may revert games",
            Kind::Role,
        ),
        opt(
            "default_move_limit",
            "Default move limit of new games, like 6h, 6m or 45m",
            Kind::Text,
        )
        .hint("<duration>"),
        opt(
            "default_inactivity_posts",
            "Default posts before inactivity may be claimed in new games",
            NUMBER,
        ),
        opt(
            "reminder_after",
            "Remind players waited on this long in new games, like 12h, or off (default 12h)",
            Kind::Text,
        )
        .hint("<duration>|off"),
        opt(
            "stall_after",
            "Pause new games nobody has acted in for this long, like 30d, or off (default 30d)",
            Kind::Text,
        )
        .hint("<duration>|off"),
        opt(
            "vacation_days",
            "Vacation days each player has per year on this server (default 14; 0: none)",
            Kind::Int { min: 0, max: 366 },
        ),
    ],
)
.by(Who::Admins)
.run(Run::Settings);

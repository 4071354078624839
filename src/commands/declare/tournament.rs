//! The tournaments' commands: `/tournament …` (mostly the organisers'), `/signup` and
//! `/withdraw`, each in the tournament's thread.

use super::{
    command, opt, Declared, Entry, Kind, Run, Who, COUNT, NUMBER, REMIND, SEED, STALL, VACATION,
};

/// A tournament command for organisers, in its thread.
const fn organisers(d: Declared) -> Declared {
    d.by(Who::Organisers).run(Run::Tournament)
}

/// A tournament command anyone may use, in its thread.
const fn anyone(d: Declared) -> Declared {
    d.run(Run::Tournament)
}

/// The tournaments' commands, in the order Discord lists them.
pub static ENTRIES: &[Entry] = &[
    Entry::Group {
        name: "tournament",
        description: "Tournaments: signups, teams, Swiss rounds with match threads, standings",
        subs: &[
            command(
                "tournament new",
                "Start a tournament in a new thread of this channel (organisers)",
                &[],
                &[
                    opt(
                        "name",
                        "The tournament's name (also its thread's name)",
                        Kind::TextMax(80),
                    )
                    .required(),
                    opt(
                        "game",
                        "The game played (default kfb)",
                        Kind::Choice(&["kfb", "chex", "ultimate", "party", "nomic"]),
                    ),
                    opt(
                        "format",
                        "swiss (default) or roundrobin (two-player games)",
                        Kind::Choice(&["swiss", "roundrobin"]),
                    ),
                    opt(
                        "table",
                        "Players at a table (Ultimate 4; Party and Nomic 3-8, default 4)",
                        Kind::Int { min: 3, max: 8 },
                    ),
                    opt(
                        "losses_to_eliminate",
                        "Match losses that eliminate a team (default 2; 0: Swiss without elimination)",
                        COUNT,
                    ),
                    opt(
                        "rounds",
                        "At most this many rounds (default: as many as the field needs)",
                        NUMBER,
                    ),
                    opt(
                        "move_limit",
                        "Move limit of the match games, like 6h or 45m (Kung Fu default 6h)",
                        Kind::Text,
                    ).hint("<duration>"),
                    opt(
                        "inactivity_posts",
                        "Posts in a match thread before inactivity may be claimed (default 18)",
                        NUMBER,
                    ),
                    opt(
                        "points",
                        "Points: win/draw/loss like 2/1/0 (KFB) or 1/0.5/0 (Chex); per place like 3/2/1/0",
                        Kind::TextMax(20),
                    ),
                    VACATION,
                    REMIND,
                    STALL,
                    opt(
                        "draw_mode",
                        "Chex: reveal (default) or blind",
                        Kind::Choice(&["reveal", "blind"]),
                    ),
                    opt(
                        "stalemate",
                        "Chex: declare or offer; Ultimate: draw or pass",
                        Kind::Text,
                    ),
                    opt(
                        "max_board",
                        "Chex: largest board (8-26, default 26)",
                        Kind::Int { min: 8, max: 26 },
                    ),
                    opt(
                        "mode",
                        "Ultimate: standard, conquest or devastation",
                        Kind::Choice(&["standard", "conquest", "devastation"]),
                    ),
                    opt(
                        "turn_limit",
                        "Party: the turn limit, like 1d",
                        Kind::Text,
                    )
                    .hint("<duration>"),
                    opt(
                        "pace",
                        "Nomic: live or async limits",
                        Kind::Choice(&["live", "async"]),
                    ),
                ],
            )
            .by(Who::Organisers)
            .run(Run::NewTournament),
            organisers(command(
                "tournament teams",
                "Form the teams from the signups (organisers)",
                &[],
                &[opt(
                    "seed",
                    "Seed for the random part of the teams (default: random; it is shown)",
                    SEED,
                )],
            )),
            organisers(command(
                "tournament pair",
                "Pair the next round and open a thread for each match (organisers)",
                &[],
                &[],
            )),
            organisers(command(
                "tournament result",
                "Set or correct a match result (organisers)",
                &[],
                &[
                    opt("board", "The board (match) number in its round", NUMBER).required(),
                    opt(
                        "result",
                        "The result, for the teams in the order the pairing lists them",
                        Kind::Choice(&[
                            "1-0: the first-listed team won",
                            "0-1: the second-listed team won",
                            "draw",
                            "+-: the first-listed team won by forfeit",
                            "-+: the second-listed team won by forfeit",
                            "--: double forfeit",
                            "auto: follow the game",
                        ]),
                    )
                    .required(),
                    opt("round", "The round (default: the current one)", NUMBER),
                ],
            )),
            organisers(command(
                "tournament substitute",
                "Hand a player's place on a team to a substitute from the team's next match (organisers)",
                &[],
                &[
                    opt("team", "The team's number", NUMBER).required(),
                    opt("player", "The player who leaves the team", Kind::User).required(),
                    opt("by", "Who plays in their place", Kind::User).required(),
                ],
            )),
            organisers(command(
                "tournament withdraw",
                "Withdraw a team from the rest of the tournament (organisers)",
                &[],
                &[opt("team", "The team's number", NUMBER).required()],
            )),
            anyone(command(
                "tournament standings",
                "Post the standings",
                &[],
                &[],
            )),
            anyone(command(
                "tournament pairings",
                "Show a round's pairings with their results and the players seated (only you see it)",
                &[],
                &[opt("round", "The round (default: the current one)", NUMBER)],
            )),
            anyone(command(
                "tournament export",
                "Export the tournament as a TRF file (only you see it)",
                &[],
                &[],
            ))
            .file(
                "tournament.trf",
                "The tournament in the FIDE Tournament Report File format: tournament.trf",
            ),
            anyone(command(
                "tournament status",
                "Show the tournament: settings, signups, teams, round (only you see it)",
                &[],
                &[],
            )),
        ],
    },
    Entry::One(
        command(
            "signup",
            "Sign up for this thread's tournament, alone or with up to two teammates",
            &[],
            &[
                opt(
                    "mate1",
                    "A teammate (signed up with you by being named)",
                    Kind::User,
                ),
                opt("mate2", "A second teammate", Kind::User),
            ],
        )
        .run(Run::Tournament)
        .remembers_names(),
    ),
    Entry::One(anyone(command(
        "withdraw",
        "Withdraw from this thread's tournament (a substitute takes your place on a team)",
        &[],
        &[],
    ))),
];

#[cfg(test)]
mod tests {
    #[test]
    fn every_result_choice_is_one_the_command_layer_reads() {
        let result = crate::commands::declare::all()
            .find(|d| d.path == "tournament result")
            .and_then(|d| d.options.iter().find(|o| o.name == "result"))
            .unwrap();
        let crate::commands::declare::Kind::Choice(choices) = result.kind else {
            panic!("result is a choice");
        };
        assert_eq!(choices.len(), 7);
        for shown in choices {
            let code = crate::commands::declare::Opt::choice_value(shown);
            if code != "auto" {
                crate::tournament::MatchResult::parse(code).unwrap();
            }
        }
    }
}

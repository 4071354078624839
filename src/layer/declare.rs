//! The vocabulary every slash command is declared in, as data: its name, options (kind,
//! choices, description, completion), who may use it, which games it serves and how the
//! front end runs it. A game declares its own commands with these (its `commands.rs`); the
//! command layer gathers every declaration and three readers
//! are made from them and nothing else:
//!
//! - the Discord registration and the interaction handler (`discord::slash`), which turn typed
//!   options into a [`Command`] as [`Declared::command`] says;
//! - the console's parser ([`Command::parse_with`]): which names take a subcommand, which
//!   options run to the end of the line, and the refusal of an option the command does not
//!   have;
//! - `/help`, one line per game.
//!
//! What the front end must do besides handing a command over (open a thread, defer, draw a
//! picture, answer privately, ask another of the service's entries) is declared here too
//! ([`Run`], [`Desk`] and the answer's fields of [`Declared`]), so the front end routes
//! every command by its declaration and names none.

use super::Command;

/// A top-level slash command: one command, or a group of subcommands (`/kfb new`).
#[derive(Debug)]
pub enum Entry {
    /// A command without subcommands.
    One(Declared),
    /// A group (`kfb`, `edit`) and its subcommands.
    Group {
        /// The group's name.
        name: &'static str,
        /// What Discord shows for the group.
        description: &'static str,
        /// The subcommands, in the order Discord lists them.
        subs: &'static [Declared],
    },
}

impl Entry {
    /// The commands it holds.
    pub fn commands(&self) -> &[Declared] {
        match self {
            Entry::One(d) => std::slice::from_ref(d),
            Entry::Group { subs, .. } => subs,
        }
    }

    /// Its name on Discord.
    pub fn name(&self) -> &'static str {
        match self {
            Entry::One(d) => d.path,
            Entry::Group { name, .. } => name,
        }
    }
}

/// One command or subcommand.
#[derive(Debug)]
pub struct Declared {
    /// As typed after the slash: `move`, `kfb new`, `edit put`.
    pub path: &'static str,
    /// What Discord and `/help` say it does (at most 100 characters).
    pub description: &'static str,
    /// Its options, in Discord's order.
    pub options: &'static [Opt],
    /// How the command layer names it: see [`Layer`].
    pub layer: Layer,
    /// Who may use it (for `/help`; the command layer checks the rights).
    pub who: Who,
    /// The games it serves (by variant; [`EVERY`]: every game, those registered later too);
    /// empty: not a game's command (help, settings, tournaments).
    pub games: &'static [&'static str],
    /// How the front end runs it.
    pub run: Run,
    /// Answered to the caller only, whatever the reply says (a player's own list).
    pub private: bool,
    /// Answered, when in public, with a picture the service draws for it
    /// ([`Run::Anywhere`]), attached under this file name.
    pub picture: Option<&'static str>,
    /// Answered, when accepted, with the reply's text as a file to the caller only: see
    /// [`Attached`].
    pub file: Option<Attached>,
    /// The display names of the caller and of the users its options name are remembered
    /// first (for the pictures that name players).
    pub remembers_names: bool,
}

/// A reply's text sent as a file (an export to import elsewhere).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attached {
    /// The file's name.
    pub name: &'static str,
    /// The message the file comes with.
    pub caption: &'static str,
}

/// A command of every game.
pub const EVERY: &[&str] = &["*"];

/// How the command layer names a subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// By its whole path (`kfb new`, `proxy grant`).
    Path,
    /// By its group, the subcommand being the first word (`/edit put square:A:d1 …`).
    Word,
}

/// Who may use a command, as `/help` tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Whoever it concerns (players, mostly).
    Anyone,
    /// Organisers.
    Organisers,
    /// Moderators.
    Moderators,
    /// A Nomic game's Referees.
    Referees,
    /// A Party game's Chess-Umpire.
    Umpire,
    /// Server admins (Manage Server): Discord shows the command to them only.
    Admins,
}

impl Who {
    /// The note `/help` adds after the command.
    fn note(self) -> &'static str {
        match self {
            Who::Anyone => "",
            Who::Organisers => " (organisers)",
            Who::Moderators => " (moderators)",
            Who::Referees => " (Referees)",
            Who::Umpire => " (Chess-Umpire)",
            Who::Admins => " (server admins)",
        }
    }
}

/// What the front end does with a command once its options are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Hands it to the game of the thread it was typed in and answers.
    Act,
    /// Runs in any channel, without a game: the service's entry [`Desk`] answers it for the
    /// caller on the server it was typed in.
    Anywhere(Desk),
    /// Opens a game in a new thread, named after the game's title.
    NewGame {
        /// The game's name, for the thread's.
        title: &'static str,
        /// Whether the server's defaults (`/settings`) fill its move limit and inactivity
        /// posts.
        server_defaults: bool,
    },
    /// The server's settings (answered by the front end: they are Discord's roles).
    Settings,
    /// A tournament command, in its thread.
    Tournament,
    /// Opens a tournament in a new thread.
    NewTournament,
    /// An animation of the thread's game: the options and the game are checked first (a
    /// refusal is the first response), then the reply is deferred while the service draws it
    /// off the executor, and posted as an attachment.
    Animation,
}

impl Run {
    /// What it opens a thread of its own for (`game`, `tournament`), if it opens one.
    pub fn opens(self) -> Option<&'static str> {
        match self {
            Run::NewGame { .. } => Some("game"),
            Run::NewTournament => Some("tournament"),
            _ => None,
        }
    }
}

/// Which of the service's entries answers a command that runs without a game
/// ([`Run::Anywhere`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Desk {
    /// The caller's games on the server.
    MyGames,
    /// The caller's vacation on the server, with the days its settings give.
    Vacation,
    /// A player's rating on the server.
    Rating,
    /// A game's leaderboard on the server.
    Leaderboard,
    /// A player's results on the server.
    Stats,
}

impl Desk {
    /// Whether the players its answer names (by id) are shown as mentions (which ping
    /// nobody).
    pub fn names_players(self) -> bool {
        matches!(self, Desk::Rating | Desk::Leaderboard | Desk::Stats)
    }
}

/// One option of a command.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// Its name (also the command layer's key).
    pub name: &'static str,
    /// What Discord shows.
    pub description: &'static str,
    /// What it holds.
    pub kind: Kind,
    /// Whether it must be given.
    pub required: bool,
    /// Whether Discord completes it from the caller's legal moves.
    pub moves: bool,
    /// Where its value goes in the command layer's [`Command`].
    pub to: To,
    /// Sent when left out.
    pub default: Option<&'static str>,
    /// The games whose help shows it (empty: all the command's games).
    pub only: &'static [&'static str],
    /// Where it is offered: see [`Shown`].
    pub shown: Shown,
    /// How `/help` writes a text value (`<move>`; default: the option's name in brackets).
    pub hint: Option<&'static str>,
}

/// Where an option is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// On Discord, on the console and in `/help`.
    Everywhere,
    /// On the console and in `/help` only: a setting Discord's registered commands do not
    /// carry (registering it would change the commands servers see).
    Console,
    /// Read on the console as another spelling of an option (`colour:` for `color:`), or as
    /// the console's form of an offered entry (`/move push bottom:A top:B`); not shown.
    Alias,
}

/// What an option holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A word or a few.
    Text,
    /// Text of at most this many characters.
    TextMax(u16),
    /// Text that runs to the end of the line on the console (a position, a rule).
    Line,
    /// A whole number in a range.
    Int {
        /// The least.
        min: i64,
        /// The most.
        max: i64,
    },
    /// True or false.
    Bool,
    /// A member.
    User,
    /// A server role.
    Role,
    /// One of these, sent as the part before any `:` (`1-0: the first-listed team won`).
    Choice(&'static [&'static str]),
}

/// Any `u32`.
pub const COUNT: Kind = Kind::Int {
    min: 0,
    max: u32::MAX as i64,
};
/// A `u32` from 1.
pub const NUMBER: Kind = Kind::Int {
    min: 1,
    max: u32::MAX as i64,
};
/// A seed: Discord's integers stop at 2^53 - 1.
pub const SEED: Kind = Kind::Int {
    min: 0,
    max: (1 << 53) - 1,
};
/// `remind:` on every `/<game> new`.
pub const REMIND: Opt = opt(
    "remind",
    "Remind whoever is waited on after this long, like 12h, or off (default 12h)",
    Kind::Text,
)
.hint("<duration>|off");
/// `stall:` on every `/<game> new`: how long the game may sit untouched before it pauses.
/// Console-only (on Discord it comes from the server's `/settings stall_after:`), so the
/// registered commands do not change.
pub const STALL: Opt = opt(
    "stall",
    "Pause the game when nobody has acted for this long, like 30d, or off (default 30d)",
    Kind::Text,
)
.hint("<duration>|off")
.console();
/// `position:` on a `/<game> new` that may start from a position text.
pub const POSITION: Opt =
    opt("position", "Start from this position text", Kind::Line).hint("<position text>");
/// `move_limit:` on a `/<game> new` whose limit only announces an overrun (Chex,
/// Ultimate Chess).
pub const MOVE_LIMIT: Opt = opt(
    "move_limit",
    "Announce a player who takes longer than this, like 2d (default none)",
    Kind::Text,
)
.hint("<duration>");
/// `for:`, the player an organiser's or an Umpire's command is for.
pub const FOR_WHOM: Opt = opt("for", "For whom", Kind::User).required();
/// Several players named in one text option, as mentions (`players:@a @b …` on a
/// `/<game> new`): written so in `/help`.
pub const fn mentions(name: &'static str, description: &'static str) -> Opt {
    opt(name, description, Kind::Text).hint("@a @b …")
}
/// On or off.
pub const SWITCH: Kind = Kind::Choice(&["on", "off"]);
/// `vacation:` on every `/<game> new` and `/tournament new`: whether the game waits for
/// players on vacation (shared rules 7.5).
pub const VACATION: Opt = opt(
    "vacation",
    "Whether players' vacations stop their limits in this game (default on; off: it never waits)",
    SWITCH,
);

/// Where an option's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// Under its own name.
    Key,
    /// As a word without a key (`/offer draw`, `/nomic referee add`).
    Word,
    /// Its value is the key under which the named option's value goes (`/set`).
    KeyOf(&'static str),
    /// Only through another option's [`To::KeyOf`].
    Through,
}

/// An optional option of this kind, under its own name.
pub const fn opt(name: &'static str, description: &'static str, kind: Kind) -> Opt {
    Opt {
        name,
        description,
        kind,
        required: false,
        moves: false,
        to: To::Key,
        default: None,
        only: &[],
        shown: Shown::Everywhere,
        hint: None,
    }
}

impl Opt {
    /// Must be given.
    pub const fn required(self) -> Opt {
        Opt {
            required: true,
            ..self
        }
    }

    /// Completed from the caller's legal moves.
    pub const fn moves(self) -> Opt {
        Opt {
            moves: true,
            ..self
        }
    }

    /// Goes where `to` says.
    pub const fn to(self, to: To) -> Opt {
        Opt { to, ..self }
    }

    /// Sent as `value` when left out.
    pub const fn or(self, value: &'static str) -> Opt {
        Opt {
            default: Some(value),
            ..self
        }
    }

    /// Offered on the console and in `/help` only.
    pub const fn console(self) -> Opt {
        Opt {
            shown: Shown::Console,
            ..self
        }
    }

    /// Read on the console only, as another spelling: not shown.
    pub const fn alias(self) -> Opt {
        Opt {
            shown: Shown::Alias,
            ..self
        }
    }

    /// Written so in `/help` (`<move>`, `@a @b @c`).
    pub const fn hint(self, hint: &'static str) -> Opt {
        Opt {
            hint: Some(hint),
            ..self
        }
    }

    /// Whether Discord registers it.
    pub fn on_discord(&self) -> bool {
        self.shown == Shown::Everywhere
    }

    /// Shown in these games' help only.
    pub const fn only(self, games: &'static [&'static str]) -> Opt {
        Opt {
            only: games,
            ..self
        }
    }

    /// The value as the command layer reads it, from what a choice shows.
    pub fn choice_value(shown: &str) -> &str {
        shown.split_once(':').map_or(shown, |(v, _)| v)
    }

    /// How `/help` writes it: `notation:<move>`, `[board:1-3]`.
    fn usage(&self) -> String {
        let value = match self.kind {
            Kind::User => "@x".to_string(),
            Kind::Bool => "true|false".to_string(),
            Kind::Role => "@role".to_string(),
            Kind::Int { min, max } if max < 100 => format!("{min}-{max}"),
            Kind::Int { .. } => "<n>".to_string(),
            Kind::Choice(c) => c
                .iter()
                .map(|s| Opt::choice_value(s))
                .collect::<Vec<_>>()
                .join("|"),
            Kind::Text | Kind::TextMax(_) | Kind::Line => self
                .hint
                .map_or_else(|| format!("<{}>", self.name), str::to_string),
        };
        let shown = match self.to {
            To::Word => value,
            To::KeyOf(other) => format!("{value}:<{other}>"),
            _ => format!("{}:{value}", self.name),
        };
        if self.required {
            shown
        } else {
            format!("[{shown}]")
        }
    }
}

/// A command of these games, under its own name, run in its thread.
pub const fn command(
    path: &'static str,
    description: &'static str,
    games: &'static [&'static str],
    options: &'static [Opt],
) -> Declared {
    Declared {
        path,
        description,
        options,
        layer: Layer::Path,
        who: Who::Anyone,
        games,
        run: Run::Act,
        private: false,
        picture: None,
        file: None,
        remembers_names: false,
    }
}

impl Declared {
    /// For `who` only.
    pub const fn by(self, who: Who) -> Declared {
        Declared { who, ..self }
    }

    /// Named by its group, the subcommand as the first word.
    pub const fn word(self) -> Declared {
        Declared {
            layer: Layer::Word,
            ..self
        }
    }

    /// Run as `run` says.
    pub const fn run(self, run: Run) -> Declared {
        Declared { run, ..self }
    }

    /// Run without a game, answered by the service's entry `desk`.
    pub const fn anywhere(self, desk: Desk) -> Declared {
        self.run(Run::Anywhere(desk))
    }

    /// Answered to the caller only.
    pub const fn private(self) -> Declared {
        Declared {
            private: true,
            ..self
        }
    }

    /// Answered in public with the picture the service draws for it, as `file`.
    pub const fn picture(self, file: &'static str) -> Declared {
        Declared {
            picture: Some(file),
            ..self
        }
    }

    /// Answered, when accepted, with its reply as the file `name`, with `caption`, privately.
    pub const fn file(self, name: &'static str, caption: &'static str) -> Declared {
        Declared {
            file: Some(Attached { name, caption }),
            ..self
        }
    }

    /// Remembers the display names of its caller and of the users it names.
    pub const fn remembers_names(self) -> Declared {
        Declared {
            remembers_names: true,
            ..self
        }
    }

    /// A game's `/<game> new`: for organisers, creating a `title` game (its settings from the
    /// server's defaults when `server_defaults`).
    pub const fn new_game(self, title: &'static str, server_defaults: bool) -> Declared {
        self.by(Who::Organisers).run(Run::NewGame {
            title,
            server_defaults,
        })
    }

    /// The command the layer reads from the options given (by name, as text: users as
    /// `@id`, choices by their value). Options that run to the end of the line go last, so
    /// the command as typed reads back the same.
    pub fn command(&self, given: &[(&str, String)]) -> Command {
        let mut cmd = Command::default();
        let (group, sub) = self.path.split_once(' ').unwrap_or((self.path, ""));
        match self.layer {
            Layer::Path => cmd.name = self.path.to_string(),
            Layer::Word => {
                cmd.name = group.to_string();
                cmd.positional.push(sub.to_string());
            }
        }
        let value = |name: &str| {
            given
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
        };
        let mut last = Vec::new();
        for o in self.options {
            let Some(v) = value(o.name).or(o.default.map(str::to_string)) else {
                continue;
            };
            match o.to {
                To::Key if o.kind == Kind::Line => last.push((o.name.to_string(), v)),
                To::Key => cmd.options.push((o.name.to_string(), v)),
                To::Word => cmd.positional.push(v),
                To::KeyOf(other) => {
                    if let Some(w) = value(other) {
                        cmd.options.push((v, w));
                    }
                }
                To::Through => {}
            }
        }
        cmd.options.extend(last);
        cmd
    }

    /// `/help`'s words for it in a game (`None`: every game's).
    pub fn usage(&self, game: Option<&str>) -> String {
        let mut s = format!("/{}", self.path);
        for o in self.options {
            if o.to == To::Through || o.shown == Shown::Alias {
                continue;
            }
            if let (Some(g), false) = (game, o.only.is_empty()) {
                if !o.only.contains(&g) {
                    continue;
                }
            }
            s.push(' ');
            s.push_str(&o.usage());
        }
        s.push_str(self.who.note());
        s
    }
}

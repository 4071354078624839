//! [`ThreadGame`], the trait every game implements, with what the layer asks of a game at
//! any time (its waits and timers, its settings line) and the helpers its adapter uses.

use std::any::Any;

use super::clock::Away;
use super::log::{Bookkept, Handover, LogRow, Reverting, StoredLog, Substitution};
use super::{Caller, Command, Notify, Reply};
use crate::time::Timestamp;

/// Renders a picture away from the async executor: a snapshot of the game moved into it.
pub type PictureJob = Box<dyn FnOnce() -> Result<Vec<u8>, String> + Send>;

/// The picture `draw` makes of `view`, as a job to run away from the async executor.
pub fn picture_job<V, E>(
    view: V,
    draw: impl FnOnce(&V) -> Result<Vec<u8>, E> + Send + 'static,
) -> PictureJob
where
    V: Send + 'static,
    E: std::fmt::Display,
{
    Box::new(move || draw(&view).map_err(|e| e.to_string()))
}

/// A timer that falls due: a seat's lock expiring, a turn limit passing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Due {
    /// Which seat it concerns (timers are announced once per seat and due time).
    pub seat: usize,
    /// When it falls due.
    pub at: Timestamp,
    /// The message, notifying whoever must act.
    pub notify: Notify,
    /// The user whose own limit runs out with it (an overrun notice): it is the deadline of
    /// their wait though they are still asked to act after it (issue 53: every limit is a
    /// deadline). `None` for a timer that ends the wait by itself (a default play) or none.
    pub limit_of: Option<String>,
}

impl Due {
    /// What this timer does to a wait whose deadline it is: an overrun notice when it is
    /// the limit of the user waited on ([`Due::limit_of`]), else the bot's default play
    /// (a Party pass, a Nomic part or vote run out), which ends the wait.
    pub fn effect(&self) -> Effect {
        if self.limit_of.is_some() {
            Effect::Overrun
        } else {
            Effect::DefaultPlay
        }
    }
}

/// What a wait's deadline does when it passes (issue 53: every limit is a deadline players
/// can see, and says what it does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The bot plays for them (a Party pass, a Nomic part or vote running out): the wait
    /// ends.
    DefaultPlay,
    /// The overrun notice goes to them and the organiser; they are still asked to act.
    Overrun,
    /// A lock on them lifts (the Kung Fu lock).
    LockLifts,
    /// A claim against them becomes possible.
    ClaimPossible,
}

impl Effect {
    /// The words for it (`a default play`).
    pub fn text(self) -> &'static str {
        match self {
            Effect::DefaultPlay => "a default play",
            Effect::Overrun => "an overrun notice",
            Effect::LockLifts => "the lock lifts",
            Effect::ClaimPossible => "a claim becomes possible",
        }
    }
}

/// Someone a game waits on, as the game states it from its state alone: the user, what is
/// expected of them, since when (and the log entry that began it), and by when if a limit
/// runs, with what the deadline does. Everything time-related reads this one statement:
/// reminders and the one-hour warning, `/mygames`, the hand-over's "it waits on you".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wait {
    /// The user waited on.
    pub user: String,
    /// What is expected of them, as a task (`move on board 2`, `vote on proposal 3`).
    pub what: String,
    /// Since when.
    pub since: Timestamp,
    /// The log entry that began it (its place in the log; a wait a timer began since is
    /// counted from the last entry before it): waits of one game are ordered by it, never
    /// by their times (a conditional reply comes in the same second as the move it answers).
    pub began: usize,
    /// When a limit runs out on them, if one does.
    pub deadline: Option<Timestamp>,
    /// What the deadline does then.
    pub effect: Option<Effect>,
}

/// The settings a game runs on, as its creation reply, `/status` and its export tell them:
/// its own limits ([`ThreadGame::limits_text`]), its reminders and stall time (`remind:`,
/// `stall:`) and whether it waits for players on vacation (`vacation:off`).
pub fn settings_text(game: &dyn ThreadGame) -> String {
    let pace = game.pace();
    let mut parts: Vec<String> = game.limits_text().into_iter().collect();
    let d = crate::time::format_duration;
    parts.push(match pace.remind.unwrap_or(super::pace::REMIND_AFTER) {
        0 => "no reminders".to_string(),
        r => format!("reminders after {}", d(r)),
    });
    parts.push(match pace.stall.unwrap_or(super::pace::STALL_AFTER) {
        0 => "no pause however long it is left untouched".to_string(),
        s => format!("a pause when left untouched for {}", d(s)),
    });
    parts.push(if pace.vacation == Some(false) {
        "vacation:off (players away on vacation are not waited for)".into()
    } else {
        "players away on vacation are waited for".into()
    });
    format!("Settings: {}.", parts.join("; "))
}

/// How far ahead [`ThreadGame::waits`] looks for a waiting user's deadline.
const DEADLINE_HORIZON: Timestamp = 30 * 24 * 3600;

/// How far back [`waiting`] looks first for when a wait began (then further, up to the
/// game's last action): the timers of the last hour, day, month, then all since.
const SINCE_WINDOWS: [Timestamp; 3] = [3600, 24 * 3600, DEADLINE_HORIZON];

/// The waits of the users a game asks to act at `now`, where `asked_at(t)` tells who is
/// asked to do what (user, task) at any moment `t` (timers change it: a turn limit runs out).
/// A wait runs since the later of the game's last action and the last timer before which
/// that user was not asked; its deadline is the first timer after which they no longer are
/// (a limit running out on them), looked for an hour, a day, then 30 days ahead, and that
/// timer's [`Due::effect`] is what the deadline does; every wait began with the game's last
/// entry in effect (a timer since is no entry of its own). The timers
/// behind are read the same way, an hour, a day, 30 days back, then back to the last action,
/// so that a game whose limits ran out many times since (a year of hourly limits) costs what
/// the last of them cost, not all of them.
pub fn waiting<G: ThreadGame + ?Sized>(
    game: &G,
    asked_at: impl Fn(Timestamp) -> Vec<(String, String)>,
    now: Timestamp,
) -> Vec<Wait> {
    let asked = asked_at(now);
    if asked.is_empty() {
        return Vec::new();
    }
    let changed = game.log().changed_at().unwrap_or(now).min(now);
    let began = game.log().changed_entry().unwrap_or(0);
    // The timers of each window back, read once for every pair.
    let mut behind: Vec<(Timestamp, Vec<Due>)> = Vec::new();
    let mut past = |i: usize| -> (Timestamp, Vec<Due>) {
        while behind.len() <= i {
            let from = SINCE_WINDOWS
                .get(behind.len())
                .map_or(changed, |w| now.saturating_sub(*w).max(changed));
            let dues = if from < now {
                game.due(from, now)
            } else {
                Vec::new()
            };
            behind.push((from, dues));
        }
        behind[i].clone()
    };
    asked
        .into_iter()
        .map(|pair| {
            let mut since = changed;
            // The timers of the window that reaches back to the wait's start: they hold
            // every timer since it began.
            let mut since_then = Vec::new();
            for i in 0..=SINCE_WINDOWS.len() {
                let (from, dues) = past(i);
                let began = dues
                    .iter()
                    .rev()
                    .find(|d| !asked_at(d.at.saturating_sub(1)).contains(&pair))
                    .map(|d| d.at);
                since_then = dues;
                if let Some(at) = began {
                    since = at;
                    break;
                }
                if from <= changed {
                    break;
                }
            }
            let own = |d: &Due| d.limit_of.as_deref() == Some(pair.0.as_str());
            // A limit of theirs that ran out in this wait stays its deadline (passed).
            let mut deadline = since_then
                .iter()
                .find(|d| d.at > since && own(d))
                .map(|d| (d.at, d.effect()));
            for horizon in [3600, 24 * 3600, DEADLINE_HORIZON] {
                if deadline.is_some() {
                    break;
                }
                let ahead = game.due(now, now.saturating_add(horizon));
                deadline = ahead
                    .iter()
                    .find(|d| own(d) || !asked_at(d.at).contains(&pair))
                    .map(|d| (d.at, d.effect()));
            }
            let (user, what) = pair;
            Wait {
                user,
                what,
                since,
                began,
                deadline: deadline.map(|d| d.0),
                effect: deadline.map(|d| d.1),
            }
        })
        .collect()
}

impl SquareSeen {
    /// What a game found on a square: `None` when the text is not a square of its board,
    /// `Some(None)` when nothing stands there, else the piece, which `piece` tells of
    /// (`None` when the game does not say).
    pub fn of<P>(
        found: Option<Option<P>>,
        piece: impl FnOnce(P) -> Option<SquareSeen>,
    ) -> Option<SquareSeen> {
        match found {
            None => Some(SquareSeen::OffBoard),
            Some(None) => Some(SquareSeen::Empty),
            Some(Some(p)) => piece(p),
        }
    }

    /// The piece named `piece`: the asker's own when `mine`, else `owner`'s, the asker
    /// playing `you`.
    pub fn piece(piece: String, mine: bool, owner: String, you: String) -> SquareSeen {
        if mine {
            SquareSeen::Own(piece)
        } else {
            SquareSeen::Other { owner, piece, you }
        }
    }
}

/// Who asks which plays are theirs (`/moves`, the `/move` autocomplete, conditional moves),
/// for which board and when.
#[derive(Clone, Copy, Debug)]
pub struct Asker<'a> {
    /// The user.
    pub user: &'a str,
    /// The board named with `board:` (a Kung Fu Bughouse proxy's board), if any.
    pub board: Option<usize>,
    /// When.
    pub now: Timestamp,
}

impl<'a> Asker<'a> {
    /// `user` asking at `now`, of no board in particular.
    pub fn new(user: &'a str, now: Timestamp) -> Self {
        Asker {
            user,
            board: None,
            now,
        }
    }

    /// The same, of `board`.
    pub fn on(self, board: Option<usize>) -> Self {
        Asker { board, ..self }
    }
}

/// What stands on a square a user names in `/moves square:`, as the game tells it to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareSeen {
    /// The text is not a square of this board (`zz`, `q3`, `a1` on Ultimate's cut corner).
    OffBoard,
    /// Nothing stands there.
    Empty,
    /// A piece the user plays, named as the game names it (`Knight`).
    Own(String),
    /// A piece of another seat.
    Other {
        /// Its owner, as the game names seats (`Black`, `Green (dan)`, `army 2`).
        owner: String,
        /// The piece (`Knight`).
        piece: String,
        /// What the user plays, in the same words (`White`).
        you: String,
    },
}

/// Where a player sits for conditional moves (`/premove`, [`super::premove`]): on which
/// board, in which seat, and which seats play on that board before them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PremoveSeat {
    /// The board (0 in a game of one board; KFB 0–2).
    pub board: usize,
    /// The player's seat, as [`Played::seat`] numbers seats.
    pub seat: usize,
    /// Whether the board's plays come in turns (Ultimate, Party): a line is then checked
    /// when the player's turn begins. Kung Fu Bughouse has no turns: a reply is played as
    /// soon as its condition is met and the player may move.
    pub turns: bool,
    /// The seats that play before the player's next play, in order, with their names.
    pub before: Vec<(usize, String)>,
    /// The seats that play between two plays of the player, in order (the next rounds of a
    /// line).
    pub between: Vec<(usize, String)>,
}

/// A play in effect on a board, as conditional moves read the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The log entry it is (a play undone and played again is a new entry).
    pub index: usize,
    /// The board.
    pub board: usize,
    /// The seat that played (a proxy's move counts for the seat it plays for).
    pub seat: usize,
    /// The play as the game echoed it.
    pub notation: String,
}

/// What the layer keeps alike for every game, written once for every [`Table`] by the
/// blanket implementation in [`super::table`]: a game never writes these. Its seats, end,
/// pace and whether its replay reads its players' vacations come from its [`Fold`]; its
/// log, settings and vacations from the table; a revert's preview from
/// [`Table::revert_preview`].
///
/// [`Table`]: super::table::Table
/// [`Table::revert_preview`]: super::table::Table::revert_preview
/// [`Fold`]: super::table::Fold
pub trait OnTable: Send + Sync {
    /// The seated users (their ids become mentions in the thread).
    fn users(&self) -> Vec<String>;
    /// Whether the game is over (stored, so finished games load last).
    fn finished(&self) -> bool;
    /// The settings, as stored.
    ///
    /// # Errors
    /// They do not serialise (never, for plain data).
    fn settings_json(&self) -> Result<String, serde_json::Error>;
    /// The game's log, as the store sees it (entries, undone marks, stored rows): one
    /// implementation for every game, [`crate::layer::log::Log`].
    fn log(&self) -> &dyn StoredLog;
    /// Number of log entries.
    fn log_len(&self) -> usize {
        self.log().len()
    }
    /// Which log entries are reverted.
    fn reverted(&self) -> Vec<bool> {
        self.log().reverted()
    }
    /// One log entry as stored.
    ///
    /// # Errors
    /// The action does not serialise (never, for plain data).
    fn row(&self, i: usize) -> Option<Result<LogRow, serde_json::Error>> {
        self.log().row(i)
    }
    /// The reminder interval and stall time the game was created with (`remind:`, the
    /// server's defaults).
    fn pace(&self) -> crate::layer::pace::Pace;
    /// The vacations of the game's players it honours (shared rules 7.5), as the layer last
    /// handed them in ([`OnTable::set_away`]).
    fn away(&self) -> &Away;
    /// Hands in the vacations of the game's players (none when the game was made with
    /// `vacation:off`). A game whose limits run on its players' turns moves them by the time
    /// away; one whose replay reads its limits (Nomic, KFB) replays with them.
    fn set_away(&mut self, away: Away);
    /// What a revert to before action `to` would undo, one line each.
    ///
    /// # Errors
    /// Why it is refused.
    fn revert_preview(&self, to: u32) -> Result<Vec<String>, String>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn ThreadGame>;
    /// For the few places that need one game's own state (a tournament reading a KFB
    /// result).
    fn as_any(&self) -> &dyn Any;
}

/// A game in a thread: the small core a game writes (its kind, its own commands, the log's
/// own actions as it answers them, what `/status`, `!state`, `/moves` and `/export` show),
/// everything else defaulted. What every game keeps alike is its [`OnTable`], written once;
/// what only some games do is a capability they opt into by returning themselves from
/// [`ThreadGame::conditional`], [`ThreadGame::pictures`] or [`ThreadGame::animated`]. A game's
/// implementation begins with [`seam!`], its kind, its reply and its capabilities in one line.
pub trait ThreadGame: OnTable {
    /// The kind of game.
    fn kind(&self) -> &'static GameKind;
    /// Whether `user` moderates this game beyond the server's moderators (a Nomic Chess
    /// Referee): they may `/revert` it. No one by default.
    fn moderates(&self, _user: &str) -> bool {
        false
    }
    /// The game's own commands (moves and everything the [`GameKind`] lists); `None` when
    /// `cmd` is not one of them.
    fn act(&mut self, caller: &Caller<'_>, cmd: &Command, raw: &str) -> Option<Reply>;
    /// The question a command that ends the game for its sender's side (`/resign`,
    /// `/concede`, `/forfeit`) asks once before it acts, with Confirm and Cancel buttons
    /// (`Resign for Team 1? This ends the game for your whole team.`): the layer asks it and,
    /// on Confirm, runs the command as typed. `None` (the default) when `cmd` acts at once,
    /// or the game would refuse it anyway (the sender plays no seat, the game is over).
    fn confirm_first(&self, _user: &str, _cmd: &Command) -> Option<String> {
        None
    }
    /// A chat line by a user in the thread.
    fn chat(&mut self, _user: &str, _now: Timestamp) {}
    /// A user left the server: what the game does of itself (Party Chess: the Swinger is
    /// Warm), as an accepted action's reply; `None` when it does nothing.
    fn member_left(&mut self, _user: &str, _now: Timestamp) -> Option<Reply> {
        None
    }
    /// A console-only `!` line of this game's own (`!stack white KQ…` for Chex), split in
    /// words: the lines to print (never an `ok:`/`refused:` line), or `None` when it is not
    /// one of the game's.
    fn console(&mut self, _words: &[&str], _now: Timestamp) -> Option<Vec<String>> {
        None
    }
    /// The log's own actions (shared rules 7.2–7.4), asked by the layer and logged as the
    /// game's own: a `/takeback`, a moderator's confirmed revert, a `/substitute`. The layer
    /// has checked who may ask; for a substitution also that the seat's user plays here, the
    /// new one does not, and the game is not over. The accepted reply: a game answers with
    /// [`kept`], handing its [`crate::layer::log::Bookkept`] answer to its own reply.
    ///
    /// # Errors
    /// Why it is refused, for the user.
    fn bookkeeping(&mut self, b: Bookkeeping<'_>) -> Result<Reply, String>;
    /// The `/status` text.
    fn status(&self, now: Timestamp) -> String;
    /// The console's `!state` lines.
    fn state_lines(&self, now: Timestamp) -> Vec<String>;
    /// The plays a user may make now, each exactly as `/move` accepts it (for `/moves` and
    /// the autocomplete).
    ///
    /// # Errors
    /// Why the user has none (not seated, not their turn…).
    fn offered_moves(&self, asker: &Asker<'_>) -> Result<Vec<String>, String>;
    /// What the asker could play in the position as it stands if it were their turn, each as
    /// `/move` would read it then: `/moves` lists them after its refusal off-turn, for
    /// planning (the autocomplete offers nothing off-turn, since what it offers must be
    /// accepted). Empty for a user who does not play here, and after the end.
    fn planned_moves(&self, asker: &Asker<'_>) -> Vec<String>;
    /// What stands on `square` (lower case, as typed after `square:`) for the asker, to
    /// explain a `/moves square:` that lists nothing; `None` when the game does not say (the
    /// layer then answers in general terms).
    fn square_seen(&self, _asker: &Asker<'_>, _square: &str) -> Option<SquareSeen> {
        None
    }
    /// The export text (every action), as `/export` attaches it and `arbiter import` reads it.
    fn export(&self) -> String;
    /// The result once the game is over, as its replies write it (`Green (bob) wins`), for
    /// the one message that tells the players (shared rules 8.1); `None` while in play, or when the
    /// game does not say (the layer then takes the last line of the reply that ended it).
    fn result(&self) -> Option<String> {
        None
    }
    /// The finished game's sides and places, for the ratings (issue 57): the players of each
    /// side (one, or a KFB team) and its place from 1, ties sharing a place. `None` while in
    /// play, or for a game that names no placings.
    fn placings(&self) -> Option<Vec<crate::rating::Side>> {
        None
    }
    /// Who created the game (the organiser, pinged when it pauses): by default the actor
    /// of its log's first entry, its start.
    fn organiser(&self) -> Option<String> {
        self.log().row(0)?.ok().map(|r| r.actor)
    }
    /// Who else looks after the game (a Party game's Chess-Umpire, a Nomic game's Referees):
    /// pinged with the organiser when it pauses.
    fn officials(&self) -> Vec<String> {
        Vec::new()
    }

    // Time: the layer's clock reads these (reminders, pauses, `/mygames`, the timer sweep).

    /// Who must act now and on what, one (user, task) pair each (`ann`, `move`): an accepted
    /// action pings a user only when it gives them a task they did not have before, so that
    /// bookkeeping by an Umpire, a Referee or the organiser never pings the player on turn
    /// again. `None` when the game does not say (its notifications then stand as they are).
    fn awaited(&self, _now: Timestamp) -> Option<Vec<(String, String)>> {
        None
    }
    /// Whom the game waits on at `now`, each since when and by when. By default: the users
    /// [`ThreadGame::awaited`] names, timed by [`waiting`]; a game whose players wait on each
    /// other otherwise (KFB's boards, Chex) says so itself. Nobody once it is over.
    fn waits(&self, now: Timestamp) -> Vec<Wait> {
        if self.finished() || self.awaited(now).is_none() {
            return Vec::new();
        }
        waiting(self, |t| self.awaited(t).unwrap_or_default(), now)
    }
    /// Timers falling due in `(after, until]`. None by default.
    fn due(&self, _after: Timestamp, _until: Timestamp) -> Vec<Due> {
        Vec::new()
    }
    /// The game's own limits as players read them (`move limit 6h`, `part 1 of a turn 5m`),
    /// for its settings line ([`settings_text`]); `None` when it has none to tell.
    fn limits_text(&self) -> Option<String> {
        None
    }
    /// When the game last changed: its latest action in effect, or its start.
    fn last_change(&self) -> Option<Timestamp> {
        self.log().changed_at()
    }
    /// Since when the game is paused by its own rules (a whole round of turns run out by
    /// default), if it is at `now`: its limits stop, and reminders with them. The layer's
    /// own pause (nobody acted for the stall time) is [`super::remind::paused`].
    fn stalled(&self, _now: Timestamp) -> Option<Timestamp> {
        None
    }
    /// Brings the game up to `now`, once the timer sweep has announced everything that fell
    /// due by then: a game whose timers make default plays writes them into its log (Party
    /// Chess; the sweep stores them), one whose replay runs its limits out keeps where they
    /// stand (Nomic Chess), so that the next sweep, and every question about the game until
    /// its next action, starts there rather than at its last action. Nothing by default.
    fn catch_up(&mut self, _now: Timestamp) {}
    /// Whether a command button's `command` (see [`super::command_button`]), shown with an
    /// earlier reply, still does something at `now` (a Nomic vote still open). The Discord
    /// front end takes the buttons that no longer do off their message. Yes by default.
    fn button_live(&self, _command: &str, _now: Timestamp) -> bool {
        true
    }

    // Capabilities a game opts into by returning itself.

    /// Conditional moves (`/premove`): the game as [`Conditional`], or why it has none
    /// (Chex: a turn begins with a random draw). None by default.
    ///
    /// # Errors
    /// Why the game has no conditional moves, for the user.
    fn conditional(&self) -> Result<&dyn Conditional, String> {
        Err(format!("{} has no conditional moves", self.kind().title))
    }
    /// The picture of the board, posted with the replies that change it. None by default.
    fn pictures(&self) -> Option<&dyn Pictured> {
        None
    }
    /// `/replay`, the game so far as an animated picture. None by default.
    fn animated(&self) -> Option<&dyn Animated> {
        None
    }
}

/// What a game's [`ThreadGame`] implementation says of itself before its own methods, in one
/// line: `game::seam!(KIND, reply; Conditional, Pictured, Animated);` is its kind
/// ([`ThreadGame::kind`]), its answer to the log's own actions ([`ThreadGame::bookkeeping`]
/// through [`kept`], `reply(&game, accepted)` wording what its [`Bookkept`] accepted) and the
/// capabilities it opts into: the accessors that return the game itself as [`Conditional`],
/// [`Pictured`] or [`Animated`].
macro_rules! seam {
    ($kind:expr, $reply:expr; $($cap:ident),* $(,)?) => {
        fn kind(&self) -> &'static $crate::layer::game::GameKind {
            &$kind
        }

        fn bookkeeping(
            &mut self,
            b: $crate::layer::game::Bookkeeping<'_>,
        ) -> Result<$crate::layer::Reply, String> {
            $crate::layer::game::kept(self, b, $reply)
        }

        $($crate::layer::game::seam!(@opts $cap);)*
    };
    (@opts Conditional) => {
        fn conditional(&self) -> Result<&dyn $crate::layer::game::Conditional, String> {
            Ok(self)
        }
    };
    (@opts Pictured) => {
        fn pictures(&self) -> Option<&dyn $crate::layer::game::Pictured> {
            Some(self)
        }
    };
    (@opts Animated) => {
        fn animated(&self) -> Option<&dyn $crate::layer::game::Animated> {
            Some(self)
        }
    };
}
pub(crate) use seam;

/// A game with conditional moves (`/premove`, [`super::premove`]): where a player sits and
/// the plays in effect, which the layer matches lines against.
pub trait Conditional {
    /// Where `user` sits at `now` and who plays before them; `Err` says why they cannot set
    /// a line (not seated, out of the game).
    ///
    /// # Errors
    /// Why not, for the user.
    fn premove_seat(&self, user: &str, now: Timestamp) -> Result<PremoveSeat, String>;
    /// Whether `play` reads in the game's notation, without looking at the position (a
    /// conditional move is checked so when stored): why not.
    ///
    /// # Errors
    /// Why the text is not a play of this game.
    fn read_play(&self, play: &str) -> Result<(), String>;
    /// Every play in effect at `now`, in the log's order (default plays fallen due
    /// included).
    fn plays(&self, now: Timestamp) -> Vec<Played>;
}

/// A game with a picture of its board.
pub trait Pictured {
    /// Whether an accepted `command` (`move`, `takeback`, `revert`…) is answered with the
    /// picture of the board (a move by default).
    fn pictured(&self, command: &str) -> bool {
        command == "move"
    }
    /// The picture of the game now, to render away from the executor. `thread` is the
    /// game's thread: a game may draw its picture over its last one, kept by thread.
    fn picture(&self, thread: &str, now: Timestamp) -> PictureJob;
}

/// A game `/replay` animates.
pub trait Animated {
    /// The game so far as an animated picture, drawn away from the executor: the position
    /// before the first action shown, then one frame per action that changed the board (see
    /// [`super::replay`]). `now` is when it is asked for.
    ///
    /// # Errors
    /// Why it is refused, for the user (options out of range, nothing to show).
    fn animation(
        &self,
        opts: &super::replay::ReplayOptions,
        now: Timestamp,
    ) -> Result<super::replay::ReplayJob, String>;
}
impl Clone for Box<dyn ThreadGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// One of the log's own actions as the layer asks a game for it
/// ([`ThreadGame::bookkeeping`]).
pub struct Bookkeeping<'a> {
    /// Who asked: the player taking back, the moderator who confirmed a revert, whoever hands
    /// a seat over.
    pub actor: &'a str,
    /// Which.
    pub action: LogAction<'a>,
    /// When.
    pub now: Timestamp,
    /// The command as typed.
    pub raw: &'a str,
}

/// The log's own actions, the same in every game.
pub enum LogAction<'a> {
    /// `/takeback` of the actor's last action in effect.
    Takeback,
    /// A moderator's confirmed revert to before action `to`. `entropy` was drawn when the
    /// moderator asked, for a game that draws a fresh seed at a revert (Chex rules 5.5a); the
    /// others ignore it.
    Revert {
        /// The first action undone.
        to: u32,
        /// The reason given.
        reason: &'a str,
        /// Entropy drawn when it was asked for.
        entropy: u64,
    },
    /// `/substitute`: a seat handed over.
    Substitute(Handover),
}

impl<'a> Bookkeeping<'a> {
    /// A substitution, for a game that logs the hand-over itself.
    pub fn substitution(&self, handover: Handover) -> Substitution<'a> {
        Substitution {
            actor: self.actor,
            handover,
            now: self.now,
            raw: self.raw,
        }
    }

    /// A revert, for a game that reverts through [`crate::layer::log::Log::revert_by`].
    pub fn reverting(&self, to: u32, reason: &'a str) -> Reverting<'a> {
        Reverting::new(to, self.actor, reason, self.now, self.raw)
    }
}

/// A game's [`ThreadGame::bookkeeping`]: one of the log's own actions handed to the game's
/// [`Bookkept`], its answer worded by `reply` (the game's reply to any accepted action).
///
/// # Errors
/// The game's refusal, in words.
pub fn kept<G: Bookkept>(
    game: &mut G,
    b: Bookkeeping<'_>,
    reply: impl FnOnce(&G, G::Accepted) -> Reply,
) -> Result<Reply, String>
where
    G::Refusal: std::fmt::Display,
{
    let accepted = match b.action {
        LogAction::Takeback => game.takeback(b.actor, b.now, b.raw),
        LogAction::Revert {
            to,
            reason,
            entropy,
        } => game.revert(b.reverting(to, reason), entropy),
        LogAction::Substitute(ref h) => game.substitute(b.substitution(h.clone())),
    }
    .map_err(|e| e.to_string())?;
    Ok(reply(game, accepted))
}

/// A game just created, with the reply that announces it.
pub struct NewGame {
    /// The game.
    pub game: Box<dyn ThreadGame>,
    /// Its announcement.
    pub reply: Reply,
}

/// Rebuilds a game from its stored users, settings (JSON) and log, with its players'
/// vacations (a replay that runs out limits reads them, shared rules 7.5).
pub type Loader = fn(Vec<String>, &str, Vec<LogRow>, &Away) -> Result<Box<dyn ThreadGame>, String>;

/// What every game's [`GameKind::load`] does: its settings decoded from their JSON, its log
/// from the stored rows, and the game rebuilt from them by `build` (its `from_log`, handed
/// the vacations if its replay reads them), then handed the vacations.
///
/// # Errors
/// Settings or an action that do not decode, or a log that does not replay.
pub fn load_with<S, A, G, E>(
    users: Vec<String>,
    settings: &str,
    rows: Vec<LogRow>,
    away: &Away,
    build: impl FnOnce(Vec<String>, S, crate::layer::log::Log<A>, Away) -> Result<G, E>,
) -> Result<Box<dyn ThreadGame>, String>
where
    S: serde::de::DeserializeOwned,
    A: serde::de::DeserializeOwned,
    G: ThreadGame + 'static,
    E: std::fmt::Display,
{
    let settings: S = serde_json::from_str(settings).map_err(|e| e.to_string())?;
    let log = crate::layer::log::from_rows(rows)?;
    let mut game = build(users, settings, log, away.clone()).map_err(|e| e.to_string())?;
    game.set_away(away.clone());
    Ok(Box::new(game))
}

/// Whether stored settings (JSON) say `vacation:off`: such a game is loaded with nobody away.
pub fn vacation_off(settings: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(settings)
        .ok()
        .and_then(|v| {
            v.pointer("/pace/vacation")
                .and_then(serde_json::Value::as_bool)
        })
        == Some(false)
}

/// A game's entry in the layer: how it is named, created and loaded.
pub struct GameKind {
    /// The name stored in `games.variant` and used by `arbiter … --variant`.
    pub variant: &'static str,
    /// The game's name for players.
    pub title: &'static str,
    /// The command group that creates one (`kfb` for `/kfb new`).
    pub group: &'static str,
    /// Its own slash commands, declared once (Discord, the console and `/help` read them).
    pub declared: &'static [super::declare::Entry],
    /// `/<group> new …` (with the seed drawn for it): the new game and its announcement, or
    /// why it is refused.
    pub create: fn(&Caller<'_>, &Command, u64) -> Result<NewGame, String>,
    /// A game rebuilt from its stored users, settings and log.
    pub load: Loader,
    /// A game read from its export text (`arbiter import`).
    pub import: fn(&str) -> Result<Box<dyn ThreadGame>, String>,
    /// Whether its games act when a member leaves the server
    /// ([`ThreadGame::member_left`]): only such games' unfinished threads are read then.
    pub acts_on_leave: bool,
}

/// A game's import as [`GameKind::import`] wants it: the game boxed, the error as text.
///
/// # Errors
/// The export does not read: the game's reason.
pub fn imported<G: ThreadGame + 'static, E: std::fmt::Display>(
    read: Result<G, E>,
) -> Result<Box<dyn ThreadGame>, String> {
    read.map(|g| Box::new(g) as Box<dyn ThreadGame>)
        .map_err(|e| e.to_string())
}

impl dyn ThreadGame + '_ {
    /// The picture a reply to an accepted `command` carries, if the game has a picture and
    /// shows it then ([`Pictured::pictured`]).
    pub fn picture_after(&self, command: &str, thread: &str, now: Timestamp) -> Option<PictureJob> {
        let p = self.pictures()?;
        p.pictured(command).then(|| p.picture(thread, now))
    }

    /// `/replay`: the game's animation ([`Animated`]), or why there is none.
    ///
    /// # Errors
    /// The game has no replay, or the options are out of range.
    pub fn replay_job(
        &self,
        opts: &super::replay::ReplayOptions,
        now: Timestamp,
    ) -> Result<super::replay::ReplayJob, String> {
        self.animated()
            .ok_or_else(|| "this game has no replay".to_string())?
            .animation(opts, now)
    }

    /// This game as one game's own type, if it is one.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.as_any().downcast_ref()
    }
}

/// A game's [`GameKind::load`], named `$name`: [`load_with`] and `$build`, the game's
/// `from_log` taking the users, the decoded settings and the log.
macro_rules! loader {
    ($name:ident, $build:expr) => {
        fn $name(
            users: Vec<String>,
            settings: &str,
            rows: Vec<$crate::layer::LogRow>,
            away: &$crate::layer::clock::Away,
        ) -> Result<Box<dyn $crate::layer::game::ThreadGame>, String> {
            $crate::layer::game::load_with(users, settings, rows, away, $build)
        }
    };
}
pub(crate) use loader;

/// An accepted action's reply: its text numbered as the log numbers the action (`#12 …`;
/// an entry without a number is not), notifying whoever it asks to act.
pub fn accepted(number: Option<u32>, text: String, notify: Option<Notify>) -> Reply {
    let text = match number {
        Some(n) => format!("#{n} {text}"),
        None => text,
    };
    Reply {
        notify,
        ..Reply::ok(text)
    }
}

/// A new game and the reply that announces it (`text`), notifying its players.
pub fn announced(game: impl ThreadGame + 'static, text: String, notify: Notify) -> NewGame {
    NewGame {
        game: Box::new(game),
        reply: Reply {
            notify: Some(notify),
            ..Reply::ok(text)
        },
    }
}

/// A command's main text: its option `key`, or else its bare words joined by spaces (so
/// `/move Nb3-d4` reads as `/move notation:Nb3-d4`, spaces kept).
pub fn main_text(cmd: &Command, key: &str) -> Option<String> {
    cmd.opt(key)
        .map(String::from)
        .or_else(|| (!cmd.positional.is_empty()).then(|| cmd.positional.join(" ")))
}

/// `remind:<duration>|off`, `stall:<duration>|off` and `vacation:on|off` on `/<game> new`
/// (the front ends fill in the first two from the server's `/settings` when not given): how
/// long a player is waited on before a reminder, how long a game may sit untouched before it
/// pauses (`Some(0)`: never; `None`: not given), and whether it waits for players on
/// vacation.
///
/// # Errors
/// Neither a duration nor `off`.
pub fn pace_opt(cmd: &Command) -> Result<crate::layer::pace::Pace, String> {
    let read = |name: &str, example: &str| match cmd.opt(name).map(str::trim) {
        None => Ok(None),
        Some(v) if v.eq_ignore_ascii_case("off") => Ok(Some(0)),
        Some(v) => match crate::time::parse_duration(v) {
            Ok(secs) if secs > 0 => Ok(Some(secs)),
            _ => Err(format!(
                "{name}: takes a duration like {example}, or off; not {v}"
            )),
        },
    };
    let vacation = match cmd.opt("vacation") {
        None => None,
        Some(v) => match switch(v) {
            Some(true) => None,
            Some(false) => Some(false),
            None => return Err(format!("vacation: takes on or off; not {v}")),
        },
    };
    Ok(crate::layer::pace::Pace {
        remind: read("remind", "12h or 2d")?,
        stall: read("stall", "30d")?,
        vacation,
    })
}

/// `/offer [what:]draw`: whether it offers a draw, the only thing a player can offer.
///
/// # Errors
/// It offers something else.
pub fn draw_offer(cmd: &Command) -> Result<(), String> {
    let what = cmd
        .opt("what")
        .or(cmd.positional.first().map(String::as_str))
        .unwrap_or("draw");
    if what.eq_ignore_ascii_case("draw") {
        Ok(())
    } else {
        Err("only a draw can be offered: /offer draw".into())
    }
}

/// A move-limit overrun by `seat` falling due `at`: its player and the organiser (who
/// created the game: the first entry of its log, `organiser`) are told `text`.
pub fn overrun_due(
    seat: usize,
    at: Timestamp,
    user: &str,
    organiser: Option<String>,
    text: String,
) -> Due {
    Due {
        seat,
        at,
        notify: Notify::to(std::iter::once(user.to_string()).chain(organiser), text),
        limit_of: Some(user.to_string()),
    }
}

/// The overrun notice of a move limit falling due in `(after, until]` (Ultimate's and
/// Chex's): `due` is the seat it runs on and when it runs out on the layer's clock
/// ([`Away::deadline`]), `notice` that seat's number, player and announcement.
pub fn overrun_in<'a, S: Copy>(
    due: Option<(S, Timestamp)>,
    (after, until): (Timestamp, Timestamp),
    organiser: Option<&str>,
    notice: impl Fn(S) -> (usize, &'a str, String),
) -> Vec<Due> {
    due.filter(|&(_, at)| at > after && at <= until)
        .map(|(s, at)| {
            let (seat, user, text) = notice(s);
            overrun_due(seat, at, user, organiser.map(str::to_string), text)
        })
        .into_iter()
        .collect()
}

/// A move limit as a game's settings line tells it: `move limit 2d`, or `no move limit`.
pub fn move_limit_text(limit: Option<u64>) -> String {
    match limit {
        Some(l) => format!("move limit {}", crate::time::format_duration(l)),
        None => "no move limit".into(),
    }
}

/// An on/off option's value (`on`, `yes`, `true`, or `off`, `no`, `false`, in any case);
/// `None` for anything else.
pub fn switch(value: &str) -> Option<bool> {
    match value.to_lowercase().as_str() {
        "on" | "yes" | "true" => Some(true),
        "off" | "no" | "false" => Some(false),
        _ => None,
    }
}

/// The on/off option `key` ([`switch`]).
///
/// # Errors
/// It is neither on nor off.
pub fn on_off(key: &str, value: &str) -> Result<bool, String> {
    switch(value).ok_or_else(|| format!("{key} must be on or off"))
}

/// A duration option of `/<group> new` (`move_limit:2d`), if given.
///
/// # Errors
/// It is not a duration.
pub fn duration_opt(cmd: &Command, key: &str) -> Result<Option<u64>, String> {
    cmd.opt(key)
        .map(|l| crate::time::parse_duration(l).map_err(|e| e.to_string()))
        .transpose()
}

/// What `/<group> new` of a game with an optional move limit reads alike: `move_limit:`
/// and `seed:` into the request's own (kept when not given), `position:` (none when not
/// given), then the pace (`remind:`, `stall:`, `vacation:`) its settings keep once made.
///
/// # Errors
/// An option that does not read.
pub fn timed_opts(
    cmd: &Command,
    (move_limit, seed, position): (&mut Option<u64>, &mut u64, &mut Option<String>),
) -> Result<crate::layer::pace::Pace, String> {
    *move_limit = duration_opt(cmd, "move_limit")?.or(*move_limit);
    *seed = seed_opt(cmd)?.unwrap_or(*seed);
    *position = cmd.opt("position").map(str::to_string);
    pace_opt(cmd)
}

/// `seed:<n>` of `/<group> new`, if given (shared rules 0.5).
///
/// # Errors
/// It is not a seed.
pub fn seed_opt(cmd: &Command) -> Result<Option<u64>, String> {
    cmd.opt("seed").map(super::seed::parse_seed).transpose()
}

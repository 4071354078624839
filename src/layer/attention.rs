//! What the layer knows of players beyond any one game's log (issue 41): each player's
//! notification settings (`/notify`), the waits a player said are not held up by them ("not
//! waiting on me"), and the games an organiser resumed after they stalled. Reminders read
//! them ([`super::remind`]); the service stores them (the `meta` table) and hands them in, so
//! the rules stay pure and testable with a fake clock.
//!
//! One player's settings themselves (quiet hours, zone) are [`super::prefs`].

use std::collections::{HashMap, HashSet};

use super::prefs::Prefs;
use crate::time::Timestamp;

/// What the layer knows of players beyond the games' logs: settings, dismissed waits, and
/// stalled games resumed by their organiser.
#[derive(Clone, Debug, Default)]
pub struct Attention {
    prefs: HashMap<String, Prefs>,
    /// (thread, user, since): a wait its user said is not held up by them.
    dismissed: HashSet<(String, String, Timestamp)>,
    /// Thread → when its organiser resumed it (the layer's inactivity pause), in order:
    /// every one is kept, since the layer's clock reads the game's past pauses from them.
    resumed: HashMap<String, Vec<Timestamp>>,
    /// (server, user) → their vacations there (`/vacation`, [`super::vacation`]).
    vacations: HashMap<(String, String), super::vacation::Taken>,
}

impl Attention {
    /// A user's settings (the defaults when they set none).
    pub fn prefs(&self, user: &str) -> Prefs {
        self.prefs.get(user).cloned().unwrap_or_default()
    }

    /// Sets a user's settings.
    pub fn set_prefs(&mut self, user: &str, prefs: Prefs) {
        self.prefs.insert(user.to_string(), prefs);
    }

    /// Whether the wait of `user` in `thread` since `since` was dismissed.
    pub fn dismissed(&self, thread: &str, user: &str, since: Timestamp) -> bool {
        self.dismissed
            .contains(&(thread.to_string(), user.to_string(), since))
    }

    /// Records "not waiting on me" for a wait; `false` if it was already.
    pub fn dismiss(&mut self, thread: &str, user: &str, since: Timestamp) -> bool {
        self.dismissed
            .insert((thread.to_string(), user.to_string(), since))
    }

    /// When the organiser last resumed the game in `thread`.
    pub fn resumed(&self, thread: &str) -> Option<Timestamp> {
        self.resumed.get(thread).and_then(|v| v.last().copied())
    }

    /// Every `/resume` of the game in `thread` by its organiser, in order.
    pub fn resumes(&self, thread: &str) -> &[Timestamp] {
        self.resumed.get(thread).map_or(&[][..], Vec::as_slice)
    }

    /// Records an organiser's `/resume` of a stalled game.
    pub fn resume(&mut self, thread: &str, at: Timestamp) {
        let v = self.resumed.entry(thread.to_string()).or_default();
        if !v.contains(&at) {
            v.push(at);
            v.sort_unstable();
        }
    }

    /// The stored form of the resumes of `thread` (`meta`: their times, space-separated).
    pub fn resumes_text(&self, thread: &str) -> String {
        let v: Vec<String> = self.resumes(thread).iter().map(|t| t.to_string()).collect();
        v.join(" ")
    }

    /// A user's vacations on a server (the console's is the empty name).
    pub fn vacations(&self, server: &str, user: &str) -> super::vacation::Taken {
        self.vacations
            .get(&(server.to_string(), user.to_string()))
            .cloned()
            .unwrap_or_default()
    }

    /// Sets a user's vacations on a server.
    pub fn set_vacations(&mut self, server: &str, user: &str, taken: super::vacation::Taken) {
        self.vacations
            .insert((server.to_string(), user.to_string()), taken);
    }

    /// The vacations of `users` that a game on `guild` honours: those taken on its server,
    /// or on any server for a game stored without one (before issue 41, or on the console).
    pub fn away(&self, users: &[String], guild: Option<&str>) -> crate::layer::clock::Away {
        let mut away = crate::layer::clock::Away::none();
        if self.vacations.is_empty() {
            return away;
        }
        for ((server, user), taken) in &self.vacations {
            if users.contains(user) && guild.is_none_or(|g| g == server) {
                for &(a, b) in &taken.periods {
                    away.add(user, a, b);
                }
            }
        }
        away
    }

    /// Reads one stored `meta` row (`notify:<user>`, `nowait:<thread> <user> <since>`,
    /// `resumed:<thread>`, `vacation:<server> <user>`); rows of other kinds and rows that do
    /// not read are skipped.
    pub fn load_row(&mut self, key: &str, value: &str) {
        if let Some((server, user)) = super::vacation::read_vacation_key(key) {
            let taken = super::vacation::Taken::from_json(value);
            self.set_vacations(&server, &user, taken);
        } else if let Some(user) = key.strip_prefix(NOTIFY_KEY) {
            if let Ok(p) = serde_json::from_str::<Prefs>(value) {
                self.prefs.insert(user.to_string(), p);
            }
        } else if let Some(rest) = key.strip_prefix(NOWAIT_KEY) {
            let mut w = rest.rsplitn(3, ' ');
            if let (Some(since), Some(user), Some(thread)) = (w.next(), w.next(), w.next()) {
                if let Ok(since) = since.parse() {
                    self.dismiss(thread, user, since);
                }
            }
        } else if let Some(thread) = key.strip_prefix(RESUMED_KEY) {
            // One time (as stored before every resume was kept) or several.
            for t in value.split_whitespace().filter_map(|t| t.parse().ok()) {
                self.resume(thread, t);
            }
        }
    }
}

/// The `meta` key prefix of a user's settings.
pub const NOTIFY_KEY: &str = "notify:";
/// The `meta` key prefix of a dismissed wait.
pub const NOWAIT_KEY: &str = "nowait:";
/// The `meta` key prefix of an organiser's resume.
pub const RESUMED_KEY: &str = "resumed:";

/// The `meta` key of a dismissed wait.
pub fn nowait_key(thread: &str, user: &str, since: Timestamp) -> String {
    format!("{NOWAIT_KEY}{thread} {user} {since}")
}

/// The id of a reminder's "not waiting on me" button.
pub fn nowait_button(thread: &str, user: &str, since: Timestamp) -> String {
    format!("nowait:{since}:{user}:{thread}")
}

/// A "not waiting on me" button's (thread, user, since).
pub fn read_nowait_button(id: &str) -> Option<(String, String, Timestamp)> {
    let rest = id.strip_prefix("nowait:")?;
    let (since, rest) = rest.split_once(':')?;
    let (user, thread) = rest.split_once(':')?;
    Some((thread.to_string(), user.to_string(), since.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::prefs::Zone;

    fn prefs(quiet: (u8, u8), zone: &str) -> Prefs {
        Prefs {
            quiet: Some(quiet),
            zone: Some(zone.into()),
            ..Prefs::default()
        }
    }

    /// 2026-01-01T00:00:00Z.
    const JAN1: Timestamp = 1_767_225_600;
    /// 2026-07-01T00:00:00Z.
    const JUL1: Timestamp = 1_782_864_000;

    #[test]
    fn zones_read_names_and_offsets() {
        assert_eq!(Zone::parse("+05:30"), Ok(Zone::Offset(19_800)));
        assert_eq!(Zone::parse("UTC-3"), Ok(Zone::Offset(-10_800)));
        assert_eq!(Zone::parse("+0200"), Ok(Zone::Offset(7_200)));
        assert!(matches!(Zone::parse("europe/paris"), Ok(Zone::Named(_))));
        assert!(Zone::parse("Mars/Olympus").is_err());
        assert!(Zone::parse("+15:00").is_err());
        assert_eq!(Zone::parse("-14:00"), Ok(Zone::Offset(-50_400)));
        for bad in [
            "+-100000",
            "UTC+14:30",
            "+14:59",
            "+1ü1",
            "+ü",
            "-1:60",
            "+1é",
            "+٣",
        ] {
            assert!(Zone::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn quiet_hours_follow_the_zone_and_its_summer_time() {
        let p = prefs((22, 7), "Europe/Paris");
        // Paris is UTC+1 in January: 22:00 local is 21:00 UTC.
        assert!(!p.quiet_at(JAN1 - 3 * 3600 - 1));
        assert!(p.quiet_at(JAN1 - 3 * 3600));
        assert_eq!(p.after_quiet(JAN1), JAN1 + 6 * 3600);
        assert_eq!(p.before_quiet(JAN1), JAN1 - 3 * 3600 - 1);
        // UTC+2 in July: quiet ends at 05:00 UTC.
        assert_eq!(p.after_quiet(JUL1), JUL1 + 5 * 3600);
        let q = prefs((0, 8), "-05:00");
        assert_eq!(q.after_quiet(JAN1 + 6 * 3600), JAN1 + 13 * 3600);
        assert_eq!(q.after_quiet(JAN1 + 14 * 3600), JAN1 + 14 * 3600);
    }

    #[test]
    fn notify_options_change_only_what_they_name() {
        let cmd =
            crate::layer::Command::parse_plain("/notify quiet:23-6 zone:+01:00").expect("parses");
        let p = Prefs::default().changed(&cmd).expect("reads");
        assert_eq!(p.quiet, Some((23, 6)));
        assert!(!p.off);
        let cmd = crate::layer::Command::parse_plain("/notify reminders:maybe").expect("parses");
        assert!(Prefs::default().changed(&cmd).is_err());
        let cmd = crate::layer::Command::parse_plain("/notify quiet:7-7").expect("parses");
        assert!(Prefs::default().changed(&cmd).is_err());
    }

    #[test]
    fn buttons_and_keys_read_back() {
        let id = nowait_button("123:4", "ann", 99);
        assert_eq!(
            read_nowait_button(&id),
            Some(("123:4".into(), "ann".into(), 99))
        );
        let mut a = Attention::default();
        a.load_row(&nowait_key("t 1", "bob", 5), "");
        assert!(a.dismissed("t 1", "bob", 5));
    }
}

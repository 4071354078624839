//! Who must be told that an action needs them, and what to tell them.

/// A notification: what an action asks of other users, as one message whose lines each name
/// their users first (`@d: your move on board 2 (Nutty vs FIDE)`), short enough for a phone's
/// lock screen. Front ends deliver it so that it reaches exactly [`Notify::users`]: on Discord
/// a newly created message whose allowed mentions name them (Discord notifies nobody for
/// mentions in an edit or in the completion of a deferred response); the console prints
/// [`Notify::text`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notify {
    /// A first line naming nobody (what happened), before the lines that ask.
    head: Option<String>,
    lines: Vec<(Vec<String>, String)>,
    /// Buttons the message carries (a reminder's "not waiting on me").
    buttons: Vec<String>,
}

impl Notify {
    /// One line for `users`: `what` they must do.
    pub fn to<S: Into<String>>(
        users: impl IntoIterator<Item = S>,
        what: impl Into<String>,
    ) -> Notify {
        let mut who: Vec<String> = Vec::new();
        for u in users {
            let u = u.into();
            if !who.contains(&u) {
                who.push(u);
            }
        }
        let lines = if who.is_empty() {
            Vec::new()
        } else {
            vec![(who, what.into())]
        };
        Notify {
            head: None,
            lines,
            buttons: Vec::new(),
        }
    }

    /// The notification carrying a button (its id).
    pub fn with_button(mut self, id: impl Into<String>) -> Notify {
        self.buttons.push(id.into());
        self
    }

    /// The ids of the buttons it carries.
    pub fn buttons(&self) -> &[String] {
        &self.buttons
    }

    /// The notification under a first line that says what happened (naming nobody).
    pub fn headed(mut self, head: impl Into<String>) -> Notify {
        self.head = Some(head.into());
        self
    }

    /// The notification with `first` above its head (what led to it, naming nobody).
    pub fn beneath(mut self, first: impl Into<String>) -> Notify {
        let first = first.into();
        self.head = Some(match self.head.take() {
            Some(h) => format!("{first}\n{h}"),
            None => first,
        });
        self
    }

    /// One line per (user, what they must do), in one message; `None` for no line at all.
    pub fn each<U: Into<String>, W: Into<String>>(
        asks: impl IntoIterator<Item = (U, W)>,
    ) -> Option<Notify> {
        asks.into_iter()
            .map(|(u, what)| Notify::to([u], what))
            .reduce(Notify::and)
    }

    /// Both notifications in one message (a user named in both is still notified once).
    pub fn and(mut self, other: Notify) -> Notify {
        self.lines.extend(other.lines);
        self.buttons.extend(other.buttons);
        self
    }

    /// The notification without `user` (nobody is notified of their own action): lines left
    /// naming nobody are dropped; `None` when none is left.
    pub fn without(mut self, user: &str) -> Option<Notify> {
        for (who, _) in &mut self.lines {
            who.retain(|u| u != user);
        }
        self.lines.retain(|(who, _)| !who.is_empty());
        (!self.lines.is_empty()).then_some(self)
    }

    /// The notification with `more` appended to its last line (a note like "late").
    pub fn append(mut self, more: &str) -> Notify {
        if let Some((_, what)) = self.lines.last_mut() {
            what.push_str(more);
        }
        self
    }

    /// The notification with `more` after all it says (a line like the rating changes): on
    /// its last line, or its head when it names nobody.
    pub fn then(mut self, more: &str) -> Notify {
        match (self.lines.last_mut(), &mut self.head) {
            (Some((_, what)), _) => what.push_str(more),
            (None, Some(head)) => head.push_str(more),
            (None, None) => self.head = Some(more.trim_start().to_string()),
        }
        self
    }

    /// `None` when it notifies nobody.
    pub fn nonempty(self) -> Option<Notify> {
        (!self.lines.is_empty()).then_some(self)
    }

    /// Everyone it notifies, each once, in the order they are first named.
    pub fn users(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (who, _) in &self.lines {
            for u in who {
                if !out.contains(u) {
                    out.push(u.clone());
                }
            }
        }
        out
    }

    /// The message: the head line if any, then one line per part, `@a @b: what`.
    pub fn text(&self) -> String {
        self.head
            .iter()
            .cloned()
            .chain(self.lines.iter().map(|(who, what)| {
                let names: Vec<String> = who.iter().map(|u| format!("@{u}")).collect();
                format!("{}: {what}", names.join(" "))
            }))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_message_each_user_once_never_the_actor() {
        let n = Notify::to(["d"], "your move on board 1 (Clobberers vs FIDE)").and(Notify::to(
            ["a", "d", "a"],
            "give your lightgreen king to b (/give to:@b)",
        ));
        assert_eq!(n.users(), vec!["d".to_string(), "a".to_string()]);
        assert_eq!(
            n.text(),
            "@d: your move on board 1 (Clobberers vs FIDE)\n@a @d: give your lightgreen king to b (/give to:@b)"
        );
        let without = n.clone().without("d").expect("a is left");
        assert_eq!(without.users(), vec!["a".to_string()]);
        assert_eq!(
            without.text(),
            "@a: give your lightgreen king to b (/give to:@b)"
        );
        assert_eq!(without.without("a"), None);
        assert_eq!(Notify::to(Vec::<String>::new(), "x").nonempty(), None);
        assert!(Notify::default().users().is_empty());
    }

    #[test]
    fn then_adds_to_the_last_line_or_the_head_pinging_nobody_more() {
        let n = Notify::to(["d"], "the game is over").then("\nratings: d 25.0");
        assert_eq!(n.text(), "@d: the game is over\nratings: d 25.0");
        assert_eq!(n.users(), vec!["d".to_string()]);
        let head = Notify::default()
            .headed("#23 b: CNd4xe2")
            .then("\nratings: b 1800");
        assert_eq!(head.text(), "#23 b: CNd4xe2\nratings: b 1800");
        assert!(head.users().is_empty());
        assert_eq!(Notify::default().then("\nratings: x").text(), "ratings: x");
    }
}

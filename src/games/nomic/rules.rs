//! The numbered ruleset the bot keeps (Nomic rules 6.9): the seed's rules 100–217 to start with,
//! adopted enactments added, amendments and repeals shown in place, `[[ ]]` text marked not in
//! effect, and rules the bot cannot enforce marked "referee-enforced".

use serde::{Deserialize, Serialize};

/// The seed's text (rules 100–217 are the starting ruleset).
pub const SEED: &str = include_str!("ruleset.txt");

/// Starting rules the bot cannot enforce (they need a person's judgment).
const REFEREE_ENFORCED: [u32; 9] = [101, 103, 105, 107, 108, 110, 111, 200, 211];

/// Whether the bot enforces starting rule `n` (a rule of the starting ruleset it does not
/// leave to the Referees).
pub fn enforced_at_start(n: u32) -> bool {
    ((100..=113).contains(&n) || (200..=217).contains(&n)) && !REFEREE_ENFORCED.contains(&n)
}

/// One rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// Its number.
    pub number: u32,
    /// Its text as now in force (amendments applied).
    pub text: String,
    /// Immutable (102, 113).
    pub immutable: bool,
    /// Enforced by the bot (a starting rule never amended); otherwise referee-enforced.
    pub enforced: bool,
    /// Repealed (by which proposal).
    pub repealed: Option<u32>,
    /// What happened to it: `amended by proposal 3`, and the former texts.
    pub history: Vec<String>,
}

/// The ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Ruleset {
    /// Rules by number.
    pub rules: Vec<Rule>,
}

fn rule_start(line: &str) -> Option<(u32, &str)> {
    let l = line.trim_start();
    let l = l.strip_prefix("- ").unwrap_or(l);
    let (num, rest) = l.split_once(". ")?;
    if num.len() != 3 || !num.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: u32 = num.parse().ok()?;
    (100..=299).contains(&n).then_some((n, rest))
}

/// The seed's HTML and TeX marks written as Discord markdown: `<u>Referees</u>` underlined
/// (`__Referees__`), `<sup>…</sup>` as plain text, `$\odot$` as a smiley.
pub fn markdown(text: &str) -> String {
    text.replace("<u>", "__")
        .replace("</u>", "__")
        .replace("<sup>", "")
        .replace("</sup>", "")
        .replace("$\\odot$", "☺")
}

impl Ruleset {
    /// The starting ruleset: rules 100–217 of the seed.
    pub fn starting() -> Ruleset {
        let mut rules: Vec<Rule> = Vec::new();
        let mut started = false;
        for line in SEED.lines() {
            if let Some((n, rest)) = rule_start(line) {
                started = true;
                rules.push(Rule {
                    number: n,
                    text: rest.trim().to_string(),
                    immutable: n < 199,
                    enforced: !REFEREE_ENFORCED.contains(&n),
                    repealed: None,
                    history: Vec::new(),
                });
                continue;
            }
            if !started || line.trim_start().starts_with('#') {
                continue;
            }
            if let Some(r) = rules.last_mut() {
                let t = line.trim_end();
                if t.trim().is_empty() {
                    if !r.text.ends_with("\n\n") {
                        r.text.push_str("\n\n");
                    }
                } else {
                    if !r.text.ends_with('\n') {
                        r.text.push('\n');
                    }
                    r.text.push_str(t.trim_start());
                }
            }
        }
        for r in &mut rules {
            r.text = markdown(r.text.trim());
        }
        Ruleset { rules }
    }

    /// A rule by number.
    pub fn get(&self, n: u32) -> Option<&Rule> {
        self.rules.iter().find(|r| r.number == n)
    }

    fn get_mut(&mut self, n: u32) -> Option<&mut Rule> {
        self.rules.iter_mut().find(|r| r.number == n)
    }

    /// The highest rule number.
    pub fn max_number(&self) -> u32 {
        self.rules.iter().map(|r| r.number).max().unwrap_or(0)
    }

    /// The number an adopted enactment takes: the author's if above every rule, else the
    /// next.
    pub fn number_for(&self, asked: Option<u32>) -> u32 {
        let max = self.max_number();
        match asked {
            Some(n) if n > max => n,
            _ => max + 1,
        }
    }

    /// Adds an enacted rule; returns its number.
    pub fn enact(&mut self, asked: Option<u32>, text: &str, immutable: bool, proposal: u32) -> u32 {
        let n = self.number_for(asked);
        self.rules.push(Rule {
            number: n,
            text: text.trim().to_string(),
            immutable,
            enforced: false,
            repealed: None,
            history: vec![format!("enacted by proposal {proposal}")],
        });
        n
    }

    /// Amends a rule in place.
    pub fn amend(&mut self, n: u32, text: &str, proposal: u32) {
        if let Some(r) = self.get_mut(n) {
            let old = std::mem::replace(&mut r.text, text.trim().to_string());
            r.enforced = false;
            r.history
                .push(format!("amended by proposal {proposal}; it read: {old}"));
        }
    }

    /// Marks a rule as enforced by the bot (an amendment it reads, like rule 206's limits).
    pub fn set_enforced(&mut self, n: u32, enforced: bool) {
        if let Some(r) = self.get_mut(n) {
            r.enforced = enforced;
        }
    }

    /// Repeals a rule (shown in place, struck).
    pub fn repeal(&mut self, n: u32, proposal: u32) {
        if let Some(r) = self.get_mut(n) {
            r.repealed = Some(proposal);
            r.enforced = false;
            r.history.push(format!("repealed by proposal {proposal}"));
        }
    }

    /// The marks of a rule: `immutable`/`mutable`, `referee-enforced`, `repealed`.
    pub fn marks(r: &Rule) -> String {
        let mut m = vec![if r.immutable { "immutable" } else { "mutable" }];
        if r.repealed.is_some() {
            m.push("repealed");
        } else if !r.enforced {
            m.push("referee-enforced");
        }
        m.join(", ")
    }

    /// A rule's text with `[[ … ]]` marked not in effect.
    pub fn shown_text(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("[[") {
            out.push_str(&rest[..i]);
            let after = &rest[i..];
            match after.find("]]") {
                Some(j) => {
                    out.push_str(&after[..j + 2]);
                    out.push_str(" (not in effect)");
                    rest = &after[j + 2..];
                }
                None => {
                    out.push_str(after);
                    out.push_str(" (not in effect)");
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// One rule in full (`/rules number:`).
    pub fn full(&self, n: u32) -> Option<String> {
        let r = self.get(n)?;
        let mut s = format!(
            "Rule {} ({})\n{}",
            r.number,
            Self::marks(r),
            Self::shown_text(&r.text)
        );
        for h in &r.history {
            s.push_str(&format!("\n— {h}"));
        }
        Some(s)
    }

    /// Every rule in full, in number order (the ruleset posted with a new game).
    pub fn all_text(&self) -> String {
        let mut rules: Vec<&Rule> = self.rules.iter().collect();
        rules.sort_by_key(|r| r.number);
        rules
            .iter()
            .filter_map(|r| self.full(r.number))
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// The list (`/rules`): each rule's number, marks and first words.
    pub fn summary(&self) -> String {
        let mut rules: Vec<&Rule> = self.rules.iter().collect();
        rules.sort_by_key(|r| r.number);
        let mut lines = vec![format!(
            "Ruleset ({} rules; /rules number:<n> shows one in full)",
            rules.len()
        )];
        for r in rules {
            let first: String = r
                .text
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(60)
                .collect();
            let more = if r.text.chars().count() > first.chars().count() {
                "…"
            } else {
                ""
            };
            lines.push(format!("{} ({}): {first}{more}", r.number, Self::marks(r)));
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_ruleset_is_100_to_113_and_200_to_217() {
        let r = Ruleset::starting();
        let nums: Vec<u32> = r.rules.iter().map(|r| r.number).collect();
        let want: Vec<u32> = (100..=113).chain(200..=217).collect();
        assert_eq!(nums, want);
        assert!(r.get(113).is_some_and(|r| r.immutable));
        assert!(r.get(201).is_some_and(|r| !r.immutable && r.enforced));
        assert!(r.get(103).is_some_and(|r| !r.enforced));
        assert!(r
            .get(101)
            .is_some_and(|r| r.text.contains("double square brackets")));
        let full = r.full(103).expect("103");
        assert!(full.contains("]] (not in effect)"), "{full}");
        assert!(full.contains("referee-enforced"), "{full}");
    }

    #[test]
    fn numbering_amendment_and_repeal() {
        let mut r = Ruleset::starting();
        assert_eq!(r.enact(Some(300), "x", false, 1), 300);
        assert_eq!(r.enact(Some(250), "y", false, 2), 301);
        assert_eq!(r.enact(None, "z", false, 3), 302);
        r.amend(206, "ten minutes", 4);
        assert!(r
            .full(206)
            .is_some_and(|t| t.contains("ten minutes") && t.contains("amended by proposal 4")));
        r.repeal(215, 5);
        assert!(r.summary().contains("215 (mutable, repealed)"));
    }
}

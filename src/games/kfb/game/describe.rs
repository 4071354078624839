//! Texts about actions: a colour's number, user names put into a text, and a short description
//! of each logged action for previews and exports.

use super::*;

/// The colour number (index into [`COLOUR_NAMES`]) of a draft colour.
pub fn colour_number(c: super::super::draft::Colour) -> u8 {
    super::super::draft::Colour::ALL
        .iter()
        .position(|&x| x == c)
        .unwrap_or(0) as u8
}

/// Rewrites the draft's `player N` / `team N` (0-based) with the seats' users and team numbers
/// from 1.
pub(super) fn humanize(text: &str, users: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let player = rest.strip_prefix("player ").and_then(|r| {
            let d = r.chars().next()?.to_digit(10)? as usize;
            users.get(d).map(|u| (u.clone(), &r[1..]))
        });
        let team = rest.strip_prefix("team ").and_then(|r| {
            let d = r.chars().next()?.to_digit(10)? as usize;
            (d < 2).then(|| (format!("team {}", d + 1), &r[1..]))
        });
        match (player, team) {
            (Some((name, r)), _) | (None, Some((name, r))) => {
                out.push_str(&name);
                rest = r;
            }
            (None, None) => {
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// A one-line description of an action.
pub fn describe(a: &Action, users: &[String]) -> String {
    let u = |s: usize| users.get(s).cloned().unwrap_or_default();
    match a {
        Action::Pick(DraftOutcome::Picked { player, choice, .. }) => format!(
            "pick for {}: {} {} {}",
            u(*player),
            choice.order.as_str(),
            choice.colour.as_str(),
            choice.army.as_str()
        ),
        Action::Pick(DraftOutcome::HandedOver { player, reason, .. }) => {
            format!(
                "hand-over of {}'s pick ({})",
                u(*player),
                humanize(reason, users)
            )
        }
        Action::Move {
            player, notation, ..
        } => format!("{} {notation}", u(*player)),
        Action::Give { from, to, colour } => format!(
            "{} gives the {} king to {}",
            u(*from),
            COLOUR_NAMES[*colour as usize % 3],
            u(*to)
        ),
        Action::Claim { claimant, inactive } => {
            format!("{} claims inactivity of {}", u(*claimant), u(*inactive))
        }
        Action::Chat { player } => format!("chat by {}", u(*player)),
        Action::Resign { player } => format!("{} resigns", u(*player)),
        Action::Takeback { player, undone } => format!("{} takes back #{undone}", u(*player)),
        Action::Revert { to, reason } => format!("revert to before #{to} ({reason})"),
        Action::Substitute(h) => h.text(),
        Action::Proxy {
            grant,
            proxy,
            for_player,
        } => format!(
            "proxy {} {} for {}",
            if *grant { "grant" } else { "revoke" },
            u(*proxy),
            u(*for_player)
        ),
    }
}

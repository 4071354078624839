//! What a front end shows that the command layer words, so that the front end names no
//! command: a button's face (its label and look, from its id), the heading of a message of
//! command buttons (a vote's), and the texts a front end sends of its own when something
//! failed on its side.

use super::command_button;
use crate::layer::attention::read_nowait_button;

/// How a button looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// It changes the game for good (a confirmation).
    Danger,
    /// It takes something back or changes little.
    Secondary,
    /// It agrees (a vote for).
    Success,
}

/// The command a vote button stands for, after its name: `proposal:3 choice:for`.
fn vote(cmd: &str) -> Option<&str> {
    cmd.strip_prefix("/vote ")
}

/// A button's label and look, from its id.
pub fn button_face(id: &str) -> (String, Look) {
    if id.starts_with("revert-confirm") {
        ("Confirm revert".to_string(), Look::Danger)
    } else if id.starts_with("ask-cancel") {
        // The question of a /resign, /concede or /forfeit.
        ("Cancel".to_string(), Look::Secondary)
    } else if read_nowait_button(id).is_some() {
        ("Not waiting on me".to_string(), Look::Secondary)
    } else if let Some((_, cmd)) = command_button(id) {
        // A command button (a Nomic vote): labelled by what it does.
        let words = vote(&cmd).unwrap_or(&cmd);
        let label = match (
            words.contains("choice:for"),
            words.split_whitespace().next(),
        ) {
            (true, Some(p)) => format!("Vote for ({})", p.replace(':', " ")),
            (false, Some(p)) => format!("Vote against ({})", p.replace(':', " ")),
            _ => cmd.clone(),
        };
        let look = if words.contains("choice:for") {
            Look::Success
        } else {
            Look::Secondary
        };
        (label, look)
    } else {
        ("Confirm".to_string(), Look::Danger)
    }
}

/// The heading of a message of command buttons: `Vote on proposal 3` for vote buttons.
pub fn buttons_heading(ids: &[String]) -> String {
    let proposal = ids.iter().find_map(|id| {
        let (_, cmd) = command_button(id)?;
        vote(&cmd)?
            .split_whitespace()
            .find_map(|w| w.strip_prefix("proposal:"))
            .map(str::to_string)
    });
    match proposal {
        Some(n) => format!("Vote on proposal {n}"),
        None => "Buttons".to_string(),
    }
}

/// The answer to a command that failed on the front end's side (logged there): the action
/// may have been recorded or not.
pub const FAILED_ON_OUR_SIDE: &str =
    "something went wrong on our side; check /status to see whether the action was recorded";

/// The refusal after match threads that could not be opened (`failed` lists the matches):
/// the pairing stands, and pairing again offers them again.
pub fn matches_not_opened(failed: &str) -> String {
    format!(
        "refused: the thread of {failed} could not be opened; the pairing stands: run /tournament pair again to open it"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::command_button_id;

    #[test]
    fn vote_buttons_are_labelled_by_what_they_do() {
        let ids = vec![
            command_button_id("7", "/vote proposal:3 choice:for"),
            command_button_id("7", "/vote proposal:3 choice:against"),
        ];
        assert_eq!(
            button_face(&ids[0]),
            ("Vote for (proposal 3)".to_string(), Look::Success)
        );
        assert_eq!(
            button_face(&ids[1]),
            ("Vote against (proposal 3)".to_string(), Look::Secondary)
        );
        assert_eq!(buttons_heading(&ids), "Vote on proposal 3");
        assert_eq!(buttons_heading(&[]), "Buttons");
        assert_eq!(button_face("revert-confirm:1").1, Look::Danger);
    }
}

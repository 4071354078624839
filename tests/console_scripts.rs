//! Scenario tests written as console scripts (tests/scripts/*.txt).
//!
//! Each script is console input. After a command, expectation lines check its output:
//! `> text` (some output line contains `text`), `>! text` (no line contains it),
//! `>= line` (some line equals it exactly).

use arbiter::console::{Console, START_TIME};

fn run_script(name: &str) {
    let path = format!("{}/tests/scripts/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut console = Console::new(START_TIME, 7);
    let mut last: Vec<String> = Vec::new();
    let mut last_input = String::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let fail = |what: &str, last: &[String], input: &str| -> ! {
            panic!(
                "{name}:{n}: {what}\n  after: {input}\n  output:\n    {}",
                last.join("\n    ")
            )
        };
        if let Some(exp) = line.strip_prefix(">=") {
            let exp = exp.trim();
            if !last.iter().any(|l| l == exp) {
                fail(&format!("expected the line `{exp}`"), &last, &last_input);
            }
        } else if let Some(exp) = line.strip_prefix(">!") {
            let exp = exp.trim();
            if last.iter().any(|l| l.contains(exp)) {
                fail(
                    &format!("expected no line containing `{exp}`"),
                    &last,
                    &last_input,
                );
            }
        } else if let Some(exp) = line.strip_prefix('>') {
            let exp = exp.trim();
            if !last.iter().any(|l| l.contains(exp)) {
                fail(
                    &format!("expected a line containing `{exp}`"),
                    &last,
                    &last_input,
                );
            }
        } else {
            last = console.line(line);
            if !line.trim().is_empty() && !line.trim_start().starts_with('#') {
                last_input = line.to_string();
            }
        }
    }
}

macro_rules! scripts {
    ($($test:ident => $file:literal,)*) => {
        $(#[test] fn $test() { run_script($file); })*
    };
}

scripts! {
    routing_and_drops => "routing.txt",
    draft_and_handover => "draft.txt",
    kings_frozen_boards_and_gives => "kings.txt",
    full_game_to_six_king_victory => "victory.txt",
    kung_fu_timing => "timing.txt",
    inactivity_claim => "inactivity.txt",
    takeback_revert_proxy => "moderation.txt",
}

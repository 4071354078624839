//! Scenario tests written as console scripts (tests/scripts/*.txt).
//!
//! Each script is console input. After a command, expectation lines check its output:
//! `> text` (some output line contains `text`), `>! text` (no line contains it),
//! `>= line` (some line equals it exactly).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use arbiter::console::Console;

fn run_script(name: &str) {
    let text = script(name);
    // Every script runs through storage: SQLite, or PostgreSQL with ARBITER_TEST_POSTGRES.
    let url = common::fresh_db(name);
    let mut console = Console::open(Some(&url), 7).expect("open the test database");
    let threads = check(name, &text, &mut console);
    // Nothing is lost: a new process on the same database shows the same games.
    let snapshot = |c: &mut Console| -> Vec<Vec<String>> {
        threads
            .iter()
            .map(|t| {
                c.line(&format!("!thread {t}"));
                c.line("!state")
            })
            .collect()
    };
    let before = snapshot(&mut console);
    drop(console);
    let mut again = Console::open(Some(&url), 7).expect("reopen the test database");
    assert_eq!(
        before,
        snapshot(&mut again),
        "{name}: state after reopening the database"
    );
}

/// The text of a script.
fn script(name: &str) -> String {
    let path = format!("{}/tests/scripts/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Runs a script's lines on `console`, checking each expectation; the threads it named.
fn check(name: &str, text: &str, console: &mut Console) -> Vec<String> {
    let mut last: Vec<String> = Vec::new();
    let mut last_input = String::new();
    let mut threads = vec!["main".to_string()];
    for (i, line) in text.lines().enumerate() {
        if let Some(t) = line.strip_prefix("!thread ") {
            threads.push(t.trim().to_string());
        }
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
    threads
}

/// A script run by a service without a database (the games only in memory).
fn run_in_memory(name: &str) {
    let mut console = Console::new(arbiter::console::START_TIME, 7);
    check(name, &script(name), &mut console);
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
    tournament_from_signups_to_the_end => "tournament.txt",
    chex_swiss_to_its_winner => "tournament_chex.txt",
    chex_round_robin_to_its_winner => "tournament_roundrobin.txt",
    ultimate_swiss_of_tables_to_its_winner => "tournament_ultimate.txt",
    party_event_to_its_winner => "tournament_party.txt",
    a_swiss_of_tables_ranks_equal_scores_by_rating => "tournament_rated_tables.txt",
    pawns_of_several_armies => "armies.txt",
    ultimate_through_the_layer => "ultimate.txt",
    chex_through_the_layer => "chex.txt",
    ratings_from_the_games_and_a_revert => "ratings.txt",
    nomic_through_the_layer => "nomic.txt",
    party_through_the_layer => "party.txt",
    kfb_shared_messages => "kfb_messages.txt",
    moves_off_turn_lists_plays_to_plan => "planning.txt",
    my_games_list_what_waits_on_the_caller_first => "mygames.txt",
    reminders_ping_the_one_user_waited_on => "reminders.txt",
    notify_settings_shape_reminders => "notify.txt",
    stalled_games_pause_and_resume => "stall.txt",
    replay_posts_a_gif_and_refuses_bad_options => "replay.txt",
    a_substitute_takes_a_seat_with_everything_in_it => "substitutes.txt",
    vacations_stop_limits_and_reminders_of_away_players => "vacation.txt",
    conditional_moves_answer_the_plays_before_ones_own => "premoves.txt",
    help_lists_players_commands_one_a_line_then_the_officials => "help.txt",
    a_frozen_board_says_why_and_promises_no_lock_end => "frozen.txt",
    resign_concede_forfeit_ask_once_with_buttons => "confirm.txt",
    nomic_squares_hints_forfeit_pings_and_party_ledger => "nomic_party_texts.txt",
    wording_written_for_players => "wording.txt",
    a_games_own_settings_are_visible => "settings.txt",
    my_games_lists_the_games_you_run_that_need_a_look => "runs.txt",
    hostile_text_and_checked_conditional_moves => "robust.txt",
    a_catch_up_is_whole_announced_and_stored => "catchup.txt",
    a_pause_stops_every_clock_of_every_game => "clock.txt",
    every_wait_is_stated_once_on_the_layers_clock => "waits.txt",
    a_game_ended_on_the_clock_is_rated => "ratings_timer.txt",
}

/// Without a database the ratings read only the games the service noted: one that ended in
/// the timer sweep is noted there.
#[test]
fn a_game_ended_on_the_clock_is_rated_without_a_database() {
    run_in_memory("ratings_timer.txt");
}

//! The README and the guides in `docs/` are run, not only read (issue 56):
//! - every ```` ```console ```` block is a console session, played on a fresh database: each
//!   command must be accepted (no `refused:` or `error:` line);
//! - every `arbiter <tool>` named in a ```` ```sh ```` block is a command the binary has;
//! - every relative link and every `tests/…` or `src/…` path the pages name exists.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter::console::Console;

/// The README and every page under `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs/ exists") {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The fenced blocks of a page with the given info string: (first line number, lines).
fn blocks(text: &str, info: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<String>)> = None;
    let mut in_other = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut current, fence) {
            (Some(_), Some(_)) => out.extend(current.take()),
            (Some((_, lines)), None) => lines.push(line.to_string()),
            (None, Some(rest)) if !in_other && rest.trim() == info => {
                current = Some((i + 2, Vec::new()))
            }
            (None, Some(_)) => in_other = !in_other,
            (None, None) => {}
        }
    }
    out
}

fn relative(path: &Path) -> String {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn every_console_example_is_accepted() {
    let mut sessions = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (first, lines) in blocks(&text, "console") {
            sessions += 1;
            let name = format!("docs-{}-{first}", sessions);
            let url = common::fresh_db(&name);
            let mut console = Console::open(Some(&url), 7).expect("open the test database");
            for (k, line) in lines.iter().enumerate() {
                if line.trim().is_empty() || line.trim_start().starts_with('#') {
                    continue;
                }
                let out = console.line(line);
                let bad = out
                    .iter()
                    .find(|l| l.starts_with("refused:") || l.starts_with("error:"));
                assert!(
                    bad.is_none(),
                    "{}:{}: `{line}` was not accepted:\n  {}",
                    relative(&page),
                    first + k,
                    out.join("\n  ")
                );
                if !line.starts_with('!') {
                    assert!(
                        !out.is_empty(),
                        "{}: `{line}` got no answer",
                        relative(&page)
                    );
                }
            }
        }
    }
    // One in the README, the console page and each game's guide at least.
    assert!(sessions >= 7, "only {sessions} console examples found");
}

#[test]
fn every_tool_the_pages_name_exists() {
    let bin = env!("CARGO_BIN_EXE_arbiter");
    let mut tools = std::collections::BTreeSet::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (_, lines) in blocks(&text, "sh") {
            for line in lines {
                let Some(rest) = line.trim().strip_prefix("arbiter ") else {
                    continue;
                };
                // The subcommand's words: up to the first option, placeholder or file.
                let words: Vec<&str> = rest
                    .split_whitespace()
                    .take_while(|w| {
                        w.chars().all(|c| c.is_ascii_lowercase() || c == '-') && !w.starts_with('-')
                    })
                    .collect();
                assert!(!words.is_empty(), "{}: `{line}`", relative(&page));
                tools.insert(words.join(" "));
            }
        }
    }
    assert!(tools.len() >= 10, "only {tools:?}");
    for tool in &tools {
        let status = Command::new(bin)
            .args(tool.split(' '))
            .arg("--help")
            .output()
            .expect("run arbiter");
        assert!(
            status.status.success(),
            "`arbiter {tool} --help` failed: {}",
            String::from_utf8_lossy(&status.stderr)
        );
    }
}

#[test]
fn every_link_and_path_the_pages_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        // Markdown links to files of the project: `](path)` or `](path#anchor)`.
        for piece in text.split("](").skip(1) {
            let target = piece.split(')').next().unwrap_or("");
            let file = target.split('#').next().unwrap_or("");
            if file.is_empty() || file.contains("://") {
                continue;
            }
            assert!(
                dir.join(file).exists(),
                "{}: the link `{target}` leads nowhere",
                relative(&page)
            );
        }
        // Paths in code spans: `tests/scripts/x.txt`, `src/games/chex/mod.rs`.
        for span in text.split('`').skip(1).step_by(2) {
            let path = span.split_whitespace().next().unwrap_or("");
            let named = (path.starts_with("tests/") || path.starts_with("src/"))
                && !path.contains('<')
                && !path.contains('*')
                && (path.ends_with(".rs") || path.ends_with(".txt") || path.ends_with('/'));
            if named {
                assert!(
                    root.join(path).exists(),
                    "{}: `{path}` does not exist",
                    relative(&page)
                );
            }
        }
    }
}

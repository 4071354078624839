//! Shared test helpers: a fresh database for each test, SQLite by default, PostgreSQL when
//! `ARBITER_TEST_POSTGRES` names a server (`postgres://user:pass@127.0.0.1/postgres`).
#![allow(dead_code)]

pub mod play;

use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A unique name for this process and call.
pub fn unique(name: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{}_{}_{}_{}",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        std::process::id(),
        n,
        nanos
    )
}

/// The PostgreSQL server to test against, if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("ARBITER_TEST_POSTGRES")
        .ok()
        .filter(|s| !s.is_empty())
}

/// A URL for a new, empty database.
pub fn fresh_db(name: &str) -> String {
    let id = unique(name).to_lowercase();
    match postgres_server() {
        Some(server) => {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                use sqlx::Connection;
                let mut conn = sqlx::PgConnection::connect(&server)
                    .await
                    .expect("connect to ARBITER_TEST_POSTGRES");
                sqlx::query(&format!("CREATE DATABASE {id}"))
                    .execute(&mut conn)
                    .await
                    .expect("create database");
            });
            let base = match server.rfind('/') {
                Some(i) if i > "postgres://".len() => &server[..i],
                _ => server.as_str(),
            };
            format!("{base}/{id}")
        }
        None => {
            let dir = std::env::temp_dir().join("arbiter-tests");
            std::fs::create_dir_all(&dir).unwrap();
            format!(
                "sqlite://{}?mode=rwc",
                dir.join(format!("{id}.db")).display()
            )
        }
    }
}

/// The draft of a Kung Fu Bughouse game made with seed 1: its first picker is f (RULINGS §1.8).
#[allow(unused_imports)]
pub use arbiter::bench::fixtures::SEED_ONE_DRAFT as DRAFT;

//! Benchmarks, out of the library's rooms: `arbiter render-bench` (every game's picture and
//! long replays), `arbiter scale-bench` (100k stored games) and `arbiter store-bench` (the
//! service on a real store, [`service`]), with the example games they share ([`fixtures`]).
//! The fake-Discord burst is a test harness (`tests/discord/bench.rs`). Figures are reported
//! as ratios against a reference run on the same machine; tests never time anything.

pub mod fixtures;
pub mod pictures;
pub mod replays;
pub mod scale;
pub mod service;

//! Games: the rules of each game built on the engine. Pure: time and seeds are passed in.
pub mod kfb;
pub mod ultimate;

//! Where the time of a picture goes, for the benchmarks: the PNG encoder marks its span with
//! [`Encoding::start`], and whoever ran the picture job reads the total with
//! [`take_encoding`] on the same thread.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static ENCODING: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// A span of PNG encoding: its time is added to this thread's total when dropped.
pub struct Encoding(Instant);

impl Encoding {
    /// Starts a span.
    pub fn start() -> Encoding {
        Encoding(Instant::now())
    }
}

impl Drop for Encoding {
    fn drop(&mut self) {
        let took = self.0.elapsed();
        ENCODING.with(|e| e.set(e.get() + took));
    }
}

/// This thread's encoding time since the last call, reset to zero.
pub fn take_encoding() -> Duration {
    ENCODING.with(|e| e.replace(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_add_up_per_thread_and_reset_when_taken() {
        take_encoding();
        {
            let _a = Encoding::start();
            std::thread::sleep(Duration::from_millis(5));
        }
        {
            let _b = Encoding::start();
            std::thread::sleep(Duration::from_millis(5));
        }
        let other = std::thread::spawn(take_encoding).join().unwrap_or_default();
        assert_eq!(other, Duration::ZERO, "another thread's total is its own");
        assert!(take_encoding() >= Duration::from_millis(10));
        assert_eq!(take_encoding(), Duration::ZERO);
    }
}

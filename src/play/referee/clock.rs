//! The wall-clock guard of a program's move: how long it may run before
//! it is killed as hung.

use std::time::Duration;

use serde::Serialize;

/// The wall-clock limit of a program's move: `factor` times its CPU time
/// left, plus `grace` seconds for start-up and a loaded machine.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WallGuard {
    /// Multiple of the CPU seconds left.
    pub factor: f64,
    /// Seconds added.
    pub grace: f64,
}

impl Default for WallGuard {
    fn default() -> Self {
        WallGuard {
            factor: 3.0,
            grace: 1.0,
        }
    }
}

impl WallGuard {
    /// The wall-clock limit for a move with `seconds_left` CPU seconds left
    /// (never negative; at most about 31 years).
    pub fn limit(&self, seconds_left: f64) -> Duration {
        let secs = self.factor * seconds_left + self.grace;
        // A NaN setting gives no time rather than a panic.
        let secs = if secs.is_nan() {
            0.0
        } else {
            secs.clamp(0.0, 1e9)
        };
        Duration::from_secs_f64(secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_guard_grows_with_the_time_left() {
        let g = WallGuard::default();
        assert_eq!(g.limit(2.0), Duration::from_secs(7));
        assert_eq!(g.limit(f64::NAN), Duration::ZERO);
        let g = WallGuard {
            factor: f64::INFINITY,
            grace: 0.0,
        };
        assert!(g.limit(1.0) > Duration::from_secs(1 << 20));
    }
}

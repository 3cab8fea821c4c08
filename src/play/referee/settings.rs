//! A referee match's settings: the boards, and how each game is played.

use serde::Serialize;

use crate::play::arena::BoardSet;

use super::game::GameSettings;
use super::side::ProgramError;

/// The boards of a referee match and how each game is played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefereeSettings {
    /// The boards, each played twice with the colours swapped.
    #[serde(flatten)]
    pub boards: BoardSet,
    /// Time, wall guard and threads of each game.
    pub game: GameSettings,
}

/// What can stop a referee match: settings out of range, a program that
/// cannot run at all, or the referee's own I/O (never anything a program
/// does in a game).
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// A setting out of range.
    #[error("{0}")]
    Settings(String),
    /// A program side that cannot be run at all.
    #[error(transparent)]
    Program(#[from] ProgramError),
    /// Temporary folders, `input.txt`, starting `sh`.
    #[error("board {board}: {source}")]
    Io {
        /// The board being played (1 for the first).
        board: u32,
        /// What failed.
        source: std::io::Error,
    },
}

impl RefereeSettings {
    /// Checks every field is in range.
    pub fn validate(&self) -> Result<(), RefereeError> {
        let bad = |s: &str| Err(RefereeError::Settings(s.to_owned()));
        let non_negative = |x: f64| x.is_finite() && x >= 0.0;
        if let Some(problem) = self.boards.problem() {
            return bad(problem);
        }
        if !non_negative(self.game.time) {
            return bad("the time per game must be a non-negative number of seconds");
        }
        if !non_negative(self.game.guard.factor) || !non_negative(self.game.guard.grace) {
            return bad("the wall guard's factor and grace must be non-negative numbers");
        }
        Ok(())
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::play::referee::WallGuard;

    /// Three small boards, 10 CPU seconds a side, one thread.
    pub(in crate::play::referee) fn settings() -> RefereeSettings {
        RefereeSettings {
            boards: BoardSet {
                count: 3,
                seed: 5,
                sizes: (2, 4),
                max_value: 99,
                fill: 0.2,
            },
            game: GameSettings {
                time: 10.0,
                guard: WallGuard::default(),
                threads: 1,
                sandbox: crate::sandbox::SandboxSettings::default(),
            },
        }
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut s = settings();
        s.boards.sizes = (5, 4);
        assert!(s.validate().is_err());
        let mut s = settings();
        s.game.time = f64::NAN;
        assert!(s.validate().is_err());
        let mut s = settings();
        s.boards.count = 0;
        assert!(s.validate().is_err());
        let mut s = settings();
        s.boards.max_value = 0;
        assert!(s.validate().is_err());
        let mut s = settings();
        s.game.guard.grace = -1.0;
        assert!(s.validate().is_err());
    }
}

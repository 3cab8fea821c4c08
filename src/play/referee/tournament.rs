//! A referee match: seeded random boards, each played twice with the
//! colours swapped, as `stakeraid match` makes them.

use serde::Serialize;

use crate::play::arena::match_board;
use crate::{Player, MAX_N};

use super::game::{play_game, GameSettings};
use super::report::RefereeReport;
use super::side::{ProgramError, Side};

/// The boards of a referee match and how each game is played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RefereeSettings {
    /// Boards to play, each twice with the colours swapped.
    pub boards: u32,
    /// Seed of the first board; board `k` (from 0) uses `seed + k`.
    pub seed: u64,
    /// Smallest and largest board side.
    pub sizes: (usize, usize),
    /// Largest cell value (values are 1 to this).
    pub max_value: i32,
    /// Chance a cell starts occupied.
    pub fill: f64,
    /// Time, wall guard and threads of each game.
    pub game: GameSettings,
}

/// What can stop a referee match: settings out of range, or the referee's
/// own I/O (never anything a program does).
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
        let (lo, hi) = self.sizes;
        let non_negative = |x: f64| x.is_finite() && x >= 0.0;
        if self.boards == 0 {
            return bad("a match needs at least one board");
        }
        if !(1 <= lo && lo <= hi && hi <= MAX_N) {
            return bad("board sides must be from 1 to 26, smallest first");
        }
        if self.max_value < 1 {
            return bad("the largest cell value must be at least 1");
        }
        if !(0.0..=1.0).contains(&self.fill) {
            return bad("the fill must be between 0 and 1");
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

/// Plays A against B over `settings.boards` boards, each twice with the
/// colours swapped (A plays X first); `trace` receives every move as text,
/// `on_game` the report after each game (for progress).
pub fn run_referee(
    a: &Side,
    b: &Side,
    settings: &RefereeSettings,
    trace: &mut dyn FnMut(&str),
    on_game: &mut dyn FnMut(&RefereeReport),
) -> Result<RefereeReport, RefereeError> {
    settings.validate()?;
    a.check()?;
    b.check()?;
    let mut report = RefereeReport::new(a.to_string(), b.to_string());
    for k in 0..settings.boards {
        let (seed, board) = match_board(
            settings.seed,
            k,
            settings.sizes,
            settings.max_value,
            settings.fill,
        );
        for a_plays in [Player::X, Player::O] {
            let sides = match a_plays {
                Player::X => [a, b],
                Player::O => [b, a],
            };
            let game = play_game(&board, sides, &settings.game, seed, trace).map_err(|source| {
                RefereeError::Io {
                    board: k + 1,
                    source,
                }
            })?;
            report.add(k + 1, seed, &board, a_plays, game);
            on_game(&report);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::arena::Agent;
    use crate::play::referee::WallGuard;

    fn settings() -> RefereeSettings {
        RefereeSettings {
            boards: 3,
            seed: 5,
            sizes: (2, 4),
            max_value: 99,
            fill: 0.2,
            game: GameSettings {
                time: 10.0,
                guard: WallGuard::default(),
                threads: 1,
            },
        }
    }

    #[test]
    fn each_board_is_played_with_both_colours() {
        let (a, b) = (Side::Agent(Agent::Greedy), Side::Agent(Agent::Random));
        let mut games = 0;
        let r = run_referee(&a, &b, &settings(), &mut |_| {}, &mut |_| games += 1).unwrap();
        assert_eq!(games, 6);
        assert_eq!(r.totals.games(), 6);
        assert_eq!(r.pairs.len(), 3);
        for (k, pair) in r.pairs.iter().enumerate() {
            assert_eq!(pair.seed, 5 + k as u64);
            assert!((2..=4).contains(&pair.size));
            let colours: Vec<_> = pair.games.iter().map(|g| g.a_plays).collect();
            assert_eq!(colours, [Player::X, Player::O]);
        }
        let json: serde_json::Value = serde_json::from_str(&r.to_json(&settings())).unwrap();
        assert_eq!(json["games"], 6);
        assert_eq!(json["pairs"][0]["games"][1]["a_plays"], "O");
        assert_eq!(json["sides"][1]["side"], "random");
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut s = settings();
        s.sizes = (5, 4);
        assert!(s.validate().is_err());
        let mut s = settings();
        s.game.time = f64::NAN;
        assert!(s.validate().is_err());
        let mut s = settings();
        s.boards = 0;
        assert!(s.validate().is_err());
        let mut s = settings();
        s.max_value = 0;
        assert!(s.validate().is_err());
        let mut s = settings();
        s.game.guard.grace = -1.0;
        assert!(s.validate().is_err());
    }
}

//! A match's totals from side A's point of view: wins, draws and losses,
//! margins, board pairs, CPU time per move and per game, and the report
//! `stakeraid match` prints (the referee's report builds on it).

use std::fmt;

use crate::game::Player;

use super::record::GameRecord;
use super::stats::{duration_text, Elo};

/// Results from agent A's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// Games won, drawn and lost by A.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost by A.
    pub losses: u32,
    /// Sum of A's final margins.
    pub margin_sum: i64,
    /// CPU seconds and moves of A and B: `[A, B]`.
    pub cpu: [f64; 2],
    /// Moves made by A and B.
    pub moves: [u64; 2],
    /// Longest move of A and B, CPU seconds.
    pub max_move: [f64; 2],
    /// Most CPU seconds A and B used in one game.
    pub max_game: [f64; 2],
    /// Boards whose two games (one with each colour) A won, drew and lost
    /// on the sum of its two margins: the first move is worth a lot, so a
    /// board decides more as a pair than as two games.
    pub pairs: [u32; 3],
}

impl MatchReport {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score rate: wins plus half the draws, over games.
    pub fn score_rate(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Elo difference A - B the score implies, with its 95% interval;
    /// `None` before any game.
    pub fn elo(&self) -> Option<Elo> {
        Elo::from_results(self.wins, self.draws, self.losses)
    }

    /// Counts game `g`, in which A played `a`, and returns A's margin.
    pub fn add(&mut self, g: &GameRecord, a: Player) -> i64 {
        let winner = g.winner();
        let margin = if a == Player::X {
            g.margin_x
        } else {
            -g.margin_x
        };
        match winner {
            Some(w) if w == a => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
        self.margin_sum += margin;
        for (k, side) in [a, a.other()].into_iter().enumerate() {
            let i = side as usize;
            self.cpu[k] += g.cpu[i];
            self.moves[k] += u64::from(g.moves[i]);
            self.max_move[k] = self.max_move[k].max(g.max_move[i]);
            self.max_game[k] = self.max_game[k].max(g.cpu[i]);
        }
        margin
    }

    /// Counts a board pair on `margin`, the sum of A's two margins on it.
    pub fn add_pair(&mut self, margin: i64) {
        self.pairs[(1 - margin.signum()) as usize] += 1;
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(elo) = self.elo() else {
            return writeln!(f, "games 0: no games played");
        };
        writeln!(
            f,
            "games {}  A wins {}  draws {}  losses {}  score {:.1}%",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score_rate()
        )?;
        writeln!(
            f,
            "mean margin for A {:.1}",
            // Rounded first, so that a small negative mean is not `-0.0`.
            (self.margin_sum as f64 / f64::from(self.games()) * 10.0).round() / 10.0 + 0.0
        )?;
        let [won, even, lost] = self.pairs;
        writeln!(
            f,
            "board pairs {}  A wins {won}  even {even}  losses {lost}",
            won + even + lost
        )?;
        writeln!(f, "Elo A-B {elo}")?;
        for (k, name) in ["A", "B"].iter().enumerate() {
            writeln!(
                f,
                "{name}: cpu per move {}  max per move {}  cpu per game {}  max per game {}",
                duration_text(self.cpu[k] / self.moves[k].max(1) as f64),
                duration_text(self.max_move[k]),
                duration_text(self.cpu[k] / f64::from(self.games())),
                duration_text(self.max_game[k]),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bookkeeping_counts_from_a_side() {
        let mut r = MatchReport::default();
        let g = GameRecord {
            margin_x: 10,
            cpu: [1.0, 2.0],
            max_move: [0.5, 0.25],
            moves: [3, 2],
            ..GameRecord::default()
        };
        assert_eq!(r.add(&g, Player::X), 10);
        assert_eq!(r.add(&g, Player::O), -10);
        r.add(
            &GameRecord {
                margin_x: 0,
                ..g.clone()
            },
            Player::X,
        );
        assert_eq!((r.wins, r.draws, r.losses, r.margin_sum), (1, 1, 1, 0));
        for margin in [30, 0, -5, 1] {
            r.add_pair(margin);
        }
        assert_eq!(r.pairs, [2, 1, 1]);
        assert!(r
            .to_string()
            .contains("board pairs 4  A wins 2  even 1  losses 1"));
        assert_eq!(r.cpu, [4.0, 5.0]);
        assert_eq!(r.moves, [8, 7]);
        assert_eq!(r.max_move, [0.5, 0.5]);
        assert_eq!(r.max_game, [2.0, 2.0]);
        assert!((r.score_rate() - 0.5).abs() < 1e-12);
        assert_eq!(r.elo().unwrap().diff, Some(0.0));
        let sweep = MatchReport {
            wins: 10,
            ..MatchReport::default()
        };
        assert_eq!(
            sweep.elo().unwrap().diff,
            None,
            "no finite Elo explains a sweep"
        );
        assert_eq!(
            MatchReport::default().to_string(),
            "games 0: no games played\n"
        );
    }
}

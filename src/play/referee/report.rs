//! The referee's report: each board pair, the totals from side A's point
//! of view (the arena's [`MatchReport`], with its Elo), CPU time per move
//! and per game, and forfeits by reason.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use crate::play::forfeit::ForfeitReason;
use crate::play::record::{player_symbol, GameRecord};
use crate::play::stats::Elo;
use crate::play::tally::MatchReport;
use crate::{Board, Player};

use super::settings::RefereeSettings;

/// A game of a board pair, from side A's point of view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairGame {
    /// The colour A played.
    #[serde(serialize_with = "player_symbol")]
    pub a_plays: Player,
    /// A's final margin (A's score minus B's).
    pub margin_a: i64,
    /// `win`, `draw` or `loss` for A.
    pub result: &'static str,
    /// The game itself.
    #[serde(flatten)]
    pub game: GameRecord,
}

/// One board, played once with each colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardPair {
    /// 1 for the first board.
    pub board: u32,
    /// The seed the board was made from.
    pub seed: u64,
    /// Its side.
    pub size: usize,
    /// The cell values, row by row.
    pub values: Vec<Vec<i32>>,
    /// The starting pieces, one string of `X`, `O` and `.` per row.
    pub start: Vec<String>,
    /// A as X, then A as O (the second is missing only while it is played).
    pub games: Vec<PairGame>,
}

impl BoardPair {
    /// A's margins over the pair.
    pub fn margin_a(&self) -> i64 {
        self.games.iter().map(|g| g.margin_a).sum()
    }
}

/// A mean and a maximum, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Maximum.
    pub max: f64,
}

/// One side's totals over the match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    /// The side as given (`greedy`, `cmd:...`).
    pub side: String,
    /// Moves made, forfeited ones included.
    pub moves: u64,
    /// CPU seconds per move.
    pub cpu_per_move: Spread,
    /// CPU seconds per game.
    pub cpu_per_game: Spread,
    /// Forfeits by reason (every reason, zeros included).
    pub forfeits: BTreeMap<&'static str, u32>,
}

/// The whole match.
#[derive(Clone, Debug, Default)]
pub struct RefereeReport {
    /// Side A as given.
    pub a: String,
    /// Side B as given.
    pub b: String,
    /// Every board pair played, in order.
    pub pairs: Vec<BoardPair>,
    /// Wins, draws, losses, margins and CPU from A's side, as the arena
    /// keeps them (index 0 is A, 1 is B).
    pub totals: MatchReport,
    /// Forfeits of A and B, indexed by [`ForfeitReason::index`].
    pub forfeits: [[u32; ForfeitReason::ALL.len()]; 2],
}

impl RefereeReport {
    /// An empty report for sides `a` and `b`.
    pub fn new(a: String, b: String) -> RefereeReport {
        RefereeReport {
            a,
            b,
            ..RefereeReport::default()
        }
    }

    /// Adds a game of board pair number `board`, made from `seed` as
    /// `start`, in which A played `a_plays`.
    pub fn add(&mut self, board: u32, seed: u64, start: &Board, a_plays: Player, game: GameRecord) {
        let winner = game.winner();
        let margin_a = self.totals.add(&game, a_plays);
        let result = match winner {
            Some(w) if w == a_plays => "win",
            Some(_) => "loss",
            None => "draw",
        };
        if let Some(f) = &game.forfeit {
            let k = usize::from(f.player != a_plays);
            self.forfeits[k][f.forfeit.reason.index()] += 1;
        }
        if self.pairs.last().is_none_or(|p| p.board != board) {
            let n = start.n();
            self.pairs.push(BoardPair {
                board,
                seed,
                size: n,
                values: (0..n)
                    .map(|r| (0..n).map(|c| start.value(r, c)).collect())
                    .collect(),
                start: start.cells_text().lines().map(str::to_owned).collect(),
                games: Vec::new(),
            });
        }
        if let Some(pair) = self.pairs.last_mut() {
            pair.games.push(PairGame {
                a_plays,
                margin_a,
                result,
                game,
            });
            if pair.games.len() == 2 {
                self.totals.add_pair(pair.margin_a());
            }
        }
    }

    /// Side `k`'s totals (0 for A, 1 for B).
    pub fn side(&self, k: usize) -> SideSummary {
        let t = &self.totals;
        let games = t.games().max(1);
        SideSummary {
            side: [&self.a, &self.b][k].clone(),
            moves: t.moves[k],
            cpu_per_move: Spread {
                mean: t.cpu[k] / t.moves[k].max(1) as f64,
                max: t.max_move[k],
            },
            cpu_per_game: Spread {
                mean: t.cpu[k] / f64::from(games),
                max: t.max_game[k],
            },
            forfeits: ForfeitReason::ALL
                .iter()
                .map(|r| (r.name(), self.forfeits[k][r.index()]))
                .collect(),
        }
    }

    /// The Elo difference A - B with its 95% interval, from the arena;
    /// `None` before any game.
    pub fn elo(&self) -> Option<Elo> {
        self.totals.elo()
    }

    /// The report as pretty-printed JSON: the settings, the totals, both
    /// sides' summaries and every board pair with its games and moves.
    pub fn to_json(&self, settings: &RefereeSettings) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            a: &'a str,
            b: &'a str,
            settings: &'a RefereeSettings,
            games: u32,
            wins: u32,
            draws: u32,
            losses: u32,
            score: f64,
            mean_margin: f64,
            elo: Option<Elo>,
            /// Board pairs A won, drew and lost on its two margins' sum.
            pairs_won: u32,
            pairs_even: u32,
            pairs_lost: u32,
            sides: [SideSummary; 2],
            pairs: &'a [BoardPair],
        }
        let t = &self.totals;
        let json = Json {
            a: &self.a,
            b: &self.b,
            settings,
            games: t.games(),
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            score: t.score_rate(),
            mean_margin: self.mean_margin(),
            elo: self.elo(),
            pairs_won: t.pairs[0],
            pairs_even: t.pairs[1],
            pairs_lost: t.pairs[2],
            sides: [self.side(0), self.side(1)],
            pairs: &self.pairs,
        };
        // Plain data with string keys: serializing it cannot fail.
        serde_json::to_string_pretty(&json).unwrap_or_default()
    }

    fn mean_margin(&self) -> f64 {
        self.totals.margin_sum as f64 / f64::from(self.totals.games().max(1)) + 0.0
    }
}

impl fmt::Display for RefereeReport {
    /// One line per board pair (and one per forfeit), then the arena's
    /// totals and forfeits by reason.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pair in &self.pairs {
            write!(
                f,
                "board {}  seed {}  {}x{} ",
                pair.board, pair.seed, pair.size, pair.size
            )?;
            for g in &pair.games {
                write!(
                    f,
                    "  A as {} {:+} {}",
                    g.a_plays.symbol(),
                    g.margin_a,
                    g.result
                )?;
                if let Some(ff) = &g.game.forfeit {
                    let who = if ff.player == g.a_plays { "A" } else { "B" };
                    write!(f, " ({who} forfeits: {})", ff.forfeit.reason)?;
                }
            }
            writeln!(f, "   pair {:+}", pair.margin_a())?;
            for g in &pair.games {
                if let Some(ff) = &g.game.forfeit {
                    let who = if ff.player == g.a_plays { "A" } else { "B" };
                    writeln!(
                        f,
                        "  {who} as {} forfeits: {}",
                        ff.player.symbol(),
                        ff.forfeit
                    )?;
                }
            }
        }
        writeln!(f, "A = {}  B = {}", self.a, self.b)?;
        write!(f, "{}", self.totals)?;
        for (k, name) in ["A", "B"].iter().enumerate() {
            let counts: Vec<String> = ForfeitReason::ALL
                .iter()
                .filter(|r| self.forfeits[k][r.index()] > 0)
                .map(|r| format!("{r} {}", self.forfeits[k][r.index()]))
                .collect();
            let counts = if counts.is_empty() {
                "none".to_owned()
            } else {
                counts.join(", ")
            };
            writeln!(f, "{name} forfeits: {counts}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::forfeit::Forfeit;
    use crate::play::record::GameForfeit;

    fn game(margin_x: i64, forfeit: Option<(Player, ForfeitReason)>) -> GameRecord {
        GameRecord {
            margin_x,
            forfeit: forfeit.map(|(player, reason)| GameForfeit {
                player,
                forfeit: Forfeit::new(reason, "test"),
            }),
            cpu: [1.0, 2.0],
            max_move: [0.5, 0.25],
            moves: [3, 2],
            record: Vec::new(),
        }
    }

    #[test]
    fn games_count_from_a_side_and_forfeits_by_side() {
        let mut r = RefereeReport::new("a".into(), "b".into());
        let (b3, b4) = (Board::new(3, &[1; 9]), Board::new(4, &[2; 16]));
        r.add(1, 7, &b3, Player::X, game(10, None));
        r.add(
            1,
            7,
            &b3,
            Player::O,
            game(-20, Some((Player::X, ForfeitReason::Hang))),
        );
        r.add(2, 8, &b4, Player::X, game(0, None));
        r.add(
            2,
            8,
            &b4,
            Player::O,
            game(5, Some((Player::O, ForfeitReason::Crash))),
        );
        let t = &r.totals;
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.margin_sum, 10 + 20 - 5);
        // Board 1: +10 and +20; board 2: 0 and -5 (A's forfeit).
        assert_eq!(t.pairs, [1, 0, 1]);
        assert_eq!(r.pairs.len(), 2);
        assert_eq!((r.pairs[1].size, r.pairs[1].start[3].as_str()), (4, "...."));
        assert_eq!(r.pairs[1].values[3], [2; 4]);
        assert_eq!(r.pairs[0].margin_a(), 30);
        assert_eq!(r.pairs[1].games[1].result, "loss");
        // B forfeited the hang (it played X in the second game), A the crash.
        assert_eq!(r.forfeits[1][ForfeitReason::Hang.index()], 1);
        assert_eq!(r.forfeits[0][ForfeitReason::Crash.index()], 1);
        let a = r.side(0);
        assert_eq!(a.moves, 3 + 2 + 3 + 2);
        assert_eq!(
            a.cpu_per_game,
            Spread {
                mean: 1.5,
                max: 2.0
            }
        );
        assert_eq!(a.cpu_per_move.max, 0.5);
        assert_eq!(a.forfeits["crash"], 1);
        let text = r.to_string();
        assert!(text.contains("A as O +20 win (B forfeits: hang)"), "{text}");
        assert!(text.contains("A forfeits: crash 1"), "{text}");
        assert!(
            text.contains("board pairs 2  A wins 1  even 0  losses 1"),
            "{text}"
        );
        assert!(text.contains("B forfeits: hang 1"), "{text}");
    }
}

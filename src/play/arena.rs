//! Matches: seeded random boards, each played twice with the colours
//! swapped (the one per-board loop `stakeraid match` and the referee
//! share), and a match between built-in agents with its trace.

use std::convert::Infallible;

use serde::Serialize;

use crate::game::random::{random_board, Rng};
use crate::game::{Board, Player, MAX_N};

pub use super::agent::{greedy, Agent, AgentError, Seat};
pub use super::game::own_sum;
pub use super::record::{winner_by_margin, GameRecord};
use super::table::play_out;
pub use super::tally::MatchReport;

/// The boards of a match: how many, from which seed, of which sizes and
/// values, how full.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardSet {
    /// Boards to play, each twice with the colours swapped.
    #[serde(rename = "boards")]
    pub count: u32,
    /// Seed of the first board; board `k` (from 0) uses `seed + k`.
    pub seed: u64,
    /// Smallest and largest board side.
    pub sizes: (usize, usize),
    /// Largest cell value (values are 1 to this).
    pub max_value: i32,
    /// Chance a cell starts occupied.
    pub fill: f64,
}

impl BoardSet {
    /// Why these boards cannot be made, if they cannot.
    pub fn problem(&self) -> Option<&'static str> {
        let (lo, hi) = self.sizes;
        if self.count == 0 {
            Some("a match needs at least one board")
        } else if !(1 <= lo && lo <= hi && hi <= MAX_N) {
            Some("board sides must be from 1 to 26, smallest first")
        } else if self.max_value < 1 {
            Some("the largest cell value must be at least 1")
        } else if !(0.0..=1.0).contains(&self.fill) {
            Some("the fill must be between 0 and 1")
        } else {
            None
        }
    }

    /// Board `k` (from 0) with its own seed, `seed + k`: the side drawn
    /// from `sizes` (inclusive), values up to `max_value`, each cell
    /// occupied with chance `fill`.
    pub fn board(&self, k: u32) -> (u64, Board) {
        let seed = self.seed.wrapping_add(u64::from(k));
        let mut rng = Rng::new(seed);
        let n = rng.range(self.sizes.0 as u64, self.sizes.1 as u64) as usize;
        (seed, random_board(&mut rng, n, self.max_value, self.fill))
    }
}

/// One game of a match, as the per-board loop hands it out.
#[derive(Clone, Copy, Debug)]
pub struct MatchGame<'a> {
    /// The board's number, 1 for the first.
    pub board: u32,
    /// The seed it was made from.
    pub seed: u64,
    /// The board.
    pub start: &'a Board,
    /// The colour side A plays: X in a board's first game, O in its second.
    pub a_plays: Player,
}

impl MatchGame<'_> {
    /// The sides in colour order, X first.
    pub fn seats<T>(&self, a: T, b: T) -> [T; 2] {
        match self.a_plays {
            Player::X => [a, b],
            Player::O => [b, a],
        }
    }
}

/// The per-board match loop: every board of `boards` is made and played
/// by `game` twice, A as X and then A as O; the first error ends it.
pub fn each_game<E>(
    boards: &BoardSet,
    mut game: impl FnMut(MatchGame<'_>) -> Result<(), E>,
) -> Result<(), E> {
    for k in 0..boards.count {
        let (seed, start) = boards.board(k);
        for a_plays in [Player::X, Player::O] {
            game(MatchGame {
                board: k + 1,
                seed,
                start: &start,
                a_plays,
            })?;
        }
    }
    Ok(())
}

/// The boards of a match between agents, and their threads.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The boards.
    pub boards: BoardSet,
    /// Threads per engine move.
    pub threads: usize,
}

/// Plays `start` to the end, X moving first, with no limit on time (the
/// competition agents keep to their own); `trace` receives each move and
/// board as text.
pub fn play_game(
    start: &Board,
    x: &Agent,
    o: &Agent,
    threads: usize,
    seed: u64,
    trace: &mut dyn FnMut(&str),
) -> GameRecord {
    let (mut sx, mut so) = (Seat::new(x, seed, threads), Seat::new(o, seed, threads));
    trace(&format!("start  X: {x}  O: {o}\n{}", start.cells_text()));
    let mut held = [own_sum(start, Player::X), own_sum(start, Player::O)];
    let record = play_out(start, [&mut sx, &mut so], None, &mut |table, played| {
        if let Ok(mv) = played.result {
            let game = table.game();
            held = [game.held(Player::X), game.held(Player::O)];
            trace(&format!(
                "{}: {mv}  score X {} O {}\n{}",
                played.player.symbol(),
                held[0],
                held[1],
                game.board().cells_text()
            ));
        }
    })
    // Agents in this process run nothing that can fail.
    .unwrap_or_default();
    let winner = match record.winner() {
        Some(Player::X) => "X wins",
        Some(Player::O) => "O wins",
        None => "draw",
    };
    trace(&format!(
        "final  X {} ({x})  O {} ({o})  {winner}\n",
        held[0], held[1]
    ));
    record
}

/// Plays A against B over `settings.boards`, each board twice with the
/// colours swapped; `on_game` is called after every game (for progress)
/// with the number of games played and the report so far.
pub fn run_match(
    a: &Agent,
    b: &Agent,
    settings: &MatchSettings,
    trace: &mut dyn FnMut(&str),
    on_game: &mut dyn FnMut(u32, &MatchReport),
) -> MatchReport {
    let mut report = MatchReport::default();
    let mut pair = 0;
    let _ = each_game(&settings.boards, |g| {
        let [x, o] = g.seats(a, b);
        let record = play_game(g.start, x, o, settings.threads, g.seed, trace);
        pair += report.add(&record, g.a_plays);
        if g.a_plays == Player::O {
            report.add_pair(std::mem::take(&mut pair));
        }
        on_game(report.games(), &report);
        Ok::<(), Infallible>(())
    });
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_moves;

    #[test]
    fn games_fill_the_board_and_trace_every_move() {
        let board = random_board(&mut Rng::new(4), 3, 9, 0.2);
        let empties = board.empty_count();
        let mut lines = Vec::new();
        let g = play_game(&board, &Agent::Greedy, &Agent::Random, 1, 7, &mut |s| {
            lines.push(s.to_owned())
        });
        assert_eq!(g.moves[0] + g.moves[1], empties);
        assert_eq!(lines.len() as u32, empties + 2);
        assert!(lines[1].starts_with("X: "));
        assert!(lines.last().unwrap().starts_with("final"));
        // Replaying the trace's moves gives the recorded margin.
        let mut replay = board.clone();
        let mut p = Player::X;
        for line in &lines[1..lines.len() - 1] {
            let mv = legal_moves(&replay, p)
                .into_iter()
                .find(|m| line[3..].starts_with(&m.to_string()))
                .unwrap();
            replay.make(mv, p);
            p = p.other();
        }
        assert_eq!(replay.score(Player::X), g.margin_x);
    }

    #[test]
    fn greedy_beats_random() {
        let settings = MatchSettings {
            boards: BoardSet {
                count: 10,
                seed: 1,
                sizes: (3, 6),
                max_value: 99,
                fill: 0.1,
            },
            threads: 1,
        };
        // Each board's two margins, from the running totals.
        let (mut sums, mut last) = (Vec::new(), 0);
        let r = run_match(
            &Agent::Greedy,
            &Agent::Random,
            &settings,
            &mut |_| {},
            &mut |games, r| {
                if games % 2 == 1 {
                    sums.push(0);
                }
                *sums.last_mut().unwrap() += r.margin_sum - last;
                last = r.margin_sum;
            },
        );
        assert_eq!(r.games(), 20);
        assert!(r.wins > 15, "{r}");
        let count = |sign: i64| sums.iter().filter(|m| m.signum() == sign).count() as u32;
        assert_eq!(r.pairs, [count(1), count(0), count(-1)]);
    }
}

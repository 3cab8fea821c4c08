//! Workloads: named positions with a search to run on them, read from a
//! small text format, and the fixed set whose node count is the bench
//! signature (a change that alters it changes what the search does).
//!
//! One workload per line, `#` starts a comment:
//!
//! ```text
//! # name     size fill  max  seed player mode      depth threads
//! mid8-ab8   8    0.5   99   3    X      alphabeta 8     1,2
//! ```

use std::time::{Duration, Instant};

use crate::api::{solve, Limits};
use crate::game::random::{random_board, Rng};
use crate::game::{Board, Player};
use crate::text::{Problem, Question, SearchMode};

/// One named search on one generated position.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Short name for tables.
    pub name: String,
    /// Board side.
    pub size: usize,
    /// Chance a cell starts occupied.
    pub fill: f64,
    /// Largest cell value.
    pub max_value: i32,
    /// Seed of the position.
    pub seed: u64,
    /// Player to move.
    pub player: Player,
    /// The search.
    pub search: SearchMode,
    /// Depth in plies.
    pub depth: u32,
    /// Thread counts to run it at.
    pub threads: Vec<usize>,
}

impl Workload {
    /// The position, as `stakeraid position` makes it from the same numbers.
    pub fn board(&self) -> Board {
        random_board(
            &mut Rng::new(self.seed),
            self.size,
            self.max_value,
            self.fill,
        )
    }

    /// Runs the search on `threads` workers, as [`solve`] runs it for an
    /// `input.txt` asking it.
    ///
    /// # Panics
    /// If the generated board is full (as a fill of 1 makes it).
    pub fn run(&self, threads: usize) -> Run {
        let problem = Problem {
            board: self.board(),
            player: self.player,
            question: Question::Exact {
                mode: self.search,
                depth: self.depth,
            },
        };
        let limits = Limits {
            threads,
            ..Limits::default()
        };
        let start = Instant::now();
        let r = solve(&problem, &limits).expect("a workload's position has a move");
        Run {
            nodes: r.nodes,
            elapsed: start.elapsed(),
            best: r.best.to_string(),
            value: r.value,
        }
    }
}

/// The outcome of running a workload once.
#[derive(Clone, Debug)]
pub struct Run {
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The chosen move, e.g. `"C3 Raid"`.
    pub best: String,
    /// Its value.
    pub value: i64,
}

/// Parses the workload format (see the module docs); errors name the line.
pub fn parse_workloads(text: &str) -> Result<Vec<Workload>, WorkloadError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |field: &'static str| WorkloadError::Field {
            line: i + 1,
            field,
            text: line.to_owned(),
        };
        if f.len() != 9 {
            return Err(WorkloadError::FieldCount {
                line: i + 1,
                found: f.len(),
            });
        }
        out.push(Workload {
            name: f[0].to_owned(),
            size: f[1]
                .parse()
                .ok()
                .filter(|n| (1..=26).contains(n))
                .ok_or_else(|| bad("size"))?,
            fill: f[2]
                .parse()
                .ok()
                .filter(|x| (0.0..=1.0).contains(x))
                .ok_or_else(|| bad("fill"))?,
            max_value: f[3]
                .parse()
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| bad("max value"))?,
            seed: f[4].parse().map_err(|_| bad("seed"))?,
            player: f[5].parse::<Player>().map_err(|_| bad("player"))?,
            search: f[6].parse::<SearchMode>().map_err(|_| bad("mode"))?,
            depth: f[7]
                .parse()
                .ok()
                .filter(|&d| d >= 1)
                .ok_or_else(|| bad("depth"))?,
            threads: f[8]
                .split(',')
                .map(|t| t.parse().ok().filter(|&t| t >= 1))
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| bad("threads"))?,
        });
    }
    Ok(out)
}

/// Why a workload file is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkloadError {
    /// A line without its nine fields.
    #[error("line {line}: expected 9 fields, found {found}")]
    FieldCount {
        /// The line, from 1.
        line: usize,
        /// The fields it has.
        found: usize,
    },
    /// A field out of its range or not a number.
    #[error("line {line}: bad {field} in {text:?}")]
    Field {
        /// The line, from 1.
        line: usize,
        /// Which field: `size`, `fill`, `max value`, `seed`, `player`,
        /// `mode`, `depth` or `threads`.
        field: &'static str,
        /// The line's text.
        text: String,
    },
}

/// The fixed signature set: small, varied, and searched single-threaded.
pub const SIGNATURE_SET: &str = "\
sig-mm5     5  0.2  99   1  X minimax   5 1
sig-mm8     8  0.5  99   2  O minimax   4 1
sig-ab5     5  0.2  99   3  X alphabeta 7 1
sig-ab8     8  0.5  99   4  O alphabeta 7 1
sig-ab8tie  8  0.4  2    5  X alphabeta 6 1
sig-ab12    12 0.6  99   6  X alphabeta 5 1
sig-ab26    26 0.0  99   7  O alphabeta 3 1
sig-end6    6  0.75 99   8  X alphabeta 12 1
";

/// Runs the signature set on one thread: the total node count, the wall
/// time, and each workload's run.
pub fn signature() -> (u64, Duration, Vec<(Workload, Run)>) {
    let set = parse_workloads(SIGNATURE_SET).expect("the built-in set parses");
    let runs: Vec<(Workload, Run)> = set
        .into_iter()
        .map(|w| {
            let r = w.run(1);
            (w, r)
        })
        .collect();
    let nodes = runs.iter().map(|(_, r)| r.nodes).sum();
    let time = runs.iter().map(|(_, r)| r.elapsed).sum();
    (nodes, time, runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workload_format() {
        let w = parse_workloads("# c\n\nx 8 0.5 99 3 O alphabeta 8 1,2 # trailing\n").unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(
            (w[0].size, w[0].player, w[0].search, w[0].depth),
            (8, Player::O, SearchMode::AlphaBeta, 8)
        );
        assert_eq!(w[0].threads, vec![1, 2]);
        let field = |text: &str| match parse_workloads(text) {
            Err(WorkloadError::Field { field, line: 1, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field("x 27 0.5 99 3 O alphabeta 8 1"), "size");
        assert_eq!(field("x 8 0.5 99 3 O alphabeta 8 0"), "threads");
        assert_eq!(
            parse_workloads("\nx 8 0.5"),
            Err(WorkloadError::FieldCount { line: 2, found: 3 })
        );
    }
}

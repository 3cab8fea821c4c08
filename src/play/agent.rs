//! The built-in agents: how each is named on the command line, and the
//! seat that plays one in this process.

use std::fmt;
use std::io;
use std::str::FromStr;

use cpu_time::ProcessTime;

use crate::engine::competition::{self, CompetitionOptions};
use crate::engine::pool::in_pool;
use crate::game::random::Rng;
use crate::game::{legal_moves, Board, Move, Player};
use crate::search::{reference, root, Eval};

use super::mover::{Mover, Turn};

/// A way of choosing moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// The move with the best immediate score (first in canonical order on ties).
    Greedy,
    /// The textbook alpha-beta search itself, to a fixed depth.
    Textbook(u32),
    /// Alpha-beta to a fixed depth with the fast engine (the textbook's
    /// moves, in far less time).
    AlphaBeta(u32),
    /// The competition engine with this many CPU seconds for the whole game.
    Competition {
        /// CPU seconds for all of this side's moves in a game.
        seconds: f64,
        /// Cut-off evaluation.
        eval: Eval,
    },
}

/// The competition engine's agent names and the evaluation each plays with.
const COMPETITION: [(&str, Eval); 3] = [
    ("comp", Eval::Quiet),
    ("comp-playout", Eval::Playout),
    ("comp-bare", Eval::Score),
];

/// An agent name that is not one of [`Agent`]'s.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("bad agent {0:?}: expected random, greedy, textbook:DEPTH, ab:DEPTH, comp:SECONDS, comp-playout:SECONDS or comp-bare:SECONDS")]
pub struct AgentError(pub String);

impl FromStr for Agent {
    type Err = AgentError;

    /// `random`, `greedy`, `textbook:DEPTH`, `ab:DEPTH`, `comp:SECONDS`, `comp-playout:SECONDS` or `comp-bare:SECONDS`
    /// (the competition engine valuing cut-offs by the bare score).
    fn from_str(s: &str) -> Result<Agent, AgentError> {
        let (name, arg) = s.split_once(':').unwrap_or((s, ""));
        let bad = || AgentError(s.to_owned());
        let depth = || arg.parse::<u32>().ok().filter(|&d| d >= 1).ok_or_else(bad);
        let seconds = || {
            arg.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(bad)
        };
        match name {
            "random" if arg.is_empty() => Ok(Agent::Random),
            "greedy" if arg.is_empty() => Ok(Agent::Greedy),
            "ab" => depth().map(Agent::AlphaBeta),
            "textbook" => depth().map(Agent::Textbook),
            _ => match COMPETITION.iter().find(|(n, _)| *n == name) {
                Some(&(_, eval)) => Ok(Agent::Competition {
                    seconds: seconds()?,
                    eval,
                }),
                None => Err(bad()),
            },
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Random => write!(f, "random"),
            Agent::Greedy => write!(f, "greedy"),
            Agent::Textbook(d) => write!(f, "textbook:{d}"),
            Agent::AlphaBeta(d) => write!(f, "ab:{d}"),
            Agent::Competition { seconds, eval } => {
                let (name, _) = COMPETITION
                    .iter()
                    .find(|(_, e)| e == eval)
                    .expect("every evaluation has a name");
                write!(f, "{name}:{seconds}")
            }
        }
    }
}

/// An agent at the table: it chooses moves in this process, and is
/// charged the process's CPU time (every thread's) for each.
pub struct Seat<'a> {
    agent: &'a Agent,
    rng: Rng,
    /// Threads per engine move (0: one per core).
    threads: usize,
    /// CPU seconds charged so far.
    cpu: f64,
}

impl<'a> Seat<'a> {
    /// A seat for `agent` searching on `threads` threads (0: one per
    /// core); `seed` drives the random agent.
    pub fn new(agent: &'a Agent, seed: u64, threads: usize) -> Seat<'a> {
        Seat {
            agent,
            rng: Rng::new(seed),
            threads,
            cpu: 0.0,
        }
    }

    fn pick(&mut self, board: &Board, p: Player) -> Move {
        let threads = self.threads;
        match self.agent {
            Agent::Random => {
                let moves = legal_moves(board, p);
                moves[self.rng.range(0, moves.len() as u64 - 1) as usize]
            }
            Agent::Greedy => greedy(board, p),
            Agent::Textbook(d) => reference::alphabeta(board, p, *d).best,
            Agent::AlphaBeta(d) => in_pool(threads, |par| root::alphabeta(board, p, *d, par).best),
            Agent::Competition { seconds, eval } => {
                let options = CompetitionOptions {
                    threads,
                    eval: *eval,
                    overhead: competition::IN_PROCESS_OVERHEAD,
                    ..CompetitionOptions::default()
                };
                // The agent's own budget, apart from any the game sets.
                competition::play(board, p, (seconds - self.cpu).max(0.0), &options).best
            }
        }
    }
}

impl Mover for Seat<'_> {
    fn choose(&mut self, board: &Board, p: Player, _left: f64) -> io::Result<Turn> {
        let start = ProcessTime::now();
        let mv = self.pick(board, p);
        let cpu = start.elapsed().as_secs_f64();
        self.cpu += cpu;
        Ok(Turn::played(mv, cpu))
    }
}

/// The first move in canonical order with the best immediate score.
pub fn greedy(board: &Board, p: Player) -> Move {
    competition::greedy(board, p).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_parse_and_print() {
        for s in [
            "random",
            "greedy",
            "textbook:3",
            "ab:4",
            "comp:2.5",
            "comp-playout:0.5",
            "comp-bare:10",
        ] {
            assert_eq!(s.parse::<Agent>().unwrap().to_string(), s);
        }
        for s in ["ab:0", "ab", "comp:-1", "comp:x", "greedy:3", "minimax"] {
            assert!(s.parse::<Agent>().is_err(), "{s}");
        }
    }
}

//! The older assignment's driver: PlayerM (minimax) and PlayerA (alpha-beta,
//! a different depth) play each other on 5x5 boards, with a per-move trace,
//! each game's scores, the wins / draws / losses, and what pruning saved.

use std::fmt;
use std::io;

use cpu_time::ProcessTime;

use crate::engine::pool::in_pool;
use crate::game::{Board, Move, Player};
use crate::play::game::own_sum;
use crate::play::mover::{Mover, Turn};
use crate::play::table::play_out;
use crate::search::{reference, root};
use crate::text::dropblitz::{board_text, move_text};

/// The two agents of the assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverAgent {
    /// Plain minimax.
    PlayerM,
    /// Minimax with alpha-beta pruning.
    PlayerA,
}

impl DriverAgent {
    /// The other agent.
    pub const fn other(self) -> DriverAgent {
        match self {
            DriverAgent::PlayerM => DriverAgent::PlayerA,
            DriverAgent::PlayerA => DriverAgent::PlayerM,
        }
    }
}

impl fmt::Display for DriverAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DriverAgent::PlayerM => "PlayerM",
            DriverAgent::PlayerA => "PlayerA",
        })
    }
}

/// The agents' cut-off depths (the assignment asks for different ones).
#[derive(Clone, Copy, Debug)]
pub struct DriverSettings {
    /// PlayerM's depth.
    pub minimax_depth: u32,
    /// PlayerA's depth.
    pub alphabeta_depth: u32,
    /// Threads for the minimax searches (0: one per core).
    pub threads: usize,
}

impl Default for DriverSettings {
    fn default() -> Self {
        DriverSettings {
            minimax_depth: 2,
            alphabeta_depth: 4,
            threads: 0,
        }
    }
}

/// How one game went, as the older assignment reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriverGame {
    /// The board's name.
    pub name: String,
    /// Who moved first (owner 1 in the board file).
    pub first: DriverAgent,
    /// PlayerM's final score: the sum of its cells' values.
    pub score_m: i64,
    /// PlayerA's final score.
    pub score_a: i64,
    /// Positions PlayerA's textbook alpha-beta searches visited.
    pub a_nodes: u64,
    /// Positions textbook minimax would visit for the same decisions.
    pub a_minimax_nodes: u64,
    /// Positions PlayerM's minimax searches visited.
    pub m_nodes: u64,
}

impl DriverGame {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<DriverAgent> {
        match self.score_a.cmp(&self.score_m) {
            std::cmp::Ordering::Greater => Some(DriverAgent::PlayerA),
            std::cmp::Ordering::Less => Some(DriverAgent::PlayerM),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// One of the agents at the table: it searches, and counts what it
/// searched.
struct DriverMover<'a> {
    agent: DriverAgent,
    settings: &'a DriverSettings,
    /// Positions its searches visited.
    nodes: u64,
    /// Positions textbook minimax would visit for the same decisions.
    minimax_nodes: u64,
}

impl DriverMover<'_> {
    /// One decision: the move, the nodes searched, and the nodes minimax
    /// to the same depth would search.
    fn decide(&self, board: &Board, p: Player) -> (Move, u64, u64) {
        let settings = self.settings;
        // Past the last empty cell every depth searches the same tree.
        let cap = |d: u32| d.clamp(1, board.empty_count());
        match self.agent {
            DriverAgent::PlayerM => {
                // The fast full-width search: the textbook move and node count.
                let r = in_pool(settings.threads, |par| {
                    root::minimax(board, p, cap(settings.minimax_depth), par)
                });
                (r.best, r.nodes, r.nodes)
            }
            DriverAgent::PlayerA => {
                let depth = cap(settings.alphabeta_depth);
                let d = reference::alphabeta(board, p, depth);
                let full = in_pool(settings.threads, |par| root::minimax(board, p, depth, par));
                (d.best, d.nodes, full.nodes)
            }
        }
    }
}

impl Mover for DriverMover<'_> {
    fn choose(&mut self, board: &Board, p: Player, _left: f64) -> io::Result<Turn> {
        let start = ProcessTime::now();
        let (mv, nodes, minimax_nodes) = self.decide(board, p);
        self.nodes += nodes;
        self.minimax_nodes += minimax_nodes;
        let note = match self.agent {
            DriverAgent::PlayerM => format!("minimax {nodes} nodes"),
            DriverAgent::PlayerA => {
                format!("alpha-beta {nodes} nodes, minimax would search {minimax_nodes}")
            }
        };
        Ok(Turn {
            note,
            ..Turn::played(mv, start.elapsed().as_secs_f64())
        })
    }
}

/// Plays `start` to the end, `first` moving first as owner 1; `trace`
/// receives the start, one line per move and the result.
pub fn play_game(
    name: &str,
    start: &Board,
    first: DriverAgent,
    settings: &DriverSettings,
    trace: &mut dyn FnMut(&str),
) -> DriverGame {
    // The first mover plays X, as the board file's owner 1 is X.
    let player_of = |agent: DriverAgent| if agent == first { Player::X } else { Player::O };
    let (pa, pm) = (
        player_of(DriverAgent::PlayerA),
        player_of(DriverAgent::PlayerM),
    );
    let depth = |agent| match agent {
        DriverAgent::PlayerM => settings.minimax_depth,
        DriverAgent::PlayerA => settings.alphabeta_depth,
    };
    trace(&format!(
        "game {name}: {first} (depth {}) moves first, {} (depth {}) second\n",
        depth(first),
        first.other(),
        depth(first.other())
    ));
    let seat = |agent| DriverMover {
        agent,
        settings,
        nodes: 0,
        minimax_nodes: 0,
    };
    let (mut x, mut o) = (seat(first), seat(first.other()));
    // Scores and board at the end: the start's, until a move is played.
    let mut end = (
        own_sum(start, pa),
        own_sum(start, pm),
        board_text(start, pa),
    );
    // Agents in this process run nothing that can fail, and have no budget.
    let _ = play_out(start, [&mut x, &mut o], None, &mut |table, played| {
        let game = table.game();
        let agent = if played.player == Player::X {
            first
        } else {
            first.other()
        };
        if let Ok(mv) = played.result {
            trace(&format!(
                "{:>4}  {agent}  {:<10} PlayerA {:>4} : PlayerM {:>4}   {}\n",
                game.moves().len(),
                move_text(mv),
                game.held(pa),
                game.held(pm),
                played.note
            ));
        }
        end = (game.held(pa), game.held(pm), board_text(game.board(), pa));
    });
    let (a, m) = if first == DriverAgent::PlayerA {
        (&x, &o)
    } else {
        (&o, &x)
    };
    let result = DriverGame {
        name: name.into(),
        first,
        score_a: end.0,
        score_m: end.1,
        a_nodes: a.nodes,
        a_minimax_nodes: a.minimax_nodes,
        m_nodes: m.nodes,
    };
    let verdict = match result.winner() {
        Some(w) => format!("{w} wins by {}", (result.score_a - result.score_m).abs()),
        None => "a draw".into(),
    };
    trace(&format!(
        "final  PlayerA {} : PlayerM {}  {verdict}\nfinal board (1 = PlayerA, 2 = PlayerM):\n{}\n",
        result.score_a, result.score_m, end.2
    ));
    result
}

/// Every game of a driver run, with the depths.
#[derive(Clone, Debug)]
pub struct DriverReport {
    /// The agents' depths.
    pub settings: DriverSettings,
    /// The games in the order played.
    pub games: Vec<DriverGame>,
}

impl DriverReport {
    /// `(wins, draws, losses)` of `agent`.
    pub fn record(&self, agent: DriverAgent) -> (usize, usize, usize) {
        let count = |w: Option<DriverAgent>| self.games.iter().filter(|g| g.winner() == w).count();
        (count(Some(agent)), count(None), count(Some(agent.other())))
    }
}

/// Plays every board once with each agent in `firsts` moving first.
pub fn run_driver(
    boards: &[(String, Board)],
    firsts: &[DriverAgent],
    settings: &DriverSettings,
    trace: &mut dyn FnMut(&str),
) -> DriverReport {
    let mut games = Vec::new();
    for (name, board) in boards {
        for &first in firsts {
            games.push(play_game(name, board, first, settings, trace));
        }
    }
    DriverReport {
        settings: *settings,
        games,
    }
}

impl fmt::Display for DriverReport {
    /// One line per game, each agent's record, and the pruning savings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for g in &self.games {
            let verdict = match g.winner() {
                Some(w) => format!("{w} wins"),
                None => "draw".into(),
            };
            writeln!(
                f,
                "{:<16} first {}  PlayerA {:>4} : PlayerM {:>4}  {verdict}",
                g.name, g.first, g.score_a, g.score_m
            )?;
        }
        for (agent, kind, depth) in [
            (
                DriverAgent::PlayerA,
                "alpha-beta",
                self.settings.alphabeta_depth,
            ),
            (DriverAgent::PlayerM, "minimax", self.settings.minimax_depth),
        ] {
            let (w, d, l) = self.record(agent);
            writeln!(
                f,
                "{agent} ({kind}, depth {depth}): {w} wins, {d} draws, {l} losses"
            )?;
        }
        let a: u64 = self.games.iter().map(|g| g.a_nodes).sum();
        let full: u64 = self.games.iter().map(|g| g.a_minimax_nodes).sum();
        let saved = if full == 0 {
            0.0
        } else {
            100.0 * (1.0 - a as f64 / full as f64)
        };
        writeln!(
            f,
            "pruning: PlayerA searched {a} positions where minimax to depth {} would search {full} ({saved:.1}% saved)",
            self.settings.alphabeta_depth
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};

    #[test]
    fn a_game_fills_the_board_and_scores_add_up() {
        let board = random_board(&mut Rng::new(3), 5, 99, 0.3);
        let settings = DriverSettings {
            minimax_depth: 1,
            alphabeta_depth: 2,
            threads: 1,
        };
        let mut lines = String::new();
        let g = play_game("b", &board, DriverAgent::PlayerA, &settings, &mut |s| {
            lines.push_str(s)
        });
        assert_eq!(
            g.score_a + g.score_m,
            board.total(),
            "every cell ends owned"
        );
        let plies = lines.lines().filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        });
        assert_eq!(plies.count(), board.empty_count() as usize, "{lines}");
        assert!(g.a_nodes <= g.a_minimax_nodes && g.m_nodes > 0);
    }
}

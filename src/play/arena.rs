//! Games between engines: the agents, one game with its trace, and a match
//! over many seeded boards, each played twice with colours swapped.

use std::fmt;
use std::str::FromStr;

use cpu_time::ProcessTime;

use crate::engine::competition::{self, CompetitionOptions};
use crate::engine::pool::in_pool;
use crate::game::random::{random_board, Rng};
use crate::game::{legal_moves, Move};
use crate::game::{Board, Player};
pub use crate::play::game::own_sum;
use crate::play::game::Game;
use crate::play::stats::{duration_text, Elo};
use crate::search::{reference, root, Eval};

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

/// One side of a game in progress: the agent and what it has used.
pub struct Seat<'a> {
    agent: &'a Agent,
    rng: Rng,
    /// CPU seconds charged so far.
    cpu: f64,
    moves: u32,
    max_move: f64,
}

impl<'a> Seat<'a> {
    /// A seat for `agent`; `seed` drives the random agent.
    pub fn new(agent: &'a Agent, seed: u64) -> Seat<'a> {
        Seat {
            agent,
            rng: Rng::new(seed),
            cpu: 0.0,
            moves: 0,
            max_move: 0.0,
        }
    }

    /// CPU seconds this seat has used.
    pub fn cpu(&self) -> f64 {
        self.cpu
    }

    /// Chooses a move and charges its CPU time (all threads) to this side.
    pub fn choose(&mut self, board: &Board, p: Player, threads: usize) -> Move {
        let start = ProcessTime::now();
        let mv = match self.agent {
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
                };
                competition::play(board, p, (seconds - self.cpu).max(0.0), &options).best
            }
        };
        let used = start.elapsed().as_secs_f64();
        self.cpu += used;
        self.moves += 1;
        self.max_move = self.max_move.max(used);
        mv
    }
}

/// The first move in canonical order with the best immediate score.
pub fn greedy(board: &Board, p: Player) -> Move {
    competition::greedy(board, p).0
}

/// How a game went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// X's score minus O's at the end.
    pub margin_x: i64,
    /// CPU seconds each side used: `[X, O]`.
    pub cpu: [f64; 2],
    /// Longest single move of each side, CPU seconds.
    pub max_move: [f64; 2],
    /// Moves each side made.
    pub moves: [u32; 2],
}

/// The side ahead on X's margin `margin_x`, `None` on a draw.
pub fn winner_by_margin(margin_x: i64) -> Option<Player> {
    match margin_x.signum() {
        1 => Some(Player::X),
        -1 => Some(Player::O),
        _ => None,
    }
}

/// Plays `start` to the end, X moving first; `trace` receives each move
/// and board as text.
pub fn play_game(
    start: &Board,
    x: &Agent,
    o: &Agent,
    threads: usize,
    seed: u64,
    trace: &mut dyn FnMut(&str),
) -> GameRecord {
    let mut sides = [x, o].map(|agent| Seat::new(agent, seed));
    let mut game = Game::new(start, Player::X);
    trace(&format!("start  X: {x}  O: {o}\n{}", start.cells_text()));
    while !game.is_over() {
        let p = game.to_move();
        let mv = sides[p as usize].choose(game.board(), p, threads);
        game.play(mv);
        trace(&format!(
            "{}: {mv}  score X {} O {}\n{}",
            p.symbol(),
            game.held(Player::X),
            game.held(Player::O),
            game.board().cells_text()
        ));
    }
    let winner = match game.winner() {
        Some(Player::X) => "X wins",
        Some(Player::O) => "O wins",
        None => "draw",
    };
    trace(&format!(
        "final  X {} ({x})  O {} ({o})  {winner}\n",
        game.held(Player::X),
        game.held(Player::O)
    ));
    GameRecord {
        margin_x: game.margin(Player::X),
        cpu: [sides[0].cpu, sides[1].cpu],
        max_move: [sides[0].max_move, sides[1].max_move],
        moves: [sides[0].moves, sides[1].moves],
    }
}

/// Board `k` of a match whose first board has seed `first_seed`, with its
/// own seed: the side drawn from `sizes` (inclusive), values up to
/// `max_value`, each cell occupied with chance `fill`.
pub fn match_board(
    first_seed: u64,
    k: u32,
    sizes: (usize, usize),
    max_value: i32,
    fill: f64,
) -> (u64, Board) {
    let seed = first_seed.wrapping_add(u64::from(k));
    let mut rng = Rng::new(seed);
    let n = rng.range(sizes.0 as u64, sizes.1 as u64) as usize;
    (seed, random_board(&mut rng, n, max_value, fill))
}

/// The boards of a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Boards to play (each twice, colours swapped).
    pub boards: u32,
    /// Seed of the first board; board `k` uses `seed + k`.
    pub seed: u64,
    /// Smallest and largest board side.
    pub sizes: (usize, usize),
    /// Largest cell value.
    pub max_value: i32,
    /// Chance a cell starts occupied.
    pub fill: f64,
    /// Threads per engine move.
    pub threads: usize,
}

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

    /// Counts game `g`, in which A played `a` and `winner` won (`None`: a
    /// draw), and returns A's margin.
    pub fn add(&mut self, g: &GameRecord, a: Player, winner: Option<Player>) -> i64 {
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

/// Plays A against B over `settings.boards` boards, each twice with the
/// colours swapped; `on_game` is called after every game (for progress and
/// traces) with the game's index, A's colour and the record.
pub fn run_match(
    a: &Agent,
    b: &Agent,
    settings: &MatchSettings,
    trace: &mut dyn FnMut(&str),
    on_game: &mut dyn FnMut(u32, &MatchReport),
) -> MatchReport {
    let mut report = MatchReport::default();
    for k in 0..settings.boards {
        let (seed, board) = match_board(
            settings.seed,
            k,
            settings.sizes,
            settings.max_value,
            settings.fill,
        );
        let mut pair = 0;
        for a_plays in [Player::X, Player::O] {
            let (x, o) = if a_plays == Player::X { (a, b) } else { (b, a) };
            let game = play_game(&board, x, o, settings.threads, seed, trace);
            pair += report.add(&game, a_plays, winner_by_margin(game.margin_x));
            if a_plays == Player::O {
                report.add_pair(pair);
            }
            on_game(report.games(), &report);
        }
    }
    report
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

    #[test]
    fn bookkeeping_counts_from_a_side() {
        let mut r = MatchReport::default();
        let g = GameRecord {
            margin_x: 10,
            cpu: [1.0, 2.0],
            max_move: [0.5, 0.25],
            moves: [3, 2],
        };
        assert_eq!(r.add(&g, Player::X, Some(Player::X)), 10);
        assert_eq!(r.add(&g, Player::O, Some(Player::X)), -10);
        r.add(
            &GameRecord {
                margin_x: 0,
                ..g.clone()
            },
            Player::X,
            None,
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
            boards: 10,
            seed: 1,
            sizes: (3, 6),
            max_value: 99,
            fill: 0.1,
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

//! One refereed game: the sides, one program move, and a game to its end
//! or to a forfeit.

use std::io;
use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use crate::play::arena::{winner_by_margin, Seat};
use crate::play::game::Game;
use crate::{input_text, Board, Mode, Move, Player, Problem};

use super::answer::check_answer;
use super::forfeit::{Forfeit, ForfeitReason};
use super::process::{run_program, Exit, ProgramRun};
use super::side::Side;

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

/// How each game is played.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GameSettings {
    /// CPU seconds per side per game.
    pub time: f64,
    /// The wall-clock guard of a program's move.
    pub guard: WallGuard,
    /// Threads per built-in engine move.
    pub threads: usize,
}

/// What a program is told it has left of `seconds`: rounded down to the
/// microsecond, so it is never told more than it has, and at most 1e9.
fn told(seconds: f64) -> f64 {
    if seconds.is_nan() {
        return 0.0;
    }
    (seconds.clamp(0.0, 1e9) * 1e6).floor() / 1e6
}

/// The fourth line of `input.txt` for `seconds` left: rounded down to the
/// microsecond and written as a plain decimal number (`0.25`, `3`, never
/// `1e-7`).
pub fn time_text(seconds: f64) -> String {
    told(seconds).to_string()
}

/// The `input.txt` a program gets: COMPETITION mode, `player` to move,
/// `seconds_left` as [`time_text`] writes it.
pub fn competition_input(board: &Board, player: Player, seconds_left: f64) -> String {
    input_text(&Problem {
        board: board.clone(),
        player,
        mode: Mode::Competition {
            seconds: told(seconds_left),
        },
    })
}

/// One program move, judged.
#[derive(Debug)]
pub struct ProgramMove {
    /// CPU seconds charged: the program and every descendant, from the OS.
    pub cpu: f64,
    /// Wall-clock seconds.
    pub wall: f64,
    /// The move, or why the side forfeits.
    pub result: Result<Move, Forfeit>,
}

/// Runs one move of the program `command` in `dir` (its working folder,
/// kept between its moves): writes `input.txt` for `player` to move on
/// `board` with `seconds_left` CPU seconds, runs the program under `guard`,
/// and judges what it did (see [`judge`]). The error is the referee's own
/// trouble (writing files, starting `sh`).
pub fn program_move(
    command: &str,
    dir: &Path,
    board: &Board,
    player: Player,
    seconds_left: f64,
    guard: &WallGuard,
) -> io::Result<ProgramMove> {
    let input = competition_input(board, player, seconds_left);
    let run = run_program(command, dir, &input, guard.limit(seconds_left))?;
    Ok(ProgramMove {
        cpu: run.cpu,
        wall: run.wall,
        result: judge(&run, board, player, seconds_left),
    })
}

/// The move a program run made, or its forfeit, checked in this order:
/// CPU overrun (the run's CPU time reached `seconds_left`, also when the
/// wall guard stopped it), hang (stopped by the guard with time to spare),
/// crash (non-zero exit or a signal), no `output.txt`, then
/// [`check_answer`].
pub fn judge(
    run: &ProgramRun,
    board: &Board,
    player: Player,
    seconds_left: f64,
) -> Result<Move, Forfeit> {
    use ForfeitReason::*;
    if run.cpu >= seconds_left {
        return Err(Forfeit::new(
            CpuOverrun,
            format!(
                "used {:.3} s of CPU with {:.3} s left",
                run.cpu, seconds_left
            ),
        ));
    }
    let why = |what: String| {
        if run.stderr_tail.is_empty() {
            what
        } else {
            format!("{what}: {}", run.stderr_tail)
        }
    };
    match run.exit {
        Exit::Killed => {
            return Err(Forfeit::new(
                Hang,
                format!(
                    "no answer after {:.3} s of wall time ({:.3} s CPU)",
                    run.wall, run.cpu
                ),
            ))
        }
        Exit::Signal(s) => return Err(Forfeit::new(Crash, why(format!("killed by signal {s}")))),
        Exit::Code(0) => {}
        Exit::Code(c) => return Err(Forfeit::new(Crash, why(format!("exit code {c}")))),
    }
    match &run.output {
        Err(io::ErrorKind::NotFound) => Err(Forfeit::new(NoOutput, "no output.txt")),
        Err(kind) => Err(Forfeit::new(Unreadable, format!("output.txt: {kind}"))),
        Ok(bytes) if bytes.len() as u64 > super::process::MAX_OUTPUT => Err(Forfeit::new(
            Unreadable,
            format!(
                "output.txt is longer than {} bytes",
                super::process::MAX_OUTPUT
            ),
        )),
        Ok(bytes) => check_answer(bytes, board, player),
    }
}

/// One move as the referee saw it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveRecord {
    /// Who moved.
    #[serde(serialize_with = "player_symbol")]
    pub player: Player,
    /// The move, or `None` for a forfeited one.
    #[serde(rename = "move", serialize_with = "move_text")]
    pub mv: Option<Move>,
    /// CPU seconds charged.
    pub cpu: f64,
    /// CPU seconds this side had left after it.
    pub left: f64,
}

/// A forfeit in a game: who, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameForfeit {
    /// The side that forfeited.
    #[serde(serialize_with = "player_symbol")]
    pub player: Player,
    /// What happened.
    #[serde(flatten)]
    pub forfeit: Forfeit,
}

/// How a refereed game went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameResult {
    /// X's score minus O's at the end; after a forfeit, the whole board's
    /// value against the side that forfeited (see [`forfeit_margin`]).
    pub margin_x: i64,
    /// The forfeit that ended the game, if any.
    pub forfeit: Option<GameForfeit>,
    /// CPU seconds each side was charged: `[X, O]`.
    pub cpu: [f64; 2],
    /// Each side's most expensive move, CPU seconds.
    pub max_move: [f64; 2],
    /// Moves each side made, a forfeited one included (it was charged).
    pub moves: [u32; 2],
    /// Every move in order.
    pub record: Vec<MoveRecord>,
}

impl GameResult {
    /// The winner, or `None` for a draw: a forfeit loses whatever the score.
    pub fn winner(&self) -> Option<Player> {
        match &self.forfeit {
            Some(f) => Some(f.player.other()),
            None => winner_by_margin(self.margin_x),
        }
    }
}

/// X's margin when `loser` forfeits on `board`: as if the winner owned
/// every cell, the worst result the game allows, so a forfeit never scores
/// better than playing on (the winner is recorded with the forfeit, so
/// a board of zeros still has one).
pub fn forfeit_margin(board: &Board, loser: Player) -> i64 {
    let total = board.total();
    match loser {
        Player::X => -total,
        Player::O => total,
    }
}

/// A side during a game.
enum Seated<'a> {
    Agent(Seat<'a>),
    Program {
        command: &'a str,
        /// Removed with everything in it when the game ends.
        dir: tempfile::TempDir,
    },
}

/// Plays `start` to the end or to a forfeit, X (`sides[0]`) moving first,
/// each side with `settings.time` CPU seconds. Each program side gets its
/// own temporary working folder for the whole game. `seed` drives the
/// random agent; `trace` receives each move (with the CPU charged and the
/// time left) and the board as text. The error is the referee's own
/// trouble (temporary folders, starting `sh`).
pub fn play_game(
    start: &Board,
    sides: [&Side; 2],
    settings: &GameSettings,
    seed: u64,
    trace: &mut dyn FnMut(&str),
) -> io::Result<GameResult> {
    let mut seats = Vec::with_capacity(2);
    for (side, p) in sides.iter().zip([Player::X, Player::O]) {
        seats.push(match side {
            Side::Agent(agent) => Seated::Agent(Seat::new(agent, seed)),
            Side::Command(command) => Seated::Program {
                command,
                dir: tempfile::Builder::new()
                    .prefix(&format!("stakeraid-{}-", p.symbol()))
                    .tempdir()?,
            },
        });
    }
    let mut result = GameResult {
        margin_x: 0,
        forfeit: None,
        cpu: [0.0; 2],
        max_move: [0.0; 2],
        moves: [0; 2],
        record: Vec::new(),
    };
    let mut game = Game::new(start, Player::X);
    trace(&format!(
        "start  X: {}  O: {}  {} s each\n{}",
        sides[0],
        sides[1],
        settings.time,
        start.cells_text()
    ));
    while !game.is_over() {
        let p = game.to_move();
        let i = p as usize;
        let left = settings.time - result.cpu[i];
        let (cpu, outcome) = match &mut seats[i] {
            Seated::Agent(seat) => {
                let before = seat.cpu();
                let mv = seat.choose(game.board(), p, settings.threads);
                let cpu = seat.cpu() - before;
                let outcome = if cpu >= left {
                    Err(Forfeit::new(
                        ForfeitReason::CpuOverrun,
                        format!("used {cpu:.3} s of CPU with {left:.3} s left"),
                    ))
                } else {
                    Ok(mv)
                };
                (cpu, outcome)
            }
            Seated::Program { command, dir } => {
                let m = program_move(command, dir.path(), game.board(), p, left, &settings.guard)?;
                (m.cpu, m.result)
            }
        };
        result.cpu[i] += cpu;
        result.moves[i] += 1;
        result.max_move[i] = result.max_move[i].max(cpu);
        let left = settings.time - result.cpu[i];
        result.record.push(MoveRecord {
            player: p,
            mv: outcome.as_ref().ok().copied(),
            cpu,
            left,
        });
        match outcome {
            Ok(mv) => {
                game.play(mv);
                trace(&format!(
                    "{}: {mv}  cpu {cpu:.3} s  left {left:.3} s\n{}",
                    p.symbol(),
                    game.board().cells_text()
                ));
            }
            Err(forfeit) => {
                trace(&format!(
                    "{}: forfeits, {forfeit}  cpu {cpu:.3} s  left {left:.3} s\n",
                    p.symbol()
                ));
                result.margin_x = forfeit_margin(game.board(), p);
                result.forfeit = Some(GameForfeit { player: p, forfeit });
                break;
            }
        }
    }
    if result.forfeit.is_none() {
        result.margin_x = game.margin(Player::X);
    }
    let verdict = match result.winner() {
        Some(w) => format!("{} wins", w.symbol()),
        None => "draw".to_owned(),
    };
    trace(&format!(
        "final  margin X {:+}  {verdict}  cpu X {:.3} s  O {:.3} s\n",
        result.margin_x, result.cpu[0], result.cpu[1]
    ));
    Ok(result)
}

/// Serializes a player as `"X"` or `"O"`.
pub(super) fn player_symbol<S: serde::Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_char(p.symbol())
}

fn move_text<S: serde::Serializer>(mv: &Option<Move>, s: S) -> Result<S::Ok, S::Error> {
    match mv {
        Some(mv) => s.collect_str(mv),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::arena::Agent;
    use crate::{legal_moves, random_board, Rng};

    #[test]
    fn time_is_a_plain_decimal_rounded_down() {
        assert_eq!(time_text(2.0), "2");
        assert_eq!(time_text(0.25), "0.25");
        assert_eq!(time_text(0.1234567), "0.123456");
        assert_eq!(time_text(1e-7), "0");
        assert_eq!(time_text(0.1 + 0.2), "0.3");
        assert_eq!(time_text(3e-6), "0.000003");
        assert_eq!(time_text(-1.0), "0");
        assert_eq!(time_text(f64::INFINITY), "1000000000");
        assert_eq!(time_text(f64::NAN), "0");
        let board = random_board(&mut Rng::new(1), 2, 9, 0.0);
        let input = competition_input(&board, Player::O, 1.5);
        let p = crate::parse_problem(input.as_bytes()).unwrap();
        assert_eq!(p.mode, Mode::Competition { seconds: 1.5 });
        assert_eq!(p.player, Player::O);
        assert_eq!(input.lines().nth(3), Some("1.5"), "{input}");
        let input = competition_input(&board, Player::X, 0.1234567);
        assert_eq!(input.lines().nth(3), Some("0.123456"), "{input}");
    }

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

    #[test]
    fn forfeit_margin_is_the_whole_board_against_the_loser() {
        let board = Board::new(2, &[1, 2, 3, 4]);
        assert_eq!(forfeit_margin(&board, Player::X), -10);
        assert_eq!(forfeit_margin(&board, Player::O), 10);
    }

    #[test]
    fn built_in_agents_play_to_the_end() {
        let board = random_board(&mut Rng::new(3), 3, 9, 0.2);
        let sides = [Side::Agent(Agent::Greedy), Side::Agent(Agent::Random)];
        let settings = GameSettings {
            time: 10.0,
            guard: WallGuard::default(),
            threads: 1,
        };
        let mut lines = 0;
        let g = play_game(&board, [&sides[0], &sides[1]], &settings, 1, &mut |_| {
            lines += 1
        })
        .unwrap();
        assert_eq!(g.forfeit, None);
        assert_eq!(g.moves[0] + g.moves[1], board.empty_count());
        assert_eq!(lines, board.empty_count() + 2);
        let mut replay = board.clone();
        for m in &g.record {
            let mv = m.mv.unwrap();
            assert!(legal_moves(&replay, m.player).contains(&mv));
            replay.make(mv, m.player);
        }
        assert_eq!(replay.score(Player::X), g.margin_x);
    }

    #[test]
    fn an_agent_over_its_time_forfeits() {
        let board = random_board(&mut Rng::new(3), 3, 9, 0.0);
        let sides = [Side::Agent(Agent::Greedy), Side::Agent(Agent::Textbook(3))];
        let settings = GameSettings {
            time: 0.0,
            guard: WallGuard::default(),
            threads: 1,
        };
        let g = play_game(&board, [&sides[0], &sides[1]], &settings, 1, &mut |_| {}).unwrap();
        let f = g.forfeit.clone().unwrap();
        assert_eq!(
            (f.player, f.forfeit.reason),
            (Player::X, ForfeitReason::CpuOverrun)
        );
        assert_eq!(g.winner(), Some(Player::O));
        assert_eq!(g.margin_x, forfeit_margin(&board, Player::X));
        assert_eq!(g.record.len(), 1);
        assert_eq!(g.record[0].mv, None);
    }
}

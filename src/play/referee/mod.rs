//! The referee: programs in the assignment's format (and built-in agents)
//! played against each other as a course tournament runs them.
//!
//! Each move of a program is one run of `sh -c COMMAND` in the side's own
//! temporary folder, kept for the whole game: the referee writes
//! `input.txt` (COMPETITION mode, the side's CPU seconds left), runs the
//! command under a wall-clock guard, charges the CPU time the operating
//! system counted for the whole process tree, and reads `output.txt`.
//! A side forfeits, and loses the game, on a CPU overrun, a hang, a crash,
//! no `output.txt`, an unreadable one, an illegal move, or a board that is
//! not the board after its move ([`ForfeitReason`]).
//!
//! [`program_move`] is one such move on its own, for other tools;
//! [`play_game`] one game, [`run_referee`] a whole match.
//!
//! ```no_run
//! use stakeraid::referee::{program_move, WallGuard};
//! use stakeraid::{random_board, Player, Rng};
//!
//! let board = random_board(&mut Rng::new(1), 6, 99, 0.0);
//! let dir = tempfile::tempdir()?;
//! let m = program_move("/path/to/program", dir.path(), &board, Player::X, 10.0,
//!                      &WallGuard::default())?;
//! println!("{:?} after {:.3} s of CPU", m.result, m.cpu);
//! # Ok::<(), std::io::Error>(())
//! ```

mod clock;
mod game;
mod input;
mod judge;
mod process;
mod program;
mod report;
mod settings;
mod side;
mod tournament;

pub use crate::play::forfeit::{Forfeit, ForfeitReason};
pub use crate::play::record::{forfeit_margin, GameForfeit, GameRecord, MoveRecord};
pub use crate::play::stats::Elo;
pub use crate::text::{parse_answer, AnswerError, AnswerText};
pub use clock::WallGuard;
pub use game::{play_game, GameSettings};
pub use input::{competition_input, time_text};
pub use judge::{check_answer, judge, program_move, ProgramMove};
pub use process::{
    kill_running, run_limited, run_program, run_sandboxed, Captured, Exit, ProgramRun, RunLimits,
    CAPTURE_BYTES, MAX_OUTPUT,
};
pub use program::ProgramMover;
pub use report::{BoardPair, PairGame, RefereeReport, SideSummary, Spread};
pub use settings::{RefereeError, RefereeSettings};
pub(crate) use side::{command_problem, own_files_problem, program_problem};
pub use side::{ProgramError, Side, SideError};
pub use tournament::run_referee;

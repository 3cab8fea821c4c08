//! The older variant of the game (SPEC "The older variant"): the same rules
//! on a 5x5 board with the moves called Drop (= Stake) and Blitz (= Raid),
//! a board file of tab-separated `value,owner` pairs, answers printed as
//! `drop,C,2`, and a driver that plays a minimax agent against an
//! alpha-beta one.
//!
//! ```
//! use stakeraid::api::{analyse, Limits, Position, SearchMode};
//! use stakeraid::legacy::{move_text, parse_board, TO_MOVE};
//!
//! let file = "20,0\t16,0\t(1,1)\t32,1\t30,0\n\
//!             20,0\t12,0\t2,1\t11,2\t8,1\n\
//!             28,0\t48,0\t9,0\t1,2\t1,0\n\
//!             20,0\t12,0\t10,2\t6,2\t2,0\n\
//!             25,0\t30,0\t23,0\t21,0\t10,0\n";
//! let board = parse_board(file.as_bytes())?;
//! let position = Position::new(board, TO_MOVE)?;
//! let analysis = analyse(&position, &Limits::to_depth(SearchMode::AlphaBeta, 4))?;
//! assert_eq!(move_text(analysis.best), "blitz,C,3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::play::driver::{
    play_game, run_driver, DriverAgent, DriverGame, DriverReport, DriverSettings,
};
pub use crate::text::dropblitz::{
    board_text, move_text, parse_board, parse_move, LegacyError, LegacyErrorKind, MoveTextError,
    SIDE, TO_MOVE,
};

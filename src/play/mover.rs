//! Who makes a side's moves, behind one trait the game loop calls: an
//! agent searching in this process ([`crate::arena::Seat`]), a program
//! the referee runs, the older variant's agents, or a person's move
//! ([`Chosen`]).

use std::io;

use crate::game::{Board, Move, Player};

use super::forfeit::Forfeit;

/// One turn of a mover.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// CPU seconds the move cost, charged to the side.
    pub cpu: f64,
    /// The move, or why the side forfeits.
    pub result: Result<Move, Forfeit>,
    /// What the mover says about its move, for traces (the older
    /// variant's node counts); empty when it has nothing to say.
    pub note: String,
}

impl Turn {
    /// A move played after `cpu` seconds, with nothing more to say.
    pub fn played(mv: Move, cpu: f64) -> Turn {
        Turn {
            cpu,
            result: Ok(mv),
            note: String::new(),
        }
    }
}

/// A side's way of choosing moves.
pub trait Mover {
    /// `player`'s move on `board`, with `left` CPU seconds of the game's
    /// budget (infinite in a game without one). A move that runs out the
    /// budget is forfeited by the game loop, whatever it is. The error is
    /// the caller's own trouble (starting a program), never the mover's
    /// fault, which is a forfeit.
    fn choose(&mut self, board: &Board, player: Player, left: f64) -> io::Result<Turn>;
}

/// A move chosen already, by a person: played as it is, at no cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chosen(pub Move);

impl Mover for Chosen {
    fn choose(&mut self, _: &Board, _: Player, _: f64) -> io::Result<Turn> {
        Ok(Turn::played(self.0, 0.0))
    }
}

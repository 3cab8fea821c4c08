//! A program as a mover: each move is one run of it in a working folder of
//! its own, kept for the whole game.

use std::io;

use crate::play::mover::{Mover, Turn};
use crate::{Board, Player};

use super::clock::WallGuard;
use super::judge::program_move;

/// A program at the table.
#[derive(Debug)]
pub struct ProgramMover<'a> {
    command: &'a str,
    guard: WallGuard,
    /// Removed with everything in it when the game ends.
    dir: tempfile::TempDir,
}

impl<'a> ProgramMover<'a> {
    /// `sh -c command` playing `player`, each move under `guard`, in a new
    /// temporary folder (the error: it could not be made).
    pub fn new(command: &'a str, player: Player, guard: WallGuard) -> io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix(&format!("stakeraid-{}-", player.symbol()))
            .tempdir()?;
        Ok(ProgramMover {
            command,
            guard,
            dir,
        })
    }
}

impl Mover for ProgramMover<'_> {
    fn choose(&mut self, board: &Board, player: Player, left: f64) -> io::Result<Turn> {
        let m = program_move(
            self.command,
            self.dir.path(),
            board,
            player,
            left,
            &self.guard,
        )?;
        Ok(Turn {
            cpu: m.cpu,
            result: m.result,
            note: String::new(),
        })
    }
}

//! A program as a mover: each move is one run of it in a working folder of
//! its own, kept for the whole game, in its sandbox.

use std::io;

use crate::play::forfeit::{Forfeit, ForfeitReason};
use crate::play::mover::{Mover, Turn};
use crate::sandbox::{Sandbox, SandboxSettings};
use crate::{Board, Player};

use super::clock::WallGuard;
use super::input::competition_input;
use super::judge::judge;
use super::process::{run_sandboxed, RunLimits};

/// A program at the table.
#[derive(Debug)]
pub struct ProgramMover<'a> {
    command: &'a str,
    guard: WallGuard,
    sandbox: Sandbox,
    /// Removed with everything in it when the game ends.
    dir: crate::scratch::Scratch,
}

impl<'a> ProgramMover<'a> {
    /// `sh -c command` playing `player`, each move under `guard` in a
    /// sandbox with `sandbox`, in a new temporary folder (the error: it
    /// could not be made, or `--sandbox require` where this machine
    /// cannot).
    pub fn new(
        command: &'a str,
        player: Player,
        guard: WallGuard,
        sandbox: &SandboxSettings,
    ) -> io::Result<Self> {
        let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        let sandbox = Sandbox::new(sandbox.clone(), &words, &[]).map_err(io::Error::other)?;
        let dir = crate::scratch::Scratch::new(&format!("stakeraid-{}-", player.symbol()))?;
        Ok(ProgramMover {
            command,
            guard,
            sandbox,
            dir,
        })
    }
}

impl Mover for ProgramMover<'_> {
    fn choose(&mut self, board: &Board, player: Player, left: f64) -> io::Result<Turn> {
        let input = competition_input(board, player, left);
        let limits = RunLimits::wall(self.guard.limit(left));
        let run = run_sandboxed(
            self.command,
            self.dir.path(),
            &input,
            &limits,
            &self.sandbox,
        )?;
        // Past a sandbox limit the side forfeits as for a crash, saying
        // which limit.
        let result = match run.limit {
            Some(hit) => Err(Forfeit::new(ForfeitReason::Crash, hit.to_string())),
            None => judge(&run, board, player, left),
        };
        Ok(Turn {
            cpu: run.cpu,
            result,
            note: String::new(),
        })
    }
}

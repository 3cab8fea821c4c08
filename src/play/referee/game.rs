//! One refereed game: the sides seated (agents in this process, programs
//! in folders of their own), played through the game loop under the CPU
//! budget, with the referee's trace.

use std::io;

use serde::Serialize;

use crate::play::agent::Seat;
use crate::play::mover::Mover;
use crate::play::record::GameRecord;
use crate::play::table::play_out;
use crate::sandbox::SandboxSettings;
use crate::{Board, Player};

use super::clock::WallGuard;
use super::program::ProgramMover;
use super::side::Side;

/// How each game is played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameSettings {
    /// CPU seconds per side per game.
    pub time: f64,
    /// The wall-clock guard of a program's move.
    pub guard: WallGuard,
    /// Threads per built-in engine move.
    pub threads: usize,
    /// The sandbox each program's moves run in.
    pub sandbox: SandboxSettings,
}

/// A side seated for a game.
enum Seated<'a> {
    Agent(Seat<'a>),
    Program(ProgramMover<'a>),
}

impl<'a> Seated<'a> {
    fn new(side: &'a Side, p: Player, settings: &GameSettings, seed: u64) -> io::Result<Self> {
        Ok(match side {
            Side::Agent(agent) => Seated::Agent(Seat::new(agent, seed, settings.threads)),
            Side::Command(command) => Seated::Program(ProgramMover::new(
                command,
                p,
                settings.guard,
                &settings.sandbox,
            )?),
        })
    }

    fn mover(&mut self) -> &mut dyn Mover {
        match self {
            Seated::Agent(seat) => seat,
            Seated::Program(program) => program,
        }
    }
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
) -> io::Result<GameRecord> {
    let mut x = Seated::new(sides[0], Player::X, settings, seed)?;
    let mut o = Seated::new(sides[1], Player::O, settings, seed)?;
    trace(&format!(
        "start  X: {}  O: {}  {} s each\n{}",
        sides[0],
        sides[1],
        settings.time,
        start.cells_text()
    ));
    let record = play_out(
        start,
        [x.mover(), o.mover()],
        Some(settings.time),
        &mut |table, played| {
            let (p, cpu, left) = (played.player.symbol(), played.cpu, played.left);
            match &played.result {
                Ok(mv) => trace(&format!(
                    "{p}: {mv}  cpu {cpu:.3} s  left {left:.3} s\n{}",
                    table.game().board().cells_text()
                )),
                Err(forfeit) => trace(&format!(
                    "{p}: forfeits, {forfeit}  cpu {cpu:.3} s  left {left:.3} s\n"
                )),
            }
        },
    )?;
    let verdict = match record.winner() {
        Some(w) => format!("{} wins", w.symbol()),
        None => "draw".to_owned(),
    };
    trace(&format!(
        "final  margin X {:+}  {verdict}  cpu X {:.3} s  O {:.3} s\n",
        record.margin_x, record.cpu[0], record.cpu[1]
    ));
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::arena::Agent;
    use crate::play::forfeit::ForfeitReason;
    use crate::play::record::forfeit_margin;
    use crate::{legal_moves, random_board, Rng};

    #[test]
    fn built_in_agents_play_to_the_end() {
        let board = random_board(&mut Rng::new(3), 3, 9, 0.2);
        let sides = [Side::Agent(Agent::Greedy), Side::Agent(Agent::Random)];
        let settings = GameSettings {
            time: 10.0,
            guard: WallGuard::default(),
            threads: 1,
            sandbox: SandboxSettings::default(),
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
            sandbox: SandboxSettings::default(),
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

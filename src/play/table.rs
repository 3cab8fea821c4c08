//! The one game loop: two movers take turns on a [`Game`], each turn
//! charged to its side's CPU budget and written into the [`GameRecord`],
//! until the board is full or a side forfeits. `match`, the referee, the
//! older variant's driver and `play` all play their games through it; each
//! writes its own trace from the turns it is shown.

use std::io;

use crate::game::{Board, Move, Player};

use super::forfeit::{Forfeit, ForfeitReason};
use super::game::Game;
use super::mover::Mover;
use super::record::{forfeit_margin, GameForfeit, GameRecord, MoveRecord};

/// A turn as the loop played it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Who moved.
    pub player: Player,
    /// The move, or the forfeit that ended the game.
    pub result: Result<Move, Forfeit>,
    /// CPU seconds charged.
    pub cpu: f64,
    /// CPU seconds the side has left (infinite without a budget).
    pub left: f64,
    /// What the mover said about its move.
    pub note: String,
}

/// A game being played: the position, the record so far, and each side's
/// CPU budget.
#[derive(Clone, Debug)]
pub struct Table {
    game: Game,
    /// CPU seconds per side for the whole game; `None` for no limit.
    budget: Option<f64>,
    record: GameRecord,
}

impl Table {
    /// A game from `start` with `first` to move and `budget` CPU seconds
    /// per side (`None`: no limit).
    pub fn new(start: &Board, first: Player, budget: Option<f64>) -> Table {
        Table {
            game: Game::new(start, first),
            budget,
            record: GameRecord::default(),
        }
    }

    /// The game: the position, the side to move, the moves so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The record so far.
    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    /// True once the board is full or a side has forfeited.
    pub fn is_over(&self) -> bool {
        self.game.is_over() || self.record.forfeit.is_some()
    }

    /// CPU seconds `p` has left.
    pub fn left(&self, p: Player) -> f64 {
        self.budget.unwrap_or(f64::INFINITY) - self.record.cpu[p as usize]
    }

    /// One turn of the side to move, made by `mover`: charged, recorded,
    /// and played, or the game ends with the side's forfeit (also when the
    /// move used up its budget). The error is the mover's caller's trouble
    /// (see [`Mover::choose`]).
    pub fn turn(&mut self, mover: &mut dyn Mover) -> io::Result<Played> {
        debug_assert!(!self.is_over(), "a turn after the end");
        let p = self.game.to_move();
        let before = self.left(p);
        let turn = mover.choose(self.game.board(), p, before)?;
        let cpu = turn.cpu;
        let result = match turn.result {
            Ok(_) if cpu >= before => Err(Forfeit::new(
                ForfeitReason::CpuOverrun,
                format!("used {cpu:.3} s of CPU with {before:.3} s left"),
            )),
            result => result,
        };
        let i = p as usize;
        self.record.cpu[i] += cpu;
        self.record.moves[i] += 1;
        self.record.max_move[i] = self.record.max_move[i].max(cpu);
        let left = self.left(p);
        self.record.record.push(MoveRecord {
            player: p,
            mv: result.as_ref().ok().copied(),
            cpu,
            left,
        });
        match &result {
            Ok(mv) => self.game.play(*mv),
            Err(forfeit) => {
                self.record.forfeit = Some(GameForfeit {
                    player: p,
                    forfeit: forfeit.clone(),
                });
            }
        }
        Ok(Played {
            player: p,
            result,
            cpu,
            left,
            note: turn.note,
        })
    }

    /// Takes back moves until only the first `plies` are left, with their
    /// records; the CPU time they cost stays charged.
    pub fn undo_to(&mut self, plies: usize) {
        self.game.undo_to(plies);
        while self.record.record.len() > self.game.moves().len() {
            if let Some(m) = self.record.record.pop() {
                self.record.moves[m.player as usize] -= 1;
            }
        }
    }

    /// The record of the game, with its final margin.
    pub fn finish(mut self) -> GameRecord {
        self.record.margin_x = match &self.record.forfeit {
            Some(f) => forfeit_margin(self.game.board(), f.player),
            None => self.game.margin(Player::X),
        };
        self.record
    }
}

/// Plays `start` to the end or to a forfeit, X (`movers[0]`) moving first,
/// each side with `budget` CPU seconds (`None`: no limit); `on_turn` is
/// shown every turn, after it is played.
pub fn play_out(
    start: &Board,
    movers: [&mut dyn Mover; 2],
    budget: Option<f64>,
    on_turn: &mut dyn FnMut(&Table, &Played),
) -> io::Result<GameRecord> {
    let mut table = Table::new(start, Player::X, budget);
    let [x, o] = movers;
    while !table.is_over() {
        let mover: &mut dyn Mover = match table.game().to_move() {
            Player::X => &mut *x,
            Player::O => &mut *o,
        };
        let played = table.turn(mover)?;
        on_turn(&table, &played);
    }
    Ok(table.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::legal_moves;
    use crate::play::mover::{Chosen, Turn};

    /// Plays the first legal move, at a fixed cost.
    struct First(f64);

    impl Mover for First {
        fn choose(&mut self, board: &Board, p: Player, _: f64) -> io::Result<Turn> {
            Ok(Turn::played(legal_moves(board, p)[0], self.0))
        }
    }

    #[test]
    fn a_game_is_charged_and_recorded_turn_by_turn() {
        let board = crate::random_board(&mut crate::Rng::new(2), 3, 9, 0.0);
        let mut turns = 0;
        let (mut x, mut o) = (First(0.5), First(0.25));
        let g = play_out(&board, [&mut x, &mut o], None, &mut |t, p| {
            turns += 1;
            assert_eq!(
                p.result.as_ref().ok(),
                t.record().record.last().unwrap().mv.as_ref()
            );
        })
        .unwrap();
        assert_eq!(turns, 9);
        assert_eq!(
            (g.moves, g.cpu, g.max_move),
            ([5, 4], [2.5, 1.0], [0.5, 0.25])
        );
        assert_eq!(g.forfeit, None);
        assert_eq!(
            g.winner().map(Player::sign),
            Some(g.margin_x.signum()).filter(|&s| s != 0)
        );
    }

    #[test]
    fn running_out_the_budget_forfeits() {
        let board = crate::random_board(&mut crate::Rng::new(2), 3, 9, 0.0);
        let (mut x, mut o) = (First(0.5), First(1.0));
        let g = play_out(&board, [&mut x, &mut o], Some(1.0), &mut |_, _| {}).unwrap();
        let f = g.forfeit.clone().unwrap();
        assert_eq!(
            (f.player, f.forfeit.reason),
            (Player::O, ForfeitReason::CpuOverrun)
        );
        assert_eq!(f.forfeit.detail, "used 1.000 s of CPU with 1.000 s left");
        assert_eq!(g.record.len(), 2);
        assert_eq!(g.record[1].mv, None);
        assert_eq!(g.margin_x, forfeit_margin(&board, Player::O));
        assert_eq!(g.winner(), Some(Player::X));
    }

    #[test]
    fn undo_takes_back_moves_and_their_records() {
        let board = crate::random_board(&mut crate::Rng::new(2), 3, 9, 0.0);
        let mut table = Table::new(&board, Player::O, None);
        for _ in 0..3 {
            let mv = legal_moves(table.game().board(), table.game().to_move())[0];
            table.turn(&mut Chosen(mv)).unwrap();
        }
        table.undo_to(1);
        assert_eq!(table.record().record.len(), 1);
        assert_eq!(table.record().moves, [0, 1]);
        assert_eq!(table.game().to_move(), Player::X);
    }
}

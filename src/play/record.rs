//! What a game leaves behind, whoever played it: every move with the CPU
//! time it was charged, the forfeit that ended it early if one did, and
//! the final margin.

use serde::Serialize;

use crate::game::{Board, Move, Player};

use super::forfeit::Forfeit;

/// One move as it was played and charged.
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
    /// CPU seconds this side had left after it (infinite in a game
    /// without a budget).
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

/// How a game went.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GameRecord {
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

impl GameRecord {
    /// The winner, or `None` for a draw: a forfeit loses whatever the score.
    pub fn winner(&self) -> Option<Player> {
        match &self.forfeit {
            Some(f) => Some(f.player.other()),
            None => winner_by_margin(self.margin_x),
        }
    }
}

/// The side ahead on X's margin `margin_x`, `None` on a draw.
pub fn winner_by_margin(margin_x: i64) -> Option<Player> {
    match margin_x.signum() {
        1 => Some(Player::X),
        -1 => Some(Player::O),
        _ => None,
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

/// Serializes a player as `"X"` or `"O"`.
pub(crate) fn player_symbol<S: serde::Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
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

    #[test]
    fn forfeit_margin_is_the_whole_board_against_the_loser() {
        let board = Board::new(2, &[1, 2, 3, 4]);
        assert_eq!(forfeit_margin(&board, Player::X), -10);
        assert_eq!(forfeit_margin(&board, Player::O), 10);
    }
}

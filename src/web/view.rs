//! A position as the page draws it: the grid, the score, the legal moves.

use serde::Serialize;

use crate::api::Grid;
use crate::{legal_moves, Board, Player};

/// What the page needs to draw a position.
#[derive(Debug, Serialize)]
pub(crate) struct View {
    pub(crate) grid: Grid,
    /// The score from X's point of view (O's is its negation).
    pub(crate) score_x: i64,
    pub(crate) legal: Vec<String>,
    pub(crate) over: bool,
}

pub(crate) fn view_of(board: &Board, player: Player) -> View {
    View {
        grid: Grid::of(board, player),
        score_x: board.score(Player::X),
        legal: legal_moves(board, player)
            .iter()
            .map(ToString::to_string)
            .collect(),
        over: board.is_full(),
    }
}

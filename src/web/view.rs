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

/// The grid of `board` with `player` to move; unlike
/// [`crate::api::Position::to_grid`], a full board is allowed.
pub(crate) fn grid_of(board: &Board, player: Player) -> Grid {
    let n = board.n();
    Grid {
        values: (0..n)
            .map(|r| (0..n).map(|c| i64::from(board.value(r, c))).collect())
            .collect(),
        cells: board.cells_text().lines().map(String::from).collect(),
        player: player.symbol().to_string(),
    }
}

pub(crate) fn view_of(board: &Board, player: Player) -> View {
    View {
        grid: grid_of(board, player),
        score_x: board.score(Player::X),
        legal: legal_moves(board, player)
            .iter()
            .map(ToString::to_string)
            .collect(),
        over: board.is_full(),
    }
}

//! A checked position to analyse, and [`Grid`], the JSON form other tools
//! send one in.

use serde::{Deserialize, Serialize};

use crate::game::{Board, Player, MAX_N};
use crate::text::{checks, Problem};

/// A board with at least one empty cell and the player to move: everything
/// [`crate::api::analyse`] needs to know about the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: Board,
    player: Player,
}

/// Why a position was refused. Rows and columns are counted from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The board side (the number of value rows) is not in 1..=26.
    #[error("the board must have 1 to {MAX_N} rows of values, found {0}")]
    Size(usize),
    /// A row of values has the wrong length.
    #[error("value row {row}: expected {expected} values, found {found}")]
    ValueCount {
        /// The row.
        row: usize,
        /// Values it should have (the board side).
        expected: usize,
        /// Values it has.
        found: usize,
    },
    /// A value that is not a non-negative integer fitting in i32.
    #[error(
        "value row {row}, column {col}: values must be integers from 0 to 2147483647, got {value}"
    )]
    BadValue {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// The value given.
        value: i64,
    },
    /// The number of cell rows differs from the number of value rows.
    #[error("expected {expected} rows of cells, found {found}")]
    CellRows {
        /// Rows there should be.
        expected: usize,
        /// Rows there are.
        found: usize,
    },
    /// A row of cells has the wrong length.
    #[error("cell row {row}: expected {expected} cells, found {found}")]
    CellCount {
        /// The row.
        row: usize,
        /// Cells it should have.
        expected: usize,
        /// Cells it has.
        found: usize,
    },
    /// A cell that is not `X`, `O` or `.`.
    #[error("cell row {row}, column {col}: expected X, O or ., got {found:?}")]
    BadCell {
        /// The row.
        row: usize,
        /// The column.
        col: usize,
        /// The character found.
        found: char,
    },
    /// The player is not `X` or `O`.
    #[error("unknown player {0:?} (expected X or O)")]
    UnknownPlayer(String),
    /// No empty cell: the game is over and there is no move to choose.
    #[error("the board is full: there is no legal move")]
    Full,
}

impl Position {
    /// `board` with `player` to move; refused when the board is full.
    pub fn new(board: Board, player: Player) -> Result<Position, PositionError> {
        if !checks::playable(&board) {
            return Err(PositionError::Full);
        }
        Ok(Position { board, player })
    }

    /// The position of a parsed `input.txt`.
    pub fn from_problem(problem: &Problem) -> Result<Position, PositionError> {
        Position::new(problem.board.clone(), problem.player)
    }

    /// Checks and builds the position a [`Grid`] describes.
    pub fn from_grid(grid: &Grid) -> Result<Position, PositionError> {
        let (board, player) = grid.check()?;
        Position::new(board, player)
    }

    /// The grid form of this position (it reads back as the same position).
    pub fn to_grid(&self) -> Grid {
        Grid::of(&self.board, self.player)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player to move, whose point of view every value takes.
    pub fn player(&self) -> Player {
        self.player
    }
}

/// A position as JSON: the rows of cell values, the rows of cells (`X`, `O`
/// or `.`) and the player to move. Nothing is checked until
/// [`Position::from_grid`]. As in Python's `Position`, the cells may be
/// left out (every cell empty), and so may the player (X).
///
/// ```json
/// {"values": [[1, 8, 23], [5, 42, 12], [26, 30, 9]],
///  "cells": ["X..", "...", "..."], "player": "O"}
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// Row-major cell values, one array per row (wide integers, so that an
    /// out-of-range value is reported as such rather than as bad JSON).
    pub values: Vec<Vec<i64>>,
    /// One string per row; none (the JSON leaves it out) for an empty
    /// board.
    #[serde(default)]
    pub cells: Vec<String>,
    /// `"X"` or `"O"`.
    #[serde(default = "first_player")]
    pub player: String,
}

/// The player to move when a grid names none, as in Python's `Position`.
fn first_player() -> String {
    Player::X.symbol().to_string()
}

impl Grid {
    /// The grid of `board` with `player` to move (a full board too).
    pub fn of(board: &Board, player: Player) -> Grid {
        let n = board.n();
        Grid {
            values: (0..n)
                .map(|r| (0..n).map(|c| i64::from(board.value(r, c))).collect())
                .collect(),
            cells: board.cells_text().lines().map(String::from).collect(),
            player: player.symbol().to_string(),
        }
    }

    /// The board and player this grid describes, every entry checked. A
    /// full board passes (a finished game, which a [`Position`] refuses).
    pub fn check(&self) -> Result<(Board, Player), PositionError> {
        let n = self.values.len();
        if checks::side(n).is_none() {
            return Err(PositionError::Size(n));
        }
        let mut values = Vec::with_capacity(n * n);
        for (r, row) in self.values.iter().enumerate() {
            if row.len() != n {
                return Err(PositionError::ValueCount {
                    row: r + 1,
                    expected: n,
                    found: row.len(),
                });
            }
            for (c, &v) in row.iter().enumerate() {
                match checks::value(v) {
                    Some(v) => values.push(v),
                    None => {
                        return Err(PositionError::BadValue {
                            row: r + 1,
                            col: c + 1,
                            value: v,
                        })
                    }
                }
            }
        }
        let empty = vec![".".repeat(n); n];
        let cells = if self.cells.is_empty() {
            &empty
        } else {
            &self.cells
        };
        if cells.len() != n {
            return Err(PositionError::CellRows {
                expected: n,
                found: cells.len(),
            });
        }
        let mut board = Board::new(n, &values);
        for (r, row) in cells.iter().enumerate() {
            let found = row.chars().count();
            if found != n {
                return Err(PositionError::CellCount {
                    row: r + 1,
                    expected: n,
                    found,
                });
            }
            for (c, ch) in row.chars().enumerate() {
                let Some(sq) = checks::square(ch) else {
                    return Err(PositionError::BadCell {
                        row: r + 1,
                        col: c + 1,
                        found: ch,
                    });
                };
                board.set(r, c, sq);
            }
        }
        let Some(player) = Player::from_name(&self.player) else {
            return Err(PositionError::UnknownPlayer(self.player.clone()));
        };
        Ok((board, player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        Grid {
            values: vec![vec![1, 8, 23], vec![5, 42, 12], vec![26, 30, 9]],
            cells: vec!["X..".into(), "...".into(), "...".into()],
            player: "O".into(),
        }
    }

    #[test]
    fn grids_read_back() {
        let p = Position::from_grid(&grid()).unwrap();
        assert_eq!(p.player(), Player::O);
        assert_eq!(p.board().value(1, 1), 42);
        assert_eq!(p.board().score(Player::O), -1);
        assert_eq!(p.to_grid(), grid());
    }

    #[test]
    fn bad_grids_say_where() {
        let mut g = grid();
        g.values[1][2] = 0;
        assert!(Position::from_grid(&g).is_ok(), "a value of 0 is a value");
        g.values[1][2] = -1;
        assert_eq!(
            Position::from_grid(&g),
            Err(PositionError::BadValue {
                row: 2,
                col: 3,
                value: -1
            })
        );
        let mut g = grid();
        g.values[0][0] = i64::from(i32::MAX) + 1;
        assert!(matches!(
            Position::from_grid(&g),
            Err(PositionError::BadValue { row: 1, col: 1, .. })
        ));
        let mut g = grid();
        g.values[2].pop();
        assert_eq!(
            Position::from_grid(&g),
            Err(PositionError::ValueCount {
                row: 3,
                expected: 3,
                found: 2
            })
        );
        let mut g = grid();
        g.cells[1] = ".?.".into();
        assert_eq!(
            Position::from_grid(&g),
            Err(PositionError::BadCell {
                row: 2,
                col: 2,
                found: '?'
            })
        );
        let mut g = grid();
        g.cells.pop();
        assert_eq!(
            Position::from_grid(&g),
            Err(PositionError::CellRows {
                expected: 3,
                found: 2
            })
        );
        let mut g = grid();
        g.cells[0] = "X...".into();
        assert!(matches!(
            Position::from_grid(&g),
            Err(PositionError::CellCount { row: 1, .. })
        ));
        let mut g = grid();
        g.player = "Z".into();
        assert_eq!(
            Position::from_grid(&g),
            Err(PositionError::UnknownPlayer("Z".into()))
        );
        let mut g = grid();
        g.cells = vec!["XOX".into(), "OXO".into(), "XOX".into()];
        assert_eq!(Position::from_grid(&g), Err(PositionError::Full));
        let g = Grid {
            values: vec![],
            cells: vec![],
            player: "X".into(),
        };
        assert_eq!(Position::from_grid(&g), Err(PositionError::Size(0)));
    }

    #[test]
    fn a_full_grid_is_a_finished_game() {
        let mut g = grid();
        g.cells = vec!["XOX".into(), "OXO".into(), "XOX".into()];
        let (board, player) = g.check().unwrap();
        assert!(board.is_full());
        assert_eq!((player, board.score(Player::X)), (Player::O, 46));
        g.cells[1] = "O?O".into();
        assert!(matches!(
            g.check(),
            Err(PositionError::BadCell { row: 2, col: 2, .. })
        ));
    }
}

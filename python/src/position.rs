//! `Position`: a board and the player to move, immutable; building it,
//! its legal moves, playing and drawing.

use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use stakeraid::api::{self, Grid, PositionError};
use stakeraid::{
    input_text, legal_moves, parse_problem, Board, Move as RustMove, MoveKind, Player, Problem,
    Question, SearchMode,
};

use crate::errors::{depth as checked_depth, value_error};
use crate::moves::PyMove;

pub(crate) fn player_name(p: Player) -> String {
    p.symbol().to_string()
}

fn parse_player(s: &str) -> PyResult<Player> {
    Player::from_name(s).ok_or_else(|| value_error(PositionError::UnknownPlayer(s.into())))
}

/// A board (cell values and pieces) and the player to move.
///
/// `Position(values, cells=None, player="X")`: `values` is one list of
/// integers from 0 to 2147483647 per row, `cells` one string of `X`, `O` and `.` per
/// row (all empty if omitted). `Position.from_input(text)` reads the text
/// of an `input.txt`. Positions are immutable: `play` returns a new one.
/// A full board is a valid position (`is_over`), with no legal move.
#[pyclass(name = "Position", module = "stakeraid", frozen, eq)]
#[derive(Clone, PartialEq, Eq)]
pub struct PyPosition {
    board: Board,
    player: Player,
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (values, cells = None, player = "X"))]
    fn new(
        values: Vec<Vec<Bound<'_, PyAny>>>,
        cells: Option<Vec<String>>,
        player: &str,
    ) -> PyResult<Self> {
        let n = values.len();
        let mut wide = Vec::with_capacity(n);
        for (r, row) in values.iter().enumerate() {
            let mut out = Vec::with_capacity(row.len());
            for (c, v) in row.iter().enumerate() {
                // Integers too wide for i64 are out of range like any other,
                // and a value that is no integer at all is a bad value too.
                let v = v.extract::<i64>().map_err(|_| {
                    let shown = v.repr().map_or_else(|_| "?".into(), |r| r.to_string());
                    value_error(format!(
                        "value row {}, column {}: values must be integers from 0 to {}, got {shown}",
                        r + 1,
                        c + 1,
                        i32::MAX
                    ))
                })?;
                out.push(v);
            }
            wide.push(out);
        }
        let grid = Grid {
            values: wide,
            cells: cells.unwrap_or_else(|| vec![".".repeat(n); n]),
            player: player.to_string(),
        };
        let (board, player) = grid.check().map_err(value_error)?;
        Ok(PyPosition { board, player })
    }

    /// The position of an `input.txt` (its `YOUPLAY` moves; mode and limit
    /// are read and checked but not kept). Raises `ValueError` naming the
    /// line and the reason.
    #[staticmethod]
    fn from_input(text: &str) -> PyResult<Self> {
        let problem = parse_problem(text.as_bytes()).map_err(value_error)?;
        Ok(PyPosition {
            board: problem.board,
            player: problem.player,
        })
    }

    /// The text of an `input.txt` asking about this position: `depth` for
    /// MINIMAX and ALPHABETA, `seconds` (CPU seconds left) for COMPETITION.
    #[pyo3(signature = (mode = "ALPHABETA", depth = None, seconds = None))]
    fn to_input(&self, mode: &str, depth: Option<i64>, seconds: Option<f64>) -> PyResult<String> {
        if self.board.is_full() {
            return Err(value_error(PositionError::Full));
        }
        let question = match mode.to_ascii_uppercase().as_str() {
            name @ ("MINIMAX" | "ALPHABETA") => {
                if seconds.is_some() {
                    return Err(value_error(format!("{name} takes a depth, not seconds")));
                }
                let Some(depth) = checked_depth(depth)? else {
                    return Err(value_error(format!(
                        "{name} needs a depth (plies, at least 1)"
                    )));
                };
                if name == "MINIMAX" {
                    Question::Exact {
                        mode: SearchMode::Minimax,
                        depth,
                    }
                } else {
                    Question::Exact {
                        mode: SearchMode::AlphaBeta,
                        depth,
                    }
                }
            }
            "COMPETITION" => {
                if depth.is_some() {
                    return Err(value_error(
                        "COMPETITION takes seconds (the CPU seconds left), not a depth",
                    ));
                }
                match seconds {
                    None => {
                        return Err(value_error(
                            "COMPETITION needs seconds (the CPU seconds left)",
                        ))
                    }
                    Some(s) if s.is_finite() && s >= 0.0 => Question::Competition { seconds: s },
                    Some(s) => {
                        return Err(value_error(format!(
                            "seconds must be a finite number >= 0, got {s}"
                        )))
                    }
                }
            }
            _ => {
                return Err(value_error(format!(
                    "unknown mode {mode:?} (expected MINIMAX, ALPHABETA or COMPETITION)"
                )))
            }
        };
        Ok(input_text(&Problem {
            board: self.board.clone(),
            player: self.player,
            question,
        }))
    }

    /// Every legal move in canonical order: all Stakes row-major, then all
    /// Raids row-major (Raids that flip nothing included). Empty when the
    /// game is over.
    fn legal_moves(&self) -> Vec<PyMove> {
        legal_moves(&self.board, self.player)
            .into_iter()
            .map(PyMove)
            .collect()
    }

    /// The legal moves as a mask of `2 * size * size` bytes (1 legal, 0
    /// not), indexed as `Move.index` numbers them.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let n = self.board.n();
        let mut mask = vec![0u8; 2 * n * n];
        for mv in legal_moves(&self.board, self.player) {
            let kind = usize::from(mv.kind() == MoveKind::Raid);
            mask[kind * n * n + mv.row() * n + mv.col()] = 1;
        }
        PyBytes::new(py, &mask)
    }

    /// The position after `move` (a `Move` or its text), the other player
    /// to move. Raises `ValueError` if the move is not legal here.
    #[pyo3(name = "play")]
    fn play_move(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mv = PyMove::from_arg(r#move)?;
        self.check_legal(mv)?;
        let mut board = self.board.clone();
        board.make(mv, self.player);
        Ok(PyPosition {
            board,
            player: self.player.other(),
        })
    }

    /// True if `move` (a `Move` or its text) is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.check_legal(PyMove::from_arg(r#move)?).is_ok())
    }

    /// The board side N.
    #[getter]
    fn size(&self) -> usize {
        self.board.n()
    }

    /// The player to move, `"X"` or `"O"`.
    #[getter]
    fn to_move(&self) -> String {
        player_name(self.player)
    }

    /// The game score from the point of view of the player to move: the
    /// values of its cells minus the values of the other player's.
    #[getter]
    fn score(&self) -> i64 {
        self.board.score(self.player)
    }

    /// The game score from `player`'s point of view (`"X"` or `"O"`).
    fn score_for(&self, player: &str) -> PyResult<i64> {
        Ok(self.board.score(parse_player(player)?))
    }

    /// True when the board is full: the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.board.is_full()
    }

    /// The number of empty cells (the plies left in the game).
    #[getter]
    fn empty_count(&self) -> u32 {
        self.board.empty_count()
    }

    /// The cell values, one list per row.
    #[getter]
    fn values(&self) -> Vec<Vec<i64>> {
        let n = self.board.n();
        (0..n)
            .map(|r| (0..n).map(|c| i64::from(self.board.value(r, c))).collect())
            .collect()
    }

    /// The pieces, one string of `X`, `O` and `.` per row.
    #[getter]
    fn cells(&self) -> Vec<String> {
        self.board.cells_text().lines().map(String::from).collect()
    }

    /// The board with column letters, row numbers, each cell's owner
    /// (`X`, `O` or `.`) and value, and the player to move.
    fn __str__(&self) -> String {
        api::draw(&self.board, self.player)
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, {:?}, {:?})",
            self.values(),
            self.cells(),
            self.to_move()
        )
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.hash().hash(&mut h);
        self.player.hash(&mut h);
        h.finish()
    }

    /// Pickles as its constructor's arguments, under every protocol.
    #[allow(clippy::type_complexity)]
    fn __reduce__(slf: &Bound<'_, Self>) -> (Py<PyAny>, (Vec<Vec<i64>>, Vec<String>, String)) {
        let position = slf.get();
        let arguments = (position.values(), position.cells(), position.to_move());
        (slf.get_type().into_any().unbind(), arguments)
    }
}

impl PyPosition {
    /// Why `mv` is not legal here, if it is not.
    fn check_legal(&self, mv: RustMove) -> PyResult<()> {
        api::check_move(&self.board, self.player, mv)
            .map_err(|why| value_error(format!("{mv} is not legal: {why}")))
    }

    pub(crate) fn api_position(&self) -> PyResult<api::Position> {
        api::Position::new(self.board.clone(), self.player).map_err(value_error)
    }
}

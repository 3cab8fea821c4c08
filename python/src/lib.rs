//! Python bindings of the `stakeraid` library (`stakeraid._core`): positions
//! and moves, the exact analysis, the grader's answer and the competition
//! move. The pure-Python package around it re-exports everything here and
//! adds the PettingZoo environment.
//!
//! Every search runs with the interpreter released (`Python::detach`), so
//! other Python threads keep running and can stop it through a
//! [`StopToken`]. Library errors become `ValueError` with the library's
//! message; a Rust panic becomes `pyo3_runtime.PanicException` (the crate
//! is built with `panic = "unwind"` for that).

use std::fmt::Display;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use stakeraid::api::{self, Grid, Limits, PositionError, SearchMode};
use stakeraid::competition::{self, CompetitionOptions};
use stakeraid::{
    input_text, legal_moves, parse_problem, solve, Board, Move as RustMove, MoveKind, Player,
    Problem, SolveOptions, Square, Task, MAX_N,
};

fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn player_name(p: Player) -> String {
    p.symbol().to_string()
}

fn parse_player(s: &str) -> PyResult<Player> {
    match s {
        "X" | "x" => Ok(Player::X),
        "O" | "o" => Ok(Player::O),
        _ => Err(value_error(PositionError::UnknownPlayer(s.into()))),
    }
}

/// A move: a target cell and a kind, printed as in `output.txt`.
///
/// `Move("C3", "Raid")`, `Move.parse("C3 Raid")` (case and spacing are
/// free); `str(move)` gives `"C3 Raid"` back. Moves are immutable,
/// comparable and hashable.
#[pyclass(name = "Move", module = "stakeraid", frozen, eq, hash, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove(RustMove);

#[pymethods]
impl PyMove {
    #[new]
    fn new(cell: &str, kind: &str) -> PyResult<Self> {
        Self::parse(&format!("{cell} {kind}"))
    }

    /// Reads `"C3 Stake"` / `"c3 raid"` / `"Z26 Raid"`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        text.parse().map(PyMove).map_err(value_error)
    }

    /// The move with action index `index` on a `size` x `size` board:
    /// `kind * size * size + row * size + col`, kind 0 for Stake, 1 for Raid.
    #[staticmethod]
    fn from_index(index: i64, size: i64) -> PyResult<Self> {
        let n = check_size(size)?;
        let cells = (n * n) as i64;
        if !(0..2 * cells).contains(&index) {
            return Err(value_error(format!(
                "action index {index} out of 0..{} for a {n}x{n} board",
                2 * cells
            )));
        }
        let (kind, cell) = (index / cells, (index % cells) as usize);
        let kind = if kind == 0 {
            MoveKind::Stake
        } else {
            MoveKind::Raid
        };
        Ok(PyMove(RustMove::new(cell / n, cell % n, kind)))
    }

    /// This move's action index on a `size` x `size` board (see `from_index`).
    fn index(&self, size: i64) -> PyResult<i64> {
        let n = check_size(size)?;
        let mv = self.0;
        if mv.row() >= n || mv.col() >= n {
            return Err(value_error(format!(
                "{} is off a {n}x{n} board",
                mv.cell_name()
            )));
        }
        let kind = match mv.kind() {
            MoveKind::Stake => 0,
            MoveKind::Raid => 1,
        };
        Ok((kind * n * n + mv.row() * n + mv.col()) as i64)
    }

    /// The target cell, e.g. `"C3"`.
    #[getter]
    fn cell(&self) -> String {
        self.0.cell_name()
    }

    /// `"Stake"` or `"Raid"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind().name()
    }

    /// Zero-based row (row 1 is 0).
    #[getter]
    fn row(&self) -> usize {
        self.0.row()
    }

    /// Zero-based column (column A is 0).
    #[getter]
    fn col(&self) -> usize {
        self.0.col()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move({:?}, {:?})", self.0.cell_name(), self.0.kind().name())
    }

    fn __getnewargs__(&self) -> (String, &'static str) {
        (self.0.cell_name(), self.0.kind().name())
    }
}

fn check_size(size: i64) -> PyResult<usize> {
    match usize::try_from(size) {
        Ok(n) if (1..=MAX_N).contains(&n) => Ok(n),
        _ => Err(value_error(format!(
            "board size must be 1 to {MAX_N}, got {size}"
        ))),
    }
}

/// A move given as a `Move` or as its text.
#[derive(FromPyObject)]
enum MoveArg {
    Move(PyMove),
    Text(String),
}

impl MoveArg {
    fn get(self) -> PyResult<RustMove> {
        match self {
            MoveArg::Move(m) => Ok(m.0),
            MoveArg::Text(t) => PyMove::parse(&t).map(|m| m.0),
        }
    }
}

/// A board (cell values and pieces) and the player to move.
///
/// `Position(values, cells=None, player="X")`: `values` is one list of
/// positive integers per row, `cells` one string of `X`, `O` and `.` per
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
                        "value row {}, column {}: values must be positive and fit in i32, got {shown}",
                        r + 1,
                        c + 1
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
        from_grid(&grid).map_err(value_error)
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
    fn to_input(&self, mode: &str, depth: Option<u32>, seconds: Option<f64>) -> PyResult<String> {
        if self.board.is_full() {
            return Err(value_error(PositionError::Full));
        }
        let task = match (mode.to_ascii_uppercase().as_str(), depth, seconds) {
            ("MINIMAX", Some(d), None) if d >= 1 => Task::Exact {
                mode: SearchMode::Minimax,
                depth: d,
            },
            ("ALPHABETA", Some(d), None) if d >= 1 => Task::Exact {
                mode: SearchMode::AlphaBeta,
                depth: d,
            },
            ("COMPETITION", None, Some(s)) if s.is_finite() && s >= 0.0 => {
                Task::Competition { seconds: s }
            }
            _ => {
                return Err(value_error(format!(
                    "expected mode MINIMAX or ALPHABETA with a depth >= 1, or COMPETITION \
                     with seconds >= 0; got {mode:?}, depth {depth:?}, seconds {seconds:?}"
                )))
            }
        };
        Ok(input_text(&Problem {
            board: self.board.clone(),
            player: self.player,
            task,
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
    fn play_move(&self, r#move: MoveArg) -> PyResult<Self> {
        let mv = r#move.get()?;
        self.check_legal(mv)?;
        let mut board = self.board.clone();
        board.make(mv, self.player);
        Ok(PyPosition {
            board,
            player: self.player.other(),
        })
    }

    /// True if `move` (a `Move` or its text) is legal here.
    fn is_legal(&self, r#move: MoveArg) -> PyResult<bool> {
        Ok(self.check_legal(r#move.get()?).is_ok())
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
        draw(&self.board, self.player)
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

    fn __getnewargs__(&self) -> (Vec<Vec<i64>>, Vec<String>, String) {
        (self.values(), self.cells(), self.to_move())
    }
}

impl PyPosition {
    /// Why `mv` is not legal here, if it is not.
    fn check_legal(&self, mv: RustMove) -> PyResult<()> {
        let (board, p) = (&self.board, self.player);
        let n = board.n();
        let cell = mv.cell_name();
        if board.is_full() {
            return Err(value_error(PositionError::Full));
        }
        if mv.row() >= n || mv.col() >= n {
            return Err(value_error(format!("{cell} is off the {n}x{n} board")));
        }
        if board.square(mv.row(), mv.col()) != Square::Empty {
            return Err(value_error(format!("{mv} is not legal: {cell} is taken")));
        }
        if mv.kind() == MoveKind::Raid && board.raid_row(p, mv.row()) & (1 << mv.col()) == 0 {
            return Err(value_error(format!(
                "{mv} is not legal: a Raid needs a piece of {} next to {cell}",
                p.symbol()
            )));
        }
        Ok(())
    }

    fn api_position(&self) -> PyResult<api::Position> {
        api::Position::new(self.board.clone(), self.player).map_err(value_error)
    }
}

/// The position `grid` describes, checked by the library; unlike
/// `api::Position`, a full board is allowed (the game is over there).
fn from_grid(grid: &Grid) -> Result<PyPosition, PositionError> {
    match api::Position::from_grid(grid) {
        Ok(p) => Ok(PyPosition {
            board: p.board().clone(),
            player: p.player(),
        }),
        // Fullness is checked last, so everything else has passed.
        Err(PositionError::Full) => {
            let n = grid.values.len();
            let values: Vec<i32> = grid.values.iter().flatten().map(|&v| v as i32).collect();
            let mut board = Board::new(n, &values);
            for (r, row) in grid.cells.iter().enumerate() {
                for (c, ch) in row.chars().enumerate() {
                    let p = if ch == 'X' { Player::X } else { Player::O };
                    board.set(r, c, Square::Piece(p));
                }
            }
            let player = match grid.player.as_str() {
                "X" | "x" => Player::X,
                _ => Player::O,
            };
            Ok(PyPosition { board, player })
        }
        Err(e) => Err(e),
    }
}

fn draw(board: &Board, player: Player) -> String {
    let n = board.n();
    let width = (0..n * n)
        .map(|i| board.value(i / n, i % n).to_string().len())
        .max()
        .unwrap_or(1);
    // Each cell is its owner's mark followed by its value; the column
    // letter stands above the mark.
    let mut s = String::from("   ");
    for c in 0..n {
        s.push_str(&format!("  {}{:width$}", (b'A' + c as u8) as char, ""));
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for r in 0..n {
        s.push_str(&format!("{:>3}", r + 1));
        for c in 0..n {
            let mark = match board.square(r, c) {
                Square::Empty => '.',
                Square::Piece(p) => p.symbol(),
            };
            s.push_str(&format!("  {mark}{:>width$}", board.value(r, c)));
        }
        s.push('\n');
    }
    let score = board.score(Player::X);
    if board.is_full() {
        s.push_str(&format!("game over, score for X {score:+}"));
    } else {
        s.push_str(&format!(
            "{} to move, score for X {score:+}",
            player.symbol()
        ));
    }
    s
}

/// A flag that stops the searches it is passed to (`stop=`), from any
/// thread. Setting it stops every search that holds it, now and later,
/// until `reset()`.
#[pyclass(name = "StopToken", module = "stakeraid", frozen)]
pub struct StopToken(Arc<AtomicBool>);

#[pymethods]
impl StopToken {
    #[new]
    fn new() -> Self {
        StopToken(Arc::new(AtomicBool::new(false)))
    }

    /// Asks every search holding this token to stop; each returns promptly
    /// with its deepest completed depth.
    fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clears the flag, so that the token can serve a new search.
    fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// True once `stop()` was called (and not reset).
    #[getter]
    fn stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn __repr__(&self) -> String {
        format!(
            "StopToken(stopped={})",
            if self.stopped() { "True" } else { "False" }
        )
    }
}

/// One root move with what the search proved about its value.
#[pyclass(name = "RootMove", module = "stakeraid", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PyRootMove(api::RootMove);

#[pymethods]
impl PyRootMove {
    /// The move.
    #[getter]
    fn r#move(&self) -> PyMove {
        PyMove(self.0.mv)
    }

    /// Its value for the player to move, or an upper bound of it.
    #[getter]
    fn value(&self) -> i64 {
        self.0.value
    }

    /// `"exact"`, or `"upper"` where the search only proved the value is at
    /// most `value` (the move is not chosen).
    #[getter]
    fn bound(&self) -> &'static str {
        match self.0.bound {
            api::Bound::Exact => "exact",
            api::Bound::Upper => "upper",
            api::Bound::Lower => "lower",
        }
    }

    fn __repr__(&self) -> String {
        let op = match self.0.bound {
            api::Bound::Exact => "",
            api::Bound::Upper => "<=",
            api::Bound::Lower => ">=",
        };
        format!("RootMove({} {op}{})", self.0.mv, self.0.value)
    }
}

/// The result of `analyse`; every value is the game score from `player`'s
/// point of view at the depth searched.
#[pyclass(name = "Analysis", module = "stakeraid", frozen)]
pub struct PyAnalysis(api::Analysis);

#[pymethods]
impl PyAnalysis {
    /// The player to move, `"X"` or `"O"`.
    #[getter]
    fn player(&self) -> String {
        player_name(self.0.player)
    }

    /// `"MINIMAX"` or `"ALPHABETA"`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.0.mode.name()
    }

    /// The chosen move: the first in canonical order whose value is maximal.
    #[getter]
    fn best(&self) -> PyMove {
        PyMove(self.0.best)
    }

    /// The chosen move's value (exact at `depth`).
    #[getter]
    fn value(&self) -> i64 {
        self.0.value
    }

    /// The board after `best`, one string per row.
    #[getter]
    fn board(&self) -> Vec<String> {
        self.0.board.clone()
    }

    /// Every legal root move in canonical order with its value and bound.
    #[getter]
    fn moves(&self) -> Vec<PyRootMove> {
        self.0.moves.iter().copied().map(PyRootMove).collect()
    }

    /// The principal variation, `best` first.
    #[getter]
    fn pv(&self) -> Vec<PyMove> {
        self.0.pv.iter().copied().map(PyMove).collect()
    }

    /// The depth the answer comes from.
    #[getter]
    fn depth(&self) -> u32 {
        self.0.depth
    }

    /// The depth asked for, capped at the number of empty cells.
    #[getter]
    fn requested_depth(&self) -> u32 {
        self.0.requested_depth
    }

    /// True when `best` and `value` are the exact answer at `requested_depth`.
    #[getter]
    fn exact(&self) -> bool {
        self.0.exact
    }

    /// True when a stop or the time limit cut some work short.
    #[getter]
    fn stopped(&self) -> bool {
        self.0.stopped
    }

    /// Positions searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.0.nodes
    }

    /// Wall time of the search in microseconds.
    #[getter]
    fn time_us(&self) -> u64 {
        self.0.time_us
    }

    /// The text of `output.txt`: the move line, then the board after it.
    fn output_text(&self) -> String {
        self.0.output_text()
    }

    /// The root moves best first (by value, exact before bounds, then
    /// canonical order); the chosen move is first.
    fn ranked(&self) -> Vec<PyRootMove> {
        self.0.ranked().into_iter().map(PyRootMove).collect()
    }

    /// The analysis as the JSON object of `stakeraid solve --json`.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.0).map_err(value_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "Analysis(best={}, value={}, depth={}, exact={}, nodes={})",
            self.0.best,
            self.0.value,
            self.0.depth,
            if self.0.exact { "True" } else { "False" },
            self.0.nodes
        )
    }
}

fn search_mode(mode: &str) -> PyResult<SearchMode> {
    match mode.to_ascii_uppercase().as_str() {
        "MINIMAX" => Ok(SearchMode::Minimax),
        "ALPHABETA" => Ok(SearchMode::AlphaBeta),
        "COMPETITION" => Err(value_error(api::ApiError::NotExact("COMPETITION"))),
        _ => Err(value_error(format!(
            "unknown mode {mode:?} (expected MINIMAX or ALPHABETA)"
        ))),
    }
}

fn thread_count(threads: i64) -> PyResult<usize> {
    usize::try_from(threads).map_err(|_| {
        value_error(format!(
            "threads must be 0 (one per core) or more, got {threads}"
        ))
    })
}

/// Analyses `position`: the move the textbook search chooses, its value,
/// every root move's value and the principal variation.
///
/// `mode` is `"ALPHABETA"` (moves proved not chosen may carry only an
/// upper bound) or `"MINIMAX"` (every root value exact); both choose the
/// same move. Give `depth` (plies, at least 1), `time` (wall seconds) or
/// both. `threads=0` uses one per core. `stop`, a `StopToken`, stops the
/// search from another thread. The interpreter is released while it runs.
#[pyfunction]
#[pyo3(signature = (position, mode = "ALPHABETA", depth = None, time = None, threads = 0, stop = None))]
fn analyse(
    py: Python<'_>,
    position: &PyPosition,
    mode: &str,
    depth: Option<i64>,
    time: Option<f64>,
    threads: i64,
    stop: Option<&StopToken>,
) -> PyResult<PyAnalysis> {
    let depth = match depth {
        None => None,
        Some(d) if d < 1 => return Err(value_error(api::ApiError::ZeroDepth)),
        Some(d) => Some(u32::try_from(d).unwrap_or(u32::MAX)),
    };
    let time = match time {
        None => None,
        Some(t) if t.is_nan() || t < 0.0 => {
            return Err(value_error(format!(
                "time must be a number of seconds >= 0, got {t}"
            )))
        }
        // Too long for a Duration is as good as no limit.
        Some(t) => Some(Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX)),
    };
    let limits = Limits {
        mode: search_mode(mode)?,
        depth,
        time,
        threads: thread_count(threads)?,
        stop: stop.map(|s| s.0.clone()),
    };
    let position = position.api_position()?;
    py.detach(|| api::analyse(&position, &limits))
        .map(PyAnalysis)
        .map_err(value_error)
}

/// The text of `output.txt` for the text of an `input.txt`, byte for byte
/// what the `stakeraid` command writes (COMPETITION inputs included).
/// Raises `ValueError` naming the line and the reason on a bad input.
#[pyfunction]
#[pyo3(signature = (input_text, threads = 0))]
fn solve_text(py: Python<'_>, input_text: &str, threads: i64) -> PyResult<String> {
    let problem = parse_problem(input_text.as_bytes()).map_err(value_error)?;
    let options = SolveOptions {
        threads: thread_count(threads)?,
        ..SolveOptions::default()
    };
    Ok(py.detach(|| solve(&problem, &options).text))
}

/// The competition engine's move for the player to move, with
/// `seconds_left` CPU seconds for all of that player's remaining moves
/// (it spends a share of them on this move, never all).
#[pyfunction]
#[pyo3(signature = (position, seconds_left, threads = 0))]
fn competition_move(
    py: Python<'_>,
    position: &PyPosition,
    seconds_left: f64,
    threads: i64,
) -> PyResult<PyMove> {
    if !(seconds_left.is_finite() && seconds_left >= 0.0) {
        return Err(value_error(format!(
            "seconds_left must be a finite number >= 0, got {seconds_left}"
        )));
    }
    let position = position.api_position()?;
    // The engine runs inside this process: no start-up per move to set aside.
    let options = CompetitionOptions {
        threads: thread_count(threads)?,
        overhead: competition::IN_PROCESS_OVERHEAD,
        ..CompetitionOptions::default()
    };
    let played = py
        .detach(|| competition::play(position.board(), position.player(), seconds_left, &options));
    Ok(PyMove(played.best))
}

/// Panics in Rust: lets the tests check that a panic reaches Python as an
/// exception instead of aborting the interpreter.
#[pyfunction]
fn _panic_for_tests(message: &str) {
    panic!("{message}");
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<StopToken>()?;
    m.add_class::<PyRootMove>()?;
    m.add_class::<PyAnalysis>()?;
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add_function(wrap_pyfunction!(solve_text, m)?)?;
    m.add_function(wrap_pyfunction!(competition_move, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    Ok(())
}

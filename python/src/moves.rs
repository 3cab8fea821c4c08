//! `Move`: a target cell and a kind, and the action indices of the
//! environment.

use std::cmp::Ordering;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyString};

use stakeraid::{Move as RustMove, MoveKind, MAX_N};

use crate::errors::value_error;

/// A move: a target cell and a kind, printed as in `output.txt`.
///
/// `Move("C3", "Raid")`, `Move.parse("C3 Raid")` (case and spacing are
/// free); `str(move)` gives `"C3 Raid"` back, and a move is equal to that
/// text (`move == "C3 Raid"`; not to another spelling, such as
/// `"c3 raid"`), and hashes as it does. Moves are immutable and hashable,
/// and order as the legal moves are listed: every Stake before every Raid,
/// each kind row-major.
#[pyclass(name = "Move", module = "stakeraid", frozen, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove(pub(crate) RustMove);

impl PyMove {
    /// Where this move stands in the canonical order.
    fn rank(&self) -> (bool, usize, usize) {
        (self.0.kind() == MoveKind::Raid, self.0.row(), self.0.col())
    }

    /// The move `arg` names: a `Move`, or its text.
    pub(crate) fn from_arg(arg: &Bound<'_, PyAny>) -> PyResult<RustMove> {
        if let Ok(mv) = arg.extract::<PyMove>() {
            return Ok(mv.0);
        }
        if let Ok(text) = arg.extract::<String>() {
            return PyMove::parse(&text).map(|m| m.0);
        }
        let type_name = arg.get_type().name()?;
        Err(PyTypeError::new_err(format!(
            "a move is a Move or its text, such as \"C3 Raid\"; got {type_name}"
        )))
    }
}

impl PartialOrd for PyMove {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PyMove {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

#[pymethods]
impl PyMove {
    #[new]
    fn new(cell: &str, kind: &str) -> PyResult<Self> {
        Self::parse(&format!("{cell} {kind}"))
    }

    /// Reads `"C3 Stake"` / `"c3 raid"` / `"Z26 Raid"`.
    #[staticmethod]
    pub(crate) fn parse(text: &str) -> PyResult<Self> {
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
                "action index {index} is out of range: a {n}x{n} board has actions 0 to {}",
                2 * cells - 1
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

    /// Moves compare in the canonical order; a move is `==` to its text as
    /// `str` writes it, as the JSON of an analysis names it, and to no
    /// other string (a string that equals it must hash as it does, and
    /// `"c3 raid"` hashes apart from `"C3 Raid"`).
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let answer = if let Ok(other) = other.extract::<PyMove>() {
            op.matches(self.cmp(&other))
        } else if let (CompareOp::Eq | CompareOp::Ne, Ok(text)) = (op, other.extract::<String>()) {
            (text == self.0.to_string()) == matches!(op, CompareOp::Eq)
        } else {
            return py.NotImplemented();
        };
        PyBool::new(py, answer).to_owned().into_any().unbind()
    }

    /// The hash of its text, which it is `==` to.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, &self.0.to_string()).hash()
    }

    /// Pickles as its constructor's arguments, under every protocol (a
    /// `__getnewargs__` alone serves only protocol 2 and above).
    fn __reduce__(slf: &Bound<'_, Self>) -> (Py<PyAny>, (String, &'static str)) {
        let mv = slf.get().0;
        (
            slf.get_type().into_any().unbind(),
            (mv.cell_name(), mv.kind().name()),
        )
    }
}

pub(crate) fn check_size(size: i64) -> PyResult<usize> {
    match usize::try_from(size) {
        Ok(n) if (1..=MAX_N).contains(&n) => Ok(n),
        _ => Err(value_error(format!(
            "board size must be 1 to {MAX_N}, got {size}"
        ))),
    }
}

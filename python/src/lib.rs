//! Python bindings of the `stakeraid` library (`stakeraid._core`): positions
//! and moves, the exact analysis (of one position or a batch), the grader's answer, the competition move
//! and the homework grader. The pure-Python package around it re-exports
//! everything here and adds the PettingZoo environment.
//!
//! Every search runs with the interpreter released (`Python::detach`), so
//! other Python threads keep running and can stop it through a
//! [`StopToken`](stop::StopToken). Library errors become `ValueError` with
//! the library's message; a Rust panic becomes
//! `pyo3_runtime.PanicException` (the crate is built with
//! `panic = "unwind"` for that).

use pyo3::prelude::*;

// The search tables are allocated zeroed and 64-byte aligned. The system
// allocator serves such a request with `posix_memalign` and then clears
// every byte, touching the whole table (up to 1 GiB) before the search
// starts and keeping it resident; mimalloc keeps a freed table and clears
// the next one by hand, every page (seconds, before a time-limited search
// looks at its clock). So the tables are mappings of their own, fresh
// pages the kernel zeroes when first touched (`stakeraid::mapped`), and
// mimalloc serves the rest. The allocator serves only this module's Rust
// allocations: memory never passes between it and the interpreter's.
#[global_allocator]
static GLOBAL: stakeraid::mapped::Mapped<mimalloc::MiMalloc> =
    stakeraid::mapped::Mapped(mimalloc::MiMalloc);

mod analysis;
mod batch;
mod errors;
mod grade;
mod interrupt;
mod moves;
mod position;
mod solve;
mod split;
mod stop;

/// Panics in Rust: lets the tests check that a panic reaches Python as an
/// exception instead of aborting the interpreter.
#[pyfunction]
fn _panic_for_tests(message: &str) {
    panic!("{message}");
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<stop::StopToken>()?;
    m.add_class::<analysis::PyRootMove>()?;
    m.add_class::<analysis::PyAnalysis>()?;
    m.add_function(wrap_pyfunction!(analysis::analyse, m)?)?;
    m.add_function(wrap_pyfunction!(batch::analyse_batch, m)?)?;
    m.add("BatchError", m.py().get_type::<batch::BatchError>())?;
    m.add_function(wrap_pyfunction!(solve::solve_text, m)?)?;
    m.add_function(wrap_pyfunction!(solve::competition_move, m)?)?;
    m.add_class::<split::PySplitSolve>()?;
    m.add_function(wrap_pyfunction!(split::run_job, m)?)?;
    m.add_function(wrap_pyfunction!(split::home_plies_for, m)?)?;
    m.add_function(wrap_pyfunction!(grade::grade_json, m)?)?;
    m.add_function(wrap_pyfunction!(grade::grade_cases_json, m)?)?;
    m.add_function(wrap_pyfunction!(grade::judge_output_json, m)?)?;
    m.add_function(wrap_pyfunction!(grade::shrink_json, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    // `eq` gives a class the comparison slot, and with it the wrappers of
    // all six comparisons, which `help()` then lists; these classes have no
    // order, so `<` raises and its wrappers would only mislead.
    for class in ["Position", "RootMove"] {
        let class = m.getattr(class)?;
        for op in ["__lt__", "__le__", "__gt__", "__ge__"] {
            class.delattr(op)?;
        }
    }
    Ok(())
}

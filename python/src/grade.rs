//! The grader: its cases, the verdict on an `output.txt`, the shrinker and
//! a whole grade, each answering in the JSON the command line writes (the
//! Python package turns it into dicts and lists).

use std::path::PathBuf;
use std::time::Duration;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use serde_json::{json, Value};

use stakeraid::grade::{
    self, Case, CaseKind, CaseSettings, GradeBy, GradeSettings, Program, RunSettings,
};
use stakeraid::parse_problem;
use stakeraid::sandbox::{SandboxMode, SandboxSettings};

use crate::errors::{thread_count, value_error};

/// A time limit in seconds from Python: above 0, at most 1e9.
fn time_limit(seconds: f64) -> PyResult<Duration> {
    self::seconds("time_limit", seconds)
}

/// The seconds of the argument `name`: above 0, at most 1e9.
fn seconds(name: &str, seconds: f64) -> PyResult<Duration> {
    if seconds.is_finite() && seconds > 0.0 && seconds <= 1e9 {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(value_error(format!(
            "{name} must be seconds above 0 and at most 1e9, got {seconds}"
        )))
    }
}

/// The program a Python caller names: a shell command (`str`, `cmd:`
/// optional), or a program and its arguments (a list), checked. A list's
/// words that name files of the current folder are made absolute, as on
/// the command line after `--`; a string is run by `sh` as written, so a
/// relative path in it is refused rather than rewritten inside shell text.
fn program(command: &Bound<'_, PyAny>) -> PyResult<Program> {
    if let Ok(text) = command.extract::<String>() {
        let program = Program::shell(text.strip_prefix("cmd:").unwrap_or(&text));
        program.check().map_err(|e| {
            let hint = if e.problem.contains("current folder") {
                " (or pass a list, such as ['python3', 'prog.py'], whose relative paths \
                 are made absolute)"
            } else {
                ""
            };
            value_error(format!("{e}{hint}"))
        })?;
        return Ok(program);
    }
    let args: Vec<String> = command.extract()?;
    let cwd = std::env::current_dir()?;
    let program = Program::from_args(&args, &cwd).ok_or_else(|| value_error("no program given"))?;
    program.check().map_err(value_error)?;
    Ok(program)
}

/// The sandbox a Python caller asks for: `(mode, memory_mb, processes)`,
/// as `stakeraid grade --sandbox --memory-mb --processes`.
type Boxing = (String, u64, u32);

/// `program` in the sandbox `boxing` asks for, showing it none of `hidden`.
fn sandboxed(program: Program, boxing: Boxing, hidden: &[PathBuf]) -> PyResult<Program> {
    let (mode, memory_mb, processes) = boxing;
    let mode: SandboxMode = mode
        .parse()
        .map_err(|e| value_error(format!("sandbox: {e}")))?;
    if memory_mb < 16 || processes < 1 {
        return Err(value_error(
            "memory_mb must be at least 16 and processes at least 1",
        ));
    }
    let settings = SandboxSettings {
        mode,
        memory_mb,
        processes,
        ..SandboxSettings::default()
    };
    program.sandboxed(settings, hidden).map_err(value_error)
}

fn to_json(value: &Value) -> PyResult<String> {
    serde_json::to_string(value).map_err(value_error)
}

/// A case as JSON: its name, kind, size, texts, textbook cost and every
/// root move's exact value.
fn case_json(case: &Case) -> Value {
    json!({
        "name": case.name,
        "kind": case.kind,
        "summary": case.summary(),
        "size": case.size(),
        "input": case.input,
        "expected": case.expected,
        "textbook_nodes": case.textbook_nodes,
        "textbook_seconds": grade::textbook_seconds(case.problem.board.n(), case.textbook_nodes),
        "root_values": case.analysis.moves.iter()
            .map(|m| (m.mv.to_string(), m.value))
            .collect::<Vec<_>>(),
    })
}

/// The case of an `input.txt` text (MINIMAX or ALPHABETA).
fn input_case(input_text: &str) -> PyResult<Case> {
    let problem = parse_problem(input_text.as_bytes()).map_err(value_error)?;
    Case::new("input".into(), CaseKind::Given, problem).map_err(value_error)
}

/// The cases a seed gives, as a JSON list.
#[pyfunction]
#[pyo3(signature = (seed = 1, count = 50, time_limit = 10.0))]
pub(crate) fn grade_cases_json(
    py: Python<'_>,
    seed: u64,
    count: usize,
    time_limit: f64,
) -> PyResult<String> {
    let settings = CaseSettings {
        seed,
        count,
        time_limit: self::time_limit(time_limit)?,
    };
    let cases = py.detach(|| grade::generate_cases(&settings));
    to_json(&Value::Array(cases.iter().map(case_json).collect()))
}

/// The verdict on the bytes of an `output.txt` written for an `input.txt`.
#[pyfunction]
pub(crate) fn judge_output_json(
    py: Python<'_>,
    input_text: &str,
    output: &[u8],
) -> PyResult<String> {
    let case = input_case(input_text)?;
    let verdict = py.detach(|| grade::judge_output(&case, output));
    to_json(&json!({ "failure": verdict.failure(), "verdict": verdict }))
}

/// Runs the program on an `input.txt` and, if it fails, searches for a
/// smaller input failing the same way.
#[pyfunction]
#[pyo3(signature = (command, input_text, time_limit = 10.0, max_runs = 60, max_seconds = 60.0,
                    sandbox = ("auto".to_owned(), 1024, 512)))]
pub(crate) fn shrink_json(
    py: Python<'_>,
    command: &Bound<'_, PyAny>,
    input_text: &str,
    time_limit: f64,
    max_runs: usize,
    max_seconds: f64,
    sandbox: Boxing,
) -> PyResult<String> {
    let program = sandboxed(program(command)?, sandbox, &[])?;
    let budget = grade::ShrinkBudget {
        runs: max_runs,
        time: seconds("max_seconds", max_seconds)?,
    };
    let case = input_case(input_text)?;
    let settings = RunSettings {
        time_limit: self::time_limit(time_limit)?,
    };
    let result = py.detach(|| -> std::io::Result<Value> {
        let (run, verdict, _) = grade::judge_case(&program, &case, &settings)?;
        let shrunk = match verdict.failure() {
            None => None,
            Some(_) => {
                Some(grade::shrink(&program, &case, &run, &verdict, &settings, &budget)?.summary())
            }
        };
        Ok(json!({ "failure": verdict.failure(), "verdict": verdict, "shrunk": shrunk }))
    });
    to_json(&result.map_err(|e| PyOSError::new_err(e.to_string()))?)
}

/// Which cases `grade_json` runs: the seed, their number, the folder and
/// what its cases are graded by (`stakeraid.grade`'s `seed`, `cases`,
/// `cases_from`, `expected`).
type Selection = (u64, Option<usize>, Option<PathBuf>, String);

/// How `grade_json` runs them: the time limit, the jobs, and the shrinker's
/// runs and seconds (`time_limit`, `jobs`, `shrink_runs`, `shrink_time`).
type Limits = (f64, i64, usize, f64);

/// A whole grade, as the JSON report of `stakeraid grade --json`. The
/// settings come grouped as `stakeraid.grade` passes them, every one given.
#[pyfunction]
pub(crate) fn grade_json(
    command: &Bound<'_, PyAny>,
    selection: Selection,
    limits: Limits,
    sandbox: Boxing,
) -> PyResult<String> {
    let (seed, cases, cases_from, expected) = selection;
    let (time_limit, jobs, shrink_runs, shrink_time) = limits;
    let py = command.py();
    let by: GradeBy = expected
        .parse()
        .map_err(|e| value_error(format!("expected: {e}")))?;
    let hidden: Vec<PathBuf> = cases_from.iter().cloned().collect();
    let program = sandboxed(program(command)?, sandbox, &hidden)?;
    let limit = self::time_limit(time_limit)?;
    if cases == Some(0) {
        return Err(value_error("cases must be at least 1"));
    }
    let (list, source) = py
        .detach(|| grade::select_cases(cases_from.as_deref(), by, seed, cases, limit))
        .map_err(value_error)?;
    let settings = GradeSettings {
        run: RunSettings { time_limit: limit },
        jobs: thread_count(jobs)?,
        shrink_runs,
        shrink_time: seconds("shrink_time", shrink_time)?,
    };
    let mut report = py
        .detach(|| grade::grade(&program, &list, &settings, &|_| {}))
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    report.source = source;
    serde_json::to_string(&report).map_err(value_error)
}

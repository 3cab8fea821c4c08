//! Grading a homework program the way the course's script does: on each of
//! its cases (50 by default), write `input.txt` in a fresh folder, run the
//! program there with no arguments, and compare the `output.txt` it writes
//! with the exact answer. Unlike that script, the grader says why each
//! miss is one ([`Verdict`]), shrinks each kind of failure to a small input
//! a person can check by hand ([`shrink`]), and scores as the assignment
//! does ([`Score`]).
//!
//! ```no_run
//! use std::time::Duration;
//! use stakeraid::grade::{generate_cases, grade, CaseSettings, GradeSettings, Program, RunSettings};
//!
//! let time_limit = Duration::from_secs(10);
//! let cases = generate_cases(&CaseSettings { seed: 1, count: 50, time_limit });
//! let program = Program::shell("python3 /home/me/homework.py");
//! program.check()?;
//! let settings = GradeSettings {
//!     run: RunSettings { time_limit },
//!     jobs: 0,
//!     shrink_runs: 60,
//!     shrink_time: Duration::from_secs(60),
//! };
//! let report = grade(&program, &cases, &settings, &|_| {})?;
//! println!("{}", report.strict.rule);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Cases come from a seed ([`generate_cases`]: course-style random
//! positions and the positions that catch common mistakes, each cheap
//! enough for a plain textbook Python program within a quarter of the time
//! limit) or from a folder of `input.txt` / `output.txt` pairs
//! ([`cases_from_dir`]). Runs go through the referee's process handling:
//! the whole process group is killed after each run, and the CPU time of
//! the tree is limited and charged. Running cases in parallel (`jobs`)
//! changes no verdict: each case has its own folder and its own limits.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

mod cases;
mod folder;
mod report;
mod run;
mod shrink;
mod verdict;

pub use crate::search::bug_models::Bug;
pub use cases::{
    generate_cases, textbook_nodes, textbook_seconds, Case, CaseKind, CaseSettings, CaseSize,
    Dispute, GradeBy, ASSIGNMENT_CASES,
};
pub use folder::{cases_from_dir, select_cases, CasesError};
pub use report::{gradescope_json, CaseResult, GradeReport, Score, Visibility};
pub use run::{run_case, CaseRun, Program, RunSettings, MAX_FILE_BYTES};
pub use shrink::{shrink, ShrinkBudget, Shrunk, ShrunkSummary, Stopped};
pub use verdict::{
    judge, judge_output, with_other_mode, CellDiff, Failure, Miss, Spacing, Verdict,
};

/// How a program is graded: its runs' limits, how many run at once, and
/// the runs the shrinker may spend on each kind of failure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradeSettings {
    /// The limits of each run.
    pub run: RunSettings,
    /// Cases run at once; 0: one per core.
    pub jobs: usize,
    /// Program runs the shrinker may spend on each kind of failure (0: no
    /// shrinking).
    pub shrink_runs: usize,
    /// Wall-clock time the shrinker may spend on each kind of failure.
    pub shrink_time: Duration,
}

impl GradeSettings {
    /// What the shrinker may spend on each kind of failure.
    pub fn shrink_budget(&self) -> ShrinkBudget {
        ShrinkBudget {
            runs: self.shrink_runs,
            time: self.shrink_time,
        }
    }
}

/// Runs `program` on `case` and judges the run; a wrong move explained
/// only as a faulty search is checked against the program's answer in the
/// other mode (a second run). Returns the first run, the verdict and the
/// number of runs made.
pub fn judge_case(
    program: &Program,
    case: &Case,
    settings: &RunSettings,
) -> io::Result<(CaseRun, Verdict, usize)> {
    let run = run_case(program, &case.input, settings)?;
    let verdict = judge(case, &run, settings.time_limit);
    if !matches!(
        verdict,
        Verdict::WrongMove {
            miss: Miss::Search,
            ..
        }
    ) {
        return Ok((run, verdict, 1));
    }
    let other = case.other_mode();
    let other_run = run_case(program, &other.input, settings)?;
    let other_verdict = judge(&other, &other_run, settings.time_limit);
    Ok((run, with_other_mode(verdict, &other, &other_verdict), 2))
}

/// Grades `program` on `cases`: every case run and judged (`on_case` is
/// called as each one is, from a worker thread), then the first failing
/// case of each kind of failure shrunk, then the scores. The error is the
/// grader's own trouble (a temporary folder or `sh` that cannot be made or
/// started), never the program's.
pub fn grade(
    program: &Program,
    cases: &[Case],
    settings: &GradeSettings,
    on_case: &(dyn Fn(&CaseResult) + Sync),
) -> io::Result<GradeReport> {
    let jobs = match settings.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        jobs => jobs,
    };
    let judged = par_map(cases, jobs, |case| {
        let (run, verdict, _) = judge_case(program, case, &settings.run)?;
        let result = CaseResult::new(case, &run, verdict);
        on_case(&result);
        Ok((run, result))
    })?;
    // Timeouts are not shrunk: each try could cost the whole time limit. A
    // disputed case is the folder's fault: a smaller input has no folder.
    let mut firsts: Vec<(Failure, usize)> = Vec::new();
    for (i, (_, result)) in judged.iter().enumerate() {
        let shrinkable = |f: &Failure| !matches!(f, Failure::Timeout | Failure::Disputed);
        if let Some(f) = result.verdict.failure().filter(shrinkable) {
            if !firsts.iter().any(|&(g, _)| g == f) {
                firsts.push((f, i));
            }
        }
    }
    let shrunk = if settings.shrink_runs == 0 {
        Vec::new()
    } else {
        par_map(&firsts, jobs, |&(_, i)| {
            let (run, result) = &judged[i];
            shrink(
                program,
                &cases[i],
                run,
                &result.verdict,
                &settings.run,
                &settings.shrink_budget(),
            )
        })?
    };
    let results: Vec<CaseResult> = judged.into_iter().map(|(_, r)| r).collect();
    Ok(GradeReport::new(program, settings, results, &shrunk))
}

/// `f` over `items` on `jobs` threads, the results in the items' order;
/// the first error (in that order) if any. Plain threads, not rayon: each
/// item mostly waits on a program it runs, and a rayon worker waiting on
/// the engine's own pool may take up another item meanwhile.
fn par_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> io::Result<R> + Sync,
) -> io::Result<Vec<R>> {
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<io::Result<R>>> = (0..items.len()).map(|_| None).collect();
    let done = std::sync::Mutex::new(&mut slots);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                done.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|r| r.expect("every item is mapped"))
        .collect()
}

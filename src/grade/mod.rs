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
mod diagnosis;
mod experiment;
mod folder;
mod gate;
mod kept;
mod models;
mod report;
mod result;
mod run;
mod shrink;
mod verdict;

pub use cases::{
    generate_cases, Case, CaseKind, CaseSettings, CaseSize, Dispute, GradeBy, ASSIGNMENT_CASES,
};
pub use diagnosis::{Diagnosis, Experiment, Outside, Suspect};
pub use folder::{cases_from_dir, select_cases, CasesError};
pub use gate::{GatePlace, RunGate, Slot};
pub use models::{textbook_nodes, textbook_seconds, Bug, Convention, Restriction};
pub use report::{gradescope_json, GradeReport, Score, Visibility};
pub use result::CaseResult;
pub use run::{run_case, sh_quote, CaseRun, Program, RunSettings, MAX_FILE_BYTES};
pub use shrink::{shrink, shrink_toward, ShrinkBudget, Shrunk, ShrunkSummary, Stopped};
pub use verdict::{
    judge, judge_output, model_output, with_other_mode, CellDiff, Failure, Miss, Model, Models,
    Spacing, Verdict,
};
// Why a GradeBy or a Visibility could not be read from text.
pub use cases::UnknownGradeBy;
pub use report::UnknownVisibility;

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

/// Runs `program` on `case` and judges the run; a wrong move no bug model
/// writes is checked against the program's answer in the other mode (a
/// second run). Returns the first run, the verdict and the
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
            miss: Miss::Unexplained,
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
/// called as each one is, from a worker thread), then the diagnosis across
/// cases (the bugs whose models write every wrong output, checked against
/// the passing cases only when some case failed), then one case of each
/// kind of failure shrunk, then the scores. The error is the grader's own
/// trouble (a temporary folder or `sh` that cannot be made or started),
/// never the program's.
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
    let results: Vec<&CaseResult> = judged.iter().map(|(_, r)| r).collect();
    let mut diagnosis = diagnose(cases, &results, jobs)?;
    if let Some(d) = diagnosis.as_mut() {
        experiment::settle(program, &settings.run, d)?;
    }
    let named = diagnosis.as_ref().map(Diagnosis::named).unwrap_or_default();
    // Timeouts are not shrunk: each try could cost the whole time limit. A
    // disputed case is the folder's fault: a smaller input has no folder.
    // A failure the diagnosed bugs write starts from the case where they
    // are nearest to alone, and its smaller inputs keep them writing it.
    let mut firsts: Vec<(Failure, usize)> = Vec::new();
    for (i, result) in results.iter().enumerate() {
        let shrinkable = |f: &Failure| !matches!(f, Failure::Timeout | Failure::Disputed);
        if let Some(f) = result.verdict.failure().filter(shrinkable) {
            if !firsts.iter().any(|&(g, _)| g == f) {
                firsts.push((f, shown_best(&results, f, &named).unwrap_or(i)));
            }
        }
    }
    let shrunk = if settings.shrink_runs == 0 {
        Vec::new()
    } else {
        par_map(&firsts, jobs, |&(_, i)| {
            let (run, result) = &judged[i];
            let toward = match result.verdict.models() {
                Some(m) if named.iter().all(|b| m.reproduced_by.contains(b)) => &named[..],
                _ => &[],
            };
            shrink_toward(
                program,
                &cases[i],
                run,
                &result.verdict,
                &settings.run,
                &settings.shrink_budget(),
                toward,
            )
        })?
    };
    let results: Vec<CaseResult> = judged.into_iter().map(|(_, r)| r).collect();
    Ok(GradeReport::new(
        program, settings, results, &shrunk, diagnosis,
    ))
}

/// The diagnosis of `results` (the cases' results, in order): the
/// suspects of the failing cases, each checked on the passing cases (the
/// restricted ones only when no bug stands everywhere); no model runs when
/// no case failed with an output.
fn diagnose(cases: &[Case], results: &[&CaseResult], jobs: usize) -> io::Result<Option<Diagnosis>> {
    let verdicts: Vec<&Verdict> = results.iter().map(|r| &r.verdict).collect();
    let passed: Vec<&Case> = cases
        .iter()
        .zip(&verdicts)
        .filter(|(_, v)| diagnosis::wrote_the_answer(v))
        .map(|(c, _)| c)
        .collect();
    // The bugs everywhere first; restricted ones only when none stands,
    // as the diagnosis names them only then, or when one standing is a bug
    // of one mode (the textbook in the other): a restricted bug in effect,
    // with no more claim than the others to be named alone.
    let (everywhere, restricted): (Vec<_>, Vec<_>) = diagnosis::suspects(cases, &verdicts)
        .into_iter()
        .partition(|&(_, _, r)| r.is_none());
    let mut standing: Vec<diagnosis::Candidate> = Vec::new();
    for suspects in [everywhere, restricted] {
        // The bug of one mode restricted to that mode is the same model.
        let suspects: Vec<_> = suspects
            .into_iter()
            .filter(|&(b, c, r)| {
                r.is_none() || !standing.contains(&(b, c, None)) || models::shows_only(b, c) != r
            })
            .collect();
        let ruled_out = if suspects.is_empty() {
            Vec::new()
        } else {
            par_map(&passed, jobs, |case| {
                Ok(diagnosis::ruled_out_by_pass(case, &suspects))
            })?
        };
        standing.extend(
            suspects
                .into_iter()
                .filter(|b| !ruled_out.iter().any(|out| out.contains(b))),
        );
        let of_one_mode =
            |&(b, c, r): &diagnosis::Candidate| r.is_none() && models::shows_only(b, c).is_some();
        if !standing.is_empty() && !standing.iter().any(of_one_mode) {
            break;
        }
    }
    Ok(Diagnosis::new(cases, results, &standing))
}

/// The case failing as `failure` that shows the bugs `named` best: every
/// one of them writes its output, with the fewest other models, then the
/// smallest; `None` when no such case (or no bug named).
fn shown_best(results: &[&CaseResult], failure: Failure, named: &[Bug]) -> Option<usize> {
    if named.is_empty() {
        return None;
    }
    results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.verdict.failure() == Some(failure))
        .filter_map(|(i, r)| {
            let m = r.verdict.models()?;
            named
                .iter()
                .all(|b| m.reproduced_by.contains(b))
                .then_some((
                    m.reproduced_by.len(),
                    r.size.n,
                    r.size.empties,
                    r.size.depth,
                    i,
                ))
        })
        .min()
        .map(|key| key.4)
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

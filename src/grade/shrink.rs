//! The smallest failing case: from a case the program fails, smaller
//! inputs that fail the same way (the same [`Failure`]): first the board's
//! side, bisected; then greedily a smaller depth, a smaller board (a corner
//! of it), fewer empty cells, fewer distinct values; each step keeps the
//! first smaller input that still fails, until none does or the budget is
//! spent. A failure that diagnosed bugs write keeps them writing it, each
//! step with no model writing it that did not write the step before: the
//! smallest input then shows the diagnosed bug, and ideally only it, and
//! never a bug its case did not show.

use std::io;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::game::{Board, Player, Square};
use crate::play::referee::Captured;
use crate::text::{Problem, Question};

use super::cases::{with_values, Case, CaseKind, CaseSize};
use super::kept;
use super::models::Bug;
use super::run::{CaseRun, Program, RunSettings};
use super::verdict::{Failure, Verdict};
use super::{gate, judge_case};

/// The smallest input found that fails the way a case failed.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The failure kept.
    pub failure: Failure,
    /// The case it started from.
    pub from: String,
    /// That case's size.
    pub from_size: CaseSize,
    /// The smallest failing input found (the first case itself when no
    /// smaller one fails the same way).
    pub case: Case,
    /// The program's run on it.
    pub run: CaseRun,
    /// Its verdict there.
    pub verdict: Verdict,
    /// Program runs the search took.
    pub runs: usize,
    /// Why the search stopped.
    pub stopped: Stopped,
}

/// What a search for a smaller failing input may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShrinkBudget {
    /// Program runs.
    pub runs: usize,
    /// Wall-clock time, checked before each run (so one run may pass it).
    pub time: Duration,
}

/// Why a search for a smaller failing input stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// No smaller input tried fails the same way.
    Smallest,
    /// The runs allowed were spent.
    Runs,
    /// The time allowed was spent.
    Time,
    /// The failure is not shrunk (a timeout: each try could cost the whole
    /// time limit).
    NotShrunk,
}

impl Stopped {
    /// Why, in words.
    pub const fn describe(self) -> &'static str {
        match self {
            Stopped::Smallest => "no smaller input fails so",
            Stopped::Runs => "stopped: the runs allowed were spent",
            Stopped::Time => "stopped: the time allowed was spent",
            Stopped::NotShrunk => "not shrunk",
        }
    }
}

/// The size and verdict of a shrink, for reports.
#[derive(Clone, Debug, Serialize)]
pub struct ShrunkSummary {
    /// The failure kept.
    pub failure: Failure,
    /// The case it started from.
    pub from: String,
    /// That case's size.
    pub from_size: CaseSize,
    /// The smaller input's size.
    pub size: CaseSize,
    /// Its `input.txt`.
    pub input: String,
    /// The expected `output.txt`.
    pub expected: String,
    /// The program's `output.txt`, if it wrote one: its start, as much as
    /// a report keeps of a case.
    pub output: Option<String>,
    /// The bytes of it `output` leaves out.
    pub output_cut: u64,
    /// Its verdict.
    pub verdict: Verdict,
    /// Every root move (`"C3 Raid"`) with its exact value, in canonical order.
    pub root_values: Vec<(String, i64)>,
    /// Program runs the search took.
    pub runs: usize,
    /// Why the search stopped.
    pub stopped: Stopped,
}

impl Shrunk {
    /// The summary reports show.
    pub fn summary(&self) -> ShrunkSummary {
        let none = Captured::default();
        let (output, _, _) = kept::keep_case(
            self.run.output.as_deref().ok(),
            self.run.output_size,
            &none,
            &none,
        );
        ShrunkSummary {
            failure: self.failure,
            from: self.from.clone(),
            from_size: self.from_size,
            size: self.case.size(),
            input: self.case.input.clone(),
            expected: self.case.expected.clone(),
            output_cut: output.as_ref().map_or(0, |o| o.cut),
            output: output.map(|o| o.text),
            verdict: self.verdict.clone(),
            root_values: self
                .case
                .analysis
                .moves
                .iter()
                .map(|m| (m.mv.to_string(), m.value))
                .collect(),
            runs: self.runs,
            stopped: self.stopped,
        }
    }
}

/// Searches for a smaller input than `case` (on which `program` made `run`,
/// judged `verdict`) that fails the same way, within `budget`: a slow
/// failure (a program that crashes after seconds of work) is held to its
/// time, not only to its number of runs. The board's side is bisected
/// first, then the greedy steps of `smaller` follow. Timeouts are not
/// shrunk (each try would cost up to the time limit): the case itself is
/// returned. A verdict that passes is an
/// `InvalidInput` error: there is no failure to keep.
pub fn shrink(
    program: &Program,
    case: &Case,
    run: &CaseRun,
    verdict: &Verdict,
    settings: &RunSettings,
    budget: &ShrinkBudget,
) -> io::Result<Shrunk> {
    shrink_toward(program, case, run, verdict, settings, budget, &[])
}

/// [`shrink`], keeping only smaller inputs whose output every bug of
/// `toward` (the diagnosis) still writes, with no more models writing it
/// than on the input before: toward an input where the diagnosed bugs, and
/// only they, write the program's output. With `toward` empty, it is
/// [`shrink`].
pub fn shrink_toward(
    program: &Program,
    case: &Case,
    run: &CaseRun,
    verdict: &Verdict,
    settings: &RunSettings,
    budget: &ShrinkBudget,
    toward: &[Bug],
) -> io::Result<Shrunk> {
    // The time spent waiting for a slot beside other programs is not the
    // program's: the budget counts as if it were graded alone.
    let start = (Instant::now(), gate::waited());
    let spent = || start.0.elapsed().saturating_sub(gate::waited() - start.1);
    let Some(failure) = verdict.failure() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the case passes: there is no failure to shrink",
        ));
    };
    let mut best = Shrunk {
        failure,
        from: case.name.clone(),
        from_size: case.size(),
        case: case.clone(),
        run: run.clone(),
        verdict: verdict.clone(),
        runs: 0,
        stopped: Stopped::Smallest,
    };
    if failure == Failure::Timeout {
        best.stopped = Stopped::NotShrunk;
        return Ok(best);
    }
    // One try of a smaller problem: `None` once the budget is spent, else
    // whether it failed the same way (and was kept).
    let attempt = |best: &mut Shrunk, problem: Problem| -> io::Result<Option<bool>> {
        if best.runs >= budget.runs {
            best.stopped = Stopped::Runs;
            return Ok(None);
        }
        if spent() >= budget.time {
            best.stopped = Stopped::Time;
            return Ok(None);
        }
        let Ok(candidate) = Case::new("smaller input".into(), CaseKind::Shrunk, problem) else {
            return Ok(Some(false));
        };
        let (run, verdict, runs) = judge_case(program, &candidate, settings)?;
        best.runs += runs;
        let same =
            verdict.failure() == Some(failure) && still_written(&best.verdict, &verdict, toward);
        if same {
            best.case = candidate;
            best.run = run;
            best.verdict = verdict;
        }
        Ok(Some(same))
    };
    // The board's side first, bisected: a program that fails on large
    // boards fails from some side on, found in a few runs, where cutting
    // one row and column at a time would spend the budget on a large board.
    let (mut lo, mut hi) = (0, best.case.problem.board.n());
    while hi - lo > 1 {
        let side = (lo + hi) / 2;
        let Some(problem) = cropped(&best.case.problem, side) else {
            lo = side;
            continue;
        };
        match attempt(&mut best, problem)? {
            None => return Ok(best),
            Some(true) => hi = side,
            Some(false) => lo = side,
        }
    }
    'search: loop {
        for problem in smaller(&best.case.problem) {
            match attempt(&mut best, problem)? {
                None => break 'search,
                Some(true) => continue 'search,
                Some(false) => {}
            }
        }
        break;
    }
    Ok(best)
}

/// True when every bug of `toward` writes the output judged `now`, and
/// every model writing it (a bug under a convention) wrote the output
/// judged `before` too: a smaller input never names a bug that the case
/// it came from did not, whatever the diagnosis.
fn still_written(before: &Verdict, now: &Verdict, toward: &[Bug]) -> bool {
    match (before.models(), now.models()) {
        (Some(before), Some(now)) => {
            toward.iter().all(|b| now.reproduced_by.contains(b)) && now.within(before)
        }
        _ => toward.is_empty(),
    }
}

/// `problem` on the `side` x `side` part of its board that holds the most
/// empty cells (the first such part, row-major), if that part has one.
fn cropped(problem: &Problem, side: usize) -> Option<Problem> {
    let board = &problem.board;
    let n = board.n();
    let empties = |r0: usize, c0: usize| {
        (r0..r0 + side)
            .flat_map(|r| (c0..c0 + side).map(move |c| (r, c)))
            .filter(|&(r, c)| board.square(r, c) == Square::Empty)
            .count()
    };
    let corners = (0..=n - side).flat_map(|r0| (0..=n - side).map(move |c0| (r0, c0)));
    let (r0, c0) =
        corners.max_by_key(|&(r0, c0)| (empties(r0, c0), std::cmp::Reverse((r0, c0))))?;
    Some(Problem {
        board: crop(board, side, r0, c0)?,
        ..problem.clone()
    })
}

/// Smaller versions of `problem`, most promising first: each smaller in
/// one measure and larger in none.
fn smaller(problem: &Problem) -> Vec<Problem> {
    let board = &problem.board;
    let n = board.n();
    let Question::Exact { mode, depth } = problem.question else {
        return Vec::new();
    };
    let with = |board: Board, depth: u32| Problem {
        board,
        player: problem.player,
        question: Question::Exact { mode, depth },
    };
    let mut out = Vec::new();
    // A smaller depth, the smallest first; beyond the empty cells, the
    // depth makes no difference.
    let depth_now = depth.min(board.empty_count().max(1));
    for d in 1..depth_now {
        out.push(with(board.clone(), d));
    }
    if depth > depth_now {
        out.push(with(board.clone(), depth_now));
    }
    // A smaller board: half of it, three quarters, then one row and column
    // less from each corner.
    let mut sides: Vec<usize> = vec![n / 2, 3 * n / 4];
    sides.retain(|&m| m >= 1 && m < n - 1);
    for m in sides {
        out.extend(crop(board, m, 0, 0).map(|b| with(b, depth)));
    }
    if n > 1 {
        for (r0, c0) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            out.extend(crop(board, n - 1, r0, c0).map(|b| with(b, depth)));
        }
    }
    // Fewer empty cells: halves of them, then quarters, ..., then one.
    let empty: Vec<(usize, usize)> = (0..n * n)
        .map(|i| (i / n, i % n))
        .filter(|&(r, c)| board.square(r, c) == Square::Empty)
        .collect();
    let mut chunk = empty.len() / 2;
    while chunk >= 1 {
        for part in empty.chunks(chunk) {
            if part.len() < empty.len() {
                let mut b = board.clone();
                for &(r, c) in part {
                    let p = if (r + c) % 2 == 0 {
                        Player::X
                    } else {
                        Player::O
                    };
                    b.set(r, c, Square::Piece(p));
                }
                out.push(with(b, depth));
            }
        }
        chunk /= 2;
    }
    // Fewer distinct values: all alike, then each value (the rarest first)
    // made the most common other one.
    let values: Vec<i32> = (0..n * n).map(|i| board.value(i / n, i % n)).collect();
    let mut counts: Vec<(usize, i32)> = Vec::new();
    for &v in &values {
        match counts.iter_mut().find(|(_, w)| *w == v) {
            Some((count, _)) => *count += 1,
            None => counts.push((1, v)),
        }
    }
    if counts.len() > 1 {
        out.push(with(with_values(board, &vec![1; n * n]), depth));
        counts.sort();
        let common = counts.last().map_or(1, |&(_, v)| v);
        for &(_, v) in counts.iter().filter(|&&(_, v)| v != common) {
            let merged: Vec<i32> = values
                .iter()
                .map(|&w| if w == v { common } else { w })
                .collect();
            out.push(with(with_values(board, &merged), depth));
        }
    }
    out
}

/// The `m` x `m` part of `board` from row `r0`, column `c0`, if it has an
/// empty cell.
fn crop(board: &Board, m: usize, r0: usize, c0: usize) -> Option<Board> {
    let values: Vec<i32> = (0..m * m)
        .map(|i| board.value(r0 + i / m, c0 + i % m))
        .collect();
    let mut b = Board::new(m, &values);
    for r in 0..m {
        for c in 0..m {
            b.set(r, c, board.square(r0 + r, c0 + c));
        }
    }
    (!b.is_full()).then_some(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};
    use crate::text::SearchMode;

    #[test]
    fn every_smaller_input_is_smaller() {
        let mut rng = Rng::new(2);
        for n in [1, 2, 5, 9] {
            let problem = Problem {
                board: random_board(&mut rng, n, 7, 0.3),
                player: Player::O,
                question: Question::Exact {
                    mode: SearchMode::Minimax,
                    depth: 4,
                },
            };
            let case = Case::new("c".into(), CaseKind::Random, problem.clone()).unwrap();
            let size = case.size();
            let all = smaller(&problem);
            assert!(n == 1 || all.len() > 3);
            for p in all {
                let c = Case::new("s".into(), CaseKind::Shrunk, p).unwrap();
                let s = c.size();
                assert!(s.within(&size) && s != size, "{s} from {size}");
            }
        }
    }
}

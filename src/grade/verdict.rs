//! The verdict on one run: a pass, or the reason for the miss, decided from
//! what the program did and wrote, checked against the exact analysis.

use std::fmt;
use std::io;
use std::time::Duration;

use serde::Serialize;

use crate::api::{analyse, move_text, Limits, Position};
use crate::game::{check_move, Move, MoveKind};
use crate::play::referee::{Exit, MAX_OUTPUT};
use crate::sandbox::LimitHit;
use crate::search::reference;
use crate::text::{parse_answer, SearchMode};

use super::cases::Case;
use super::run::CaseRun;

/// A white-space difference between the `output.txt` written and the
/// expected one, when nothing else differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    /// CRLF (or CR) line ends instead of Unix ones.
    Crlf,
    /// The last line does not end with `\n`.
    NoFinalNewline,
    /// Spaces or tabs at the start or end of a line.
    EdgeSpaces,
    /// Several spaces or a tab between the move and its type.
    InnerSpaces,
    /// Blank lines.
    BlankLines,
}

impl fmt::Display for Spacing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Spacing::Crlf => "CRLF line ends",
            Spacing::NoFinalNewline => "no newline at the end",
            Spacing::EdgeSpaces => "spaces at the start or end of a line",
            Spacing::InnerSpaces => "extra spaces inside a line",
            Spacing::BlankLines => "blank lines",
        })
    }
}

/// What a legal move that is not the answer means, as far as the exact
/// analysis can tell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Miss {
    /// The move has the answer's value, and the answer comes first in the
    /// canonical order (Stakes row-major, then Raids row-major).
    TieBreak {
        /// The answer is the Stake on the very cell of the program's Raid.
        twin: bool,
    },
    /// The move is the answer at this depth instead of the one asked.
    OffByOne {
        /// The depth whose answer the program gave.
        depth: u32,
        /// The other depth one off, when its answer is the same move: a
        /// ply short or a ply deep, the case cannot tell which.
        #[serde(skip_serializing_if = "Option::is_none")]
        also: Option<u32>,
    },
    /// The move is what a search scoring every position for the other
    /// player chooses.
    WrongSide,
    /// The move is the first one, and every move is worth 0 or less: what
    /// a root whose best value starts above minus infinity (0, -100) keeps
    /// when no move beats that start.
    HighStart,
    /// Several of the explanations above fit, and this case cannot tell
    /// which: only the values are certain.
    Unclear {
        /// The explanations that fit, in the order they are tried.
        could_be: Vec<Miss>,
    },
    /// The program answers the same position with another move in the
    /// other mode (at most one of its two searches is right).
    ModesDisagree {
        /// The other mode.
        mode: SearchMode,
        /// Its move there.
        #[serde(serialize_with = "move_text::serialize")]
        other: Move,
    },
    /// A lower value: the search itself goes wrong.
    Search,
}

impl Miss {
    /// What the miss means, for the program's move `mv` and the `answer`.
    fn describe(&self, mv: Move, answer: Move) -> String {
        match self {
            Miss::TieBreak { twin: true } => {
                "tie-break: the Stake on the same cell ties and comes before the Raid".into()
            }
            Miss::TieBreak { twin: false } => {
                format!("tie-break: equal value, and {answer} comes first in canonical order")
            }
            Miss::OffByOne { depth, also: None } => {
                format!("off by one: {mv} is the answer at depth {depth}")
            }
            Miss::OffByOne {
                depth,
                also: Some(also),
            } => format!("off by one: {mv} is the answer at depth {depth} and at depth {also}"),
            Miss::WrongSide => {
                format!("wrong side: {mv} is the choice of a search scoring for the other player")
            }
            Miss::HighStart => format!(
                "best value started too high: no move is worth more than 0, and {mv}, \
                 the first move, is what a root starting at 0 or -100 keeps"
            ),
            Miss::ModesDisagree { mode, other } => format!(
                "MINIMAX and ALPHABETA disagree: in {} mode the program answers {other}",
                mode.name()
            ),
            Miss::Search => "search: a lower value".into(),
            Miss::Unclear { could_be } => {
                let list: Vec<String> = could_be.iter().map(|m| m.describe(mv, answer)).collect();
                format!("cause unclear: {}", list.join("; or "))
            }
        }
    }
}

/// One cell of the board written that differs from the board after the
/// program's own move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CellDiff {
    /// The cell, e.g. `D3`.
    pub cell: String,
    /// What it should hold after the move: `X`, `O` or `.`.
    pub expected: char,
    /// What the program wrote.
    pub found: char,
}

/// The verdict on one case.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// `output.txt` is the expected one, byte for byte.
    Pass,
    /// The right answer, but not byte for byte: only white space differs.
    /// A strict grade fails it, a lenient one passes it.
    Spacing {
        /// What differs.
        differences: Vec<Spacing>,
        /// The first line (from 1) whose white space differs, if one
        /// does (not when only the final newline is missing).
        line: Option<usize>,
        /// That line as written, its white space made visible (`·` a
        /// space, `→` a tab, `␍` a carriage return).
        written: Option<String>,
    },
    /// The program ended cleanly without writing `output.txt`.
    NoOutput,
    /// No `output.txt`, but a file of another name that looks meant for it.
    WrongName {
        /// The name written.
        found: String,
    },
    /// `output.txt` is not a move followed by the board.
    Malformed {
        /// The line at fault, from 1, when there is one.
        line: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// The move cannot be played in the position.
    IllegalMove {
        /// The move written.
        #[serde(rename = "move", serialize_with = "move_text::serialize")]
        mv: Move,
        /// Why not.
        reason: String,
    },
    /// The board written is not the board after the program's own move.
    WrongBoard {
        /// The move written.
        #[serde(rename = "move", serialize_with = "move_text::serialize")]
        mv: Move,
        /// The cells that differ, row-major.
        cells: Vec<CellDiff>,
    },
    /// The board written is exactly the board after the answer, but the
    /// move is named otherwise.
    WrongLabel {
        /// The move written.
        #[serde(rename = "move", serialize_with = "move_text::serialize")]
        mv: Move,
        /// The answer, whose board was written.
        #[serde(serialize_with = "move_text::serialize")]
        answer: Move,
        /// The name has the answer's row and column swapped.
        swapped: bool,
    },
    /// The exact answer, where the case is graded against a folder's
    /// `output.txt` that says otherwise: the case's fault, not the
    /// program's, though the folder's grade fails it.
    Disputed {
        /// The exact answer, the one written.
        #[serde(serialize_with = "move_text::serialize")]
        answer: Move,
        /// Its value.
        value: i64,
    },
    /// A legal move that is not the answer.
    WrongMove {
        /// The move written.
        #[serde(rename = "move", serialize_with = "move_text::serialize")]
        mv: Move,
        /// Its exact value at the case's depth.
        value: i64,
        /// The answer.
        #[serde(serialize_with = "move_text::serialize")]
        answer: Move,
        /// The answer's value.
        answer_value: i64,
        /// What the difference means.
        #[serde(flatten)]
        miss: Miss,
    },
    /// The run went past its CPU-time limit or the wall clock.
    Timeout {
        /// CPU seconds used.
        cpu: f64,
        /// Wall-clock seconds.
        wall: f64,
    },
    /// The run went past the sandbox's memory limit.
    MemoryLimit {
        /// The limit, in MiB.
        mb: u64,
    },
    /// The run tried to have more processes and threads at once than the
    /// sandbox allows.
    TooManyProcesses {
        /// The limit.
        max: u32,
    },
    /// No `output.txt`, and the program failed (a non-zero exit code or a
    /// signal).
    Crash {
        /// How it ended.
        exit: Exit,
        /// The last lines of its standard error.
        stderr: String,
    },
}

/// The ways a case fails: the verdicts without their details, a wrong move
/// split by what it means. The shrinker keeps a failure of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// White space only.
    Spacing,
    /// No `output.txt`.
    NoOutput,
    /// `output.txt` under another name.
    WrongName,
    /// A malformed `output.txt`.
    Malformed,
    /// An illegal move.
    IllegalMove,
    /// A board that is not the board after the move.
    WrongBoard,
    /// The answer's board under another move's name.
    WrongLabel,
    /// The exact answer, where the folder's `output.txt` is not.
    Disputed,
    /// A tie broken the wrong way.
    TieBreak,
    /// The answer of a depth one off.
    OffByOne,
    /// The other player's evaluation.
    WrongSide,
    /// The root's best value started too high.
    HighStart,
    /// A wrong move that more than one mistake explains.
    Unclear,
    /// MINIMAX and ALPHABETA answers that differ.
    ModesDisagree,
    /// A lower value.
    Search,
    /// Past the time limit.
    Timeout,
    /// Past the memory limit.
    MemoryLimit,
    /// Past the limit on processes.
    TooManyProcesses,
    /// A crash.
    Crash,
}

impl Failure {
    /// The failure in a few words.
    pub const fn describe(self) -> &'static str {
        match self {
            Failure::Spacing => "white space only",
            Failure::NoOutput => "no output.txt",
            Failure::WrongName => "wrong file name",
            Failure::Malformed => "malformed output.txt",
            Failure::IllegalMove => "illegal move",
            Failure::WrongBoard => "board not updated right",
            Failure::WrongLabel => "right board, move named wrong",
            Failure::Disputed => "the exact answer, not the folder's",
            Failure::TieBreak => "tie-break",
            Failure::OffByOne => "depth off by one",
            Failure::WrongSide => "wrong side's evaluation",
            Failure::HighStart => "best value started too high",
            Failure::Unclear => "a wrong move, cause unclear",
            Failure::ModesDisagree => "MINIMAX and ALPHABETA disagree",
            Failure::Search => "search (a lower value)",
            Failure::Timeout => "timeout",
            Failure::MemoryLimit => "memory limit",
            Failure::TooManyProcesses => "too many processes",
            Failure::Crash => "crash",
        }
    }

    /// True for the failures the assignment gives the whole program zero
    /// for: no `output.txt` at all, one under another name, a malformed one.
    pub const fn zeroes_the_score(self) -> bool {
        matches!(
            self,
            Failure::NoOutput | Failure::WrongName | Failure::Malformed
        )
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

impl Verdict {
    /// How the case failed; `None` for a pass.
    pub fn failure(&self) -> Option<Failure> {
        Some(match self {
            Verdict::Pass => return None,
            Verdict::Spacing { .. } => Failure::Spacing,
            Verdict::NoOutput => Failure::NoOutput,
            Verdict::WrongName { .. } => Failure::WrongName,
            Verdict::Malformed { .. } => Failure::Malformed,
            Verdict::IllegalMove { .. } => Failure::IllegalMove,
            Verdict::WrongBoard { .. } => Failure::WrongBoard,
            Verdict::WrongLabel { .. } => Failure::WrongLabel,
            Verdict::Disputed { .. } => Failure::Disputed,
            Verdict::WrongMove { miss, .. } => match miss {
                Miss::TieBreak { .. } => Failure::TieBreak,
                Miss::OffByOne { .. } => Failure::OffByOne,
                Miss::WrongSide => Failure::WrongSide,
                Miss::HighStart => Failure::HighStart,
                Miss::Unclear { .. } => Failure::Unclear,
                Miss::ModesDisagree { .. } => Failure::ModesDisagree,
                Miss::Search => Failure::Search,
            },
            Verdict::Timeout { .. } => Failure::Timeout,
            Verdict::MemoryLimit { .. } => Failure::MemoryLimit,
            Verdict::TooManyProcesses { .. } => Failure::TooManyProcesses,
            Verdict::Crash { .. } => Failure::Crash,
        })
    }

    /// True when the case passes: byte for byte, or (`lenient`) up to
    /// white space.
    pub fn passes(&self, lenient: bool) -> bool {
        match self {
            Verdict::Pass => true,
            Verdict::Spacing { .. } => lenient,
            _ => false,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Pass => f.write_str("pass"),
            Verdict::Spacing {
                differences,
                line,
                written,
            } => {
                let list: Vec<String> = differences.iter().map(|d| d.to_string()).collect();
                write!(f, "right answer, white space differs: {}", list.join(", "))?;
                if let (Some(line), Some(written)) = (line, written) {
                    write!(f, "; line {line} is \"{written}\" ({VISIBLE_KEY})")?;
                }
                Ok(())
            }
            Verdict::NoOutput => f.write_str("no output.txt written"),
            Verdict::WrongName { found } => {
                write!(f, "wrote {found:?} instead of \"output.txt\"")
            }
            Verdict::Malformed {
                line: Some(line),
                reason,
            } => {
                write!(f, "malformed output.txt, line {line}: {reason}")
            }
            Verdict::Malformed { line: None, reason } => {
                write!(f, "malformed output.txt: {reason}")
            }
            Verdict::IllegalMove { mv, reason } => write!(f, "illegal move {mv}: {reason}"),
            Verdict::WrongBoard { mv, cells } => {
                let list: Vec<String> = cells
                    .iter()
                    .map(|c| format!("{} should be {}, is {}", c.cell, c.expected, c.found))
                    .collect();
                write!(
                    f,
                    "the board is not the board after {mv}: {}",
                    list.join("; ")
                )
            }
            Verdict::WrongLabel {
                mv,
                answer,
                swapped,
            } => {
                write!(
                    f,
                    "the board is the one after {answer}, the answer, but the move is named {mv}"
                )?;
                if *swapped {
                    f.write_str(": its column and row are swapped")?;
                }
                Ok(())
            }
            Verdict::Disputed { answer, value } => write!(
                f,
                "{answer} (value {value}) is the exact answer; the folder's output.txt \
                 says otherwise and is graded"
            ),
            Verdict::WrongMove {
                mv,
                value,
                answer,
                answer_value,
                miss,
            } => {
                write!(
                    f,
                    "{mv} (value {value}) instead of {answer} (value {answer_value}): "
                )?;
                match miss {
                    Miss::Unclear { could_be } => {
                        let list: Vec<String> =
                            could_be.iter().map(|m| m.describe(*mv, *answer)).collect();
                        let certain = if value < answer_value {
                            "a lower value"
                        } else {
                            "an equal value"
                        };
                        write!(
                            f,
                            "{certain}; this case cannot tell apart: {}",
                            list.join("; or ")
                        )
                    }
                    miss => f.write_str(&miss.describe(*mv, *answer)),
                }
            }
            Verdict::Timeout { cpu, wall } => write!(
                f,
                "timeout: stopped after {cpu:.2} s of CPU, {wall:.2} s of wall time"
            ),
            Verdict::MemoryLimit { mb } => {
                write!(f, "memory limit: the run went past {mb} MiB")
            }
            Verdict::TooManyProcesses { max } => write!(
                f,
                "too many processes: the run went past {max} processes and threads at once"
            ),
            Verdict::Crash { exit, stderr } => {
                match exit {
                    Exit::Code(c) => write!(f, "crash: exit code {c}")?,
                    Exit::Signal(s) => write!(f, "crash: killed by signal {s}")?,
                    Exit::Killed => write!(f, "crash: killed")?,
                }
                if !stderr.is_empty() {
                    write!(f, ": {stderr}")?;
                }
                Ok(())
            }
        }
    }
}

/// The share of the CPU-time limit past which a death by SIGXCPU or
/// SIGKILL is the limit's: the kernel's CPU accounting for `RLIMIT_CPU`
/// and the tree's measured time differ by a few clock ticks (a run stopped
/// at a 4 s limit may measure 3.9 s), and by more on a loaded machine (a
/// program under a shell script, stopped at a 1 s limit while other work
/// kept both cores busy, measured 0.86 s).
const NEAR_LIMIT: f64 = 0.75;

/// Above this many estimated textbook nodes, the wrong-side explanation
/// (a textbook search of its own) is not tried.
const WRONG_SIDE_MAX_NODES: u64 = 50_000_000;

/// The verdict on `run` of `case` under a CPU-time limit of `time_limit`,
/// checked in this order: past a sandbox limit; past the time limit; `output.txt` there (see
/// [`judge_output`]); a file under another name; a crash; no output.
/// A wrong move whose only explanation is a faulty search is not compared
/// with the other mode here (see [`with_other_mode`]).
pub fn judge(case: &Case, run: &CaseRun, time_limit: Duration) -> Verdict {
    match run.limit {
        Some(LimitHit::Memory { mb }) => return Verdict::MemoryLimit { mb },
        Some(LimitHit::Processes { max }) => return Verdict::TooManyProcesses { max },
        None => {}
    }
    let limit = time_limit.as_secs_f64();
    // The limit's signals, as the program died of them or as a wrapper (a
    // shell script running it) reports its child's death: 128 + signal.
    let limit_signal = |s: i32| s == libc::SIGXCPU || s == libc::SIGKILL;
    let near_limit = run.cpu >= limit * NEAR_LIMIT;
    let over = run.cpu >= limit
        || match run.exit {
            Exit::Killed | Exit::Signal(libc::SIGXCPU) => true,
            Exit::Signal(s) => near_limit && limit_signal(s),
            Exit::Code(c) => near_limit && limit_signal(c - 128),
        };
    if over {
        return Verdict::Timeout {
            cpu: run.cpu,
            wall: run.wall,
        };
    }
    match &run.output {
        Ok(bytes) => return judge_output(case, bytes),
        Err(io::ErrorKind::NotFound) => {}
        Err(kind) => {
            return Verdict::Malformed {
                line: None,
                reason: format!("output.txt cannot be read: {kind}"),
            }
        }
    }
    if let Some(found) = run.files.iter().find(|name| meant_as_output(name)) {
        return Verdict::WrongName {
            found: found.clone(),
        };
    }
    match run.exit {
        Exit::Code(0) => Verdict::NoOutput,
        exit => Verdict::Crash {
            exit,
            stderr: run.stderr_tail.clone(),
        },
    }
}

/// True for a file name that looks meant as `output.txt`: `Output.txt`,
/// `OUTPUT.TXT`, `output.txt.txt`, `output`, `out.txt`, ...
fn meant_as_output(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("output") || lower == "out.txt"
}

/// The verdict on an `output.txt` of `case`, the bytes written: a pass,
/// white space only, malformed (with the line), an illegal move, a wrong
/// board (with the cells), or a legal move that is not the answer, with
/// what that means ([`Miss`]).
pub fn judge_output(case: &Case, output: &[u8]) -> Verdict {
    if output == case.expected.as_bytes() {
        return Verdict::Pass;
    }
    if output.len() as u64 > MAX_OUTPUT {
        return Verdict::Malformed {
            line: None,
            reason: format!("output.txt is longer than {MAX_OUTPUT} bytes"),
        };
    }
    let text = std::str::from_utf8(output).ok();
    if let Some(text) = text {
        if normalized(text) == normalized(&case.expected) {
            let (line, written) = first_spacing_line(text, &case.expected).unzip();
            return Verdict::Spacing {
                differences: spacing(text),
                line,
                written,
            };
        }
    }
    let disputed = || Verdict::Disputed {
        answer: case.analysis.best,
        value: case.analysis.value,
    };
    if case.graded_by_folder()
        && text.is_some_and(|t| normalized(t) == normalized(&case.analysis.output_text()))
    {
        return disputed();
    }
    let board = &case.problem.board;
    let player = case.problem.player;
    let answer = match parse_answer(output, board.n()) {
        Ok(answer) => answer,
        Err(e) => {
            use crate::text::AnswerError::*;
            let line = match &e {
                Move(_) => Some(1),
                Cell { line, .. } | RowLength { line, .. } => Some(*line),
                NotText | Empty | RowCount { .. } => None,
            };
            return Verdict::Malformed {
                line,
                reason: e.to_string(),
            };
        }
    };
    let mv = answer.mv;
    let first = String::from_utf8_lossy(output);
    let first = first.lines().next().unwrap_or("");
    let written: Vec<&str> = first.split_whitespace().collect();
    if written.join(" ") != mv.to_string() {
        return Verdict::Malformed {
            line: Some(1),
            reason: format!("the move is written {first:?}; the format is \"{mv}\""),
        };
    }
    // The answer's board under another name: the search is right, and
    // only the naming of the move goes wrong (often its row and column
    // swapped), whether or not the name is a legal move.
    let best = case.analysis.best;
    let written_after = |m: Move| {
        let mut after = board.clone();
        after.make(m, player);
        after
            .cells_text()
            .lines()
            .eq(answer.rows.iter().map(String::as_str))
    };
    // A Raid that flips nothing leaves its Stake's board: then the board
    // is the program's own move's, named right.
    let own_board = check_move(board, player, mv).is_ok() && written_after(mv);
    if mv != best && !own_board && written_after(best) {
        return Verdict::WrongLabel {
            mv,
            answer: best,
            swapped: mv.kind() == best.kind() && (mv.row(), mv.col()) == (best.col(), best.row()),
        };
    }
    if let Err(why) = check_move(board, player, mv) {
        return Verdict::IllegalMove {
            mv,
            reason: why.to_string(),
        };
    }
    let mut after = board.clone();
    after.make(mv, player);
    let mut cells = Vec::new();
    for (r, (want, got)) in after.cells_text().lines().zip(&answer.rows).enumerate() {
        for (c, (w, g)) in want.chars().zip(got.chars()).enumerate() {
            if w != g {
                cells.push(CellDiff {
                    cell: Move::new(r, c, MoveKind::Stake).cell_name(),
                    expected: w,
                    found: g,
                });
            }
        }
    }
    if !cells.is_empty() {
        return Verdict::WrongBoard { mv, cells };
    }
    // Every value below is the engine's: the folder's `output.txt` may
    // name a move that is illegal or worse.
    let expected = case.analysis.best;
    let value_of = |m: Move| {
        case.analysis
            .moves
            .iter()
            .find(|r| r.mv == m)
            .map_or(case.analysis.value, |r| r.value)
    };
    if mv == expected {
        // Unreachable with a board parsed as it is: the answer and its
        // board, written otherwise than as white space, would fail above.
        return if case.graded_by_folder() {
            disputed()
        } else {
            Verdict::Malformed {
                line: None,
                reason: "the answer's board is written in a form not expected".into(),
            }
        };
    }
    Verdict::WrongMove {
        mv,
        value: value_of(mv),
        answer: expected,
        answer_value: value_of(expected),
        miss: explain(case, mv, value_of(mv), value_of(expected)),
    }
}

/// `text` as the lenient grade reads it: every line's words joined by one
/// space, blank lines dropped, `\n` after every line.
fn normalized(text: &str) -> String {
    let mut s = String::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !words.is_empty() {
            s.push_str(&words.join(" "));
            s.push('\n');
        }
    }
    s
}

/// What the marks of [`visible`] stand for.
pub(super) const VISIBLE_KEY: &str = "· a space, → a tab, ␍ a carriage return";

/// `line` with its white space made visible: every space `·`, tab `→` and
/// carriage return `␍`, so that a trailing space shows in a report.
pub(super) fn visible(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            ' ' => '·',
            '\t' => '→',
            '\r' => '␍',
            c => c,
        })
        .collect()
}

/// The first line of `text` (from 1) that differs from `expected`'s, with
/// its white space made visible; `None` when only the end differs (no
/// final newline).
fn first_spacing_line(text: &str, expected: &str) -> Option<(usize, String)> {
    let mut written = text.split('\n');
    let mut wanted = expected.lines();
    for i in 1.. {
        match (written.next(), wanted.next()) {
            (Some(w), Some(e)) if w == e => {}
            (Some(""), None) | (None, _) => return None,
            (Some(w), _) => return Some((i, visible(w))),
        }
    }
    None
}

/// The white-space differences of `text` from the canonical form.
fn spacing(text: &str) -> Vec<Spacing> {
    let mut found = Vec::new();
    if text.contains('\r') {
        found.push(Spacing::Crlf);
    }
    if !text.ends_with('\n') {
        found.push(Spacing::NoFinalNewline);
    }
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    if lines.iter().any(|l| l.trim() != *l && !l.trim().is_empty()) {
        found.push(Spacing::EdgeSpaces);
    }
    if lines
        .iter()
        .any(|l| l.trim().contains("  ") || l.trim().contains('\t'))
    {
        found.push(Spacing::InnerSpaces);
    }
    if lines.iter().any(|l| l.trim().is_empty()) {
        found.push(Spacing::BlankLines);
    }
    found
}

/// What the legal move `mv`, of value `value`, means against the answer of
/// value `best`. A tie broken as a program commonly breaks it (the Raids
/// listed first, or the last best move kept) is a tie-break; then the
/// wrong side's choice, the answer of a depth one off, the first move kept
/// under a best value started too high: the one that fits, or
/// [`Miss::Unclear`] naming all that do; then any other tie; otherwise a
/// faulty search.
fn explain(case: &Case, mv: Move, value: i64, best: i64) -> Miss {
    let board = &case.problem.board;
    let player = case.problem.player;
    let answer = case.analysis.best;
    let tie = Miss::TieBreak {
        twin: answer.kind() == MoveKind::Stake
            && mv.kind() == MoveKind::Raid
            && (answer.row(), answer.col()) == (mv.row(), mv.col()),
    };
    let tied: Vec<Move> = case
        .analysis
        .moves
        .iter()
        .filter(|m| m.value == best)
        .map(|m| m.mv)
        .collect();
    let raids_first = tied
        .iter()
        .find(|m| m.kind() == MoveKind::Raid)
        .or(tied.first());
    if value == best && (raids_first == Some(&mv) || tied.last() == Some(&mv)) {
        return tie;
    }
    // Every explanation that fits: on a small case (few moves, few distinct
    // values) several mistakes choose the same move, and naming one of them
    // would name a bug the program may not have.
    let mut could_be = Vec::new();
    let empties = board.empty_count();
    let depth = case.depth().min(empties);
    if case.textbook_nodes <= WRONG_SIDE_MAX_NODES
        && reference::alphabeta_scored_for(board, player, depth, player.other()).best == mv
    {
        could_be.push(Miss::WrongSide);
    }
    let position = Position::from_problem(&case.problem);
    let near = [case.depth().saturating_sub(1), case.depth() + 1];
    for d in near.into_iter().filter(|&d| d >= 1).map(|d| d.min(empties)) {
        let Ok(position) = position.as_ref() else {
            break;
        };
        if d == depth {
            continue;
        }
        let limits = Limits {
            threads: 1,
            ..Limits::to_depth(SearchMode::AlphaBeta, d)
        };
        if analyse(position, &limits).is_ok_and(|a| a.best == mv) {
            // Short or deep, the depth is off by one either way.
            match could_be.last_mut() {
                Some(Miss::OffByOne { also, .. }) => *also = Some(d),
                _ => could_be.push(Miss::OffByOne {
                    depth: d,
                    also: None,
                }),
            }
        }
    }
    if case.analysis.moves.first().is_some_and(|m| m.mv == mv) && best <= 0 {
        could_be.push(Miss::HighStart);
    }
    match could_be.len() {
        0 if value == best => tie,
        0 => Miss::Search,
        1 => could_be.remove(0),
        _ => Miss::Unclear { could_be },
    }
}

/// `verdict` on a case, refined by the program's run on the same position
/// in the other mode (`other`, judged as `other_verdict`): a wrong move
/// explained only as a faulty search becomes [`Miss::ModesDisagree`] when
/// the other mode's answer is another legal move.
pub fn with_other_mode(verdict: Verdict, other: &Case, other_verdict: &Verdict) -> Verdict {
    let Verdict::WrongMove {
        mv,
        value,
        answer,
        answer_value,
        miss: Miss::Search,
    } = verdict
    else {
        return verdict;
    };
    let other_move = match other_verdict {
        Verdict::Pass | Verdict::Spacing { .. } => Some(answer),
        Verdict::WrongMove { mv, .. } => Some(*mv),
        _ => None,
    };
    let miss = match other_move {
        Some(o) if o != mv => Miss::ModesDisagree {
            mode: other.mode(),
            other: o,
        },
        _ => Miss::Search,
    };
    Verdict::WrongMove {
        mv,
        value,
        answer,
        answer_value,
        miss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::cases::CaseKind;
    use crate::parse_problem;

    /// The assignment's third example: C3 Raid at depth 4, X to move.
    fn example(mode: &str, depth: u32) -> Case {
        let input = format!(
            "5\n{mode}\nX\n{depth}\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n\
             25 30 23 21 10\n..XX.\n..XOX\n...O.\n..OO.\n.....\n"
        );
        let problem = parse_problem(input.as_bytes()).unwrap();
        Case::new("example".into(), CaseKind::Given, problem).unwrap()
    }

    fn verdict(case: &Case, text: &str) -> Verdict {
        judge_output(case, text.as_bytes())
    }

    const RAID: &str = "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n.....\n";

    #[test]
    fn passes_and_white_space() {
        let case = example("ALPHABETA", 4);
        assert_eq!(case.expected, RAID);
        assert_eq!(verdict(&case, RAID), Verdict::Pass);
        assert_eq!(
            verdict(&case, RAID.trim_end()),
            Verdict::Spacing {
                differences: vec![Spacing::NoFinalNewline],
                line: None,
                written: None,
            }
        );
        let v = verdict(&case, &RAID.replace("C3 Raid", "C3 Raid "));
        assert_eq!(
            v.to_string(),
            "right answer, white space differs: spaces at the start or end of a line; \
             line 1 is \"C3·Raid·\" (· a space, → a tab, ␍ a carriage return)"
        );
        let v = verdict(&case, &RAID.replace("..XOX", "..XOX\t"));
        assert!(v.to_string().contains("line 3 is \"..XOX→\""), "{v}");
        let crlf = RAID.replace('\n', "\r\n").replace("C3 Raid", "C3  Raid ") + "\r\n";
        let v = verdict(&case, &crlf);
        assert_eq!(
            v,
            Verdict::Spacing {
                differences: vec![
                    Spacing::Crlf,
                    Spacing::EdgeSpaces,
                    Spacing::InnerSpaces,
                    Spacing::BlankLines
                ],
                line: Some(1),
                written: Some("C3··Raid·␍".into()),
            }
        );
        assert!(v.passes(true) && !v.passes(false));
    }

    #[test]
    fn malformed_illegal_and_wrong_boards_say_where() {
        let case = example("ALPHABETA", 4);
        let v = verdict(&case, "C3 Raid\n..XX.\n..XOX\n..XX.\n..X?.\n.....\n");
        assert!(matches!(v, Verdict::Malformed { line: Some(5), .. }), "{v}");
        let v = verdict(&case, &RAID.replace("C3 Raid", "c3 raid"));
        assert!(matches!(v, Verdict::Malformed { line: Some(1), .. }), "{v}");
        assert!(matches!(
            verdict(&case, ""),
            Verdict::Malformed { line: None, .. }
        ));
        let huge = format!("{RAID}{}", ".".repeat(2 << 20));
        let v = verdict(&case, &huge);
        assert!(v.to_string().contains("longer than 1048576 bytes"), "{v}");
        // The answer's board under another name is a label, legal or not.
        let v = verdict(&case, &RAID.replace("C3 Raid", "C1 Stake"));
        assert_eq!(v.failure(), Some(Failure::WrongLabel), "{v}");
        let unchanged = "C1 Stake\n..XX.\n..XOX\n...O.\n..OO.\n.....\n";
        let v = verdict(&case, unchanged);
        assert_eq!(
            v,
            Verdict::IllegalMove {
                mv: "C1 Stake".parse().unwrap(),
                reason: "C1 is taken".into()
            }
        );
        // The Raid written with the board of the Stake: no flips.
        let v = verdict(&case, "C3 Raid\n..XX.\n..XOX\n..XO.\n..OO.\n.....\n");
        let Verdict::WrongBoard { cells, .. } = &v else {
            panic!("{v}")
        };
        let names: Vec<&str> = cells.iter().map(|c| c.cell.as_str()).collect();
        assert_eq!(names, ["D3", "C4"]);
        assert_eq!(v.failure(), Some(Failure::WrongBoard));
    }

    #[test]
    fn wrong_moves_are_explained() {
        // Depth 1 answers B3 Stake, depth 4 C3 Raid.
        let case = example("ALPHABETA", 4);
        let b3 = "B3 Stake\n..XX.\n..XOX\n.X.O.\n..OO.\n.....\n";
        let v = verdict(&case, b3);
        let Verdict::WrongMove {
            value,
            answer_value,
            ..
        } = v
        else {
            panic!("{v}")
        };
        assert!(value < answer_value);
        // At depth 2 the program that searched depth 1 is off by one.
        let case2 = example("MINIMAX", 2);
        let a1 = analyse(
            &Position::from_problem(&case2.problem).unwrap(),
            &Limits::to_depth(SearchMode::Minimax, 1),
        )
        .unwrap();
        if a1.best != case2.analysis.best {
            let text = a1.output_text();
            assert_eq!(
                verdict(&case2, &text).failure(),
                Some(Failure::OffByOne),
                "{}",
                verdict(&case2, &text)
            );
        }
        // The wrong side's choice.
        let p = &case.problem;
        let wrong = reference::alphabeta_scored_for(&p.board, p.player, 4, p.player.other()).best;
        let text = crate::text::answer_text(&p.board, p.player, wrong);
        assert_eq!(verdict(&case, &text).failure(), Some(Failure::WrongSide));
    }

    #[test]
    fn a_quiet_raid_tied_with_its_stake_is_a_tie_break() {
        // X at A1; B1 is worth most, and its Raid flips nothing.
        let input = "2\nMINIMAX\nX\n1\n1 9\n1 1\nX.\n..\n";
        let problem = parse_problem(input.as_bytes()).unwrap();
        let case = Case::new("tie".into(), CaseKind::Given, problem).unwrap();
        assert_eq!(case.expected, "B1 Stake\nXX\n..\n");
        let v = verdict(&case, "B1 Raid\nXX\n..\n");
        assert_eq!(
            v.to_string(),
            "B1 Raid (value 10) instead of B1 Stake (value 10): tie-break: \
             the Stake on the same cell ties and comes before the Raid"
        );
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["verdict"], "wrong_move");
        assert_eq!(json["why"], "tie_break");
        assert_eq!(json["move"], "B1 Raid");
    }

    #[test]
    fn a_wrapper_reporting_the_limit_signal_is_a_timeout() {
        let case = example("ALPHABETA", 4);
        let limit = Duration::from_secs(4);
        let run = |cpu: f64, exit: Exit| CaseRun {
            cpu,
            wall: cpu,
            exit,
            output: Err(io::ErrorKind::NotFound),
            files: Vec::new(),
            stdout: Default::default(),
            stderr: Default::default(),
            stderr_tail: "CPU time limit exceeded".into(),
            limit: None,
        };
        // Measured a little under the limit, as the kernel's accounting leaves it.
        let xcpu = 128 + libc::SIGXCPU;
        let kill = 128 + libc::SIGKILL;
        for exit in [
            Exit::Code(xcpu),
            Exit::Code(kill),
            Exit::Signal(libc::SIGKILL),
        ] {
            let v = judge(&case, &run(3.88, exit), limit);
            assert!(matches!(v, Verdict::Timeout { .. }), "{exit:?}: {v}");
        }
        // Far from the limit, the same codes are the program's own.
        let v = judge(&case, &run(0.5, Exit::Code(xcpu)), limit);
        assert!(matches!(v, Verdict::Crash { .. }), "{v}");
        let v = judge(&case, &run(3.88, Exit::Code(1)), limit);
        assert!(matches!(v, Verdict::Crash { .. }), "{v}");
    }

    #[test]
    fn the_other_mode_names_a_disagreement() {
        let case = example("ALPHABETA", 4);
        let wrong = Verdict::WrongMove {
            mv: "A1 Stake".parse().unwrap(),
            value: 0,
            answer: case.analysis.best,
            answer_value: 1,
            miss: Miss::Search,
        };
        let other = case.other_mode();
        let v = with_other_mode(wrong.clone(), &other, &Verdict::Pass);
        assert_eq!(v.failure(), Some(Failure::ModesDisagree));
        assert_eq!(
            with_other_mode(wrong.clone(), &other, &wrong).failure(),
            Some(Failure::Search)
        );
    }
}

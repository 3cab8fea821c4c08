//! The verdict on one run: a pass, or the reason for the miss, decided from
//! what the program did and wrote, checked against the exact analysis. A
//! wrong answer's cause is named only when a bug model writes exactly that
//! answer ([`Models`]); otherwise only what is certain is said.
//!
//! `judge.rs` decides the verdict, `spacing.rs` the white-space
//! differences, `cause.rs` which bug models write a wrong answer.

use std::fmt;

use serde::Serialize;

use crate::api::move_text;
use crate::game::{Move, MoveKind};
use crate::play::referee::Exit;

mod cause;
mod judge;
mod spacing;

pub use cause::{model_output, with_other_mode, Miss, Model, Models};
pub use judge::{judge, judge_output};
pub use spacing::Spacing;
pub(super) use spacing::{normalized, visible, VISIBLE_KEY};

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
        /// The bug models that write this `output.txt`.
        #[serde(flatten)]
        models: Models,
    },
    /// The board written is not the board after the program's own move.
    WrongBoard {
        /// The move written.
        #[serde(rename = "move", serialize_with = "move_text::serialize")]
        mv: Move,
        /// The cells that differ, row-major.
        cells: Vec<CellDiff>,
        /// The bug models that write this `output.txt`.
        #[serde(flatten)]
        models: Models,
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
        /// The bug models that write this `output.txt`.
        #[serde(flatten)]
        models: Models,
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
        /// The bug models that write this `output.txt`.
        #[serde(flatten)]
        models: Models,
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
    /// The run filled the sandbox's disk quota (or its count of files).
    DiskLimit {
        /// The quota, in MiB.
        mb: u64,
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

/// The ways a case fails: the verdicts without their details. The
/// shrinker keeps a failure of the same kind.
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
    /// A legal move that is not the answer.
    WrongMove,
    /// Past the time limit.
    Timeout,
    /// Past the memory limit.
    MemoryLimit,
    /// Past the limit on processes.
    TooManyProcesses,
    /// Past the disk quota.
    DiskLimit,
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
            Failure::WrongMove => "wrong move",
            Failure::Timeout => "timeout",
            Failure::MemoryLimit => "memory limit",
            Failure::TooManyProcesses => "too many processes",
            Failure::DiskLimit => "disk limit",
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
            Verdict::WrongMove { .. } => Failure::WrongMove,
            Verdict::Timeout { .. } => Failure::Timeout,
            Verdict::MemoryLimit { .. } => Failure::MemoryLimit,
            Verdict::TooManyProcesses { .. } => Failure::TooManyProcesses,
            Verdict::DiskLimit { .. } => Failure::DiskLimit,
            Verdict::Crash { .. } => Failure::Crash,
        })
    }

    /// What the bug models say of the `output.txt` written, for a verdict
    /// on a legal-looking but wrong one (an illegal or wrong move, a wrong
    /// board or label).
    pub fn models(&self) -> Option<&Models> {
        match self {
            Verdict::IllegalMove { models, .. }
            | Verdict::WrongBoard { models, .. }
            | Verdict::WrongLabel { models, .. }
            | Verdict::WrongMove { models, .. } => Some(models),
            _ => None,
        }
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
            Verdict::IllegalMove { mv, reason, models } => {
                write!(f, "illegal move {mv}: {reason}")?;
                models_suffix(f, models)
            }
            Verdict::WrongBoard { mv, cells, models } => {
                let list: Vec<String> = cells
                    .iter()
                    .map(|c| format!("{} should be {}, is {}", c.cell, c.expected, c.found))
                    .collect();
                write!(
                    f,
                    "the board is not the board after {mv}: {}",
                    list.join("; ")
                )?;
                models_suffix(f, models)
            }
            Verdict::WrongLabel {
                mv,
                answer,
                swapped,
                models,
            } => {
                write!(
                    f,
                    "the board is the one after {answer}, the answer, but the move is named {mv}"
                )?;
                if *swapped {
                    f.write_str(": its column and row are swapped")?;
                }
                // A search given up says nothing of a name: no "not run".
                match models.named() {
                    Some(named) => write!(f, "; {named}"),
                    None => Ok(()),
                }
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
                models,
                miss,
            } => {
                write!(
                    f,
                    "{mv} (value {value}) instead of {answer} (value {answer_value}): "
                )?;
                // What is certain, from the exact values alone.
                let twin = answer.kind() == MoveKind::Stake
                    && mv.kind() == MoveKind::Raid
                    && (answer.row(), answer.col()) == (mv.row(), mv.col());
                if value < answer_value {
                    f.write_str("a lower value")?;
                } else if twin {
                    f.write_str("an equal value, and the Stake on the same cell comes first")?;
                } else {
                    write!(
                        f,
                        "an equal value, and {answer} comes first in canonical order"
                    )?;
                }
                match (miss, models.named()) {
                    (_, Some(named)) => write!(f, "; {named}")?,
                    (Miss::ModesDisagree { mode, other }, None) => write!(
                        f,
                        "; no modelled bug writes this, and in {} mode the program \
                         answers {other} (at most one of its two searches is right)",
                        mode.name()
                    )?,
                    _ => f.write_str("; no modelled bug writes this")?,
                }
                if let Some(not_run) = models.not_run_text() {
                    write!(f, "; {not_run}")?;
                }
                Ok(())
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
            Verdict::DiskLimit { mb } => write!(
                f,
                "disk limit: the run filled its {mb} MiB (or {} files) of case folder and /tmp",
                crate::sandbox::DISK_FILES
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

/// `; what a program with X writes` after a verdict whose output a model
/// writes, and the models not run, if any.
fn models_suffix(f: &mut fmt::Formatter<'_>, models: &Models) -> fmt::Result {
    if let Some(named) = models.named() {
        write!(f, "; {named}")?;
    }
    if let Some(not_run) = models.not_run_text() {
        write!(f, "; {not_run}")?;
    }
    Ok(())
}

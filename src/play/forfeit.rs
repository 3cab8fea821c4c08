//! Why a side lost a game without finishing it.

use std::fmt;

use serde::Serialize;

/// The ways a side forfeits, in the order the referee checks them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// The move's CPU time reached the side's time left.
    CpuOverrun,
    /// Still running at the wall-clock guard, without having used its time.
    Hang,
    /// A non-zero exit code, or killed by a signal it did not get from the referee.
    Crash,
    /// Exited cleanly without writing `output.txt`.
    NoOutput,
    /// `output.txt` is not a move followed by N board lines.
    Unreadable,
    /// The move is not legal in the position.
    IllegalMove,
    /// The board in `output.txt` is not the board after the move.
    WrongBoard,
}

impl ForfeitReason {
    /// Every reason, in the order the referee checks them.
    pub const ALL: [ForfeitReason; 7] = [
        ForfeitReason::CpuOverrun,
        ForfeitReason::Hang,
        ForfeitReason::Crash,
        ForfeitReason::NoOutput,
        ForfeitReason::Unreadable,
        ForfeitReason::IllegalMove,
        ForfeitReason::WrongBoard,
    ];

    /// The reason as one word, as in the JSON report: `cpu_overrun`, `hang`, ...
    pub const fn name(self) -> &'static str {
        match self {
            ForfeitReason::CpuOverrun => "cpu_overrun",
            ForfeitReason::Hang => "hang",
            ForfeitReason::Crash => "crash",
            ForfeitReason::NoOutput => "no_output",
            ForfeitReason::Unreadable => "unreadable",
            ForfeitReason::IllegalMove => "illegal_move",
            ForfeitReason::WrongBoard => "wrong_board",
        }
    }

    /// The reason in words, as the reports print it: `CPU overrun`,
    /// `no output.txt`, ...
    pub const fn words(self) -> &'static str {
        match self {
            ForfeitReason::CpuOverrun => "CPU overrun",
            ForfeitReason::Hang => "hang",
            ForfeitReason::Crash => "crash",
            ForfeitReason::NoOutput => "no output.txt",
            ForfeitReason::Unreadable => "unreadable output.txt",
            ForfeitReason::IllegalMove => "illegal move",
            ForfeitReason::WrongBoard => "wrong board",
        }
    }

    /// Position in [`ForfeitReason::ALL`], for counting tables.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// A forfeit: the reason and a one-line account of what happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Forfeit {
    /// Which rule was broken.
    pub reason: ForfeitReason,
    /// What the referee saw, e.g. `exit code 1: Segmentation fault`.
    pub detail: String,
}

impl Forfeit {
    /// A forfeit for `reason` with `detail`.
    pub fn new(reason: ForfeitReason, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            reason,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail == self.reason.words() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.reason, self.detail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_json_and_table_order() {
        for (i, r) in ForfeitReason::ALL.into_iter().enumerate() {
            assert_eq!(r.index(), i);
            assert_eq!(
                serde_json::to_string(&r).unwrap(),
                format!("\"{}\"", r.name())
            );
            assert!(!r.to_string().contains('_'), "{r}");
        }
    }
}

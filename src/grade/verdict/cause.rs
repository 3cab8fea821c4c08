//! The cause of a wrong answer, proved rather than guessed: the bug models
//! (`src/grade/models/`) run on the case, each bug under each convention,
//! and a bug is named only when its model writes exactly the program's
//! `output.txt`. When none does, only what is certain is said.

use serde::Serialize;

use crate::api::move_text;
use crate::game::Move;
use crate::text::SearchMode;

use super::super::cases::Case;
use super::super::models::{Bug, Convention, MODEL_NODES};
use super::spacing::normalized;
use super::Verdict;

/// What the bug models say of a program's `output.txt` on a case.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Models {
    /// The bugs whose model writes exactly this `output.txt` (white space
    /// aside), in [`Bug::ALL`]'s order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reproduced_by: Vec<Bug>,
    /// Of those, the bugs whose model writes it under one convention only,
    /// with that convention.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub only_under: Vec<Model>,
    /// The bugs whose model was given up on this case (past its budget of
    /// positions) and written nothing matching: neither named nor ruled
    /// out here.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<Bug>,
}

/// A bug under a convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Model {
    /// The bug.
    pub bug: Bug,
    /// The convention.
    pub convention: Convention,
}

impl Models {
    /// Whether `bug` under `convention` writes the output.
    pub fn writes(&self, bug: Bug, convention: Convention) -> bool {
        self.reproduced_by.contains(&bug)
            && self
                .only_under
                .iter()
                .all(|m| m.bug != bug || m.convention == convention)
    }

    /// Whether `bug` under `convention` is consistent with this case: its
    /// model writes the output, or was not run.
    pub fn allows(&self, bug: Bug, convention: Convention) -> bool {
        self.writes(bug, convention) || self.not_run.contains(&bug)
    }

    /// Whether every model writing this output writes `other`'s too (the
    /// bugs named here are among those named there).
    pub fn within(&self, other: &Models) -> bool {
        Bug::ALL.into_iter().all(|bug| {
            Convention::ALL
                .into_iter()
                .all(|c| !self.writes(bug, c) || other.writes(bug, c))
        })
    }

    /// How many bug and convention pairs write the output.
    pub fn count(&self) -> usize {
        Bug::ALL
            .into_iter()
            .flat_map(|b| Convention::ALL.into_iter().map(move |c| (b, c)))
            .filter(|&(b, c)| self.writes(b, c))
            .count()
    }

    /// The reproducing bugs in words: `what a program with X writes`, or
    /// `one of: X; Y`; `None` when none does.
    pub(super) fn named(&self) -> Option<String> {
        let list: Vec<String> = self
            .reproduced_by
            .iter()
            .map(|&b| match self.only_under.iter().find(|m| m.bug == b) {
                Some(m) if m.convention != Convention::QuietRaids => {
                    format!("{b} ({})", m.convention)
                }
                _ => b.to_string(),
            })
            .collect();
        match list.len() {
            0 => None,
            1 => Some(format!("what a program with {} writes", list[0])),
            _ => Some(format!(
                "what a program with one of these writes: {}",
                list.join("; ")
            )),
        }
    }

    /// The models given up, in words, if any.
    pub(super) fn not_run_text(&self) -> Option<String> {
        let list: Vec<&str> = self.not_run.iter().map(|b| b.describe()).collect();
        (!list.is_empty())
            .then(|| format!("not run on this case (too costly): {}", list.join("; ")))
    }
}

/// Beyond the bug models, what a wrong move means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "snake_case")]
pub enum Miss {
    /// A bug model writes exactly this `output.txt` (`reproduced_by`).
    Reproduced,
    /// No model does, and the program answers the same position with
    /// another move in the other mode (at most one of its two searches is
    /// right).
    ModesDisagree {
        /// The other mode.
        mode: SearchMode,
        /// Its move there.
        #[serde(serialize_with = "move_text::serialize")]
        other: Move,
    },
    /// No model writes it: only the values are certain.
    Unexplained,
}

/// The `output.txt` a program with `bug` under `convention` writes on
/// `case` (white space as the grader writes it); `None` when its model
/// needs more positions than the grader gives one.
pub fn model_output(case: &Case, bug: Bug, convention: Convention) -> Option<String> {
    case.models(MODEL_NODES)
        .text(bug, convention)
        .map(str::to_owned)
}

/// What the models say of `output`, written on `case`.
pub(super) fn models_of(case: &Case, output: &str) -> Models {
    let output = normalized(output);
    let mut models = case.models(MODEL_NODES);
    let mut out = Models::default();
    for bug in Bug::ALL {
        let writes: Vec<Option<bool>> = Convention::ALL
            .into_iter()
            .map(|c| models.writes(bug, c, &output))
            .collect();
        let under: Vec<Convention> = Convention::ALL
            .into_iter()
            .zip(&writes)
            .filter(|(_, w)| **w == Some(true))
            .map(|(c, _)| c)
            .collect();
        if under.is_empty() {
            if writes.contains(&None) {
                out.not_run.push(bug);
            }
            continue;
        }
        out.reproduced_by.push(bug);
        if let [convention] = under[..] {
            out.only_under.push(Model { bug, convention });
        }
    }
    out
}

/// `verdict` on a case, refined by the program's run on the same position
/// in the other mode (`other`, judged as `other_verdict`): a wrong move no
/// model writes becomes [`Miss::ModesDisagree`] when the other mode's
/// answer is another legal move.
pub fn with_other_mode(verdict: Verdict, other: &Case, other_verdict: &Verdict) -> Verdict {
    let Verdict::WrongMove {
        mv,
        value,
        answer,
        answer_value,
        models,
        miss: Miss::Unexplained,
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
        _ => Miss::Unexplained,
    };
    Verdict::WrongMove {
        mv,
        value,
        answer,
        answer_value,
        models,
        miss,
    }
}

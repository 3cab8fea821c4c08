//! The cause of a wrong answer, proved rather than guessed: the bug models
//! (`src/search/bug_models.rs`) run on the case, and a bug is named only
//! when its model writes exactly the program's `output.txt`. When none
//! does, only what is certain is said.

use serde::Serialize;

use crate::api::move_text;
use crate::game::Move;
use crate::search::bug_models::{written, Bug, Rules};
use crate::text::SearchMode;

use super::super::cases::{textbook_nodes, Case};
use super::spacing::normalized;
use super::Verdict;

/// Positions one model may search on one case before it is given up (a
/// few tenths of a second): a case is cheap for a textbook program, but a
/// model one ply deeper, or one running to the full board, need not be.
pub(crate) const MODEL_NODES: u64 = 3_000_000;

/// How far past the budget a search's estimated minimax positions may be
/// and the search still be tried: alpha-beta (which most models run, see
/// `Rules`) visits far fewer, often the square root of them.
const HOPELESS: u64 = 50;

/// What the bug models say of a program's `output.txt` on a case.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Models {
    /// The bugs whose model writes exactly this `output.txt` (white space
    /// aside), in [`Bug::ALL`]'s order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reproduced_by: Vec<Bug>,
    /// The bugs whose model was given up on this case (past its budget of
    /// positions): neither named nor ruled out here.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<Bug>,
}

impl Models {
    /// Whether `bug` is consistent with this case: its model writes the
    /// output, or was not run.
    pub fn allows(&self, bug: Bug) -> bool {
        self.reproduced_by.contains(&bug) || self.not_run.contains(&bug)
    }

    /// The reproducing bugs in words: `what a program with X writes`, or
    /// `one of: X; Y`; `None` when none does.
    pub(super) fn named(&self) -> Option<String> {
        let list: Vec<&str> = self.reproduced_by.iter().map(|b| b.describe()).collect();
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

/// The `output.txt` each model writes on one case, each distinct set of
/// rules searched once (a bug that changes nothing for this player or
/// mode is the textbook, whose answer the case holds).
pub(crate) struct CaseModels<'a> {
    case: &'a Case,
    /// Rules searched, and what they write (`None`: past the budget).
    seen: Vec<(Rules, Option<String>)>,
    max_nodes: u64,
}

impl<'a> CaseModels<'a> {
    /// The models of `case`, each allowed `max_nodes` positions.
    pub(crate) fn new(case: &'a Case, max_nodes: u64) -> CaseModels<'a> {
        let textbook = normalized(&case.analysis.output_text());
        CaseModels {
            case,
            seen: vec![(Rules::TEXTBOOK, Some(textbook))],
            max_nodes,
        }
    }

    /// What a program with `bug` writes on the case (normalized), `None`
    /// past the budget.
    pub(crate) fn text(&mut self, bug: Bug) -> Option<&str> {
        let p = &self.case.problem;
        let (depth, empties) = (self.case.depth(), p.board.empty_count());
        let rules = bug
            .rules(p.player, self.case.mode())
            .on_case(depth, empties);
        let i = match self.seen.iter().position(|(r, _)| *r == rules) {
            Some(i) => i,
            None => {
                // A search whose estimate is far past the budget would only
                // spend the budget to be given up.
                let plies = rules.plies(depth, empties);
                let estimate = textbook_nodes(&p.board, p.player, plies);
                let w = (estimate / HOPELESS <= self.max_nodes).then(|| {
                    written(
                        &rules,
                        &p.board,
                        p.player,
                        self.case.mode(),
                        depth,
                        self.max_nodes,
                    )
                });
                self.seen.push((rules, w.flatten().map(|w| w.text)));
                self.seen.len() - 1
            }
        };
        self.seen[i].1.as_deref()
    }

    /// Whether `bug`'s model writes `output` (`None`: not run).
    pub(crate) fn writes(&mut self, bug: Bug, output: &str) -> Option<bool> {
        let output = normalized(output);
        self.text(bug).map(|t| t == output)
    }

    /// True when `bug`'s answer here is not the textbook's (`false` past
    /// the budget).
    pub(crate) fn differs(&mut self, bug: Bug) -> bool {
        let textbook = self.seen[0].1.clone();
        self.text(bug)
            .is_some_and(|t| Some(t) != textbook.as_deref())
    }

    /// Every model against the program's `output`.
    pub(crate) fn of(&mut self, output: &str) -> Models {
        let mut models = Models::default();
        for bug in Bug::ALL {
            match self.writes(bug, output) {
                Some(true) => models.reproduced_by.push(bug),
                Some(false) => {}
                None => models.not_run.push(bug),
            }
        }
        models
    }
}

/// The `output.txt` a program with `bug` writes on `case` (white space
/// as the grader writes it); `None` when its model needs more positions
/// than the grader gives one.
pub fn model_output(case: &Case, bug: Bug) -> Option<String> {
    CaseModels::new(case, MODEL_NODES)
        .text(bug)
        .map(str::to_owned)
}

/// What the models say of `output`, written on `case`.
pub(super) fn models_of(case: &Case, output: &str) -> Models {
    CaseModels::new(case, MODEL_NODES).of(output)
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

//! The models on one case: what a program with each bug, under each
//! convention, writes there, each distinct search run once.

use crate::text::{Problem, Question, SearchMode};

use super::bug::Bug;
use super::convention::Convention;
use super::cost::textbook_nodes;
use super::textbook::{written, Rules};

/// Positions one model may search on one case before it is given up (a
/// few tenths of a second): a case is cheap for a textbook program, but a
/// model one ply deeper, or one running to the full board, need not be.
pub(crate) const MODEL_NODES: u64 = 3_000_000;

/// How far past the budget a search's estimated minimax positions may be
/// and the search still be tried: alpha-beta (which most models run, see
/// `Rules`) visits far fewer, often the square root of them.
const HOPELESS: u64 = 50;

/// The `output.txt` each model writes on one case, each distinct set of
/// rules searched once (a bug that changes nothing for this player, mode
/// or convention is the textbook, whose answer the case holds).
pub(crate) struct CaseModels<'a> {
    problem: &'a Problem,
    mode: SearchMode,
    depth: u32,
    /// Rules searched, and what they write (`None`: past the budget).
    seen: Vec<(Rules, Option<String>)>,
    max_nodes: u64,
}

impl<'a> CaseModels<'a> {
    /// The models of `problem` (an exact question), whose textbook
    /// `output.txt` is `answer`, each allowed `max_nodes` positions.
    pub(crate) fn new(problem: &'a Problem, answer: String, max_nodes: u64) -> CaseModels<'a> {
        let (mode, depth) = match problem.question {
            Question::Exact { mode, depth } => (mode, depth),
            Question::Competition { .. } => (SearchMode::default(), 1),
        };
        CaseModels {
            problem,
            mode,
            depth,
            seen: vec![(Rules::TEXTBOOK, Some(answer))],
            max_nodes,
        }
    }

    /// What a program with `bug` under `convention` writes on the case,
    /// `None` past the budget.
    pub(crate) fn text(&mut self, bug: Bug, convention: Convention) -> Option<&str> {
        let p = self.problem;
        let (depth, empties) = (self.depth, p.board.empty_count());
        let rules = convention.apply(bug.rules(p.player, self.mode).on_case(depth, empties));
        let i = match self.seen.iter().position(|(r, _)| *r == rules) {
            Some(i) => i,
            None => {
                // A search whose estimate is far past the budget would only
                // spend the budget to be given up.
                let plies = rules.plies(depth, empties);
                let estimate = textbook_nodes(&p.board, p.player, plies);
                let w = (estimate / HOPELESS <= self.max_nodes)
                    .then(|| written(&rules, &p.board, p.player, self.mode, depth, self.max_nodes));
                self.seen.push((rules, w.flatten().map(|w| w.text)));
                self.seen.len() - 1
            }
        };
        self.seen[i].1.as_deref()
    }

    /// Whether the model writes `output` (`None`: not run).
    pub(crate) fn writes(
        &mut self,
        bug: Bug,
        convention: Convention,
        output: &str,
    ) -> Option<bool> {
        self.text(bug, convention).map(|t| t == output)
    }

    /// True when the model's answer here is not the textbook's (`false`
    /// past the budget).
    pub(crate) fn differs(&mut self, bug: Bug, convention: Convention) -> bool {
        let textbook = self.seen[0].1.clone();
        self.text(bug, convention)
            .is_some_and(|t| Some(t) != textbook.as_deref())
    }
}

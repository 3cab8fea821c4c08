//! The diagnosis across cases: the modelled bugs consistent with every
//! case. A bug stays when its model writes every wrong `output.txt` the
//! program wrote (an illegal or wrong move, a wrong board or label) and the
//! answer of every case the program passed; a case where its model was
//! given up (too costly) rules nothing out. One case often fits several
//! bugs; fifty narrow them down, and when none does "one of" is said
//! rather than one picked.

use std::fmt;

use serde::Serialize;

use crate::search::bug_models::Bug;

use super::cases::Case;
use super::result::CaseResult;
use super::verdict::{CaseModels, Verdict, MODEL_NODES};

/// One bug a diagnosis names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Suspect {
    /// The bug.
    pub bug: Bug,
    /// The wrong outputs its model writes exactly.
    pub support: usize,
    /// The case that shows it best: the fewest other models writing the
    /// same output there, then the smallest.
    pub best_case: String,
    /// True when no other model writes that case's output.
    pub alone: bool,
}

/// The bugs that explain a program's wrong outputs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    /// Failing cases whose `output.txt` the models were tried on.
    pub evidence: usize,
    /// The bugs consistent with every case, in [`Bug::ALL`]'s order;
    /// empty when none is.
    pub bugs: Vec<Suspect>,
}

/// The bugs not ruled out by the failing cases of `verdicts`: each model
/// writes every wrong output (or was not run there) and at least one.
pub(crate) fn suspects(verdicts: &[&Verdict]) -> Vec<Bug> {
    let evidence: Vec<_> = verdicts.iter().filter_map(|v| v.models()).collect();
    Bug::ALL
        .into_iter()
        .filter(|&bug| {
            evidence.iter().all(|m| m.allows(bug))
                && evidence.iter().any(|m| m.reproduced_by.contains(&bug))
        })
        .collect()
}

/// The `suspects` a case the program passed rules out: their model writes
/// another answer there.
pub(crate) fn ruled_out_by_pass(case: &Case, suspects: &[Bug]) -> Vec<Bug> {
    let mut models = CaseModels::new(case, MODEL_NODES);
    let answer = case.analysis.output_text();
    suspects
        .iter()
        .copied()
        .filter(|&bug| models.writes(bug, &answer) == Some(false))
        .collect()
}

/// True for a verdict whose output is the exact answer (a pass, white
/// space aside, or a folder's disputed case).
pub(crate) fn wrote_the_answer(v: &Verdict) -> bool {
    matches!(
        v,
        Verdict::Pass | Verdict::Spacing { .. } | Verdict::Disputed { .. }
    )
}

impl Diagnosis {
    /// The diagnosis of `results` given the bugs still standing after the
    /// passing cases; `None` when no failing case wrote an output the
    /// models could be tried on.
    pub(crate) fn new(results: &[&CaseResult], standing: &[Bug]) -> Option<Diagnosis> {
        let evidence: Vec<&CaseResult> = results
            .iter()
            .copied()
            .filter(|r| r.verdict.models().is_some())
            .collect();
        if evidence.is_empty() {
            return None;
        }
        let bugs = standing
            .iter()
            .filter_map(|&bug| {
                let writes: Vec<&CaseResult> = evidence
                    .iter()
                    .copied()
                    .filter(|r| {
                        r.verdict
                            .models()
                            .is_some_and(|m| m.reproduced_by.contains(&bug))
                    })
                    .collect();
                let others =
                    |r: &CaseResult| r.verdict.models().map_or(0, |m| m.reproduced_by.len());
                let best = writes
                    .iter()
                    .min_by_key(|r| (others(r), r.size.n, r.size.empties, r.size.depth))?;
                Some(Suspect {
                    bug,
                    support: writes.len(),
                    best_case: best.name.clone(),
                    alone: others(best) == 1,
                })
            })
            .collect();
        Some(Diagnosis {
            evidence: evidence.len(),
            bugs,
        })
    }

    /// The bugs named, for the shrinker to keep writing.
    pub fn named(&self) -> Vec<Bug> {
        self.bugs.iter().map(|s| s.bug).collect()
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.evidence == 1 { "" } else { "s" };
        match self.bugs.as_slice() {
            [] => write!(
                f,
                "no modelled bug writes every wrong output ({} case{plural}) and the answer \
                 of every passing case: no bug is named",
                self.evidence
            ),
            [one] => write!(
                f,
                "{}: its model writes {} of the {} wrong output{plural} and the answer of \
                 every passing case; {} shows it best{}",
                one.bug,
                one.support,
                self.evidence,
                one.best_case,
                if one.alone {
                    " (no other model writes it)"
                } else {
                    ""
                }
            ),
            several => {
                let list: Vec<String> = several
                    .iter()
                    .map(|s| {
                        format!(
                            "{} ({} of {}, {})",
                            s.bug, s.support, self.evidence, s.best_case
                        )
                    })
                    .collect();
                write!(
                    f,
                    "one of: {}; no case here tells them apart",
                    list.join("; ")
                )
            }
        }
    }
}

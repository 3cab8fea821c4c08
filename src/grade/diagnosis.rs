//! The diagnosis across cases: the modelled bugs consistent with every
//! case. A bug, under a convention, stays when its model writes every
//! wrong `output.txt` the program wrote (an illegal or wrong move, a wrong
//! board or label) and the answer of every case the program passed; a
//! case where its model was given up (too costly) rules nothing out. When
//! no bug stays everywhere, each is tried restricted to one mode or one
//! depth parity: every wrong output inside the restriction written by the
//! model, none outside it. One case often fits several bugs; fifty narrow
//! them down, and when none does "one of" is said rather than one picked.

use std::fmt;

use serde::Serialize;

use super::cases::Case;
use super::models::{Bug, Convention, Restriction, MODEL_NODES};
use super::result::CaseResult;
use super::verdict::Verdict;

/// One bug a diagnosis names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Suspect {
    /// The bug.
    pub bug: Bug,
    /// The only convention under which its model writes every case, if
    /// only one does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub convention: Option<Convention>,
    /// Where the bug shows, when its model fits only there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restriction: Option<Restriction>,
    /// The wrong outputs its model writes exactly.
    pub support: usize,
    /// With a restriction: the cases outside it, and how many of them
    /// passed (none wrote a wrong output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outside: Option<Outside>,
    /// The case that shows it best: the fewest other models writing the
    /// same output there, then the smallest.
    pub best_case: String,
    /// True when no other model writes that case's output.
    pub alone: bool,
}

/// The cases outside a restriction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Outside {
    /// How many.
    pub cases: usize,
    /// How many of them the program passed.
    pub passed: usize,
}

/// The bugs that explain a program's wrong outputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnosis {
    /// Failing cases whose `output.txt` the models were tried on.
    pub evidence: usize,
    /// The bugs consistent with every case, in [`Bug::ALL`]'s order;
    /// empty when none is. After experiments, those whose model writes
    /// the program's answers there too.
    pub bugs: Vec<Suspect>,
    /// The experiments run to tell the bugs apart (one program run each).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub experiments: Vec<Experiment>,
    /// True when several bugs stand and no small input tried tells them
    /// apart.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inseparable: bool,
}

/// A bug under a convention, everywhere (`None`) or under a restriction.
pub(crate) type Candidate = (Bug, Convention, Option<Restriction>);

/// True when `case` lies inside `restriction` (everywhere for `None`).
fn inside(case: &Case, restriction: Option<Restriction>) -> bool {
    restriction.is_none_or(|r| r.holds(case.mode(), case.depth()))
}

/// The candidates not ruled out by the failing cases of `verdicts` (one a
/// case, in the cases' order): each model writes every wrong output inside
/// its restriction (or was not run there), at least one, and no case
/// outside it wrote a wrong output.
pub(crate) fn suspects(cases: &[Case], verdicts: &[&Verdict]) -> Vec<Candidate> {
    let evidence: Vec<(&Case, _)> = cases
        .iter()
        .zip(verdicts)
        .filter_map(|(c, v)| Some((c, v.models()?)))
        .collect();
    let restrictions = std::iter::once(None).chain(Restriction::ALL.map(Some));
    let mut out = Vec::new();
    for restriction in restrictions {
        for bug in Bug::ALL {
            for convention in Convention::ALL {
                let fits = evidence
                    .iter()
                    .all(|(c, m)| inside(c, restriction) && m.allows(bug, convention))
                    && evidence.iter().any(|(_, m)| m.writes(bug, convention));
                if fits {
                    out.push((bug, convention, restriction));
                }
            }
        }
    }
    out
}

/// The `suspects` a case the program passed rules out: inside their
/// restriction, their model writes another answer there.
pub(crate) fn ruled_out_by_pass(case: &Case, suspects: &[Candidate]) -> Vec<Candidate> {
    let mut models = case.models(MODEL_NODES);
    let answer = case.analysis.output_text();
    suspects
        .iter()
        .copied()
        .filter(|&(bug, convention, restriction)| {
            inside(case, restriction) && models.writes(bug, convention, &answer) == Some(false)
        })
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
    /// The diagnosis of `results` (on `cases`, in the same order) given
    /// the candidates still standing after the passing cases (those that
    /// stand everywhere, then those that stand under a restriction, where
    /// the diagnosis weighs them); `None` when no failing case wrote an output the models
    /// could be tried on.
    pub(crate) fn new(
        cases: &[Case],
        results: &[&CaseResult],
        standing: &[Candidate],
    ) -> Option<Diagnosis> {
        let evidence: Vec<&CaseResult> = results
            .iter()
            .copied()
            .filter(|r| r.verdict.models().is_some())
            .collect();
        if evidence.is_empty() {
            return None;
        }
        let mut bugs = Vec::new();
        let restrictions = std::iter::once(None).chain(Restriction::ALL.map(Some));
        for restriction in restrictions {
            for bug in Bug::ALL {
                let conventions: Vec<Convention> = standing
                    .iter()
                    .filter(|&&(b, _, r)| b == bug && r == restriction)
                    .map(|&(_, c, _)| c)
                    .collect();
                let convention = match conventions[..] {
                    [] => continue,
                    [one] => Some(one),
                    _ => None,
                };
                let writes = |r: &CaseResult| {
                    r.verdict.models().is_some_and(|m| match convention {
                        Some(c) => m.writes(bug, c),
                        None => m.reproduced_by.contains(&bug),
                    })
                };
                let others =
                    |r: &CaseResult| r.verdict.models().map_or(0, |m| m.reproduced_by.len());
                let support = evidence.iter().filter(|r| writes(r)).count();
                let Some(best) = evidence
                    .iter()
                    .filter(|r| writes(r))
                    .min_by_key(|r| (others(r), r.size.n, r.size.empties, r.size.depth))
                else {
                    continue;
                };
                let outside = restriction.map(|restriction| {
                    let out: Vec<&CaseResult> = cases
                        .iter()
                        .zip(results)
                        .filter(|(c, _)| !inside(c, Some(restriction)))
                        .map(|(_, r)| *r)
                        .collect();
                    Outside {
                        cases: out.len(),
                        passed: out.iter().filter(|r| wrote_the_answer(&r.verdict)).count(),
                    }
                });
                bugs.push(Suspect {
                    bug,
                    convention,
                    restriction,
                    support,
                    outside,
                    best_case: best.name.clone(),
                    alone: others(best) == 1,
                });
            }
        }
        Some(Diagnosis {
            evidence: evidence.len(),
            bugs,
            experiments: Vec::new(),
            inseparable: false,
        })
    }

    /// The bugs named, for the shrinker to keep writing.
    pub fn named(&self) -> Vec<Bug> {
        let mut bugs: Vec<Bug> = self.bugs.iter().map(|s| s.bug).collect();
        bugs.dedup();
        bugs
    }
}

impl Suspect {
    /// The bug with its convention, when it is not the textbook's, and
    /// its restriction: `one ply short, in ALPHABETA only`.
    pub fn title(&self) -> String {
        let mut t = self.bug.to_string();
        if let Some(c @ Convention::NoQuietRaids) = self.convention {
            t.push_str(&format!(" ({c})"));
        }
        if let Some(r) = self.restriction {
            t.push_str(&format!(", {r}"));
        }
        t
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_bugs(f)?;
        for e in &self.experiments {
            let wrote = match e.matches.as_slice() {
                [] => "what none of their models writes".to_owned(),
                [one] => format!("what {one} writes"),
                many => format!("what {} write", many.join(" and ")),
            };
            let others: Vec<&str> = e
                .models
                .iter()
                .map(|(title, _)| title.as_str())
                .filter(|t| !e.matches.iter().any(|m| m == t))
                .collect();
            write!(f, "; an experiment ({}, one run) wrote {wrote}", e.summary)?;
            if !e.matches.is_empty() && !others.is_empty() {
                write!(f, ", not what {} writes", others.join(" or "))?;
            }
        }
        if self.inseparable {
            f.write_str("; no small input tried makes their models answer differently")?;
        }
        Ok(())
    }
}

impl Diagnosis {
    fn fmt_bugs(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.evidence == 1 { "" } else { "s" };
        match self.bugs.as_slice() {
            [] => write!(
                f,
                "no modelled bug writes every wrong output ({} case{plural}) and the answer \
                 of every passing case, in either mode or at either depth parity: no bug is \
                 named",
                self.evidence
            ),
            [one] => {
                let alone = if one.alone {
                    " (no other model writes it)"
                } else {
                    ""
                };
                match (one.restriction, one.outside) {
                    (Some(r), Some(out)) => {
                        write!(
                            f,
                            "{}: writes {} of the {} {} failure{plural}; ",
                            one.title(),
                            one.support,
                            self.evidence,
                            r.inside()
                        )?;
                        if out.passed == out.cases {
                            write!(f, "every {} case passes", r.outside())?;
                        } else {
                            write!(f, "no {} case writes a wrong answer", r.outside())?;
                        }
                        write!(f, "; {} shows it best{alone}", one.best_case)
                    }
                    _ => write!(
                        f,
                        "{}: its model writes {} of the {} wrong output{plural} and the answer \
                         of every passing case; {} shows it best{alone}",
                        one.title(),
                        one.support,
                        self.evidence,
                        one.best_case,
                    ),
                }
            }
            several => {
                let list: Vec<String> = several
                    .iter()
                    .map(|s| {
                        format!(
                            "{} ({} of {}, {})",
                            s.title(),
                            s.support,
                            self.evidence,
                            s.best_case
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

/// One experiment: an input, what each bug still suspected writes there,
/// and what the program wrote.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Experiment {
    /// The case in one line.
    pub summary: String,
    /// Its `input.txt`.
    pub input: String,
    /// Each bug suspected before it (as the diagnosis names it) and the
    /// `output.txt` its model writes there (one per convention that
    /// stands, when they differ).
    pub models: Vec<(String, Vec<String>)>,
    /// The program's `output.txt`, if it wrote one.
    pub output: Option<String>,
    /// The bugs whose model writes it: those the diagnosis keeps.
    pub matches: Vec<String>,
    /// The run's CPU seconds, as a case's.
    pub cpu: f64,
    /// The run's wall-clock seconds, as a case's.
    pub wall: f64,
}

//! Experiments for a tie between models. When the diagnosis keeps several
//! bugs (or one bug under several restrictions), each writing every wrong
//! output and the answer of every passing case, the cases cannot tell
//! them apart, but the program can be asked: a small input on which their
//! models answer differently is searched for among seeded random
//! positions (2x2 boards first), the program is run on it as on a case
//! (in its sandbox, under its limits), and only the bugs whose model
//! writes its answer (white space aside) are kept. A restricted bug's
//! program writes the textbook answer outside its restriction. Up to
//! [`EXPERIMENTS`] runs, while two or more bugs remain.

use std::io;
#[cfg(test)]
use std::path::Path;
use std::time::Duration;

use crate::game::random::Rng;

use super::cases::{small_case, Case};
use super::diagnosis::{Diagnosis, Experiment, Suspect};
use super::models::{alike, Convention, Suspected, MODEL_NODES};
use super::run::{run_case, Program, RunSettings};
use super::verdict::normalized;

/// The most program runs spent on experiments.
const EXPERIMENTS: usize = 3;

/// Positions tried for an input that tells the suspects apart.
const ATTEMPTS: usize = 400;

/// Further positions tried, once one tells some of them apart, for one
/// on which each answers otherwise.
const APART_ATTEMPTS: usize = 60;

/// Runs experiments on `program` for the suspects of `diagnosis` while two
/// or more remain, keeping only those whose model writes its answers; says
/// so in the diagnosis, or that no input tried tells them apart. Returns
/// the program runs made. The error is the grader's own trouble.
pub(crate) fn settle(
    program: &Program,
    settings: &RunSettings,
    diagnosis: &mut Diagnosis,
) -> io::Result<usize> {
    let mut runs = 0;
    let mut rng = Rng::new(0x5EED_E4BE_21E7);
    while diagnosis.bugs.len() >= 2 && runs < EXPERIMENTS {
        // Models alike by their rules answer alike on every input: the
        // search below could only fail, after trying all its positions.
        if never_apart(&diagnosis.bugs) {
            diagnosis.inseparable = true;
            break;
        }
        let Some((case, outputs)) = telling_case(&diagnosis.bugs, &mut rng, settings.time_limit)
        else {
            diagnosis.inseparable = true;
            break;
        };
        let run = run_case(program, &case.input, settings)?;
        runs += 1;
        let written = run
            .output
            .as_ref()
            .ok()
            .map(|b| String::from_utf8_lossy(b).into_owned());
        let matched: Vec<bool> = outputs
            .iter()
            .map(|outs| {
                written
                    .as_deref()
                    .is_some_and(|w| outs.iter().any(|o| normalized(o) == normalized(w)))
            })
            .collect();
        let experiment = Experiment {
            summary: case.summary(),
            input: case.input.clone(),
            models: diagnosis
                .bugs
                .iter()
                .zip(&outputs)
                .map(|(s, outs)| (s.title(), outs.clone()))
                .collect(),
            output: written.map(|w| w.chars().take(4096).collect()),
            matches: diagnosis
                .bugs
                .iter()
                .zip(&matched)
                .filter(|(_, &m)| m)
                .map(|(s, _)| s.title())
                .collect(),
            cpu: run.cpu,
            wall: run.wall,
        };
        diagnosis.experiments.push(experiment);
        if !matched.contains(&true) {
            break;
        }
        let mut keep = matched.iter();
        diagnosis.bugs.retain(|_| *keep.next().unwrap_or(&true));
    }
    Ok(runs)
}

/// True when on every input some one `output.txt` is written by every
/// suspect's model (see [`alike`]).
fn never_apart(suspects: &[Suspect]) -> bool {
    let conventions: Vec<Vec<Convention>> = suspects
        .iter()
        .map(|s| s.convention.map_or(Convention::ALL.to_vec(), |c| vec![c]))
        .collect();
    let suspected: Vec<Suspected<'_>> = suspects
        .iter()
        .zip(&conventions)
        .map(|(s, c)| Suspected {
            bug: s.bug,
            conventions: c,
            restriction: s.restriction,
        })
        .collect();
    alike(&suspected)
}

/// A small case on which no `output.txt` is written by every suspect's
/// model, preferring one where no two write the same, with what each
/// writes there (each convention that stands); `None` when no position
/// tried tells them apart.
fn telling_case(
    suspects: &[Suspect],
    rng: &mut Rng,
    time_limit: Duration,
) -> Option<(Case, Vec<Vec<String>>)> {
    let mut first: Option<(Case, Vec<Vec<String>>, usize)> = None;
    for attempt in 0..ATTEMPTS {
        if first
            .as_ref()
            .is_some_and(|(_, _, at)| attempt > at + APART_ATTEMPTS)
        {
            break;
        }
        let Some(case) = small_case("experiment", rng, attempt, ATTEMPTS, time_limit) else {
            continue;
        };
        let Some(outputs) = predictions(&case, suspects) else {
            continue;
        };
        let shared_by_all = outputs[0]
            .iter()
            .any(|o| outputs[1..].iter().all(|outs| outs.contains(o)));
        if shared_by_all {
            continue;
        }
        let apart = outputs.iter().enumerate().all(|(i, outs)| {
            outputs
                .iter()
                .enumerate()
                .all(|(j, other)| i == j || outs.iter().all(|o| !other.contains(o)))
        });
        if apart {
            return Some((case, outputs));
        }
        if first.is_none() {
            first = Some((case, outputs, attempt));
        }
    }
    first.map(|(case, outputs, _)| (case, outputs))
}

/// What each suspect's program writes on `case`: its model's output under
/// each convention that stands, inside its restriction; the textbook
/// answer outside. `None` when a model is past its budget there.
fn predictions(case: &Case, suspects: &[Suspect]) -> Option<Vec<Vec<String>>> {
    let mut models = case.models(MODEL_NODES);
    let answer = case.analysis.output_text();
    suspects
        .iter()
        .map(|s| {
            let inside = s
                .restriction
                .is_none_or(|r| r.holds(case.mode(), case.depth()));
            if !inside {
                return Some(vec![answer.clone()]);
            }
            let conventions = match s.convention {
                Some(c) => vec![c],
                None => Convention::ALL.to_vec(),
            };
            let mut outs: Vec<String> = Vec::new();
            for c in conventions {
                let text = models.text(s.bug, c)?.to_owned();
                if !outs.contains(&text) {
                    outs.push(text);
                }
            }
            Some(outs)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::diagnosis::Suspect;
    use crate::grade::models::{Bug, Restriction};

    fn suspect(bug: Bug, restriction: Restriction) -> Suspect {
        Suspect {
            bug,
            convention: None,
            restriction: Some(restriction),
            support: 1,
            outside: None,
            best_case: "case 1".into(),
            alone: false,
        }
    }

    /// A program one ply short in ALPHABETA only, suspected of that or of
    /// an opponent maximizing at even depths, is told apart by a run.
    #[test]
    fn an_experiment_names_one_of_two_suspects() {
        let zoo = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/grade-zoo/alphabeta_short.py"
        );
        let args: Vec<String> = ["python3", "-B", zoo].map(String::from).to_vec();
        let program = Program::from_args(&args, Path::new("/")).unwrap();
        let mut diagnosis = Diagnosis {
            evidence: 1,
            bugs: vec![
                suspect(Bug::OneShort, Restriction::AlphaBeta),
                suspect(Bug::OpponentMaximizes, Restriction::EvenDepths),
            ],
            experiments: Vec::new(),
            inseparable: false,
        };
        let settings = RunSettings {
            time_limit: Duration::from_secs(5),
        };
        let runs = settle(&program, &settings, &mut diagnosis).unwrap();
        assert_eq!(runs, diagnosis.experiments.len());
        assert!(runs >= 1);
        let named: Vec<Bug> = diagnosis.bugs.iter().map(|s| s.bug).collect();
        assert_eq!(named, [Bug::OneShort], "{diagnosis}");
        assert!(
            diagnosis.to_string().contains("an experiment"),
            "{diagnosis}"
        );
    }

    /// Bugs no input tells apart are said to be so, with no run.
    #[test]
    fn bugs_no_input_tells_apart_cost_no_run() {
        let program = Program::shell("true");
        let mut diagnosis = Diagnosis {
            evidence: 1,
            bugs: vec![
                suspect(Bug::RaidsFlipNothing, Restriction::AlphaBeta),
                suspect(Bug::StakesOnly, Restriction::AlphaBeta),
            ],
            experiments: Vec::new(),
            inseparable: false,
        };
        let settings = RunSettings {
            time_limit: Duration::from_secs(5),
        };
        assert_eq!(settle(&program, &settings, &mut diagnosis).unwrap(), 0);
        assert!(diagnosis.inseparable);
        assert_eq!(diagnosis.bugs.len(), 2);
    }
}

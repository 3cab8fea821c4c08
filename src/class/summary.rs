//! The class summary: how many students have each diagnosed bug, and
//! which cases fail most.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::grade::Case;

use super::book::{Gradebook, Status};

/// Cases listed among those failing most.
const MOST: usize = 10;

/// The summary of `book`, graded on `cases` from `source`.
pub fn summary(book: &Gradebook, cases: &[Case], source: &str) -> String {
    let rows = &book.rows;
    let cannot: Vec<_> = rows
        .iter()
        .filter_map(|r| Some((&r.student, r.status.why_not()?)))
        .collect();
    let unbuilt = rows
        .iter()
        .filter(|r| matches!(r.status, Status::CannotBuild { .. }))
        .count();
    let full = rows.iter().filter(|r| r.strict == 100).count();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Class summary: {} submissions, {} cases ({source})",
        rows.len(),
        cases.len()
    );
    let _ = writeln!(
        out,
        "  {full} score 100; {} fail some case; {} cannot run; {unbuilt} cannot build",
        rows.len() - full - cannot.len(),
        cannot.len() - unbuilt
    );
    let mut scores: Vec<u32> = rows.iter().map(|r| r.strict).collect();
    scores.sort_unstable();
    if let Some(&median) = scores.get(scores.len() / 2) {
        let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / scores.len() as f64;
        let _ = writeln!(out, "  strict score: mean {mean:.1}, median {median}");
    }
    let mut bugs: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unnamed = 0;
    for r in rows.iter().filter(|r| !r.diagnosis.is_empty()) {
        match &r.named {
            Some(named) => *bugs.entry(named).or_default() += 1,
            None => unnamed += 1,
        }
    }
    let _ = writeln!(out, "\nDiagnosed bugs (students):");
    let mut bugs: Vec<(&str, usize)> = bugs.into_iter().collect();
    bugs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (bug, n) in &bugs {
        let _ = writeln!(out, "  {n:>4}  {bug}");
    }
    if unnamed > 0 {
        let _ = writeln!(
            out,
            "  {unnamed:>4}  wrong outputs no modelled bug explains"
        );
    }
    if bugs.is_empty() && unnamed == 0 {
        let _ = writeln!(out, "  none: no student wrote a wrong output");
    }
    let mut failing: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows {
        for c in &r.failing {
            *failing.entry(c).or_default() += 1;
        }
    }
    let mut failing: Vec<(&str, usize)> = failing.into_iter().collect();
    // Most students first, then in the cases' order.
    let order = |name: &str| {
        cases
            .iter()
            .position(|c| c.name == name)
            .unwrap_or(usize::MAX)
    };
    failing.sort_by(|a, b| b.1.cmp(&a.1).then(order(a.0).cmp(&order(b.0))));
    let _ = writeln!(out, "\nCases failing most (students failing them):");
    if failing.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for (name, n) in failing.iter().take(MOST) {
        let what = cases
            .iter()
            .find(|c| c.name == *name)
            .map(|c| format!("{}, {}", c.summary(), c.kind.describe()))
            .unwrap_or_default();
        let _ = writeln!(out, "  {n:>4}  {name}: {what}");
    }
    if !cannot.is_empty() {
        let _ = writeln!(out, "\nNot graded:");
        for (student, why) in cannot {
            let _ = writeln!(out, "  {student}: {why}");
        }
    }
    out
}

//! The grade: every case's result, the smallest failing inputs, the score
//! as the assignment defines it (strict and lenient), and its forms: the
//! terminal text, the JSON (serde) and Gradescope's `results.json`.

use std::fmt::{self, Write as _};

use serde::Serialize;
use serde_json::json;

use crate::sandbox::Protections;

use super::cases::{Dispute, GradeBy};
use super::diagnosis::Diagnosis;
use super::kept;
use super::result::CaseResult;
use super::run::Program;
use super::shrink::{Shrunk, ShrunkSummary};
use super::verdict::{visible, Failure, VISIBLE_KEY};
use super::GradeSettings;

/// The cases of the assignment's rule: all of them pass for 100 points,
/// else 50 - N.
const RULE_CASES: u32 = 50;

/// A score as the assignment defines it, and the rule that gave it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Points out of 100.
    pub points: u32,
    /// Cases that fail.
    pub failed: usize,
    /// Cases in all.
    pub cases: usize,
    /// The rule that gave the points, in one line.
    pub rule: String,
}

impl Score {
    /// The score of `results`: zero if any case wrote no `output.txt`
    /// while exiting cleanly, wrote it under another name or malformed, or
    /// if the program crashed on every case (it does not load or cannot
    /// read its input); else 100 when every case passes, else 50 - N for N
    /// failed cases (at least 0). `lenient` passes a right answer whose
    /// white space differs.
    pub fn of(results: &[CaseResult], lenient: bool) -> Score {
        let cases = results.len();
        let failed = results
            .iter()
            .filter(|r| !r.verdict.passes(lenient))
            .count();
        let score = |points, rule| Score {
            points,
            failed,
            cases,
            rule,
        };
        if let Some(r) = results
            .iter()
            .find(|r| r.failure.is_some_and(Failure::zeroes_the_score))
        {
            return score(
                0,
                format!(
                    "0: {} ({}): the assignment gives zero for no output.txt, \
                     one under another name, or a malformed one",
                    r.name, r.verdict
                ),
            );
        }
        if cases > 0 && results.iter().all(|r| r.failure == Some(Failure::Crash)) {
            return score(
                0,
                "0: the program crashed on every case: the assignment gives zero when \
                 it does not load or cannot read input.txt"
                    .into(),
            );
        }
        if failed == 0 {
            return score(100, format!("100: all {cases} cases pass"));
        }
        let points = RULE_CASES.saturating_sub(u32::try_from(failed).unwrap_or(u32::MAX));
        score(
            points,
            format!(
                "{points} = max(0, 50 - {failed}): {failed} of {cases} cases fail, \
                 and the assignment gives 50 - N when any does"
            ),
        )
    }
}

/// The whole grade.
#[derive(Clone, Debug, Serialize)]
pub struct GradeReport {
    /// The program, as given.
    pub program: String,
    /// Where the cases came from (`seed 1`, a folder), as the caller says.
    pub source: String,
    /// The CPU-time limit of a run, in seconds.
    pub time_limit: f64,
    /// The wall-clock limit of a run, in seconds.
    pub wall_limit: f64,
    /// Cases run at once (0: one per core).
    pub jobs: usize,
    /// What the sandbox enforced on each run, and what it could not.
    pub sandbox: Protections,
    /// When every case crashed saying that a path the sandbox hides was not
    /// found or could not be read:
    /// that, and the option that shows it, said once at the top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sandbox_note: Option<String>,
    /// Program runs the shrinker could spend on each kind of failure.
    pub shrink_runs: usize,
    /// Wall-clock seconds the shrinker could spend on each kind of failure.
    pub shrink_time: f64,
    /// Every case, in order.
    pub cases: Vec<CaseResult>,
    /// The score, byte-for-byte comparison.
    pub strict: Score,
    /// The score with white-space differences forgiven.
    pub lenient: Score,
    /// Each kind of failure with the cases that fail so, in order of first
    /// appearance.
    pub failures: Vec<(Failure, Vec<String>)>,
    /// The smallest failing input found for each kind of failure.
    pub shrunk: Vec<ShrunkSummary>,
    /// The modelled bugs that explain every case, when some case failed
    /// with an output the bug models could be tried on.
    pub diagnosis: Option<Diagnosis>,
}

impl GradeReport {
    /// The report of `results`, with the smallest failing inputs `shrunk`
    /// and the `diagnosis` across cases.
    pub fn new(
        program: &Program,
        settings: &GradeSettings,
        cases: Vec<CaseResult>,
        shrunk: &[Shrunk],
        diagnosis: Option<Diagnosis>,
    ) -> GradeReport {
        let mut failures: Vec<(Failure, Vec<String>)> = Vec::new();
        for r in &cases {
            let Some(f) = r.failure else { continue };
            match failures.iter_mut().find(|(g, _)| *g == f) {
                Some((_, names)) => names.push(r.name.clone()),
                None => failures.push((f, vec![r.name.clone()])),
            }
        }
        GradeReport {
            program: program.to_string(),
            source: String::new(),
            time_limit: settings.run.time_limit.as_secs_f64(),
            wall_limit: settings.run.limits().wall.as_secs_f64(),
            jobs: settings.jobs,
            sandbox: program.sandbox().protections().clone(),
            sandbox_note: hidden_path_note(program, &cases),
            shrink_runs: settings.shrink_runs,
            shrink_time: settings.shrink_time.as_secs_f64(),
            strict: Score::of(&cases, false),
            lenient: Score::of(&cases, true),
            cases,
            failures,
            shrunk: shrunk.iter().map(Shrunk::summary).collect(),
            diagnosis,
        }
    }

    /// True when every case passes byte for byte.
    pub fn all_pass(&self) -> bool {
        self.strict.failed == 0
    }

    /// The report as Gradescope's autograder reads it (`results.json`):
    /// the strict score, one test holding it, and one test per case with
    /// the verdict and the texts of a failing case as its output, shown
    /// to students as `inputs` says ([`gradescope_json`]).
    pub fn gradescope(&self, inputs: Visibility) -> serde_json::Value {
        gradescope_json(self, inputs)
    }
}

/// When every case crashed and each one's standard error says that the
/// same path the sandbox hides was not found or could not be read (an
/// interpreter a wrapper script calls under `/root`): the note that says
/// so, with the `--read` that shows it. A path the program merely printed
/// (its environment, on a run that went on to write an answer) is no
/// reason for a failure, and gets no note.
fn hidden_path_note(program: &Program, cases: &[CaseResult]) -> Option<String> {
    let mut found = None;
    for r in cases {
        if r.failure? != Failure::Crash {
            return None;
        }
        let hidden = r
            .stderr
            .lines()
            .filter(|line| says_missing(line))
            .find_map(|line| program.sandbox().hidden_path(line))?;
        if found.as_ref().is_some_and(|f| *f != hidden) {
            return None;
        }
        found = Some(hidden);
    }
    let (path, root) = found?;
    Some(format!(
        "every case failed naming {}, which the sandbox does not show the program: \
         give --read {} to show it read-only",
        path.display(),
        root.display()
    ))
}

/// Whether a line of standard error says that a file could not be found,
/// opened or executed, as shells, interpreters and the loader say it.
fn says_missing(line: &str) -> bool {
    const WORDS: [&str; 9] = [
        "not found",
        "No such file",
        "Permission denied",
        "can't open",
        "cannot open",
        "cannot execute",
        "cannot access",
        "Could not find",
        "bad interpreter",
    ];
    WORDS.iter().any(|w| line.contains(w))
}

/// Who sees a Gradescope test, and when (its `visibility`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Students see it at once.
    #[default]
    Visible,
    /// Only instructors see it.
    Hidden,
    /// Students see it after the due date.
    AfterDueDate,
    /// Students see it once the grades are published.
    AfterPublished,
}

/// A name that is none of Gradescope's four visibilities.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: must be visible, hidden, after_due_date or after_published")]
pub struct UnknownVisibility(pub String);

impl std::str::FromStr for Visibility {
    type Err = UnknownVisibility;

    /// Gradescope's own names: `visible`, `hidden`, `after_due_date`,
    /// `after_published`.
    fn from_str(s: &str) -> Result<Visibility, UnknownVisibility> {
        match s.trim() {
            "visible" => Ok(Visibility::Visible),
            "hidden" => Ok(Visibility::Hidden),
            "after_due_date" => Ok(Visibility::AfterDueDate),
            "after_published" => Ok(Visibility::AfterPublished),
            _ => Err(UnknownVisibility(s.to_owned())),
        }
    }
}

/// [`GradeReport::gradescope`]. The score follows the assignment's rule
/// (100, or 50 - N), which is no sum of per-case points: so one test
/// carries the whole score out of 100, and the cases are tests with a
/// status and no points, so that the tests add up to the score Gradescope
/// shows. The cases and the smallest failing inputs (the graded inputs
/// themselves) are shown to students as `inputs` says; the score and its
/// rule always are.
pub fn gradescope_json(report: &GradeReport, inputs: Visibility) -> serde_json::Value {
    let mut rule = format!("{}\n", report.strict.rule);
    if report.lenient != report.strict {
        rule.push_str(&format!(
            "With white space ignored: {}\n",
            report.lenient.rule
        ));
    }
    let mut tests = vec![json!({
        "name": "Score (the assignment's rule: 100 if every case passes, else 50 - N)",
        "score": report.strict.points,
        "max_score": 100,
        "output": rule,
        "visibility": Visibility::Visible,
    })];
    tests.extend(report.cases.iter().map(|r| {
        let passed = r.verdict.passes(false);
        let mut output = format!("{}\n{}", r.summary, r.verdict);
        if !passed {
            output.push_str(&format!(
                "\n\ninput.txt:\n{}\nexpected output.txt:\n{}",
                r.input, r.expected
            ));
            if let Some(got) = &r.output {
                let shown = output_shown(&edges_shown(got), r.output_cut);
                output.push_str(&format!("\nyour output.txt:\n{shown}"));
            }
        }
        json!({
            "name": format!("{}: {}", r.name, r.summary),
            "status": if passed { "passed" } else { "failed" },
            "output": output,
            "visibility": inputs,
        })
    }));
    if !report.shrunk.is_empty() {
        let text: Vec<String> = report.shrunk.iter().map(shrunk_text).collect();
        tests.push(json!({
            "name": "Smallest failing inputs",
            "status": "failed",
            "output": text.join("\n"),
            "visibility": inputs,
        }));
    }
    let mut output = format!("Score: {rule}");
    if let Some(d) = &report.diagnosis {
        // The diagnosis names cases: it is shown as the cases are.
        let text = format!("Diagnosis across the cases:\n{d}\n");
        if inputs == Visibility::Visible {
            output.push_str(&format!("\n{text}"));
        }
        tests.push(json!({
            "name": "Diagnosis across the cases",
            "output": text,
            "visibility": inputs,
        }));
    }
    json!({
        "score": report.strict.points,
        "output": output,
        "tests": tests,
    })
}

/// `text` with every line indented by four spaces.
fn indented(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// A program's `output.txt` as a report shows it: the white space at the
/// start and end of each line made visible (a trailing space or a CR is
/// otherwise lost on the page), and the key when there is any.
fn edges_shown(text: &str) -> String {
    let blank = |c: char| matches!(c, ' ' | '\t' | '\r');
    let mut marked = false;
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let body = line.trim_matches(blank);
        let start = line.len() - line.trim_start_matches(blank).len();
        let (lead, rest) = line.split_at(start);
        let tail = &rest[body.len()..];
        marked |= !lead.is_empty() || !tail.is_empty();
        let _ = writeln!(out, "{}{body}{}", visible(lead), visible(tail));
    }
    if marked {
        let _ = writeln!(out, "({VISIBLE_KEY})");
    }
    out
}

/// The start of a program's `output.txt` as a report shows it (`shown`),
/// within what a report keeps of a case, and a line saying how much of
/// the file is not there when any is not (`cut` bytes of it were not kept).
fn output_shown(shown: &str, cut: u64) -> String {
    let (text, clipped) = kept::clip(shown, kept::CASE_BYTES);
    let mut out = text.to_owned();
    if cut > 0 || clipped {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        match clipped {
            false => {
                let _ = writeln!(out, "[... {cut} more bytes of output.txt not kept ...]");
            }
            true => out.push_str("[... the rest of output.txt not shown ...]\n"),
        }
    }
    out
}

/// A smallest failing input as the terminal and Gradescope show it.
fn shrunk_text(s: &ShrunkSummary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Smallest failing input for {} (from {}: {} -> {}; {} runs, {}):",
        s.failure,
        s.from,
        s.from_size,
        s.size,
        s.runs,
        s.stopped.describe()
    );
    let _ = write!(out, "  input.txt:\n{}", indented(&s.input));
    let _ = write!(out, "  expected output.txt:\n{}", indented(&s.expected));
    match &s.output {
        Some(got) => {
            let shown = output_shown(&indented(&edges_shown(got)), s.output_cut);
            let _ = write!(out, "  your output.txt:\n{shown}");
            if !got.ends_with('\n') && s.output_cut == 0 {
                out.push_str("    (no newline at the end)\n");
            }
        }
        None => out.push_str("  your output.txt: none\n"),
    }
    let values: Vec<String> = s
        .root_values
        .iter()
        .map(|(mv, v)| format!("{mv} {v}"))
        .collect();
    let _ = writeln!(
        out,
        "  every root move's value at depth {}: {}",
        s.size.depth.min(s.size.empties),
        values.join(", ")
    );
    let _ = writeln!(out, "  verdict: {}", s.verdict);
    out
}

impl fmt::Display for GradeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Graded: {}", self.program)?;
        writeln!(f, "Sandbox: {}", self.sandbox.line())?;
        if let Some(note) = &self.sandbox_note {
            writeln!(f, "NOTE: {note}")?;
        }
        let plural = if self.cases.len() == 1 { "" } else { "s" };
        writeln!(
            f,
            "{} case{plural} ({}), {} s of CPU a case ({} s wall)",
            self.cases.len(),
            self.source,
            self.time_limit,
            self.wall_limit
        )?;
        let disputes: Vec<&Dispute> = self
            .cases
            .iter()
            .filter_map(|r| r.dispute.as_ref())
            .collect();
        if let Some(first) = disputes.first() {
            writeln!(f)?;
            let by = match first.graded_by {
                GradeBy::Engine => "graded by the textbook answer",
                GradeBy::Folder => "graded by the folder's output.txt all the same",
            };
            writeln!(
                f,
                "Cases whose output.txt is not the textbook answer ({by}):"
            )?;
            for d in disputes {
                writeln!(f, "  {}", d.line)?;
            }
        }
        writeln!(f)?;
        let width = self.cases.iter().map(|r| r.name.len()).max().unwrap_or(0);
        for r in &self.cases {
            let mark = if r.verdict.passes(false) {
                "pass"
            } else if r.verdict.passes(true) {
                "pass*"
            } else {
                "FAIL"
            };
            writeln!(
                f,
                "{:width$}  {:5}  {:6.2} s  {}",
                r.name, mark, r.cpu, r.summary
            )?;
            if !r.verdict.passes(false) {
                writeln!(f, "{:width$}         {}", "", r.verdict)?;
            }
        }
        if !self.failures.is_empty() {
            writeln!(f)?;
            writeln!(f, "Failures:")?;
            for (failure, names) in &self.failures {
                let shown: Vec<&str> = names.iter().take(8).map(String::as_str).collect();
                let more = if names.len() > 8 { ", ..." } else { "" };
                writeln!(
                    f,
                    "  {failure}: {} ({}{more})",
                    names.len(),
                    shown.join(", ")
                )?;
            }
        }
        if let Some(d) = &self.diagnosis {
            writeln!(f)?;
            writeln!(f, "Diagnosis across the cases:")?;
            writeln!(f, "  {d}")?;
        }
        for s in &self.shrunk {
            writeln!(f)?;
            f.write_str(&shrunk_text(s))?;
        }
        writeln!(f)?;
        writeln!(f, "Score: {} / 100", self.strict.points)?;
        writeln!(f, "  {}", self.strict.rule)?;
        if self.lenient == self.strict {
            writeln!(f, "  (the same with white space ignored)")?;
        } else {
            writeln!(
                f,
                "With white space ignored (pass*): {} / 100",
                self.lenient.points
            )?;
            writeln!(f, "  {}", self.lenient.rule)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::cases::{CaseKind, CaseSize};
    use crate::grade::verdict::Verdict;
    use crate::play::referee::Exit;

    #[test]
    fn an_unknown_visibility_is_a_typed_error() {
        assert_eq!("hidden".parse::<Visibility>(), Ok(Visibility::Hidden));
        let e: UnknownVisibility = "secret".parse::<Visibility>().unwrap_err();
        let e: &dyn std::error::Error = &e;
        assert_eq!(
            e.to_string(),
            "\"secret\": must be visible, hidden, after_due_date or after_published"
        );
    }

    fn result(verdict: Verdict) -> CaseResult {
        CaseResult {
            name: "case 1".into(),
            kind: CaseKind::Random,
            exposes: None,
            exposes_under: None,
            summary: String::new(),
            size: CaseSize {
                n: 1,
                empties: 1,
                depth: 1,
                distinct_values: 1,
            },
            input: String::new(),
            expected: String::new(),
            output: None,
            output_bytes: None,
            output_cut: 0,
            failure: verdict.failure(),
            verdict,
            cpu: 0.0,
            wall: 0.0,
            exit: Exit::Code(0),
            files: Vec::new(),
            stdout: String::new(),
            stdout_cut: 0,
            stderr: String::new(),
            stderr_cut: 0,
            dispute: None,
        }
    }

    #[test]
    fn white_space_at_the_edges_of_an_output_shows() {
        assert_eq!(edges_shown("A1 Stake\nX.\n"), "A1 Stake\nX.\n");
        assert_eq!(
            edges_shown("A1 Stake \r\n\tX.\n"),
            format!("A1 Stake·␍\n→X.\n({VISIBLE_KEY})\n")
        );
    }

    #[test]
    fn the_assignment_rule() {
        let pass = || result(Verdict::Pass);
        let spacing = || {
            result(Verdict::Spacing {
                differences: vec![super::super::Spacing::NoFinalNewline],
                line: None,
                written: None,
            })
        };
        let timeout = || {
            result(Verdict::Timeout {
                cpu: 1.0,
                wall: 1.0,
            })
        };
        let crash = || {
            result(Verdict::Crash {
                exit: Exit::Code(1),
                stderr: String::new(),
            })
        };
        let all = vec![pass(); 50];
        assert_eq!(Score::of(&all, false).points, 100);
        let mut some = all.clone();
        some[3] = timeout();
        some[9] = crash();
        some[10] = spacing();
        let strict = Score::of(&some, false);
        assert_eq!((strict.points, strict.failed), (47, 3));
        assert!(
            strict.rule.starts_with("47 = max(0, 50 - 3)"),
            "{}",
            strict.rule
        );
        assert_eq!(Score::of(&some, true).points, 48);
        some[20] = result(Verdict::NoOutput);
        assert_eq!(Score::of(&some, true).points, 0);
        let crashes = vec![crash(); 5];
        assert_eq!(Score::of(&crashes, false).points, 0);
        let many = vec![timeout(); 60];
        assert_eq!(Score::of(&many, false).points, 0);
        assert_eq!(Score::of(&vec![spacing(); 10], false).points, 40);
    }
}

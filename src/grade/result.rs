//! One case graded: the case, what the run left and the verdict, as the
//! report, the diagnosis and the JSON read it.

use serde::Serialize;

use crate::play::referee::Exit;

use super::cases::{Case, CaseKind, CaseSize, Dispute};
use super::kept;
use super::models::{Bug, Convention};
use super::run::CaseRun;
use super::verdict::{Failure, Verdict};

/// One case graded.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Why it was drawn.
    pub kind: CaseKind,
    /// The bug it was drawn to expose, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposes: Option<Bug>,
    /// The convention it was drawn to expose the bug under.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposes_under: Option<Convention>,
    /// The case in one line.
    pub summary: String,
    /// Its size.
    pub size: CaseSize,
    /// Its `input.txt`.
    pub input: String,
    /// The expected `output.txt`.
    pub expected: String,
    /// The program's `output.txt` (invalid UTF-8 replaced), if it wrote
    /// one: its start, as much as the report keeps ([`kept`]).
    pub output: Option<String>,
    /// The size of that `output.txt`, whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_bytes: Option<u64>,
    /// The bytes of it `output` leaves out.
    pub output_cut: u64,
    /// The verdict.
    pub verdict: Verdict,
    /// How it failed, if it did.
    pub failure: Option<Failure>,
    /// CPU seconds of the run.
    pub cpu: f64,
    /// Wall-clock seconds of the run.
    pub wall: f64,
    /// How the run ended.
    pub exit: Exit,
    /// Other files the run left in its folder.
    pub files: Vec<String>,
    /// Standard output, its start and end.
    pub stdout: String,
    /// The bytes of it `stdout` leaves out.
    pub stdout_cut: u64,
    /// Standard error, its start and end.
    pub stderr: String,
    /// The bytes of it `stderr` leaves out.
    pub stderr_cut: u64,
    /// The folder's `output.txt` when it is not the exact answer, and why.
    pub dispute: Option<Dispute>,
}

impl CaseResult {
    /// The result of `run` on `case`, judged `verdict`.
    pub fn new(case: &Case, run: &CaseRun, verdict: Verdict) -> CaseResult {
        let (output, stdout, stderr) = kept::keep_case(
            run.output.as_deref().ok(),
            run.output_size,
            &run.stdout,
            &run.stderr,
        );
        CaseResult {
            name: case.name.clone(),
            kind: case.kind,
            exposes: case.exposes,
            exposes_under: case.exposes_under,
            summary: case.summary(),
            size: case.size(),
            input: case.input.clone(),
            expected: case.expected.clone(),
            output_bytes: output.as_ref().map(|_| run.output_size),
            output_cut: output.as_ref().map_or(0, |o| o.cut),
            output: output.map(|o| o.text),
            failure: verdict.failure(),
            verdict,
            cpu: run.cpu,
            wall: run.wall,
            exit: run.exit,
            files: run.files.clone(),
            stdout: stdout.text,
            stdout_cut: stdout.cut,
            stderr: stderr.text,
            stderr_cut: stderr.cut,
            dispute: case.dispute.clone(),
        }
    }
}

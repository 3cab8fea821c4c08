//! `stakeraid grade --class DIR`: a class graded in one command, over the
//! settings `stakeraid grade` builds for one program.

use std::path::Path;

use anyhow::Context;
use stakeraid::class::{grade_class, ClassSettings, Progress, Status, Submission};
use stakeraid::grade::Case;

use super::io::{check_writable, write_stdout};

/// Checks the class folder and the output folder before anything runs:
/// the submissions, and `out` made and writable.
pub fn check_class(dir: &Path, out: &Path) -> anyhow::Result<Vec<Submission>> {
    let subs = stakeraid::class::submissions(dir)?;
    // Inside DIR, the output would be a submission of the next run.
    let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_owned());
    anyhow::ensure!(
        !absolute(out).starts_with(absolute(dir)),
        "--class-out {}: inside the class folder; give a folder outside {}",
        out.display(),
        dir.display()
    );
    std::fs::create_dir_all(out.join("reports"))
        .with_context(|| format!("cannot write the gradebook to {}", out.display()))?;
    check_writable(&out.join("gradebook.csv"))?;
    Ok(subs)
}

/// Grades the class into `out`, a line on standard error per student, the
/// summary on standard output.
pub fn run_class(
    subs: &[Submission],
    cases: &[Case],
    settings: &ClassSettings,
    out: &Path,
) -> anyhow::Result<()> {
    let on_student = |p: &Progress| {
        let r = p.row;
        let what = match &r.status {
            Status::CannotRun { why } => format!("cannot run: {why}"),
            Status::Graded => format!("{} / 100", r.strict),
        };
        let resumed = if p.resumed {
            " (from the earlier run)"
        } else {
            ""
        };
        eprintln!("[{}/{}] {}: {what}{resumed}", p.done, p.total, r.student);
    };
    let book = grade_class(subs, cases, settings, out, &on_student).context("grading the class")?;
    let summary = std::fs::read_to_string(out.join("summary.txt"))
        .with_context(|| format!("reading {}", out.join("summary.txt").display()))?;
    write_stdout(&format!(
        "{summary}\nGradebook: {} ({} students); reports: {}\n",
        out.join("gradebook.csv").display(),
        book.rows.len(),
        out.join("reports").display()
    ))?;
    Ok(())
}

//! A class graded in one command (`stakeraid grade --class DIR`): every
//! submission folder of DIR graded by [`crate::grade::grade`] on the same
//! cases, the command run from each folder; a gradebook (CSV), one report
//! per student and a class summary (how many students have each
//! diagnosed bug, which cases fail most). A submission that cannot run is
//! a row that says so. Each student's result is kept as it is finished,
//! so that an interrupted run resumes where it stopped.
//!
//! `submission.rs` finds the folders, `book.rs` keeps the rows (the CSV
//! and what a resumed run reads back), `summary.rs` writes the summary.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::grade::{grade, Case, GradeSettings, Program};
use crate::sandbox::SandboxSettings;

mod book;
mod submission;
mod summary;

pub use book::{Gradebook, Row, Status};
pub use submission::{submissions, ClassError, Submission};
pub use summary::summary;

/// How a class is graded: the settings `stakeraid grade` builds for one
/// program, carried whole to every student.
#[derive(Clone, Debug)]
pub struct ClassSettings {
    /// Each student's grade (its runs' limits, the shrinker); `jobs` is
    /// the class's: how many runs at once across students.
    pub grade: GradeSettings,
    /// The box every run goes in.
    pub sandbox: SandboxSettings,
    /// Paths hidden from the programs (a folder of cases).
    pub hidden: Vec<PathBuf>,
    /// The command, run from each submission's folder: a word naming a
    /// file there is that file.
    pub command: Vec<String>,
    /// Where the cases came from, in words.
    pub source: String,
}

/// What happened to one student, as the run goes.
pub struct Progress<'a> {
    /// The row.
    pub row: &'a Row,
    /// True when read back from an earlier run, not graded now.
    pub resumed: bool,
    /// Students done so far, this one included.
    pub done: usize,
    /// Students in all.
    pub total: usize,
}

/// Grades every submission on `cases`, writing into `out` as each student
/// is done: `reports/NAME.txt` and `reports/NAME.json` (the student's
/// report), `reports/NAME.row.json` (the gradebook row a resumed run reads
/// back), and `gradebook.csv`; `summary.txt` at the end. A student whose
/// row an earlier run left for the same cases and command is not graded
/// again. The error is the grader's own trouble (a file that cannot be
/// written, a temporary folder), never a student's.
pub fn grade_class(
    subs: &[Submission],
    cases: &[Case],
    settings: &ClassSettings,
    out: &Path,
    on_student: &(dyn Fn(&Progress) + Sync),
) -> io::Result<Gradebook> {
    let key = book::key(cases, settings);
    let reports = out.join("reports");
    std::fs::create_dir_all(&reports)?;
    let jobs = match settings.grade.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        jobs => jobs,
    };
    // Students side by side, each with its share of the runs at once. The
    // settings are cloned whole, so that a field added to them (they may
    // stop being `Copy`) reaches every student.
    let side_by_side = jobs.clamp(1, subs.len().max(1));
    #[allow(clippy::clone_on_copy)]
    let per_student = GradeSettings {
        jobs: (jobs / side_by_side).max(1),
        ..settings.grade.clone()
    };
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; subs.len()]);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed: Mutex<Option<io::Error>> = Mutex::new(None);
    let book_path = out.join("gradebook.csv");
    std::thread::scope(|scope| {
        for _ in 0..side_by_side {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(sub) = subs.get(i) else { break };
                if failed.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
                    break;
                }
                let result = match book::read_row(&reports, sub, &key) {
                    Some(row) => Ok((row, true)),
                    None => grade_one(sub, cases, settings, &per_student, &reports, &key)
                        .map(|row| (row, false)),
                };
                let (row, resumed) = match result {
                    Ok(r) => r,
                    Err(e) => {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        break;
                    }
                };
                let mut all = rows.lock().unwrap_or_else(|e| e.into_inner());
                all[i] = Some(row.clone());
                let book = Gradebook::of(all.iter().flatten().cloned().collect());
                if let Err(e) = book.write_csv(&book_path) {
                    *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    break;
                }
                let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                on_student(&Progress {
                    row: &row,
                    resumed,
                    done,
                    total: subs.len(),
                });
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let rows: Vec<Row> = rows
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    let book = Gradebook::of(rows);
    book.write_csv(&book_path)?;
    write_atomically(
        &out.join("summary.txt"),
        summary(&book, cases, &settings.source).as_bytes(),
    )?;
    Ok(book)
}

/// One student graded: the row, with the report written beside it; a
/// program that cannot run is a row that says why. The box's settings are
/// cloned whole (they may stop being `Copy`).
#[allow(clippy::clone_on_copy)]
fn grade_one(
    sub: &Submission,
    cases: &[Case],
    settings: &ClassSettings,
    per_student: &GradeSettings,
    reports: &Path,
    key: &str,
) -> io::Result<Row> {
    let program = match Program::from_args(&settings.command, &sub.path) {
        None => Err("no program given".to_owned()),
        Some(p) => match p.check_in(&sub.path) {
            Err(e) => Err(e.to_string()),
            Ok(()) => p
                .sandboxed(settings.sandbox.clone(), &settings.hidden)
                .map_err(|e| e.to_string()),
        },
    };
    let row = match program {
        Err(why) => {
            let row = Row::cannot_run(&sub.name, &why, key);
            let text = format!("{}: cannot run: {why}\n", sub.name);
            write_atomically(&reports.join(format!("{}.txt", sub.name)), text.as_bytes())?;
            row
        }
        Ok(program) => {
            let mut report = grade(&program, cases, per_student, &|_| {})?;
            report.source.clone_from(&settings.source);
            let text = report.to_string();
            write_atomically(&reports.join(format!("{}.txt", sub.name)), text.as_bytes())?;
            let json = serde_json::to_string_pretty(&report)? + "\n";
            write_atomically(&reports.join(format!("{}.json", sub.name)), json.as_bytes())?;
            Row::of(&sub.name, &report, key)
        }
    };
    // The row last: once it is there, the student is done.
    book::write_row(reports, &row)?;
    Ok(row)
}

/// Writes `bytes` to `path` through a temporary file beside it, so that an
/// interrupted run leaves the old file or the new one, never half of one.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    io::Write::write_all(&mut tmp, bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

//! A class graded in one command (`stakeraid grade --class DIR`): every
//! submission of DIR graded by [`crate::grade::grade`] on the same
//! cases, the command the class gives run from each folder, or each
//! student's own program found by its file names and built where it must
//! be; a gradebook (CSV), one report per student and a class summary (how
//! many students have each diagnosed bug, which cases fail most). A
//! submission that cannot run or be built is a row that says so. Each
//! student's result is kept as it is finished, so that an interrupted run
//! resumes where it stopped; the gradebook is partial, by its name, until
//! the class is done.
//!
//! `submission.rs` finds the submissions: a folder per student, or a
//! course site's download (a folder or a zip, read within the bounds of
//! `download.rs`), sorted by the site's naming (`sites/`) into a folder
//! each. `conventions.rs` finds the program in each, `build.rs` builds it,
//! `book.rs` keeps the rows (the CSV and what a resumed run reads back),
//! `summary.rs` writes the summary, and `roster.rs` the file the site
//! imports, from the gradebook it exports.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::grade::{grade, Case, GatePlace, GradeSettings, RunGate};
use crate::sandbox::SandboxSettings;

mod book;
mod build;
mod conventions;
mod download;
mod roster;
mod sites;
mod submission;
mod summary;

pub use book::{Gradebook, Row, Status};
use build::Unready;
pub use build::{How, BUILD_SECONDS};
pub use download::{printable, MAX_ENTRIES, MAX_FILE_BYTES, MAX_TOTAL_BYTES};
pub use roster::{Import, Roster, RosterError};
pub use sites::{Site, Student};
pub use submission::{Class, ClassError, Submission, GATHERED};
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
    /// file there is that file. Empty: each student's program is found by
    /// the file names of its folder ([`conventions`]).
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

/// A class being graded, as another thread sees it: how far it is, and a
/// stop after which no student is written.
#[derive(Debug, Default)]
pub struct Tally {
    done: AtomicUsize,
    total: AtomicUsize,
    stopped: AtomicBool,
    /// Held while a student's files are written.
    writing: Mutex<()>,
}

impl Tally {
    /// Stops the class: once any student being written is written, no
    /// other is, ever (the programs still running may then be killed
    /// without a verdict of theirs reaching the gradebook). Returns the
    /// students done and the students in all.
    pub fn stop(&self) -> (usize, usize) {
        self.stopped.store(true, Ordering::SeqCst);
        let held = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        // Never released: the process ends with the class stopped.
        std::mem::forget(held);
        (
            self.done.load(Ordering::SeqCst),
            self.total.load(Ordering::SeqCst),
        )
    }
}

/// The gradebook while the class is not fully graded: beside where the
/// whole one goes, under a name no import takes for it.
pub const PARTIAL_BOOK: &str = "gradebook.partial.csv";

/// The gradebook once every student is graded.
pub const BOOK: &str = "gradebook.csv";

/// Grades every submission on `cases`, writing into `out` as each student
/// is done: `reports/NAME.txt` and `reports/NAME.json` (the student's
/// report), `reports/NAME.row.json` (the gradebook row a resumed run reads
/// back), and the gradebook so far as [`PARTIAL_BOOK`]; once every student
/// is done, the gradebook [`BOOK`] (the partial one removed) and
/// `summary.txt`. A student whose row an earlier run left for the same
/// cases and command is not graded again. Programs are built into
/// `builds/`.
///
/// Students overlap: the runs of every student share `jobs` slots, a slot
/// going to the student earliest in the class that has a run ready, so
/// that while one student is diagnosed or shrunk a run at a time, the
/// next students' cases use the cores left. Each student is graded as
/// alone ([`grade`] with the same settings): no verdict depends on the
/// runs beside it. The error is the grader's own trouble (a file that
/// cannot be written, a temporary folder), never a student's.
pub fn grade_class(
    subs: &[Submission],
    cases: &[Case],
    settings: &ClassSettings,
    out: &Path,
    tally: &Tally,
    on_student: &(dyn Fn(&Progress) + Sync),
) -> io::Result<Gradebook> {
    let key = book::key(cases, settings);
    let reports = out.join("reports");
    // Absolute: a build runs in its folder, a built program from it.
    let builds = std::path::absolute(out.join("builds"))?;
    std::fs::create_dir_all(&reports)?;
    // Until every student is done, no whole gradebook is there to be
    // taken for one, and no partial one but this run's (an earlier run's
    // may hold other cases' rows).
    for stale in [BOOK, PARTIAL_BOOK] {
        remove_if_there(&out.join(stale))?;
    }
    let jobs = match settings.grade.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        jobs => jobs,
    };
    let gate = RunGate::new(jobs);
    // One student more than the slots, so that a slot a student leaves
    // while it is diagnosed finds another student's case to run.
    let side_by_side = (jobs + 1).min(subs.len()).max(1);
    #[allow(clippy::clone_on_copy)]
    let per_student = GradeSettings {
        jobs,
        ..settings.grade.clone()
    };
    tally.total.store(subs.len(), Ordering::SeqCst);
    let rows: Mutex<Vec<Option<Row>>> = Mutex::new(vec![None; subs.len()]);
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<io::Error>> = Mutex::new(None);
    let fail = |e: io::Error| {
        failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(e);
    };
    let partial = out.join(PARTIAL_BOOK);
    std::thread::scope(|scope| {
        for _ in 0..side_by_side {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(sub) = subs.get(i) else { break };
                if failed.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
                    break;
                }
                let place = GatePlace {
                    gate: gate.clone(),
                    rank: i,
                };
                let key = book::student_key(&key, sub);
                let (graded, resumed) = match book::read_row(&reports, sub, &key) {
                    Some(row) => (Graded::resumed(row), true),
                    None => {
                        match grade_one(sub, cases, settings, &per_student, &builds, &place, &key) {
                            Ok(graded) => (graded, false),
                            Err(e) => {
                                fail(e);
                                break;
                            }
                        }
                    }
                };
                let writing = tally.writing.lock().unwrap_or_else(|e| e.into_inner());
                if tally.stopped.load(Ordering::SeqCst) {
                    break;
                }
                if let Err(e) = graded.write(&reports) {
                    fail(e);
                    break;
                }
                let mut all = rows.lock().unwrap_or_else(|e| e.into_inner());
                all[i] = Some(graded.row.clone());
                let book = Gradebook::of(all.iter().flatten().cloned().collect());
                drop(all);
                if let Err(e) = book.write_csv(&partial) {
                    fail(e);
                    break;
                }
                let done = tally.done.fetch_add(1, Ordering::SeqCst) + 1;
                on_student(&Progress {
                    row: &graded.row,
                    resumed,
                    done,
                    total: subs.len(),
                });
                drop(writing);
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
    book.write_csv(&out.join(BOOK))?;
    remove_if_there(&partial)?;
    write_atomically(
        &out.join("summary.txt"),
        summary(&book, cases, &settings.source).as_bytes(),
    )?;
    Ok(book)
}

/// A student graded, not yet written: the row, and the reports (text and
/// JSON) where there are some to write.
struct Graded {
    row: Row,
    text: Option<String>,
    json: Option<String>,
}

impl Graded {
    /// A row an earlier run wrote, with its reports.
    fn resumed(row: Row) -> Graded {
        Graded {
            row,
            text: None,
            json: None,
        }
    }

    /// Writes the reports, then the row: once the row is there, the
    /// student is done.
    fn write(&self, reports: &Path) -> io::Result<()> {
        let name = &self.row.student;
        if let Some(text) = &self.text {
            write_atomically(&reports.join(format!("{name}.txt")), text.as_bytes())?;
        }
        if let Some(json) = &self.json {
            write_atomically(&reports.join(format!("{name}.json")), json.as_bytes())?;
        }
        if self.text.is_some() {
            book::write_row(reports, &self.row)?;
        }
        Ok(())
    }
}

/// One student built where it must be and graded, its runs at `place`: the
/// row and the reports; a program that cannot run or be built is a row
/// that says why.
fn grade_one(
    sub: &Submission,
    cases: &[Case],
    settings: &ClassSettings,
    per_student: &GradeSettings,
    builds: &Path,
    place: &GatePlace,
    key: &str,
) -> io::Result<Graded> {
    let ready = match build::ready(&sub.name, &sub.path, settings, builds, place)? {
        Ok(ready) => ready,
        Err(unready) => {
            let (status, how) = match unready {
                Unready::CannotRun(why, how) => (Status::CannotRun { why }, how),
                Unready::CannotBuild(why, how) => (Status::CannotBuild { why }, how),
            };
            let row = Row::not_graded(sub, status, key, &how);
            let text = format!(
                "{}: {}\n",
                sub.name,
                row.status.why_not().unwrap_or_default()
            );
            return Ok(Graded {
                row,
                text: Some(text),
                json: None,
            });
        }
    };
    let mut report = grade(&ready.program, cases, per_student, &|_| {})?;
    report.source.clone_from(&settings.source);
    let json = serde_json::to_string_pretty(&report)? + "\n";
    Ok(Graded {
        row: Row::of(sub, &report, key, &ready.how),
        text: Some(report.to_string()),
        json: Some(json),
    })
}

/// Removes the file at `path` if there is one.
fn remove_if_there(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
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

//! The gradebook: one row per student (the CSV a course's gradebook
//! imports), each row kept beside the student's report as it is done, so
//! that a resumed run reads it back rather than grading again.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::grade::{Case, GradeReport};

use super::build::How;
use super::sites::Student;
use super::{write_atomically, ClassSettings, Submission};

/// Whether a student's program ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// Graded on every case.
    Graded,
    /// It could not run at all (no program in the folder, ...): why.
    CannotRun {
        /// Why, in one line.
        why: String,
    },
    /// Its build failed: the compiler's first error line.
    CannotBuild {
        /// Why, in one line.
        why: String,
    },
}

impl Status {
    /// Why the student was not graded, in the gradebook's words
    /// (`cannot build: ...`); `None` when graded.
    pub fn why_not(&self) -> Option<String> {
        match self {
            Status::Graded => None,
            Status::CannotRun { why } => Some(format!("cannot run: {why}")),
            Status::CannotBuild { why } => Some(format!("cannot build: {why}")),
        }
    }
}

/// One student's line of the gradebook.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// The submission's name: its folder's, or the site's name and id.
    pub student: String,
    /// Who handed it in, as the course site names them (none for a plain
    /// folder).
    #[serde(default)]
    pub students: Vec<Student>,
    /// Ran or not.
    #[serde(flatten)]
    pub status: Status,
    /// The score, byte for byte (0 when it cannot run).
    pub strict: u32,
    /// The score with white space forgiven.
    pub lenient: u32,
    /// Each kind of failure and how many cases fail so, in order of first
    /// appearance.
    pub failures: Vec<(String, usize)>,
    /// The diagnosis in one line; empty when no model ran.
    pub diagnosis: String,
    /// The bugs the diagnosis names (each with its convention and
    /// restriction), or `one of: ...` when it cannot tell them apart.
    pub named: Option<String>,
    /// The cases failed.
    pub failing: Vec<String>,
    /// What the student was graded on (the cases, the command and the
    /// submission's files, [`student_key`]): a row of other cases or
    /// other files is graded again.
    pub key: String,
    /// The language the program was found in (`given`: the command the
    /// class gives).
    pub language: String,
    /// The build's command, empty when nothing was built.
    pub build: String,
    /// The command it was run with.
    pub command: String,
}

impl Row {
    /// The row of `sub`, run as `how` says and graded as `report` says.
    pub fn of(sub: &Submission, report: &GradeReport, key: &str, how: &How) -> Row {
        let named = report.diagnosis.as_ref().and_then(|d| {
            let titles: Vec<String> = d.bugs.iter().map(|s| s.title()).collect();
            match titles.len() {
                0 => None,
                1 => titles.into_iter().next(),
                _ => Some(format!("one of: {}", titles.join("; "))),
            }
        });
        Row {
            student: sub.name.clone(),
            students: sub.students.clone(),
            status: Status::Graded,
            strict: report.strict.points,
            lenient: report.lenient.points,
            failures: report
                .failures
                .iter()
                .map(|(f, names)| (failure_name(f), names.len()))
                .collect(),
            diagnosis: report
                .diagnosis
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default(),
            named,
            failing: report
                .cases
                .iter()
                .filter(|c| c.failure.is_some())
                .map(|c| c.name.clone())
                .collect(),
            key: key.to_owned(),
            language: how.language.clone(),
            build: how.build.clone(),
            command: how.command.clone(),
        }
    }

    /// The row of `sub`, not graded (`status`), which was to be run as
    /// `how` says.
    pub fn not_graded(sub: &Submission, status: Status, key: &str, how: &How) -> Row {
        Row {
            student: sub.name.clone(),
            students: sub.students.clone(),
            status,
            strict: 0,
            lenient: 0,
            failures: Vec::new(),
            diagnosis: String::new(),
            named: None,
            failing: Vec::new(),
            key: key.to_owned(),
            language: how.language.clone(),
            build: how.build.clone(),
            command: how.command.clone(),
        }
    }

    /// The failures in one cell: `wrong_move: 9; timeout: 2`.
    fn failures_cell(&self) -> String {
        match &self.status {
            Status::CannotRun { .. } => "cannot run".to_owned(),
            Status::CannotBuild { .. } => "cannot build".to_owned(),
            Status::Graded => {
                let list: Vec<String> = self
                    .failures
                    .iter()
                    .map(|(f, n)| format!("{f}: {n}"))
                    .collect();
                list.join("; ")
            }
        }
    }
}

/// A failure's name as the JSON writes it.
fn failure_name(f: &impl Serialize) -> String {
    serde_json::to_value(f)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// Every student's row, in the submissions' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gradebook {
    /// The rows.
    pub rows: Vec<Row>,
}

impl Gradebook {
    /// The gradebook of `rows`, sorted by student.
    pub fn of(mut rows: Vec<Row>) -> Gradebook {
        rows.sort_by(|a, b| a.student.cmp(&b.student));
        Gradebook { rows }
    }

    /// The CSV: a header, then
    /// `student,name,id,strict,lenient,failures,diagnosis,language,build,command`
    /// per submission (one that cannot run or be built: 0, and why); the
    /// site's names and ids of a group's students joined by `; `.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "student,name,id,score_strict,score_lenient,failures,diagnosis,language,build,command\n",
        );
        for r in &self.rows {
            let diagnosis = r.status.why_not().unwrap_or_else(|| r.diagnosis.clone());
            let joined = |field: fn(&Student) -> &str| {
                let all: Vec<&str> = r.students.iter().map(field).collect();
                csv_field(&all.join("; "))
            };
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{}",
                csv_field(&r.student),
                joined(|s| &s.name),
                joined(|s| &s.id),
                r.strict,
                r.lenient,
                csv_field(&r.failures_cell()),
                csv_field(&diagnosis),
                csv_field(&r.language),
                csv_field(&r.build),
                csv_field(&r.command)
            );
        }
        out
    }

    /// Writes the CSV to `path` (whole, never half).
    pub fn write_csv(&self, path: &Path) -> io::Result<()> {
        write_atomically(path, self.csv().as_bytes())
    }
}

/// A CSV field: quoted when it holds a comma, a quote or a line end
/// (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// What the students are graded on: the cases (input and answer), the
/// limits and the command, as a hash.
pub(super) fn key(cases: &[Case], settings: &ClassSettings) -> String {
    // FNV-1a: stable across runs and builds, unlike the std hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |s: &str| {
        for b in s.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for c in cases {
        feed(&c.input);
        feed(&c.expected);
    }
    feed(&format!("{:?}", settings.grade.run));
    for w in &settings.command {
        feed(w);
    }
    format!("{h:016x}")
}

/// What `sub` is graded on: the class's `key` and the hash of its files
/// where it has one.
pub(super) fn student_key(key: &str, sub: &Submission) -> String {
    match sub.digest.as_str() {
        "" => key.to_owned(),
        digest => format!("{key}-{digest}"),
    }
}

/// The row file of `student` in `reports`.
fn row_path(reports: &Path, student: &str) -> std::path::PathBuf {
    reports.join(format!("{student}.row.json"))
}

/// The row an earlier run left for `sub`, if it graded the same `key`
/// ([`student_key`]); who handed it in is the submission's now (a site
/// may have renamed them).
pub(super) fn read_row(reports: &Path, sub: &Submission, key: &str) -> Option<Row> {
    let text = std::fs::read(row_path(reports, &sub.name)).ok()?;
    let mut row: Row = serde_json::from_slice(&text).ok()?;
    if row.key != key || row.student != sub.name {
        return None;
    }
    row.students = sub.students.clone();
    Some(row)
}

/// Keeps `row` for a resumed run.
pub(super) fn write_row(reports: &Path, row: &Row) -> io::Result<()> {
    let json = serde_json::to_string_pretty(row)? + "\n";
    write_atomically(&row_path(reports, &row.student), json.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_quotes_or_lines_are_quoted() {
        assert_eq!(csv_field("plain name"), "plain name");
        assert_eq!(csv_field("Doe, Jane"), "\"Doe, Jane\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn a_row_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let why = "homework.py does not exist".to_owned();
        let sub = Submission {
            name: "Doe, Jane_1234".into(),
            path: dir.path().to_owned(),
            students: vec![Student {
                name: "Doe, Jane".into(),
                id: "1234".into(),
            }],
            digest: String::new(),
        };
        let row = Row::not_graded(&sub, Status::CannotRun { why }, "k", &How::default());
        write_row(dir.path(), &row).unwrap();
        assert_eq!(read_row(dir.path(), &sub, "k"), Some(row));
        assert_eq!(read_row(dir.path(), &sub, "other cases"), None);
    }

    #[test]
    fn a_row_of_other_files_is_not_reused_and_the_students_are_today_s() {
        let dir = tempfile::tempdir().unwrap();
        let mut sub = Submission {
            name: "Doe_301".into(),
            path: dir.path().to_owned(),
            students: vec![Student {
                name: "Doe".into(),
                id: "1".into(),
            }],
            digest: "aaaa".into(),
        };
        let key = student_key("k", &sub);
        let why = "no program".to_owned();
        let row = Row::not_graded(&sub, Status::CannotRun { why }, &key, &How::default());
        write_row(dir.path(), &row).unwrap();
        assert_eq!(read_row(dir.path(), &sub, &key), Some(row));
        // The same name and files, handed in by another now.
        sub.students[0].id = "2".into();
        let again = read_row(dir.path(), &sub, &student_key("k", &sub)).unwrap();
        assert_eq!(again.students, sub.students);
        // The same name, other files.
        sub.digest = "bbbb".into();
        assert_eq!(read_row(dir.path(), &sub, &student_key("k", &sub)), None);
    }
}

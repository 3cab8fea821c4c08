//! The grades sent back to the course site: from the gradebook the site
//! exports (`--roster FILE`), the file it imports, this assignment's
//! column filled for every graded student the site's id matches.
//!
//! - Canvas's gradebook export: a header `Student, ID, SIS User ID, SIS
//!   Login ID, [Integration ID,] Section, <Assignment (id)>, ...`, a
//!   `Points Possible` row, then a row per student. Its import takes the
//!   same columns; the file written holds the columns before the first
//!   assignment and the assignment's own, the points possible row and
//!   every student's row, matched by one column chosen by the download:
//!   `ID` (Canvas's user id, in its download's file names) for a Canvas
//!   download, `SIS User ID` (the student id Gradescope's metadata holds)
//!   for a Gradescope export. One column only: a Gradescope id equal to
//!   another student's Canvas id must not score that student.
//! - Moodle's offline grading worksheet: `Identifier, Full name, Email
//!   address, Status, Grade, Maximum Grade, Grade can be changed, ...`, a
//!   row per participant (`Participant 12345`, the number in its download's
//!   names), matched to a Moodle download only. Its import is the worksheet with `Grade` filled: the file
//!   written is the worksheet whole, every other cell as it came.
//!
//! The score is the assignment's (strict, out of 100), scaled to the
//! points the site gives the assignment when they are not 100. A student
//! with no submission keeps the cell the site had.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::book::Gradebook;
use super::sites::Site;

/// A course site's exported gradebook, read.
#[derive(Clone, Debug)]
pub struct Roster {
    path: PathBuf,
    kind: Kind,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    /// The column the score goes in.
    column: usize,
}

/// Whose gradebook it is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Canvas's export: the columns kept (those before the first
    /// assignment's), the id columns (`ID`, then `SIS User ID`), and the
    /// assignment's points.
    Canvas {
        identity: usize,
        sis: Option<usize>,
        points: Option<f64>,
    },
    /// Moodle's worksheet: the `Identifier` and `Maximum Grade` columns.
    Moodle {
        identifier: usize,
        maximum: Option<usize>,
    },
}

/// Why a roster cannot be used, found before anything runs.
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    /// The file cannot be read as CSV.
    #[error("--roster {0}: {1}")]
    Unreadable(String, String),
    /// Neither site's header.
    #[error(
        "--roster {0}: neither Canvas's gradebook export (Student, ID, ...) nor Moodle's \
         offline grading worksheet (Identifier, Full name, ...)"
    )]
    Unknown(String),
    /// Canvas's export holds no assignment column, or not the one named,
    /// or several and none named: the ones it holds.
    #[error("--roster {0}: {1}")]
    Column(String, String),
    /// No column of the roster holds the ids the download names its
    /// students by.
    #[error("--roster {0}: {1}")]
    Site(String, String),
    /// The import file cannot be made.
    #[error("--roster {0}: cannot write the import file: {1}")]
    Write(String, String),
}

/// The file a site imports, made from a [`Roster`] and a gradebook.
#[derive(Clone, Debug, PartialEq)]
pub struct Import {
    /// The file's name (`canvas-import.csv`, `moodle-import.csv`).
    pub file_name: &'static str,
    /// Its text.
    pub csv: String,
    /// The roster's students given a score.
    pub matched: usize,
    /// The roster's students with no submission, as the roster names them.
    pub no_submission: Vec<String>,
    /// The submissions none of whose students is in the roster.
    pub not_in_roster: Vec<String>,
    /// The points the score was scaled to, when not 100.
    pub scaled_to: Option<f64>,
    /// The ids several submissions name, each with those submissions: no
    /// score is given for them, since which is the student's is unknown.
    pub claimed_twice: Vec<(String, Vec<String>)>,
}

impl Import {
    /// Writes the file into the folder `out` (whole, never half): its
    /// path.
    pub fn write_into(&self, out: &Path) -> std::io::Result<PathBuf> {
        let path = out.join(self.file_name);
        super::write_atomically(&path, self.csv.as_bytes())?;
        Ok(path)
    }
}

impl Roster {
    /// The roster at `path`; `assignment` names Canvas's column (its
    /// header, its name without the id, or its id), needed when the
    /// export holds several assignments.
    pub fn read(path: &Path, assignment: Option<&str>) -> Result<Roster, RosterError> {
        let shown = path.display().to_string();
        let bad = |e: &dyn std::fmt::Display| RosterError::Unreadable(shown.clone(), e.to_string());
        let bytes = std::fs::read(path).map_err(|e| bad(&e))?;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut records = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| bad(&e))?;
            records.push(record.iter().map(str::to_owned).collect::<Vec<_>>());
        }
        let mut records = records.into_iter();
        let header = records.next().unwrap_or_default();
        let rows: Vec<Vec<String>> = records.collect();
        let find = |name: &str| header.iter().position(|h| h.trim() == name);
        let (kind, column) = if find("Student") == Some(0) && find("ID") == Some(1) {
            let column = canvas_column(&header, assignment)
                .map_err(|why| RosterError::Column(shown.clone(), why))?;
            let first = header
                .iter()
                .position(|h| assignment_id(h).is_some())
                .unwrap_or(column);
            let points = rows
                .iter()
                .find(|r| r.first().is_some_and(|c| c.trim() == "Points Possible"))
                .and_then(|r| r.get(column))
                .and_then(|p| p.trim().parse().ok());
            let kind = Kind::Canvas {
                identity: first,
                sis: find("SIS User ID"),
                points,
            };
            (kind, column)
        } else if let (Some(identifier), Some(grade)) = (find("Identifier"), find("Grade")) {
            (
                Kind::Moodle {
                    identifier,
                    maximum: find("Maximum Grade"),
                },
                grade,
            )
        } else {
            return Err(RosterError::Unknown(shown));
        };
        Ok(Roster {
            path: path.to_owned(),
            kind,
            header,
            rows,
            column,
        })
    }

    /// The name of the file the site imports.
    pub fn file_name(&self) -> &'static str {
        match self.kind {
            Kind::Canvas { .. } => "canvas-import.csv",
            Kind::Moodle { .. } => "moodle-import.csv",
        }
    }

    /// The roster as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The column of the ids `site`'s download names its students by:
    /// Canvas's `ID` for a Canvas download, its `SIS User ID` for a
    /// Gradescope export, Moodle's `Identifier` for a Moodle download.
    fn id_column(&self, site: Site) -> Option<usize> {
        match (self.kind, site) {
            (Kind::Canvas { .. }, Site::Canvas) => Some(1),
            (Kind::Canvas { sis, .. }, Site::Gradescope) => sis,
            (Kind::Moodle { identifier, .. }, Site::Moodle) => Some(identifier),
            _ => None,
        }
    }

    /// Whether the roster can be matched to `site`'s download: a line
    /// saying why not, found before anything runs.
    pub fn check_site(&self, site: Site) -> Result<(), RosterError> {
        if self.id_column(site).is_some() {
            return Ok(());
        }
        let which = match self.kind {
            Kind::Canvas { .. } => "Canvas's gradebook export",
            Kind::Moodle { .. } => "Moodle's worksheet",
        };
        Err(RosterError::Site(
            self.path.display().to_string(),
            format!("{which} holds no column of the ids {site} names its students by"),
        ))
    }

    /// The file the site imports, with the scores of `book`, graded from
    /// `site`'s download: its students matched by the one column of
    /// their ids ([`Roster::check_site`]; none matched where there is
    /// none).
    pub fn import(&self, book: &Gradebook, site: Site) -> Result<Import, RosterError> {
        let id_column = self.id_column(site);
        // The submissions naming each site id: one is the id's score; an
        // id several name is scored by none of them.
        let mut claims: BTreeMap<&str, Vec<&super::book::Row>> = BTreeMap::new();
        for row in &book.rows {
            for s in row.students.iter().filter(|s| !s.id.is_empty()) {
                let rows = claims.entry(&s.id).or_default();
                if !rows.iter().any(|r| std::ptr::eq(*r, row)) {
                    rows.push(row);
                }
            }
        }
        let claimed_twice: Vec<(String, Vec<String>)> = claims
            .iter()
            .filter(|(_, rows)| rows.len() > 1)
            .map(|(id, rows)| {
                let names = rows.iter().map(|r| r.student.clone()).collect();
                ((*id).to_owned(), names)
            })
            .collect();
        // Each site id's score, and whether a roster row took it.
        let mut scores: BTreeMap<&str, (u32, bool)> = claims
            .iter()
            .filter(|(_, rows)| rows.len() == 1)
            .map(|(id, rows)| (*id, (rows[0].strict, false)))
            .collect();
        let mut rows = Vec::new();
        let mut matched = 0;
        let mut no_submission = Vec::new();
        let mut scaled_to = None;
        for row in &self.rows {
            let cell = |i: usize| row.get(i).map_or("", |c| c.trim());
            let (student, out_of, who) = match self.kind {
                Kind::Canvas { points, .. } => {
                    (cell(1), points, format!("{} ({})", cell(0), cell(1)))
                }
                Kind::Moodle {
                    identifier,
                    maximum,
                } => (
                    cell(identifier),
                    maximum.and_then(|m| cell(m).parse().ok()),
                    format!("{} ({})", cell(1), cell(identifier)),
                ),
            };
            let mut row = row.clone();
            // A row with no id is no student's (Canvas's points possible).
            if student.is_empty() {
                rows.push(self.kept(row));
                continue;
            }
            let id = id_column.map(cell).map(|id| match self.kind {
                Kind::Moodle { .. } => id.strip_prefix("Participant ").map_or("", str::trim),
                Kind::Canvas { .. } => id,
            });
            let id = id.filter(|id| !id.is_empty());
            match id.and_then(|id| scores.get_mut(id)) {
                Some((score, taken)) => {
                    *taken = true;
                    matched += 1;
                    if row.len() <= self.column {
                        row.resize(self.column + 1, String::new());
                    }
                    row[self.column] = scaled(*score, out_of);
                    if out_of.is_some_and(|p| p != 100.0) {
                        scaled_to = out_of;
                    }
                }
                // An id several submissions claim is told apart from no
                // submission: its own line says which claim it.
                None if id.is_some_and(|id| claimed_twice.iter().any(|(c, _)| c == id)) => {}
                None => no_submission.push(who),
            }
            rows.push(self.kept(row));
        }
        let mut not_in_roster: Vec<String> = book
            .rows
            .iter()
            .filter(|r| {
                !r.students.iter().any(|s| {
                    scores.get(s.id.as_str()).is_some_and(|t| t.1)
                        || claims.get(s.id.as_str()).is_some_and(|c| c.len() > 1)
                })
            })
            .map(|r| {
                let ids: Vec<&str> = r
                    .students
                    .iter()
                    .map(|s| s.id.as_str())
                    .filter(|i| !i.is_empty())
                    .collect();
                match ids.is_empty() {
                    true => format!("{} (no site id)", r.student),
                    false => format!("{} ({})", r.student, ids.join(", ")),
                }
            })
            .collect();
        not_in_roster.sort();
        let csv = self.csv_of(rows)?;
        Ok(Import {
            file_name: self.file_name(),
            csv,
            matched,
            no_submission,
            not_in_roster,
            scaled_to,
            claimed_twice,
        })
    }

    /// The import's text: the header and `rows`, a row shorter than the
    /// header filled with empty cells (a site's export may end a row
    /// early), a longer one written whole.
    fn csv_of(&self, rows: Vec<Vec<String>>) -> Result<String, RosterError> {
        let failed = |e: &dyn std::fmt::Display| {
            RosterError::Write(self.path.display().to_string(), e.to_string())
        };
        let header = self.kept(self.header.clone());
        let width = header.len();
        let mut writer = csv::WriterBuilder::new()
            .flexible(true)
            .from_writer(Vec::new());
        for mut record in std::iter::once(header).chain(rows) {
            if record.len() < width {
                record.resize(width, String::new());
            }
            writer.write_record(&record).map_err(|e| failed(&e))?;
        }
        let bytes = writer.into_inner().map_err(|e| failed(&e))?;
        String::from_utf8(bytes).map_err(|e| failed(&e))
    }

    /// The cells of `row` the import keeps: Canvas's identity columns and
    /// the assignment's; Moodle's, all.
    fn kept(&self, mut row: Vec<String>) -> Vec<String> {
        match self.kind {
            Kind::Canvas { identity, .. } => {
                let score = row.get(self.column).cloned().unwrap_or_default();
                row.resize(identity, String::new());
                row.push(score);
                row
            }
            Kind::Moodle { .. } => row,
        }
    }
}

/// The assignment column of Canvas's `header` that `assignment` names, or
/// the only one there is.
fn canvas_column(header: &[String], assignment: Option<&str>) -> Result<usize, String> {
    let all: Vec<usize> = (0..header.len())
        .filter(|&i| assignment_id(&header[i]).is_some())
        .collect();
    let listed = || {
        all.iter()
            .map(|&i| header[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match assignment {
        Some(name) => {
            let name = name.trim();
            let found: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&i| {
                    let h = header[i].trim();
                    let (title, id) = assignment_id(h).unwrap_or_default();
                    h == name || title == name || id == name
                })
                .collect();
            match found[..] {
                [one] => Ok(one),
                [] => Err(format!(
                    "no assignment {name:?} in it (it has: {})",
                    listed()
                )),
                _ => Err(format!(
                    "several assignments are {name:?}: give its id (it has: {})",
                    listed()
                )),
            }
        }
        None => match all[..] {
            [one] => Ok(one),
            [] => Err("no assignment column in it (a header such as `Homework 1 (12345)`)".into()),
            _ => Err(format!(
                "several assignments: name one with --assignment (it has: {})",
                listed()
            )),
        },
    }
}

/// An assignment column's title and Canvas id: `Homework 1 (12345)`.
fn assignment_id(header: &str) -> Option<(&str, &str)> {
    let inner = header.trim().strip_suffix(')')?;
    let (title, id) = inner.rsplit_once(" (")?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some((title, id))
}

/// `score` out of 100 as `out_of` points: a whole number as one, else to
/// two places.
fn scaled(score: u32, out_of: Option<f64>) -> String {
    let points = f64::from(score) * out_of.unwrap_or(100.0) / 100.0;
    let text = format!("{points:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use super::super::book::{Row, Status};
    use super::super::build::How;
    use super::super::sites::Student;
    use super::super::Submission;
    use super::*;

    /// A Canvas roster of `csv`, read from a file.
    fn canvas(csv: &str) -> Roster {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("export.csv");
        std::fs::write(&path, csv).unwrap();
        Roster::read(&path, None).unwrap()
    }

    /// A gradebook row of `name`, handed in by `students` (name, id),
    /// scored `strict`.
    fn row(name: &str, students: &[(&str, &str)], strict: u32) -> Row {
        let sub = Submission {
            name: name.into(),
            path: PathBuf::new(),
            students: students
                .iter()
                .map(|(n, i)| Student {
                    name: (*n).into(),
                    id: (*i).into(),
                })
                .collect(),
            digest: String::new(),
        };
        let mut row = Row::not_graded(&sub, Status::Graded, "k", &How::default());
        row.strict = strict;
        row
    }

    #[test]
    fn an_id_two_submissions_claim_is_scored_by_neither() {
        let roster = canvas(
            "Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (101)\n\
             Doe Jane,3001,s1,jd,A,\n\
             Roe Rick,3002,s2,rr,A,\n",
        );
        let book = Gradebook::of(vec![
            row("Jane_301", &[("Jane", "3001")], 90),
            row("Friend_302", &[("Roe", "3002"), ("Jane", "3001")], 10),
        ]);
        let import = roster.import(&book, Site::Canvas).unwrap();
        assert_eq!(
            import.claimed_twice,
            [(
                "3001".to_owned(),
                vec!["Friend_302".to_owned(), "Jane_301".to_owned()]
            )]
        );
        assert_eq!(import.matched, 1);
        assert!(
            import.csv.contains("Doe Jane,3001,s1,jd,A,\n"),
            "{}",
            import.csv
        );
        assert!(
            import.csv.contains("Roe Rick,3002,s2,rr,A,10\n"),
            "{}",
            import.csv
        );
        assert!(
            import.no_submission.is_empty(),
            "{:?}",
            import.no_submission
        );
        assert!(
            import.not_in_roster.is_empty(),
            "{:?}",
            import.not_in_roster
        );
    }

    #[test]
    fn the_id_column_is_the_download_s_site_s() {
        // Rick's SIS id is Jane's Canvas id: each download matches one
        // column only.
        let roster = canvas(
            "Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (101)\n\
             Doe Jane,3001,s1,jd,A,\n\
             Roe Rick,3002,3001,rr,A,\n",
        );
        let book = Gradebook::of(vec![row("Rick_301", &[("Rick", "3001")], 40)]);
        let csv = roster.import(&book, Site::Gradescope).unwrap().csv;
        assert!(csv.contains("Doe Jane,3001,s1,jd,A,\n"), "{csv}");
        assert!(csv.contains("Roe Rick,3002,3001,rr,A,40\n"), "{csv}");
        let csv = roster.import(&book, Site::Canvas).unwrap().csv;
        assert!(csv.contains("Doe Jane,3001,s1,jd,A,40\n"), "{csv}");
        assert!(csv.contains("Roe Rick,3002,3001,rr,A,\n"), "{csv}");
        assert!(roster.check_site(Site::Moodle).is_err());
        assert!(roster.check_site(Site::Folders).is_err());
    }

    #[test]
    fn a_short_row_is_filled_and_the_rows_after_it_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("worksheet.csv");
        std::fs::write(
            &path,
            "Identifier,Full name,Status,Grade,Maximum Grade,Feedback comments\n\
             Participant 1,Ann,x,,100.00,\n\
             Participant 2,Bob,x,,100.00\n\
             Participant 3,Cat,x,,100.00,fine\n",
        )
        .unwrap();
        let roster = Roster::read(&path, None).unwrap();
        let book = Gradebook::of(vec![
            row("Bob_2", &[("Bob", "2")], 50),
            row("Cat_3", &[("Cat", "3")], 70),
        ]);
        let import = roster.import(&book, Site::Moodle).unwrap();
        assert_eq!(
            import.csv,
            "Identifier,Full name,Status,Grade,Maximum Grade,Feedback comments\n\
             Participant 1,Ann,x,,100.00,\n\
             Participant 2,Bob,x,50,100.00,\n\
             Participant 3,Cat,x,70,100.00,fine\n"
        );
        assert_eq!(import.matched, 2);
    }

    #[test]
    fn canvas_columns_are_found_by_title_or_id() {
        let header: Vec<String> = [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            "Homework 1 (101)",
            "Homework 2 (102)",
            "Current Score",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(canvas_column(&header, Some("Homework 2")), Ok(6));
        assert_eq!(canvas_column(&header, Some("101")), Ok(5));
        assert_eq!(canvas_column(&header, Some("Homework 1 (101)")), Ok(5));
        let e = canvas_column(&header, None).unwrap_err();
        assert!(e.contains("Homework 1 (101), Homework 2 (102)"), "{e}");
        let e = canvas_column(&header, Some("Quiz")).unwrap_err();
        assert!(e.starts_with("no assignment \"Quiz\""), "{e}");
        assert_eq!(canvas_column(&header[..6], None), Ok(5));
    }

    #[test]
    fn scores_are_scaled_to_the_points() {
        assert_eq!(scaled(48, None), "48");
        assert_eq!(scaled(48, Some(100.0)), "48");
        assert_eq!(scaled(48, Some(10.0)), "4.8");
        assert_eq!(scaled(100, Some(20.0)), "20");
        assert_eq!(scaled(33, Some(1.0)), "0.33");
    }
}

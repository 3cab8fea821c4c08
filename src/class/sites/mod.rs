//! Which student each file of a course site's download belongs to, by the
//! site's own naming: Canvas's flat files, Moodle's flat files or folders,
//! Gradescope's `submission_N/` folders with the names in
//! `submission_metadata.yml`, or a plain folder per student. The download
//! is seen as the paths of its files, `/`-separated and relative to its
//! top; nothing here reads a file but the metadata it is handed.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

mod canvas;
mod gradescope;
mod moodle;

/// Gradescope's list of who handed in each `submission_N/` folder.
pub(super) const GRADESCOPE_METADATA: &str = "submission_metadata.yml";

/// Where a class's download comes from, as its names show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// A folder per student, named as the teacher likes.
    Folders,
    /// Canvas's "Download Submissions": flat files
    /// `lastfirst_userid_attachmentid_name`.
    Canvas,
    /// Moodle's "Download all submissions": `Full Name_12345_assignsubmission_file_`
    /// before each file, or a folder of that name.
    Moodle,
    /// Gradescope's export: `submission_N/` folders and their metadata.
    Gradescope,
}

impl std::fmt::Display for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Site::Folders => "a folder per student",
            Site::Canvas => "a Canvas download",
            Site::Moodle => "a Moodle download",
            Site::Gradescope => "a Gradescope export",
        })
    }
}

/// A student as the course site knows them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Student {
    /// The name the site gives (Canvas's is squeezed: `doejane`).
    pub name: String,
    /// The site's id: Canvas's user id, Moodle's participant number,
    /// Gradescope's student id (SID); empty when the site gives none.
    pub id: String,
}

/// One submission's files, gathered from a download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Gathered {
    /// Its name in the gradebook and for its files: unique, a file name.
    pub(super) name: String,
    /// Who handed it in (several for a group; none for a plain folder).
    pub(super) students: Vec<Student>,
    /// Each file: its index among the download's paths, and its path in
    /// the submission's folder.
    pub(super) files: Vec<(usize, String)>,
}

/// A download sorted into submissions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Sorted {
    /// The site the names are of.
    pub(super) site: Site,
    /// The submissions, in name order.
    pub(super) gathered: Vec<Gathered>,
    /// What belongs to no student: a file, or a folder (`name/`) whole.
    pub(super) strays: Vec<String>,
}

/// One name at the top of a download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Top {
    /// The file's or folder's name.
    pub(super) name: String,
    /// A folder.
    pub(super) folder: bool,
}

/// The names at the top of `paths`, each once, junk left out.
pub(super) fn tops(paths: &[String]) -> Vec<Top> {
    let mut tops: BTreeMap<&str, bool> = BTreeMap::new();
    for path in paths.iter().filter(|p| !is_junk(p)) {
        match path.split_once('/') {
            Some((folder, _)) => *tops.entry(folder).or_default() = true,
            None => {
                tops.entry(path).or_default();
            }
        }
    }
    tops.into_iter()
        .map(|(name, folder)| Top {
            name: name.to_owned(),
            folder,
        })
        .collect()
}

/// The site whose names the top of a download holds: the one whose form
/// most of its names follow, since one student may name a file or folder
/// in another site's form (a tie goes to the first of Gradescope, Moodle,
/// Canvas, folders).
pub(super) fn detect(tops: &[Top]) -> Site {
    let count = |of: &dyn Fn(&Top) -> bool| tops.iter().filter(|t| of(t)).count();
    let metadata = tops
        .iter()
        .any(|t| !t.folder && t.name == GRADESCOPE_METADATA);
    let counts = [
        (
            Site::Gradescope,
            match metadata {
                true => count(&|t| t.folder && gradescope::is_folder(&t.name)),
                false => 0,
            },
        ),
        (Site::Moodle, count(&|t| moodle::parse(&t.name).is_some())),
        (
            Site::Canvas,
            // Moodle's form is the narrower: a name of it is Moodle's.
            count(&|t| {
                !t.folder && canvas::parse(&t.name).is_some() && moodle::parse(&t.name).is_none()
            }),
        ),
        (
            Site::Folders,
            count(&|t| {
                t.folder
                    && !t.name.starts_with('.')
                    && moodle::parse(&t.name).is_none()
                    && !(metadata && gradescope::is_folder(&t.name))
            }),
        ),
    ];
    let most = counts.iter().map(|(_, n)| *n).max().unwrap_or(0);
    match counts.iter().find(|(_, n)| *n == most && most > 0) {
        Some((site, _)) => *site,
        None => Site::Folders,
    }
}

/// What a zip or a copy from a Mac carries beside the files: never a
/// student's.
pub(super) fn is_junk(path: &str) -> bool {
    path.split('/')
        .any(|part| part == "__MACOSX" || part == ".DS_Store")
}

/// Sorts the files `paths` (relative to the download's top) of `site`
/// into submissions; `metadata`: Gradescope's, read from
/// [`GRADESCOPE_METADATA`].
pub(super) fn sort(site: Site, paths: &[String], metadata: &str) -> Sorted {
    let mut sorter = Sorter::default();
    let roster = match site {
        Site::Gradescope => gradescope::submitters(metadata),
        _ => BTreeMap::new(),
    };
    for (index, path) in paths.iter().enumerate() {
        if is_junk(path) {
            continue;
        }
        let (top, inside) = match path.split_once('/') {
            Some((top, inside)) => (top, Some(inside)),
            None => (path.as_str(), None),
        };
        if top.starts_with('.') {
            continue;
        }
        let placed = match (site, inside) {
            (Site::Folders, Some(inside)) => {
                sorter.add(top, top, Vec::new, index, inside);
                true
            }
            (Site::Canvas, None) => match canvas::parse(top) {
                Some(file) => {
                    sorter.add_versioned(index, file);
                    true
                }
                None => false,
            },
            (Site::Moodle, _) => match moodle::parse(top) {
                Some(found) => match (found.file, inside) {
                    // A folder of the student's files, or one file.
                    (None, Some(inside)) | (Some(inside), None) => {
                        let key = format!("{}_{}", found.student.name, found.student.id);
                        let student = found.student.clone();
                        sorter.add(&key, &found.student.id, || vec![student], index, inside);
                        true
                    }
                    _ => false,
                },
                None => false,
            },
            (Site::Gradescope, Some(inside)) if gradescope::is_folder(top) => {
                let students = roster.get(top).cloned().unwrap_or_default();
                let key = gradescope::key(top, &students);
                sorter.add(&key, top, || students, index, inside);
                true
            }
            (Site::Gradescope, None) => top == GRADESCOPE_METADATA,
            _ => false,
        };
        if !placed {
            let stray = match inside {
                Some(_) => format!("{top}/"),
                None => top.to_owned(),
            };
            sorter.strays.insert(stray);
        }
    }
    sorter.sorted(site)
}

/// Submissions as they are found, by the site's id (or the folder).
#[derive(Default)]
struct Sorter {
    by_id: BTreeMap<String, Gathered>,
    /// Canvas's files by student id, each with its index: named once all
    /// of a student's are in ([`Sorter::name_canvas_files`]).
    canvas: BTreeMap<String, Vec<(usize, canvas::File)>>,
    strays: BTreeSet<String>,
}

impl Sorter {
    /// The submission of `id` (made as `key`, handed in by `students`,
    /// where new), its file `index` at `inside`.
    fn add(
        &mut self,
        key: &str,
        id: &str,
        students: impl FnOnce() -> Vec<Student>,
        index: usize,
        inside: &str,
    ) {
        self.by_id
            .entry(id.to_owned())
            .or_insert_with(|| Gathered {
                name: file_name_of(key),
                students: students(),
                files: Vec::new(),
            })
            .files
            .push((index, inside.to_owned()));
    }

    /// A Canvas file, `index`: named once the student's others are in.
    fn add_versioned(&mut self, index: usize, file: canvas::File) {
        let id = file.student.id.clone();
        self.by_id.entry(id.clone()).or_insert_with(|| Gathered {
            name: file_name_of(&format!("{}_{}", file.student.name, file.student.id)),
            students: vec![file.student.clone()],
            files: Vec::new(),
        });
        self.canvas.entry(id).or_default().push((index, file));
    }

    /// Each student's Canvas files named. Canvas adds `-N` to a file
    /// handed in again under a name the student used before, but a
    /// student may name files `lab-1.py` and `lab-2.py` too: the number
    /// is taken off only where that leaves one file of the name. Where
    /// the name itself is there with numbered ones (two versions of one
    /// file), the one Canvas took last (the largest attachment id) is
    /// kept under it; numbered names with no file of the plain name
    /// stay as they are.
    fn name_canvas_files(&mut self) {
        for (id, files) in std::mem::take(&mut self.canvas) {
            let mut by_name: BTreeMap<&str, Vec<&(usize, canvas::File)>> = BTreeMap::new();
            for file in &files {
                by_name.entry(file.1.name.as_str()).or_default().push(file);
            }
            let Some(gathered) = self.by_id.get_mut(&id) else {
                continue;
            };
            for (name, versions) in by_name {
                let plain = versions.iter().any(|(_, f)| f.own == name);
                if versions.len() == 1 || plain {
                    let newest = versions
                        .iter()
                        .max_by_key(|(_, f)| (f.attachment, f.resubmission))
                        .map(|(i, _)| *i);
                    gathered.files.extend(newest.map(|i| (i, name.to_owned())));
                } else {
                    gathered
                        .files
                        .extend(versions.iter().map(|(i, f)| (*i, f.own.clone())));
                }
            }
        }
    }

    fn sorted(mut self, site: Site) -> Sorted {
        self.name_canvas_files();
        let mut gathered: Vec<Gathered> = self.by_id.into_values().collect();
        gathered.sort_by(|a, b| a.name.cmp(&b.name));
        // Two names alike once made file names: the later one numbered.
        for i in 1..gathered.len() {
            let base = gathered[i].name.clone();
            let mut n = 2;
            while gathered[..i].iter().any(|g| g.name == gathered[i].name) {
                gathered[i].name = format!("{base}_{n}");
                n += 1;
            }
        }
        for g in &mut gathered {
            g.files.sort();
            number_clashes(&mut g.files);
        }
        Sorted {
            site,
            gathered,
            strays: self.strays.into_iter().collect(),
        }
    }
}

/// Two files of one submission with one path (Moodle's upload and its
/// online text, both `onlinetext.html`): each later one numbered,
/// `onlinetext (2).html`, so that both are kept and neither stops the
/// class.
fn number_clashes(files: &mut [(usize, String)]) {
    let all: BTreeSet<String> = files.iter().map(|(_, p)| p.clone()).collect();
    let mut taken = BTreeSet::new();
    for (_, path) in files.iter_mut() {
        if taken.insert(path.clone()) {
            continue;
        }
        let (folder, name) = match path.rsplit_once('/') {
            Some((folder, name)) => (format!("{folder}/"), name.to_owned()),
            None => (String::new(), path.clone()),
        };
        let (stem, extension) = match name.rfind('.') {
            Some(dot) if dot > 0 => name.split_at(dot),
            _ => (name.as_str(), ""),
        };
        let free = (2..)
            .map(|n| format!("{folder}{stem} ({n}){extension}"))
            .find(|p| !all.contains(p) && !taken.contains(p))
            .unwrap_or_default();
        taken.insert(free.clone());
        *path = free;
    }
}

/// `name` made a file name the reports can carry: no `/`, no control
/// character, not hidden, not empty.
fn file_name_of(name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| if c == '/' || c.is_control() { '_' } else { c })
        .collect();
    match name.trim() {
        "" => "_".to_owned(),
        n if n.starts_with('.') => format!("_{n}"),
        n => n.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| (*p).to_owned()).collect()
    }

    fn sorted(list: &[&str], metadata: &str) -> Sorted {
        let paths = paths(list);
        sort(detect(&tops(&paths)), &paths, metadata)
    }

    /// Each submission as its name, its students (`name#id`) and its files.
    fn shown(sorted: &Sorted, list: &[&str]) -> Vec<(String, Vec<String>, Vec<String>)> {
        sorted
            .gathered
            .iter()
            .map(|g| {
                let students = g
                    .students
                    .iter()
                    .map(|s| format!("{}#{}", s.name, s.id))
                    .collect();
                let files = g
                    .files
                    .iter()
                    .map(|(i, to)| format!("{} -> {to}", list[*i]))
                    .collect();
                (g.name.clone(), students, files)
            })
            .collect()
    }

    #[test]
    fn a_canvas_download_is_sorted_by_user_id_and_the_newest_file_kept() {
        let list = [
            "doejane_late_1001_5001_homework.py",
            "roerichard_1002_5002_homework.py",
            "roerichard_1002_5003_homework-1.py",
            "roerichard_1002_5009_homework-2.py",
            "poeedgar_LATE_1003_5004_homework.py",
            "poeedgar_LATE_1003_5005_student.py",
            "notes.txt",
            "__MACOSX/._doejane_late_1001_5001_homework.py",
            "extra/readme.md",
            "extra/more.md",
        ];
        let s = sorted(&list, "");
        assert_eq!(s.site, Site::Canvas);
        assert_eq!(
            shown(&s, &list),
            [
                (
                    "doejane_1001".to_owned(),
                    vec!["doejane#1001".to_owned()],
                    vec!["doejane_late_1001_5001_homework.py -> homework.py".to_owned()]
                ),
                (
                    "poeedgar_1003".to_owned(),
                    vec!["poeedgar#1003".to_owned()],
                    vec![
                        "poeedgar_LATE_1003_5004_homework.py -> homework.py".to_owned(),
                        "poeedgar_LATE_1003_5005_student.py -> student.py".to_owned()
                    ]
                ),
                (
                    "roerichard_1002".to_owned(),
                    vec!["roerichard#1002".to_owned()],
                    vec!["roerichard_1002_5009_homework-2.py -> homework.py".to_owned()]
                ),
            ]
        );
        assert_eq!(s.strays, ["extra/", "notes.txt"]);
    }

    #[test]
    fn a_canvas_student_s_numbered_names_are_kept_apart() {
        let list = [
            "doejane_1001_5001_lab-1.py",
            "doejane_1001_5002_lab-2.py",
            "doejane_1001_5003_main-1.py",
            "doejane_1001_5009_notes.txt",
            "doejane_1001_5004_notes-1.txt",
        ];
        let s = sorted(&list, "");
        assert_eq!(
            shown(&s, &list)[0].2,
            [
                "doejane_1001_5001_lab-1.py -> lab-1.py",
                "doejane_1001_5002_lab-2.py -> lab-2.py",
                "doejane_1001_5003_main-1.py -> main.py",
                "doejane_1001_5009_notes.txt -> notes.txt",
            ]
        );
    }

    #[test]
    fn a_moodle_download_is_sorted_flat_or_in_folders() {
        let list = [
            "Doe, Jane Ann_2001_assignsubmission_file_homework.py",
            "Doe, Jane Ann_2001_assignsubmission_onlinetext_onlinetext.html",
            "Roe Richard_2002_assignsubmission_file_/homework.py",
            "Roe Richard_2002_assignsubmission_file_/lib/student.py",
            "grades.csv",
        ];
        let s = sorted(&list, "");
        assert_eq!(s.site, Site::Moodle);
        assert_eq!(
            shown(&s, &list)
                .iter()
                .map(|(n, st, f)| (n.as_str(), st.join(" "), f.len()))
                .collect::<Vec<_>>(),
            [
                ("Doe, Jane Ann_2001", "Doe, Jane Ann#2001".to_owned(), 2),
                ("Roe Richard_2002", "Roe Richard#2002".to_owned(), 2)
            ]
        );
        assert!(shown(&s, &list)[1].2[1].ends_with(" -> lib/student.py"));
        assert_eq!(s.strays, ["grades.csv"]);
        // An upload and the online text of one name: both kept.
        let list = [
            "Doe_2001_assignsubmission_file_onlinetext.html",
            "Doe_2001_assignsubmission_onlinetext_onlinetext.html",
            "Doe_2001_assignsubmission_file_onlinetext (2).html",
        ];
        let s = sorted(&list, "");
        assert_eq!(
            shown(&s, &list)[0].2,
            [
                "Doe_2001_assignsubmission_file_onlinetext.html -> onlinetext.html",
                "Doe_2001_assignsubmission_onlinetext_onlinetext.html -> onlinetext (3).html",
                "Doe_2001_assignsubmission_file_onlinetext (2).html -> onlinetext (2).html",
            ]
        );
    }

    #[test]
    fn a_gradescope_export_takes_its_names_from_the_metadata() {
        let list = [
            "submission_metadata.yml",
            "submission_301/homework.py",
            "submission_302/homework.py",
            "submission_302/student.py",
            "submission_399/homework.py",
            "stray.py",
        ];
        let metadata = "\
:submission_301:
  :submitters:
  - :name: Doe, Jane
    :sid: '3001'
    :email: jane@example.edu
  :created_at: 2026-01-01 10:00:00.000000000 -08:00
  :score: 0.0
submission_302:
  :submitters:
  - :name: \"Pair \\\"One\\\"\"
    :sid: 3002
  - :name: 'Pair Two'
    :sid:
  :results:
    :tests:
    - :name: not a submitter
      :sid: '9'
";
        let s = sorted(&list, metadata);
        assert_eq!(s.site, Site::Gradescope);
        let got = shown(&s, &list);
        let names: Vec<(&str, String, usize)> = got
            .iter()
            .map(|(n, st, f)| (n.as_str(), st.join(" | "), f.len()))
            .collect();
        assert_eq!(
            names,
            [
                ("Doe, Jane_301", "Doe, Jane#3001".to_owned(), 1),
                (
                    "Pair \"One\" & Pair Two_302",
                    "Pair \"One\"#3002 | Pair Two#".to_owned(),
                    2
                ),
                ("submission_399", String::new(), 1),
            ]
        );
        assert_eq!(s.strays, ["stray.py"]);
    }

    #[test]
    fn the_site_is_the_one_most_names_follow() {
        let list = [
            "Ann/homework.py",
            "Bob/homework.py",
            "Doe_12_assignsubmission_file_/homework.py",
            "doejane_1001_5001_homework.py",
        ];
        assert_eq!(sorted(&list, "").site, Site::Folders);
        let list = [
            "Ann_1_assignsubmission_file_homework.py",
            "Bob_2_assignsubmission_file_homework.py",
            "doejane_1001_5001_homework.py",
        ];
        assert_eq!(sorted(&list, "").site, Site::Moodle);
        // Moodle's folders with one folder of another name beside them.
        let list = [
            "Ann_1_assignsubmission_file_/homework.py",
            "Bob_2_assignsubmission_file_/homework.py",
            "extra/readme.md",
        ];
        assert_eq!(sorted(&list, "").site, Site::Moodle);
    }

    #[test]
    fn plain_folders_are_each_a_student() {
        let list = [
            "Doe, Jane_1/homework.py",
            "b/x/y.c",
            ".git/HEAD",
            "loose.py",
        ];
        let s = sorted(&list, "");
        assert_eq!(s.site, Site::Folders);
        let got = shown(&s, &list);
        assert_eq!(got[0].0, "Doe, Jane_1");
        assert_eq!(got[1].2, ["b/x/y.c -> x/y.c"]);
        assert_eq!(got.len(), 2);
        assert_eq!(s.strays, ["loose.py"]);
    }

    #[test]
    fn names_are_made_file_names() {
        assert_eq!(file_name_of("a/b"), "a_b");
        assert_eq!(file_name_of(".hidden"), "_.hidden");
        assert_eq!(file_name_of(" "), "_");
    }
}

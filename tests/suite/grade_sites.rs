//! `stakeraid grade --class` on a course site's download as it comes: a
//! Canvas zip (late, resubmitted, two files), a Moodle zip (flat files and
//! folders), a Gradescope export unpacked in a folder, each graded with no
//! reshaping and every student found by the site's name and id, a stray
//! file one line; `--roster` on Canvas's gradebook export and Moodle's
//! worksheet, the import files' rows matching the gradebook, the students
//! unmatched on either side listed; and a zip that climbs out, links, or
//! grows past its bounds refused in one line, nothing written outside.
//!
//! The scores are known from the programs: the textbook program passes
//! every case, a program that exits at once fails every one, and a
//! program that needs its second file fails every one without it.

use std::io::Write;
use std::path::Path;

use crate::util::run;

/// The correct program.
fn textbook() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-fixtures/textbook.py"))
        .unwrap()
}

/// A program that fails every case.
const CRASH: &[u8] = b"raise SystemExit('boom')\n";

/// A program whose search is its second file, `student.py`: correct.
const NEEDS_STUDENT: &[u8] = b"import student\nstudent.main()\n";

fn student_py() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-zoo/student.py")).unwrap()
}

/// A zip's entries: each name and bytes.
type Entries<'a> = Vec<(&'a str, Vec<u8>)>;

/// Writes a zip of `entries` (name, bytes) at `path`, deflated.
fn zip(path: &Path, entries: &[(&str, Vec<u8>)]) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        z.start_file(*name, options).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

/// Grades `class` into `out` with no program named, on two cheap cases,
/// and `more` arguments: the output.
fn grade(root: &Path, class: &str, out: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec![
        "grade",
        "--class",
        class,
        "--class-out",
        out,
        "--cases",
        "2",
        "--time-limit",
        "1",
        "--jobs",
        "2",
        "--shrink-runs",
        "0",
    ];
    args.extend(more);
    run(root, &args, b"")
}

/// Grades `class` into `out` as [`grade`] does, checks that it ends well
/// and that its gradebook holds exactly the rows `expected` (name, id,
/// strict score): standard output and standard error.
fn graded_as(
    root: &Path,
    class: &str,
    out: &str,
    more: &[&str],
    expected: &[(&str, &str, &str)],
) -> (String, String) {
    let done = grade(root, class, out, more);
    let stderr = String::from_utf8_lossy(&done.stderr).into_owned();
    assert_eq!(done.status.code(), Some(0), "{stderr}");
    assert_eq!(graded(&root.join(out)), owned(expected), "{stderr}");
    (String::from_utf8_lossy(&done.stdout).into_owned(), stderr)
}

/// The CSV at `path` as rows of cells, the header first.
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// Each gradebook row as (name, id, strict score), by the header's names.
fn graded(out: &Path) -> Vec<(String, String, String)> {
    let rows = csv_rows(&out.join("gradebook.csv"));
    let at = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let (name, id, score) = (at("name"), at("id"), at("score_strict"));
    let mut got: Vec<_> = rows[1..]
        .iter()
        .map(|r| (r[name].clone(), r[id].clone(), r[score].clone()))
        .collect();
    got.sort();
    got
}

fn owned(list: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = list
        .iter()
        .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
        .collect();
    v.sort();
    v
}

/// The lines of `stderr` that name a stray file.
fn strays(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("belongs to no student"))
        .collect()
}

#[test]
fn a_canvas_zip_is_graded_as_it_comes_and_its_grades_go_back() {
    let root = tempfile::tempdir().unwrap();
    zip(
        &root.path().join("submissions.zip"),
        &[
            ("doejane_late_1001_5001_homework.py", textbook()),
            // Resubmitted: the newer file, homework-1.py, is the one graded.
            ("roerichard_1002_5002_homework.py", CRASH.to_vec()),
            ("roerichard_1002_5003_homework-1.py", textbook()),
            // Two files, handed in late.
            (
                "poeedgar_LATE_1003_5004_homework.py",
                NEEDS_STUDENT.to_vec(),
            ),
            ("poeedgar_LATE_1003_5005_student.py", student_py()),
            ("crashcarl_1004_5006_homework.py", CRASH.to_vec()),
            ("notes.txt", b"not a student's".to_vec()),
        ],
    );
    // Canvas's gradebook export: two assignments, the points possible row,
    // a student with no submission; crashcarl is not in it.
    std::fs::write(
        root.path().join("export.csv"),
        "\u{feff}Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (501),Quiz 1 (502),Current Score\n\
         \x20   Points Possible,,,,,100.00,10.00,(read only)\n\
         \"Doe, Jane\",1001,s1001,jdoe,CS 1,,9.00,90\n\
         \"Roe, Richard\",1002,s1002,rroe,CS 1,,8.00,80\n\
         \"Poe, Edgar\",1003,s1003,epoe,CS 1,,7.00,70\n\
         \"Nobody, Nora\",1099,s1099,nnob,CS 1,55,6.00,60\n",
    )
    .unwrap();
    let (stdout, stderr) = graded_as(
        root.path(),
        "submissions.zip",
        "grades",
        &["--roster", "export.csv", "--assignment", "Homework 1"],
        &[
            ("doejane", "1001", "100"),
            ("roerichard", "1002", "100"),
            ("poeedgar", "1003", "100"),
            ("crashcarl", "1004", "0"),
        ],
    );
    let grades = root.path().join("grades");
    assert_eq!(strays(&stderr).len(), 1, "{stderr}");
    assert!(strays(&stderr)[0].contains("notes.txt"), "{stderr}");
    // Each student's files in a folder of their own, the names as handed in.
    let gathered = grades.join("submissions");
    assert!(gathered.join("poeedgar_1003/student.py").is_file());
    assert!(gathered.join("roerichard_1002/homework.py").is_file());
    assert!(!gathered.join("roerichard_1002/homework-1.py").exists());

    // The import file: the identity columns and the assignment's, the
    // points possible row, every roster student; the score of each graded
    // one by id, the others' cells as they were.
    let import = csv_rows(&grades.join("canvas-import.csv"));
    assert_eq!(
        import[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            "Homework 1 (501)"
        ]
    );
    assert_eq!(import[1][0].trim(), "Points Possible");
    assert_eq!(import[1][5], "100.00");
    let by_id: Vec<(&str, &str)> = import[2..]
        .iter()
        .map(|r| (r[1].as_str(), r[5].as_str()))
        .collect();
    assert_eq!(
        by_id,
        [
            ("1001", "100"),
            ("1002", "100"),
            ("1003", "100"),
            ("1099", "55")
        ]
    );
    assert!(
        stdout.contains("canvas-import.csv (3 of the roster's students scored)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  no submission: Nobody, Nora (1099)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  not in the roster: crashcarl_1004 (1004)"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("no submission: ").count(), 1, "{stdout}");
    assert_eq!(stdout.matches("not in the roster: ").count(), 1, "{stdout}");

    // Several assignments and none named: refused before anything runs.
    let out = grade(
        root.path(),
        "submissions.zip",
        "other",
        &["--roster", "export.csv"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("name one with --assignment"), "{stderr}");
    assert!(!root.path().join("other").exists());
}

#[test]
fn a_moodle_zip_and_a_gradescope_folder_are_graded_as_they_come() {
    let root = tempfile::tempdir().unwrap();
    // Moodle: flat files and a folder (both of Moodle's ways).
    zip(
        &root.path().join("moodle.zip"),
        &[
            (
                "Doe, Jane Ann_2001_assignsubmission_file_homework.py",
                textbook(),
            ),
            (
                "Roe Richard_2002_assignsubmission_file_/homework.py",
                NEEDS_STUDENT.to_vec(),
            ),
            (
                "Roe Richard_2002_assignsubmission_file_/student.py",
                student_py(),
            ),
            (
                "Crash Carl_2003_assignsubmission_file_homework.py",
                CRASH.to_vec(),
            ),
            (
                "Zed Zero_2005_assignsubmission_file_homework.py",
                CRASH.to_vec(),
            ),
        ],
    );
    // Moodle's offline grading worksheet: Zed is not in it, Nora handed
    // nothing in.
    std::fs::write(
        root.path().join("worksheet.csv"),
        "Identifier,\"Full name\",\"Email address\",Status,Grade,\"Maximum Grade\",\"Grade can be changed\",\"Last modified (submission)\",\"Last modified (grade)\",\"Feedback comments\"\n\
         \"Participant 2001\",\"Doe, Jane Ann\",jane@example.edu,\"Submitted for grading\",,100.00,Yes,\"Monday, 1 June 2026, 10:00 AM\",-,\n\
         \"Participant 2002\",\"Roe Richard\",rich@example.edu,\"Submitted for grading\",,100.00,Yes,\"Monday, 1 June 2026, 10:00 AM\",-,\n\
         \"Participant 2003\",\"Crash Carl\",carl@example.edu,\"Submitted for grading\",,100.00,Yes,\"Monday, 1 June 2026, 10:00 AM\",-,\n\
         \"Participant 2099\",\"Nobody Nora\",nora@example.edu,\"No submission\",,100.00,Yes,-,-,\n",
    )
    .unwrap();
    let (stdout, stderr) = graded_as(
        root.path(),
        "moodle.zip",
        "moodle",
        &["--roster", "worksheet.csv"],
        &[
            ("Doe, Jane Ann", "2001", "100"),
            ("Roe Richard", "2002", "100"),
            ("Crash Carl", "2003", "0"),
            ("Zed Zero", "2005", "0"),
        ],
    );
    let moodle = root.path().join("moodle");
    assert!(strays(&stderr).is_empty(), "{stderr}");
    // The worksheet whole, its Grade filled for the students graded.
    let sheet = csv_rows(&root.path().join("worksheet.csv"));
    let import = csv_rows(&moodle.join("moodle-import.csv"));
    assert_eq!(import.len(), sheet.len());
    assert_eq!(import[0], sheet[0]);
    let grades: Vec<(&str, &str)> = import[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[4].as_str()))
        .collect();
    assert_eq!(
        grades,
        [
            ("Participant 2001", "100"),
            ("Participant 2002", "100"),
            ("Participant 2003", "0"),
            ("Participant 2099", "")
        ]
    );
    for (row, was) in import[1..].iter().zip(&sheet[1..]) {
        let others = |r: &[String]| [&r[..4], &r[5..]].concat();
        assert_eq!(others(row), others(was));
    }
    assert!(
        stdout.contains("\n  no submission: Nobody Nora (Participant 2099)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("\n  not in the roster: Zed Zero_2005 (2005)"),
        "{stdout}"
    );

    // Gradescope: the export unpacked, in the folder of its name; a group
    // of two; a file beside the submissions.
    let export = root.path().join("gradescope/assignment_7_export");
    for (path, bytes) in [
        ("submission_301/homework.py", textbook()),
        ("submission_302/homework.py", CRASH.to_vec()),
        ("submission_303/homework.py", NEEDS_STUDENT.to_vec()),
        ("submission_303/lib/student.py", student_py()),
        ("readme.txt", b"exported".to_vec()),
    ] {
        let path = export.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    std::fs::write(
        export.join("submission_metadata.yml"),
        ":submission_301:\n  :submitters:\n  - :name: Doe, Jane\n    :sid: '3001'\n    :email: jane@example.edu\n  :score: 0.0\n\
         :submission_302:\n  :submitters:\n  - :name: O'Neil, Sam\n    :sid: '3002'\n  - :name: Pat Lee\n    :sid: '3004'\n\
         :submission_303:\n  :submitters:\n  - :name: Ann Other\n    :sid: '3003'\n",
    )
    .unwrap();
    let (_, stderr) = graded_as(
        root.path(),
        "gradescope",
        "gs",
        &[],
        &[
            ("Doe, Jane", "3001", "100"),
            ("O'Neil, Sam; Pat Lee", "3002; 3004", "0"),
            // Its second file in a sub-folder, where the import does not
            // find it: the program fails.
            ("Ann Other", "3003", "0"),
        ],
    );
    assert!(root
        .path()
        .join("gs/submissions/Ann Other_303/lib/student.py")
        .is_file());
    assert_eq!(strays(&stderr).len(), 1, "{stderr}");
    assert!(strays(&stderr)[0].contains("readme.txt"), "{stderr}");

    // Moodle's worksheet holds no Gradescope id: refused before grading.
    let out = grade(
        root.path(),
        "gradescope",
        "gs-moodle",
        &["--roster", "worksheet.csv"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("Moodle's worksheet holds no column of the ids a Gradescope export"),
        "{stderr}"
    );
    assert!(!root.path().join("gs-moodle/gradebook.csv").exists());
}

#[test]
fn a_stray_name_s_control_characters_are_printed_escaped() {
    let root = tempfile::tempdir().unwrap();
    zip(
        &root.path().join("c.zip"),
        &[
            ("doejane_1001_5001_homework.py", CRASH.to_vec()),
            ("\u{1b}[2Jnotes\u{7}.txt", b"not a student's".to_vec()),
        ],
    );
    let out = grade(
        root.path(),
        "c.zip",
        "out",
        &["--", "python3", "homework.py"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(strays(&stderr).len(), 1, "{stderr}");
    assert!(
        strays(&stderr)[0].contains("\\u{1b}[2Jnotes\\u{7}.txt belongs"),
        "{stderr:?}"
    );
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

/// Runs `--class` on the zip `name` in `dir` (into `out`, with a
/// program that never runs), checks that it is refused in one line, exit
/// 2: the line.
fn refused(dir: &Path, name: &str) -> String {
    let out = grade(dir, name, "out", &["--", "python3", "homework.py"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
    assert!(
        stderr.starts_with(&format!("stakeraid: --class {name}: refused: ")),
        "{name}: {stderr}"
    );
    stderr
}

#[test]
fn an_unsafe_zip_is_refused_in_one_line_and_nothing_is_written_outside() {
    let root = tempfile::tempdir().unwrap();
    let inside = root.path().join("in");
    std::fs::create_dir(&inside).unwrap();
    let outside = root.path().join("escaped.py");
    let absolute = outside.display().to_string();
    let fine = ("doejane_1001_5001_homework.py", CRASH.to_vec());
    let cases: Vec<(&str, Entries, &str)> = vec![
        (
            "climbs.zip",
            vec![fine.clone(), ("a/../../escaped.py", CRASH.to_vec())],
            "climbs out of the folder",
        ),
        (
            "absolute.zip",
            vec![fine.clone(), (absolute.as_str(), CRASH.to_vec())],
            "climbs out of the folder",
        ),
        (
            "large.zip",
            vec![
                fine.clone(),
                ("big_1002_5002_homework.py", vec![b'#'; (32 << 20) + 1]),
            ],
            "holds more than 32 MiB",
        ),
    ];
    for (name, entries, says) in &cases {
        zip(&inside.join(name), entries);
        let stderr = refused(&inside, name);
        assert!(stderr.contains(says), "{name}: {stderr}");
        assert!(!inside.join("out").exists(), "{name}: nothing written");
    }
    // A link, whatever it points at.
    let path = inside.join("link.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    z.start_file("doejane_1001_5001_homework.py", options)
        .unwrap();
    z.write_all(CRASH).unwrap();
    z.add_symlink("roerichard_1002_5002_homework.py", "/etc/passwd", options)
        .unwrap();
    z.finish().unwrap();
    let stderr = refused(&inside, "link.zip");
    assert!(
        stderr.contains("the entry \"roerichard_1002_5002_homework.py\" is a link"),
        "{stderr}"
    );

    // A file that says it is small and is not: its bytes are counted as
    // they are read, and the copy stops past the bound.
    let path = inside.join("lies.zip");
    zip(
        &path,
        &[
            fine.clone(),
            ("big_1002_5002_homework.py", vec![b'#'; (32 << 20) + 1]),
        ],
    );
    let mut bytes = std::fs::read(&path).unwrap();
    let big = (32u32 << 20) + 1;
    let mut patched = 0;
    // The size, after the CRC and the compressed size, in the file's local
    // header (offset 22) and its central directory entry (offset 24).
    for (signature, offset) in [(b"PK\x03\x04", 22), (b"PK\x01\x02", 24)] {
        let mut at = 0;
        while let Some(found) = bytes[at..].windows(4).position(|w| w == signature) {
            let start = at + found + offset;
            if bytes[start..start + 4] == big.to_le_bytes() {
                bytes[start..start + 4].copy_from_slice(&100u32.to_le_bytes());
                patched += 1;
            }
            at += found + 4;
        }
    }
    assert_eq!(patched, 2);
    std::fs::write(&path, bytes).unwrap();
    let stderr = refused(&inside, "lies.zip");
    assert!(
        stderr.contains("refused: big_1002_5002_homework.py: "),
        "{stderr}"
    );
    // Nothing gathered is left, and nothing past the bound was written.
    assert!(!inside.join("out/submissions").exists(), "{stderr}");
    assert!(!outside.exists());
    let left: Vec<_> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["in"], "nothing beside the class");
}

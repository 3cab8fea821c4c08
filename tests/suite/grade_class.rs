//! `stakeraid grade --class DIR`: a folder of six submissions (named as
//! course exports name them) graded in one command into a gradebook, one
//! report per student and a class summary; interrupted, resumed to the
//! same gradebook; bad input refused in one line before anything runs.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::grade::python;
use crate::util::run;

/// The class: a correct program, two one-bug programs of the zoo, a crash,
/// an endless loop and a folder with no program.
fn class(root: &Path) -> PathBuf {
    let zoo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-zoo");
    let dir = root.join("class");
    let copy = |folder: &str, from: &str| {
        let to = dir.join(folder);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(zoo.join("student.py"), to.join("student.py")).unwrap();
        std::fs::copy(zoo.join(from), to.join("homework.py")).unwrap();
    };
    copy("Doe, Jane_1001_late", "student.py");
    copy("Roe Richard_1002", "root_ge.py");
    copy("Poe, Edgar_1003", "leaf_for_mover.py");
    for (folder, text) in [
        ("crash_1004", "raise SystemExit('boom')\n"),
        ("slow_1005", "while True:\n    pass\n"),
    ] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(dir.join(folder).join("homework.py"), text).unwrap();
    }
    std::fs::create_dir_all(dir.join("empty_1006")).unwrap();
    dir
}

/// The arguments grading `class` into `out`: few cheap cases.
fn args<'a>(class: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "grade",
        "--class",
        class,
        "--class-out",
        out,
        "--cases",
        "6",
        "--time-limit",
        "1",
        "--jobs",
        "2",
        "--shrink-runs",
        "0",
        "--",
        python(),
        "-B",
        "homework.py",
    ]
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_class_is_graded_in_one_command_and_resumed_after_an_interruption() {
    let root = tempfile::tempdir().unwrap();
    let dir = class(root.path());
    let (c, o) = (dir.display().to_string(), "out".to_owned());
    let out = run(root.path(), &args(&c, &o), b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let book = read(&root.path().join("out/gradebook.csv"));
    let lines: Vec<&str> = book.lines().collect();
    assert_eq!(lines.len(), 7, "{book}");
    assert_eq!(
        lines[0],
        "student,score_strict,score_lenient,failures,diagnosis"
    );
    assert!(
        lines[1].starts_with("\"Doe, Jane_1001_late\",100,100,,"),
        "{book}"
    );
    let row = |name: &str| *lines.iter().find(|l| l.contains(name)).unwrap();
    assert!(
        row("Roe Richard").contains("ties won by the last best move"),
        "{book}"
    );
    assert!(
        row("Poe, Edgar").contains("leaves scored for the side to move"),
        "{book}"
    );
    assert!(
        row("crash_1004").starts_with("crash_1004,0,0,crash: 6,"),
        "{book}"
    );
    assert!(row("slow_1005").contains("timeout: 6"), "{book}");
    assert!(row("empty_1006").contains("cannot run: "), "{book}");
    assert!(
        row("empty_1006").contains("homework.py does not exist"),
        "{book}"
    );
    let summary = read(&root.path().join("out/summary.txt"));
    assert!(
        summary.starts_with("Class summary: 6 submissions, 6 cases"),
        "{summary}"
    );
    assert!(
        summary.contains("1  ties won by the last best move (>=)"),
        "{summary}"
    );
    assert!(summary.contains("Cases failing most"), "{summary}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Gradebook: "));
    for name in ["Doe, Jane_1001_late", "Roe Richard_1002", "slow_1005"] {
        let report = read(&root.path().join(format!("out/reports/{name}.txt")));
        assert!(report.contains("Score: "), "{name}: {report}");
    }

    // Killed while grading: what was done is kept, the rest is graded on
    // the next run, and the gradebook is the same.
    let again = root.path().join("again");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args(&c, "again"))
        .current_dir(root.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let rows = || {
        std::fs::read_dir(again.join("reports")).map_or(0, |d| {
            d.filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".row.json"))
            })
            .count()
        })
    };
    let start = Instant::now();
    while rows() < 1 && child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no student finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to the child this test started.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    child.wait().unwrap();
    let kept = rows();
    let out = run(root.path(), &args(&c, "again"), b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("(from the earlier run)").count(),
        kept,
        "{stderr}"
    );
    assert_eq!(read(&again.join("gradebook.csv")), book);

    // A row of other cases is graded again, not reused.
    let mut other = args(&c, "again");
    other[7] = "5";
    let out = run(root.path(), &other, b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("(from the earlier run)"), "{stderr}");
}

#[test]
fn bad_class_input_is_one_line_before_anything_runs() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("empty")).unwrap();
    std::fs::create_dir_all(root.path().join("class/one")).unwrap();
    std::fs::write(root.path().join("file"), "").unwrap();
    for (class, out, says) in [
        ("nowhere", "out", "--class nowhere: "),
        ("empty", "out", "no submission folder"),
        ("class", "file/out", "cannot write the gradebook"),
        ("class", "class/out", "inside the class folder"),
    ] {
        let got = run(root.path(), &args(class, out), b"");
        let stderr = String::from_utf8_lossy(&got.stderr);
        assert_eq!(got.status.code(), Some(2), "{class}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("stakeraid: ") && stderr.contains(says),
            "{stderr}"
        );
        assert!(
            !root.path().join("out").exists(),
            "{class}: nothing written"
        );
    }
}

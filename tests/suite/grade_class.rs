//! `stakeraid grade --class DIR`: a folder of six submissions (named as
//! course exports name them) graded in one command into a gradebook, one
//! report per student and a class summary; interrupted (one line, status
//! 130, the gradebook partial by its name), resumed to the same gradebook;
//! bad input refused in one line before anything runs. With no program
//! named, a class of Python 3, C, C++ and Java programs, a run.sh and a
//! Makefile, each found by its file names and built in the box; a program
//! that does not compile is a row. Each student graded in a class is
//! graded as alone.

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

/// The gradebook's name until every student is done.
const PARTIAL: &str = "gradebook.partial.csv";

/// The students an interrupted class into `out` has done.
fn rows(out: &Path) -> usize {
    std::fs::read_dir(out.join("reports")).map_or(0, |d| {
        d.filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".row.json"))
        })
        .count()
    })
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
        "student,name,id,score_strict,score_lenient,failures,diagnosis,language,build,command"
    );
    assert!(
        lines[1].starts_with("\"Doe, Jane_1001_late\",,,100,100,,,given,,"),
        "{book}"
    );
    assert!(!root.path().join("out").join(PARTIAL).exists());
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
        row("crash_1004").starts_with("crash_1004,,,0,0,crash: 6,"),
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

    // Stopped by Ctrl-C while grading: one line, status 130, what was
    // done kept and the gradebook so far marked partial by its name; the
    // same command grades the rest, to the same gradebook.
    let again = root.path().join("again");
    // Its temporary folders (cases', sandbox roots) in one of the test's.
    let scratch = root.path().join("scratch");
    std::fs::create_dir(&scratch).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(args(&c, "again"))
        .env("TMPDIR", &scratch)
        .current_dir(root.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while rows(&again) < 1 && child.try_wait().unwrap().is_none() {
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
    let stopped = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&stopped.stderr);
    let kept = rows(&again);
    let left: Vec<_> = std::fs::read_dir(&scratch).unwrap().collect();
    assert!(left.is_empty(), "temporary folders left: {left:?}");
    // The endless student, last in the class, takes seconds: the signal
    // comes before the class is done.
    assert_eq!(stopped.status.code(), Some(130), "{stderr}");
    assert!(kept < 6, "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert_eq!(
        stderr.matches("stakeraid: stopped").count(),
        1,
        "one line: {stderr}"
    );
    assert!(
        last.starts_with(&format!(
            "stakeraid: stopped by SIGINT: {kept} of 6 students graded, {} left \
             (the gradebook so far: again/{PARTIAL}); the same command resumes: ",
            6 - kept
        )) && last.ends_with(&format!(
            "--class {c} --class-out again --cases 6 \
             --time-limit 1 --jobs 2 --shrink-runs 0 -- {} -B homework.py",
            python()
        )),
        "{stderr}"
    );
    assert!(!again.join("gradebook.csv").exists(), "{stderr}");
    let partial = read(&again.join(PARTIAL));
    assert_eq!(partial.lines().count(), kept + 1, "{partial}");
    for line in partial.lines().skip(1) {
        assert!(book.lines().any(|l| l == line), "{line}\n{book}");
    }
    let out = run(root.path(), &args(&c, "again"), b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("(from the earlier run)").count(),
        kept,
        "{stderr}"
    );
    assert_eq!(read(&again.join("gradebook.csv")), book);
    assert!(!again.join(PARTIAL).exists());

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
        ("empty", "out", "no submission in it"),
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

/// The compilers the class of many languages needs, or `None` (said on
/// standard error) where one is missing; under CI a missing one fails.
fn compilers() -> Option<()> {
    let missing: Vec<&str> = ["javac", "java", "g++", "gcc", "make"]
        .into_iter()
        .filter(|c| {
            !std::process::Command::new("sh")
                .args(["-c", &format!("command -v {c}")])
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .collect();
    if missing.is_empty() {
        return Some(());
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs {missing:?} to grade a class of many languages"
    );
    eprintln!("skipping: {missing:?} not on this machine");
    None
}

#[test]
fn a_class_of_many_languages_is_graded_with_no_program_named() {
    if compilers().is_none() {
        return;
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("class");
    let folder = |name: &str, files: &[(&str, &str)]| {
        let to = dir.join(name);
        std::fs::create_dir_all(&to).unwrap();
        for (from, file) in files {
            std::fs::copy(fixtures.join(from), to.join(file)).unwrap();
        }
        to
    };
    folder(
        "Ada, Python_1",
        &[("grade-fixtures/textbook.py", "homework.py")],
    );
    folder("Bo C_2", &[("class-fixtures/homework.c", "homework.c")]);
    folder(
        "Cy Cpp_3",
        &[("class-fixtures/homework.cpp", "homework11.cpp")],
    );
    folder(
        "Di Java_4",
        &[("class-fixtures/homework.java", "homework.java")],
    );
    folder(
        "Ed Broken_5",
        &[("class-fixtures/broken.cpp", "homework.cpp")],
    );
    let script = folder("Fay Script_6", &[("grade-fixtures/textbook.py", "mine.py")]);
    std::fs::write(
        script.join("run.sh"),
        "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/mine.py\"\n",
    )
    .unwrap();
    let make = folder("Gus Make_7", &[("class-fixtures/homework.c", "main.c")]);
    std::fs::write(
        make.join("Makefile"),
        "homework: main.c\n\tgcc -O2 -o homework main.c\n",
    )
    .unwrap();
    let out = run(
        root.path(),
        &[
            "grade",
            "--class",
            "class",
            "--class-out",
            "out",
            "--cases",
            "6",
            "--time-limit",
            "5",
            "--jobs",
            "2",
            "--shrink-runs",
            "0",
        ],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let book = read(&root.path().join("out/gradebook.csv"));
    let row = |name: &str| {
        book.lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {book}"))
    };
    for (name, says) in [
        ("Ada, Python_1", ",Python 3,,python3 homework.py"),
        ("Bo C_2", ",C,gcc -O2 -o homework homework.c -lm,./homework"),
        (
            "Cy Cpp_3",
            ",C++,g++ -std=c++11 -O2 -o homework homework11.cpp,./homework",
        ),
        (
            "Di Java_4",
            ",Java,javac -encoding UTF-8 homework.java,java homework",
        ),
        ("Fay Script_6", ",run.sh,,sh run.sh"),
        ("Gus Make_7", ",Makefile,make,./homework"),
    ] {
        let line = row(name);
        assert!(line.contains(",100,100,,,"), "{name}: {book}");
        assert!(line.ends_with(says), "{name}: {line}");
    }
    // The build that fails: one row, the compiler's first error by the
    // student's own file name.
    let broken = row("Ed Broken_5");
    assert!(
        broken.starts_with("Ed Broken_5,,,0,0,cannot build,cannot build: homework.cpp:5:"),
        "{broken}"
    );
    assert!(broken.contains("error"), "{broken}");
    assert_eq!(book.lines().count(), 8, "{book}");
    let summary = read(&root.path().join("out/summary.txt"));
    assert!(
        summary.contains("6 score 100; 0 fail some case; 0 cannot run; 1 cannot build"),
        "{summary}"
    );
    // The students' folders are not written: the builds are beside the
    // gradebook.
    assert!(!dir.join("Bo C_2/homework").exists());
    assert!(root.path().join("out/builds/Bo C_2/homework").is_file());

    // -- PROGRAM still runs one command for all.
    let out = run(
        root.path(),
        &[
            "grade",
            "--class",
            "class",
            "--class-out",
            "forced",
            "--cases",
            "2",
            "--jobs",
            "2",
            "--",
            "python3",
            "homework.py",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let forced = read(&root.path().join("forced/gradebook.csv"));
    assert!(
        forced
            .lines()
            .any(|l| l.starts_with("\"Ada, Python_1\",,,100,100,,,given,,python3 homework.py")),
        "{forced}"
    );
    let missing = forced
        .lines()
        .filter(|l| l.contains("homework.py does not exist"))
        .count();
    assert_eq!(missing, 6, "{forced}");
}

/// The JSON report's parts a class must leave as the student graded alone
/// has them: each case's verdict and output, the scores, the failures, the
/// smaller inputs and the diagnosis (times left out).
fn graded_parts(report: &serde_json::Value) -> serde_json::Value {
    let cases: Vec<serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            serde_json::json!([
                c["name"],
                c["verdict"],
                c["failure"],
                c["output"],
                c["exit"]
            ])
        })
        .collect();
    let shrunk: Vec<serde_json::Value> = report["shrunk"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| serde_json::json!([s["from"], s["input"], s["verdict"], s["runs"], s["stopped"]]))
        .collect();
    // The diagnosis whole, but for its experiments' run times.
    let mut diagnosis = report["diagnosis"].clone();
    if let Some(experiments) = diagnosis["experiments"].as_array_mut() {
        for e in experiments {
            let e = e.as_object_mut().unwrap();
            e.remove("cpu");
            e.remove("wall");
        }
    }
    serde_json::json!({
        "cases": cases,
        "strict": report["strict"],
        "lenient": report["lenient"],
        "failures": report["failures"],
        "shrunk": shrunk,
        "diagnosis": diagnosis,
    })
}

#[test]
fn each_student_of_a_class_is_graded_as_alone() {
    let zoo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/grade-zoo");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("class");
    let students = [
        "student",
        "root_ge",
        "alphabeta_short",
        "raids_first",
        "leaf_for_mover",
    ];
    for name in students {
        let to = dir.join(name);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(zoo.join("student.py"), to.join("student.py")).unwrap();
        std::fs::copy(zoo.join(format!("{name}.py")), to.join("homework.py")).unwrap();
    }
    let settings = [
        "--cases",
        "10",
        "--time-limit",
        "2",
        "--jobs",
        "2",
        "--shrink-runs",
        "12",
    ];
    let mut class = vec!["grade", "--class", "class", "--class-out", "out"];
    class.extend(settings);
    class.extend(["--", python(), "-B", "homework.py"]);
    let out = run(root.path(), &class, b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut diagnosed = 0;
    for name in students {
        let mut alone = vec!["grade", "--json", "alone.json"];
        alone.extend(settings);
        alone.extend(["--", python(), "-B", "homework.py"]);
        let out = run(&dir.join(name), &alone, b"");
        assert!(out.status.code().is_some_and(|c| c <= 1), "{name}");
        let json =
            |path: &Path| -> serde_json::Value { serde_json::from_str(&read(path)).unwrap() };
        let alone = json(&dir.join(name).join("alone.json"));
        let in_class = json(&root.path().join(format!("out/reports/{name}.json")));
        assert_eq!(graded_parts(&in_class), graded_parts(&alone), "{name}");
        diagnosed += usize::from(!alone["diagnosis"].is_null());
    }
    // The comparison is one of graded students: most of them are wrong
    // and diagnosed.
    assert!(diagnosed >= 3, "{diagnosed}");
}

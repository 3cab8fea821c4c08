//! Every `stakeraid grade` command line of the README, of the grading
//! guide and of its reference, run as written in a folder laid out as the page assumes: a
//! correct plain textbook homework (`tests/grade-fixtures/textbook.py`) as
//! `homework.py`, `./a.out` a program that runs it, `../shared/cases` the
//! golden cases, a class folder of submissions, Canvas's and Moodle's
//! downloads and exported gradebooks, and the Gradescope
//! script's `/autograder` tree (moved under the test's folder, its only
//! change). A correct program must pass every one of them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The lines of `page`'s ```sh blocks that run `stakeraid grade`, each
/// joined with the lines its trailing `\` continues into, and the lines of
/// a whole script block (one starting with `#!`) as one script.
fn grade_commands(page: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    let mut inside = false;
    for line in page.lines() {
        if line.starts_with("```") {
            if inside {
                commands.extend(block_commands(&block));
                block.clear();
            }
            inside = line == "```sh";
        } else if inside {
            block.push(line);
        }
    }
    commands
}

fn block_commands(block: &[&str]) -> Vec<String> {
    let runs_grade = |text: &str| text.contains("stakeraid grade");
    if block.first().is_some_and(|l| l.starts_with("#!")) {
        let script = block.join("\n") + "\n";
        return if runs_grade(&script) {
            vec![script]
        } else {
            vec![]
        };
    }
    // A `cd` line of the block holds for the commands after it.
    let mut commands = Vec::new();
    let mut current = String::new();
    let mut cd = String::new();
    for line in block {
        let line = line.split(" # ").next().unwrap().trim_end();
        match line.strip_suffix('\\') {
            Some(head) => current.push_str(head),
            None => {
                current.push_str(line);
                if current.starts_with("cd ") {
                    cd = format!("{} && ", current.trim());
                } else if runs_grade(&current) {
                    commands.push(format!("{cd}{}", current.trim()));
                }
                current.clear();
            }
        }
    }
    commands
}

/// A folder laid out as the pages assume, with `stakeraid` first on `PATH`.
struct Layout {
    _root: tempfile::TempDir,
    /// Where the commands run.
    work: PathBuf,
    /// The Gradescope tree.
    autograder: PathBuf,
    path: String,
}

impl Layout {
    fn new() -> Layout {
        let root = tempfile::tempdir().unwrap();
        // Graded as root, the homework runs as nobody: every folder on its
        // way must be open to all, which a fresh temporary one is not.
        open_to_all(root.path());
        let suite = Path::new(env!("CARGO_MANIFEST_DIR"));
        let textbook = std::fs::read(suite.join("tests/grade-fixtures/textbook.py")).unwrap();
        let bin = root.path().join("bin");
        let work = root.path().join("work");
        let autograder = root.path().join("autograder");
        for dir in [
            &bin,
            &work,
            &work.join("submissions/Ada Lovelace, 1001"),
            &work.join("submissions/alan_turing_1002"),
            &autograder.join("source"),
            &autograder.join("submission"),
            &autograder.join("results"),
        ] {
            std::fs::create_dir_all(dir).unwrap();
            open_to_all(dir);
        }
        let stakeraid = Path::new(env!("CARGO_BIN_EXE_stakeraid"));
        std::os::unix::fs::symlink(stakeraid, bin.join("stakeraid")).unwrap();
        std::os::unix::fs::symlink(stakeraid, autograder.join("source/stakeraid")).unwrap();
        let shared = suite.parent().unwrap().join("shared");
        std::os::unix::fs::symlink(&shared, root.path().join("shared")).unwrap();
        for dir in [
            work.clone(),
            work.join("submissions/Ada Lovelace, 1001"),
            work.join("submissions/alan_turing_1002"),
            autograder.join("submission"),
        ] {
            std::fs::write(dir.join("homework.py"), &textbook).unwrap();
        }
        site_downloads(&work, &textbook);
        let a_out = work.join("a.out");
        std::fs::write(
            &a_out,
            "#!/bin/sh\nexec python3 \"$(dirname \"$0\")/homework.py\"\n",
        )
        .unwrap();
        make_executable(&a_out);
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Layout {
            _root: root,
            work,
            autograder,
            path,
        }
    }

    /// Runs `command` as the page writes it (the `/autograder` tree moved
    /// here), with `SEED` set as Gradescope's environment would.
    fn run(&self, command: &str) -> std::process::Output {
        let command = command.replace("/autograder/", &format!("{}/", self.autograder.display()));
        Command::new("bash")
            .arg("-c")
            .arg(&command)
            .current_dir(&self.work)
            .env("PATH", &self.path)
            .env("SEED", "1")
            .output()
            .unwrap()
    }
}

/// The course sites' files the guide's examples name, in `work`: a Canvas
/// download and a Moodle one of one student each, Canvas's gradebook
/// export (two assignments, a student with no submission) and Moodle's
/// grading worksheet.
fn site_downloads(work: &Path, homework: &[u8]) {
    use std::io::Write;
    for (zip, name) in [
        ("submissions.zip", "lovelaceada_1001_5001_homework.py"),
        (
            "moodle.zip",
            "Ada Lovelace_2001_assignsubmission_file_homework.py",
        ),
    ] {
        let mut z = zip::ZipWriter::new(std::fs::File::create(work.join(zip)).unwrap());
        z.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(homework).unwrap();
        z.finish().unwrap();
    }
    std::fs::write(
        work.join("canvas-gradebook.csv"),
        "Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (501),Quiz 1 (502)\n\
         \x20   Points Possible,,,,,100.00,10.00\n\
         \"Lovelace, Ada\",1001,s1,ada,CS 1,,9\n\
         \"Turing, Alan\",1002,s2,alan,CS 1,,8\n",
    )
    .unwrap();
    std::fs::write(
        work.join("worksheet.csv"),
        "Identifier,Full name,Email address,Status,Grade,Maximum Grade,Grade can be changed,\
         Last modified (submission),Last modified (grade),Feedback comments\n\
         Participant 2001,Ada Lovelace,ada@example.edu,Submitted,,100.00,Yes,-,-,\n\
         Participant 2002,Alan Turing,alan@example.edu,No submission,,100.00,Yes,-,-,\n",
    )
    .unwrap();
}

fn open_to_all(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn make_executable(file: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The commands found are the ones the pages hold: a page that gains a
/// `stakeraid grade` example is run by the test below without a change.
#[test]
fn the_grade_examples_are_found() {
    let page = "```sh\nstakeraid grade -- python3 a.py   # note\n\
                cd /x\n/x/stakeraid grade --seed 1 \\\n  -- python3 b.py || true\n\
                stakeraid solve in.txt\n```\n\
                ```sh\n#!/usr/bin/env bash\ncd /x\nstakeraid grade -- c\n```\n\
                ```text\nstakeraid grade -- not run\n```\n";
    assert_eq!(
        grade_commands(page),
        [
            "stakeraid grade -- python3 a.py",
            "cd /x && /x/stakeraid grade --seed 1   -- python3 b.py || true",
            "#!/usr/bin/env bash\ncd /x\nstakeraid grade -- c\n",
        ]
    );
}

/// Every `stakeraid grade` example of the README, docs/grading.md and
/// docs/grading-reference.md passes a correct homework: exit 0 and a full score, or, for the
/// Gradescope script, 100 points in its `results.json`; the class examples
/// a gradebook of every submission, and with `--roster` the site's
/// import file with the score.
#[test]
fn every_grade_example_passes_a_correct_homework() {
    // The README's example grades from ../shared/cases: without it the
    // test skips, or under CI fails in one line naming it.
    if crate::util::cases_dir().is_none() {
        return;
    }
    let suite = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut commands = Vec::new();
    for page in ["README.md", "docs/grading.md", "docs/grading-reference.md"] {
        let text = std::fs::read_to_string(suite.join(page)).unwrap();
        commands.extend(grade_commands(&text).into_iter().map(|c| (page, c)));
    }
    assert!(commands.len() >= 5, "{commands:?}");
    let layout = Layout::new();
    for (page, command) in &commands {
        let out = layout.run(command);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said = format!("{page}: `{command}`\n{stdout}\n{stderr}");
        assert!(out.status.success(), "{said}");
        if command.contains("--gradescope") {
            let results = layout.autograder.join("results/results.json");
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
            assert_eq!(json["score"].as_f64(), Some(100.0), "{said}\n{json}");
            std::fs::remove_file(results).unwrap();
        } else if command.contains("--class") {
            let out_dir = command
                .split_whitespace()
                .skip_while(|w| *w != "--class-out")
                .nth(1)
                .unwrap();
            let out_dir = layout.work.join(out_dir);
            let gradebook = std::fs::read_to_string(out_dir.join("gradebook.csv")).unwrap();
            // The class folder holds two students; each download, one.
            let (students, ada) = match command.contains(".zip") {
                false => (2, "\"Ada Lovelace, 1001\",,,100,100,"),
                true if command.contains("moodle") => (1, ",Ada Lovelace,2001,100,100,"),
                true => (1, ",lovelaceada,1001,100,100,"),
            };
            assert_eq!(
                gradebook.lines().count(),
                students + 1,
                "{said}\n{gradebook}"
            );
            assert!(gradebook.contains(ada), "{said}\n{gradebook}");
            if command.contains("--roster") {
                let (file, row) = match command.contains("moodle") {
                    true => (
                        "moodle-import.csv",
                        "Participant 2001,Ada Lovelace,ada@example.edu,Submitted,100,",
                    ),
                    false => (
                        "canvas-import.csv",
                        "\"Lovelace, Ada\",1001,s1,ada,CS 1,100\n",
                    ),
                };
                let import = std::fs::read_to_string(out_dir.join(file)).unwrap();
                assert!(import.contains(row), "{said}\n{import}");
                assert!(stdout.contains("  no submission: "), "{said}");
            }
        } else {
            assert!(stdout.contains("Score: 100 / 100"), "{said}");
        }
    }
}

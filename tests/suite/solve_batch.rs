//! `stakeraid solve` on several inputs or a folder: each answered into an
//! output file of its own as the golden cases say, a bad input named and
//! the others answered, Ctrl-C leaving only whole outputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{case_folders, empty_8x8_input, normalized};

/// The first `count` golden cases copied into `dir` as `case-N.txt`, with
/// their expected outputs.
fn golden_inputs(dir: &Path, count: usize) -> Vec<(PathBuf, String)> {
    case_folders()
        .iter()
        .take(count)
        .enumerate()
        .map(|(i, case)| {
            let input = dir.join(format!("case-{i:02}.txt"));
            std::fs::copy(case.join("input.txt"), &input).unwrap();
            let expected = std::fs::read_to_string(case.join("output.txt")).unwrap();
            (input, normalized(&expected))
        })
        .collect()
}

fn output_of(input: &Path) -> PathBuf {
    let name = input.file_stem().unwrap().to_string_lossy();
    input.with_file_name(format!("{name}.out.txt"))
}

/// A folder of golden inputs with a bad one and a link to nothing among
/// them: every good input answered beside it as its golden output, each
/// other one error line naming it, exit status 2.
#[test]
fn a_folder_is_answered_input_by_input_and_a_bad_one_named() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = golden_inputs(dir.path(), 24);
    if inputs.is_empty() {
        return;
    }
    std::fs::write(dir.path().join("broken.txt"), "3\nMINIMAX\nO\n").unwrap();
    std::os::unix::fs::symlink("/nonexistent/input", dir.path().join("dangling.txt")).unwrap();
    let out = crate::util::run(dir.path(), &["solve", "."], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("broken.txt"))
        .collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(stderr.contains("dangling.txt: No such file"), "{stderr}");
    assert!(
        stderr.contains("2 failed") && stderr.contains("answered 24 of 26 inputs"),
        "{stderr}"
    );
    assert!(!dir.path().join("broken.out.txt").exists());
    for (input, expected) in &inputs {
        let answer = std::fs::read_to_string(output_of(input)).unwrap();
        assert_eq!(normalized(&answer), *expected, "{}", input.display());
    }
    // Run again: the outputs are not taken for inputs.
    let again = crate::util::run(dir.path(), &["solve", "."], b"");
    assert!(String::from_utf8_lossy(&again.stderr).contains("of 26 inputs"));
}

/// A COMPETITION input in a batch is one line that says why and what to
/// do instead; the exact inputs beside it are answered.
#[test]
fn a_competition_input_in_a_batch_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let exact = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";
    std::fs::write(dir.path().join("exact.txt"), exact).unwrap();
    let competition = exact.replace("MINIMAX\nO\n2", "COMPETITION\nO\n12.5");
    std::fs::write(dir.path().join("comp.txt"), competition).unwrap();
    let out = crate::util::run(dir.path(), &["solve", "exact.txt", "comp.txt"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let about: Vec<&str> = stderr.lines().filter(|l| l.contains("comp.txt")).collect();
    assert_eq!(
        about,
        [
            "stakeraid: comp.txt: COMPETITION mode has no exact answer; \
          a batch answers MINIMAX and ALPHABETA files: solve it alone"
        ],
        "{stderr}"
    );
    let answer = std::fs::read_to_string(dir.path().join("exact.out.txt")).unwrap();
    assert!(answer.starts_with("B3 Stake\n"), "{answer}");
}

/// Inputs named on the command line into `-o DIR`, with `--json`: one
/// line per input, the files the same as the golden outputs.
#[test]
fn inputs_go_into_an_output_folder_with_a_json_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = golden_inputs(dir.path(), 6);
    if inputs.is_empty() {
        return;
    }
    let mut args: Vec<String> = vec![
        "solve".into(),
        "--json".into(),
        "-o".into(),
        "answers".into(),
    ];
    args.extend(inputs.iter().map(|(p, _)| p.display().to_string()));
    args.push("missing.txt".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = crate::util::run(dir.path(), &args, b"");
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), inputs.len() + 1);
    for (input, expected) in &inputs {
        let name = output_of(input).file_name().unwrap().to_owned();
        let written = dir.path().join("answers").join(name);
        assert_eq!(
            normalized(&std::fs::read_to_string(&written).unwrap()),
            *expected
        );
        let line = lines
            .iter()
            .find(|l| l["input"] == input.display().to_string())
            .unwrap();
        assert_eq!(line["ok"], true);
        assert_eq!(
            line["output"],
            Path::new("answers")
                .join(output_of(input).file_name().unwrap())
                .display()
                .to_string()
        );
        let best = line["analysis"]["best"].as_str().unwrap();
        assert!(expected.starts_with(&format!("{best}\n")), "{line}");
    }
    let missing = lines.iter().find(|l| l["input"] == "missing.txt").unwrap();
    assert_eq!(missing["ok"], false);
}

/// Two inputs that would answer into one file are refused before any search.
#[test]
fn inputs_answering_into_one_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        std::fs::write(dir.path().join(sub).join("input.txt"), empty_8x8_input(2)).unwrap();
    }
    let out = crate::util::run(
        dir.path(),
        &["solve", "a/input.txt", "b/input.txt", "-o", "out"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("would both be answered into"));
    let beside = crate::util::run(dir.path(), &["solve", "a/input.txt", "b/input.txt"], b"");
    crate::util::assert_ok(&beside);
    assert!(dir.path().join("a/output.txt").is_file() && dir.path().join("b/output.txt").is_file());
}

#[test]
fn an_input_in_place_of_an_output_or_a_batch_to_standard_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = empty_8x8_input(2);
    for name in ["p.txt", "p.out.txt", "input.txt", "output.txt", "file"] {
        std::fs::write(dir.path().join(name), &input).unwrap();
    }
    let refused = |args: &[&str], says: &str| {
        let out = crate::util::run(dir.path(), args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        // Every input as it was, and no output written.
        for name in ["p.txt", "p.out.txt", "input.txt", "output.txt", "file"] {
            let now = std::fs::read_to_string(dir.path().join(name)).unwrap();
            assert_eq!(now, input, "{args:?} changed {name}");
        }
        assert!(!dir.path().join("p.out.out.txt").exists() && !dir.path().join("-").exists());
    };
    let is_an_input = "which is an input too";
    refused(&["solve", "p.txt", "p.out.txt"], is_an_input);
    refused(&["solve", "./p.out.txt", "p.txt"], is_an_input);
    refused(&["solve", "input.txt", "output.txt"], is_an_input);
    refused(
        &["solve", "p.txt", "input.txt", "-o", "-"],
        "-o - (standard output) goes with one input",
    );
    refused(
        &["solve", "p.txt", "input.txt", "-o", "file"],
        "-o file: not a folder",
    );
}

/// Ctrl-C on a batch whose quick inputs are answered and whose deep ones
/// never end: the quick outputs whole, none for the deep ones, no
/// temporary file left, and the status of SIGINT.
#[test]
fn ctrl_c_leaves_every_finished_output_whole_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = golden_inputs(dir.path(), 8);
    if inputs.is_empty() {
        return;
    }
    for k in 0..3 {
        std::fs::write(
            dir.path().join(format!("deep-{k}.txt")),
            empty_8x8_input(64),
        )
        .unwrap();
    }
    let child = Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["solve", ".", "--threads", "2"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !inputs.iter().all(|(p, _)| output_of(p).exists()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the quick inputs not answered"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    // SAFETY: a plain kill(2) of the child just spawned.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("stopped by SIGINT"), "{stderr}");
    for (input, expected) in &inputs {
        let answer = std::fs::read_to_string(output_of(input)).unwrap();
        assert_eq!(normalized(&answer), *expected);
    }
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("case-"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["deep-0.txt", "deep-1.txt", "deep-2.txt"],
        "no output for a stopped search, no temporary file"
    );
}

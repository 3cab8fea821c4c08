//! The command line: the grader's no-argument run, streams, errors.

use std::fs;

use crate::util::{assert_ok, run, run_with_closed_stdout, SPEC_EXAMPLES};

#[test]
fn no_arguments_reads_input_txt_and_writes_output_txt() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[2];
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let out = run(dir.path(), &[], b"");
    assert_ok(&out);
    assert_eq!(
        fs::read_to_string(dir.path().join("output.txt")).unwrap(),
        expected
    );
    let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 2, "no temporary files left behind");
}

#[test]
fn solve_streams_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[0];
    let out = run(
        dir.path(),
        &["solve", "-", "-o", "-", "--stats"],
        input.as_bytes(),
    );
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    let stats = String::from_utf8(out.stderr).unwrap();
    assert!(
        stats.contains("nodes") && stats.contains("Mnodes/s"),
        "{stats}"
    );
}

#[test]
fn solve_named_files_with_each_engine() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[1];
    fs::write(dir.path().join("in.txt"), input).unwrap();
    for engine in ["reference", "fast"] {
        let out = run(
            dir.path(),
            &["solve", "in.txt", "-o", "ans.txt", "--engine", engine],
            b"",
        );
        assert_ok(&out);
        assert_eq!(
            fs::read_to_string(dir.path().join("ans.txt")).unwrap(),
            expected
        );
    }
}

#[test]
fn bad_input_names_the_line_and_leaves_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = SPEC_EXAMPLES[0];
    let bad = [
        (input.replace("MINIMAX", "MAXIMIN"), "line 2"),
        (input.replace("5 42 12", "5 42"), "line 6"),
        (input.replace("X..\n", "X.?\n"), "line 8"),
        (input.replace("X..\n...\n...", "XOX\nOXO\nXOX"), "line 10"),
    ];
    for (text, line) in bad {
        fs::write(dir.path().join("input.txt"), &text).unwrap();
        fs::write(dir.path().join("output.txt"), "previous answer\n").unwrap();
        let out = run(dir.path(), &[], b"");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(line) && err.lines().count() == 1, "{err}");
        let kept = fs::read_to_string(dir.path().join("output.txt")).unwrap();
        assert_eq!(kept, "previous answer\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}

#[test]
fn missing_input_is_an_error_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &[], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("input.txt"));
    assert!(!dir.path().join("output.txt").exists());
}

#[test]
fn help_lists_the_commands() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(dir.path(), &["--help"], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("solve") && text.contains("input.txt"),
        "{text}"
    );
}

#[test]
fn every_competition_time_gives_a_move_or_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let position = "3\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n.O.\n";
    let input = |time: &str| {
        let (n, rest) = position.split_once('\n').unwrap();
        format!("{n}\nCOMPETITION\nX\n{time}\n{rest}")
    };
    for time in ["0", "-5", "-0", "1e-300", "0.001", "2.5", "1e20", "1e308"] {
        let out = run(
            dir.path(),
            &["solve", "-", "-o", "-"],
            input(time).as_bytes(),
        );
        assert_ok(&out);
        let text = String::from_utf8(out.stdout).unwrap();
        let first = text.lines().next().unwrap_or_default();
        assert!(
            first.ends_with(" Stake") || first.ends_with(" Raid"),
            "time {time}: {text}"
        );
        assert_eq!(text.lines().count(), 4, "time {time}: {text}");
    }
    for time in ["nan", "NaN", "inf", "-inf", "infinity", "1e400", "soon", ""] {
        let out = run(
            dir.path(),
            &["solve", "-", "-o", "-"],
            input(time).as_bytes(),
        );
        assert_eq!(out.status.code(), Some(2), "time {time:?}");
        assert!(out.stdout.is_empty(), "time {time:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "time {time:?}: {err}");
        assert!(err.contains("line 4"), "time {time:?}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["driver", "--random", "1"][..],
        &["match", "greedy", "random", "--boards", "2", "--trace"],
        &["bench", "--verbose"],
    ] {
        let (status, stderr) = run_with_closed_stdout(dir.path(), args);
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {status:?}\n{stderr}"
        );
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn cr_only_line_ends_are_lines() {
    let dir = tempfile::tempdir().unwrap();
    for (input, expected) in SPEC_EXAMPLES {
        let cr = input.replace('\n', "\r");
        let out = run(dir.path(), &["solve", "-", "-o", "-"], cr.as_bytes());
        assert_ok(&out);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    }
}

#[test]
fn a_huge_garbage_line_gives_a_short_error() {
    let dir = tempfile::tempdir().unwrap();
    let garbage: Vec<u8> = (0..1_000_000).map(|i| b"zq7 ,"[i % 5]).collect();
    fs::write(dir.path().join("input.txt"), garbage).unwrap();
    let out = run(dir.path(), &[], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.len() < 200 && err.lines().count() == 1 && err.contains("line 1"),
        "{} bytes: {}",
        err.len(),
        &err[..err.len().min(300)]
    );
}

#[test]
fn a_depth_beyond_u32_names_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = SPEC_EXAMPLES[0];
    for depth in ["4294967296", "99999999999999999999999", "0"] {
        let text = input.replacen("\n2\n", &format!("\n{depth}\n"), 1);
        let out = run(dir.path(), &["solve", "-", "-o", "-"], text.as_bytes());
        assert_eq!(out.status.code(), Some(2), "depth {depth}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("line 4") && err.contains("from 1 to 4294967295"),
            "depth {depth}: {err}"
        );
    }
    let out = run(
        dir.path(),
        &["solve", "-", "-o", "-", "--threads", "1"],
        input.replacen("\n2\n", "\n4294967295\n", 1).as_bytes(),
    );
    assert_ok(&out);
}

#[test]
fn threads_are_capped_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[0];
    for args in [
        &["solve", "-", "-o", "-", "--threads", "10000"][..],
        &["analyse", "-", "--threads", "257"],
        &["match", "greedy", "random", "--threads", "10000"],
        &["driver", "--threads", "10000"],
        &["referee", "greedy", "random", "--threads", "10000"],
    ] {
        let out = run(dir.path(), args, input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("--threads") && err.contains("at most 256"),
            "{args:?}: {err}"
        );
    }
    let out = run(
        dir.path(),
        &["solve", "-", "-o", "-", "--threads", "256"],
        input.as_bytes(),
    );
    assert_ok(&out);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn json_takes_the_fast_engine_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = SPEC_EXAMPLES[0];
    let out = run(
        dir.path(),
        &[
            "solve", "-", "-o", "-", "--json", "--engine", "fast", "--stats",
        ],
        input.as_bytes(),
    );
    assert_ok(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["best"], "B3 Stake");
    let stats = String::from_utf8(out.stderr).unwrap();
    assert!(
        stats.lines().count() == 1 && stats.contains("B3 Stake") && stats.contains("nodes"),
        "{stats}"
    );

    let out = run(
        dir.path(),
        &["solve", "-", "-o", "-", "--json", "--engine", "reference"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.lines().count() == 1 && err.contains("--engine reference"),
        "{err}"
    );
}

/// A standard output that cannot be written (a full disk) is one line on
/// standard error and exit code 2, never a panic or an abort; help that
/// could not be printed is not a success.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_one_line_and_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), SPEC_EXAMPLES[0].0).unwrap();
    let board = "1,1\t2,0\t3,0\t4,0\t5,0\n".repeat(5);
    fs::write(dir.path().join("board.txt"), board).unwrap();
    let commands: [&[&str]; 8] = [
        &["analyse", "input.txt"],
        &["analyse", "--json", "input.txt"],
        &["solve", "input.txt", "-o", "-", "--json"],
        &[
            "solve",
            "--format",
            "drop-blitz",
            "board.txt",
            "--depth",
            "2",
        ],
        &["match", "greedy", "random", "--boards", "1", "--size", "3"],
        &[
            "driver",
            "--random",
            "1",
            "--minimax-depth",
            "1",
            "--alphabeta-depth",
            "1",
        ],
        &["bench"],
        &["solve", "-o", "-"],
    ];
    for args in commands {
        let (status, stderr) = crate::util::run_with_full_stdout(dir.path(), args);
        assert_eq!(status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("No space left"), "{args:?}: {stderr}");
    }
    let (status, _) = crate::util::run_with_full_stdout(dir.path(), &["solve", "--help"]);
    assert!(!status.success(), "help that was not printed");
}

/// An output path that is a symbolic link writes the file the link names
/// (through a temporary file beside it) and leaves the link a link.
#[cfg(unix)]
#[test]
fn an_output_link_writes_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[0];
    fs::write(dir.path().join("input.txt"), input).unwrap();
    fs::create_dir(dir.path().join("answers")).unwrap();
    fs::write(dir.path().join("answers/target.txt"), "previous answer\n").unwrap();
    std::os::unix::fs::symlink("answers/target.txt", dir.path().join("link.txt")).unwrap();
    std::os::unix::fs::symlink("link.txt", dir.path().join("link2.txt")).unwrap();
    for link in ["link.txt", "link2.txt"] {
        fs::write(dir.path().join("answers/target.txt"), "previous answer\n").unwrap();
        let out = run(dir.path(), &["solve", "input.txt", "-o", link], b"");
        assert_ok(&out);
        let meta = fs::symlink_metadata(dir.path().join(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link} is still a link");
        assert_eq!(
            fs::read_to_string(dir.path().join("answers/target.txt")).unwrap(),
            expected
        );
        assert_eq!(fs::read_dir(dir.path().join("answers")).unwrap().count(), 1);
    }
    // A link to a file not yet there creates it.
    std::os::unix::fs::symlink("answers/new.txt", dir.path().join("fresh.txt")).unwrap();
    assert_ok(&run(
        dir.path(),
        &["solve", "input.txt", "-o", "fresh.txt"],
        b"",
    ));
    assert_eq!(
        fs::read_to_string(dir.path().join("answers/new.txt")).unwrap(),
        expected
    );
}

/// Negative and out-of-range numbers are one line naming the flag and the
/// accepted range, not a tip to pass `-1` as the input file.
#[test]
fn numbers_out_of_range_are_one_line_with_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let input = SPEC_EXAMPLES[0].0.as_bytes();
    for (args, says) in [
        (
            &["solve", "-", "-o", "-", "--time", "-1"][..],
            "from 0 to 1e9",
        ),
        (
            &["solve", "-", "-o", "-", "--time", "1e30"],
            "from 0 to 1e9",
        ),
        (&["analyse", "-", "--time", "-1"], "from 0 to 1e9"),
        (&["solve", "-", "-o", "-", "--threads", "-1"], "from 0"),
        (&["analyse", "-", "--threads", "-1"], "from 0"),
        (&["match", "greedy", "random", "--threads", "-1"], "from 0"),
        (&["solve", "-", "-o", "-", "--table-mb", "-5"], "from 1"),
        (
            &["solve", "-", "-o", "-", "--table-mb", "2000000"],
            "at most 1048576",
        ),
    ] {
        let out = run(dir.path(), args, input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        let flag = args[args.len() - 2];
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(flag) && err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A table larger than the machine's memory is refused before anything is
/// allocated (1 TiB here, more than any test machine has).
#[cfg(target_os = "linux")]
#[test]
fn the_table_is_bounded_by_the_memory_available() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        dir.path(),
        &["solve", "-", "-o", "-", "--table-mb", "1048576"],
        SPEC_EXAMPLES[0].0.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--table-mb") && err.contains("available"),
        "{err}"
    );
}

/// One help text per command, whichever flag asks for it, with each
/// default said once and the same names for the same values.
#[test]
fn help_is_one_text_with_each_default_once() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["solve", "analyse", "serve", "position", "match", "driver"] {
        let short = run(dir.path(), &[command, "-h"], b"");
        let long = run(dir.path(), &[command, "--help"], b"");
        assert_ok(&long);
        assert_eq!(short.stdout, long.stdout, "{command}: -h and --help differ");
    }
    let help = |command: &str| {
        String::from_utf8(run(dir.path(), &[command, "--help"], b"").stdout).unwrap()
    };
    for command in ["solve", "analyse"] {
        let text = help(command);
        assert!(text.contains("--time <SECONDS>"), "{command}: {text}");
        let threads = text.split("--threads").nth(1).unwrap();
        let entry = threads.split("\n\n").next().unwrap();
        assert_eq!(entry.matches("default").count(), 1, "{command}: {entry}");
    }
}

/// `position` takes the mode and player words `solve` takes, and a bad one
/// names the flag and the choices, not a line of a file.
#[test]
fn position_words_are_checked_as_flags() {
    let dir = tempfile::tempdir().unwrap();
    for mode in ["minimax", "MINIMAX"] {
        let out = run(
            dir.path(),
            &["position", "--size", "3", "--mode", mode],
            b"",
        );
        assert_ok(&out);
        assert!(String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("3\nMINIMAX\n"));
    }
    for (args, says) in [
        (
            &["position", "--mode", "foo"][..],
            "minimax, alphabeta, competition",
        ),
        (&["position", "--player", "Z"], "--player"),
        (&["position", "--depth", "0"], "--depth"),
    ] {
        let out = run(dir.path(), args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.lines().count() == 1 && err.contains(says),
            "{args:?}: {err}"
        );
        assert!(!err.contains("line"), "{args:?}: {err}");
    }
}

/// `analyse` on a COMPETITION input says what is missing and how to give it.
#[test]
fn analyse_of_a_competition_input_asks_for_a_depth() {
    let dir = tempfile::tempdir().unwrap();
    let input = SPEC_EXAMPLES[0]
        .0
        .replace("MINIMAX\nO\n2", "COMPETITION\nO\n12.5");
    let out = run(dir.path(), &["analyse", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("COMPETITION") && err.contains("--depth"),
        "{err}"
    );
    let out = run(
        dir.path(),
        &["analyse", "-", "--depth", "2"],
        input.as_bytes(),
    );
    assert_ok(&out);
}

/// Every usage error the argument parser finds is one line starting with
/// `stakeraid:`, exit status 2, as every other error is.
#[test]
fn usage_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["solve", "--bogus"][..],
        &["solve", "--hint", "A1 Stake=3"],
        &["--threads"],
        &["bogus"],
        &["position", "--mode", "foo"],
        &["solve", "--threads", "x"],
        &["match"],
    ] {
        let out = run(dir.path(), args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("stakeraid: "), "{args:?}: {err}");
        assert!(!err.contains("error:"), "{args:?}: {err}");
    }
}

/// `--mode` with an input.txt is refused for what it is (the file names
/// its own mode and depth), not first for the `--depth` it would need:
/// that depth would be refused next.
#[test]
fn mode_with_an_input_txt_is_refused_before_asking_for_a_depth() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("input.txt"), SPEC_EXAMPLES[0].0).unwrap();
    for args in [
        &["solve", "input.txt", "--mode", "minimax"][..],
        &["solve", "--mode", "alphabeta", "--depth", "2"],
        &["solve", "missing.txt", "--mode", "minimax"],
    ] {
        let out = run(dir.path(), args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("go with --format drop-blitz") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let board = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/drop-blitz.txt");
    let board = board.to_str().unwrap();
    let args = [
        "solve",
        "--format",
        "drop-blitz",
        board,
        "--mode",
        "minimax",
    ];
    let out = run(dir.path(), &args, b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs --depth"), "{err}");
}

/// An error that cannot be said, standard error being a full disk, still
/// ends the command with its exit status, not an abort.
#[test]
fn an_error_with_standard_error_full_keeps_its_exit_status() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
        .args(["solve", "no-such-input.txt"])
        .stderr(full)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2), "{status}");
}

/// A negative number given to a numeric option is refused by that option's
/// own check, which names the option, not taken for an unknown flag.
#[test]
fn a_negative_number_is_refused_by_its_options_own_check() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.txt"), SPEC_EXAMPLES[0].0).unwrap();
    for (args, says) in [
        (vec!["position", "--fill", "-0.1"], "--fill"),
        (vec!["position", "--seed", "-1"], "--seed"),
        (vec!["position", "--size", "-3"], "--size"),
        (vec!["position", "--depth", "-3"], "--depth"),
        (vec!["solve", "in.txt", "--depth", "-2"], "--depth"),
        (vec!["web", "--port", "-1"], "--port"),
        (vec!["grade", "--cases", "-1", "--", "true"], "--cases"),
        (vec!["match", "--boards", "-2"], "--boards"),
    ] {
        let out = run(dir.path(), &args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(says) && !err.contains("unexpected argument"),
            "{args:?}: {err}"
        );
    }
}

/// An input of megabytes, given by mistake, is refused in one line before
/// it is read whole, from a file, from standard input and in a batch.
#[test]
fn an_input_larger_than_any_board_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut huge = SPEC_EXAMPLES[0].0.as_bytes().to_vec();
    huge.resize(2 << 20, b'\n');
    fs::write(dir.path().join("huge.txt"), &huge).unwrap();
    fs::write(dir.path().join("in.txt"), SPEC_EXAMPLES[0].0).unwrap();
    for (args, stdin) in [
        (vec!["solve", "huge.txt"], &b""[..]),
        (vec!["analyse", "huge.txt"], &b""[..]),
        (vec!["solve", "-", "-o", "-"], &huge[..]),
    ] {
        let out = run(dir.path(), &args, stdin);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("over 1024 KiB"), "{args:?}: {err}");
    }
    // In a batch, the others are still answered.
    let out = run(dir.path(), &["solve", "in.txt", "huge.txt"], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("huge.txt: over 1024 KiB"), "{err}");
    assert!(dir.path().join("in.out.txt").is_file() && !dir.path().join("huge.out.txt").exists());
}

/// A file that cannot be made or written is named once, as it was given,
/// with the operating system's reason once: no temporary file's name, and
/// a link is named as the link, not as what it points to.
#[test]
fn a_file_error_names_the_given_path_once() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("in.txt"), SPEC_EXAMPLES[0].0).unwrap();
    std::os::unix::fs::symlink("/nonexistent/target", dir.path().join("link.json")).unwrap();
    let referee = [
        "referee",
        "textbook:1",
        "textbook:1",
        "--boards",
        "1",
        "--size",
        "4",
    ];
    let with = |head: &[&'static str], tail: &[&'static str]| [head, tail].concat();
    let cases = [
        (
            vec!["solve", "in.txt", "--store", "missing/s.db"],
            "missing/s.db",
        ),
        (
            vec!["solve", "in.txt", "-o", "missing/out.txt"],
            "missing/out.txt",
        ),
        (vec!["solve", "in.txt", "-o", "link.json"], "link.json"),
        (
            vec!["analyse", "in.txt", "--dot", "missing/t.dot"],
            "missing/t.dot",
        ),
        (vec!["position", "-o", "missing/p.txt"], "missing/p.txt"),
        (
            with(&referee, &["--json", "missing/r.json"]),
            "missing/r.json",
        ),
        // Refused before the match, not after it is played.
        (with(&referee, &["--json", "link.json"]), "link.json"),
        (
            vec!["grade", "--cases-from", "missing/cases", "--", "/bin/true"],
            "missing/cases",
        ),
    ];
    for (args, path) in cases {
        let out = run(dir.path(), &args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert_eq!(err.matches(path).count(), 1, "{args:?}: {err}");
        assert_eq!(
            err.matches("No such file or directory").count(),
            1,
            "{args:?}: {err}"
        );
        for hidden in [".tmp", ".stakeraid-", "/nonexistent"] {
            assert!(!err.contains(hidden), "{args:?}: {err}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// `bench` prints the signature and says that its time is not a speed: its
/// searches take under a millisecond, and the rest is start-up, so nodes
/// over that time would be a rate a thousand times below the engine's.
#[test]
fn bench_says_its_time_is_not_a_speed() {
    let dir = tempfile::tempdir().unwrap();
    let recorded = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/profiles/signature.txt"
    ))
    .unwrap();
    let out = run(dir.path(), &["bench"], b"");
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with(&format!("{} nodes, the bench signature", recorded.trim())),
        "{text}"
    );
    assert!(!text.contains("nodes/s"), "{text}");
    assert!(text.contains("not a speed"), "{text}");
}

/// The run with no arguments, which graders and tournaments charge for
/// its start-up, uses the system allocator, and commands use mimalloc
/// (`src/allocator.rs` says why): seen from outside as mimalloc's 1 GiB
/// arena among the process's mappings, looked at while the process waits
/// for its input on a named pipe (after its first allocations).
#[cfg(feature = "mimalloc")]
#[test]
fn the_run_without_arguments_leaves_out_mimalloc() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("input.txt");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string and mode.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    let arenas = |args: &[&str]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stakeraid"))
            .args(args)
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Opening the pipe for writing waits for the program to open it
        // for reading: by then it has parsed its arguments.
        let mut input = fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let maps = fs::read_to_string(format!("/proc/{}/smaps", child.id())).unwrap();
        input.write_all(SPEC_EXAMPLES[0].0.as_bytes()).unwrap();
        drop(input);
        assert!(child.wait().unwrap().success(), "{args:?}");
        maps.lines()
            .filter(|l| l.split_whitespace().collect::<Vec<_>>() == ["Size:", "1048576", "kB"])
            .count()
    };
    assert!(
        arenas(&["solve", "input.txt"]) >= 1,
        "mimalloc's arena is not seen"
    );
    assert_eq!(
        arenas(&[]),
        0,
        "the run without arguments reserved mimalloc's arena"
    );
}

/// `/dev/stdout` is a link to `/proc/self/fd/1`, whose target names no
/// path when standard output is a pipe: the answer is still written
/// there, in place, as to any device.
#[test]
fn an_output_through_dev_stdout_reaches_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let (input, answer) = SPEC_EXAMPLES[0];
    fs::write(dir.path().join("in.txt"), input).unwrap();
    let out = run(dir.path(), &["solve", "in.txt", "-o", "/dev/stdout"], b"");
    assert_ok(&out);
    assert_eq!(String::from_utf8_lossy(&out.stdout), answer);
}

/// A case of a folder whose input.txt is malformed is named with its
/// reason, once.
#[test]
fn a_malformed_folder_case_says_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("cases/one");
    fs::create_dir_all(&case).unwrap();
    fs::write(case.join("input.txt"), "3\nMINIMAX\nQ\n").unwrap();
    fs::write(case.join("output.txt"), "A1 Stake\n").unwrap();
    let out = run(
        dir.path(),
        &["grade", "--cases-from", "cases", "--", "/bin/true"],
        b"",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.matches("unknown player").count(), 1, "{err}");
}

/// What docs/homework.md says is the same from run to run: on one thread
/// the move, the value and the node count, through `solve --stats` and
/// `solve --json` alike; on two threads the move and the value (the node
/// count may differ, so it is not compared).
#[test]
fn one_threads_node_count_repeats_and_more_threads_keep_the_answer() {
    let doc = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/homework.md")).unwrap();
    assert!(
        doc.contains("On one thread\n(`--threads 1`) the node count"),
        "docs/homework.md no longer says what is the same on one thread"
    );
    let dir = tempfile::tempdir().unwrap();
    let made = run(
        dir.path(),
        &[
            "position", "--size", "4", "--fill", "0.25", "--seed", "2", "--depth", "12", "-o",
            "in.txt",
        ],
        b"",
    );
    assert_ok(&made);
    // "move M  value V  nodes N  ..." -> (M, V, N).
    let stats = |threads: &str| {
        let out = run(
            dir.path(),
            &[
                "solve",
                "in.txt",
                "-o",
                "-",
                "--stats",
                "--threads",
                threads,
            ],
            b"",
        );
        assert_ok(&out);
        let line = String::from_utf8(out.stderr).unwrap();
        let field = |name: &str| {
            let at = line.find(&format!("{name} ")).unwrap() + name.len() + 1;
            line[at..].split("  ").next().unwrap().trim().to_owned()
        };
        (field("move"), field("value"), field("nodes"))
    };
    let one = stats("1");
    for _ in 0..2 {
        assert_eq!(stats("1"), one);
    }
    let out = run(
        dir.path(),
        &["solve", "in.txt", "-o", "-", "--json", "--threads", "1"],
        b"",
    );
    assert_ok(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["nodes"].to_string(), one.2);
    for _ in 0..3 {
        let (mv, value, _) = stats("2");
        assert_eq!((mv, value), (one.0.clone(), one.1.clone()));
    }
}

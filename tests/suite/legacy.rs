//! The older Drop / Blitz variant through the binary: hand-made board files
//! in both pair notations answered as `drop,C,2` / `blitz,C,2` (answers from
//! the SPEC and the textbook search), refused files, and the driver.

use std::fs;

use stakeraid::rng::{random_board, Rng};
use stakeraid::{Board, MoveKind, Player, SearchMode, Square};

use crate::util::{assert_ok, run, textbook};

/// A board file written here, independently of the code under test:
/// owner 1 is `me`, `paren` picks the `(v,o)` notation.
fn board_file(board: &Board, me: Player, paren: bool) -> String {
    let mut s = String::new();
    for r in 0..5 {
        let cells: Vec<String> = (0..5)
            .map(|c| {
                let owner = match board.square(r, c) {
                    Square::Empty => 0,
                    Square::Piece(p) if p == me => 1,
                    Square::Piece(_) => 2,
                };
                let v = board.value(r, c);
                if paren {
                    format!("({v}, {owner})")
                } else {
                    format!("{v},{owner}")
                }
            })
            .collect();
        s.push_str(&cells.join("\t"));
        s.push('\n');
    }
    s
}

fn answer(mv: stakeraid::Move) -> String {
    let kind = if mv.kind() == MoveKind::Stake {
        "drop"
    } else {
        "blitz"
    };
    format!(
        "{kind},{},{}\n",
        (b'A' + mv.col() as u8) as char,
        mv.row() + 1
    )
}

/// The SPEC's examples 2 and 3 are 5x5: the same answers in the older terms.
#[test]
fn spec_examples_in_the_older_format() {
    let dir = tempfile::tempdir().unwrap();
    let plain =
        "20,0\t16,0\t1,1\t32,1\t30,0\n20,0\t12,0\t2,1\t11,2\t8,1\n28,0\t48,0\t9,0\t1,2\t1,0\n\
                 20,0\t12,0\t10,2\t6,2\t2,0\n25,0\t30,0\t23,0\t21,0\t10,0\n";
    let paren =
        "(20,0)\t(16,0)\t(1,1)\t(32,1)\t(30,0)\r\n( 20 , 0 )\t(12,0)\t(2,1)\t(11,2)\t(8,1)\r\n\
                 (28,0)\t(48,0)\t(9,0)\t(1,2)\t(1,0)\r\n(20,0)\t(12,0)\t(10,2)\t(6,2)\t(2,0)\r\n\
                 (25,0)\t(30,0)\t(23,0)\t(21,0)\t(10,0)";
    for (name, text) in [("plain.txt", plain), ("paren.txt", paren)] {
        fs::write(dir.path().join(name), text).unwrap();
        for (mode, depth, expected) in [
            ("minimax", "1", "drop,B,3\n"),
            ("alphabeta", "4", "blitz,C,3\n"),
        ] {
            let args = [
                "solve",
                "--format",
                "drop-blitz",
                name,
                "--mode",
                mode,
                "--depth",
                depth,
            ];
            let out = run(dir.path(), &args, b"");
            assert_ok(&out);
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                expected,
                "{name} {mode}"
            );
        }
    }
    assert!(
        !dir.path().join("output.txt").exists(),
        "the older variant prints its answer"
    );
}

/// Random hand-made boards, both notations, both modes, against the textbook.
#[test]
fn random_boards_match_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(2009);
    for round in 0..24 {
        let board = random_board(
            &mut rng,
            5,
            [3, 99][round % 2],
            0.2 + 0.1 * (round % 6) as f64,
        );
        let me = if round % 3 == 0 { Player::O } else { Player::X };
        let depth = 1 + (round % 3) as u32;
        let path = format!("b{round}.txt");
        fs::write(
            dir.path().join(&path),
            board_file(&board, me, round % 2 == 1),
        )
        .unwrap();
        let expected = answer(textbook(&board, me, SearchMode::Minimax, depth).best);
        let mode = ["minimax", "alphabeta"][round % 2];
        let depth = depth.to_string();
        let out = run(
            dir.path(),
            &[
                "solve",
                "--format",
                "drop-blitz",
                &path,
                "--mode",
                mode,
                "--depth",
                &depth,
            ],
            b"",
        );
        assert_ok(&out);
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{board:?}"
        );
    }
}

/// `solve --format drop-blitz board.txt --depth 2` on `text` in `dir`.
fn solve_board(dir: &std::path::Path, text: &str) -> std::process::Output {
    fs::write(dir.join("board.txt"), text).unwrap();
    let args = [
        "solve",
        "--format",
        "drop-blitz",
        "board.txt",
        "--depth",
        "2",
    ];
    run(dir, &args, b"")
}

/// Board files are read line by line as `input.txt` is: lone CR line ends
/// end lines, and an error quotes only a short head of a long bad line.
#[test]
fn board_files_share_the_input_line_reading() {
    let dir = tempfile::tempdir().unwrap();
    let good = "1,0\t2,0\t3,0\t4,0\t5,0\n".repeat(5);
    let solve = |text: &str| solve_board(dir.path(), text);
    let lf = solve(&good);
    assert_ok(&lf);
    let cr = solve(&good.replace('\n', "\r"));
    assert_ok(&cr);
    assert_eq!(cr.stdout, lf.stdout);

    // Half a megabyte of one bad value, and of one bad cell (inputs stop
    // at a megabyte).
    for (bad, message) in [
        (format!("{},0", "3".repeat(1 << 19)), "line 1: cell value"),
        ("3;0".repeat(1 << 17), "line 1: bad cell"),
    ] {
        let out = solve(&good.replacen("3,0", &bad, 1));
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.len() < 200 && err.contains(message),
            "{} bytes: {:.300}",
            err.len(),
            err
        );
    }
}

#[test]
fn bad_board_files_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let good = "1,0\t2,0\t3,0\t4,0\t5,0\n".repeat(5);
    let cases = [
        (good.replacen("3,0", "3;0", 1), "line 1"),
        (
            good.replacen("1,0\t2,0\t3,0\t4,0\t5,0\n", "1,0\t2,0\t3,0\t4,0\n", 2),
            "line 1",
        ),
        (good.replace("5,0\n", "5,3\n"), "line 1"),
        (
            good.lines().take(4).collect::<Vec<_>>().join("\n"),
            "line 5",
        ),
        (good.replace(",0", ",1"), "line 5"),
    ];
    for (text, line) in cases {
        let out = solve_board(dir.path(), &text);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(line) && err.lines().count() == 1, "{err}");
        assert!(out.stdout.is_empty());
    }
    fs::write(dir.path().join("board.txt"), &good).unwrap();
    let out = run(
        dir.path(),
        &["solve", "--format", "drop-blitz", "board.txt"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "a depth is needed");
    fs::write(
        dir.path().join("input.txt"),
        crate::util::SPEC_EXAMPLES[0].0,
    )
    .unwrap();
    let out = run(dir.path(), &["solve", "--depth", "3"], b"");
    assert_eq!(
        out.status.code(),
        Some(2),
        "an input.txt names its own depth"
    );
}

#[test]
fn driver_traces_and_sums_up() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "driver",
        "--random",
        "2",
        "--minimax-depth",
        "1",
        "--alphabeta-depth",
        "2",
        "--threads",
        "1",
    ];
    let out = run(dir.path(), &args, b"");
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    // Two boards, each played with each agent first; 25 moves a game.
    assert_eq!(
        text.matches("\ngame random-").count() + usize::from(text.starts_with("game random-")),
        4
    );
    let moves = text
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .collect::<Vec<_>>();
    assert_eq!(moves.len(), 4 * 25, "{text}");
    assert!(moves
        .iter()
        .all(|l| l.contains("drop,") || l.contains("blitz,")));
    assert_eq!(text.matches("final  PlayerA ").count(), 4);
    let record = |agent: &str| -> Vec<usize> {
        let line = text
            .lines()
            .find(|l| l.starts_with(agent) && l.contains("wins,"))
            .unwrap();
        line.split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .skip(1)
            .collect()
    };
    let (a, m) = (record("PlayerA ("), record("PlayerM ("));
    assert_eq!(a.iter().sum::<usize>(), 4, "{a:?}");
    assert_eq!(
        (a[0], a[1], a[2]),
        (m[2], m[1], m[0]),
        "one's wins are the other's losses"
    );
    assert!(text.contains("% saved"), "{text}");

    // A board file, PlayerA first, summary only.
    let board = random_board(&mut Rng::new(5), 5, 99, 0.3);
    fs::write(
        dir.path().join("b.txt"),
        board_file(&board, Player::X, true),
    )
    .unwrap();
    let out = run(
        dir.path(),
        &[
            "driver",
            "b.txt",
            "--first",
            "a",
            "--quiet",
            "--alphabeta-depth",
            "2",
        ],
        b"",
    );
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("b.txt"), "{text}");
    assert!(
        !text.contains("drop,") && text.lines().count() == 4,
        "{text}"
    );
}

//! `stakeraid analyse` through the binary: the table of root values (from
//! the textbook search), best first, and the `--dot` tree of alpha-beta.

use std::fs;

use stakeraid::search::reference;
use stakeraid::{legal_moves, parse_problem, Player};

use crate::util::{assert_ok, run, SPEC_EXAMPLES};

#[test]
fn table_lists_every_root_value_best_first() {
    let dir = tempfile::tempdir().unwrap();
    let (input, expected) = SPEC_EXAMPLES[2];
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let problem = parse_problem(input.as_bytes()).unwrap();
    let (board, p, depth) = (&problem.board, problem.player, 4);
    let out = run(dir.path(), &["analyse"], b"");
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("X to move, MINIMAX to depth 4 (exact)"),
        "{text}"
    );
    let rows: Vec<(String, i64)> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() >= 4 && w[0].parse::<u32>().is_ok() && matches!(w[2], "Stake" | "Raid"))
        .map(|w| (format!("{} {}", w[1], w[2]), w[3].parse().unwrap()))
        .collect();
    let moves = legal_moves(board, p);
    assert_eq!(rows.len(), moves.len());
    // Each value is the textbook value of that move.
    for mv in moves {
        let mut b = board.clone();
        b.make(mv, p);
        let truth = -reference::minimax(&b, p.other(), depth - 1).value;
        let row = rows.iter().find(|(m, _)| *m == mv.to_string()).unwrap();
        assert_eq!(row.1, truth, "{mv}");
    }
    assert!(rows.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
    assert_eq!(
        format!("{}\n", rows[0].0),
        expected.lines().next().unwrap().to_string() + "\n"
    );
    assert!(
        text.lines()
            .find(|l| l.starts_with("pv: "))
            .unwrap()
            .starts_with("pv: C3 Raid  "),
        "{text}"
    );

    // ALPHABETA: bounds are marked, and the chosen move is still first.
    let out = run(dir.path(), &["analyse", "--mode", "alphabeta"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("<= "), "{text}");
    assert!(text.lines().nth(2).unwrap().contains("C3 Raid"), "{text}");
}

#[test]
fn dot_draws_the_alphabeta_tree_with_its_cuts() {
    let dir = tempfile::tempdir().unwrap();
    let (input, _) = SPEC_EXAMPLES[0];
    fs::write(dir.path().join("input.txt"), input).unwrap();
    let problem = parse_problem(input.as_bytes()).unwrap();
    for depth in [1u32, 2, 3] {
        let d = depth.to_string();
        let out = run(
            dir.path(),
            &["analyse", "--depth", &d, "--dot", "tree.dot"],
            b"",
        );
        assert_ok(&out);
        assert!(
            String::from_utf8(out.stdout).unwrap().contains("pv: "),
            "the table still prints"
        );
        let dot = fs::read_to_string(dir.path().join("tree.dot")).unwrap();
        assert!(dot.starts_with("digraph") && dot.trim_end().ends_with('}'));
        let truth = reference::alphabeta(&problem.board, Player::O, depth);
        // One drawn node per position the textbook search visits.
        let drawn = dot
            .lines()
            .filter(|l| l.contains("[shape=") && !l.contains("style=dashed"))
            .count();
        assert_eq!(drawn as u64, truth.nodes, "depth {depth}");
        assert!(dot.contains(&format!("best {} value {}", truth.best, truth.value)));
        if depth > 1 {
            assert!(dot.contains("pruned ("), "depth {depth} prunes something");
        }
        let balanced = dot.matches('"').count().is_multiple_of(2)
            && dot.matches('[').count() == dot.matches(']').count();
        assert!(balanced);
    }
    let out = run(dir.path(), &["analyse", "--depth", "4", "--dot", "-"], b"");
    assert_eq!(out.status.code(), Some(2), "--dot is for small searches");
    let out = run(dir.path(), &["analyse", "--depth", "2", "--dot", "-"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("digraph") && !text.contains("pv: "),
        "--dot - prints only the tree"
    );
}

//! The library entry point and `solve --json`: the JSON round-trips and
//! agrees with the text answers on the corpus; root values, bounds and the
//! principal variation match the textbook search; limits and stops.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use stakeraid::api::{
    analyse, Analysis, ApiError, Bound, Limits, Position, PositionError, SearchMode,
};
use stakeraid::rng::{random_board, Rng};
use stakeraid::{legal_moves, parse_problem, Board, Player, Question};

use crate::util::{assert_ok, case_folders, normalized, run, textbook, SPEC_EXAMPLES};

/// The textbook value for `p` of playing `mv` with `depth` plies in all.
fn reference_child_value(board: &Board, p: Player, mv: stakeraid::Move, depth: u32) -> i64 {
    let mut b = board.clone();
    b.make(mv, p);
    if depth == 1 || b.is_full() {
        b.score(p)
    } else {
        -textbook(&b, p.other(), SearchMode::Minimax, depth - 1).value
    }
}

/// What every analysis must satisfy, whatever the position.
fn check_shape(a: &Analysis, board: &Board) {
    let p = a.player;
    let moves: Vec<_> = a.moves.iter().map(|m| m.mv).collect();
    assert_eq!(
        moves,
        legal_moves(board, p),
        "every root move, canonical order"
    );
    let best = a
        .moves
        .iter()
        .position(|m| m.mv == a.best)
        .expect("best is a root move");
    assert_eq!(
        (a.moves[best].value, a.moves[best].bound),
        (a.value, Bound::Exact)
    );
    for (i, m) in a.moves.iter().enumerate() {
        // The first maximal move: earlier ones are below, later ones not above.
        if i < best {
            assert!(m.value < a.value, "{m:?} before {}", a.best);
        } else {
            assert!(m.value <= a.value, "{m:?}");
        }
    }
    assert_eq!(a.ranked()[0].mv, a.best);
    assert_eq!(a.pv.first(), Some(&a.best));
    // Playing the whole PV reaches a position scored at the root's value.
    if a.pv.len() as u32 == a.depth.min(board.empty_count()) {
        let mut b = board.clone();
        let mut to_move = p;
        for &mv in &a.pv {
            assert!(
                legal_moves(&b, to_move).contains(&mv),
                "{mv} in the PV is legal"
            );
            b.make(mv, to_move);
            to_move = to_move.other();
        }
        assert_eq!(b.score(p), a.value, "PV {:?} ends at the root value", a.pv);
    }
    let json = serde_json::to_string(a).unwrap();
    let back: Analysis = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, a, "JSON round trip");
}

/// Every corpus case: the analysis prints the expected output.txt, and so
/// does `solve` (the text path), and its JSON reads back to itself.
#[test]
fn analysis_agrees_with_text_answers_on_the_corpus() {
    let folders = case_folders();
    let mut checked = 0;
    for dir in &folders {
        let input = std::fs::read(dir.join("input.txt")).unwrap();
        let expected = normalized(&std::fs::read_to_string(dir.join("output.txt")).unwrap());
        let problem = match parse_problem(&input) {
            Ok(p) => p,
            Err(e) => panic!("{}: {e}", dir.display()),
        };
        let position = Position::from_problem(&problem).unwrap();
        let limits = Limits {
            threads: 1,
            ..Limits::for_question(problem.question).unwrap()
        };
        let a = analyse(&position, &limits).unwrap();
        assert_eq!(a.output_text(), expected, "{}", dir.display());
        let text = stakeraid::solve(
            &problem,
            &Limits {
                threads: 1,
                ..Default::default()
            },
        )
        .unwrap()
        .text;
        assert_eq!(a.output_text(), text, "{}", dir.display());
        assert!(a.exact && !a.stopped, "{}", dir.display());
        if matches!(
            problem.question,
            Question::Exact {
                mode: SearchMode::Minimax,
                ..
            }
        ) {
            assert!(a.moves.iter().all(|m| m.bound == Bound::Exact));
        }
        check_shape(&a, &problem.board);
        checked += 1;
    }
    eprintln!("analysed {checked} corpus cases");
}

/// On random positions full of ties: MINIMAX values equal the textbook
/// value of each move, ALPHABETA bounds hold, and the PV is the chain of
/// textbook choices at the depth left.
#[test]
fn root_values_and_pv_match_the_reference() {
    let mut rng = Rng::new(808);
    for round in 0..250 {
        let n = 1 + round % 5;
        let board = random_board(&mut rng, n, [2, 5, 99][round % 3], 0.3);
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let depth = 1 + (round % 3) as u32;
        let position = Position::new(board.clone(), player).unwrap();
        let threads = 1 + round % 2;
        let truth = textbook(&board, player, SearchMode::AlphaBeta, depth);
        for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
            let a = analyse(
                &position,
                &Limits {
                    threads,
                    ..Limits::to_depth(mode, depth)
                },
            )
            .unwrap();
            assert_eq!(
                (a.best, a.value),
                (truth.best, truth.value),
                "{mode:?} {board:?}"
            );
            assert_eq!(a.requested_depth, depth.min(board.empty_count()));
            check_shape(&a, &board);
            for m in &a.moves {
                let v = reference_child_value(&board, player, m.mv, depth);
                match m.bound {
                    Bound::Exact => assert_eq!(m.value, v, "{mode:?} {}", m.mv),
                    Bound::Upper => {
                        assert!(mode == SearchMode::AlphaBeta && v <= m.value, "{}", m.mv)
                    }
                    Bound::Lower => panic!("{}: a root value is never a lower bound", m.mv),
                }
            }
            // The PV: each side's textbook choice with the plies left.
            let mut b = board.clone();
            let mut to_move = player;
            let mut expected = Vec::new();
            for left in (1..=depth).rev() {
                if b.is_full() {
                    break;
                }
                let mv = textbook(&b, to_move, SearchMode::AlphaBeta, left).best;
                expected.push(mv);
                b.make(mv, to_move);
                to_move = to_move.other();
            }
            assert_eq!(a.pv, expected, "{mode:?} depth {depth} {board:?}");
        }
    }
}

#[test]
fn a_set_stop_flag_answers_depth_one() {
    let mut rng = Rng::new(1);
    let board = random_board(&mut rng, 8, 99, 0.2);
    let position = Position::new(board.clone(), Player::O).unwrap();
    let stop = Arc::new(AtomicBool::new(true));
    for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
        let limits = Limits {
            stop: Some(stop.clone()),
            ..Limits::to_depth(mode, 30)
        };
        let a = analyse(&position, &limits).unwrap();
        let truth = textbook(&board, Player::O, SearchMode::AlphaBeta, 1);
        assert_eq!((a.depth, a.best, a.value), (1, truth.best, truth.value));
        assert!(!a.exact && a.stopped && a.requested_depth == 30);
        assert_eq!(a.pv, vec![a.best]);
        check_shape(&a, &board);
    }
}

#[test]
fn a_time_limit_stops_a_deep_search() {
    let board = random_board(&mut Rng::new(2), 9, 99, 0.0);
    let position = Position::new(board.clone(), Player::X).unwrap();
    let limits = Limits {
        time: Some(Duration::from_millis(150)),
        threads: 2,
        ..Limits::default()
    };
    let start = Instant::now();
    let a = analyse(&position, &limits).unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(
        a.requested_depth, 81,
        "only a time limit: search to the end of the game"
    );
    assert!(a.depth >= 1 && a.depth < 81 && !a.exact && a.stopped);
    check_shape(&a, &board);
    // A stop from another thread, mid-search.
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(stop.clone()),
        ..Limits::to_depth(SearchMode::AlphaBeta, 81)
    };
    let a = std::thread::scope(|s| {
        let search = s.spawn(|| analyse(&position, &limits).unwrap());
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        search.join().unwrap()
    });
    assert!(!a.exact && a.stopped && a.depth < 81);
    check_shape(&a, &board);
}

#[test]
fn errors_are_typed() {
    let board = random_board(&mut Rng::new(3), 3, 9, 0.0);
    let position = Position::new(board.clone(), Player::X).unwrap();
    let limits = |depth, time| Limits {
        depth,
        time,
        ..Limits::default()
    };
    assert_eq!(
        analyse(&position, &limits(Some(0), None)),
        Err(ApiError::ZeroDepth)
    );
    assert_eq!(
        analyse(&position, &limits(None, None)),
        Err(ApiError::NoLimit)
    );
    // A budget beyond the clock's range is no trouble; an absurd thread
    // count is refused, as the command line refuses it.
    let huge = Limits {
        threads: 1 << 40,
        ..limits(Some(2), Some(Duration::MAX))
    };
    assert_eq!(
        analyse(&position, &huge),
        Err(ApiError::TooManyThreads(1 << 40))
    );
    let huge = Limits { threads: 0, ..huge };
    assert!(analyse(&position, &huge).unwrap().exact);
    // Deeper than the game is long: the game's end is the depth.
    let a = analyse(&position, &limits(Some(50), None)).unwrap();
    assert_eq!((a.requested_depth, a.depth, a.pv.len()), (9, 9, 9));
    assert!(a.exact);
    assert_eq!(
        Limits::for_question(Question::Competition { seconds: 1.0 }).unwrap_err(),
        ApiError::NotExact("COMPETITION")
    );
    let mut full = board;
    for i in 0..9 {
        full.set(i / 3, i % 3, stakeraid::Square::Piece(Player::O));
    }
    assert_eq!(Position::new(full, Player::X), Err(PositionError::Full));
    let err = ApiError::from(parse_problem(b"3\nMINIMAX\nX\n0\n").unwrap_err());
    assert_eq!(
        err.to_string(),
        "line 4: depth must be an integer from 1 to 4294967295, got \"0\""
    );
}

/// `solve --json` through the binary: one JSON object on standard output
/// that reads back and matches the text answer; the output file is still
/// written, except with `-o -`.
#[test]
fn solve_json_matches_the_text_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs: Vec<(String, String)> = SPEC_EXAMPLES
        .iter()
        .map(|(i, o)| (i.to_string(), o.to_string()))
        .collect();
    for case in case_folders().iter().step_by(40) {
        let input = std::fs::read_to_string(case.join("input.txt")).unwrap();
        if parse_problem(input.as_bytes()).is_ok() {
            inputs.push((
                input,
                normalized(&std::fs::read_to_string(case.join("output.txt")).unwrap()),
            ));
        }
    }
    for (input, expected) in &inputs {
        std::fs::write(dir.path().join("input.txt"), input).unwrap();
        let text = run(dir.path(), &["solve", "-o", "-"], b"");
        assert_eq!(String::from_utf8(text.stdout).unwrap(), *expected);
        let out = run(dir.path(), &["solve", "--json", "-o", "-"], b"");
        assert_ok(&out);
        let json = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            json.lines().count(),
            1,
            "one JSON object, nothing else: {json}"
        );
        let a: Analysis = serde_json::from_str(&json).unwrap();
        assert_eq!(a.output_text(), *expected);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            json.trim_end(),
            "stable round trip"
        );
        assert!(!dir.path().join("output.txt").exists());
    }
    let out = run(dir.path(), &["solve", "input.txt", "--json"], b"");
    assert!(out.status.success());
    let a: Analysis = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("output.txt")).unwrap(),
        a.output_text()
    );
    // The documented field names.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for key in [
        "player",
        "mode",
        "best",
        "value",
        "board",
        "moves",
        "pv",
        "depth",
        "requested_depth",
        "exact",
        "stopped",
        "nodes",
        "time_us",
    ] {
        assert!(keys.contains(&key), "{key} in {keys:?}");
    }
    assert_eq!(v["moves"][0].as_object().unwrap().len(), 3);
    assert!(v["moves"][0]["move"].is_string() && v["moves"][0]["bound"].is_string());
    let out = run(
        dir.path(),
        &["solve", "--json", "--engine", "reference"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "--json uses the fast engine");
}

/// A watched solve shows, as its progress, about the nodes it reports at
/// the end: the solvers of the last plies count theirs too.
#[test]
fn a_watched_solve_shows_the_nodes_it_reports() {
    let mut rng = Rng::new(4711);
    for threads in [1, 2] {
        let board = loop {
            let board = random_board(&mut rng, 5, 99, 0.36);
            if board.empty_count() == 16 {
                break board;
            }
        };
        let problem = stakeraid::Problem {
            board,
            player: Player::X,
            question: Question::Exact {
                mode: SearchMode::AlphaBeta,
                depth: 16,
            },
        };
        let watch = std::sync::Mutex::new(None);
        let answer = stakeraid::api::solve_watched(
            &problem,
            &Limits {
                threads,
                ..Default::default()
            },
            |w| *watch.lock().unwrap() = Some(w),
        )
        .unwrap();
        let watch = watch.into_inner().unwrap().unwrap();
        // Each thread flushes its count every 64 nodes it ticks.
        let (seen, nodes) = (watch.nodes() as f64, answer.nodes as f64);
        assert!(
            (seen - nodes).abs() <= 0.02 * nodes,
            "{threads} threads: {seen} seen, {nodes} reported"
        );
    }
}

/// The textbook engine answers through the same front door: the same
/// move, value, PV and (in MINIMAX mode) root values as the fast engine,
/// and in ALPHABETA mode bounds that hold.
#[test]
fn the_reference_engine_gives_the_same_analysis() {
    let mut rng = Rng::new(2024);
    for round in 0..60 {
        let n = 2 + round % 3;
        let board = random_board(&mut rng, n, [3, 99][round % 2], 0.3);
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let depth = 1 + (round % 3) as u32;
        let position = Position::new(board.clone(), player).unwrap();
        for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
            let fast = analyse(&position, &Limits::to_depth(mode, depth)).unwrap();
            let textbook = analyse(
                &position,
                &Limits {
                    engine: stakeraid::Engine::Reference,
                    ..Limits::to_depth(mode, depth)
                },
            )
            .unwrap();
            assert_eq!(
                (textbook.best, textbook.value, &textbook.pv, textbook.exact),
                (fast.best, fast.value, &fast.pv, true),
                "{mode:?} {board:?}"
            );
            check_shape(&textbook, &board);
            if mode == SearchMode::Minimax {
                assert_eq!(textbook.moves, fast.moves, "{board:?}");
            }
            for m in &textbook.moves {
                let v = reference_child_value(&board, player, m.mv, depth);
                match m.bound {
                    Bound::Exact => assert_eq!(m.value, v, "{mode:?} {}", m.mv),
                    Bound::Upper => assert!(v <= m.value, "{}", m.mv),
                    Bound::Lower => panic!("{}: a root value is never a lower bound", m.mv),
                }
            }
        }
    }
}

/// While a solve runs, its watch tells where the root stands: the depth
/// running, its root moves and how many are settled, the best so far and
/// bounds on its value that hold (what the final analysis shows).
#[test]
fn a_watched_solve_shows_its_root() {
    let mut rng = Rng::new(99);
    let board = loop {
        let board = random_board(&mut rng, 5, 99, 0.28);
        if board.empty_count() == 18 {
            break board;
        }
    };
    let position = Position::new(board, Player::O).unwrap();
    let limits = Limits {
        threads: 1,
        ..Limits::to_depth(SearchMode::AlphaBeta, 18)
    };
    let watch = std::sync::Mutex::new(None);
    let seen = std::sync::Mutex::new(Vec::new());
    let done = AtomicBool::new(false);
    let analysis = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(w) = watch.lock().unwrap().as_ref() {
                    seen.lock().unwrap().push(stakeraid::api::Watch::root(w));
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        let a = stakeraid::api::analyse_watched(
            &position,
            &limits,
            |w| *watch.lock().unwrap() = Some(w),
            |_| {},
        );
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        a.unwrap()
    });
    let seen = seen.into_inner().unwrap();
    let last: Vec<_> = seen.iter().filter(|r| r.depth == 18).collect();
    assert!(last.len() > 5, "{} looks at the last depth", last.len());
    let moves = analysis
        .moves
        .iter()
        .map(|m| m.mv)
        .collect::<std::collections::HashSet<_>>();
    let value_of = |mv| analysis.moves.iter().find(|m| m.mv == mv).unwrap();
    let mut done_before = 0;
    for r in last {
        assert!(
            r.lo <= r.hi && r.done <= r.moves && r.done >= done_before,
            "{r:?}"
        );
        done_before = r.done;
        let best = r.best.expect("a best move while the root is searched");
        assert!(moves.contains(&best));
        if r.done == 0 {
            // The first move being proved: its value lies in the bounds.
            let first = value_of(best);
            assert_eq!(first.bound, Bound::Exact);
            assert!(
                r.lo <= first.value && first.value <= r.hi,
                "{r:?} {first:?}"
            );
        } else {
            // The best so far: no better than the answer.
            assert_eq!(r.lo, r.hi);
            assert!(r.lo <= analysis.value, "{r:?}");
        }
    }
    assert!(
        seen.iter().any(|r| r.depth == 18 && r.done > 0),
        "no look after the first move was settled"
    );
}

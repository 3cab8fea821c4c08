//! `stakeraid serve` answering many requests at once: every answer of a
//! batch as the same position answered alone, bad requests among good
//! ones, a stop in the middle, answers out of order.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{json, Value};
use stakeraid::api::{Analysis, Bound, SearchMode};
use stakeraid::rng::{random_board, Rng};
use stakeraid::{input_text, Player, Problem, Question};

use crate::serve::Server;
use crate::util::{fast, textbook};

/// Random positions of every size from 1 to 26, `per_size` of each, at
/// depths whose textbook search takes milliseconds.
fn positions(per_size: usize, seed: u64) -> Vec<Problem> {
    let mut rng = Rng::new(seed);
    let mut problems = Vec::new();
    for n in 1..=26 {
        for k in 0..per_size {
            let fill = [0.0, 0.3, 0.6, 0.9][k % 4];
            let board = random_board(&mut rng, n, 99, fill);
            if board.empty_count() == 0 {
                continue;
            }
            let deepest = match n {
                1..=4 => 5,
                5..=6 => 4,
                7..=10 => 3,
                11..=18 => 2,
                _ => 1,
            };
            let depth = 1 + (k as u32 + n as u32) % deepest;
            let mode = if k % 2 == 0 {
                SearchMode::AlphaBeta
            } else {
                SearchMode::Minimax
            };
            let player = if k % 3 == 0 { Player::O } else { Player::X };
            problems.push(Problem {
                board,
                player,
                question: Question::Exact { mode, depth },
            });
        }
    }
    problems
}

/// The server's responses to `lines` piped in at once, with `args`.
fn serve(args: &[&str], lines: &[String]) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let script = lines.join("\n") + "\n";
    let mut all = vec!["serve"];
    all.extend(args);
    let out = crate::util::run(dir.path(), &all, script.as_bytes());
    crate::util::assert_ok(&out);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn analysis(response: &Value) -> Analysis {
    assert_eq!(response["ok"], true, "{response}");
    serde_json::from_value(response["analysis"].clone()).unwrap()
}

/// An analysis without what depends on the run (nodes, time).
fn answer_of(a: &Analysis) -> Analysis {
    Analysis {
        nodes: 0,
        time_us: 0,
        ..a.clone()
    }
}

/// `served` (searched on several threads) against `alone` (one thread):
/// in ALPHABETA the root moves other than the chosen one are bounds, and
/// a search split over threads may prove more or fewer of them exact; so
/// all else is equal, and each root value is consistent: equal where
/// both are exact, and an exact value within the other's bound.
fn same_but_bounds(served: &Analysis, alone: &Analysis, context: &str) {
    assert_eq!(
        Analysis {
            moves: Vec::new(),
            ..served.clone()
        },
        Analysis {
            moves: Vec::new(),
            ..alone.clone()
        },
        "{context}"
    );
    assert_eq!(served.moves.len(), alone.moves.len(), "{context}");
    for (s, a) in served.moves.iter().zip(&alone.moves) {
        assert_eq!(s.mv, a.mv, "{context}");
        let within = |exact: i64, bounded: &stakeraid::api::RootMove| match bounded.bound {
            Bound::Exact => exact == bounded.value,
            Bound::Upper => exact <= bounded.value,
            Bound::Lower => exact >= bounded.value,
        };
        match (s.bound, a.bound) {
            (Bound::Exact, _) => assert!(within(s.value, a), "{}: {s:?} {a:?}\n{context}", s.mv),
            (_, Bound::Exact) => assert!(within(a.value, s), "{}: {s:?} {a:?}\n{context}", s.mv),
            _ => {}
        }
    }
}

/// Every answer of a batch served side by side, at budgets of 1, 2 and 8
/// threads and requests asking for the default, 1 or 2 threads, is the
/// textbook search's move and value (and exact root values), and the
/// whole analysis of the same position searched alone on one thread (at a
/// budget of one thread; on more, its root bounds consistent with it).
#[test]
fn a_batch_answers_each_position_as_it_is_answered_alone() {
    let problems = positions(4, 0xba7c);
    assert!(problems.len() > 90);
    let alone: Vec<Analysis> = problems
        .iter()
        .map(|p| {
            let (mode, depth) = match p.question {
                Question::Exact { mode, depth } => (mode, depth),
                Question::Competition { .. } => unreachable!(),
            };
            let lone = fast(&p.board, p.player, mode, depth, 1);
            let book = textbook(&p.board, p.player, mode, depth);
            assert_eq!((lone.best, lone.value), (book.best, book.value));
            answer_of(&lone)
        })
        .collect();
    let requests: Vec<String> = problems
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut request = json!({"id": i, "input": input_text(p)});
            if i % 3 > 0 {
                request["threads"] = json!(i % 3);
            }
            request.to_string()
        })
        .collect();
    for budget in ["1", "2", "8"] {
        for order in [&[][..], &["--unordered"][..]] {
            let mut args = vec!["--threads", budget];
            args.extend(order);
            let responses = serve(&args, &requests);
            assert_eq!(responses.len(), requests.len());
            for (k, response) in responses.iter().enumerate() {
                let i = response["id"].as_u64().unwrap() as usize;
                if order.is_empty() {
                    assert_eq!(i, k, "in request order");
                }
                let served = answer_of(&analysis(response));
                let context = format!(
                    "position {i} at a budget of {budget} threads {order:?}:\n{}",
                    input_text(&problems[i])
                );
                if budget == "1" {
                    assert_eq!(served, alone[i], "{context}");
                } else {
                    same_but_bounds(&served, &alone[i], &context);
                }
                assert!(served.moves.iter().any(|m| m.bound == Bound::Exact));
            }
        }
    }
}

/// A bad request among good ones gets its own one-line error, by id where
/// it has one, and every good one is answered, in either order.
#[test]
fn bad_requests_among_good_ones_each_get_an_error() {
    let good = |i: usize| {
        let p = &positions(1, i as u64)[4 + i % 4];
        json!({"id": i, "input": input_text(p)}).to_string()
    };
    let lines = vec![
        good(0),
        "not json".to_string(),
        good(1),
        json!({"id": "no-position", "depth": 3}).to_string(),
        good(2),
        json!({"id": "zero", "input": input_text(&positions(1, 9)[3]), "depth": 0}).to_string(),
        String::new(),
        json!({"id": "threads", "input": input_text(&positions(1, 9)[3]), "threads": 100000})
            .to_string(),
        good(3),
        json!({"id": "board", "position": {"values": [[1, 2], [3, 4]], "cells": ["X.", ".?"], "player": "O"}, "depth": 2}).to_string(),
        good(4),
    ];
    for order in [&[][..], &["--unordered"][..]] {
        let responses = serve(order, &lines);
        assert_eq!(responses.len(), lines.len(), "one line each");
        let mut errors = Vec::new();
        let mut answered = Vec::new();
        for r in &responses {
            if r["ok"] == true {
                answered.push(r["id"].as_u64().unwrap());
                analysis(r);
            } else {
                let error = r["error"].as_str().unwrap();
                assert!(error.starts_with("bad request: ") && !error.contains('\n'));
                errors.push(r["id"].clone());
            }
        }
        answered.sort();
        assert_eq!(answered, [0, 1, 2, 3, 4]);
        let named: Vec<&Value> = errors.iter().filter(|id| !id.is_null()).collect();
        assert_eq!(named.len(), 4, "{errors:?}");
        assert_eq!(errors.len(), 6, "{errors:?}");
        if order.is_empty() {
            let ids: Vec<Value> = responses.iter().map(|r| r["id"].clone()).collect();
            assert_eq!(ids[3], "no-position");
            assert_eq!(ids[9], "board");
        }
    }
}

/// A position no test waits for: an empty 8x8 board to the end of the game.
fn deep(id: &str) -> String {
    let values: Vec<Vec<u32>> = (0..8)
        .map(|r| (0..8).map(|c| 1 + (r * 8 + c) * 37 % 97).collect())
        .collect();
    json!({"id": id, "position": {"values": values, "cells": vec!["........"; 8], "player": "X"}, "depth": 64, "threads": 1})
        .to_string()
}

/// A stop in the middle of a batch stops every search read before it,
/// queued or running, each answering with what it completed; the requests
/// after it are answered in full.
#[test]
fn a_stop_in_the_middle_of_a_batch_stops_what_was_read_before_it() {
    let mut server = Server::start_with(&["--threads", "2"]);
    let quick = input_text(&positions(1, 3)[6]);
    // Two running (the budget), three queued behind them.
    for i in 0..5 {
        server.send(&deep(&format!("deep{i}")));
    }
    server.nothing_pending(Duration::from_millis(500));
    server.send(&json!({"id": "stop", "cmd": "stop"}).to_string());
    server.send(&json!({"id": "after", "input": quick}).to_string());
    let wait = Duration::from_secs(60);
    for i in 0..5 {
        let r = server.response_within(wait);
        assert_eq!(r["id"], format!("deep{i}"));
        let a = analysis(&r);
        assert!(a.stopped && !a.exact && a.depth >= 1, "{r}");
    }
    let r = server.response_within(wait);
    assert_eq!(r["id"], "stop");
    assert_eq!(r["interrupted"], 5);
    let r = server.response_within(wait);
    assert_eq!(r["id"], "after");
    let a = analysis(&r);
    assert!(a.exact && !a.stopped);
    assert!(server.close().success());
}

/// With `--unordered` each answer is written when it is ready: the quick
/// requests behind a long one come first, each id once.
#[test]
fn unordered_answers_come_as_ready_each_id_once() {
    let problems = positions(1, 11);
    let (values, cells) = (vec![vec![5; 8]; 8], vec!["........"; 8]);
    let slow = json!({"id": "slow", "position": {"values": values, "cells": cells, "player": "X"}, "depth": 64, "threads": 1, "time_ms": 1500});
    let mut lines = vec![slow.to_string()];
    lines.extend(
        problems
            .iter()
            .enumerate()
            .take(40)
            .map(|(i, p)| json!({"id": i, "input": input_text(p), "threads": 1}).to_string()),
    );
    let responses = serve(&["--unordered", "--threads", "2"], &lines);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for r in &responses {
        assert_eq!(r["ok"], true, "{r}");
        *seen.entry(r["id"].to_string()).or_default() += 1;
    }
    assert_eq!(seen.len(), lines.len());
    assert!(seen.values().all(|&n| n == 1), "{seen:?}");
    assert_eq!(
        responses.last().unwrap()["id"],
        "slow",
        "the long search answers last, the others as they end"
    );
}

//! The library's batch: every answer equals the same position answered
//! alone, whatever the batch's threads; errors stay with their position;
//! a stop answers every position; the textbook engine agrees.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use stakeraid::api::{
    analyse, analyse_each, analyse_each_interruptible, analyse_each_with, analyse_many, Analysis,
    ApiError, Engine, Limits, Position, SearchMode, Sharing, MAX_THREADS,
};
use stakeraid::rng::{random_board, Rng};
use stakeraid::Player;

/// An analysis with its wall time left out: all of the rest of a
/// one-thread search is the same from run to run.
fn timeless(a: &Analysis) -> Analysis {
    Analysis {
        time_us: 0,
        ..a.clone()
    }
}

/// `count` random positions of every size from 1 to 26 in turn, each with
/// one-thread limits of a small depth (smaller on bigger boards) and a mode.
fn random_batch(seed: u64, count: usize) -> Vec<(Position, Limits)> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| {
            let n = 1 + i % 26;
            let fill = [0.0, 0.3, 0.6, 0.9][i / 26 % 4];
            let board = random_board(&mut rng, n, [3, 99][i % 2], fill);
            let player = if rng.chance(0.5) {
                Player::X
            } else {
                Player::O
            };
            let deepest = match n {
                1..=4 => 5,
                5..=8 => 3,
                _ => 2,
            };
            let depth = 1 + rng.range(0, deepest - 1) as u32;
            let mode = if i % 3 == 0 {
                SearchMode::Minimax
            } else {
                SearchMode::AlphaBeta
            };
            let limits = Limits {
                threads: 1,
                ..Limits::to_depth(mode, depth)
            };
            (Position::new(board, player).unwrap(), limits)
        })
        .collect()
}

#[test]
fn every_answer_equals_the_position_answered_alone() {
    let batch = random_batch(75, 1000);
    let alone: Vec<Analysis> = batch
        .iter()
        .map(|(p, l)| timeless(&analyse(p, l).unwrap()))
        .collect();
    for threads in [1, 2, 8] {
        let answers = analyse_each(
            &batch,
            &Sharing {
                threads,
                ..Sharing::default()
            },
        );
        assert_eq!(answers.len(), batch.len());
        for (i, (answer, alone)) in answers.iter().zip(&alone).enumerate() {
            let answer = answer.as_ref().unwrap();
            assert_eq!(&timeless(answer), alone, "position {i}, {threads} threads");
        }
    }
}

/// Positions in a form of the caller's, each made only when its search is
/// queued, are answered as the same positions given whole, or boxed.
#[test]
fn positions_made_as_they_are_queued_are_answered_as_given_whole() {
    struct Made(stakeraid::Board, Player, AtomicUsize);
    impl stakeraid::api::BatchPosition for Made {
        fn position(&self) -> std::borrow::Cow<'_, Position> {
            self.2.fetch_add(1, Ordering::Relaxed);
            std::borrow::Cow::Owned(Position::new(self.0.clone(), self.1).unwrap())
        }
    }
    let batch = random_batch(31, 60);
    let made: Vec<(Made, Limits)> = batch
        .iter()
        .map(|(p, l)| {
            (
                Made(p.board().clone(), p.player(), AtomicUsize::new(0)),
                l.clone(),
            )
        })
        .collect();
    let boxed: Vec<(Box<Position>, Limits)> = batch
        .iter()
        .map(|(p, l)| (Box::new(p.clone()), l.clone()))
        .collect();
    let sharing = Sharing {
        threads: 2,
        ..Sharing::default()
    };
    let whole = analyse_each(&batch, &sharing);
    for answers in [
        analyse_each(&made, &sharing),
        analyse_each(&boxed, &sharing),
    ] {
        for (a, b) in answers.iter().zip(&whole) {
            assert_eq!(timeless(a.as_ref().unwrap()), timeless(b.as_ref().unwrap()));
        }
    }
    assert!(
        made.iter().all(|(m, _)| m.2.load(Ordering::Relaxed) == 1),
        "each made once"
    );
}

/// With the threads left to the batch, positions fewer than its threads
/// share them out (several threads a search): the move, the value, the
/// exact root values and the PV are still those of the search alone.
#[test]
fn a_few_positions_searched_on_several_threads_each_answer_as_alone() {
    let mut rng = Rng::new(7);
    let positions: Vec<Position> = (0..3)
        .map(|_| Position::new(random_board(&mut rng, 5, 99, 0.35), Player::X).unwrap())
        .collect();
    let limits = Limits::to_depth(SearchMode::Minimax, 7);
    let answers = analyse_many(
        &positions,
        &limits,
        &Sharing {
            threads: 8,
            ..Sharing::default()
        },
    );
    for (p, answer) in positions.iter().zip(answers) {
        let answer = answer.unwrap();
        let alone = analyse(
            p,
            &Limits {
                threads: 1,
                ..limits.clone()
            },
        )
        .unwrap();
        assert_eq!(
            (answer.best, answer.value, &answer.moves, &answer.pv),
            (alone.best, alone.value, &alone.moves, &alone.pv)
        );
        assert!(answer.exact && !answer.stopped);
    }
}

#[test]
fn a_bad_position_gets_its_own_error_and_the_others_their_answers() {
    let mut batch = random_batch(3, 40);
    batch[5].1.depth = Some(0);
    batch[17].1.depth = None;
    batch[30].1.threads = MAX_THREADS + 1;
    let answers = analyse_each(&batch, &Sharing::default());
    for (i, ((p, l), answer)) in batch.iter().zip(&answers).enumerate() {
        match i {
            5 => assert_eq!(answer, &Err(ApiError::ZeroDepth)),
            17 => assert_eq!(answer, &Err(ApiError::NoLimit)),
            30 => assert_eq!(answer, &Err(ApiError::TooManyThreads(MAX_THREADS + 1))),
            _ => assert_eq!(
                timeless(answer.as_ref().unwrap()),
                timeless(&analyse(p, l).unwrap()),
                "{i}"
            ),
        }
    }
    let too_many = Sharing {
        threads: MAX_THREADS + 1,
        ..Sharing::default()
    };
    let refused = analyse_each(&batch[..3], &too_many);
    assert_eq!(
        refused,
        vec![Err(ApiError::TooManyThreads(MAX_THREADS + 1)); 3]
    );
    assert!(analyse_each(&batch[..0], &Sharing::default()).is_empty());
}

/// A stop set mid-batch: the searches end promptly, and every position is
/// still answered once: the ones done before it exactly, the others with
/// their deepest completed depth (depth 1 for those not started).
#[test]
fn a_stop_mid_batch_answers_every_position() {
    let mut rng = Rng::new(11);
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(stop.clone()),
        threads: 1,
        ..Limits::to_depth(SearchMode::AlphaBeta, 40)
    };
    // Full solves of 5x5 boards with about 20 empty cells: seconds each,
    // far longer than the test waits.
    let batch: Vec<(Position, Limits)> = (0..24)
        .map(|i| {
            let fill = if i < 4 { 0.9 } else { 0.2 };
            let board = random_board(&mut rng, 5, 99, fill);
            (Position::new(board, Player::O).unwrap(), limits.clone())
        })
        .collect();
    let done = AtomicUsize::new(0);
    let answers = analyse_each_with(
        &batch,
        &Sharing {
            threads: 2,
            ..Sharing::default()
        },
        |_, answer| {
            assert!(answer.is_ok());
            if done.fetch_add(1, Ordering::Relaxed) + 1 == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        },
    );
    assert_eq!(
        done.load(Ordering::Relaxed),
        batch.len(),
        "each answered once"
    );
    let mut stopped = 0;
    for ((p, _), answer) in batch.iter().zip(&answers) {
        let answer = answer.as_ref().unwrap();
        if answer.stopped {
            stopped += 1;
            assert!(answer.depth >= 1 && !answer.exact);
        } else {
            let alone = analyse(p, &Limits::to_depth(SearchMode::AlphaBeta, 40)).unwrap();
            assert_eq!((answer.best, answer.value), (alone.best, alone.value));
        }
    }
    assert!(stopped >= 20, "only {stopped} stopped");
}

/// An interrupt gives the batch up: the searches running stop and answer
/// as stopped, and the positions not started are not searched at all.
#[test]
fn an_interrupt_leaves_the_positions_not_started_unanswered() {
    let mut rng = Rng::new(13);
    let limits = Limits {
        threads: 1,
        ..Limits::to_depth(SearchMode::AlphaBeta, 40)
    };
    // Full solves of 5x5 boards with about 20 empty cells: seconds each.
    let batch: Vec<(Position, Limits)> = (0..40)
        .map(|_| {
            let board = random_board(&mut rng, 5, 99, 0.2);
            (Position::new(board, Player::X).unwrap(), limits.clone())
        })
        .collect();
    let sharing = Sharing {
        threads: 2,
        ..Sharing::default()
    };
    let interrupt = AtomicBool::new(true);
    let answers = analyse_each_interruptible(&batch, &sharing, &interrupt);
    assert!(
        answers.iter().all(Option::is_none),
        "interrupted before any start"
    );

    let interrupt = Arc::new(AtomicBool::new(false));
    let setter = interrupt.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        setter.store(true, Ordering::Relaxed);
    });
    let started = std::time::Instant::now();
    let answers = analyse_each_interruptible(&batch, &sharing, &interrupt);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    assert_eq!(answers.len(), batch.len());
    let answered: Vec<&Analysis> = answers
        .iter()
        .flatten()
        .map(|a| a.as_ref().unwrap())
        .collect();
    // The two running when it came, and any that ended before.
    assert!(
        (2..=6).contains(&answered.len()),
        "{} answered",
        answered.len()
    );
    assert!(answered.iter().any(|a| a.stopped));
    assert!(answered.iter().all(|a| a.stopped != a.exact));
}

/// The table budget held to a sliver: each search's table is cut to its
/// share, and the answers are still exact.
#[test]
fn a_small_table_budget_changes_no_answer() {
    let batch: Vec<(Position, Limits)> = random_batch(21, 120)
        .into_iter()
        .map(|(p, l)| {
            let full = Limits {
                depth: Some(p.board().empty_count().min(7)),
                ..l
            };
            (p, full)
        })
        .filter(|(p, _)| p.board().n() <= 5)
        .collect();
    let answers = analyse_each(
        &batch,
        &Sharing {
            threads: 2,
            table_bytes: 64 << 10,
            ..Sharing::default()
        },
    );
    for ((p, l), answer) in batch.iter().zip(answers) {
        let (answer, alone) = (answer.unwrap(), analyse(p, l).unwrap());
        assert_eq!(
            (answer.best, answer.value, &answer.moves, &answer.pv),
            (alone.best, alone.value, &alone.moves, &alone.pv)
        );
    }
}

/// The textbook engine through the batch gives the fast engine's answers.
#[test]
fn the_reference_engine_agrees_through_the_batch() {
    let batch: Vec<(Position, Limits)> = random_batch(5, 26 * 8)
        .into_iter()
        .filter(|(p, _)| p.board().n() <= 4)
        .collect();
    let textbook: Vec<(Position, Limits)> = batch
        .iter()
        .map(|(p, l)| {
            let l = Limits {
                engine: Engine::Reference,
                ..l.clone()
            };
            (p.clone(), l)
        })
        .collect();
    let answers = analyse_each(
        &textbook,
        &Sharing {
            threads: 2,
            ..Sharing::default()
        },
    );
    assert!(answers.len() >= 30);
    for ((p, l), answer) in batch.iter().zip(answers) {
        let (textbook, fast) = (answer.unwrap(), analyse(p, l).unwrap());
        assert_eq!(
            (textbook.best, textbook.value, &textbook.pv, textbook.exact),
            (fast.best, fast.value, &fast.pv, true)
        );
        if l.mode == SearchMode::Minimax {
            assert_eq!(textbook.moves, fast.moves);
        }
    }
}

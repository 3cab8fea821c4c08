use std::sync::Arc;

use super::{solve_local, Driver, Hint, Settings, SplitAnswer};
use crate::game::random::{random_board, Rng};
use crate::game::Player;
use crate::search::root::RootValue;
use crate::search::{reference, Deadline};
use crate::store::Store;

/// Jobs share the process's kept table (`job::test`), which a job of
/// another board replaces: tests of this module that count jobs would see
/// each other's tables, so they run one at a time.
static KEPT_TABLE: parking_lot::Mutex<()> = parking_lot::Mutex::new(());

/// A random position of side `n` with `empties` empty cells and `p` to move.
fn position(seed: u64, n: usize, empties: u32) -> (crate::game::Board, Player) {
    let mut rng = Rng::new(seed);
    let cells = (n * n) as f64;
    let fill = 1.0 - f64::from(empties) / cells;
    loop {
        let board = random_board(&mut rng, n, 99, fill);
        if board.empty_count() == empties {
            let p = if rng.range(0, 1) == 0 {
                Player::X
            } else {
                Player::O
            };
            return (board, p);
        }
    }
}

/// `driver`'s answer, every job handed out as soon as it is ready and
/// each result given back in a random order, as a cluster returns them;
/// `twice`, each given back twice, as a runner that retries may.
fn in_random_order(mut driver: Driver, rng: &mut Rng, seed: u64, twice: bool) -> SplitAnswer {
    let mut pending = Vec::new();
    while driver.answer().is_none() {
        pending.extend(driver.take_jobs(usize::MAX));
        if driver.answer().is_some() {
            break;
        }
        assert!(!pending.is_empty(), "seed {seed}: no job and no answer");
        let at = rng.range(0, pending.len() as u64 - 1) as usize;
        let job = pending.swap_remove(at);
        let result = super::run_job(&job, 1).unwrap();
        driver.finish(&result);
        if twice {
            driver.finish(&result);
        }
    }
    driver.answer().cloned().expect("answered")
}

/// Every split and thread count answers what the textbook alpha-beta
/// answers, with the same value, on random small positions.
#[test]
fn split_solves_equal_the_reference() {
    let _serial = KEPT_TABLE.lock();
    for seed in 0..40u64 {
        let n = 3 + (seed % 2) as usize;
        let empties = 5 + (seed % 5) as u32;
        let (board, p) = position(seed, n, empties.min((n * n) as u32));
        let depth = board.empty_count() - (seed % 3) as u32;
        let expected = reference::alphabeta(&board, p, depth);
        for split in 1..=3 {
            let settings = Settings {
                split,
                inline_plies: (seed % 3) as u32,
                order_plies: (seed % 4) as u32,
                store: None,
                speculate: seed.is_multiple_of(2),
                hint: None,
                // Small caps cut the tree higher wherever they bind.
                max_splits: [1, 2, 5, 4096][(seed % 4) as usize],
                eager: (seed / 2).is_multiple_of(2),
                // Where eager is off: it starts every brother anyway.
                spare: seed % 4 == 2,
                job_nodes: [None, Some(1), Some(300)][(seed / 4 % 3) as usize],
                ahead: seed % 3 != 1,
                home_plies: (seed % 4) as u32,
                share: (seed % 4 == 3).then_some(super::Share { nodes: 0, plies: 2 }),
            };
            let got =
                solve_local(&board, p, depth, settings, 1 + (seed % 3) as usize, |_| {}).unwrap();
            assert_eq!(
                (got.best, got.value),
                (expected.best, expected.value),
                "seed {seed} split {split}\n{board:?}"
            );
        }
    }
}

/// A hint changes no answer, whatever move and value it names; a right
/// one leaves only the least to prove: at the root cut, two tests of the
/// hinted move's value (one where it is the edge of the range) and one
/// test of every other candidate.
#[test]
fn a_hint_changes_no_answer_and_a_right_one_leaves_the_least() {
    let _serial = KEPT_TABLE.lock();
    let mut rng = Rng::new(11);
    for seed in 0..40u64 {
        let n = 3 + (seed % 2) as usize;
        let empties = 5 + (seed % 5) as u32;
        let (board, p) = position(300 + seed, n, empties.min((n * n) as u32));
        let depth = board.empty_count() - (seed % 2) as u32;
        let expected = reference::alphabeta(&board, p, depth);
        let moves = crate::game::legal_moves(&board, p);
        let edge = board.total();
        let other = moves[rng.range(0, moves.len() as u64 - 1) as usize];
        let anything = rng.range(0, 2 * edge as u64) as i64 - edge;
        let right = Hint {
            best: expected.best,
            value: expected.value,
        };
        let hints = [
            right,
            Hint {
                best: other,
                value: anything,
            },
            Hint {
                value: anything,
                ..right
            },
        ];
        for (k, hint) in hints.into_iter().enumerate() {
            let settings = Settings {
                split: 1 + (k as u32 + seed as u32) % 3,
                inline_plies: 0,
                order_plies: (seed % 3) as u32,
                store: None,
                speculate: false,
                hint: Some(hint),
                eager: seed % 2 == 1,
                ..Settings::default()
            };
            let split = settings.split;
            let mut last = super::DriverStats::default();
            let got = solve_local(&board, p, depth, settings, 1, |s| last = *s).unwrap();
            assert_eq!(
                (got.best, got.value),
                (expected.best, expected.value),
                "seed {seed} hint {hint:?} split {split}\n{board:?}"
            );
            if k == 0 && split == 1 {
                let first = if expected.value.abs() == edge { 1 } else { 2 };
                assert_eq!(
                    last.done,
                    last.root_moves - 1 + first,
                    "seed {seed}: a right hint left more to prove"
                );
            }
        }
    }
}

/// Jobs handed back in any order (as a cluster returns them) give the same
/// answer.
#[test]
fn results_in_any_order_give_the_same_answer() {
    let _serial = KEPT_TABLE.lock();
    let mut rng = Rng::new(5);
    for seed in 0..30u64 {
        let (board, p) = position(100 + seed, 4, 9);
        let expected = reference::alphabeta(&board, p, 9);
        let settings = Settings {
            split: 2,
            inline_plies: 2,
            order_plies: 2,
            store: None,
            speculate: !seed.is_multiple_of(2),
            hint: None,
            max_splits: 1 + (seed % 5) as usize,
            eager: seed % 3 == 1,
            spare: seed % 3 == 2,
            job_nodes: [None, Some(100)][(seed % 2) as usize],
            ahead: seed % 4 < 2,
            home_plies: (seed % 3) as u32,
            // Proofs come back with the results and go into the driver's store.
            share: (seed % 3 == 1).then_some(super::Share { nodes: 0, plies: 3 }),
        };
        let driver = Driver::new(&board, p, 9, settings);
        // A retried job delivers twice: the second is ignored.
        let got = in_random_order(driver, &mut rng, seed, true);
        assert_eq!(
            (got.best, got.value),
            (expected.best, expected.value),
            "seed {seed}"
        );
    }
}

/// The root's candidates tested side by side, against bars that rise as
/// the others' tests come back in any order, from a first move that is
/// not the best (a hint names another): the answer is the reference's,
/// each value found is the move's textbook value, and each move set aside
/// is worth at most what it is said to be.
#[test]
fn root_moves_set_aside_in_any_order_are_not_the_best() {
    let _serial = KEPT_TABLE.lock();
    let mut rng = Rng::new(47);
    let mut aside = 0;
    for seed in 0..40u64 {
        let n = 3 + (seed % 2) as usize;
        let (board, p) = position(1300 + seed, n, (6 + seed % 4) as u32);
        let depth = board.empty_count() - (seed % 3 == 2) as u32;
        let expected = reference::alphabeta(&board, p, depth);
        let value_of = |mv| {
            let mut child = board.clone();
            child.make(mv, p);
            if depth == 1 || child.is_full() {
                -child.score(p.other())
            } else {
                -reference::alphabeta(&child, p.other(), depth - 1).value
            }
        };
        let moves = crate::game::legal_moves(&board, p);
        let worst = *moves.iter().min_by_key(|&&mv| value_of(mv)).unwrap();
        let settings = Settings {
            split: 1 + (seed % 3) as u32,
            inline_plies: 0,
            order_plies: (seed % 3) as u32,
            store: None,
            hint: Some(Hint {
                best: worst,
                value: value_of(worst),
            }),
            spare: seed % 2 == 0,
            ahead: seed % 4 < 2,
            speculate: seed % 5 == 0,
            ..Settings::default()
        };
        let driver = Driver::new(&board, p, depth, settings);
        let got = in_random_order(driver, &mut rng, seed, false);
        assert_eq!(
            (got.best, got.value),
            (expected.best, expected.value),
            "seed {seed}\n{board:?}"
        );
        for &(mv, known) in &got.moves {
            let v = value_of(mv);
            match known {
                RootValue::Exact(e) => assert_eq!(e, v, "seed {seed}: {mv}"),
                RootValue::AtMost(h) => {
                    assert!(v <= h, "seed {seed}: {mv} is worth {v}, said at most {h}");
                    aside += 1;
                }
            }
        }
    }
    assert!(aside > 100, "only {aside} moves were set aside");
}

/// Workers that would idle get the first root move's tests many results
/// ahead, each threshold asked once; without `spare` only the two after
/// the next, and the answer is the reference's either way.
#[test]
fn idle_workers_test_root_values_ahead() {
    let _serial = KEPT_TABLE.lock();
    let mut rng = Rng::new(53);
    for seed in 0..6u64 {
        let (board, p) = position(1400 + seed, 4, 9);
        let depth = board.empty_count();
        let expected = reference::alphabeta(&board, p, depth);
        for spare in [false, true] {
            let settings = Settings {
                split: 1,
                inline_plies: 0,
                ahead: true,
                spare,
                ..Settings::default()
            };
            let mut driver = Driver::new(&board, p, depth, settings);
            let jobs = driver.take_jobs(usize::MAX);
            let mut betas: Vec<i64> = jobs.iter().map(|j| j.beta).collect();
            betas.sort_unstable();
            betas.dedup();
            assert_eq!(
                betas.len(),
                jobs.len(),
                "seed {seed}: a threshold asked twice"
            );
            if spare {
                assert!(jobs.len() > 3, "seed {seed}: only {} tests", jobs.len());
            } else {
                assert!(jobs.len() <= 3, "seed {seed}: {} tests", jobs.len());
            }
            for job in jobs.iter().rev() {
                driver.finish(&super::run_job(job, 1).unwrap());
            }
            let got = in_random_order(driver, &mut rng, seed, false);
            assert_eq!(
                (got.best, got.value),
                (expected.best, expected.value),
                "seed {seed}"
            );
        }
    }
}

/// The bound on splits holds the tests split at once, not over the whole
/// solve: a split answered or no longer needed leaves room for the next,
/// so the root's later tests are split too, not handed out whole, and the
/// answer is the reference's.
#[test]
fn splits_closed_leave_room_for_new_ones() {
    let _serial = KEPT_TABLE.lock();
    let max_splits = 2;
    let mut split_more = 0;
    for seed in 0..8u64 {
        let (board, p) = position(1500 + seed, 4, 9);
        let depth = board.empty_count();
        let expected = reference::alphabeta(&board, p, depth);
        let settings = Settings {
            split: 2,
            inline_plies: 2,
            max_splits,
            ..Settings::default()
        };
        let mut driver = Driver::new(&board, p, depth, settings);
        while driver.answer().is_none() {
            let jobs = driver.take_jobs(1);
            let Some(job) = jobs.first() else {
                break;
            };
            driver.finish(&super::run_job(job, 1).unwrap());
        }
        split_more += u32::from(driver.stats().splits > max_splits as u64);
        let got = driver.answer().cloned().expect("answered");
        assert_eq!(
            (got.best, got.value),
            (expected.best, expected.value),
            "seed {seed}"
        );
    }
    assert!(
        split_more > 0,
        "no solve split more than {max_splits} tests in all"
    );
}

/// A solve resumed on the store of an earlier one needs no job that the
/// first already answered, and gives the same answer.
#[test]
fn a_store_answers_what_was_proved() {
    let _serial = KEPT_TABLE.lock();
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..8u64 {
        let (board, p) = position(200 + seed, 4, 11);
        let path = dir.path().join(format!("s{seed}.db"));
        let settings = |store: &Arc<Store>| Settings {
            split: 2,
            inline_plies: 4,
            order_plies: 2,
            store: Some(store.clone()),
            speculate: true,
            hint: None,
            ..Settings::default()
        };
        let store = Arc::new(Store::open(&path, &board).unwrap());
        let mut jobs = 0;
        let first = solve_local(&board, p, 11, settings(&store), 2, |s| jobs = s.done).unwrap();
        drop(store);
        let store = Arc::new(Store::open(&path, &board).unwrap());
        let mut again = 0;
        let second = solve_local(&board, p, 11, settings(&store), 2, |s| again = s.done).unwrap();
        assert_eq!((first.best, first.value), (second.best, second.value));
        // The direct solve, itself held to the reference elsewhere: the
        // reference would take minutes here.
        let expected = crate::search::root::alphabeta(&board, p, 11, false);
        assert_eq!((second.best, second.value), (expected.best, expected.value));
        assert!(jobs > 0, "seed {seed}: the first solve ran no job");
        assert_eq!(again, 0, "seed {seed}: the resumed solve ran {again} jobs");
    }
}

/// A job whose stop flag is set gives up within moments, answering nothing
/// and bringing back no children; one whose flag stays clear answers as
/// `run_job` does.
#[test]
fn a_job_given_up_stops_and_answers_nothing() {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    use std::time::{Duration, Instant};
    let _serial = KEPT_TABLE.lock();
    // Minutes of search on one thread: only the flag can end it in time.
    let (board, p) = position(11, 6, 30);
    let job = super::Job::new(1, &board, p, 30, 0);
    let stop = Arc::new(AtomicBool::new(false));
    let setter = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, Relaxed);
        })
    };
    let start = Instant::now();
    let given_up = super::run_job_until(&job, 1, Some(stop)).unwrap();
    setter.join().unwrap();
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(given_up.value, None);
    assert!(given_up.children.is_empty());
    assert!(given_up.nodes > 0);

    let (board, p) = position(12, 4, 10);
    let job = super::Job::new(2, &board, p, 10, 0);
    // Each on a fresh table, so that the second does not find the first's.
    super::job::release_kept();
    let clear = super::run_job_until(&job, 1, Some(Arc::new(AtomicBool::new(false)))).unwrap();
    super::job::release_kept();
    let plain = super::run_job(&job, 1).unwrap();
    assert!(clear.value.is_some());
    assert_eq!((clear.value, clear.nodes), (plain.value, plain.nodes));
}

/// A job that is not a position of its board, or asks for no plies or more
/// than its empty cells, is refused with a reason.
#[test]
fn bad_jobs_are_refused() {
    let _serial = KEPT_TABLE.lock();
    let (board, p) = position(7, 3, 5);
    let good = super::Job::new(1, &board, p, 5, 0);
    assert!(good.position().is_ok());
    let mut cell = good.clone();
    cell.grid.cells[0] = "X?.".into();
    let mut plies = good.clone();
    plies.plies = 6;
    let mut player = good.clone();
    player.grid.player = "Z".into();
    for job in [cell, plies, player] {
        let e = super::run_job(&job, 1).unwrap_err();
        assert!(e.to_string().starts_with("job 1: "), "{e}");
    }
}

/// A split solve stopped at any moment, its first root move's tests
/// included, and started again on its store loses only the job in flight:
/// the tests the first run finished are answered by the store, the
/// speculative ones too (they are asked again at the same thresholds), so
/// both runs together hand out at most one job more than an uninterrupted
/// one, and the answer is the same.
#[test]
fn a_stopped_split_solve_resumes_losing_only_the_job_in_flight() {
    let _serial = KEPT_TABLE.lock();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(23);
    let mut tried = 0;
    for seed in 0..16u64 {
        let (board, p) = position(500 + seed, 4, 9);
        let expected = reference::alphabeta(&board, p, 9);
        let settings = |store: Option<Arc<Store>>| Settings {
            split: 1 + (seed % 3) as u32,
            inline_plies: 3,
            order_plies: (seed % 3) as u32,
            store,
            speculate: seed % 2 == 1,
            hint: None,
            ..Settings::default()
        };
        // One job at a time, so that the order of the jobs is the driver's.
        let run = |driver: &mut Driver, stop_after: u64| {
            let mut jobs = 0;
            while driver.answer().is_none() && jobs < stop_after {
                let job = driver.take_jobs(1);
                if driver.answer().is_some() {
                    break;
                }
                driver.finish(&super::run_job(&job[0], 1).unwrap());
                jobs += 1;
            }
            jobs
        };
        let mut whole = Driver::new(&board, p, 9, settings(None));
        let all = run(&mut whole, u64::MAX);
        if all < 2 {
            continue;
        }
        tried += 1;
        let stop = rng.range(1, all - 1);
        let path = dir.path().join(format!("s{seed}.db"));
        let store = Arc::new(Store::open(&path, &board).unwrap());
        let mut first = Driver::new(&board, p, 9, settings(Some(store)));
        let before = run(&mut first, stop);
        // The job handed out when the run stops is the work in flight.
        let in_flight = first.take_jobs(1).len() as u64;
        drop(first);
        let store = Arc::new(Store::open(&path, &board).unwrap());
        let mut second = Driver::new(&board, p, 9, settings(Some(store)));
        let after = run(&mut second, u64::MAX);
        let answer = second.answer().expect("the resumed solve finishes");
        assert_eq!(
            (answer.best, answer.value),
            (expected.best, expected.value),
            "seed {seed}"
        );
        assert!(
            before + after <= all + in_flight,
            "seed {seed}: stopped after {before} of {all} jobs, {after} more to finish"
        );
    }
    assert!(tried >= 8, "only {tried} positions needed two jobs or more");
}

/// The simulator answers what the textbook answers on every cluster it
/// models, on either clock (the nodes clock paced at a few nodes a
/// stretch), runs every job it counts, and keeps to its model's
/// arithmetic: one worker is never faster than its work, and many never
/// faster than their share of it or the latency of the jobs in a row.
#[test]
fn simulated_clusters_answer_the_reference() {
    use super::{Cluster, JobClock, Simulator};
    for seed in 0..24u64 {
        let n = 3 + (seed % 2) as usize;
        let (board, p) = position(600 + seed, n, (6 + seed % 4) as u32);
        let depth = board.empty_count();
        let expected = reference::alphabeta(&board, p, depth);
        let workers = [1, 2, 3, 16][(seed % 4) as usize];
        let cluster = Cluster {
            workers,
            per_table: [1, 2, 16][(seed % 3) as usize],
            latency_us: [0, 1500][(seed / 2 % 2) as usize],
        };
        let settings = Settings {
            split: 1 + (seed % 3) as u32,
            inline_plies: 0,
            order_plies: (seed % 3) as u32,
            store: None,
            speculate: seed % 3 == 0,
            eager: seed % 4 < 2,
            spare: seed % 4 == 2,
            job_nodes: [None, Some(1), Some(200)][(seed / 3 % 3) as usize],
            ahead: seed % 5 < 3,
            ..Settings::default()
        };
        let simulator = match seed / 4 % 3 {
            0 => Simulator::default(),
            k => Simulator {
                clock: JobClock::Nodes { per_us: 1 },
                stretch_us: [5, 200][k as usize - 1],
                ..Simulator::default()
            },
        };
        let s = simulator.simulate(&board, p, depth, settings, cluster);
        assert_eq!(
            (s.answer.best, s.answer.value),
            (expected.best, expected.value),
            "seed {seed}\n{board:?}"
        );
        assert_eq!(s.cluster, cluster);
        assert!(s.cancelled <= s.jobs && s.driver_us <= s.makespan_us);
        assert!(
            s.cancelled_us + s.stopped_us <= s.work_us,
            "seed {seed}: cancelled and stopped jobs ran more than all jobs"
        );
        if workers == 1 {
            assert!(
                s.makespan_us >= s.work_us + s.jobs * cluster.latency_us,
                "seed {seed}"
            );
        }
        assert!(
            s.makespan_us * workers as u64 >= s.work_us,
            "seed {seed}: {} us on {workers} workers for {} us of work",
            s.makespan_us,
            s.work_us
        );
        if s.jobs > 0 {
            assert!(s.makespan_us >= cluster.latency_us, "seed {seed}");
        }
    }
}

/// On the nodes clock a simulation answered on several cores is the one
/// answered on one: the same events in the same order, each table given
/// the same jobs in the same turns (sharing proofs, cut at budgets, and
/// with tables dropped for want of memory), so every count is equal; and
/// the answer is the direct solve's. The nodes searched in all are the
/// time worked at the clock's pace, up to each job's rounding: the nodes
/// the cancelled jobs searched before they were are counted.
#[test]
fn a_simulation_on_many_cores_is_the_one_on_one() {
    use super::{Cluster, JobClock, Share, Simulator};
    // The driver's own searches use the process's kept table.
    let _serial = KEPT_TABLE.lock();
    let (mut several, mut stopped, mut handed, mut cut_short) = (0, 0, 0, 0);
    for seed in 0..12u64 {
        let empties = 9 + (seed % 4) as u32;
        let (board, p) = position(1300 + seed, 5, empties);
        let expected = crate::search::root::alphabeta(&board, p, empties, false);
        let settings = || Settings {
            split: 1 + (seed % 3) as u32,
            speculate: seed % 4 == 0,
            eager: seed % 3 == 1,
            spare: seed % 4 == 3,
            job_nodes: Some([300, 3_000][(seed % 2) as usize]),
            inline_plies: 4,
            ahead: seed % 2 == 0,
            share: (seed % 3 == 2).then_some(Share {
                nodes: 100,
                plies: 4,
            }),
            ..Settings::default()
        };
        let cluster = Cluster {
            workers: [3, 8, 16][(seed % 3) as usize],
            per_table: 1 + (seed % 4) as usize,
            latency_us: [500, 3400][(seed / 2 % 2) as usize],
        };
        // At a node a microsecond and 20 a stretch, the jobs are held at
        // nearly every report of their nodes.
        let (per_us, stretch_us) = [(40, 1000), (1, 20)][(seed / 2 % 2) as usize];
        let on = |cores| Simulator {
            cores,
            clock: JobClock::Nodes { per_us },
            // Small enough to drop tables now and then.
            tables_bytes: [usize::MAX, 1 << 20][(seed / 3 % 2) as usize],
            stretch_us,
        };
        let one = on(1).simulate(&board, p, empties, settings(), cluster);
        assert_eq!(
            (one.answer.best, one.answer.value),
            (expected.best, expected.value),
            "seed {seed}\n{board:?}"
        );
        for cores in [2, 3] {
            let many = on(cores).simulate(&board, p, empties, settings(), cluster);
            assert_eq!(many, one, "seed {seed} on {cores} cores");
        }
        // Each job's time, and each of the driver's turns, is rounded up
        // to the microsecond: at most one a job and one a turn (a turn a
        // job back, and the first).
        let worked = per_us * (one.work_us + one.driver_us);
        let rounding = per_us * (2 * one.jobs + 1);
        assert!(
            one.searched <= worked && one.searched + rounding > worked,
            "seed {seed}: {} nodes searched, {worked} worked",
            one.searched
        );
        // Here a job is searched at least as far as on the cluster.
        assert!(one.here >= one.searched, "seed {seed}");
        several += u64::from(one.jobs > 20);
        cut_short += u64::from(one.searched > one.nodes);
        (stopped, handed) = (stopped + one.stopped, handed + one.handed);
    }
    assert!(
        several >= 8,
        "only {several} simulations had more than 20 jobs"
    );
    assert!(cut_short > 0, "no simulation cancelled a job that had run");
    assert!(
        stopped > 0 && handed > 0,
        "{stopped} jobs cut, {handed} proofs handed"
    );
}

/// A job's home is the position `home_plies` below the root on its line
/// (its own where that is deeper than the split): with 1 every job of a
/// root move shares the root move's, with 3 each job has its own; and
/// every home gives the direct solve's answer.
#[test]
fn a_jobs_home_is_the_position_on_its_line_at_the_home_plies() {
    use crate::game::legal_moves;
    use std::collections::HashSet;
    let _serial = KEPT_TABLE.lock();
    let below = |positions: &[(crate::game::Board, Player)]| -> Vec<(crate::game::Board, Player)> {
        positions
            .iter()
            .flat_map(|(b, p)| {
                legal_moves(b, *p).into_iter().map(move |mv| {
                    let mut child = b.clone();
                    child.make(mv, *p);
                    (child, p.other())
                })
            })
            .collect()
    };
    for seed in 0..3u64 {
        let (board, p) = position(1500 + seed, 5, 11);
        let expected = crate::search::root::alphabeta(&board, p, 11, false);
        let mut line = vec![vec![(board.clone(), p)]];
        for _ in 0..3 {
            let next = below(line.last().unwrap());
            line.push(next);
        }
        for home_plies in 1..=3u32 {
            let settings = Settings {
                split: 3,
                home_plies,
                inline_plies: 2,
                ..Settings::default()
            };
            let homes: HashSet<u64> = line[home_plies as usize]
                .iter()
                .map(|(b, _)| b.hash())
                .collect();
            let mut driver = Driver::new(&board, p, 11, settings);
            let mut jobs = 0;
            while driver.answer().is_none() {
                let taken = driver.take_jobs(4);
                for job in &taken {
                    let (own, _) = job.position().unwrap();
                    assert!(
                        homes.contains(&job.home),
                        "seed {seed}, home plies {home_plies}"
                    );
                    if home_plies == 3 {
                        assert_eq!(job.home, own.hash(), "seed {seed}");
                    }
                    driver.finish(
                        &super::job::run_job_kept(job, &Default::default(), Deadline::none())
                            .unwrap(),
                    );
                }
                jobs += taken.len();
            }
            assert!(jobs > 10, "seed {seed}: only {jobs} jobs");
            let got = driver.answer().unwrap();
            assert_eq!(
                (got.best, got.value),
                (expected.best, expected.value),
                "seed {seed}"
            );
        }
    }
}

/// Jobs taken for several tables fill no table past its idle workers,
/// and a job goes to another table than its home's only when its home's is
/// full and no other job runs, the first of its hand-out; taken so, to the
/// end, they give the direct solve's answer.
#[test]
fn jobs_go_to_their_home_table_while_it_has_room() {
    let _serial = KEPT_TABLE.lock();
    let mut away = 0;
    for seed in 0..6u64 {
        let (board, p) = position(1400 + seed, 5, 11);
        let expected = crate::search::root::alphabeta(&board, p, 11, false);
        let settings = Settings {
            split: 2 + (seed % 2) as u32,
            ahead: true,
            ..Settings::default()
        };
        let mut driver = Driver::new(&board, p, 11, settings);
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while driver.answer().is_none() {
            let idle: Vec<usize> = (0..3).map(|_| rng.range(0, 3) as usize).collect();
            let running = driver.stats().running;
            let placed = driver.take_jobs_for(&idle);
            let on = |t| placed.iter().filter(|(at, _)| *at == t).count();
            for (t, &room) in idle.iter().enumerate() {
                assert!(
                    on(t) <= room,
                    "seed {seed}: table {t} given more than {idle:?}"
                );
            }
            for (k, (at, job)) in placed.iter().enumerate() {
                let home = (job.home % 3) as usize;
                if *at != home {
                    away += 1;
                    assert_eq!(on(home), idle[home], "seed {seed}: sent away from room");
                    // Only to keep the solve going: nothing else runs.
                    assert_eq!(
                        (running, k),
                        (0, 0),
                        "seed {seed}: sent away while jobs ran"
                    );
                }
            }
            if driver.answer().is_some() {
                break;
            }
            assert!(
                !placed.is_empty() || !out.is_empty() || idle.iter().all(|&i| i == 0),
                "seed {seed}: no job out, none given, and room for some"
            );
            out.extend(placed.into_iter().map(|(_, job)| job));
            // Answer the oldest job, as a slow cluster would.
            if !out.is_empty() {
                let job = out.remove(0);
                driver.finish(
                    &super::job::run_job_kept(&job, &Default::default(), Deadline::none()).unwrap(),
                );
            }
        }
        let got = driver.answer().unwrap();
        assert_eq!(
            (got.best, got.value),
            (expected.best, expected.value),
            "seed {seed}"
        );
    }
    assert!(
        away > 0,
        "no job went to another table: the test tests nothing"
    );
}

/// On one worker a split solve searches what the direct solve does: its
/// jobs go depth first, ordered and tabled as the engine's own search, so
/// the tree cut 3 plies down costs about what it costs cut at the root
/// (whose jobs are the direct solve's root tests). Jobs handed out in the
/// order they were made searched 1.28x here.
#[test]
fn one_worker_searches_what_the_direct_solve_does() {
    use super::{simulate, Cluster};
    let _serial = KEPT_TABLE.lock();
    let (mut at_root, mut cut) = (0, 0);
    for seed in 0..4u64 {
        let (board, p) = position(900 + seed, 5, 15);
        let depth = board.empty_count();
        let nodes = |split| {
            let settings = Settings {
                split,
                ..Settings::default()
            };
            simulate(&board, p, depth, settings, Cluster::threads(1)).nodes
        };
        at_root += nodes(1);
        cut += nodes(3);
    }
    assert!(
        cut * 100 <= at_root * 103,
        "cut 3 plies down: {cut} nodes, at the root: {at_root}"
    );
}

/// Jobs stopped at their budget of nodes and split where they stood give
/// the direct solve's answer on positions deep enough for the budget to
/// bind at every level, on one worker and on many, with speculation, eager
/// splits and the root's tests asked ahead, and with the driver's splits
/// capped (the stopped job then goes out again whole).
#[test]
fn jobs_cut_at_their_budget_answer_the_direct_solve() {
    use super::{simulate, Cluster};
    let _serial = KEPT_TABLE.lock();
    let mut cut = 0;
    for seed in 0..10u64 {
        let empties = 12 + (seed % 5) as u32;
        let (board, p) = position(700 + seed, 5, empties);
        // The direct solve, itself held to the reference elsewhere: the
        // reference would take minutes here.
        let expected = crate::search::root::alphabeta(&board, p, empties, false);
        let settings = Settings {
            split: 1 + (seed % 2) as u32,
            speculate: seed % 3 == 0,
            eager: seed % 4 == 1,
            spare: seed % 4 == 2,
            max_splits: [4096, 3][(seed / 5) as usize],
            job_nodes: Some([2_000, 20_000, 100_000][(seed % 3) as usize]),
            ahead: seed % 2 == 0,
            ..Settings::default()
        };
        let cluster = Cluster {
            workers: [1, 7, 64][(seed % 3) as usize],
            per_table: 1 + (seed % 2) as usize,
            latency_us: 0,
        };
        let s = simulate(&board, p, empties, settings, cluster);
        assert_eq!(
            (s.answer.best, s.answer.value),
            (expected.best, expected.value),
            "seed {seed}\n{board:?}"
        );
        cut += s.stopped;
    }
    assert!(cut > 0, "no job reached its budget: the test tests nothing");
}

/// The time left for the jobs known is the jobs running and queued at the
/// pace jobs have come back, and unknown before the first is back.
#[test]
fn the_time_left_for_the_known_jobs() {
    use std::time::Duration;
    let stats = super::DriverStats {
        done: 10,
        running: 4,
        queued: 16,
        ..Default::default()
    };
    let elapsed = Duration::from_secs(5);
    assert_eq!(stats.known_left(elapsed), Some(Duration::from_secs(10)));
    let none_back = super::DriverStats { done: 0, ..stats };
    assert_eq!(none_back.known_left(elapsed), None);
}

/// A stopped job's children go home to its table, and a job's budget grows
/// with the queue behind it: the base where nothing waits, plus each
/// worker's share of the queued jobs at the mean size of the jobs back.
#[test]
fn stopped_jobs_children_keep_its_home_and_budgets_grow_with_the_queue() {
    use super::JobResult;
    let _serial = KEPT_TABLE.lock();
    let (board, p) = position(900, 5, 14);
    let base = 1_000;
    let settings = Settings {
        split: 1,
        job_nodes: Some(base),
        ..Settings::default()
    };
    let mut driver = Driver::new(&board, p, 14, settings);
    let first = driver.take_jobs(1);
    assert_eq!(first.len(), 1);
    let first = &first[0];
    assert_eq!(first.most_nodes, Some(base), "nothing is queued behind it");
    let back = |id, value, nodes| JobResult {
        id,
        value,
        nodes,
        micros: 1,
        children: Vec::new(),
        proofs: Vec::new(),
    };
    driver.finish(&back(first.id, None, 1_000_000));
    let eldest = driver.take_jobs(1);
    assert_eq!(eldest.len(), 1);
    let eldest = &eldest[0];
    assert_eq!(eldest.home, first.home, "a stopped job's child");
    assert_eq!(eldest.most_nodes, Some(base));
    // Failing high, it does not end its parent: its brothers are tested.
    driver.finish(&back(eldest.id, Some(eldest.beta), 3_000_000));
    let queued = driver.stats().queued;
    assert!(queued >= 3, "{queued} brothers");
    let brothers = driver.take_jobs(2);
    assert_eq!(brothers.len(), 2);
    let mean = (1_000_000 + 3_000_000) / 2;
    for (k, job) in brothers.iter().enumerate() {
        assert_eq!(job.home, first.home);
        let behind = queued - 1 - k as u64;
        assert_eq!(
            job.most_nodes,
            Some(base + mean * behind / 2),
            "brother {k}"
        );
    }
}

/// Proofs handed on between the tables of a simulated cluster change no
/// answer, on clusters of several tables where they do flow.
#[test]
fn shared_proofs_change_no_answer() {
    use super::{simulate, Cluster, Share};
    let mut handed = 0;
    for seed in 0..24u64 {
        let n = 3 + (seed % 2) as usize;
        let (board, p) = position(900 + seed, n, (7 + seed % 3) as u32);
        let depth = board.empty_count() - (seed % 2) as u32;
        let expected = reference::alphabeta(&board, p, depth);
        let cluster = Cluster {
            workers: [2, 3, 6][(seed % 3) as usize],
            per_table: 1 + (seed / 3 % 2) as usize,
            latency_us: 0,
        };
        let settings = Settings {
            split: 1 + (seed % 3) as u32,
            inline_plies: 0,
            order_plies: (seed % 3) as u32,
            job_nodes: [None, Some(1), Some(200)][(seed / 2 % 3) as usize],
            ahead: seed % 2 == 0,
            // Every proof of two plies or more, even the cheapest, so that
            // the small trees here hand on many.
            share: Some(Share {
                nodes: [0, 20][(seed % 2) as usize],
                plies: 2 + (seed % 3) as u32,
            }),
            ..Settings::default()
        };
        let s = simulate(&board, p, depth, settings, cluster);
        assert_eq!(
            (s.answer.best, s.answer.value),
            (expected.best, expected.value),
            "seed {seed}\n{board:?}"
        );
        handed += s.handed;
    }
    assert!(handed > 100, "only {handed} proofs were handed on");
}

/// What a job hands back of its search are true bounds: each proof's
/// position has its textbook value within them, at its plies.
#[test]
fn a_jobs_proofs_bound_the_reference_values() {
    use super::job::{run_job_kept, Job, Share};
    let mut checked = 0;
    for seed in 0..12u64 {
        let (board, p) = position(1200 + seed, 4, 9);
        let mut job = Job::new(1, &board, p, 9, (seed as i64 % 7) * 20 - 60);
        job.share = Some(Share { nodes: 0, plies: 3 });
        let result = run_job_kept(&job, &Default::default(), Deadline::none()).unwrap();
        for proof in &result.proofs {
            // The position as any written one is read: the job's values,
            // the proof's cells and side to move.
            let rows: Vec<char> = proof.cells.chars().collect();
            let grid = crate::api::Grid {
                cells: rows.chunks(4).map(String::from_iter).collect(),
                player: proof.player.to_string(),
                ..job.grid.clone()
            };
            let (b, mover) = grid.check().unwrap();
            let value = reference::alphabeta(&b, mover, proof.plies).value;
            assert!(
                proof.lo <= value && value <= proof.hi,
                "seed {seed}: {proof:?} but the value is {value}"
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} proofs came back");
}

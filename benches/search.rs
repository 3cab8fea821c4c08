//! Where the time goes: move generation, make/unmake, the exact search
//! `solve` runs in MINIMAX and ALPHABETA mode by depth, and thread
//! scaling, on named positions. Search benches report nodes/s and assert
//! the node counts recorded in [`NODES`].

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use stakeraid::api::{analyse, Engine, Limits, Position};
use stakeraid::bench::Workload;
use stakeraid::{generate, solve, Answer, Board, MoveList, Player};
use stakeraid::{Problem, Question, SearchMode};

/// The node count of every single-threaded search the benches run: (group,
/// position, depth, nodes). These are the counts `solve` reports (MINIMAX
/// mode's are alpha-beta's and its proofs of the bounded root values, not
/// the textbook tree's), which a
/// change to search behaviour changes; record the new ones here in the same
/// commit (as `profiles/signature.txt` for the signature). Before any bench
/// runs, every count is checked, and a difference prints the whole table as
/// the engine now gives it, ready to paste (`cargo test --bench search`
/// runs the check and each bench once).
const NODES: &[(&str, &str, u32, u64)] = &[
    ("minimax", "small5", 3, 1014),
    ("minimax", "small5", 4, 5948),
    ("minimax", "small5", 5, 16936),
    ("minimax", "small5", 6, 110038),
    ("minimax", "mid8", 2, 2226),
    ("minimax", "mid8", 3, 4259),
    ("minimax", "mid8", 4, 12674),
    ("minimax", "mid8", 5, 70905),
    ("alphabeta", "small5", 4, 2035),
    ("alphabeta", "small5", 5, 6113),
    ("alphabeta", "small5", 6, 26531),
    ("alphabeta", "small5", 7, 80006),
    ("alphabeta", "small5", 8, 431668),
    ("alphabeta", "mid8", 4, 980),
    ("alphabeta", "mid8", 5, 3784),
    ("alphabeta", "mid8", 6, 28386),
    ("alphabeta", "mid8", 7, 98408),
    ("alphabeta", "mid8", 8, 371312),
    ("alphabeta", "empty26", 2, 1355),
    ("alphabeta", "empty26", 3, 2715),
    ("alphabeta", "empty26", 4, 6115),
    ("alphabeta", "end8", 6, 1284),
    ("alphabeta", "end8", 7, 3738),
    ("alphabeta", "end8", 8, 4580),
    ("alphabeta", "end8", 9, 8896),
    ("alphabeta", "end8", 10, 17728),
];

/// The recorded node count of one search of [`NODES`].
fn nodes(group: &str, name: &str, depth: u32) -> u64 {
    NODES
        .iter()
        .find(|&&(g, n, d, _)| (g, n, d) == (group, name, depth))
        .map(|w| w.3)
        .unwrap_or_else(|| panic!("no node count recorded for {group} {name} depth {depth}"))
}

/// The mode a group of [`NODES`] searches in.
fn mode(group: &str) -> SearchMode {
    match group {
        "minimax" => SearchMode::Minimax,
        _ => SearchMode::AlphaBeta,
    }
}

/// The `input.txt` asking for a search of `board`, X to move, `depth`
/// plies in `mode`.
fn problem(board: &Board, mode: SearchMode, depth: u32) -> Problem {
    Problem {
        board: board.clone(),
        player: Player::X,
        question: Question::Exact { mode, depth },
    }
}

/// `problem` solved on `threads` threads, as `stakeraid solve` answers it.
fn run(problem: &Problem, threads: usize) -> Answer {
    let limits = Limits {
        threads,
        ..Limits::default()
    };
    solve(problem, &limits).expect("the benches' positions have moves")
}

/// One single-threaded search of [`NODES`], as the benches run it.
fn search(group: &str, board: &Board, depth: u32) -> Answer {
    run(&problem(board, mode(group), depth), 1)
}

/// The textbook search's move and value for `board`, X to move, `depth`
/// plies in `mode` (the in-tree reference engine).
fn textbook(board: &Board, mode: SearchMode, depth: u32) -> (stakeraid::Move, i64) {
    let position = Position::new(board.clone(), Player::X).expect("a board with a move");
    let limits = Limits {
        engine: Engine::Reference,
        ..Limits::to_depth(mode, depth)
    };
    let a = analyse(&position, &limits).expect("an exact analysis");
    (a.best, a.value)
}

/// Checks every recorded node count against the engine, and fails with
/// the table the engine gives now if any differs.
fn check_node_counts() {
    let boards = positions();
    let board = |name: &str| &boards.iter().find(|(n, _)| n == name).unwrap().1;
    let now: Vec<_> = NODES
        .iter()
        .map(|&(g, n, d, _)| (g, n, d, search(g, board(n), d).nodes))
        .collect();
    if now != NODES {
        let rows: Vec<String> = now
            .iter()
            .map(|(g, n, d, nodes)| format!("    ({g:?}, {n:?}, {d}, {nodes}),"))
            .collect();
        panic!(
            "the node counts differ from NODES in benches/search.rs; the engine now gives:\n{}",
            rows.join("\n")
        );
    }
}

fn position(name: &str, size: usize, fill: f64, seed: u64) -> (String, Board) {
    let w = Workload {
        name: name.into(),
        size,
        fill,
        max_value: 99,
        seed,
        player: Player::X,
        search: SearchMode::AlphaBeta,
        depth: 1,
        threads: vec![1],
    };
    (name.into(), w.board())
}

fn positions() -> Vec<(String, Board)> {
    vec![
        position("small5", 5, 0.2, 1),
        position("mid8", 8, 0.5, 3),
        position("empty26", 26, 0.0, 3),
        position("end8", 8, 0.85, 4),
    ]
}

fn movegen(c: &mut Criterion) {
    let mut g = c.benchmark_group("movegen");
    for (name, board) in positions() {
        let mut list = MoveList::new();
        generate(&board, Player::X, &mut list);
        g.throughput(Throughput::Elements(list.len() as u64));
        g.bench_function(&name, |b| {
            b.iter(|| {
                generate(std::hint::black_box(&board), Player::X, &mut list);
                list.len()
            })
        });
    }
    g.finish();
}

fn make_unmake(c: &mut Criterion) {
    let mut g = c.benchmark_group("make_unmake");
    for (name, mut board) in positions() {
        let moves = stakeraid::legal_moves(&board, Player::X);
        g.throughput(Throughput::Elements(moves.len() as u64));
        g.bench_function(&name, |b| {
            b.iter(|| {
                let mut s = 0;
                for &mv in &moves {
                    let u = board.make(mv, Player::X);
                    s += board.score(Player::X);
                    board.unmake(u);
                }
                s
            })
        });
    }
    g.finish();
}

fn minimax_by_depth(c: &mut Criterion) {
    let mut g = c.benchmark_group("minimax");
    g.sample_size(10);
    for (name, board, depths) in [
        ("small5", positions().remove(0).1, 3..=6),
        ("mid8", positions().remove(1).1, 2..=5),
    ] {
        for depth in depths {
            let expected = nodes("minimax", name, depth);
            let problem = problem(&board, SearchMode::Minimax, depth);
            if depth <= 4 {
                let first = run(&problem, 1);
                let want = textbook(&board, SearchMode::Minimax, depth);
                assert_eq!((first.best, first.value), want);
            }
            g.throughput(Throughput::Elements(expected));
            g.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, _| {
                b.iter(|| {
                    let r = run(&problem, 1);
                    assert_eq!(r.nodes, expected);
                    r.best
                })
            });
        }
    }
    g.finish();
}

fn alphabeta_by_depth(c: &mut Criterion) {
    let mut g = c.benchmark_group("alphabeta");
    g.sample_size(10);
    let [small, mid, empty, end]: [(String, Board); 4] = positions().try_into().unwrap();
    for ((name, board), depths) in [(small, 4..=8), (mid, 4..=8), (empty, 2..=4), (end, 6..=10)] {
        for depth in depths {
            let expected = nodes("alphabeta", &name, depth);
            let problem = problem(&board, SearchMode::AlphaBeta, depth);
            if depth <= 5 {
                let first = run(&problem, 1);
                let want = textbook(&board, SearchMode::AlphaBeta, depth);
                assert_eq!((first.best, first.value), want);
            }
            g.throughput(Throughput::Elements(expected));
            g.bench_with_input(BenchmarkId::new(&name, depth), &depth, |b, _| {
                b.iter(|| {
                    let r = run(&problem, 1);
                    assert_eq!(r.nodes, expected);
                    r.best
                })
            });
        }
    }
    g.finish();
}

fn thread_scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("threads");
    g.sample_size(10);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut counts = vec![1, 2, cores];
    counts.dedup();
    let mid = positions().remove(1).1;
    let (mm_problem, ab_problem) = (
        problem(&mid, SearchMode::Minimax, 5),
        problem(&mid, SearchMode::AlphaBeta, 8),
    );
    let (mm, ab) = (run(&mm_problem, 1), run(&ab_problem, 1));
    assert_eq!(
        (mm.nodes, ab.nodes),
        (nodes("minimax", "mid8", 5), nodes("alphabeta", "mid8", 8))
    );
    for threads in counts {
        g.throughput(Throughput::Elements(mm.nodes));
        g.bench_with_input(
            BenchmarkId::new("minimax-mid8-d5", threads),
            &threads,
            |b, _| {
                b.iter(|| {
                    let r = run(&mm_problem, threads);
                    assert_eq!((r.best, r.value), (mm.best, mm.value));
                })
            },
        );
        g.throughput(Throughput::Elements(ab.nodes));
        g.bench_with_input(
            BenchmarkId::new("alphabeta-mid8-d8", threads),
            &threads,
            |b, _| {
                b.iter(|| {
                    let r = run(&ab_problem, threads);
                    assert_eq!(r.best, ab.best);
                })
            },
        );
    }
    g.finish();
}

criterion_group!(
    benches,
    movegen,
    make_unmake,
    minimax_by_depth,
    alphabeta_by_depth,
    thread_scaling
);

// `criterion_main!` with the node counts checked first.
fn main() {
    check_node_counts();
    benches();
    Criterion::default().configure_from_args().final_summary();
}

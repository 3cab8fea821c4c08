//! Where the time goes: move generation, make/unmake, full minimax and
//! alpha-beta by depth, and thread scaling, on named positions. Search
//! benches report nodes/s and assert their node counts.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use stakeraid::bench::{Search, Workload};
use stakeraid::search::{reference, root};
use stakeraid::{generate, rayon_pool_for_tests, Board, MoveList, Player};

fn position(name: &str, size: usize, fill: f64, seed: u64) -> (String, Board) {
    let w = Workload {
        name: name.into(),
        size,
        fill,
        max_value: 99,
        seed,
        player: Player::X,
        search: Search::AlphaBeta,
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
            let fast = root::minimax(&board, Player::X, depth, false);
            if depth <= 4 {
                // The reported count is the textbook tree's.
                assert_eq!(
                    fast.nodes,
                    reference::minimax(&board, Player::X, depth).nodes
                );
            }
            g.throughput(Throughput::Elements(fast.nodes));
            g.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
                b.iter(|| {
                    let r = root::minimax(&board, Player::X, d, false);
                    assert_eq!(r.nodes, fast.nodes);
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
            let first = root::alphabeta(&board, Player::X, depth, false);
            if depth <= 5 {
                let textbook = reference::alphabeta(&board, Player::X, depth);
                assert_eq!((first.best, first.value), (textbook.best, textbook.value));
            }
            g.throughput(Throughput::Elements(first.nodes));
            g.bench_with_input(BenchmarkId::new(&name, depth), &depth, |b, &d| {
                b.iter(|| {
                    let r = root::alphabeta(&board, Player::X, d, false);
                    assert_eq!(
                        r.nodes, first.nodes,
                        "single-threaded search is deterministic"
                    );
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
    let mm = root::minimax(&mid, Player::X, 5, false);
    let ab = root::alphabeta(&mid, Player::X, 8, false);
    for threads in counts {
        let pool = rayon_pool_for_tests(threads);
        let par = threads > 1;
        g.throughput(Throughput::Elements(mm.nodes));
        g.bench_with_input(
            BenchmarkId::new("minimax-mid8-d5", threads),
            &threads,
            |b, _| {
                b.iter(|| {
                    let r = pool.install(|| root::minimax(&mid, Player::X, 5, par));
                    assert_eq!((r.best, r.nodes), (mm.best, mm.nodes));
                })
            },
        );
        g.throughput(Throughput::Elements(ab.nodes));
        g.bench_with_input(
            BenchmarkId::new("alphabeta-mid8-d8", threads),
            &threads,
            |b, _| {
                b.iter(|| {
                    let r = pool.install(|| root::alphabeta(&mid, Player::X, 8, par));
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
criterion_main!(benches);

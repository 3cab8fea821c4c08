//! Engine agreement that needs the crate's inside: the general engine held
//! against the compact one and the textbook search where the compact one
//! would otherwise take over.

mod agreement;
mod choice;
mod compact;
mod regions;

/// A pool of `threads` workers, as the solver builds it.
fn pool(threads: usize) -> rayon::ThreadPool {
    crate::engine::pool::build(threads).expect("the test's threads start")
}

/// `got` gives the answer of `want` (the move and its value), and what it
/// proved of each root move holds `want`'s exact values: equal where it
/// is exact too, at least it where it is a bound. `at` names the search.
fn assert_same_answer(
    got: &crate::search::root::RootResult,
    want: &crate::search::root::RootResult,
    at: &str,
) {
    use crate::search::root::RootValue;
    assert_eq!((got.best, got.value), (want.best, want.value), "{at}");
    for ((mv, got), (_, want)) in got.moves.iter().zip(&want.moves) {
        if let RootValue::Exact(want) = want {
            match got {
                RootValue::Exact(got) => assert_eq!(got, want, "{mv:?}, {at}"),
                RootValue::AtMost(bound) => assert!(bound >= want, "{mv:?}, {at}"),
            }
        }
    }
}

/// A board of side `n` with values `0..=max` and `empties` empty cells
/// (drawn again until it has them).
fn board_with_empties(
    rng: &mut crate::game::random::Rng,
    n: usize,
    max: i32,
    empties: u32,
) -> crate::game::Board {
    let fill = 1.0 - f64::from(empties) / (n * n) as f64;
    loop {
        let board = crate::game::random::random_board_from(rng, n, 0, max, fill);
        if board.empty_count() == empties {
            return board;
        }
    }
}

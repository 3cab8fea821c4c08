//! The choice at a position of known value against the textbook choice,
//! on both engines and at one and two threads: the value it is given must
//! find exactly the textbook move, and a value the position does not have
//! must find nothing.

use std::sync::Arc;

use super::pool;
use crate::game::random::{random_board, Rng};
use crate::game::Player;
use crate::search::general::Searcher;
use crate::search::{known_choice, reference, Compact, Deadline, FastEngine, Known, Progress};
use crate::search::{Signals, Threads};

#[test]
fn a_known_value_finds_the_textbook_choice() {
    let mut rng = Rng::new(7);
    let pools = [pool(1), pool(2)];
    let (deadline, progress) = (Deadline::none(), Progress::default());
    let signals = Signals {
        deadline: &deadline,
        progress: &progress,
    };
    let mut checked = 0;
    for round in 0..600 {
        let n = 2 + round % 4;
        // Small value ranges: many moves share the maximum.
        let max_value = [1, 2, 3, 10, 100][round % 5];
        let fill = rng.range(0, 70) as f64 / 100.0;
        let board = random_board(&mut rng, n, max_value, fill);
        let empties = board.empty_count();
        if empties == 0 {
            continue;
        }
        let depth = 1 + rng.range(0, u64::from(empties.min(4)) - 1) as u32;
        let player = if round % 2 == 0 { Player::X } else { Player::O };
        let truth = reference::alphabeta(&board, player, depth);
        let pool = &pools[round % 2];
        let threads = Threads::pool_if(pool.current_num_threads() > 1);
        let general = FastEngine::General(Searcher::new(n, 1 << 20, threads));
        let compact =
            Compact::new(&board, 1 << 20).map(|c| FastEngine::Compact(Arc::new(c), threads));
        for engine in std::iter::once(&general).chain(compact.as_ref()) {
            let found = |value| {
                pool.install(|| known_choice(engine, &board, player, depth, value, signals))
            };
            assert!(
                matches!(found(truth.value), Known::Choice(mv, _) if mv == truth.best),
                "{board:?} {player:?} depth {depth}: {:?}, textbook {:?}",
                found(truth.value),
                truth.best
            );
            assert_eq!(found(truth.value + 1), Known::Missed, "{board:?}");
            checked += 1;
        }
    }
    assert!(checked > 900, "{checked} positions checked");
}

//! A root move's exact value from null-window tests, the one rule the
//! direct solve (`root/exact.rs`) and the split driver (`jobs/driver.rs`) share.
//!
//! A fail-soft test of the window `(beta - 1, beta)` that returns
//! `t >= beta` proves `v >= t`, and one that returns `t < beta` proves
//! `v <= t`, so every test moves one end of `lo..=hi` strictly inward
//! and the value is known once they meet. The first test is at the guess;
//! while one end is still unknown the next steps away from the known one
//! by about the distance already travelled from the guess (1, 2, 4, ...),
//! then the interval is halved: a window near the value costs the most,
//! one far from it little.
//!
//! The next threshold depends only on the interval (and the fixed guess
//! and outer ends), never on how it was reached. So a solve killed during
//! a test and resumed with the interval its finished tests proved (the
//! solve store keeps each of them) asks the very test it was killed in,
//! whose subtrees the store and the saved table still answer; a rule that
//! counted its steps would start over from the guess and ask other tests.

/// The tests of one value, known to lie in `floor..=ceiling`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tests {
    /// The value is at least this.
    pub lo: i64,
    /// The value is at most this.
    pub hi: i64,
    floor: i64,
    ceiling: i64,
    guess: i64,
}

impl Tests {
    /// The tests of a value in `floor..=ceiling`, the first at `guess`
    /// (moved into `floor + 1..=ceiling`).
    pub(crate) fn new(floor: i64, ceiling: i64, guess: i64) -> Tests {
        Tests {
            lo: floor,
            hi: ceiling,
            floor,
            ceiling,
            guess: guess.clamp(floor + 1, ceiling.max(floor + 1)),
        }
    }

    /// The same tests, with bounds on the value proved elsewhere (by
    /// earlier tests of a killed solve, say) taken in.
    pub(crate) fn knowing(mut self, lo: i64, hi: i64) -> Tests {
        self.lo = self.lo.max(lo).min(self.hi);
        self.hi = self.hi.min(hi).max(self.lo);
        self
    }

    /// The threshold of the next test, or `None` once the value (`lo`) is
    /// known.
    pub(crate) fn next(&self) -> Option<i64> {
        if self.lo >= self.hi {
            return None;
        }
        let (lo, hi) = (self.lo, self.hi);
        let beta = match (lo == self.floor, hi == self.ceiling) {
            (true, true) => self.guess,
            // Only the lower end known: above it by its distance from the guess.
            (false, true) => lo.saturating_add((lo - self.guess + 1).max(1)),
            // Only the upper end known: below it likewise.
            (true, false) => hi.saturating_sub((self.guess - hi).max(1)) + 1,
            (false, false) => lo + (hi - lo + 1) / 2,
        };
        Some(beta.clamp(lo + 1, hi))
    }

    /// The thresholds these tests would ask within their next `results`
    /// results, whatever those are (each taken as a bare pass, `t = beta`,
    /// or a bare fail, `t = beta - 1`): the `k`-th list holds those asked
    /// after `k` results. What a solver with workers to spare may ask at
    /// once; `ahead(1)` is [`next`](Tests::next).
    pub(crate) fn ahead(&self, results: u32) -> Vec<Vec<i64>> {
        let mut thresholds = Vec::new();
        let mut level = vec![*self];
        for _ in 0..results {
            let mut asked = Vec::new();
            let mut after = Vec::new();
            for tests in level {
                let Some(beta) = tests.next() else { continue };
                asked.push(beta);
                for t in [beta, beta - 1] {
                    let mut then = tests;
                    then.update(beta, t);
                    after.push(then);
                }
            }
            if asked.is_empty() {
                break;
            }
            thresholds.push(asked);
            level = after;
        }
        thresholds
    }

    /// Takes in the result `t` of the test at `beta`. A test asked before
    /// others came back (the split driver asks several at once) may prove
    /// less than is known by then, and then changes nothing.
    pub(crate) fn update(&mut self, beta: i64, t: i64) {
        (self.lo, self.hi) = narrowed((self.lo, self.hi), beta, t);
    }
}

/// What is left of `lo..=hi` once a fail-soft test at `beta` returned `t`:
/// the end it proves moves inward, never past the other.
pub(crate) fn narrowed((lo, hi): (i64, i64), beta: i64, t: i64) -> (i64, i64) {
    if t >= beta {
        (lo.max(t).min(hi), hi)
    } else {
        (lo, hi.min(t).max(lo))
    }
}

/// The exact value from `tests`, `test(beta)` being a fail-soft search of
/// the window `(beta - 1, beta)`. Garbage once `aborted`.
pub(crate) fn exact_by_tests(
    mut tests: Tests,
    mut test: impl FnMut(i64) -> i64,
    aborted: impl Fn() -> bool,
) -> i64 {
    while let Some(beta) = tests.next() {
        if aborted() {
            break;
        }
        let t = test(beta);
        tests.update(beta, t);
    }
    tests.lo
}

#[cfg(test)]
mod tests {
    use super::{exact_by_tests, Tests};
    use crate::game::random::Rng;

    /// A fail-soft oracle for the value `v`: any bound the rules allow,
    /// drawn from `seed` and the threshold alone, so that the same test
    /// always answers the same.
    fn oracle(v: i64, seed: u64) -> impl Fn(i64) -> i64 {
        move |beta| {
            let mut rng = Rng::new(seed ^ (beta as u64).wrapping_mul(0x9E37_79B9));
            if v >= beta {
                beta + rng.range(0, (v - beta) as u64) as i64
            } else {
                v + rng.range(0, (beta - 1 - v) as u64) as i64
            }
        }
    }

    /// From any start, the tests find the value, in at most about twice
    /// log2 of the range, and never test outside what is known.
    #[test]
    fn tests_find_the_value_from_any_guess() {
        let mut rng = Rng::new(31);
        for round in 0..20_000u64 {
            let edge = rng.range(0, 3000) as i64;
            let v = rng.range(0, 2 * edge as u64) as i64 - edge;
            let (floor, ceiling) = match rng.range(0, 2) {
                0 => (-edge, edge),
                1 => (v - rng.range(0, (v + edge) as u64) as i64, edge),
                _ => (v, v),
            };
            let guess = floor + rng.range(0, (ceiling - floor) as u64) as i64;
            let answer = oracle(v, round);
            let mut tests = Tests::new(floor, ceiling, guess);
            let mut calls = 0;
            while let Some(beta) = tests.next() {
                calls += 1;
                assert!(
                    tests.lo < beta && beta <= tests.hi,
                    "{beta} outside {tests:?}"
                );
                tests.update(beta, answer(beta));
            }
            assert_eq!(tests.lo, v, "from {floor}..={ceiling} at {guess}");
            assert!(calls <= 30, "{calls} tests");
            let again = exact_by_tests(Tests::new(floor, ceiling, guess), &answer, || false);
            assert_eq!(again, v);
        }
    }

    /// Whatever the value, the first k tests asked one after another with
    /// bare results are among the k results ahead, each asked once, all
    /// inside what is known.
    #[test]
    fn tests_ahead_hold_the_tests_any_value_asks() {
        let mut rng = Rng::new(41);
        for _ in 0..5_000 {
            let edge = 1 + rng.range(0, 2000) as i64;
            let v = rng.range(0, 2 * edge as u64) as i64 - edge;
            let guess = rng.range(0, 2 * edge as u64) as i64 - edge;
            let start = Tests::new(-edge, edge, guess);
            let k = 1 + rng.range(0, 7) as u32;
            let ahead = start.ahead(k).concat();
            assert_eq!(start.ahead(1).concat(), Vec::from_iter(start.next()));
            let mut distinct = ahead.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), ahead.len(), "{ahead:?}");
            assert!(ahead.iter().all(|&b| -edge < b && b <= edge));
            let mut tests = start;
            for _ in 0..k {
                let Some(beta) = tests.next() else { break };
                assert!(ahead.contains(&beta), "{beta} of {v} not in {ahead:?}");
                tests.update(beta, if v >= beta { beta } else { beta - 1 });
            }
        }
    }

    /// Resumed with the interval its first k tests proved, the tests ask
    /// exactly what the uninterrupted ones asked after them.
    #[test]
    fn resumed_tests_ask_what_the_uninterrupted_ones_asked() {
        let mut rng = Rng::new(37);
        for round in 0..5_000u64 {
            let edge = 1 + rng.range(0, 2000) as i64;
            let v = rng.range(0, 2 * edge as u64) as i64 - edge;
            let guess = rng.range(0, 2 * edge as u64) as i64 - edge;
            let answer = oracle(v, round);
            let start = Tests::new(-edge, edge, guess);
            let mut asked = Vec::new();
            let mut states = vec![start];
            let mut tests = start;
            while let Some(beta) = tests.next() {
                asked.push(beta);
                tests.update(beta, answer(beta));
                states.push(tests);
            }
            for (k, known) in states.iter().enumerate() {
                let mut resumed = start.knowing(known.lo, known.hi);
                let mut rest = Vec::new();
                while let Some(beta) = resumed.next() {
                    rest.push(beta);
                    resumed.update(beta, answer(beta));
                }
                assert_eq!(rest, asked[k..], "round {round}, resumed after {k} tests");
                assert_eq!(resumed.lo, v);
            }
        }
    }
}

//! The root: the engines' tie-break layer, its candidates tested as jobs
//! (see the module docs of `jobs`, "The root").

use std::cmp::Reverse;
use std::collections::VecDeque;

use super::tree::{shallow, Parent, Test};
use super::{Driver, SplitAnswer};
use crate::game::{Board, Move, Player, Twins};
use crate::search::root::RootValue;
use crate::search::{narrowed, Tests};
use crate::store::Proven;

/// The root's shallow search is this many plies shorter than the solve.
const ROOT_ORDER_SHORT: u32 = 12;

/// How many results ahead a root candidate's tests are asked for workers
/// that would idle otherwise ([`Driver::ask_spare`]): up to 255 tests of
/// one value at once. On 1024 simulated workers sharing a table, a
/// 22-empty 5x5 solve's critical path was 2.74 s asking none, 1.50 s
/// asking 3 results ahead, 1.28 s 4, 0.84 s 6 and 0.60 s 8, against a
/// direct solve of 52.3 s; on 16 and 64 workers, which idle less, 6 and 8
/// asked the same (`profiles/2026-11-27-vm/root-spare.txt`).
const SPARE_RESULTS: u32 = 8;

/// What a root candidate is waiting for.
#[derive(Clone, Copy, Debug)]
pub(super) enum Candidate {
    /// Not started.
    Idle,
    /// A null-window test at its bar ([`Driver::bar`]): at most the bar,
    /// and it is not chosen; above, and it needs its exact value.
    Probe,
    /// Its exact value, by tests.
    Exact(Tests),
    /// Waits for the first move's value to tell what it still needs, or
    /// for a worker to take it (see `Root::pending`).
    Waiting,
    /// Settled.
    Done,
}

/// The root: the engines' tie-break layer, with tests as jobs.
#[derive(Debug)]
pub(super) struct Root {
    pub(super) canon: Vec<Move>,
    pub(super) twins: Twins,
    pub(super) cands: Vec<Move>,
    pub(super) order: Vec<usize>,
    pub(super) known: Vec<RootValue>,
    pub(super) state: Vec<Candidate>,
    /// What the tests so far proved of each candidate's value.
    pub(super) bounds: Vec<(i64, i64)>,
    pub(super) best: Option<(i64, usize)>,
    /// Candidates not settled.
    pub(super) open: usize,
    /// Each candidate's tests out: their thresholds (for the root player)
    /// and nodes.
    pub(super) out: Vec<Vec<(i64, usize)>>,
    /// Candidates waiting for a worker, in search order: each is tested
    /// against its bar when a worker takes it ([`Driver::bar`]), not when
    /// the first move was settled, as a direct solve's threads take the
    /// root's moves one at a time. Where many moves beat the first, the
    /// later ones then meet a higher bar: on a 22-empty 5x5 solve on two
    /// workers, fixing every bar at once cost 3x the direct solve's nodes.
    pub(super) pending: VecDeque<usize>,
}

impl Driver {
    /// Orders the root and tests its first candidate.
    pub(super) fn start(&mut self) {
        // The root's order and prediction come from a search 12 plies
        // shallower (the same parity: a depth-limited score swings with
        // it), as the direct solve's do; it costs well under 1% of the
        // solve.
        let depth = match self.plies.checked_sub(ROOT_ORDER_SHORT) {
            Some(d) if d > self.settings.order_plies => d,
            _ => self.settings.order_plies.min(self.plies - 1),
        };
        let (guesses, nodes) = shallow(&self.root_board, self.root_player, depth);
        self.stats.nodes += nodes;
        let guesses = self.root.twins.distinct(&guesses);
        let mut order: Vec<usize> = (0..self.root.cands.len()).collect();
        order.sort_by_key(|&i| (Reverse(guesses[i]), i));
        let mut guess = guesses[order[0]];
        if let Some(hint) = self.settings.hint {
            if let Some(at) = order.iter().position(|&i| self.root.cands[i] == hint.best) {
                let i = order.remove(at);
                order.insert(0, i);
                guess = hint.value;
            }
        }
        self.root.order = order;
        let first = self.root.order[0];
        let guess = guess.clamp(-self.edge + 1, self.edge);
        // Not from what the store knows of it, unlike the direct solve: the
        // speculative tests below must be the ones an earlier run asked,
        // and they are asked while the first move's value is unknown.
        self.run_exact(first, Tests::new(-self.edge, self.edge, guess));
        if self.settings.speculate {
            // As if the first move were worth its prediction.
            let rest = self.root.order[1..].to_vec();
            for i in rest {
                let alpha = if i < first { guess - 1 } else { guess };
                self.root.state[i] = Candidate::Probe;
                self.root_test(i, alpha + 1);
            }
        }
        self.pump();
    }

    /// Values of every legal move of `board` (canonical order, bounds
    /// where alpha-beta proved no more) from a shallow search, to order
    /// by, with its nodes. Without room for one, all zero.
    pub(super) fn shallow(&self, board: &Board, p: Player, plies: u32) -> (Vec<i64>, u64) {
        shallow(
            board,
            p,
            self.settings.order_plies.min(plies.saturating_sub(1)),
        )
    }

    /// What the store holds of root candidate `i`'s value (for the root
    /// player): a killed solve's finished tests, which the tests of its
    /// exact value go on from (`search/narrowing.rs`).
    pub(super) fn known(&self, i: usize) -> (i64, i64) {
        let mut board = self.root_board.clone();
        board.make(self.root.cands[i], self.root_player);
        self.store
            .get(&board, self.root_player.other(), self.plies - 1)
            .map_or((-self.edge, self.edge), |p| (-p.hi, -p.lo))
    }

    /// Root candidate `i`'s next tests for its exact value (see
    /// [`Settings::ahead`]), or the value. Its tests out that what is known
    /// has decided are cancelled: all of them once the value is known.
    pub(super) fn run_exact(&mut self, i: usize, tests: Tests) {
        let decided = |beta: i64| beta <= tests.lo || beta > tests.hi;
        let (drop, keep) = std::mem::take(&mut self.root.out[i])
            .into_iter()
            .partition(|&(beta, _)| decided(beta));
        self.root.out[i] = keep;
        for (_, id) in drop {
            self.kill(id);
        }
        let (lo, hi) = &mut self.root.bounds[i];
        (*lo, *hi) = ((*lo).max(tests.lo), (*hi).min(tests.hi));
        if tests.next().is_none() {
            return self.settle_exact(i, tests.lo);
        }
        self.root.state[i] = Candidate::Exact(tests);
        // With `ahead`, the tests after either outcome of the next too.
        let wanted = tests.ahead(if self.settings.ahead { 2 } else { 1 });
        for beta in wanted.concat() {
            if !self.root.out[i].iter().any(|&(b, _)| b == beta) {
                self.root_test(i, beta);
            }
        }
    }

    /// Tests root candidate `i` at `beta` (its value for the root player):
    /// the child position's test at `1 - beta`.
    pub(super) fn root_test(&mut self, i: usize, beta: i64) {
        let mut board = Box::new(self.root_board.clone());
        board.make(self.root.cands[i], self.root_player);
        self.root.out[i].push((beta, self.nodes.len()));
        self.root_tests += 1;
        self.spawn(
            Test {
                board: Some(board),
                player: self.root_player.other(),
                plies: self.plies - 1,
                beta: 1 - beta,
                depth: 1,
                parent: Parent::Root(i),
            },
            self.root_tests - 1,
        );
    }

    pub(super) fn settle_exact(&mut self, i: usize, v: i64) {
        let root = &mut self.root;
        root.bounds[i] = (v, v);
        root.known[i] = RootValue::Exact(v);
        root.state[i] = Candidate::Done;
        root.open -= 1;
        self.stats.root_done += 1;
        let first = root.best.is_none();
        if root
            .best
            .is_none_or(|(bv, bi)| v > bv || (v == bv && i < bi))
        {
            root.best = Some((v, i));
        }
        if first {
            // Every other candidate, as workers come free (`take_jobs`):
            // what it still needs against the best value then.
            let rest = self.root.order[1..].to_vec();
            for j in rest {
                if matches!(self.root.state[j], Candidate::Idle | Candidate::Waiting) {
                    self.root.state[j] = Candidate::Waiting;
                    self.root.pending.push_back(j);
                }
            }
        }
        self.check_answer();
    }

    /// The bar root candidate `i` must clear to be chosen, from what the
    /// tests have proved of the others: `i` is not chosen if its value is
    /// at most this, since some other candidate `k` is then proved worth
    /// more (`lo_k - 1` when `k` comes after `i`) or as much and comes
    /// before it (`lo_k`, the tie-break). None before the first candidate
    /// is settled: until then every other waits (or tests against the
    /// prediction, [`Settings::speculate`](super::Settings::speculate)).
    fn bar(&self, i: usize) -> Option<i64> {
        self.root.best?;
        let others = self.root.bounds.iter().enumerate().filter(|&(k, _)| k != i);
        others
            .map(|(k, &(lo, _))| if k < i { lo } else { lo - 1 })
            .max()
    }

    /// What root candidate `i` still needs, from what its tests proved and
    /// the bar the others' proofs set now ([`bar`](Driver::bar)): nothing
    /// if it cannot clear it, its exact value if it has, else a test at the
    /// bar.
    ///
    /// Its tests out at or below the bar can no longer settle it: one that
    /// fails still sets it aside, one that passes leaves the test at the
    /// bar to ask. While every worker has a job they are cancelled, so the
    /// test at the bar gets a worker. While the last hand-out left some
    /// idle they run on beside it: they cost nothing then, and cancelled
    /// at every rise of the bar a test starts again at every rise. On
    /// 1024 simulated workers sharing a table, a 22-empty 5x5 solve took
    /// 4.42 s cancelling them always and 2.74 s this way; on 16 workers
    /// both took 6.16 s (`profiles/2026-11-27-vm/root-bars.txt`).
    pub(super) fn decide(&mut self, i: usize) {
        let Some(alpha) = self.bar(i) else {
            self.root.state[i] = Candidate::Waiting;
            return;
        };
        if !self.idle {
            let (below, keep) = std::mem::take(&mut self.root.out[i])
                .into_iter()
                .partition(|&(beta, _)| beta <= alpha);
            self.root.out[i] = keep;
            for (_, id) in below {
                self.kill(id);
            }
        }
        let (lo, hi) = self.root.bounds[i];
        if hi <= alpha {
            for (_, id) in std::mem::take(&mut self.root.out[i]) {
                self.kill(id);
            }
            self.root.known[i] = RootValue::AtMost(hi);
            self.root.state[i] = Candidate::Done;
            self.root.open -= 1;
            self.stats.root_done += 1;
            self.check_answer();
        } else if lo > alpha {
            if !matches!(self.root.state[i], Candidate::Exact(_)) {
                let (klo, khi) = self.known(i);
                self.run_exact(i, Tests::new(lo, hi, lo + 1).knowing(klo, khi));
            }
        } else {
            self.root.state[i] = Candidate::Probe;
            if !self.root.out[i].iter().any(|&(beta, _)| beta == alpha + 1) {
                self.root_test(i, alpha + 1);
            }
        }
    }

    /// Each candidate being tested, decided again against the bars the
    /// latest proofs set ([`decide`](Driver::decide)). Many run at once on
    /// many workers, each first tested against the best known when it
    /// started; as the others' proofs raise its bar, it is set aside as
    /// soon as it falls below, its tests below the bar are cancelled while
    /// no worker idles, and one that was finding its exact value goes back
    /// to a test at the bar once another is proved worth more. On a
    /// 22-empty 5x5 solve whose first move was far from the best, 4
    /// workers otherwise spent most of their excess on moves tested
    /// against the first move's value, long after better ones were known.
    fn rebar(&mut self) {
        if self.root.best.is_none() {
            // Only the first candidate is finding its value.
            return;
        }
        for i in 0..self.root.state.len() {
            if matches!(self.root.state[i], Candidate::Probe | Candidate::Exact(_)) {
                self.decide(i);
            }
        }
    }

    /// One more test of a root candidate's value for a worker that would
    /// idle otherwise (see [`Settings::spare`](super::Settings::spare)): a
    /// threshold its tests would ask within [`SPARE_RESULTS`] results,
    /// whatever those are ([`Tests::ahead`]); the nearest such threshold of
    /// any candidate first, candidates proved worth more first. False if
    /// none is left to ask.
    ///
    /// A candidate finding its exact value asks its own tests ahead; one
    /// tested at its bar asks the test at the bar and, in case it passes,
    /// the tests `decide` would ask then. Each is a sound bound whenever it
    /// comes back (the module docs of `jobs`, "Tests asked ahead"), and one
    /// that the others' results decide is cancelled, as any root test is.
    pub(super) fn ask_spare(&mut self) -> bool {
        let mut cands: Vec<usize> = (0..self.root.state.len()).collect();
        cands.sort_by_key(|&i| Reverse(self.root.bounds[i].0));
        // The nearest threshold not asked yet: (results ahead, candidate, threshold).
        let mut nearest: Option<(usize, usize, i64)> = None;
        for i in cands {
            let ahead = match self.root.state[i] {
                Candidate::Exact(tests) => tests.ahead(SPARE_RESULTS),
                Candidate::Probe => {
                    let Some(bar) = self.bar(i) else { continue };
                    let passed = Tests::new(bar + 1, self.root.bounds[i].1, bar + 2);
                    let mut ahead = vec![vec![bar + 1]];
                    ahead.extend(passed.ahead(SPARE_RESULTS - 1));
                    ahead
                }
                Candidate::Idle | Candidate::Waiting | Candidate::Done => continue,
            };
            let out = &self.root.out[i];
            let first = ahead.iter().enumerate().find_map(|(results, betas)| {
                let beta = betas.iter().find(|&&b| out.iter().all(|&(o, _)| o != b))?;
                Some((results, i, *beta))
            });
            if let Some(found) = first {
                // Ties go to the candidate proved worth more, met first.
                if nearest.is_none_or(|(results, _, _)| found.0 < results) {
                    nearest = Some(found);
                }
            }
        }
        let Some((_, i, beta)) = nearest else {
            return false;
        };
        self.root_test(i, beta);
        true
    }

    pub(super) fn check_answer(&mut self) {
        let root = &self.root;
        if root.open > 0 || self.answer.is_some() {
            return;
        }
        let (value, bi) = root.best.expect("every candidate is settled");
        self.answer = Some(SplitAnswer {
            best: root.cands[bi],
            value,
            moves: root
                .canon
                .iter()
                .copied()
                .zip(root.twins.spread(&root.known))
                .collect(),
        });
        self.store.record(
            &self.root_board,
            self.root_player,
            self.plies,
            Proven {
                lo: value,
                hi: value,
                best: Some(root.cands[bi]),
            },
            self.stats.nodes,
            0,
        );
    }

    /// Root candidate `i`'s test at `beta`, node `id`, came back with `t`
    /// (both for the root player).
    pub(super) fn root_result(&mut self, i: usize, id: usize, beta: i64, t: i64) {
        self.root.out[i].retain(|&(_, node)| node != id);
        self.root.bounds[i] = narrowed(self.root.bounds[i], beta, t);
        match self.root.state[i] {
            Candidate::Probe => self.decide(i),
            Candidate::Exact(mut tests) => {
                tests.update(beta, t);
                self.run_exact(i, tests);
            }
            Candidate::Idle | Candidate::Waiting | Candidate::Done => {}
        }
        self.rebar();
    }
}

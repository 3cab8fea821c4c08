//! The driver: the top of the game tree as tests waiting on jobs (the
//! argument for why its answer is the textbook one is in the module docs
//! of `jobs`).

use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::job::{test as search_test, Asked, Job, JobResult, Proved, Share};
use super::one_per_cell;
use crate::game::{legal_moves, Board, Move, Player, Twins};
use crate::search::root::{self, RootValue};
use crate::search::Tests;
use crate::store::{Proof, Proven, Store, StoreError};

/// How a solve is cut into jobs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Plies below the root where the tree is cut: every test that deep
    /// is a job. 1 makes one job per root test.
    pub split: u32,
    /// A test of this many plies or fewer is answered by the driver at
    /// once: it costs less than handing it out.
    pub inline_plies: u32,
    /// Depth of the shallow search that orders a node's children (the
    /// eldest is tested first, alone). 2 orders them as the engines do,
    /// by a move's gain net of the best reply, and the jobs' tables then
    /// hold what a direct solve's would: on one worker the 21-empty 5x5
    /// solve cut 3 plies down searched 1.007x the direct solve's nodes
    /// ordered 2 plies deep, 1.06x 6 plies, 1.19x 4 plies, 1.17x 8 plies
    /// (`profiles/2026-11-26-vm/job-table.txt`). The driver runs it alone
    /// while the workers wait, another reason to keep it shallow.
    pub order_plies: u32,
    /// Where proven bounds are kept; `None` keeps them in memory only.
    pub store: Option<Arc<Store>>,
    /// Test the other root moves against the first's predicted value while
    /// its exact value is still being found, rather than after: on many
    /// workers the root's tests then run side by side; a prediction that
    /// proves wrong costs some of them a second test. Off by default: on a
    /// 19-empty 5x5 solve it raised the simulated speedup on 256 workers
    /// from 1.5x to 2.1x (split 1) and 2.9x to 5.2x (split 2), for 1.4x
    /// and 1.7x to 2.5x the nodes, which a few workers pay in time.
    pub speculate: bool,
    /// A move believed best and its value (for the root player), from an
    /// earlier solve: that move is tested first, its first test at that
    /// value. Only the order and that threshold change, so the answer is
    /// the same whatever the hint; a right one leaves the least to prove
    /// (two tests for the move, one for each other), which is what a
    /// confirming run of a known answer wants. A move that is not one of
    /// the root's candidates (a Raid that flips nothing) is ignored.
    pub hint: Option<Hint>,
    /// At most this many of the driver's tests are answered by testing
    /// their children, over the whole solve; past that, a test that would
    /// be split is handed out as one job, which answers the same (see the
    /// module docs). It bounds the driver whatever the split: at most 26
    /// children each, so at most 27 times this many tests (each with its
    /// bound in the store, and its board, about 4 KiB, while it is open).
    /// A 21-empty 5x5 solve split 3 plies deep splits 216; the bound
    /// binds on deeper splits, which would make small jobs by the million.
    pub max_splits: usize,
    /// Test every child of a node at once where the ordering search
    /// predicts that all of them must be tested (its value below the
    /// node's bar), rather than the eldest first. The order of the tests
    /// never changes the answer (the module docs); a wrong prediction
    /// costs the children tested after one that would have ended the node
    /// (they are cancelled once it does), a right one lets the brothers
    /// start without waiting on the eldest's whole subtree.
    pub eager: bool,
    /// Nodes a job may search before it stops unanswered; the driver then
    /// tests that job's children instead, each a job of its own. Where the
    /// fixed [`split`](Settings::split) leaves a few jobs far longer than
    /// the rest (the eldest children on the first root move's line, which
    /// everything else waits on), this cuts them further, where they are,
    /// until every job is about this size: dynamic splitting, as DTS and
    /// Edax split deep nodes. A node answered by its children answers what
    /// its job would (the module docs), so this changes the jobs, never the
    /// answer. The stopped job's nodes are lost, but for what its worker's
    /// table keeps, so a job handed out behind a queue gets more: see
    /// `Driver::budget`. None (the default): no limit; the local runner,
    /// with one job at a time, has nothing to gain from one.
    pub job_nodes: Option<u64>,
    /// With every test of a root move's exact value, also ask the two
    /// tests the narrowing (`search/narrowing.rs`) would ask after either
    /// of its outcomes, so that on many workers the tests of one value run
    /// two at a time ahead instead of one after another. Each test is a
    /// sound bound whenever it comes back, and the value is known once the
    /// bounds meet, whatever tests proved them; a test the others have
    /// decided is cancelled. Off by default: it costs work that few
    /// workers pay in time.
    pub ahead: bool,
    /// Hand on, between the processes of a cluster, the proofs their
    /// searches make that `share` names (the top positions of each job,
    /// the costly ones, see [`Share`]): each job returns its new proofs with its result
    /// ([`JobResult::proofs`]), the driver keeps them in its store (and so
    /// in the file of a durable one), and a runner hands each process, with
    /// its next job, what it has not been told yet
    /// ([`Driver::proofs_since`], [`Job::known`]). Machines then stop
    /// proving again what another machine has proved. Exact as the store
    /// is (the module docs): each is a bound a sound search proved on the
    /// same position at the same plies. None (the default): nothing is
    /// handed on; threads of one process share their table anyway.
    pub share: Option<Share>,
}

/// See [`Settings::hint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move believed best.
    pub best: Move,
    /// Its value believed, for the root player.
    pub value: i64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            split: 3,
            inline_plies: 8,
            order_plies: 2,
            store: None,
            speculate: false,
            hint: None,
            max_splits: 4096,
            eager: false,
            job_nodes: None,
            ahead: false,
            share: None,
        }
    }
}

/// The answer of a split solve: what a direct solve answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitAnswer {
    /// The first move in canonical order with the maximal value.
    pub best: Move,
    /// Its exact value.
    pub value: i64,
    /// Every legal root move in canonical order with what is known of its
    /// value.
    pub moves: Vec<(Move, RootValue)>,
}

/// How far a split solve has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriverStats {
    /// Jobs whose results came back.
    pub done: u64,
    /// Jobs handed out, not yet back and still needed.
    pub running: u64,
    /// Jobs ready to hand out.
    pub queued: u64,
    /// Positions searched: by the jobs that came back, the ordering
    /// searches and the tests answered at once.
    pub nodes: u64,
    /// Tests settled by the store without a search.
    pub from_store: u64,
    /// Tests the driver answered itself: at the end of the game or too
    /// small to hand out.
    pub in_driver: u64,
    /// Tests answered by testing their children (see
    /// [`Settings::max_splits`]).
    pub splits: u64,
    /// Jobs that reached [`Settings::job_nodes`] and were split instead
    /// (counted in `done` too: they came back).
    pub stopped: u64,
    /// Root moves settled, of all the root's candidates.
    pub root_done: u64,
    /// The root's candidates (legal moves less the Raids that flip
    /// nothing).
    pub root_moves: u64,
}

impl DriverStats {
    /// How long the jobs known now (running and queued) would take at the
    /// pace jobs have come back so far, `elapsed` into the solve. Not a
    /// forecast of the solve: the driver makes jobs as it learns, and the
    /// root's later moves bring jobs of their own. None before the first
    /// job is back.
    pub fn known_left(&self, elapsed: std::time::Duration) -> Option<std::time::Duration> {
        let known = u32::try_from(self.running + self.queued).ok()?;
        let done = u32::try_from(self.done).ok().filter(|&d| d > 0)?;
        Some(elapsed / done * known)
    }
}

/// Whose test a node answers.
#[derive(Clone, Copy, Debug)]
enum Parent {
    /// A root candidate's, by index.
    Root(usize),
    /// Another node's child.
    Node(usize),
}

#[derive(Debug)]
enum Kind {
    /// Waiting for its job.
    Job,
    /// Testing its children.
    Split(Split),
    /// Answered (or dead).
    Done,
}

#[derive(Debug)]
struct Split {
    /// One child per empty cell, eldest first.
    children: Vec<Move>,
    /// The nodes testing them, as they are started.
    started: Vec<usize>,
    /// Children started whose tests have not come back.
    open: usize,
    /// The best value for the node among the children back so far.
    best: i64,
}

impl Split {
    /// Before its children are ordered.
    fn new() -> Split {
        Split {
            children: Vec::new(),
            started: Vec::new(),
            open: 0,
            best: i64::MIN,
        }
    }
}

/// One test `T(board, beta)` for `player` to move, `plies` deep, `depth`
/// plies below the root, asked by `parent`.
#[derive(Debug)]
struct Test {
    board: Option<Box<Board>>,
    player: Player,
    plies: u32,
    beta: i64,
    depth: u32,
    parent: Parent,
}

impl Test {
    /// The test of the child `mv` leads to: the same question from the
    /// other side (see the module docs).
    fn child(&self, mv: Move, parent: usize) -> Test {
        let mut board = Box::new(self.board().clone());
        board.make(mv, self.player);
        Test {
            board: Some(board),
            player: self.player.other(),
            plies: self.plies - 1,
            beta: 1 - self.beta,
            depth: self.depth + 1,
            parent: Parent::Node(parent),
        }
    }

    /// The position; only a released node (done, no job out) has none,
    /// and nothing asks a released node about its position.
    fn board(&self) -> &Board {
        self.board
            .as_deref()
            .expect("a node's board is kept while it is needed")
    }
}

/// A test and where it stands.
#[derive(Debug)]
struct Node {
    /// Its board goes (see [`Driver::release`]) once the node is done and
    /// no job of it is out: a board is about 4 KiB, a node without one a
    /// few dozen bytes, and the driver keeps every node it made.
    test: Test,
    /// False once its parent no longer needs it.
    alive: bool,
    kind: Kind,
    /// Where its job would rather run (see [`Job::home`]).
    home: u64,
    /// Where each test from the root down to it comes among its parent's
    /// (see [`Driver::spawn`]): the order a search on one thread would
    /// reach it in.
    path: Vec<u32>,
}

/// What a root candidate is waiting for.
#[derive(Clone, Copy, Debug)]
enum Candidate {
    /// Not started.
    Idle,
    /// A null-window test above `alpha`: at most alpha, and it is not
    /// chosen; above, and it needs its exact value.
    Probe { alpha: i64 },
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
struct Root {
    canon: Vec<Move>,
    twins: Twins,
    cands: Vec<Move>,
    order: Vec<usize>,
    known: Vec<RootValue>,
    state: Vec<Candidate>,
    /// What the tests so far proved of each candidate's value.
    bounds: Vec<(i64, i64)>,
    best: Option<(i64, usize)>,
    /// Candidates not settled.
    open: usize,
    /// Each candidate's tests out: their thresholds (for the root player)
    /// and nodes.
    out: Vec<Vec<(i64, usize)>>,
    /// Candidates waiting for a worker, in search order: each is tested
    /// against the best known when a worker takes it, not when the first
    /// move was settled, as a direct solve's threads take the root's moves
    /// one at a time. Where many moves beat the first, the later ones then
    /// meet a higher bar: on a 22-empty 5x5 solve on two workers, fixing
    /// every bar at once cost 3x the direct solve's nodes.
    pending: VecDeque<usize>,
}

/// A split solve in progress: hand out [`Driver::take_jobs`], give back
/// [`Driver::finish`], until [`Driver::answer`] has the answer.
pub struct Driver {
    plies: u32,
    edge: i64,
    settings: Settings,
    store: Arc<Store>,
    nodes: Vec<Node>,
    root_board: Board,
    root_player: Player,
    root: Root,
    /// Answered tests waiting to be passed up: `(node, t)`.
    events: VecDeque<(usize, i64)>,
    /// Jobs to hand out, by [`Node::path`]: see [`Driver::take_jobs`].
    queue: BTreeSet<(Vec<u32>, usize)>,
    running: HashSet<usize>,
    /// Root tests asked so far.
    root_tests: u32,
    stats: DriverStats,
    answer: Option<SplitAnswer>,
    /// Children in shallow-search order, per position and side to move.
    orders: HashMap<(String, char), Ordered>,
    /// Nodes of the jobs back so far (not the driver's own searches).
    job_nodes_back: u64,
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("plies", &self.plies)
            .field("stats", &self.stats())
            .finish()
    }
}

impl Driver {
    /// A split solve of `board`, `p` to move, `plies` deep (capped at the
    /// empty cells). Orders the root by a shallow search first.
    ///
    /// # Panics
    /// If the board is full.
    pub fn new(board: &Board, p: Player, plies: u32, settings: Settings) -> Driver {
        assert!(!board.is_full(), "a full board has no move");
        let plies = plies.clamp(1, board.empty_count());
        let store = settings
            .store
            .clone()
            .unwrap_or_else(|| Arc::new(super::memory_store(board)));
        let canon = legal_moves(board, p);
        let twins = Twins::new(board, p, &canon);
        let cands = twins.distinct(&canon);
        let mut driver = Driver {
            plies,
            edge: board.total(),
            store,
            nodes: Vec::new(),
            root_board: board.clone(),
            root_player: p,
            root: Root {
                state: vec![Candidate::Idle; cands.len()],
                known: vec![RootValue::AtMost(0); cands.len()],
                bounds: vec![(-board.total(), board.total()); cands.len()],
                out: vec![Vec::new(); cands.len()],
                open: cands.len(),
                order: Vec::new(),
                canon,
                twins,
                cands,
                best: None,
                pending: VecDeque::new(),
            },
            events: VecDeque::new(),
            queue: BTreeSet::new(),
            running: HashSet::new(),
            root_tests: 0,
            stats: DriverStats::default(),
            answer: None,
            orders: HashMap::new(),
            job_nodes_back: 0,
            settings,
        };
        driver.stats.root_moves = driver.root.cands.len() as u64;
        driver.start();
        driver
    }

    /// Up to `max` jobs to run now; when fewer are ready, the next root
    /// candidates are started for the rest. Starting one may settle it
    /// from what is known, and with it the answer: no jobs and an
    /// [`answer`](Driver::answer) mean done.
    ///
    /// They go in the order a search on one thread would reach them
    /// (depth first, each node's children in its order), not in the order
    /// they were made: when a node's eldest child is back, its brothers
    /// split in turn, each queueing its own eldest, and taken as made a
    /// few workers would run those eldest of every brother before the
    /// rest of the first brother that may end the node. On one worker the
    /// 21-empty 5x5 solve cut 3 plies down searched 1.50x the direct
    /// solve's nodes that way, 1.19x in this order (ordered 4 plies deep;
    /// `profiles/2026-11-26-vm/job-table.txt`).
    pub fn take_jobs(&mut self, max: usize) -> Vec<Job> {
        let mut jobs = Vec::new();
        let stats = self.stats();
        let ready = stats.queued as usize;
        let workers = (stats.running as usize).saturating_add(max);
        while jobs.len() < max {
            let Some((_, id)) = self.queue.pop_first() else {
                match self.root.pending.pop_front() {
                    Some(i) => {
                        if matches!(self.root.state[i], Candidate::Waiting) {
                            self.decide(i);
                        }
                        self.pump();
                        continue;
                    }
                    None => break,
                }
            };
            let node = &self.nodes[id];
            if !node.alive {
                continue;
            }
            self.running.insert(id);
            let t = &node.test;
            let mut job = Job::new(id as u64, t.board(), t.player, t.plies, t.beta);
            job.home = node.home;
            job.solve_plies = self.plies;
            job.share = self.settings.share;
            if self.stats.splits < self.settings.max_splits as u64 {
                let behind = ready.saturating_sub(jobs.len() + 1);
                job.most_nodes = self.budget(behind, workers);
            }
            jobs.push(job);
        }
        jobs
    }

    /// The budget of a job handed out with `behind` jobs still queued after
    /// it, on about `workers` workers: [`Settings::job_nodes`] plus the
    /// nodes each worker has queued for it at the mean size of the jobs
    /// back so far. A job is stopped so that an idle worker gets a share of
    /// its subtree; while the queue keeps every worker busy, no worker
    /// idles for want of it, and stopping it would only lose its nodes. So
    /// the budget grows with the queue: jobs handed out behind a long one
    /// run whole, and only the ones that outlast the queue are cut.
    fn budget(&self, behind: usize, workers: usize) -> Option<u64> {
        let base = self.settings.job_nodes?;
        let mean = self.job_nodes_back / self.stats.done.max(1);
        let queued = mean.saturating_mul(behind as u64) / workers.max(1) as u64;
        Some(base.saturating_add(queued))
    }

    /// Takes a job's result. A result for a job not running (given twice,
    /// or unknown) is ignored: a runner that retries may deliver twice.
    pub fn finish(&mut self, result: &JobResult) {
        let Ok(id) = usize::try_from(result.id) else {
            return;
        };
        if !self.running.remove(&id) {
            return;
        }
        self.stats.done += 1;
        self.stats.nodes += result.nodes;
        self.job_nodes_back += result.nodes;
        for proof in &result.proofs {
            self.store.record_proof(proof);
        }
        match result.value {
            Some(t) => {
                self.record(id, t, result.nodes, result.micros);
                self.events.push_back((id, t));
            }
            None => {
                self.take_children(id, &result.children);
                self.cut(id);
            }
        }
        self.pump();
    }

    /// Into the store: what node `id`'s stopped job proved of its children,
    /// which its split then finds settled (or bounded) there.
    fn take_children(&self, id: usize, proved: &[Proved]) {
        let test = &self.nodes[id].test;
        let board = test.board();
        for mv in one_per_cell(board, test.player) {
            let Some(p) = proved
                .iter()
                .find(|p| (p.row, p.col) == (mv.row(), mv.col()))
            else {
                continue;
            };
            if !(-self.edge <= p.lo && p.lo <= p.hi && p.hi <= self.edge) {
                continue;
            }
            let mut child = board.clone();
            child.make(mv, test.player);
            let proven = Proven {
                lo: p.lo,
                hi: p.hi,
                best: None,
            };
            let plies = test.plies - 1;
            self.store
                .record(&child, test.player.other(), plies, proven, 0, 0);
        }
    }

    /// Node `id`'s job stopped at its budget of nodes: its children are
    /// tested instead, or, once the driver has split as many tests as it
    /// may, the job goes out again without a budget.
    fn cut(&mut self, id: usize) {
        self.stats.stopped += 1;
        if !self.nodes[id].alive {
            self.release(id);
        } else if self.stats.splits >= self.settings.max_splits as u64 {
            self.queue.insert((self.nodes[id].path.clone(), id));
        } else {
            self.stats.splits += 1;
            self.nodes[id].kind = Kind::Split(Split::new());
            self.split(id);
        }
    }

    /// The bounds the driver's store gained since the `from`-th change, and
    /// where to ask from next time: what a runner hands a process that was
    /// told everything up to `from` (see [`Settings::share`]).
    pub fn proofs_since(&self, from: usize) -> (Vec<Proof>, usize) {
        self.store.proofs_since(from)
    }

    /// The answer, once every root move is settled.
    pub fn answer(&self) -> Option<&SplitAnswer> {
        self.answer.as_ref()
    }

    /// Jobs handed out whose tests are no longer needed: a runner may
    /// cancel them (their results are still welcome).
    pub fn unneeded(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .running
            .iter()
            .filter(|&&id| !self.nodes[id].alive)
            .map(|&id| id as u64)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// How far it has got.
    pub fn stats(&self) -> DriverStats {
        DriverStats {
            // Not the jobs out that are no longer needed: the runners
            // cancel or drop them, and their results, if any come, change
            // nothing.
            running: self
                .running
                .iter()
                .filter(|&&id| self.nodes[id].alive)
                .count() as u64,
            queued: self
                .queue
                .iter()
                .filter(|&&(_, id)| self.nodes[id].alive)
                .count() as u64,
            ..self.stats
        }
    }

    /// The first write to the store that failed, if any.
    pub fn store_failure(&self) -> Option<StoreError> {
        self.store.failure()
    }

    /// Orders the root and tests its first candidate.
    fn start(&mut self) {
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
                self.root.state[i] = Candidate::Probe { alpha };
                self.root_test(i, alpha + 1);
            }
        }
        self.pump();
    }

    /// Values of every legal move of `board` (canonical order, bounds
    /// where alpha-beta proved no more) from a shallow search, to order
    /// by, with its nodes. Without room for one, all zero.
    fn shallow(&self, board: &Board, p: Player, plies: u32) -> (Vec<i64>, u64) {
        shallow(
            board,
            p,
            self.settings.order_plies.min(plies.saturating_sub(1)),
        )
    }

    /// What the store holds of root candidate `i`'s value (for the root
    /// player): a killed solve's finished tests, which the tests of its
    /// exact value go on from (`search/narrowing.rs`).
    fn known(&self, i: usize) -> (i64, i64) {
        let mut board = self.root_board.clone();
        board.make(self.root.cands[i], self.root_player);
        self.store
            .get(&board, self.root_player.other(), self.plies - 1)
            .map_or((-self.edge, self.edge), |p| (-p.hi, -p.lo))
    }

    /// Root candidate `i`'s next tests for its exact value (see
    /// [`Settings::ahead`]), or the value. Its tests out that what is known
    /// has decided are cancelled: all of them once the value is known.
    fn run_exact(&mut self, i: usize, tests: Tests) {
        let decided = |beta: i64| beta <= tests.lo || beta > tests.hi;
        let (drop, keep) = std::mem::take(&mut self.root.out[i])
            .into_iter()
            .partition(|&(beta, _)| decided(beta));
        self.root.out[i] = keep;
        for (_, id) in drop {
            self.kill(id);
        }
        let Some(beta) = tests.next() else {
            return self.settle_exact(i, tests.lo);
        };
        self.root.state[i] = Candidate::Exact(tests);
        let mut wanted = vec![beta];
        if self.settings.ahead {
            // After a fail high at `beta` (`t = beta`) and a fail low
            // (`t = beta - 1`).
            for t in [beta, beta - 1] {
                let mut after = tests;
                after.update(beta, t);
                wanted.extend(after.next());
            }
        }
        for beta in wanted {
            if !self.root.out[i].iter().any(|&(b, _)| b == beta) {
                self.root_test(i, beta);
            }
        }
    }

    /// Tests root candidate `i` at `beta` (its value for the root player):
    /// the child position's test at `1 - beta`.
    fn root_test(&mut self, i: usize, beta: i64) {
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

    fn settle_exact(&mut self, i: usize, v: i64) {
        let root = &mut self.root;
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

    /// What root candidate `i` still needs, from what its tests proved and
    /// the best known now: nothing if it cannot beat it, its exact value if
    /// it does, else a test against it.
    fn decide(&mut self, i: usize) {
        let Some((bv, bi)) = self.root.best else {
            self.root.state[i] = Candidate::Waiting;
            return;
        };
        // A move before the best wins a tie, so it needs `v >= bv`, that is
        // `v > bv - 1`; a move after it needs `v > bv`.
        let alpha = if i < bi { bv - 1 } else { bv };
        let (lo, hi) = self.root.bounds[i];
        if hi <= alpha {
            self.root.known[i] = RootValue::AtMost(hi);
            self.root.state[i] = Candidate::Done;
            self.root.open -= 1;
            self.stats.root_done += 1;
            self.check_answer();
        } else if lo > alpha {
            let (klo, khi) = self.known(i);
            self.run_exact(i, Tests::new(lo, hi, lo + 1).knowing(klo, khi));
        } else {
            self.root.state[i] = Candidate::Probe { alpha };
            self.root_test(i, alpha + 1);
        }
    }

    fn check_answer(&mut self) {
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
    fn root_result(&mut self, i: usize, id: usize, beta: i64, t: i64) {
        self.root.out[i].retain(|&(_, node)| node != id);
        match self.root.state[i] {
            Candidate::Probe { alpha } => {
                let (lo, hi) = &mut self.root.bounds[i];
                if t > alpha {
                    *lo = (*lo).max(t);
                } else {
                    *hi = (*hi).min(t);
                }
                self.decide(i);
            }
            Candidate::Exact(mut tests) => {
                tests.update(beta, t);
                self.run_exact(i, tests);
            }
            Candidate::Idle | Candidate::Waiting | Candidate::Done => {}
        }
    }

    /// A new test node; it answers at once where it can (end of the game,
    /// the store, a test too small to hand out), else becomes a job or
    /// tests its eldest child. `place` is where it comes among its
    /// parent's tests: its child's place in the parent's order, or, for a
    /// root test, how many root tests were asked before it.
    fn spawn(&mut self, test: Test, place: u32) -> usize {
        let id = self.nodes.len();
        let (board, player, plies, beta, depth) =
            (test.board(), test.player, test.plies, test.beta, test.depth);
        let path = match test.parent {
            Parent::Root(_) => vec![place],
            Parent::Node(parent) => {
                let mut path = self.nodes[parent].path.clone();
                path.push(place);
                path
            }
        };
        let immediate = if plies == 0 || board.is_full() {
            self.stats.in_driver += 1;
            Some(board.score(player))
        } else if let Some(t) = self.store.settle(board, player, plies, beta - 1, beta) {
            self.stats.from_store += 1;
            Some(t)
        } else if plies <= self.settings.inline_plies {
            let asked = Asked {
                plies,
                beta,
                most_nodes: None,
                solve_plies: self.plies,
                share: None,
            };
            let answered = search_test(board, player, asked, false);
            self.stats.nodes += answered.nodes;
            self.stats.in_driver += 1;
            answered.value
        } else {
            None
        };
        // A test handed out as one job answers what its children's tests
        // would (see the module docs), so cutting the tree higher once
        // the driver has split `max_splits` tests changes the jobs, never
        // the answer.
        let kind = match immediate {
            Some(t) => {
                self.events.push_back((id, t));
                Kind::Done
            }
            None if depth >= self.settings.split
                || self.stats.splits >= self.settings.max_splits as u64 =>
            {
                self.queue.insert((path.clone(), id));
                Kind::Job
            }
            None => Kind::Split(Split::new()),
        };
        let split = matches!(kind, Kind::Split(_));
        self.stats.splits += u64::from(split);
        let done = matches!(kind, Kind::Done);
        let home = match test.parent {
            // Below the cut only a stopped job's children: its table holds
            // their subtrees.
            Parent::Node(parent) if depth > self.settings.split => self.nodes[parent].home,
            // The same position, asked again at another window, goes where
            // its last search left its subtree: the board's Zobrist hash,
            // fixed from run to run, so a resumed solve and a simulation
            // send jobs where they went before.
            _ => board.hash(),
        };
        self.nodes.push(Node {
            test,
            alive: true,
            kind,
            home,
            path,
        });
        if split {
            self.split(id);
        } else if done {
            // Its answer waits in `events`; nothing asks its position again.
            self.nodes[id].test.board = None;
        }
        id
    }

    /// Orders node `id`'s children and tests the eldest, or all of them
    /// where [`Settings::eager`] and the ordering predicts they all fail high.
    fn split(&mut self, id: usize) {
        let (board, player, plies, beta) = {
            let t = &self.nodes[id].test;
            (t.board().clone(), t.player, t.plies, t.beta)
        };
        let Ordered { children, value } = self.ordered_children(&board, player, plies);
        let len = children.len();
        let Kind::Split(split) = &mut self.nodes[id].kind else {
            unreachable!("split is only called on a splitting node");
        };
        split.children = children;
        let all = self.settings.eager && value < beta;
        self.start_children(id, 0..if all { len } else { 1 });
    }

    /// `board`'s children (one per empty cell), best first by a shallow
    /// search. Kept per position: the root's tests ask about the same
    /// positions again and again, at other windows.
    fn ordered_children(&mut self, board: &Board, player: Player, plies: u32) -> Ordered {
        let key = (board.cells_text(), player.symbol());
        if let Some(ordered) = self.orders.get(&key) {
            return ordered.clone();
        }
        let canon = legal_moves(board, player);
        let (values, nodes) = self.shallow(board, player, plies);
        self.stats.nodes += nodes;
        let mut children: Vec<(Move, i64, usize)> = one_per_cell(board, player)
            .into_iter()
            .enumerate()
            .map(|(k, mv)| {
                let v = canon
                    .iter()
                    .position(|&m| m == mv)
                    .map_or(0, |at| values[at]);
                (mv, v, k)
            })
            .collect();
        children.sort_by_key(|&(_, v, k)| (Reverse(v), k));
        let ordered = Ordered {
            value: children.first().map_or(0, |&(_, v, _)| v),
            children: children.into_iter().map(|(mv, _, _)| mv).collect(),
        };
        if self.orders.len() >= MAX_ORDERS {
            self.orders.clear();
        }
        self.orders.insert(key, ordered.clone());
        ordered
    }

    fn start_children(&mut self, id: usize, range: std::ops::Range<usize>) {
        for k in range {
            let node = &self.nodes[id];
            let Kind::Split(split) = &node.kind else {
                return;
            };
            let child = node.test.child(split.children[k], id);
            if let Kind::Split(split) = &mut self.nodes[id].kind {
                split.open += 1;
            }
            let cid = self.spawn(child, k as u32);
            if let Kind::Split(split) = &mut self.nodes[id].kind {
                split.started.push(cid);
            }
        }
    }

    /// Passes answered tests up until none is left.
    fn pump(&mut self) {
        while let Some((id, t)) = self.events.pop_front() {
            self.release(id);
            if !self.nodes[id].alive {
                continue;
            }
            match self.nodes[id].test.parent {
                Parent::Root(i) => {
                    let beta = 1 - self.nodes[id].test.beta;
                    self.root_result(i, id, beta, -t);
                }
                Parent::Node(pid) => self.child_result(pid, -t),
            }
        }
    }

    /// A child of `pid` came back worth `v` to `pid`'s player.
    fn child_result(&mut self, pid: usize, v: i64) {
        let node = &mut self.nodes[pid];
        if !node.alive {
            return;
        }
        let beta = node.test.beta;
        let Kind::Split(split) = &mut node.kind else {
            return;
        };
        split.open -= 1;
        if v > split.best {
            split.best = v;
        }
        if v >= beta {
            // The child failed low: the node's value is at least v.
            let started = std::mem::take(&mut split.started);
            for cid in started {
                self.kill(cid);
            }
            self.resolve(pid, v);
            return;
        }
        let (eldest_back, len, open, best) = (
            split.started.len() == 1,
            split.children.len(),
            split.open,
            split.best,
        );
        if eldest_back && len > 1 {
            self.start_children(pid, 1..len);
        } else if open == 0 {
            self.resolve(pid, best);
        }
    }

    /// Node `id` answered `t`: into the store, then up.
    fn resolve(&mut self, id: usize, t: i64) {
        self.record(id, t, 0, 0);
        self.events.push_back((id, t));
    }

    fn record(&self, id: usize, t: i64, nodes: u64, micros: u64) {
        let test = &self.nodes[id].test;
        let proven = Proven::from_search(t, test.beta - 1, test.beta, self.edge, None);
        self.store
            .record(test.board(), test.player, test.plies, proven, nodes, micros);
    }

    /// Node `id` and everything under it are no longer needed.
    fn kill(&mut self, id: usize) {
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            let node = &mut self.nodes[id];
            if !node.alive {
                continue;
            }
            node.alive = false;
            if let Kind::Split(split) = &node.kind {
                stack.extend(split.started.iter().copied());
            }
            self.release(id);
        }
    }

    /// Node `id` is answered or no longer needed: it drops its children's
    /// list and, unless its job is out (a late result still goes to the
    /// store), its board.
    fn release(&mut self, id: usize) {
        let node = &mut self.nodes[id];
        node.kind = Kind::Done;
        if !self.running.contains(&id) {
            node.test.board = None;
        }
    }
}

/// A position's children in the order they are tested, and the value
/// the shallow search that ordered them gives the position.
#[derive(Clone, Debug)]
struct Ordered {
    children: Vec<Move>,
    value: i64,
}

/// Orders kept for positions tested again at other windows; forgotten all
/// at once past this many (the cache is what repeats, not what is right).
const MAX_ORDERS: usize = 1 << 16;

/// The root's shallow search is this many plies shorter than the solve.
const ROOT_ORDER_SHORT: u32 = 12;

/// Values of every legal move of `board` (canonical order, bounds where
/// alpha-beta proved no more) from a search `depth` plies deep, to order
/// by, with its nodes. With no depth, all zero.
fn shallow(board: &Board, p: Player, depth: u32) -> (Vec<i64>, u64) {
    if depth == 0 {
        return (vec![0; legal_moves(board, p).len()], 0);
    }
    let r = root::alphabeta(board, p, depth, false);
    (r.moves.iter().map(|(_, v)| v.bound()).collect(), r.nodes)
}

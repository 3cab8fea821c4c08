//! The driver: the top of the game tree as tests waiting on jobs (the
//! argument for why its answer is the textbook one is in the module docs
//! of `jobs`). Each concern has its file: `settings.rs` how a solve is
//! cut and what is handed on, `root_moves.rs` the root's candidates and
//! their tests, `tree.rs` the nodes below them; here, the hand-out of jobs
//! and the taking back of their results.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::job::{Job, JobResult, Proved};
use super::one_per_cell;
use crate::game::{legal_moves, Board, Move, Player, Twins};
use crate::search::root::RootValue;
use crate::store::{Proof, Proven, Store, StoreError};

mod root_moves;
mod settings;
mod tree;

use root_moves::{Candidate, Root};
pub use settings::{Hint, Settings};
use tree::{Kind, Node, Ordered, Split};

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
    /// Tests answered by testing their children, over the solve (see
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
    /// Proofs the jobs brought back of their searches (see
    /// [`Settings::share`]).
    pub proofs: u64,
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
    /// Split nodes whose younger brothers may start before the eldest is
    /// back, by [`Node::path`] (see [`Settings::spare`]).
    brothers: BTreeSet<(Vec<u32>, usize)>,
    /// The last hand-out left a worker without a job, or gave one a root
    /// test asked only for want of other work ([`Driver::ask_spare`]): a
    /// test no longer needed then costs no other test its worker (see
    /// `Driver::decide`).
    idle: bool,
    /// Tests being answered by their children now: what
    /// [`Settings::max_splits`] bounds.
    open_splits: usize,
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
            brothers: BTreeSet::new(),
            idle: true,
            open_splits: 0,
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
        self.take(&[max]).into_iter().map(|(_, job)| job).collect()
    }

    /// [`take_jobs`](Driver::take_jobs) for a runner with several tables
    /// (one per machine), `idle[t]` workers idle on table `t`: each job
    /// comes with the table to run it on. A job goes to its home's table
    /// (`home % idle.len()`, see [`Job::home`]) where that has an idle
    /// worker, the first in the usual order among those that can. The
    /// rest wait for a worker of their home while any job runs, which
    /// will free one; only when none runs does the first go to another
    /// table, so that the solve always goes on. A job's tests at other
    /// windows and a stopped job's children then find the table its
    /// earlier searches filled, where taken in order half of them ran
    /// elsewhere (a 21-empty solve on 64 workers in machines of 16). Sent
    /// to another table whenever their home had no idle worker, 1089 of
    /// the 5558 jobs of a 22-empty solve on 64 simulated workers in
    /// machines of 16 ran away from home, and 5539 of 12090 on 128; its
    /// workers searched 4.74x and 11.0x the direct solve's nodes and took
    /// 4.41 s and 5.46 s; waiting, 4.00x and 6.15x, in 4.35 s and 4.18 s
    /// (`profiles/2026-11-27-vm/home-wait.txt`). Only the order of the
    /// jobs and their tables change, and the answer is the same whatever
    /// the order (the module docs of `jobs`).
    pub fn take_jobs_for(&mut self, idle: &[usize]) -> Vec<(usize, Job)> {
        self.take(idle)
    }

    fn take(&mut self, idle: &[usize]) -> Vec<(usize, Job)> {
        let mut free = idle.to_vec();
        let max: usize = free.iter().sum();
        let tables = free.len().max(1) as u64;
        let home = |node: &Node| (node.home % tables) as usize;
        let mut jobs = Vec::new();
        let mut spared = false;
        let stats = self.stats();
        let ready = stats.queued as usize;
        let running = stats.running as usize;
        let workers = running.saturating_add(max);
        while jobs.len() < max {
            let at_home = (free.len() > 1)
                .then(|| {
                    self.queue
                        .iter()
                        .find(|&&(_, id)| self.nodes[id].alive && free[home(&self.nodes[id])] > 0)
                        .cloned()
                })
                .flatten();
            let next = match at_home {
                Some(key) => self.queue.take(&key),
                // The rest wait for their home while a job runs to free it.
                None if free.len() > 1
                    && running + jobs.len() > 0
                    && self.queue.iter().any(|&(_, id)| self.nodes[id].alive) =>
                {
                    break
                }
                None => self.queue.pop_first(),
            };
            let Some((_, id)) = next else {
                match self.root.pending.pop_front() {
                    None if self.start_a_brother() => continue,
                    Some(i) => {
                        if matches!(self.root.state[i], Candidate::Waiting) {
                            self.decide(i);
                        }
                        self.pump();
                        continue;
                    }
                    None if self.settings.spare && self.ask_spare() => {
                        spared = true;
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
            if self.can_split() {
                let behind = ready.saturating_sub(jobs.len() + 1);
                job.most_nodes = self.budget(behind, workers);
            }
            // Some table has room: fewer jobs are taken than `free` sums to.
            let table = match home(node) {
                t if free[t] > 0 => t,
                _ => (0..free.len()).max_by_key(|&t| free[t]).expect("a table"),
            };
            free[table] -= 1;
            jobs.push((table, job));
        }
        self.idle = spared || jobs.len() < max;
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
            self.stats.proofs += u64::from(self.store.record_proof(proof));
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
    /// tested instead, or, while the driver has as many tests split as it
    /// may, the job goes out again without a budget.
    fn cut(&mut self, id: usize) {
        self.stats.stopped += 1;
        if !self.nodes[id].alive {
            self.release(id);
        } else if !self.can_split() {
            self.queue.insert((self.nodes[id].path.clone(), id));
        } else {
            self.stats.splits += 1;
            self.open_splits += 1;
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

    /// Positions the driver searched itself: its ordering searches and
    /// the tests it answered at once, not its jobs'.
    pub fn own_nodes(&self) -> u64 {
        self.stats.nodes - self.job_nodes_back
    }

    /// The first write to the store that failed, if any.
    pub fn store_failure(&self) -> Option<StoreError> {
        self.store.failure()
    }
}

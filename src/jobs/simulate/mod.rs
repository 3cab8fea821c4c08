//! What a split solve would take on a cluster, from its jobs' measured
//! durations.
//!
//! The model: the driver runs against a clock of its own, and its work
//! counts in full, since it is sequential. Each of `workers` workers runs
//! one job at a time on one thread; a job handed out goes to an idle
//! worker (see the tables below), is answered for real, here, on that
//! worker's table, and takes on the clock the time it took here plus the
//! cluster's latency (hand-out to start, end to result).
//! A job the driver finds unneeded while it runs is cancelled, as the
//! runners cancel it: its worker is free at once and only the part it ran
//! counts as work; so do the jobs still running when the answer is known.
//! The makespan is then the critical path the driver's order allows on
//! that many workers, and the summed job time the total work, speculative
//! jobs included.
//!
//! Tables: the workers of one process share one, kept from job to job
//! (threads: the local runner, or a cluster node running its jobs in one
//! process); processes each keep their own (a Ray task per CPU). So the
//! workers are cut into groups of `per_table`, each sharing a table. The
//! driver picks the jobs for the tables with idle workers
//! ([`Driver::take_jobs_for`]: a job on its home's table where it can, see
//! [`Job::home`](super::Job::home)), each to the worker idle longest
//! there, as the per-node Ray runner asks for them.
//! With [`Settings::share`], each table has a store of its own too
//! (a process's, see `Job::known`), and a job takes to its worker what the
//! driver holds of the other tables' proofs when it is handed out, and
//! brings back its own with its result: what a job sees and when is what
//! a runner that hands proofs on with the jobs gives it.
//! Tables are kept up to [`Simulator::tables_bytes`] in all, the least
//! recently used dropped beyond it, so the model of many small groups is
//! pessimistic there: a real process would still hold its table.
//!
//! On the measured clock a table answers its jobs one after another, each
//! to its end, in the order they were handed out: a job sees all that the
//! ones before it stored, even those that on the cluster still run beside
//! it, and a cancelled job leaves its whole search. On a table shared by
//! many workers that is far too kind: 16 real threads on one table
//! searched twice the nodes it predicted
//! (`profiles/2026-11-27-vm/simulator-check-shared-table.txt`). On the
//! nodes clock the jobs are paced instead (the `paced` module): each is
//! searched here only as far as the clock has gone, the jobs of a table
//! taking turns on it, and a cancelled job stops where the cluster stops
//! it, so that it costs here, and leaves in its table, what it searched
//! there.
//!
//! Here, with [`Simulator::cores`] above one, jobs of different tables are
//! answered side by side, each table's in the order they were handed out.
//! The clock needs a job's result only when it reaches the job's end, and
//! no job ends before its start plus the latency (plus, on the measured
//! clock, the time it has been answered for so far). So the clock moves on
//! to the next known end as soon as every job still being answered is sure
//! to end later: the events come in the order one core takes them, and
//! each table sees the same jobs in the same order. On the measured clock
//! the jobs are then timed while another runs beside them (two one-thread
//! solves side by side run about 4% slower each on a 2-core machine); on
//! the nodes clock ([`JobClock::Nodes`]) a simulation is the same on any
//! number of cores, and from run to run.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

use super::driver::{Driver, Settings, SplitAnswer};
use super::job::{release_kept, run_job_kept, JobError, JobResult};
use crate::game::{Board, Player};
use crate::search::Deadline;

mod paced;
mod tables;

use paced::{Gate, Paced};
use tables::{Lent, Tables};

/// Memory the simulated tables may take together by default.
pub const TABLE_BUDGET: usize = 4 << 30;

/// The cluster a split solve is simulated on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Workers, each running one job at a time on one thread.
    pub workers: usize,
    /// Workers sharing one table (threads of one process): 1 where each
    /// worker is a process of its own, `workers` where all are threads of
    /// one; the last group may be smaller.
    pub per_table: usize,
    /// Microseconds a job spends outside its search: from the driver
    /// handing it out to its start, and from its end to the driver holding
    /// its result (a Ray task's overhead).
    pub latency_us: u64,
}

impl Cluster {
    /// `workers` threads of one process sharing a table, with no latency.
    pub fn threads(workers: usize) -> Cluster {
        Cluster {
            workers,
            per_table: workers,
            latency_us: 0,
        }
    }

    /// Workers sharing one table, within 1 and the workers.
    fn per_table(&self) -> usize {
        self.per_table.clamp(1, self.workers.max(1))
    }

    /// The tables (the machines): groups of `per_table` workers, the last
    /// maybe smaller.
    pub fn tables(&self) -> usize {
        self.workers.max(1).div_ceil(self.per_table())
    }
}

/// How a simulation runs here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simulator {
    /// Jobs answered at once, each on a thread of its own (see the module
    /// docs).
    pub cores: usize,
    /// How long a job takes on the cluster's clock.
    pub clock: JobClock,
    /// Memory the workers' tables may take together here: beyond it the
    /// least recently used are dropped (the module docs).
    pub tables_bytes: usize,
    /// On the nodes clock, how far the horizon moves at most at a time, in
    /// microseconds: a job is searched here at most this much past the
    /// point where it is cancelled, and the jobs of a table take turns of
    /// this much. Each move holds and lets go every job under way (tens
    /// of microseconds each here), so it is also what pacing costs.
    pub stretch_us: u64,
}

impl Default for Simulator {
    /// One core, measured time, [`TABLE_BUDGET`], stretches of a
    /// millisecond.
    fn default() -> Simulator {
        Simulator {
            cores: 1,
            clock: JobClock::Measured,
            tables_bytes: TABLE_BUDGET,
            stretch_us: 1000,
        }
    }
}

/// How long a job, or the driver's own work, takes on the simulated clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobClock {
    /// The wall time it took here, each job answered to its end (optimistic
    /// on shared tables: see the module docs).
    Measured,
    /// Its nodes at this pace a microsecond, rounded up: the same whatever
    /// else the machine runs, so the same simulation from run to run and
    /// on any number of cores. Blind to what a node costs: a deep node's
    /// table probe and a last ply's count alike. The jobs are paced.
    Nodes {
        /// Nodes a microsecond, at least one.
        per_us: u64,
    },
}

impl JobClock {
    /// Nodes a microsecond, on the nodes clock: its jobs are paced.
    fn pace(self) -> Option<u64> {
        match self {
            JobClock::Measured => None,
            JobClock::Nodes { per_us } => Some(per_us.max(1)),
        }
    }

    /// What work that took `micros` here and searched `nodes` takes.
    fn took(self, micros: u64, nodes: u64) -> u64 {
        match self {
            JobClock::Measured => micros,
            JobClock::Nodes { per_us } => nodes.div_ceil(per_us.max(1)),
        }
    }
}

/// One simulated split solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Simulated {
    /// The answer (the direct solve's).
    pub answer: SplitAnswer,
    /// The cluster simulated.
    pub cluster: Cluster,
    /// Simulated wall time in microseconds: jobs on the workers, and the
    /// driver's own work between them.
    pub makespan_us: u64,
    /// Summed job time in microseconds (latency not included).
    pub work_us: u64,
    /// Of it, the driver's own work (shallow ordering searches, tests too
    /// small to hand out).
    pub driver_us: u64,
    /// Jobs run.
    pub jobs: u64,
    /// Of them, the ones cancelled before they ended.
    pub cancelled: u64,
    /// Of them, the ones that reached their budget of nodes and were split
    /// (see [`Settings::job_nodes`]).
    pub stopped: u64,
    /// Of the job time, what the cancelled jobs ran before they were.
    pub cancelled_us: u64,
    /// Of the job time, what the stopped jobs ran: lost but for what their
    /// tables keep.
    pub stopped_us: u64,
    /// Nodes of the jobs whose results came back and of the driver's own
    /// searches: what the driver counts, as a real runner's does.
    pub nodes: u64,
    /// Nodes searched in all: `nodes`, and what the jobs taken off their
    /// workers (cancelled, or still running at the answer) searched before
    /// they were, the share of their nodes that the part of their time
    /// they ran is. The work a cluster pays for; on many workers the
    /// cancelled jobs' part is a large share of it.
    pub searched: u64,
    /// Nodes searched here to simulate it: the driver's, and every job's
    /// to its end, a cancelled one's too on the measured clock (where many
    /// jobs are cancelled, far more than `searched`: 1.9x on 64 workers
    /// for 21 and 22 empty cells), about as far as it ran when paced (the
    /// module docs).
    pub here: u64,
    /// Proofs handed to the workers with their jobs (see
    /// `Settings::share`), counted once per worker's table told.
    pub handed: u64,
    /// Jobs run on a table other than their home's (see `Job::home`), for
    /// want of an idle worker there.
    pub away: u64,
}

/// A job on a worker: when it was handed out, and, once answered here, its
/// result and how long it takes on the clock.
struct Running {
    id: u64,
    start: u64,
    worker: usize,
    answered: Option<(JobResult, u64)>,
    /// When its answering began and ended here, once they have.
    here: Arc<Here>,
    /// On the nodes clock: how far it may be searched so far.
    paced: Option<Paced>,
}

/// When a job's answering began and ended here: a job that has begun and
/// not ended is sure to take at least the time since it began.
#[derive(Default)]
pub(super) struct Here {
    began: OnceLock<Instant>,
    ended: OnceLock<Instant>,
}

/// A job taken off its worker before it was answered here, at `clock`.
struct Cancelled {
    r: Running,
    clock: u64,
    unneeded: bool,
}

/// What a job being answered here tells the simulation.
enum Event {
    /// It is held at its gate (paced).
    Held {
        slot: usize,
    },
    Answered(Answered),
}

/// A job answered here.
struct Answered {
    slot: usize,
    id: u64,
    /// Err: the job's thread panicked, with this payload.
    result: std::thread::Result<Result<JobResult, JobError>>,
    micros: u64,
}

/// Simulates the split solve of `board` (`p` to move, `plies` deep) on
/// `cluster`, on one core, on the measured clock.
pub fn simulate(
    board: &Board,
    p: Player,
    plies: u32,
    settings: Settings,
    cluster: Cluster,
) -> Simulated {
    Simulator::default().simulate(board, p, plies, settings, cluster)
}

impl Simulator {
    /// Simulates the split solve of `board` (`p` to move, `plies` deep) on
    /// `cluster`.
    pub fn simulate(
        &self,
        board: &Board,
        p: Player,
        plies: u32,
        settings: Settings,
        cluster: Cluster,
    ) -> Simulated {
        // The driver's own searches run on the process's kept table: start
        // it afresh, so that a simulation does not depend on what ran
        // before it in the process.
        release_kept();
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let mut sim = Simulation {
                how: *self,
                latency: cluster.latency_us,
                clock: 0,
                horizon: 0,
                driver_us: 0,
                running: Vec::new(),
                cancelled: Vec::new(),
                out: 0,
                events: tx.clone(),
                rx,
                answer: |lent: Lent, gate: Option<Arc<Gate>>| {
                    let tx = tx.clone();
                    scope.spawn(move || {
                        let Lent {
                            slot,
                            job,
                            kept,
                            here,
                        } = lent;
                        let deadline = gate.map_or_else(Deadline::none, |g| g.deadline());
                        let began = *here.began.get_or_init(Instant::now);
                        // A panic goes to the simulation's thread, which
                        // would otherwise wait for this answer for ever.
                        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                            run_job_kept(&job, &kept, deadline)
                        }));
                        let ended = *here.ended.get_or_init(Instant::now);
                        let micros = ended.duration_since(began).as_micros() as u64;
                        // The receiver is gone only if the simulation
                        // panicked, which the scope reports.
                        let _ = tx.send(Event::Answered(Answered {
                            slot,
                            id: job.id,
                            result,
                            micros,
                        }));
                    });
                },
                tables: Tables::new(
                    cluster.per_table(),
                    cluster.tables(),
                    self.tables_bytes,
                    self.clock.pace().is_some(),
                ),
                stats: Stats::default(),
            };
            sim.run(board, p, plies, settings, cluster)
        })
    }
}

/// What the simulation counts as it goes.
#[derive(Default)]
struct Stats {
    work_us: u64,
    jobs: u64,
    cancelled: u64,
    cancelled_us: u64,
    stopped_us: u64,
    /// Nodes the jobs taken off their workers searched before they were.
    cut_short_nodes: u64,
    /// Nodes the jobs searched here.
    here_nodes: u64,
    handed: u64,
    away: u64,
}

/// One simulation under way: the clock, the jobs on the workers, and the
/// jobs being answered here.
struct Simulation<F> {
    how: Simulator,
    latency: u64,
    clock: u64,
    /// Paced: how far on the clock every job has been searched here.
    horizon: u64,
    driver_us: u64,
    /// Jobs on the workers, in the order they were handed out.
    running: Vec<Running>,
    /// Jobs cancelled before they were answered here: their time counts
    /// once it is known.
    cancelled: Vec<Cancelled>,
    /// Jobs being answered here now (paced: not held).
    out: usize,
    events: mpsc::Sender<Event>,
    rx: mpsc::Receiver<Event>,
    answer: F,
    tables: Tables,
    stats: Stats,
}

impl<F> Drop for Simulation<F> {
    /// Lets the held jobs' searches go, stopped, so that a simulation that
    /// fails does not wait for them for ever.
    fn drop(&mut self) {
        for r in &self.running {
            if let Some(gate) = r.paced.as_ref().and_then(|p| p.gate.as_ref()) {
                gate.cancel();
            }
        }
    }
}

impl<F: FnMut(Lent, Option<Arc<Gate>>)> Simulation<F> {
    fn run(
        &mut self,
        board: &Board,
        p: Player,
        plies: u32,
        settings: Settings,
        cluster: Cluster,
    ) -> Simulated {
        let workers = cluster.workers.max(1);
        let sharing = settings.share.is_some();
        let timed = Instant::now();
        let mut driver = Driver::new(board, p, plies, settings);
        self.driver_spent(timed, driver.own_nodes());
        let mut idle: VecDeque<usize> = (0..workers).collect();
        while driver.answer().is_none() {
            let counts = self.tables.idle_per_table(&idle);
            // Taking jobs may order a node's children: the driver's work.
            let (timed, before) = (Instant::now(), driver.own_nodes());
            let taken = driver.take_jobs_for(&counts);
            self.driver_spent(timed, driver.own_nodes() - before);
            for (table, mut job) in taken {
                let (worker, home) = self.tables.take_on(&mut idle, table, job.home);
                self.stats.away += u64::from(!home);
                if sharing {
                    // What the driver holds now reaches the worker with the
                    // job, as a runner hands it on.
                    let timed = Instant::now();
                    let told = self.tables.told(worker);
                    (job.known, *told) = driver.proofs_since(*told);
                    self.stats.handed += job.known.len() as u64;
                    self.driver_spent(timed, 0);
                }
                let here = Arc::new(Here::default());
                let id = job.id;
                let paced = self
                    .tables
                    .hand(worker, job, here.clone())
                    .map(|job| Paced {
                        job: Some(job),
                        gate: None,
                        allowed: 0,
                    });
                self.running.push(Running {
                    id,
                    start: self.clock,
                    worker,
                    answered: None,
                    here,
                    paced,
                });
                self.stats.jobs += 1;
            }
            if driver.answer().is_some() {
                break;
            }
            let done = match self.how.clock.pace() {
                Some(per_us) => self.next_to_end_paced(per_us),
                None => self.next_to_end(),
            };
            let (result, took) = done.answered.expect("the next to end is answered");
            self.clock = self.clock.max(done.start + self.latency + took);
            idle.push_back(done.worker);
            self.stats.work_us += took;
            if result.value.is_none() {
                self.stats.stopped_us += took;
            }
            let (timed, before) = (Instant::now(), driver.own_nodes());
            driver.finish(&result);
            let unneeded = driver.unneeded();
            self.driver_spent(timed, driver.own_nodes() - before);
            self.keep_up();
            // Cancelled: the worker is free now, and only what ran is work.
            let clock = self.clock;
            let (gone, kept) = std::mem::take(&mut self.running)
                .into_iter()
                .partition(|r| unneeded.contains(&r.id));
            self.running = kept;
            for r in gone {
                idle.push_back(r.worker);
                self.stats.cancelled += 1;
                self.cancel(r, clock, true);
            }
        }
        // The runners cancel what still runs once the answer is known.
        self.keep_up();
        let clock = self.clock;
        for r in std::mem::take(&mut self.running) {
            self.cancel(r, clock, false);
        }
        while !self.cancelled.is_empty() || self.out > 0 {
            self.start_answers();
            self.take_event();
        }
        Simulated {
            answer: driver
                .answer()
                .cloned()
                .expect("the loop ends with the answer"),
            cluster: Cluster { workers, ..cluster },
            makespan_us: self.clock,
            work_us: self.stats.work_us,
            driver_us: self.driver_us,
            jobs: self.stats.jobs,
            cancelled: self.stats.cancelled,
            stopped: driver.stats().stopped,
            cancelled_us: self.stats.cancelled_us,
            stopped_us: self.stats.stopped_us,
            nodes: driver.stats().nodes,
            searched: driver.stats().nodes + self.stats.cut_short_nodes,
            here: driver.own_nodes() + self.stats.here_nodes,
            handed: self.stats.handed,
            away: self.stats.away,
        }
    }

    /// Moves the clock on by the driver's own work, begun at `timed`, in
    /// which it searched `nodes` itself.
    fn driver_spent(&mut self, timed: Instant, nodes: u64) {
        let micros = timed.elapsed().as_micros() as u64;
        let spent = self.how.clock.took(micros, nodes);
        self.clock += spent;
        self.driver_us += spent;
    }

    /// Counts what job `r`, cancelled at `clock`, ran (with the cancelled
    /// jobs' time where the driver found it `unneeded`, rather than done
    /// with): now if it has been answered here or is paced, else once it
    /// is answered.
    fn cancel(&mut self, r: Running, clock: u64, unneeded: bool) {
        if let (None, Some(paced), Some(per_us)) = (&r.answered, &r.paced, self.how.clock.pace()) {
            // Held past the horizon, which is past `clock` (see `keep_up`),
            // or not begun by it: it ran until `clock`, and would have run
            // longer.
            let ran = clock.saturating_sub(r.start + self.latency);
            self.stats.work_us += ran;
            self.stats.cut_short_nodes += ran * per_us;
            if unneeded {
                self.stats.cancelled_us += ran;
            }
            if let Some(gate) = &paced.gate {
                // It unwinds on no turn of its table: a stopped search
                // stores nothing.
                gate.cancel();
                self.out += 1;
            }
            return;
        }
        let c = Cancelled { r, clock, unneeded };
        let answered = c.r.answered.as_ref();
        match answered.map(|(result, took)| (*took, result.nodes)) {
            Some((took, nodes)) => self.count_cancelled(&c, took, nodes),
            None => self.cancelled.push(c),
        }
    }

    /// `took` and `nodes`: what the whole job takes on the clock, and its
    /// nodes.
    fn count_cancelled(&mut self, c: &Cancelled, took: u64, nodes: u64) {
        let ran = c.clock.saturating_sub(c.r.start + self.latency).min(took);
        self.stats.work_us += ran;
        self.stats.cut_short_nodes += if ran >= took {
            nodes
        } else {
            (u128::from(nodes) * u128::from(ran) / u128::from(took)) as u64
        };
        if c.unneeded {
            self.stats.cancelled_us += ran;
        }
    }

    /// Of the jobs answered here, the one to end first on the clock (the
    /// earlier id on a tie): its end, id and place in `running`.
    fn first_known_end(&self) -> Option<(u64, u64, usize)> {
        self.running
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let (_, took) = r.answered.as_ref()?;
                Some((r.start + self.latency + took, r.id, i))
            })
            .min()
    }

    /// Takes off the workers the job to end next (the earlier id first on
    /// a tie), answering jobs here until it is known which that is.
    fn next_to_end(&mut self) -> Running {
        loop {
            self.start_answers();
            let next = self.first_known_end();
            // What a job not answered yet is sure to take, on the measured
            // clock: the time since it began here, and whether that still
            // grows (it has not ended; `now` is read before `ended`, so a
            // job that ends meanwhile is not taken for a longer one).
            let now = Instant::now();
            let measured = self.how.clock == JobClock::Measured;
            let so_far = |r: &Running| match r.here.began.get() {
                Some(&began) if measured => {
                    let ended = r.here.ended.get();
                    let upto = ended.copied().unwrap_or(now);
                    (
                        upto.duration_since(began).as_micros() as u64,
                        ended.is_none(),
                    )
                }
                _ => (0, false),
            };
            let mut wait = Some(Duration::ZERO);
            if let Some((end, _, i)) = next {
                for r in self.running.iter().filter(|r| r.answered.is_none()) {
                    let (ran, growing) = so_far(r);
                    let least = r.start + self.latency + ran;
                    if least > end {
                        continue;
                    }
                    // Wait until it would have to end after `end`, or for
                    // its answer where time alone cannot tell.
                    wait = match wait {
                        Some(w) if growing => Some(w.max(Duration::from_micros(end - least + 1))),
                        _ => None,
                    };
                }
                if wait == Some(Duration::ZERO) {
                    return self.running.swap_remove(i);
                }
            } else {
                wait = None;
            }
            match wait {
                Some(w) => {
                    if let Ok(e) = self.rx.recv_timeout(w) {
                        self.take(e);
                    }
                }
                None => {
                    assert!(self.out > 0, "a driver without an answer waits on a job");
                    self.take_event();
                }
            }
        }
    }

    /// Paced: takes off the workers the job to end next (the earlier id
    /// first on a tie), once every job has been searched as far as the
    /// horizon allows and one ends by it: the jobs still searching are
    /// held past it, and would end later.
    fn next_to_end_paced(&mut self, per_us: u64) -> Running {
        assert!(
            !self.running.is_empty(),
            "a driver without an answer waits on a job"
        );
        self.horizon = self.horizon.max(self.clock);
        loop {
            self.catch_up(per_us);
            let next = self.first_known_end();
            self.horizon = match next {
                // `remove`, not `swap_remove`: the tables' turns go in the
                // order the jobs were handed out.
                Some((end, _, i)) if end <= self.horizon => return self.running.remove(i),
                Some((end, ..)) => end.min(self.horizon + self.how.stretch_us.max(1)),
                None => self.horizon + self.how.stretch_us.max(1),
            };
        }
    }

    /// Paced: moves the horizon on to the clock, so that every job under
    /// way has been searched as far as the cluster had searched it by
    /// now: the driver's own work took the clock past it.
    fn keep_up(&mut self) {
        if let Some(per_us) = self.how.clock.pace() {
            self.horizon = self.horizon.max(self.clock);
            self.catch_up(per_us);
        }
    }

    /// Paced: searches every job here as far as the horizon allows, the
    /// jobs of each table one at a time, in the order they were handed
    /// out, on up to `cores` tables at once.
    fn catch_up(&mut self, per_us: u64) {
        let horizon = self.horizon;
        let mut behind = vec![VecDeque::new(); self.tables.len()];
        for (i, r) in self.running.iter().enumerate() {
            let (None, Some(paced)) = (&r.answered, &r.paced) else {
                continue;
            };
            let allowed = horizon.saturating_sub(r.start + self.latency) * per_us;
            if allowed > paced.allowed {
                behind[self.tables.slot(r.worker)].push_back((i, allowed));
            }
        }
        let mut ready: VecDeque<usize> = (0..behind.len()).collect();
        loop {
            while self.out < self.how.cores.max(1) {
                let Some(slot) = ready.pop_front() else {
                    break;
                };
                if self.tables.is_lent(slot) {
                    continue;
                }
                if let Some((i, allowed)) = behind[slot].pop_front() {
                    if !self.let_go(i, allowed) {
                        // Still held: the table's next job's turn.
                        ready.push_front(slot);
                    }
                }
            }
            if self.out == 0 {
                return;
            }
            if let Some(slot) = self.take_event() {
                if !behind[slot].is_empty() {
                    ready.push_back(slot);
                }
            }
        }
    }

    /// Paced: lets the job at `i` in `running` search on to `allowed`
    /// nodes, its search started if it had not: true if it searches now,
    /// false if it had already searched more and stays held.
    fn let_go(&mut self, i: usize, allowed: u64) -> bool {
        let r = &mut self.running[i];
        let slot = self.tables.slot(r.worker);
        let paced = r.paced.as_mut().expect("a paced job");
        paced.allowed = allowed;
        let goes = match &paced.gate {
            Some(gate) => gate.go(allowed),
            None => {
                let gate = Gate::new(slot, allowed, self.events.clone());
                let lent = Lent {
                    slot,
                    job: paced.job.take().expect("a job not started yet"),
                    kept: self.tables.table(slot),
                    here: r.here.clone(),
                };
                paced.gate = Some(gate.clone());
                (self.answer)(lent, Some(gate));
                true
            }
        };
        if goes {
            self.tables.lend_to(slot);
            self.out += 1;
        }
        goes
    }

    /// Waits for what a job being answered tells, and takes it in: the
    /// table it frees, if it frees one.
    fn take_event(&mut self) -> Option<usize> {
        let e = self
            .rx
            .recv()
            .expect("the simulation holds a sender itself");
        self.take(e)
    }

    /// Takes in what a job being answered tells: the table it frees, if
    /// it frees one.
    fn take(&mut self, e: Event) -> Option<usize> {
        match e {
            Event::Held { slot } => {
                self.out -= 1;
                self.tables.give_back(slot);
                Some(slot)
            }
            Event::Answered(a) => self.take_answer(a),
        }
    }

    /// Starts answering the jobs whose tables are free, the earliest
    /// handed out first, on as many threads as there are cores.
    fn start_answers(&mut self) {
        while self.out < self.how.cores.max(1) {
            let Some(lent) = self.tables.lend() else {
                break;
            };
            self.out += 1;
            (self.answer)(lent, None);
        }
    }

    /// A job's answer: its time is known, and its table goes back (the
    /// table it frees, if it took one: a paced job cancelled while held
    /// unwinds on none).
    fn take_answer(&mut self, a: Answered) -> Option<usize> {
        self.out -= 1;
        let result = a
            .result
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let mut result = result.expect("the driver's jobs are valid");
        result.micros = a.micros;
        let took = self.how.clock.took(a.micros, result.nodes);
        self.stats.here_nodes += result.nodes;
        if let Some(r) = self.running.iter_mut().find(|r| r.id == a.id) {
            r.answered = Some((result, took));
        } else if let Some(at) = self.cancelled.iter().position(|c| c.r.id == a.id) {
            let c = self.cancelled.swap_remove(at);
            self.count_cancelled(&c, took, result.nodes);
        } else {
            return None;
        }
        self.tables.give_back(a.slot);
        Some(a.slot)
    }
}

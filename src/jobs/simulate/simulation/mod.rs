//! One simulation under way: the driver against the simulated clock, the
//! jobs on the workers, and the jobs being answered here (see the parent
//! module's docs for the model). Which job ends next is told apart by
//! clock: `measured` on the measured clock, `horizon` when paced.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{mpsc, Arc};
use std::time::Instant;

use super::events::{Answered, Event, Here};
use super::paced::{Gate, Paced};
use super::tables::{Lent, Tables};
use super::{Cluster, Simulated, Simulator};
use crate::game::{Board, Player};
use crate::jobs::driver::{Driver, Settings};
use crate::jobs::job::{release_kept, run_job_kept, JobResult};
use crate::search::Deadline;

mod horizon;
mod measured;

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

/// A job taken off its worker before it was answered here, at `clock`.
struct Cancelled {
    r: Running,
    clock: u64,
    unneeded: bool,
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

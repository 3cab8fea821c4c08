//! The simulated workers' tables: one per group of workers sharing a
//! process. On the measured clock each answers the jobs handed to it one
//! after another, in the order they were handed out, whatever thread
//! answers them; paced (see the `paced` module), its jobs take turns on it.

use std::collections::VecDeque;

use std::sync::Arc;

use parking_lot::Mutex;

use super::super::job::{Job, Kept};
use super::events::Here;

/// A process's kept engine, as a job's search takes it at its start.
pub(super) type Table = Arc<Mutex<Option<Kept>>>;

/// The tables, one per group of `per_table` workers, within `budget`
/// bytes.
pub(super) struct Tables {
    per_table: usize,
    budget: usize,
    /// Paced: the jobs are not queued here, and a table dropped goes at
    /// once (the jobs under way on it keep the engine they took).
    paced: bool,
    slots: Vec<Slot>,
    /// Jobs handed out so far: the order in which tables answer theirs.
    handed: u64,
}

struct Slot {
    /// None before its first job and once dropped.
    kept: Table,
    /// Lent to a job being answered: the slot's next job waits for it.
    lent: bool,
    /// What it still has to do, in the order it was told to.
    waiting: VecDeque<(u64, Task)>,
    /// How much of the driver's proofs it has been told (see
    /// `Settings::share`).
    told: usize,
    /// Its table's size once the jobs handed to it have run: a kept table
    /// grows to the largest job's, and the budget is kept to as jobs are
    /// handed out, in the clock's order, not as they happen to be answered.
    bytes: usize,
    /// When it was last handed a job.
    last: u64,
}

enum Task {
    Answer(Job, Arc<Here>),
    Drop,
}

/// A job to answer now, on its table.
pub(super) struct Lent {
    pub slot: usize,
    pub job: Job,
    pub kept: Table,
    /// Where its answering tells when it began and ended.
    pub here: Arc<Here>,
}

impl Tables {
    pub(super) fn new(per_table: usize, slots: usize, budget: usize, paced: bool) -> Tables {
        Tables {
            per_table,
            budget,
            paced,
            slots: (0..slots)
                .map(|_| Slot {
                    kept: Table::default(),
                    lent: false,
                    waiting: VecDeque::new(),
                    told: 0,
                    bytes: 0,
                    last: 0,
                })
                .collect(),
            handed: 0,
        }
    }

    /// How many of `idle` are on each table.
    pub(super) fn idle_per_table(&self, idle: &VecDeque<usize>) -> Vec<usize> {
        let mut counts = vec![0; self.slots.len()];
        for &w in idle {
            counts[self.slot(w)] += 1;
        }
        counts
    }

    /// The worker idle longest on table `slot`, for a job with home
    /// `home`; and whether that is its home's table.
    pub(super) fn take_on(
        &self,
        idle: &mut VecDeque<usize>,
        slot: usize,
        home: u64,
    ) -> (usize, bool) {
        let at = idle
            .iter()
            .position(|&w| self.slot(w) == slot)
            .expect("a table with an idle worker");
        let worker = idle.remove(at).expect("found just above");
        (worker, (home % self.slots.len() as u64) as usize == slot)
    }

    pub(super) fn slot(&self, worker: usize) -> usize {
        worker / self.per_table
    }

    /// Table `slot`'s engine.
    pub(super) fn table(&self, slot: usize) -> Table {
        self.slots[slot].kept.clone()
    }

    /// Tables in all.
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// How much of the driver's proofs `worker`'s table has been told.
    pub(super) fn told(&mut self, worker: usize) -> &mut usize {
        let slot = self.slot(worker);
        &mut self.slots[slot].told
    }

    /// Gives `job` to `worker`'s table, to answer after what it was given
    /// before (paced: the caller keeps it), and drops the least recently
    /// used other tables while all of them would take more than the budget.
    pub(super) fn hand(&mut self, worker: usize, job: Job, here: Arc<Here>) -> Option<Job> {
        let at = self.slot(worker);
        let need = job.table_bytes().unwrap_or(0);
        self.handed += 1;
        let slot = &mut self.slots[at];
        slot.bytes = slot.bytes.max(need);
        slot.last = self.handed;
        let unqueued = if self.paced {
            Some(job)
        } else {
            slot.waiting
                .push_back((self.handed, Task::Answer(job, here)));
            None
        };
        while self.slots.iter().map(|s| s.bytes).sum::<usize>() > self.budget {
            let oldest = (0..self.slots.len())
                .filter(|&i| i != at && self.slots[i].bytes > 0)
                .min_by_key(|&i| self.slots[i].last);
            let Some(i) = oldest else { break };
            // Its store goes with it: tell it everything again.
            let victim = &mut self.slots[i];
            if self.paced {
                *victim.kept.lock() = None;
            } else {
                victim.waiting.push_back((self.handed, Task::Drop));
            }
            victim.bytes = 0;
            victim.told = 0;
        }
        unqueued
    }

    /// The job handed out first of those whose tables are free, with its
    /// table, which stays lent until [`Tables::give_back`].
    pub(super) fn lend(&mut self) -> Option<Lent> {
        loop {
            let at = (0..self.slots.len())
                .filter(|&i| !self.slots[i].lent)
                .filter_map(|i| Some((self.slots[i].waiting.front()?.0, i)))
                .min()?
                .1;
            let slot = &mut self.slots[at];
            match slot.waiting.pop_front().map(|(_, task)| task) {
                Some(Task::Answer(job, here)) => {
                    slot.lent = true;
                    return Some(Lent {
                        slot: at,
                        job,
                        kept: slot.kept.clone(),
                        here,
                    });
                }
                Some(Task::Drop) => *slot.kept.lock() = None,
                None => unreachable!("a slot chosen for its waiting task"),
            }
        }
    }

    /// Lends table `slot` to a paced job that searches on it now.
    pub(super) fn lend_to(&mut self, slot: usize) {
        self.slots[slot].lent = true;
    }

    /// Whether table `slot` is lent.
    pub(super) fn is_lent(&self, slot: usize) -> bool {
        self.slots[slot].lent
    }

    /// Takes back a table lent with a job.
    pub(super) fn give_back(&mut self, slot: usize) {
        self.slots[slot].lent = false;
    }
}

//! The nodes clock: the horizon every paced job is searched up to, moved
//! a stretch at a time, the jobs of each table taking turns (the `paced`
//! module holds a job at its gate).

use std::collections::VecDeque;
use std::sync::Arc;

use super::{Running, Simulation};
use crate::jobs::simulate::paced::Gate;
use crate::jobs::simulate::tables::Lent;

impl<F: FnMut(Lent, Option<Arc<Gate>>)> Simulation<F> {
    /// Paced: takes off the workers the job to end next (the earlier id
    /// first on a tie), once every job has been searched as far as the
    /// horizon allows and one ends by it: the jobs still searching are
    /// held past it, and would end later.
    pub(super) fn next_to_end_paced(&mut self, per_us: u64) -> Running {
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
    pub(super) fn keep_up(&mut self) {
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
}

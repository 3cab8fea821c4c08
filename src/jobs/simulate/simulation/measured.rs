//! The measured clock: which job ends next, answering jobs here until it
//! is known, while the ones still being answered may yet end sooner.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Running, Simulation};
use crate::jobs::simulate::paced::Gate;
use crate::jobs::simulate::tables::Lent;
use crate::jobs::simulate::JobClock;

impl<F: FnMut(Lent, Option<Arc<Gate>>)> Simulation<F> {
    /// Takes off the workers the job to end next (the earlier id first on
    /// a tie), answering jobs here until it is known which that is.
    pub(super) fn next_to_end(&mut self) -> Running {
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
}

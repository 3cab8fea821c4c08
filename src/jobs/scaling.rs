//! How a simulated split solve compares with the direct solve: the one
//! definition of speedup and work that every row of `split_speedup` and
//! the last line of `scripts/scaling.sh` print, so that they cannot
//! disagree, and whether the position is too small for the workers asked
//! (a speedup far below the workers then says nothing of the driver).

use std::fmt;

use super::{Cluster, Simulated};

/// The direct one-thread solve a cluster is measured against: its time
/// (on the node clock, its nodes at the clock's pace) and its nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirectSolve {
    /// Seconds.
    pub seconds: f64,
    /// Nodes searched.
    pub nodes: u64,
}

/// A simulated cluster against the direct solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scaling {
    /// The direct solve's time over the simulated wall time.
    pub speedup: f64,
    /// The nodes the cluster searched in all ([`Simulated::searched`]: the
    /// cancelled jobs' up to their cancelling too) over the direct solve's.
    pub work: f64,
    /// Why the position is too small for the workers, if it is.
    pub too_small: Option<TooSmall>,
}

/// Why a position is too small for the workers asked: most of them have
/// nothing to do, whatever the driver does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TooSmall {
    /// Fewer jobs in all than workers: some never had one.
    FewerJobs {
        /// Jobs run.
        jobs: u64,
        /// Workers.
        workers: usize,
    },
    /// The direct solve shared out evenly among the workers gives each
    /// less than one job's time outside its search.
    ShareBelowLatency {
        /// The direct solve's time over the workers, in microseconds.
        share_us: f64,
        /// A job's time outside its search (see [`Cluster::latency_us`]).
        latency_us: u64,
    },
}

impl fmt::Display for TooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TooSmall::FewerJobs { jobs, workers } => write!(
                f,
                "too small for {workers} workers: {jobs} jobs in all, so some never had one"
            ),
            TooSmall::ShareBelowLatency {
                share_us,
                latency_us,
            } => write!(
                f,
                "too small for its workers: the direct solve shared among them is {:.2} ms each, less than a job's latency of {:.2} ms",
                share_us / 1e3,
                latency_us as f64 / 1e3
            ),
        }
    }
}

impl DirectSolve {
    /// `simulated` against this direct solve.
    pub fn against(&self, simulated: &Simulated) -> Scaling {
        self.against_counts(
            simulated.makespan_us,
            simulated.searched,
            simulated.jobs,
            simulated.cluster,
        )
    }

    /// A cluster that took `makespan_us` of wall time, searched `searched`
    /// nodes and ran `jobs` jobs, against this direct solve.
    pub fn against_counts(
        &self,
        makespan_us: u64,
        searched: u64,
        jobs: u64,
        cluster: Cluster,
    ) -> Scaling {
        let wall = makespan_us as f64 / 1e6;
        let share_us = self.seconds * 1e6 / cluster.workers.max(1) as f64;
        let too_small = if jobs < cluster.workers as u64 {
            Some(TooSmall::FewerJobs {
                jobs,
                workers: cluster.workers,
            })
        } else if share_us < cluster.latency_us as f64 {
            Some(TooSmall::ShareBelowLatency {
                share_us,
                latency_us: cluster.latency_us,
            })
        } else {
            None
        };
        Scaling {
            speedup: self.seconds / wall.max(1e-9),
            work: searched as f64 / self.nodes.max(1) as f64,
            too_small,
        }
    }
}

impl Scaling {
    /// The speedup as every row and line prints it: `7.1x`.
    pub fn speedup_text(&self) -> String {
        format!("{:.1}x", self.speedup)
    }

    /// The work as every row and line prints it: `1.20x`.
    pub fn work_text(&self) -> String {
        format!("{:.2}x", self.work)
    }

    /// The line `scripts/scaling.sh` ends with, less its critical path:
    /// `workers W per-machine M speedup S work K`, and where the position
    /// is too small for them, why.
    pub fn summary(&self, cluster: Cluster) -> String {
        let mut line = format!(
            "workers {} per-machine {} speedup {} work {}",
            cluster.workers,
            cluster.per_table,
            self.speedup_text(),
            self.work_text()
        );
        if let Some(why) = self.too_small {
            line.push_str(&format!(" ({why})"));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(workers: usize, per_table: usize) -> Cluster {
        Cluster {
            workers,
            per_table,
            latency_us: 3400,
        }
    }

    /// The 1024-worker row that printed 1.0x (over itself) against a
    /// 0.78 s direct solve, when it took 0.11 s: 7.1x, and said too small.
    #[test]
    fn speedup_is_over_the_direct_solve_in_row_and_line_alike() {
        let direct = DirectSolve {
            seconds: 0.78,
            nodes: 10_000_000,
        };
        let s = direct.against_counts(110_000, 12_000_000, 300, cluster(1024, 1024));
        assert_eq!(
            (s.speedup_text(), s.work_text()),
            ("7.1x".into(), "1.20x".into())
        );
        assert_eq!(
            s.too_small,
            Some(TooSmall::FewerJobs {
                jobs: 300,
                workers: 1024
            })
        );
        assert_eq!(
            s.summary(cluster(1024, 1024)),
            "workers 1024 per-machine 1024 speedup 7.1x work 1.20x (too small for 1024 workers: 300 jobs in all, so some never had one)"
        );
        // The same numbers, the same words: a row's columns are the line's.
        let line = s.summary(cluster(1024, 1024));
        assert!(line.contains(&format!(
            "speedup {} work {}",
            s.speedup_text(),
            s.work_text()
        )));
    }

    /// A cluster slower than the direct solve says so (0.7x), and a
    /// position with enough jobs but a share per worker below a job's
    /// latency is too small too.
    #[test]
    fn a_slower_cluster_and_a_thin_share() {
        let direct = DirectSolve {
            seconds: 0.78,
            nodes: 1_000,
        };
        let s = direct.against_counts(1_114_286, 1_500, 5_000, cluster(256, 16));
        assert_eq!(s.speedup_text(), "0.7x");
        assert_eq!(
            s.too_small,
            Some(TooSmall::ShareBelowLatency {
                share_us: 0.78e6 / 256.0,
                latency_us: 3400
            })
        );
        let big = DirectSolve {
            seconds: 146.49,
            nodes: 9_522_114_405,
        };
        let s = big.against_counts(8_980_000, 34_563_732_713, 4090, cluster(256, 16));
        assert_eq!(
            s.summary(cluster(256, 16)),
            "workers 256 per-machine 16 speedup 16.3x work 3.63x"
        );
    }
}

//! How a split solve is cut into jobs and what its runners hand on.

use std::sync::Arc;

use super::super::job::Share;
use crate::game::Move;
use crate::store::Store;

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
    /// their children at once; past that, a test that would be split is
    /// handed out as one job, which answers the same (see the module
    /// docs). It bounds the driver whatever the split: at most 26 children
    /// each, so at most 27 times this many tests open (each with its board,
    /// about 4 KiB). A 21-empty 5x5 solve split 3 plies deep splits 216 in
    /// all; the bound binds on deeper splits, which would make small jobs
    /// by the million. Splits answered or no longer needed leave room for
    /// new ones: counted over the whole solve, the bound ran out on a
    /// 22-empty solve on 128 simulated workers, whose root tests asked
    /// ahead split and were cancelled by the hundred, and the root's later
    /// tests went out whole, each a job of 21 plies.
    pub max_splits: usize,
    /// Test every child of a node at once where the ordering search
    /// predicts that all of them must be tested (its value below the
    /// node's bar), rather than the eldest first. The order of the tests
    /// never changes the answer (the module docs); a wrong prediction
    /// costs the children tested after one that would have ended the node
    /// (they are cancelled once it does), a right one lets the brothers
    /// start without waiting on the eldest's whole subtree.
    pub eager: bool,
    /// As [`eager`](Settings::eager), but a brother starts before the
    /// eldest is back only when the runner asks for more jobs than are
    /// queued and no root move waits to start: for a worker that would
    /// idle otherwise (a runner that keeps more calls in flight than it
    /// has workers, as the Ray runners do, asks before any idles). On
    /// 1024 simulated workers it cut the critical path of a 22-empty 5x5
    /// solve from 3.7% of the direct solve to 2.0%. On 64 in machines of
    /// 16 it first cost a fifth more work for little time
    /// (`profiles/2026-11-27-vm/home-first.txt`); with the faster search
    /// and no budget of nodes it is what cuts the path instead of the
    /// budget, and the 22-empty solve ran 12.2x instead of 8.6x with a
    /// budget of 5 M nodes (`profiles/2026-11-27-vm/budget.txt`). Off by
    /// default: on a few workers nobody idles, and it only costs.
    ///
    /// When no brother waits either, a worker that would idle gets a test
    /// of a root move's value that its tests would ask later, up to 8
    /// results ahead (`Driver::ask_spare`): on 1024 simulated workers this
    /// cut the 22-empty solve's critical path from 2.74 s to 0.60 s, 5.2%
    /// to 1.1% of the direct solve (`profiles/2026-11-27-vm/root-spare.txt`).
    pub spare: bool,
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
    /// with one job at a time, has nothing to gain from one. On 64
    /// simulated workers in machines of 16 with the faster search, each
    /// larger budget from 5 M to 80 M nodes ran faster for less work, and
    /// no budget with [`spare`](Settings::spare) ran fastest, its path
    /// shorter than a 40 M budget's (`profiles/2026-11-27-vm/budget.txt`).
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
    /// Plies below the root of the node whose position sends a job home
    /// (see [`Job::home`](crate::jobs::Job::home)): the jobs below one node
    /// that deep go to one table where it has room. Brothers' subtrees
    /// differ by a move or two and hold many of the same positions, which
    /// only a table they share keeps; sent by their own positions (a
    /// home at the [`split`](Settings::split)), the jobs of one node are
    /// scattered over the machines. Where a job runs never changes its
    /// answer (the module docs of `jobs`). 0 acts as 1: a root move's
    /// test is never sent home by the root's position, which all share.
    /// [`home_plies_for`](Settings::home_plies_for) picks it by the
    /// cluster's machines.
    pub home_plies: u32,
    /// Hand on, between the processes of a cluster, the proofs their
    /// searches make that `share` names (the top positions of each job,
    /// the costly ones, see [`Share`]): each job returns its new proofs
    /// with its result ([`JobResult::proofs`]), the driver keeps them in
    /// its store (and so in the file of a durable one), and a runner hands
    /// each process, with its next job, what it has not been told yet
    /// ([`Driver::proofs_since`], [`Job::known`]). Machines then stop
    /// proving again what another machine has proved. Exact as the store
    /// is (the module docs): each is a bound a sound search proved on the
    /// same position at the same plies. None (the default): nothing is
    /// handed on; threads of one process share their table anyway.
    ///
    /// [`JobResult::proofs`]: crate::jobs::JobResult::proofs
    /// [`Driver::proofs_since`]: crate::jobs::Driver::proofs_since
    /// [`Job::known`]: crate::jobs::Job::known
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

impl Settings {
    /// [`home_plies`](Settings::home_plies) for a cluster of `machines`
    /// (tables): 2 on up to four, 3 on more. A job waits for a worker of
    /// its home while other jobs run, so the homes of the jobs ready at
    /// once bound the machines that work: 2 plies down, the jobs of the
    /// searched line share one node's home, and one machine works while
    /// the others idle; 3 plies down spreads them over about as many homes
    /// as that node has children. Simulated in machines of 16, 3 plies was
    /// 14% faster on 8 machines (the 22-empty solve) and 32% on 16 (the
    /// 23-empty one); on 4 it was faster on two positions of three and
    /// slower on the third, for 18% to 25% more work on each, so 4 keep
    /// the work (`profiles/2026-11-28-vm/home-plies.txt`).
    pub fn home_plies_for(machines: usize) -> u32 {
        if machines > 4 {
            3
        } else {
            2
        }
    }
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
            spare: false,
            job_nodes: None,
            ahead: false,
            home_plies: 2,
            share: None,
        }
    }
}

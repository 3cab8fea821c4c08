//! A thread budget shared by searches side by side, whose free threads
//! are lent to the searches running while no other search waits to start.
//!
//! Why: a batch's searches each run on one thread, which splits a batch
//! perfectly until its last searches, where one long search runs alone
//! while the other cores idle (in 40 full 5x5 solves, one took 30% of the
//! batch's time). A search that may borrow threads splits its work over
//! them from its next split point on, and gives each back when a search
//! waits to start, once the item of the split it searches is done. A lent thread is counted as in use, so the
//! threads at work never exceed the budget.
//!
//! A search borrows on the workers of a pool built by [`lending_pool`],
//! each of which knows the budget ([`current`]); everywhere else the
//! searches split over their pool's threads as before.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;

use parking_lot::Mutex;
use rayon::ThreadPool;

#[derive(Debug, Default)]
struct Counts {
    /// Threads neither in a search's own use nor lent.
    free: usize,
    /// Threads lent and not yet given back.
    lent: usize,
}

/// The threads of a budget: taken by searches as they start, lent to
/// running ones while no search waits.
#[derive(Debug)]
pub(crate) struct ThreadBudget {
    counts: Mutex<Counts>,
    /// Whether free threads may be lent (no search waits to start):
    /// written under the lock, read without it by every borrowed thread
    /// before each item it takes.
    lending: AtomicBool,
    /// `lending && free > 0`, read without the lock on every item of a
    /// split: almost always false in a busy batch.
    may_lend: AtomicBool,
}

impl ThreadBudget {
    pub(crate) fn new(threads: usize) -> ThreadBudget {
        ThreadBudget {
            counts: Mutex::new(Counts {
                free: threads,
                ..Counts::default()
            }),
            lending: AtomicBool::new(false),
            may_lend: AtomicBool::new(false),
        }
    }

    /// Called with the lock held, after any change.
    fn update(&self, counts: &Counts) {
        self.may_lend
            .store(self.lending.load(SeqCst) && counts.free > 0, SeqCst);
    }

    /// Threads free now (lent ones are not).
    pub(crate) fn free(&self) -> usize {
        self.counts.lock().free
    }

    /// Threads lent now.
    pub(crate) fn lent(&self) -> usize {
        self.counts.lock().lent
    }

    /// Takes `threads` for a search's own use, if that many are free.
    pub(crate) fn take(&self, threads: usize) -> bool {
        let mut counts = self.counts.lock();
        let taken = counts.free >= threads;
        if taken {
            counts.free -= threads;
            self.update(&counts);
        }
        taken
    }

    /// Gives back threads taken by [`ThreadBudget::take`].
    pub(crate) fn put(&self, threads: usize) {
        let mut counts = self.counts.lock();
        counts.free += threads;
        self.update(&counts);
    }

    /// Whether free threads may be lent: only while no search waits, so
    /// that a waiting search gets the threads lent as they come back.
    pub(crate) fn set_lending(&self, lending: bool) {
        let counts = self.counts.lock();
        self.lending.store(lending, SeqCst);
        self.update(&counts);
    }

    /// Borrows one thread, if one may be lent: it is given back when the
    /// [`Lent`] is dropped, even by a panic.
    pub(crate) fn borrow(&self) -> Option<Lent<'_>> {
        if !self.may_lend.load(SeqCst) {
            return None;
        }
        let mut counts = self.counts.lock();
        // `may_lend` was read without the lock: a search may have come to
        // wait, or the last free thread gone, since.
        if !(self.lending.load(SeqCst) && counts.free > 0) {
            return None;
        }
        counts.free -= 1;
        counts.lent += 1;
        self.update(&counts);
        Some(Lent(self))
    }

    /// Whether a borrowed thread should come back: a search waits.
    pub(crate) fn recalled(&self) -> bool {
        !self.lending.load(SeqCst)
    }

    fn give_back(&self) {
        let mut counts = self.counts.lock();
        counts.lent -= 1;
        counts.free += 1;
        self.update(&counts);
    }
}

/// A thread lent by a [`ThreadBudget`], given back when dropped.
#[must_use = "dropping it gives the thread back at once"]
pub(crate) struct Lent<'a>(&'a ThreadBudget);

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.0.give_back();
    }
}

/// A lending pool's way to its budget: its search borrows at most one
/// thread fewer than the pool has workers, since a loan is a job on the
/// pool, and one no worker is free to run would hold a thread of the
/// budget that another search could use.
#[derive(Debug)]
pub(crate) struct Lender {
    budget: Arc<ThreadBudget>,
    /// Loans not yet given back, and the most there may be.
    lent: AtomicUsize,
    most: usize,
}

impl Lender {
    /// Borrows one thread of the budget, if one may be lent and this
    /// pool's loans are not at their most.
    pub(crate) fn borrow(&self) -> Option<Loan<'_>> {
        if self.lent.load(SeqCst) >= self.most {
            return None;
        }
        let lent = self.budget.borrow()?;
        // Two borrowers may have passed the look above together.
        if self.lent.fetch_add(1, SeqCst) >= self.most {
            self.lent.fetch_sub(1, SeqCst);
            return None;
        }
        Some(Loan {
            lender: self,
            _lent: lent,
        })
    }

    /// Whether a borrowed thread should come back: a search waits.
    pub(crate) fn recalled(&self) -> bool {
        self.budget.recalled()
    }
}

/// A thread lent through a [`Lender`], given back to both when dropped.
#[must_use = "dropping it gives the thread back at once"]
pub(crate) struct Loan<'a> {
    lender: &'a Lender,
    _lent: Lent<'a>,
}

impl Drop for Loan<'_> {
    fn drop(&mut self) {
        self.lender.lent.fetch_sub(1, SeqCst);
    }
}

thread_local! {
    /// The lender of the lending pool this thread works for, if any.
    static LENDER: RefCell<Option<Arc<Lender>>> = const { RefCell::new(None) };
}

/// The lender the current thread's searches borrow through: `Some` on the
/// workers of a [`lending_pool`].
pub(crate) fn current() -> Option<Arc<Lender>> {
    LENDER.with(|b| b.borrow().clone())
}

/// A pool of `threads` workers whose searches borrow from `budget`; `None`
/// if the threads cannot be started.
pub(crate) fn lending_pool(threads: usize, budget: &Arc<ThreadBudget>) -> Option<ThreadPool> {
    let lender = Arc::new(Lender {
        budget: budget.clone(),
        lent: AtomicUsize::new(0),
        most: threads.saturating_sub(1),
    });
    super::pool::builder(threads)
        .start_handler(move |_| LENDER.with(|b| *b.borrow_mut() = Some(lender.clone())))
        .build()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_free_threads_are_lent_and_only_while_none_waits() {
        let budget = ThreadBudget::new(3);
        assert!(budget.take(1));
        assert!(budget.borrow().is_none(), "not lending");
        budget.set_lending(true);
        assert!(!budget.recalled());
        let (a, b) = (budget.borrow().unwrap(), budget.borrow().unwrap());
        assert!(budget.borrow().is_none(), "the three are in use");
        assert_eq!((budget.free(), budget.lent()), (0, 2));
        assert!(!budget.take(1), "a lent thread is in use");
        budget.set_lending(false);
        assert!(budget.recalled());
        drop(a);
        assert!(
            budget.borrow().is_none(),
            "a thread given back goes to the waiting"
        );
        assert!(budget.take(1));
        drop(b);
        budget.put(2);
        assert_eq!((budget.free(), budget.lent()), (3, 0));
    }

    /// The race the unlocked look at `may_lend` leaves: it said yes, and
    /// by the time the lock is had the answer is no. No thread is lent,
    /// and none is given back (which, with the lock held, would deadlock).
    #[test]
    fn a_loan_refused_under_the_lock_gives_nothing_back() {
        let budget = Arc::new(ThreadBudget::new(2));
        budget.set_lending(true);
        let refuse = |budget: Arc<ThreadBudget>| {
            let (done, finished) = std::sync::mpsc::channel();
            std::thread::spawn(move || done.send(budget.borrow().is_none()).unwrap());
            let refused = finished.recv_timeout(std::time::Duration::from_secs(10));
            assert_eq!(refused, Ok(true), "a refused loan returns at once, refused");
        };
        // A search came to wait after the look.
        budget.lending.store(false, SeqCst);
        assert!(budget.may_lend.load(SeqCst));
        refuse(budget.clone());
        assert_eq!((budget.free(), budget.lent()), (2, 0));
        // The last free thread went after the look.
        budget.set_lending(true);
        budget.counts.lock().free = 0;
        assert!(budget.may_lend.load(SeqCst));
        refuse(budget.clone());
        assert_eq!((budget.free(), budget.lent()), (0, 0));
    }

    /// A pool of 3 workers borrows at most 2 threads, however many the
    /// budget has free: a third would wait for a worker, holding a thread
    /// another search could use.
    #[test]
    fn a_pool_borrows_at_most_one_thread_fewer_than_its_workers() {
        let budget = Arc::new(ThreadBudget::new(8));
        budget.set_lending(true);
        let lender = Lender {
            budget: budget.clone(),
            lent: AtomicUsize::new(0),
            most: 2,
        };
        let (a, b) = (lender.borrow().unwrap(), lender.borrow().unwrap());
        assert!(lender.borrow().is_none(), "two lent, the most");
        assert_eq!((budget.free(), budget.lent()), (6, 2));
        drop(a);
        let c = lender.borrow().expect("one given back, one more");
        drop((b, c));
        assert_eq!((budget.free(), budget.lent()), (8, 0));
        assert_eq!(lender.lent.load(SeqCst), 0);
    }

    #[test]
    fn the_workers_of_a_lending_pool_know_its_budget() {
        let budget = Arc::new(ThreadBudget::new(2));
        let pool = lending_pool(2, &budget).unwrap();
        let known = pool.install(|| current().is_some_and(|l| Arc::ptr_eq(&l.budget, &budget)));
        assert!(known);
        assert!(current().is_none());
    }
}

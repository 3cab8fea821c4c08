//! Many positions at once: [`analyse_many`] (one [`Limits`] for all) and
//! [`analyse_each`] (limits of their own) answer a batch in order, the
//! positions spread over the cores by [`search_all`], the scheduler `serve`
//! and the batch `solve` use too.
//!
//! A search of a millisecond does not split well over threads, but a
//! thousand of them split perfectly: a position whose limits leave its
//! threads to the batch (`threads: 0`) gets the free threads shared among
//! the positions waiting, so that many positions run one thread each side
//! by side, and a lone big one gets every core. A position whose limits
//! name a thread count gets that many (at most the batch's).
//!
//! Memory: [`Sharing::table_bytes`] bounds the tables of the searches in
//! flight together, whatever the number of positions (see
//! [`search_all`]). A search whose default table fits its share keeps it,
//! and answers exactly as [`super::analyse`] alone does (node counts
//! included, on one thread). One that borrowed the threads left idle at
//! the batch's end answers as a search on several threads does: the same
//! move, value and principal variation, other node counts and other
//! bounds on the other moves.

use std::borrow::{Borrow, Cow};
use std::sync::atomic::AtomicBool;

use super::limits::check_threads;
use super::sharing::{search_all, Sharing};
use super::{Analysis, ApiError, Limits, Position};

/// Analyses every position within `limits`, as [`super::analyse`] would,
/// the positions spread over `sharing`'s threads; returns one answer per
/// position, in order. An error (a bad limit) is that position's answer;
/// the others are answered all the same.
///
/// Its time limit is each position's own, counted from when its search
/// starts. Setting `limits.stop` stops the whole batch promptly, and every
/// position still answers as [`super::analyse`] does under a stop: a
/// running search with its deepest completed depth, a position not yet
/// started with depth 1 (which always completes, in a fraction of a
/// millisecond); both with `stopped` set, and `exact` false unless that
/// depth was the one asked.
pub fn analyse_many(
    positions: &[Position],
    limits: &Limits,
    sharing: &Sharing,
) -> Vec<Result<Analysis, ApiError>> {
    let jobs = positions.iter().map(|p| (p, limits));
    answered(run(jobs, positions.len(), sharing, |_, _| {}, &NEVER))
}

/// A position of a batch as [`analyse_each`] takes it: a [`Position`], a
/// box of one, or anything that makes one when its search is queued. A
/// board is 4 KiB: a caller that holds its positions in a form of its own
/// need not copy a million of them before the first search starts.
pub trait BatchPosition: Sync {
    /// The position, made or borrowed.
    fn position(&self) -> Cow<'_, Position>;
}

impl<T: Borrow<Position> + Sync> BatchPosition for T {
    fn position(&self) -> Cow<'_, Position> {
        Cow::Borrowed(self.borrow())
    }
}

/// [`analyse_many`] with limits of each position's own (each with its own
/// stop flag, if any). A position may come as itself, boxed, or in any
/// form that makes one ([`BatchPosition`]).
pub fn analyse_each<P: BatchPosition>(
    positions: &[(P, Limits)],
    sharing: &Sharing,
) -> Vec<Result<Analysis, ApiError>> {
    analyse_each_with(positions, sharing, |_, _| {})
}

/// [`analyse_each`], calling `on_answer` with each position's index and
/// answer as soon as it is ready (one call at a time, in the order the
/// searches end), for a caller that shows progress or streams answers.
pub fn analyse_each_with<P: BatchPosition>(
    positions: &[(P, Limits)],
    sharing: &Sharing,
    on_answer: impl Fn(usize, &Result<Analysis, ApiError>) + Sync,
) -> Vec<Result<Analysis, ApiError>> {
    let jobs = positions.iter().map(|(p, l)| (p, l));
    answered(run(jobs, positions.len(), sharing, on_answer, &NEVER))
}

/// [`analyse_each`], given up once `interrupt` is set (for a caller that
/// will not use the answers, as on Ctrl-C): no search starts after it, the
/// running ones stop, and the positions not started have no answer
/// (`None`). Until then, as [`analyse_each`]; and a position's own stop
/// flag still stops only its own search, answered as stopped.
pub fn analyse_each_interruptible<P: BatchPosition>(
    positions: &[(P, Limits)],
    sharing: &Sharing,
    interrupt: &AtomicBool,
) -> Vec<Option<Result<Analysis, ApiError>>> {
    let jobs = positions.iter().map(|(p, l)| (p, l));
    run(jobs, positions.len(), sharing, |_, _| {}, interrupt)
}

/// The stop of a batch that is never given up.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Every answer of a batch not given up.
fn answered(answers: Vec<Option<Result<Analysis, ApiError>>>) -> Vec<Result<Analysis, ApiError>> {
    answers
        .into_iter()
        .map(|a| a.expect("every position is answered"))
        .collect()
}

/// The batch of `count` positions `jobs`, in order; given up once
/// `interrupt` is set (the positions not started then have no answer).
fn run<'a, P: BatchPosition + 'a>(
    jobs: impl Iterator<Item = (&'a P, &'a Limits)> + Clone,
    count: usize,
    sharing: &Sharing,
    on_answer: impl Fn(usize, &Result<Analysis, ApiError>) + Sync,
    interrupt: &AtomicBool,
) -> Vec<Option<Result<Analysis, ApiError>>> {
    if let Err(e) = check_threads(sharing.threads) {
        return vec![Some(Err(e)); count];
    }
    let mut answers: Vec<Option<Result<Analysis, ApiError>>> = vec![None; count];
    // Refused limits answer at once: the scheduler would otherwise cap a
    // thread count past the most rather than refuse it.
    for (i, (_, limits)) in jobs.clone().enumerate() {
        if let Err(e) = limits.check() {
            let answer = Err(e);
            on_answer(i, &answer);
            answers[i] = Some(answer);
        }
    }
    // Each position is copied as its search is queued, not all at once
    // beforehand: a board is 4 KiB, and a copy of ten thousand of them is
    // more work than ten thousand searches of a few plies.
    let searches = jobs
        .enumerate()
        .filter(|(_, (_, limits))| limits.check().is_ok())
        .map(|(i, (position, limits))| (i, position.position().into_owned(), limits.clone()));
    // A stop of the batch's own is each position's flag: every position
    // is started, and one started after a stop answers at once with depth
    // 1. Only an interrupt leaves positions unanswered.
    search_all(searches, sharing, interrupt, |i, answer| {
        on_answer(i, &answer);
        answers[i] = Some(answer);
    });
    answers
}

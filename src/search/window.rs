//! The window a node is searched with, and what a fail-soft result
//! searched with it proves: one [`Bound`] for both engines' tables and the
//! library's root values.

use std::ops::{Add, Neg};

use serde::{Deserialize, Serialize};

/// A search value: `i64` in the general engine, `i32` in the compact one.
pub(crate) trait Value: Copy + Ord + Neg<Output = Self> + Add<Output = Self> {
    const ONE: Self;
}

impl Value for i32 {
    const ONE: i32 = 1;
}

impl Value for i64 {
    const ONE: i64 = 1;
}

/// The open interval `(alpha, beta)`: a fail-soft search returns the
/// value itself when it lies inside, else a bound on the side it fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window<V> {
    pub alpha: V,
    pub beta: V,
}

impl<V: Value> Window<V> {
    #[inline(always)]
    pub(crate) fn new(alpha: V, beta: V) -> Window<V> {
        Window { alpha, beta }
    }

    /// The window just above `alpha`: it only tells whether the value
    /// exceeds `alpha`.
    #[inline(always)]
    pub(crate) fn null_above(alpha: V) -> Window<V> {
        Window {
            alpha,
            beta: alpha + V::ONE,
        }
    }

    /// The same window from the other side's point of view (negamax).
    #[inline(always)]
    pub(crate) fn negated(self) -> Window<V> {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }

    /// True when no integer lies strictly inside: a null window.
    #[inline(always)]
    pub(crate) fn is_null(self) -> bool {
        self.alpha + V::ONE >= self.beta
    }
}

/// What a value says about the true one: in the tables, and for a root
/// move of an analysis (where a move proved not to be chosen carries an
/// upper bound). Written in JSON as `"exact"`, `"lower"`, `"upper"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The value itself.
    Exact = 1,
    /// The true value is at least this (the search failed high).
    Lower = 2,
    /// The true value is at most this (the search failed low).
    Upper = 3,
}

impl Bound {
    /// What a fail-soft result `value` proves, searched with `window`.
    #[inline(always)]
    pub(crate) fn of<V: Value>(value: V, window: Window<V>) -> Bound {
        if value <= window.alpha {
            Bound::Upper
        } else if value >= window.beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored `value` with this bound, found with exactly the
    /// plies the node has left, settles a node searched with `window`:
    /// returning it is then what the search itself would return (the true
    /// value, or a bound on the side of the window the value lies).
    #[inline(always)]
    pub(crate) fn cuts<V: Value>(self, value: V, window: Window<V>) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= window.beta,
            Bound::Upper => value <= window.alpha,
        }
    }
}

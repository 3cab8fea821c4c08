//! Conventions: ways of writing the textbook search that never change a
//! correct program's answer, but do change what a buggy one writes. A
//! program's bug is modelled under each of them.

use std::fmt;

use serde::Serialize;

use super::textbook::Rules;

/// How a program lists its moves, where a correct program's answer does
/// not depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Convention {
    /// Every Raid next to an own piece listed, those that turn nothing
    /// over included: the textbook.
    QuietRaids,
    /// Only the Raids that turn something over (most student programs: a
    /// Raid that flips nothing is the Stake on its cell, which comes
    /// first).
    NoQuietRaids,
}

impl Convention {
    /// Every convention, the textbook's first.
    pub const ALL: [Convention; 2] = [Convention::QuietRaids, Convention::NoQuietRaids];

    /// The convention in a few words.
    pub const fn describe(self) -> &'static str {
        match self {
            Convention::QuietRaids => "Raids that turn nothing over generated",
            Convention::NoQuietRaids => "no Raids that turn nothing over",
        }
    }

    /// `rules` under this convention, in the form shared by every
    /// convention that writes the same (so that each distinct search runs
    /// once).
    pub(crate) fn apply(self, rules: Rules) -> Rules {
        match self {
            Convention::NoQuietRaids if rules.quiet_raids_matter() => Rules {
                quiet_raids: false,
                ..rules
            },
            _ => rules,
        }
    }
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

//! The bugs modelled: each one change to the textbook search's switches
//! ([`Rules`]).

use std::fmt;

use serde::Serialize;

use crate::game::Player;
use crate::text::SearchMode;

use super::textbook::{Order, Plies, Raids, Rules, Scored, Ties};

/// A common student bug, each one change to the textbook search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bug {
    /// A root move replaces the best so far when it is as good (`>=`), so
    /// the last best move wins a tie; in ALPHABETA mode a later move whose
    /// bound (what pruning returns) equals the best wins too.
    LastTie,
    /// Raids listed before Stakes, so a Raid wins a tie with a Stake.
    RaidsFirst,
    /// The search stops one ply short of the depth asked (at least one).
    OneShort,
    /// The search goes one ply deeper than the depth asked.
    OneDeep,
    /// The root counted as depth 1 and the cut-off `depth == DEPTH` tried
    /// below it: one ply short, and at depth 1 never met (the search runs
    /// to the full board).
    DepthFromOne,
    /// Every position scored for the other player.
    OtherSide,
    /// Each leaf scored for the side to move there: right when the leaf
    /// falls on the root player's turn (an even number of plies down),
    /// scored for the other player when it falls on the opponent's.
    LeavesForMover,
    /// Every position scored for X, whoever plays (right for X).
    AlwaysX,
    /// Every position scored for O, whoever plays (right for O).
    AlwaysO,
    /// The root's best value starts at 0, the first move its default: a
    /// move must be worth more than 0 to be chosen.
    StartAtZero,
    /// The root's best value starts at -100, the first move its default.
    StartAtMinus100,
    /// A Raid turns nothing over, in the search and on the board written.
    RaidsFlipNothing,
    /// A Raid allowed next to any piece, not only the mover's own.
    RaidNextToAny,
    /// Only Stakes are tried, by both players.
    StakesOnly,
    /// In ALPHABETA mode the opponent's node is a copy of the mover's: its
    /// replies are maximized too.
    OpponentMaximizes,
    /// The search is right, but the board written leaves out the flips.
    FlipsNotWritten,
}

impl Bug {
    /// Every bug modelled, in the order reports list them.
    pub const ALL: [Bug; 16] = [
        Bug::LastTie,
        Bug::RaidsFirst,
        Bug::OneShort,
        Bug::OneDeep,
        Bug::DepthFromOne,
        Bug::OtherSide,
        Bug::LeavesForMover,
        Bug::AlwaysX,
        Bug::AlwaysO,
        Bug::StartAtZero,
        Bug::StartAtMinus100,
        Bug::RaidsFlipNothing,
        Bug::RaidNextToAny,
        Bug::StakesOnly,
        Bug::OpponentMaximizes,
        Bug::FlipsNotWritten,
    ];

    /// The bug in a few words.
    pub const fn describe(self) -> &'static str {
        match self {
            Bug::LastTie => "ties won by the last best move (>=)",
            Bug::RaidsFirst => "Raids tried before Stakes",
            Bug::OneShort => "one ply short",
            Bug::OneDeep => "one ply deep",
            Bug::DepthFromOne => "the root counted as depth 1 (depth == DEPTH below it)",
            Bug::OtherSide => "every position scored for the other player",
            Bug::LeavesForMover => "leaves scored for the side to move",
            Bug::AlwaysX => "every position scored for X",
            Bug::AlwaysO => "every position scored for O",
            Bug::StartAtZero => "the root's best value starting at 0",
            Bug::StartAtMinus100 => "the root's best value starting at -100",
            Bug::RaidsFlipNothing => "a Raid that turns nothing over",
            Bug::RaidNextToAny => "a Raid allowed next to any piece",
            Bug::StakesOnly => "Stakes only",
            Bug::OpponentMaximizes => "the opponent's replies maximized in ALPHABETA",
            Bug::FlipsNotWritten => "the flips left off the board written",
        }
    }

    /// The textbook rules with this bug, for `player` to move: a bug that
    /// changes nothing for that player or mode gives the textbook rules.
    pub(crate) fn rules(self, player: Player, mode: SearchMode) -> Rules {
        let t = Rules::TEXTBOOK;
        let scored = |p: Player| {
            if p == player {
                Scored::Mover
            } else {
                Scored::Other
            }
        };
        match self {
            Bug::LastTie => Rules {
                ties: Ties::Last,
                ..t
            },
            Bug::RaidsFirst => Rules {
                order: Order::RaidsFirst,
                ..t
            },
            Bug::OneShort => Rules {
                plies: Plies::Short,
                ..t
            },
            Bug::OneDeep => Rules {
                plies: Plies::Deep,
                ..t
            },
            Bug::DepthFromOne => Rules {
                plies: Plies::FromOne,
                ..t
            },
            Bug::OtherSide => Rules {
                scored: Scored::Other,
                ..t
            },
            Bug::LeavesForMover => Rules {
                scored: Scored::SideToMove,
                ..t
            },
            Bug::AlwaysX => Rules {
                scored: scored(Player::X),
                ..t
            },
            Bug::AlwaysO => Rules {
                scored: scored(Player::O),
                ..t
            },
            Bug::StartAtZero => Rules {
                start: Some(0),
                ..t
            },
            Bug::StartAtMinus100 => Rules {
                start: Some(-100),
                ..t
            },
            Bug::RaidsFlipNothing => Rules {
                raids: Raids::FlipNothing,
                ..t
            },
            Bug::RaidNextToAny => Rules {
                raids: Raids::NextToAny,
                ..t
            },
            Bug::StakesOnly => Rules {
                raids: Raids::None,
                ..t
            },
            Bug::OpponentMaximizes => Rules {
                opponent_maximizes: mode == SearchMode::AlphaBeta,
                ..t
            },
            Bug::FlipsNotWritten => Rules {
                flips_written: false,
                ..t
            },
        }
    }
}

impl fmt::Display for Bug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

//! Models that write alike on every input, decided from their rules alone:
//! no input can tell such suspects apart, so an experiment need not search
//! for one. Exact but not complete: models whose rules differ may still
//! never answer differently, and are then searched for as before.

use crate::game::Player;
use crate::text::SearchMode;

use super::bug::Bug;
use super::convention::Convention;
use super::restriction::Restriction;
use super::textbook::Rules;

/// A bug as a diagnosis suspects it: under some conventions (any of which
/// may be the program's), inside a restriction (everywhere for `None`),
/// the textbook outside it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Suspected<'a> {
    pub bug: Bug,
    pub conventions: &'a [Convention],
    pub restriction: Option<Restriction>,
}

/// True when on every input some one `output.txt` is written by every
/// suspect: for each player, mode and depth parity, some canonical rules
/// ([`Rules::canonical`]) are among every suspect's there. A bug's rules
/// depend on the player and the mode only (a depth bug's plies are a
/// function of its rules), and a restriction on the mode or the parity, so
/// these eight settings cover every input.
pub(crate) fn alike(suspects: &[Suspected<'_>]) -> bool {
    let settings = [Player::X, Player::O].into_iter().flat_map(|p| {
        [SearchMode::Minimax, SearchMode::AlphaBeta]
            .into_iter()
            .flat_map(move |m| [1, 2].map(|depth| (p, m, depth)))
    });
    for (player, mode, depth) in settings {
        let forms = |s: &Suspected<'_>| -> Vec<Rules> {
            if s.restriction.is_some_and(|r| !r.holds(mode, depth)) {
                return vec![Rules::TEXTBOOK.canonical()];
            }
            s.conventions
                .iter()
                .map(|c| c.apply(s.bug.rules(player, mode)).canonical())
                .collect()
        };
        let Some((first, rest)) = suspects.split_first() else {
            return true;
        };
        let others: Vec<Vec<Rules>> = rest.iter().map(forms).collect();
        let shared = forms(first)
            .iter()
            .any(|f| others.iter().all(|o| o.contains(f)));
        if !shared {
            return false;
        }
    }
    true
}

/// The restriction outside which `bug` under `convention` is the textbook
/// for either player (a bug of one mode, such as the opponent maximizing
/// in ALPHABETA): standing everywhere, it is a restricted bug in effect.
pub(crate) fn shows_only(bug: Bug, convention: Convention) -> Option<Restriction> {
    let textbook = Rules::TEXTBOOK.canonical();
    let in_mode = |mode| {
        [Player::X, Player::O]
            .iter()
            .any(|&p| convention.apply(bug.rules(p, mode)).canonical() != textbook)
    };
    match (in_mode(SearchMode::Minimax), in_mode(SearchMode::AlphaBeta)) {
        (true, false) => Some(Restriction::Minimax),
        (false, true) => Some(Restriction::AlphaBeta),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn everywhere(bug: Bug) -> Suspected<'static> {
        Suspected {
            bug,
            conventions: &Convention::ALL,
            restriction: None,
        }
    }

    #[test]
    fn stakes_only_and_raids_that_flip_nothing_are_alike() {
        let pair = [
            everywhere(Bug::StakesOnly),
            everywhere(Bug::RaidsFlipNothing),
        ];
        assert!(alike(&pair));
        let restricted = pair.map(|s| Suspected {
            restriction: Some(Restriction::AlphaBeta),
            ..s
        });
        assert!(alike(&restricted));
        // In different modes each shows where the other is the textbook.
        let apart = [
            restricted[0],
            Suspected {
                restriction: Some(Restriction::Minimax),
                ..restricted[1]
            },
        ];
        assert!(!alike(&apart));
    }

    #[test]
    fn bugs_an_experiment_tells_apart_are_not_alike() {
        let short = Suspected {
            restriction: Some(Restriction::AlphaBeta),
            ..everywhere(Bug::OneShort)
        };
        let maximizes = Suspected {
            restriction: Some(Restriction::EvenDepths),
            ..everywhere(Bug::OpponentMaximizes)
        };
        assert!(!alike(&[short, maximizes]));
        assert!(!alike(&[
            everywhere(Bug::OneShort),
            everywhere(Bug::OneDeep)
        ]));
        assert!(!alike(&[
            everywhere(Bug::LastTie),
            everywhere(Bug::RaidsFirst)
        ]));
    }

    #[test]
    fn a_bug_of_one_mode_everywhere_is_that_bug_restricted_to_it() {
        let maximizes = everywhere(Bug::OpponentMaximizes);
        assert_eq!(
            shows_only(Bug::OpponentMaximizes, Convention::QuietRaids),
            Some(Restriction::AlphaBeta)
        );
        let restricted = Suspected {
            restriction: Some(Restriction::AlphaBeta),
            ..maximizes
        };
        assert!(alike(&[maximizes, restricted]));
        for bug in Bug::ALL {
            if bug != Bug::OpponentMaximizes {
                assert_eq!(shows_only(bug, Convention::QuietRaids), None, "{bug:?}");
            }
        }
    }
}

//! A referee match: the match's boards, each played twice with the
//! colours swapped, through the per-board loop `stakeraid match` uses.

use crate::play::arena::each_game;

use super::game::play_game;
use super::report::RefereeReport;
use super::settings::{RefereeError, RefereeSettings};
use super::side::Side;

/// Plays A against B over `settings.boards`, each board twice with the
/// colours swapped (A plays X first), once both sides are checked
/// ([`Side::check`]); `trace` receives every move as text, `on_game` the
/// report after each game (for progress).
pub fn run_referee(
    a: &Side,
    b: &Side,
    settings: &RefereeSettings,
    trace: &mut dyn FnMut(&str),
    on_game: &mut dyn FnMut(&RefereeReport),
) -> Result<RefereeReport, RefereeError> {
    settings.validate()?;
    a.check()?;
    b.check()?;
    let mut report = RefereeReport::new(a.to_string(), b.to_string());
    each_game(&settings.boards, |g| {
        let game =
            play_game(g.start, g.seats(a, b), &settings.game, g.seed, trace).map_err(|source| {
                RefereeError::Io {
                    board: g.board,
                    source,
                }
            })?;
        report.add(g.board, g.seed, g.start, g.a_plays, game);
        on_game(&report);
        Ok::<(), RefereeError>(())
    })?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::super::settings::tests::settings;
    use super::*;
    use crate::play::arena::Agent;
    use crate::Player;

    #[test]
    fn each_board_is_played_with_both_colours() {
        let (a, b) = (Side::Agent(Agent::Greedy), Side::Agent(Agent::Random));
        let mut games = 0;
        let r = run_referee(&a, &b, &settings(), &mut |_| {}, &mut |_| games += 1).unwrap();
        assert_eq!(games, 6);
        assert_eq!(r.totals.games(), 6);
        assert_eq!(r.pairs.len(), 3);
        for (k, pair) in r.pairs.iter().enumerate() {
            assert_eq!(pair.seed, 5 + k as u64);
            assert!((2..=4).contains(&pair.size));
            let colours: Vec<_> = pair.games.iter().map(|g| g.a_plays).collect();
            assert_eq!(colours, [Player::X, Player::O]);
        }
        let json: serde_json::Value = serde_json::from_str(&r.to_json(&settings())).unwrap();
        assert_eq!(json["games"], 6);
        assert_eq!(json["pairs"][0]["games"][1]["a_plays"], "O");
        assert_eq!(json["sides"][1]["side"], "random");
    }
}

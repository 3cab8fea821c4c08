//! How match reports state numbers: the Elo difference a score implies,
//! with its interval (unbounded where the score is all or nothing), and
//! durations in one unit scale.

use std::fmt;

use serde::Serialize;

/// The Elo difference A - B a match's score implies, with a 95% interval.
/// `None` stands for an unbounded end: after a clean sweep no finite
/// difference explains the score, so there is a lower bound and nothing
/// else.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Elo {
    /// Point estimate, `None` when A won or lost every game.
    pub diff: Option<f64>,
    /// Lower end of the 95% interval, `None` when unbounded.
    pub low: Option<f64>,
    /// Upper end, `None` when unbounded.
    pub high: Option<f64>,
}

impl Elo {
    /// The Elo difference for `wins`, `draws` and `losses` from A's side
    /// (`None` when no game was played): the normal approximation of the
    /// score's interval, and where the score is 0 or 1 (the approximation
    /// has no spread there) the exact binomial bound, `0.025^(1/n)`.
    pub fn from_results(wins: u32, draws: u32, losses: u32) -> Option<Elo> {
        let n = f64::from(wins + draws + losses);
        if n == 0.0 {
            return None;
        }
        let s = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
        if s >= 1.0 || s <= 0.0 {
            let bound = elo_of(0.025f64.powf(1.0 / n));
            return Some(if s >= 1.0 {
                Elo {
                    diff: None,
                    low: bound,
                    high: None,
                }
            } else {
                Elo {
                    diff: None,
                    low: None,
                    high: bound.map(|b| -b),
                }
            });
        }
        let mean_sq = (f64::from(wins) + 0.25 * f64::from(draws)) / n;
        let se = ((mean_sq - s * s).max(0.0) / n).sqrt();
        Some(Elo {
            diff: elo_of(s),
            low: elo_of(s - 1.96 * se),
            high: elo_of(s + 1.96 * se),
        })
    }
}

/// The Elo difference of score rate `s`, `None` outside (0, 1) where it
/// is infinite.
fn elo_of(s: f64) -> Option<f64> {
    // Adding 0.0 turns the -0.0 of an even score into 0.0.
    (s > 0.0 && s < 1.0).then(|| -400.0 * (1.0 / s - 1.0).log10() + 0.0)
}

/// A signed whole number of Elo points, never `-0`.
fn points(x: f64) -> String {
    format!("{:+.0}", x.round() + 0.0)
}

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.diff, self.low, self.high) {
            // Five straight wins or fewer are as likely as not from a
            // side no stronger: the bound is below zero, and a line that
            // led with it ("> -72") would read as a verdict against A.
            (None, Some(low), _) if low < 0.0 => write!(
                f,
                "unknown: A won every game, too few games to show A is stronger (95% above {})",
                points(low)
            ),
            (None, _, Some(high)) if high > 0.0 => write!(
                f,
                "unknown: A lost every game, too few games to show A is weaker (95% below {})",
                points(high)
            ),
            (None, Some(low), _) => write!(f, "> {} (95%; A won every game)", points(low)),
            (None, _, Some(high)) => write!(f, "< {} (95%; A lost every game)", points(high)),
            (None, None, None) => write!(f, "unknown"),
            (Some(diff), low, high) => {
                let end = |x: Option<f64>| x.map_or("unbounded".to_owned(), points);
                write!(f, "{} (95% {} .. {})", points(diff), end(low), end(high))
            }
        }
    }
}

/// `seconds` in the unit that suits it, the same way everywhere in the
/// reports: `4.50 s`, `25.9 ms`, `1.1 µs`.
pub(crate) fn duration_text(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.1} ms", seconds * 1e3)
    } else if seconds > 0.0 {
        format!("{:.1} µs", seconds * 1e6)
    } else {
        "0 s".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_zero_not_minus_zero() {
        let e = Elo::from_results(3, 0, 3).unwrap();
        assert_eq!(e.diff, Some(0.0));
        assert!(e.diff.unwrap().is_sign_positive());
        assert!(e.to_string().starts_with("+0 (95% -"), "{e}");
        let e = Elo::from_results(0, 4, 0).unwrap();
        assert_eq!(e.to_string(), "+0 (95% +0 .. +0)");
    }

    #[test]
    fn a_short_sweep_says_it_shows_no_strength() {
        let e = Elo::from_results(4, 0, 0).unwrap();
        assert_eq!(
            e.to_string(),
            "unknown: A won every game, too few games to show A is stronger (95% above -72)"
        );
        let e = Elo::from_results(0, 0, 4).unwrap();
        assert_eq!(
            e.to_string(),
            "unknown: A lost every game, too few games to show A is weaker (95% below +72)"
        );
    }

    #[test]
    fn a_sweep_has_only_a_bound() {
        let e = Elo::from_results(6, 0, 0).unwrap();
        assert_eq!((e.diff, e.high), (None, None));
        let low = e.low.unwrap();
        // 0.025^(1/6) = 0.541: about +28.
        assert!((low - 28.4).abs() < 0.5, "{low}");
        assert_eq!(e.to_string(), "> +28 (95%; A won every game)");
        let e = Elo::from_results(0, 0, 6).unwrap();
        assert_eq!(e.to_string(), "< -28 (95%; A lost every game)");
        // More games, a firmer bound.
        assert!(Elo::from_results(100, 0, 0).unwrap().low.unwrap() > 500.0);
        assert_eq!(Elo::from_results(0, 0, 0), None);
    }

    #[test]
    fn an_interval_past_a_clean_score_is_open_at_that_end() {
        let e = Elo::from_results(5, 0, 1).unwrap();
        assert!(e.diff.unwrap() > 200.0 && e.low.is_some() && e.high.is_none());
        assert!(e.to_string().ends_with(" .. unbounded)"), "{e}");
    }

    #[test]
    fn durations_in_one_scale() {
        assert_eq!(duration_text(4.5), "4.50 s");
        assert_eq!(duration_text(0.0259), "25.9 ms");
        assert_eq!(duration_text(0.074), "74.0 ms");
        assert_eq!(duration_text(1.1e-6), "1.1 µs");
        assert_eq!(duration_text(0.0), "0 s");
    }
}

//! The `input.txt` a program is given for its move: COMPETITION mode and
//! the CPU seconds it has left, written so that it is never told more than
//! it has.

use crate::{input_text, Board, Player, Problem, Question};

/// What a program is told it has left of `seconds`: rounded down to the
/// microsecond, so it is never told more than it has, and at most 1e9.
fn told(seconds: f64) -> f64 {
    if seconds.is_nan() {
        return 0.0;
    }
    (seconds.clamp(0.0, 1e9) * 1e6).floor() / 1e6
}

/// The fourth line of `input.txt` for `seconds` left: rounded down to the
/// microsecond and written as a plain decimal number (`0.25`, `3`, never
/// `1e-7`).
pub fn time_text(seconds: f64) -> String {
    told(seconds).to_string()
}

/// The `input.txt` a program gets: COMPETITION mode, `player` to move,
/// `seconds_left` as [`time_text`] writes it.
pub fn competition_input(board: &Board, player: Player, seconds_left: f64) -> String {
    input_text(&Problem {
        board: board.clone(),
        player,
        question: Question::Competition {
            seconds: told(seconds_left),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{random_board, Rng};

    #[test]
    fn time_is_a_plain_decimal_rounded_down() {
        assert_eq!(time_text(2.0), "2");
        assert_eq!(time_text(0.25), "0.25");
        assert_eq!(time_text(0.1234567), "0.123456");
        assert_eq!(time_text(1e-7), "0");
        assert_eq!(time_text(0.1 + 0.2), "0.3");
        assert_eq!(time_text(3e-6), "0.000003");
        assert_eq!(time_text(-1.0), "0");
        assert_eq!(time_text(f64::INFINITY), "1000000000");
        assert_eq!(time_text(f64::NAN), "0");
        let board = random_board(&mut Rng::new(1), 2, 9, 0.0);
        let input = competition_input(&board, Player::O, 1.5);
        let p = crate::parse_problem(input.as_bytes()).unwrap();
        assert_eq!(p.question, Question::Competition { seconds: 1.5 });
        assert_eq!(p.player, Player::O);
        assert_eq!(input.lines().nth(3), Some("1.5"), "{input}");
        let input = competition_input(&board, Player::X, 0.1234567);
        assert_eq!(input.lines().nth(3), Some("0.123456"), "{input}");
    }
}

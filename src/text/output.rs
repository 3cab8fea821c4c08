//! The text the program writes: `output.txt`, and an `input.txt` for a
//! problem (for tests and the position generator).

use super::problem::{Problem, Question};
use crate::game::{Board, Move, Player};

/// The text of `output.txt` for `mv` played on `before`: the move line and
/// the board after it, every line ending in `\n`.
pub fn answer_text(before: &Board, player: Player, mv: Move) -> String {
    let mut after = before.clone();
    after.make(mv, player);
    output_text(mv, after.cells_text().lines())
}

/// The text of `output.txt`: the move line, then the board's `rows`, every
/// line ending in `\n`. The one place its layout is written.
pub(crate) fn output_text<'a>(mv: Move, rows: impl IntoIterator<Item = &'a str>) -> String {
    let mut s = format!("{mv}\n");
    for row in rows {
        s.push_str(row);
        s.push('\n');
    }
    s
}

/// The text of an `input.txt` for `problem`.
pub fn input_text(problem: &Problem) -> String {
    let board = &problem.board;
    let n = board.n();
    let limit = match problem.question {
        Question::Exact { depth, .. } => depth.to_string(),
        Question::Competition { seconds } => seconds.to_string(),
    };
    let mut s = format!(
        "{n}\n{}\n{}\n{limit}\n",
        problem.question.name(),
        problem.player.symbol()
    );
    for r in 0..n {
        let row: Vec<String> = (0..n).map(|c| board.value(r, c).to_string()).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s.push_str(&board.cells_text());
    s
}

//! Reading an `output.txt` back: the move line and the board rows, as a
//! referee reads a program's answer before judging it.

use crate::game::Move;

/// An `output.txt` as written: the move line read, the board rows as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerText {
    /// The move on the first line.
    pub mv: Move,
    /// The board lines after it, trailing white space removed.
    pub rows: Vec<String>,
}

/// Why an `output.txt` could not be read. The messages are one line and
/// name the line where they can: a referee quotes them to say why a
/// program forfeited.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// Bytes that are not UTF-8.
    #[error("output.txt is not UTF-8 text")]
    NotText,
    /// Nothing but white space.
    #[error("output.txt is empty")]
    Empty,
    /// The first line is not a move.
    #[error("line 1: {0}")]
    Move(String),
    /// Too few or too many board lines.
    #[error("expected {expected} board lines after the move, found {found}")]
    RowCount {
        /// The board's side.
        expected: usize,
        /// Lines found.
        found: usize,
    },
    /// A character other than `X`, `O` and `.`.
    #[error("line {line}: {found:?} is not X, O or .")]
    Cell {
        /// Line number, from 1.
        line: usize,
        /// The character.
        found: char,
    },
    /// A row of the wrong length.
    #[error("line {line}: expected {expected} cells, found {found}")]
    RowLength {
        /// Line number, from 1.
        line: usize,
        /// The board's side.
        expected: usize,
        /// Cells found.
        found: usize,
    },
}

/// Reads an `output.txt` for an `n` x `n` board: a move such as `C3 Raid`
/// (case and spacing free) and `n` lines of `n` characters from `X`, `O`
/// and `.`. CRLF line ends, trailing spaces, a missing final newline and
/// trailing blank lines are accepted, as they are in `input.txt`.
pub fn parse_answer(text: &[u8], n: usize) -> Result<AnswerText, AnswerError> {
    let text = std::str::from_utf8(text).map_err(|_| AnswerError::NotText)?;
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    let Some((first, rows)) = lines.split_first() else {
        return Err(AnswerError::Empty);
    };
    let mv = first
        .parse::<Move>()
        .map_err(|e| AnswerError::Move(e.to_string()))?;
    if rows.len() != n {
        return Err(AnswerError::RowCount {
            expected: n,
            found: rows.len(),
        });
    }
    for (i, row) in rows.iter().enumerate() {
        let line = i + 2;
        if let Some(found) = row.chars().find(|c| !matches!(c, 'X' | 'O' | '.')) {
            return Err(AnswerError::Cell { line, found });
        }
        if row.len() != n {
            return Err(AnswerError::RowLength {
                line,
                expected: n,
                found: row.len(),
            });
        }
    }
    Ok(AnswerText {
        mv,
        rows: rows.iter().map(|r| (*r).to_owned()).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fault_has_its_message() {
        let err = |text: &str| parse_answer(text.as_bytes(), 2).unwrap_err().to_string();
        assert_eq!(err(" \n\n"), "output.txt is empty");
        assert!(err("C3\n..\n..\n").starts_with("line 1: "));
        assert_eq!(
            err("A1 Stake\nX.\n"),
            "expected 2 board lines after the move, found 1"
        );
        assert_eq!(err("A1 Stake\nX.\n.?\n"), "line 3: '?' is not X, O or .");
        assert_eq!(
            err("A1 Stake\nX.\n...\n"),
            "line 3: expected 2 cells, found 3"
        );
        assert_eq!(parse_answer(b"\xff", 2).unwrap_err(), AnswerError::NotText);
        let ok = parse_answer(b"a1 stake \r\nX. \r\n..\r\n\r\n", 2).unwrap();
        assert_eq!(
            (ok.mv.to_string().as_str(), &ok.rows[..]),
            ("A1 Stake", &["X.".to_owned(), "..".to_owned()][..])
        );
    }
}

//! Reading `input.txt`: lenient about layout (LF, CRLF or CR line ends,
//! trailing white space, a missing final newline, trailing blank lines, a UTF-8 byte-order mark),
//! strict about content.

use std::fmt;

use crate::game::{Board, Player, MAX_N};
use crate::text::checks;
use crate::text::lines::{Lines, NotText, Quoted};
use crate::text::{Problem, Question, SearchMode};

/// Why an input was refused, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ParseError {
    /// 1-based line number the problem was found on.
    pub line: usize,
    /// What is wrong there.
    pub kind: ParseErrorKind,
}

/// The kinds of malformed input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The file ended before this part.
    Missing(&'static str),
    /// The line is not valid UTF-8 text.
    NotText,
    /// The board size is not an integer in 1..=26.
    BadSize(String),
    /// Not one of MINIMAX, ALPHABETA, COMPETITION.
    UnknownMode(String),
    /// Not X or O.
    UnknownPlayer(String),
    /// The depth is not an integer from 1 to `u32::MAX`.
    BadDepth(String),
    /// The COMPETITION time is not a finite decimal number.
    BadTime(String),
    /// A value row has the wrong number of values.
    ValueCount {
        /// Values the row should have.
        expected: usize,
        /// Values it has.
        found: usize,
    },
    /// A board row where a row of values was expected: a value row is
    /// missing above it.
    CellsForValues(String),
    /// A cell value is not a non-negative integer that fits in i32.
    BadValue(String),
    /// A board row has the wrong number of cells.
    RowLength {
        /// Cells the row should have.
        expected: usize,
        /// Cells it has.
        found: usize,
    },
    /// A board cell that is not `X`, `O` or `.`.
    BadCell(char),
    /// Every cell is taken: there is no move to answer with.
    BoardFull,
    /// Something other than blank lines follows the board.
    TrailingText,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseErrorKind::*;
        match self {
            Missing(what) => write!(f, "file ends early: expected {what}"),
            NotText => write!(f, "not valid UTF-8 text"),
            BadSize(s) => write!(
                f,
                "board size must be an integer from 1 to {MAX_N}, got {}",
                Quoted(s)
            ),
            UnknownMode(s) => write!(
                f,
                "unknown mode {} (expected MINIMAX, ALPHABETA or COMPETITION)",
                Quoted(s)
            ),
            UnknownPlayer(s) => write!(f, "unknown player {} (expected X or O)", Quoted(s)),
            BadDepth(s) => write!(
                f,
                "depth must be an integer from 1 to {}, got {}",
                u32::MAX,
                Quoted(s)
            ),
            BadTime(s) => write!(
                f,
                "time left must be a finite number of seconds, got {}",
                Quoted(s)
            ),
            ValueCount { expected, found } => {
                write!(f, "expected {expected} cell values, found {found}")
            }
            CellsForValues(s) => write!(
                f,
                "expected a row of cell values, found the board row {}: a row of values is missing",
                Quoted(s)
            ),
            BadValue(s) => write!(
                f,
                "cell value must be an integer from 0 to 2147483647, got {}",
                Quoted(s)
            ),
            RowLength { expected, found } => {
                write!(f, "expected {expected} board cells, found {found}")
            }
            BadCell(c) => write!(f, "bad board character {c:?} (expected X, O or .)"),
            BoardFull => write!(f, "the board is full: there is no legal move"),
            TrailingText => write!(f, "unexpected text after the board"),
        }
    }
}

/// The next line, or `Missing(what)` naming the line after the last.
fn next_line<'a>(
    lines: &mut Lines<'a>,
    what: &'static str,
) -> Result<(usize, &'a str), ParseError> {
    match lines.next() {
        None => err(lines.number(), ParseErrorKind::Missing(what)),
        Some((line, Err(NotText))) => err(line, ParseErrorKind::NotText),
        Some((line, Ok(text))) => Ok((line, text)),
    }
}

fn err<T>(line: usize, kind: ParseErrorKind) -> Result<T, ParseError> {
    Err(ParseError { line, kind })
}

/// Parses the text of an `input.txt`.
pub fn parse_problem(bytes: &[u8]) -> Result<Problem, ParseError> {
    use ParseErrorKind::*;
    let mut lines = Lines::new(bytes);

    let (l, text) = next_line(&mut lines, "the board size")?;
    let Some(n) = text.parse::<usize>().ok().and_then(checks::side) else {
        return err(l, BadSize(text.into()));
    };

    let (l, mode_text) = next_line(&mut lines, "the mode")?;
    let mode_upper = mode_text.to_ascii_uppercase();
    if !matches!(mode_upper.as_str(), "MINIMAX" | "ALPHABETA" | "COMPETITION") {
        return err(l, UnknownMode(mode_text.into()));
    }

    let (l, text) = next_line(&mut lines, "the player")?;
    let Some(player) = Player::from_name(text) else {
        return err(l, UnknownPlayer(text.into()));
    };

    let (l, text) = next_line(&mut lines, "the depth or time")?;
    let question = if mode_upper == "COMPETITION" {
        match text.parse::<f64>() {
            // Whatever a referee writes once the time has run out, the
            // quickest legal move is the best answer to it.
            Ok(s) if s.is_finite() => Question::Competition {
                seconds: s.max(0.0),
            },
            _ => return err(l, BadTime(text.into())),
        }
    } else {
        let depth = match text.parse::<u32>() {
            Ok(d) if d >= 1 => d,
            _ => return err(l, BadDepth(text.into())),
        };
        let mode = mode_text
            .parse::<SearchMode>()
            .expect("checked above: MINIMAX or ALPHABETA");
        Question::Exact { mode, depth }
    };

    let mut values = Vec::with_capacity(n * n);
    for _ in 0..n {
        let (l, text) = next_line(&mut lines, "a row of cell values")?;
        let row: Vec<&str> = text.split_whitespace().collect();
        if let [word] = row[..] {
            if word.chars().count() == n && word.chars().all(|c| checks::square(c).is_some()) {
                return err(l, CellsForValues(word.into()));
            }
        }
        if row.len() != n {
            return err(
                l,
                ValueCount {
                    expected: n,
                    found: row.len(),
                },
            );
        }
        for word in row {
            match checks::value_word(word) {
                Some(v) => values.push(v),
                None => return err(l, BadValue(word.into())),
            }
        }
    }
    let mut board = Board::new(n, &values);

    let mut last_row = 0;
    for r in 0..n {
        let (l, text) = next_line(&mut lines, "a board row")?;
        let found = text.chars().count();
        if found != n {
            return err(l, RowLength { expected: n, found });
        }
        for (c, ch) in text.chars().enumerate() {
            let Some(sq) = checks::square(ch) else {
                return err(l, BadCell(ch));
            };
            board.set(r, c, sq);
        }
        last_row = l;
    }
    if !checks::playable(&board) {
        return err(last_row, BoardFull);
    }
    if let Some(l) = lines.first_not_blank() {
        return err(l, TrailingText);
    }
    Ok(Problem {
        board,
        player,
        question,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Player, Square};

    const EXAMPLE: &str = "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n";

    /// One rule for letters: the mode, the player and the cells are read
    /// in either case.
    #[test]
    fn lower_case_reads_as_upper_case() {
        let lower = "3\nminimax\no\n2\n1 8 23\n5 42 12\n26 30 9\nx.o\n...\n...\n";
        let upper = lower.to_ascii_uppercase();
        let (a, b) = (
            parse_problem(lower.as_bytes()).unwrap(),
            parse_problem(upper.as_bytes()).unwrap(),
        );
        assert_eq!((a.player, a.question), (b.player, b.question));
        assert_eq!(a.board.cells_text(), b.board.cells_text());
        assert_eq!(a.board.cells_text(), "X.O\n...\n...\n");
    }

    #[test]
    fn reads_the_first_example() {
        let p = parse_problem(EXAMPLE.as_bytes()).unwrap();
        assert_eq!(p.board.n(), 3);
        assert_eq!(p.player, Player::O);
        assert_eq!(
            p.question,
            Question::Exact {
                mode: SearchMode::Minimax,
                depth: 2
            }
        );
        assert_eq!(p.board.value(1, 1), 42);
        assert_eq!(p.board.square(0, 0), Square::Piece(Player::X));
        assert_eq!(p.board.score(Player::O), -1);
    }

    #[test]
    fn layout_leniency() {
        let crlf = EXAMPLE.replace('\n', " \r\n");
        let cr = EXAMPLE.replace('\n', "\r");
        let mixed = EXAMPLE.replacen('\n', "\r", 3).replacen('\n', "\r\n", 2);
        let no_final = EXAMPLE.trim_end();
        let blank_tail = format!("{EXAMPLE}\n\n  \n");
        let bom = format!("\u{feff}{EXAMPLE}");
        let spaced = EXAMPLE.replace("1 8 23", "1  8\t23");
        for text in [
            crlf.as_str(),
            &cr,
            &mixed,
            no_final,
            &blank_tail,
            &bom,
            &spaced,
        ] {
            let p = parse_problem(text.as_bytes()).unwrap_or_else(|e| panic!("{e}: {text:?}"));
            assert_eq!(p.board.cells_text(), "X..\n...\n...\n");
        }
    }

    #[test]
    fn accepts_big_values_and_competition_time() {
        let text = "1\nCOMPETITION\nX\n12.5\n2147483647\n.\n";
        let p = parse_problem(text.as_bytes()).unwrap();
        assert_eq!(p.question, Question::Competition { seconds: 12.5 });
        assert_eq!(p.board.value(0, 0), i32::MAX);
    }

    fn kind_at(text: &str) -> (usize, ParseErrorKind) {
        let e = parse_problem(text.as_bytes()).unwrap_err();
        (e.line, e.kind)
    }

    #[test]
    fn content_errors_name_their_line() {
        use ParseErrorKind::*;
        let cases: Vec<(String, usize, ParseErrorKind)> = vec![
            (EXAMPLE.replacen("3\n", "27\n", 1), 1, BadSize("27".into())),
            (
                EXAMPLE.replacen("3\n", "three\n", 1),
                1,
                BadSize("three".into()),
            ),
            (
                EXAMPLE.replace("MINIMAX", "MINMAX"),
                2,
                UnknownMode("MINMAX".into()),
            ),
            (
                EXAMPLE.replace("\nO\n", "\nZ\n"),
                3,
                UnknownPlayer("Z".into()),
            ),
            (EXAMPLE.replace("\n2\n", "\n0\n"), 4, BadDepth("0".into())),
            (EXAMPLE.replace("\n2\n", "\n-1\n"), 4, BadDepth("-1".into())),
            (
                EXAMPLE.replace("\n2\n", "\n4294967296\n"),
                4,
                BadDepth("4294967296".into()),
            ),
            (
                EXAMPLE.replace("X..\n...\n...", "X..\r...\r.?."),
                10,
                BadCell('?'),
            ),
            (
                EXAMPLE.replace("1 8 23\n", ""),
                7,
                CellsForValues("X..".into()),
            ),
            (
                EXAMPLE.replace("5 42 12", "5 42"),
                6,
                ValueCount {
                    expected: 3,
                    found: 2,
                },
            ),
            (
                EXAMPLE.replace("5 42 12", "5 -4 12"),
                6,
                BadValue("-4".into()),
            ),
            (
                EXAMPLE.replace("5 42 12", "5 x 12"),
                6,
                BadValue("x".into()),
            ),
            (
                EXAMPLE.replace("5 42 12", "5 2147483648 12"),
                6,
                BadValue("2147483648".into()),
            ),
            (
                EXAMPLE.replace("X..", "X."),
                8,
                RowLength {
                    expected: 3,
                    found: 2,
                },
            ),
            (EXAMPLE.replace("X..", "X.Y"), 8, BadCell('Y')),
            (
                EXAMPLE.replace("\n...\n...\n", "\n...\n"),
                10,
                Missing("a board row"),
            ),
            (
                EXAMPLE.replace("X..\n...\n...", "XOX\nOXO\nXOX"),
                10,
                BoardFull,
            ),
            (format!("{EXAMPLE}\nXXX\n"), 12, TrailingText),
            (String::new(), 1, Missing("the board size")),
            (" \n\r\n".into(), 1, Missing("the board size")),
        ];
        for (text, line, kind) in cases {
            assert_eq!(kind_at(&text), (line, kind), "input {text:?}");
        }
        let competition = EXAMPLE
            .replace("MINIMAX", "COMPETITION")
            .replace("\n2\n", "\nsoon\n");
        assert_eq!(kind_at(&competition), (4, BadTime("soon".into())));
        let e = parse_problem(b"3\nMINIMAX\nO\n2\n1 8 23\n5 \xff 12\n").unwrap_err();
        assert_eq!((e.line, e.kind), (6, NotText));
        let mut trailing = format!("{EXAMPLE}\n").into_bytes();
        trailing.push(0xff);
        let e = parse_problem(&trailing).unwrap_err();
        assert_eq!(
            (e.line, e.kind),
            (12, TrailingText),
            "not text is not blank"
        );
    }

    #[test]
    fn messages_quote_a_short_head_of_long_text() {
        let long = "7".repeat(10_000);
        let e =
            parse_problem(EXAMPLE.replace("\n2\n", &format!("\n{long}\n")).as_bytes()).unwrap_err();
        let text = e.to_string();
        assert!(text.len() < 120 && text.ends_with("7\"..."), "{text}");
        assert!(text.contains("from 1 to 4294967295"), "{text}");
        let e = parse_problem(EXAMPLE.replace("MINIMAX", "MAXIMIN").as_bytes()).unwrap_err();
        assert!(e.to_string().contains("\"MAXIMIN\" ("), "{e}");
    }
}

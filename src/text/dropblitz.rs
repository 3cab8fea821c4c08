//! The older variant's files: a 5x5 board of tab-separated `value,owner`
//! pairs, and answers like `drop,C,2`.

use std::fmt;

use crate::game::{Board, Player, Square};
use crate::game::{Move, MoveKind};
use crate::text::checks;
use crate::text::lines::{Lines, Quoted};

/// The side of the older variant's board.
pub const SIDE: usize = 5;

/// In a parsed board the player to move (owner `1`) is X and the opponent
/// (owner `2`) is O.
pub const TO_MOVE: Player = Player::X;

/// Why a board file was refused, and on which line (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct LegacyError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub kind: LegacyErrorKind,
}

/// The kinds of malformed board file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LegacyErrorKind {
    /// The line is not valid UTF-8 text.
    NotText,
    /// The file ends after this many rows.
    MissingRows(usize),
    /// A row with the wrong number of cells.
    CellCount(usize),
    /// A cell that is not a `value,owner` pair (its text).
    BadCell(String),
    /// A value that is not a non-negative integer fitting in i32.
    BadValue(String),
    /// An owner that is not 0, 1 or 2.
    BadOwner(String),
    /// Every cell is taken: there is no move to answer with.
    BoardFull,
    /// Something other than blank lines follows the board.
    TrailingText,
}

impl fmt::Display for LegacyErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LegacyErrorKind::*;
        match self {
            NotText => write!(f, "not valid UTF-8 text"),
            MissingRows(found) => write!(f, "file ends early: expected {SIDE} rows, found {found}"),
            CellCount(found) => write!(f, "expected {SIDE} tab-separated cells, found {found}"),
            BadCell(s) => write!(
                f,
                "bad cell {}: expected value,owner like 42,0 or (42,0)",
                Quoted(s)
            ),
            BadValue(s) => write!(
                f,
                "cell value must be an integer from 0 to 2147483647, got {}",
                Quoted(s)
            ),
            BadOwner(s) => write!(
                f,
                "owner must be 0 (empty), 1 (player to move) or 2 (opponent), got {}",
                Quoted(s)
            ),
            BoardFull => write!(f, "the board is full: there is no legal move"),
            TrailingText => write!(f, "unexpected text after the board"),
        }
    }
}

/// Reads a board file. Lenient about layout (LF, CRLF or CR line ends,
/// spaces around and inside pairs, runs of tabs or spaces between cells, a
/// byte-order mark, trailing blank lines: as `input.txt` is read); strict
/// about content. The player to move is [`TO_MOVE`].
pub fn parse_board(bytes: &[u8]) -> Result<Board, LegacyError> {
    let mut lines = Lines::new(bytes);
    let err = |line: usize, kind| Err(LegacyError { line, kind });
    if lines.total() < SIDE {
        return err(
            lines.total() + 1,
            LegacyErrorKind::MissingRows(lines.total()),
        );
    }
    let mut values = Vec::with_capacity(SIDE * SIDE);
    let mut owners = Vec::with_capacity(SIDE * SIDE);
    for (line, text) in lines.by_ref().take(SIDE) {
        let Ok(text) = text else {
            return err(line, LegacyErrorKind::NotText);
        };
        let cells = parse_row(text).map_err(|kind| LegacyError { line, kind })?;
        if cells.len() != SIDE {
            return err(line, LegacyErrorKind::CellCount(cells.len()));
        }
        for (value, owner) in cells {
            values.push(value);
            owners.push(owner);
        }
    }
    if let Some(line) = lines.first_not_blank() {
        return err(line, LegacyErrorKind::TrailingText);
    }
    let mut board = Board::new(SIDE, &values);
    for (i, owner) in owners.into_iter().enumerate() {
        board.set(i / SIDE, i % SIDE, owner);
    }
    if !checks::playable(&board) {
        return err(SIDE, LegacyErrorKind::BoardFull);
    }
    Ok(board)
}

/// The cells of one line (trimmed), each a pair `value,owner` or
/// `(value,owner)`, white space allowed around every part and between cells.
fn parse_row(text: &str) -> Result<Vec<(i32, Square)>, LegacyErrorKind> {
    let mut cells = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        // The cell's text for messages: up to the next tab, or all of it.
        let shown = rest.split('\t').next().unwrap_or(rest).trim();
        let bad = || LegacyErrorKind::BadCell(shown.into());
        let open = rest.starts_with('(');
        let mut s = if open { rest[1..].trim_start() } else { rest };
        let (value, after) = split_number(s);
        s = after
            .trim_start()
            .strip_prefix(',')
            .ok_or_else(bad)?
            .trim_start();
        let (owner, after) = split_number(s);
        s = after;
        if open {
            s = s.trim_start().strip_prefix(')').ok_or_else(bad)?;
        }
        // A cell ends at white space or at the end of the line.
        if !(s.is_empty() || s.starts_with(char::is_whitespace))
            || value.is_empty()
            || owner.is_empty()
        {
            return Err(bad());
        }
        let Some(value) = checks::value_word(value) else {
            return Err(LegacyErrorKind::BadValue(value.into()));
        };
        let owner = match owner {
            "0" => Square::Empty,
            "1" => Square::Piece(TO_MOVE),
            "2" => Square::Piece(TO_MOVE.other()),
            _ => return Err(LegacyErrorKind::BadOwner(owner.into())),
        };
        cells.push((value, owner));
        rest = s.trim_start();
    }
    Ok(cells)
}

/// The leading integer of `s` (sign and digits) and what follows.
fn split_number(s: &str) -> (&str, &str) {
    let sign = usize::from(s.starts_with(['-', '+']));
    let end = s[sign..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |i| i + sign);
    s.split_at(end)
}

/// The board file for `board` with `to_move` as owner 1: each cell written
/// `value,owner`, cells separated by tabs, every line ending in `\n`.
/// [`parse_board`] reads it back (with `to_move` as X).
pub fn board_text(board: &Board, to_move: Player) -> String {
    let n = board.n();
    let mut s = String::new();
    for r in 0..n {
        let cells: Vec<String> = (0..n)
            .map(|c| {
                let owner = match board.square(r, c) {
                    Square::Empty => 0,
                    Square::Piece(p) if p == to_move => 1,
                    Square::Piece(_) => 2,
                };
                format!("{},{owner}", board.value(r, c))
            })
            .collect();
        s.push_str(&cells.join("\t"));
        s.push('\n');
    }
    s
}

/// The answer line for a move: `drop,C,2` or `blitz,C,2` (move type,
/// column letter, row number).
pub fn move_text(mv: Move) -> String {
    let kind = match mv.kind() {
        MoveKind::Stake => "drop",
        MoveKind::Raid => "blitz",
    };
    format!(
        "{kind},{},{}",
        (b'A' + mv.col() as u8) as char,
        mv.row() + 1
    )
}

/// An answer line that is not a Drop / Blitz move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a move like drop,C,2 or blitz,C,2, got {}", Quoted(.0))]
pub struct MoveTextError(pub String);

/// Reads an answer line back (case and spaces free): the inverse of
/// [`move_text`].
pub fn parse_move(text: &str) -> Result<Move, MoveTextError> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let bad = || MoveTextError(text.to_owned());
    let [kind, col, row] = parts[..] else {
        return Err(bad());
    };
    let kind = match kind.to_ascii_lowercase().as_str() {
        "drop" => MoveKind::Stake,
        "blitz" => MoveKind::Raid,
        _ => return Err(bad()),
    };
    let col = match col.as_bytes() {
        [c] if c.is_ascii_alphabetic() => usize::from(c.to_ascii_uppercase() - b'A'),
        _ => return Err(bad()),
    };
    let row = row
        .parse::<usize>()
        .ok()
        .filter(|r| (1..=26).contains(r))
        .ok_or_else(bad)?;
    Ok(Move::new(row - 1, col, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Example 2 of the SPEC in the older format (X, to move, is owner 1).
    const PLAIN: &str = "20,0\t16,0\t1,1\t32,1\t30,0\n\
                         20,0\t12,0\t2,1\t11,2\t8,1\n\
                         28,0\t48,0\t9,0\t1,2\t1,0\n\
                         20,0\t12,0\t10,2\t6,2\t2,0\n\
                         25,0\t30,0\t23,0\t21,0\t10,0\n";

    #[test]
    fn both_notations_read_the_same_board() {
        let board = parse_board(PLAIN.as_bytes()).unwrap();
        assert_eq!(board.cells_text(), "..XX.\n..XOX\n...O.\n..OO.\n.....\n");
        assert_eq!(board.value(2, 1), 48);
        assert_eq!(board_text(&board, TO_MOVE), PLAIN);
        let paren = PLAIN
            .lines()
            .map(|l| {
                l.split('\t')
                    .map(|c| format!("( {} )", c.replace(',', " , ")))
                    .collect::<Vec<_>>()
                    .join("\t")
            })
            .collect::<Vec<_>>()
            .join("\r\n");
        let spaced = PLAIN.replace('\t', "  ").replace(',', ", ");
        let cr = PLAIN.replace('\n', "\r");
        for text in [paren, spaced, cr, format!("\u{feff}{PLAIN}\n\n")] {
            assert!(parse_board(text.as_bytes()).unwrap() == board, "{text}");
        }
    }

    #[test]
    fn owners_are_relative_to_the_player_to_move() {
        let board = parse_board(PLAIN.as_bytes()).unwrap();
        let swapped = board_text(&board, TO_MOVE.other());
        assert!(swapped.starts_with("20,0\t16,0\t1,2\t32,2\t30,0\n20,0\t12,0\t2,2\t11,1\t"));
        let back = parse_board(swapped.as_bytes()).unwrap();
        assert_eq!(back.cells_text(), "..OO.\n..OXO\n...X.\n..XX.\n.....\n");
    }

    #[test]
    fn bad_files_name_the_line() {
        let kind = |text: &str| parse_board(text.as_bytes()).map(|_| ()).unwrap_err();
        let at = |line, kind| LegacyError { line, kind };
        use LegacyErrorKind::*;
        assert_eq!(
            kind(&PLAIN.replace("48,0", "48;0")),
            at(3, BadCell("48;0".into()))
        );
        assert_eq!(
            kind(&PLAIN.replace("48,0", "(48,0")),
            at(3, BadCell("(48,0".into()))
        );
        assert_eq!(
            kind(&PLAIN.replace("48,0", "48,0x")),
            at(3, BadCell("48,0x".into()))
        );
        assert!(parse_board(PLAIN.replace("48,0", "0,0").as_bytes()).is_ok());
        assert_eq!(
            kind(&PLAIN.replace("48,0", "-4,0")),
            at(3, BadValue("-4".into()))
        );
        assert_eq!(
            kind(&PLAIN.replace("48,0", "99999999999,0")),
            at(3, BadValue("99999999999".into()))
        );
        assert_eq!(
            kind(&PLAIN.replace("48,0", "48,3")),
            at(3, BadOwner("3".into()))
        );
        assert_eq!(kind(&PLAIN.replace("\t48,0", "")), at(3, CellCount(4)));
        assert_eq!(
            kind(&PLAIN.replace("12,0\t10,2", "12,0\t7,0\t10,2")),
            at(4, CellCount(6))
        );
        assert_eq!(kind(&PLAIN[..PLAIN.len() - 25]), at(5, MissingRows(4)));
        assert_eq!(kind(&format!("{PLAIN}\n1,0\n")), at(7, TrailingText));
        assert_eq!(kind(&PLAIN.replace(",0", ",1")), at(5, BoardFull));
        assert_eq!(
            kind(&PLAIN.replace("48,0", "\u{0}")),
            at(3, BadCell("\u{0}".into()))
        );
        assert_eq!(parse_board(b"\xff\n").unwrap_err().kind, MissingRows(1));
        let mut bytes = PLAIN.as_bytes().to_vec();
        bytes[0] = 0xff;
        assert_eq!(parse_board(&bytes).unwrap_err(), at(1, NotText));
        let mut bytes = format!("{PLAIN}\n").into_bytes();
        bytes.push(0xff);
        assert_eq!(parse_board(&bytes).unwrap_err(), at(7, TrailingText));
        let long = format!("{},0", "7".repeat(100_000));
        let e = parse_board(PLAIN.replace("48,0", &long).as_bytes()).unwrap_err();
        assert!(e.to_string().len() < 120, "{e}");
    }

    #[test]
    fn answers_read_back() {
        for (r, c) in [(0, 0), (1, 2), (4, 4)] {
            for kind in [MoveKind::Stake, MoveKind::Raid] {
                let mv = Move::new(r, c, kind);
                assert_eq!(parse_move(&move_text(mv)), Ok(mv));
            }
        }
        assert_eq!(move_text(Move::new(1, 2, MoveKind::Stake)), "drop,C,2");
        assert_eq!(move_text(Move::new(2, 3, MoveKind::Raid)), "blitz,D,3");
        assert_eq!(
            parse_move(" Blitz, d ,3"),
            Ok(Move::new(2, 3, MoveKind::Raid))
        );
        for bad in [
            "drop,C",
            "drop,C,0",
            "drop,CC,2",
            "raid,C,2",
            "drop,C,2,1",
            "",
        ] {
            let e = parse_move(bad).unwrap_err().to_string();
            assert!(e.starts_with("expected a move like drop,C,2"), "{bad}: {e}");
        }
    }
}

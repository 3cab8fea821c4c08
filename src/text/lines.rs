//! The line reading both board formats share: lenient about layout (LF,
//! CRLF or lone CR line ends, surrounding white space, a UTF-8 byte-order
//! mark, trailing blank lines), and errors that quote only a short head of
//! the offending text.

use std::fmt;

/// The lines of a file, numbered from 1, with line ends and surrounding
/// white space removed. Blank lines at the end of the file are not lines:
/// a part that would start there is missing.
pub(super) struct Lines<'a> {
    lines: Vec<&'a [u8]>,
    next: usize,
}

/// A line that is not UTF-8 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NotText;

impl<'a> Lines<'a> {
    /// The lines of `bytes`.
    pub(super) fn new(bytes: &'a [u8]) -> Lines<'a> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let mut lines = split_lines(bytes);
        while lines.last().is_some_and(|l| l.trim_ascii().is_empty()) {
            lines.pop();
        }
        Lines { lines, next: 0 }
    }

    /// How many lines there are in all.
    pub(super) fn total(&self) -> usize {
        self.lines.len()
    }

    /// The number of the next line (one past the last at the end).
    pub(super) fn number(&self) -> usize {
        self.next + 1
    }

    /// The number of the first line from here on that is not blank (a line
    /// that is not text is not blank), if any.
    pub(super) fn first_not_blank(&self) -> Option<usize> {
        self.lines[self.next..]
            .iter()
            .position(|l| !l.trim_ascii().is_empty())
            .map(|i| self.next + i + 1)
    }
}

impl<'a> Iterator for Lines<'a> {
    /// The line's number and its text.
    type Item = (usize, Result<&'a str, NotText>);

    fn next(&mut self) -> Option<Self::Item> {
        let raw = self.lines.get(self.next)?;
        self.next += 1;
        let text = std::str::from_utf8(raw).map_err(|_| NotText);
        Some((self.next, text.map(str::trim)))
    }
}

/// `bytes` cut at every line end: LF, CRLF, or a lone CR (as old Mac
/// editors save), which would otherwise leave the whole file one line.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = i;
        match bytes[i] {
            b'\n' => {}
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i += 1,
            b'\r' => {}
            _ => {
                i += 1;
                continue;
            }
        }
        lines.push(&bytes[start..end]);
        i += 1;
        start = i;
    }
    lines.push(&bytes[start..]);
    lines
}

/// The most characters of the offending text an error quotes.
pub(super) const QUOTE_MAX: usize = 40;

/// Offending input as an error quotes it: cut to [`QUOTE_MAX`] characters
/// and an ellipsis, so that a message stays one short line even when the
/// whole file is one garbage line.
pub(super) struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_MAX) {
            Some((end, _)) => write!(f, "{:?}...", &self.0[..end]),
            None => write!(f, "{:?}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_end_ends_a_line_and_trailing_blanks_go() {
        let text = b"\xEF\xBB\xBFa \nb\r\nc\rd\n\xff\n\n \r\n";
        let mut lines = Lines::new(text);
        assert_eq!(lines.total(), 5);
        assert_eq!(lines.first_not_blank(), Some(1));
        let got: Vec<_> = lines.by_ref().take(4).collect();
        assert_eq!(
            got,
            vec![(1, Ok("a")), (2, Ok("b")), (3, Ok("c")), (4, Ok("d"))]
        );
        assert_eq!(lines.first_not_blank(), Some(5), "not text is not blank");
        assert_eq!(lines.next(), Some((5, Err(NotText))));
        assert_eq!((lines.next(), lines.number()), (None, 6));
        assert_eq!(Lines::new(b"x\n \n\ty").first_not_blank(), Some(1));
    }

    #[test]
    fn quotes_are_cut_to_a_short_head() {
        assert_eq!(Quoted("ab").to_string(), "\"ab\"");
        let long = "é".repeat(1000);
        let q = Quoted(&long).to_string();
        assert!(
            q.ends_with("\"...") && q.chars().count() == QUOTE_MAX + 5,
            "{q}"
        );
    }
}

//! White space: an `output.txt` that is the right answer but for its white
//! space, what differs, and how a report shows it.

use std::fmt;

use serde::Serialize;

/// A white-space difference between the `output.txt` written and the
/// expected one, when nothing else differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    /// CRLF (or CR) line ends instead of Unix ones.
    Crlf,
    /// The last line does not end with `\n`.
    NoFinalNewline,
    /// Spaces or tabs at the start or end of a line.
    EdgeSpaces,
    /// Several spaces or a tab between the move and its type.
    InnerSpaces,
    /// Blank lines.
    BlankLines,
}

impl fmt::Display for Spacing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Spacing::Crlf => "CRLF line ends",
            Spacing::NoFinalNewline => "no newline at the end",
            Spacing::EdgeSpaces => "spaces at the start or end of a line",
            Spacing::InnerSpaces => "extra spaces inside a line",
            Spacing::BlankLines => "blank lines",
        })
    }
}

/// `text` as the lenient grade reads it: every line's words joined by one
/// space, blank lines dropped, `\n` after every line.
pub(crate) fn normalized(text: &str) -> String {
    let mut s = String::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !words.is_empty() {
            s.push_str(&words.join(" "));
            s.push('\n');
        }
    }
    s
}

/// What the marks of [`visible`] stand for.
pub(crate) const VISIBLE_KEY: &str = "· a space, → a tab, ␍ a carriage return";

/// `line` with its white space made visible: every space `·`, tab `→` and
/// carriage return `␍`, so that a trailing space shows in a report.
pub(crate) fn visible(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            ' ' => '·',
            '\t' => '→',
            '\r' => '␍',
            c => c,
        })
        .collect()
}

/// The first line of `text` (from 1) that differs from `expected`'s, with
/// its white space made visible; `None` when only the end differs (no
/// final newline).
pub(super) fn first_spacing_line(text: &str, expected: &str) -> Option<(usize, String)> {
    let mut written = text.split('\n');
    let mut wanted = expected.lines();
    for i in 1.. {
        match (written.next(), wanted.next()) {
            (Some(w), Some(e)) if w == e => {}
            (Some(""), None) | (None, _) => return None,
            (Some(w), _) => return Some((i, visible(w))),
        }
    }
    None
}

/// The white-space differences of `text` from the canonical form.
pub(super) fn spacing(text: &str) -> Vec<Spacing> {
    let mut found = Vec::new();
    if text.contains('\r') {
        found.push(Spacing::Crlf);
    }
    if !text.ends_with('\n') {
        found.push(Spacing::NoFinalNewline);
    }
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    if lines.iter().any(|l| l.trim() != *l && !l.trim().is_empty()) {
        found.push(Spacing::EdgeSpaces);
    }
    if lines
        .iter()
        .any(|l| l.trim().contains("  ") || l.trim().contains('\t'))
    {
        found.push(Spacing::InnerSpaces);
    }
    if lines.iter().any(|l| l.trim().is_empty()) {
        found.push(Spacing::BlankLines);
    }
    found
}

//! Reading a stream line by line while holding at most a bounded part of
//! any line: a client that sends a line without end must not make the
//! reader hold all of it.

use std::io::{self, BufRead};

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// The input has ended: no more lines.
    End,
    /// A whole line, now in the buffer (with its `\n`, if it had one).
    Whole,
    /// A line longer than the limit; it was read through and dropped, and
    /// the buffer is empty.
    TooLong,
}

/// Reads the next line of `input` into `line` (cleared first). A line
/// whose text, its `\n` not counted, is longer than `limit` bytes is read
/// to its end and dropped without being held: `line` never grows beyond
/// `limit + 1` bytes.
pub(super) fn read_line<R: BufRead>(
    input: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Line> {
    line.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.map_or(buf.len(), |i| i + 1)];
        let text = line.len() + chunk.len() - usize::from(newline.is_some());
        if !too_long && text > limit {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len();
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    Ok(match (any, too_long) {
        (false, _) => Line::End,
        (true, false) => Line::Whole,
        (true, true) => Line::TooLong,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of `text` read with `limit`, through a small buffer so
    /// that lines span several fills.
    fn lines(text: &str, limit: usize) -> Vec<Result<String, Line>> {
        let mut input = io::BufReader::with_capacity(3, text.as_bytes());
        let mut line = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut input, &mut line, limit).unwrap() {
                Line::End => return out,
                Line::Whole => out.push(Ok(String::from_utf8(line.clone()).unwrap())),
                Line::TooLong => out.push(Err(Line::TooLong)),
            }
            assert!(line.len() <= limit + 1);
        }
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        assert_eq!(
            lines("abcd\nabcde\nabcdef\n\nxy", 5),
            vec![
                Ok("abcd\n".to_string()),
                Ok("abcde\n".to_string()),
                Err(Line::TooLong),
                Ok("\n".to_string()),
                Ok("xy".to_string()),
            ]
        );
        assert_eq!(lines("abcdefgh", 5), vec![Err(Line::TooLong)]);
        assert_eq!(lines("", 5), vec![]);
    }
}

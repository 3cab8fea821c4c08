//! What a report keeps of what a program wrote: of its `output.txt`,
//! standard output and standard error together, at most [`CASE_BYTES`] a
//! case, counted as JSON writes the text (a control character is six bytes
//! there), so that no report grows with a program's junk. The verdict is
//! not made from this: it reads the whole `output.txt` (up to its limit).

use crate::play::referee::Captured;

/// The most a report keeps of one case's `output.txt`, standard output and
/// standard error together, in bytes of JSON.
pub(crate) const CASE_BYTES: usize = 64 << 10;

/// The most kept of each of standard output and standard error, start and
/// end together; what they leave is `output.txt`'s.
pub(crate) const STREAM_BYTES: usize = 16 << 10;

/// Room for the lines that say what was left out.
const NOTE_BYTES: usize = 256;

/// Text kept of what a program wrote, and how many of its bytes it leaves
/// out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    /// The text kept (invalid UTF-8 replaced).
    pub(crate) text: String,
    /// Bytes written but not kept.
    pub(crate) cut: u64,
}

/// What a case's report keeps of the run's `output.txt` (`output`, of
/// `size` bytes in all), standard output and standard error.
pub(crate) fn keep_case(
    output: Option<&[u8]>,
    size: u64,
    stdout: &Captured,
    stderr: &Captured,
) -> (Option<Kept>, Kept, Kept) {
    let stdout = keep_stream(stdout, STREAM_BYTES);
    let stderr = keep_stream(stderr, STREAM_BYTES);
    let used = json_len(&stdout.text) + json_len(&stderr.text);
    let room = CASE_BYTES.saturating_sub(used + NOTE_BYTES);
    let output = output.map(|bytes| {
        let (text, taken) = start_within(bytes, room);
        Kept {
            text,
            cut: size.max(bytes.len() as u64) - taken as u64,
        }
    });
    (output, stdout, stderr)
}

/// The start and end of a stream, within `budget` bytes of JSON together,
/// with a line saying how many bytes between them are left out.
pub(crate) fn keep_stream(stream: &Captured, budget: usize) -> Kept {
    let (head, head_taken) = start_within(&stream.head, budget / 2);
    let (tail, tail_taken) = end_within(&stream.tail, budget / 2);
    let cut = stream.total - (head_taken + tail_taken) as u64;
    let mut text = head;
    if cut > 0 {
        text.push_str(&format!("\n[... {cut} bytes left out ...]\n"));
    }
    text.push_str(&tail);
    Kept { text, cut }
}

/// `text` cut to at most `budget` bytes of JSON, and whether it was cut.
pub(crate) fn clip(text: &str, budget: usize) -> (&str, bool) {
    let mut used = 0;
    for (at, c) in text.char_indices() {
        used += char_json_len(c);
        if used > budget {
            return (&text[..at], true);
        }
    }
    (text, false)
}

/// The longest start of `bytes` whose text is at most `budget` bytes of
/// JSON, and how many bytes of `bytes` it holds.
fn start_within(bytes: &[u8], budget: usize) -> (String, usize) {
    let mut text = String::new();
    let mut used = 0;
    let mut taken = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            used += char_json_len(c);
            if used > budget {
                return (text, taken);
            }
            text.push(c);
            taken += c.len_utf8();
        }
        for _ in chunk.invalid() {
            used += char_json_len(char::REPLACEMENT_CHARACTER);
            if used > budget {
                return (text, taken);
            }
            text.push(char::REPLACEMENT_CHARACTER);
            taken += 1;
        }
    }
    (text, taken)
}

/// The longest end of `bytes` whose text is at most `budget` bytes of
/// JSON, and how many bytes of `bytes` it holds.
fn end_within(bytes: &[u8], budget: usize) -> (String, usize) {
    // Each byte is at least one byte of JSON: no more than `budget` bytes
    // can fit, and the first of them may be the middle of a character.
    let mut from = bytes.len().saturating_sub(budget);
    loop {
        let (text, taken) = start_within(&bytes[from..], usize::MAX);
        let over = json_len(&text).saturating_sub(budget);
        if over == 0 {
            return (text, taken);
        }
        from += over.div_ceil(6).max(1);
    }
}

/// The bytes `text` takes in a JSON string, escapes included.
pub(crate) fn json_len(text: &str) -> usize {
    text.chars().map(char_json_len).sum()
}

/// The bytes `c` takes in a JSON string, as `serde_json` escapes it.
fn char_json_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lengths_are_serde_json_s() {
        let text = "a\"\\\n\t\u{0}\u{1f}é€😀\u{7f}";
        let json = serde_json::to_string(text).unwrap();
        assert_eq!(json_len(text), json.len() - 2);
    }

    #[test]
    fn a_start_and_an_end_fit_their_budget() {
        for bytes in [
            vec![b'x'; 100_000],
            vec![0u8; 100_000],
            vec![0xffu8; 100_000],
            "é€".repeat(30_000).into_bytes(),
        ] {
            for budget in [0, 1, 7, 1000, 4096] {
                let (text, taken) = start_within(&bytes, budget);
                assert!(json_len(&text) <= budget);
                assert!(
                    json_len(&text) + 6 > budget,
                    "{budget}: {}",
                    json_len(&text)
                );
                assert!(taken <= bytes.len());
                let (text, taken) = end_within(&bytes, budget);
                assert!(json_len(&text) <= budget, "{budget}");
                assert!(taken <= bytes.len());
            }
        }
        assert_eq!(start_within(b"abc", 10), ("abc".to_owned(), 3));
        assert_eq!(end_within(b"abcdef", 3), ("def".to_owned(), 3));
        assert_eq!(end_within(b"ab\0", 6), ("\0".to_owned(), 1));
    }

    #[test]
    fn a_case_keeps_at_most_its_budget_and_says_what_it_cut() {
        let junk = vec![b'\0'; 1 << 20];
        let stream = Captured {
            head: vec![0; 8 << 10],
            tail: vec![0; 8 << 10],
            total: 200 << 20,
        };
        let (output, stdout, stderr) = keep_case(Some(&junk), 200 << 20, &stream, &stream);
        let output = output.unwrap();
        let kept = json_len(&output.text) + json_len(&stdout.text) + json_len(&stderr.text);
        assert!(kept <= CASE_BYTES, "{kept}");
        assert_eq!(
            output.cut,
            (200 << 20) - output.text.len() as u64,
            "every byte kept is one NUL"
        );
        // Each NUL is six bytes of JSON: 1365 of them in each half.
        assert_eq!(stdout.cut, (200 << 20) - 2 * 1365);
        assert!(stdout
            .text
            .contains(&format!("[... {} bytes left out ...]", stdout.cut)));
    }

    #[test]
    fn a_short_answer_is_kept_whole() {
        let answer = b"A1 Stake\nX.\n..\n";
        let none = Captured::default();
        let (output, stdout, stderr) = keep_case(Some(answer), 15, &none, &none);
        assert_eq!(
            output,
            Some(Kept {
                text: "A1 Stake\nX.\n..\n".into(),
                cut: 0
            })
        );
        assert_eq!((stdout.cut, stderr.cut), (0, 0));
        assert_eq!(clip("A1 Stake", 100), ("A1 Stake", false));
        assert_eq!(clip("A1 Stake", 2), ("A1", true));
    }
}

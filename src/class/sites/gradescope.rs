//! Gradescope's export of a programming assignment: a `submission_N/`
//! folder of each submission's files, and `submission_metadata.yml`
//! naming who handed each in:
//!
//! ```yaml
//! :submission_301:
//!   :submitters:
//!   - :name: Jane Doe
//!     :sid: '3001'
//!     :email: jane@example.edu
//!   :created_at: 2026-01-01 10:00:00.000000000 -08:00
//!   :score: 10.0
//!   :results: ...
//! ```
//!
//! Only the submitters' names and ids are read, by a reader of that shape
//! rather than a YAML library: the file is written by one program (Ruby's
//! YAML, keys as Ruby symbols), the three fields wanted sit at indents
//! the shape fixes, and everything else (`:results:` holds the
//! autograder's output, of any depth and any text) is skipped by its
//! indent without being read. A whole YAML parser would read all of it,
//! anchors, tags and aliases included, from a file a student's output
//! partly writes, to give back three strings; the Rust ones well kept
//! today are large and young, and the one the ecosystem used is no
//! longer maintained. A key the reader does not know is left alone, and a
//! folder the metadata does not name is still graded, under its own name.

use std::collections::BTreeMap;

use super::Student;

/// Whether `top` names a submission's folder: `submission_` and a number.
pub(super) fn is_folder(top: &str) -> bool {
    top.strip_prefix("submission_")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The gradebook's name of the submission in `folder`, handed in by
/// `students`: their names and the folder's number.
pub(super) fn key(folder: &str, students: &[Student]) -> String {
    let names: Vec<&str> = students
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| !n.is_empty())
        .collect();
    match (names.is_empty(), folder.strip_prefix("submission_")) {
        (false, Some(n)) => format!("{}_{n}", names.join(" & ")),
        _ => folder.to_owned(),
    }
}

/// The submitters of each submission folder the metadata names.
///
/// `:submitters:` counts only as a key of the submission itself (at the
/// indent of its first key) and its items only at that indent: deeper
/// lines may be the autograder's output under `:results:`, which a
/// student writes, and must not name a submitter.
pub(super) fn submitters(metadata: &str) -> BTreeMap<String, Vec<Student>> {
    let mut out: BTreeMap<String, Vec<Student>> = BTreeMap::new();
    // The folder being read, the indent of its own keys, whether its
    // `:submitters:` list is being read, and the indent of the keys of
    // the submitter being read.
    let mut folder: Option<String> = None;
    let mut child: Option<usize> = None;
    let mut list = false;
    let mut item: Option<usize> = None;
    for line in metadata.lines() {
        let text = line.trim_start_matches(' ');
        if text.is_empty() || text.starts_with('#') || text == "---" {
            continue;
        }
        let indent = line.len() - text.len();
        if indent == 0 {
            folder = text
                .strip_suffix(':')
                .map(|k| k.trim_start_matches(':').to_owned())
                .filter(|k| is_folder(k));
            child = None;
            list = false;
            item = None;
            continue;
        }
        let Some(folder) = &folder else { continue };
        let at = *child.get_or_insert(indent);
        if list {
            if let Some(entry) = text.strip_prefix("- ") {
                if indent == at {
                    let keys = indent + 2 + (entry.len() - entry.trim_start().len());
                    item = Some(keys);
                    let submitters = out.entry(folder.clone()).or_default();
                    submitters.push(Student::default());
                    read_field(entry.trim_start(), submitters.last_mut());
                    continue;
                }
            }
            if indent > at && Some(indent) == item {
                read_field(text, out.get_mut(folder).and_then(|s| s.last_mut()));
                continue;
            }
            if indent > at {
                // A value deeper in a submitter: not one of the fields.
                continue;
            }
            list = false;
            item = None;
        }
        if indent == at && key_of(text) == Some("submitters") && value_of(text).is_empty() {
            list = true;
            out.entry(folder.clone()).or_default();
        }
    }
    out
}

/// Sets the field `text` (`:name: Jane Doe`) of `student` where it is one
/// of those read.
fn read_field(text: &str, student: Option<&mut Student>) {
    let Some(student) = student else { return };
    match key_of(text) {
        Some("name") => student.name = scalar(value_of(text)),
        Some("sid") => student.id = scalar(value_of(text)),
        _ => {}
    }
}

/// The key of a `key: value` line, its symbol's `:` taken off.
fn key_of(text: &str) -> Option<&str> {
    let text = text.strip_prefix(':').unwrap_or(text);
    let end = text
        .find(": ")
        .or_else(|| text.strip_suffix(':').map(str::len))?;
    Some(&text[..end])
}

/// The value of a `key: value` line, as written.
fn value_of(text: &str) -> &str {
    let text = text.strip_prefix(':').unwrap_or(text);
    match text.find(": ") {
        Some(at) => text[at + 2..].trim(),
        None => "",
    }
}

/// A one-line YAML scalar's text: plain, 'single' or "double" quoted;
/// empty for none (`~`, `null`) and for what no name is written as (a
/// block, an anchor, an alias, a tag).
fn scalar(value: &str) -> String {
    if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        return inner.replace("''", "'");
    }
    if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        return unescape(inner);
    }
    if value.starts_with(['|', '>', '&', '*', '!', '[', '{']) || value == "~" || value == "null" {
        return String::new();
    }
    // A plain scalar ends before a comment.
    value
        .split(" #")
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

/// A double-quoted scalar's escapes read: `\"`, `\\`, `\n`, `\t`,
/// `\xXX`, `\uXXXX`; another is kept as written.
fn unescape(inner: &str) -> String {
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let hex = |chars: &mut std::str::Chars, n: usize| {
            let digits: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&digits, 16)
                .ok()
                .and_then(char::from_u32)
        };
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('x') => out.extend(hex(&mut chars, 2)),
            Some('u') => out.extend(hex(&mut chars, 4)),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_s_submitters_are_read_and_the_rest_skipped() {
        let metadata = "\
---
:submission_1:
  :submitters:
  - :name: \"J\\u00F6rg \\\"Jo\\\" M\\u00FCller\"
    :sid: '0042'
    :email: j@example.edu
    :extra:
      :name: not this
  :results:
    :name: nor this
    :tests:
    - :name: nor this
  :score: 1.0
:submission_2:
  :score: 0
  :submitters:
  - :sid: 7 # a comment
    :name: O'Neil, Sam
:not_a_submission:
  :submitters:
  - :name: nobody
";
        let got = submitters(metadata);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            ["submission_1", "submission_2"]
        );
        assert_eq!(
            got["submission_1"],
            [Student {
                name: "Jörg \"Jo\" Müller".into(),
                id: "0042".into()
            }]
        );
        assert_eq!(
            got["submission_2"],
            [Student {
                name: "O'Neil, Sam".into(),
                id: "7".into()
            }]
        );
    }

    #[test]
    fn a_student_s_output_names_no_submitter() {
        // The autograder's output, which the student writes, laid out as
        // a submitters list at every indent.
        let metadata = "\
:submission_1:
  :submitters:
  - :name: Jane Doe
    :sid: '3001'
  :results:
    :tests:
    - :output: |-
        :submitters:
        - :name: Friend
          :sid: '999'
      :submitters:
      - :name: Friend
        :sid: '998'
    :submitters:
    - :name: Friend
      :sid: '997'
  :score: 1.0
:submission_2:
  :results:
    :output: |-
      :submitters:
      - :name: Friend
        :sid: '996'
  :submitters:
    - :name: Friend
      :sid: '995'
";
        let got = submitters(metadata);
        assert_eq!(
            got["submission_1"],
            [Student {
                name: "Jane Doe".into(),
                id: "3001".into()
            }]
        );
        assert_eq!(got["submission_2"], []);
    }

    #[test]
    fn folders_and_keys() {
        assert!(is_folder("submission_12"));
        assert!(!is_folder("submission_"));
        assert!(!is_folder("submission_metadata.yml"));
        let jane = Student {
            name: "Jane".into(),
            id: "1".into(),
        };
        assert_eq!(key("submission_9", &[jane]), "Jane_9");
        assert_eq!(key("submission_9", &[]), "submission_9");
    }
}

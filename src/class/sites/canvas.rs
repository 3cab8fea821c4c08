//! Canvas's "Download Submissions": one zip of flat files,
//! `lastfirst_userid_attachmentid_name` (`lastfirst_late_...` or
//! `lastfirst_LATE_...` when handed in late), the name being the student's
//! own but for a `-1`, `-2`, ... before its extension when a file of that
//! name was handed in before (the higher the number, the newer the file).
//! The squeezed name may hold `_`, so the ids are found by their shape,
//! the first `_(late_)?digits_digits_` from the left. An anonymous
//! assignment's files are `anon_ID_attachmentid_name` (`LATE_anon_...`
//! when late): the student is known by that anonymous id only.

use super::Student;

/// One file of a Canvas download, by its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct File {
    /// The student, by Canvas's squeezed name and user id.
    pub(super) student: Student,
    /// The file's name in the download, after the ids.
    pub(super) own: String,
    /// That name with a resubmission's number taken off (`homework.py`
    /// for `homework-2.py`): the student's own only when no other file of
    /// theirs has it too ([`super::Sorter`] decides).
    pub(super) name: String,
    /// That number: 0 for the first file of the name.
    pub(super) resubmission: u64,
    /// Canvas's id of the file (newer files have larger ones).
    pub(super) attachment: u64,
}

/// Whether `s` is a number.
fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `s` without a leading `late_` / `LATE_`.
fn without_late(s: &str) -> &str {
    match s.split_once('_') {
        Some((late, rest)) if late.eq_ignore_ascii_case("late") => rest,
        _ => s,
    }
}

/// The file named `name` in a Canvas download, if it is named so.
pub(super) fn parse(name: &str) -> Option<File> {
    if let Some(rest) = without_late(name).strip_prefix("anon_") {
        return anonymous(rest);
    }
    with_ids(name).or_else(|| without_attachment(name))
}

/// `lastfirst_[late_]userid_attachmentid_name`, the squeezed name
/// holding any `_`: the first place from the left where the ids fit.
fn with_ids(name: &str) -> Option<File> {
    for (at, _) in name.match_indices('_').filter(|(at, _)| *at > 0) {
        let rest = without_late(&name[at + 1..]);
        let Some((user, rest)) = rest.split_once('_') else {
            continue;
        };
        let Some((attachment, own)) = rest.split_once('_') else {
            continue;
        };
        if digits(user) && digits(attachment) && !own.is_empty() {
            return Some(file(&name[..at], user, attachment.parse().ok()?, own));
        }
    }
    None
}

/// `anon_ID_[late_]attachmentid_name` past `anon_`: the student known by
/// the anonymous id alone.
fn anonymous(rest: &str) -> Option<File> {
    let (id, rest) = rest.split_once('_')?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let (attachment, own) = match without_late(rest).split_once('_') {
        Some((n, own)) if digits(n) => (n.parse().ok()?, own),
        _ => (0, without_late(rest)),
    };
    (!own.is_empty()).then(|| file(&format!("anon_{id}"), id, attachment, own))
}

/// `lastfirst_[late_]userid_name`, a file with no attachment id: the
/// squeezed name up to the first `_`.
fn without_attachment(name: &str) -> Option<File> {
    let (student, rest) = name.split_once('_')?;
    let (user, rest) = without_late(rest).split_once('_')?;
    if student.is_empty() || !digits(user) {
        return None;
    }
    // The attachment's id is there for every uploaded file.
    let (attachment, own) = match rest.split_once('_') {
        Some((id, own)) if digits(id) => (id.parse().ok()?, own),
        _ => (0, rest),
    };
    if own.is_empty() {
        return None;
    }
    Some(file(student, user, attachment, own))
}

/// The file `own` of the student `student` (`user`), attachment id
/// `attachment`.
fn file(student: &str, user: &str, attachment: u64, own: &str) -> File {
    let (name, resubmission) = without_resubmission(own);
    File {
        student: Student {
            name: student.to_owned(),
            id: user.to_owned(),
        },
        own: own.to_owned(),
        name,
        resubmission,
        attachment,
    }
}

/// `homework-2.py` as `homework.py` and 2; a name with no number as
/// itself and 0.
fn without_resubmission(name: &str) -> (String, u64) {
    let (stem, extension) = match name.rfind('.') {
        Some(dot) if dot > 0 => name.split_at(dot),
        _ => (name, ""),
    };
    match stem.rsplit_once('-') {
        Some((base, n))
            if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
        {
            match n.parse() {
                Ok(n) => (format!("{base}{extension}"), n),
                Err(_) => (name.to_owned(), 0),
            }
        }
        _ => (name.to_owned(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_names_are_read() {
        let f = parse("doejane_late_1001_5001_homework_v2.py").unwrap();
        assert_eq!(
            (f.student.name.as_str(), f.student.id.as_str()),
            ("doejane", "1001")
        );
        assert_eq!(
            (f.name.as_str(), f.resubmission, f.attachment),
            ("homework_v2.py", 0, 5001)
        );
        let f = parse("roerichard_LATE_1002_5002_homework-12.py").unwrap();
        assert_eq!((f.name.as_str(), f.resubmission), ("homework.py", 12));
        let f = parse("roerichard_1002_Makefile-1").unwrap();
        assert_eq!(
            (f.name.as_str(), f.resubmission, f.attachment),
            ("Makefile", 1, 0)
        );
        assert_eq!(
            parse("poe_1003_5003_my-notes.txt").unwrap().name,
            "my-notes.txt"
        );
        // Names with `_`, and anonymous downloads.
        let f = parse("de_la_cruzmaria_LATE_1005_5010_hw_1.py").unwrap();
        assert_eq!(
            (f.student.name.as_str(), f.student.id.as_str()),
            ("de_la_cruzmaria", "1005")
        );
        assert_eq!((f.name.as_str(), f.attachment), ("hw_1.py", 5010));
        for anon in ["anon_Xy12Z_5001_hw.py", "LATE_anon_Xy12Z_5001_hw.py"] {
            let f = parse(anon).unwrap();
            assert_eq!(
                (f.student.name.as_str(), f.student.id.as_str()),
                ("anon_Xy12Z", "Xy12Z"),
                "{anon}"
            );
            assert_eq!((f.name.as_str(), f.attachment), ("hw.py", 5001));
        }
        for not in [
            "anon_X-y_5001_hw.py",
            "homework.py",
            "doe_x_1_a.py",
            "doe_1001_",
            "_1001_2_a.py",
            "doe_1001_5001_",
        ] {
            assert_eq!(parse(not), None, "{not}");
        }
    }
}

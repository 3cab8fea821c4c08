//! Canvas's "Download Submissions": one zip of flat files,
//! `lastfirst_userid_attachmentid_name` (`lastfirst_late_...` or
//! `lastfirst_LATE_...` when handed in late), the name being the student's
//! own but for a `-1`, `-2`, ... before its extension when a file of that
//! name was handed in before (the higher the number, the newer the file).

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

/// The file named `name` in a Canvas download, if it is named so.
pub(super) fn parse(name: &str) -> Option<File> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (student, rest) = name.split_once('_')?;
    let rest = match rest.split_once('_') {
        Some((late, rest)) if late.eq_ignore_ascii_case("late") => rest,
        _ => rest,
    };
    let (user, rest) = rest.split_once('_')?;
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
    let (name, resubmission) = without_resubmission(own);
    Some(File {
        student: Student {
            name: student.to_owned(),
            id: user.to_owned(),
        },
        own: own.to_owned(),
        name,
        resubmission,
        attachment,
    })
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
        for not in [
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

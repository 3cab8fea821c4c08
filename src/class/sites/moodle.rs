//! Moodle's "Download all submissions": `Full Name_12345_assignsubmission_file_`
//! before each of a student's file names, or as the name of a folder of
//! them; 12345 is the student's participant number (the offline grading
//! worksheet's `Participant 12345`), and `file` the plugin that took the
//! submission (`onlinetext` for text typed in).

use super::Student;

/// A name at the top of a Moodle download.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Found<'a> {
    /// The student, by full name and participant number.
    pub(super) student: Student,
    /// The file's own name; `None` for a folder of the student's files.
    pub(super) file: Option<&'a str>,
}

/// The name `top` of a Moodle download, if it is named so.
pub(super) fn parse(top: &str) -> Option<Found<'_>> {
    let (head, tail) = top.split_once("_assignsubmission_")?;
    let (name, id) = head.rsplit_once('_')?;
    let (plugin, file) = tail.split_once('_')?;
    let word = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric());
    if name.trim().is_empty()
        || id.is_empty()
        || !id.bytes().all(|b| b.is_ascii_digit())
        || !word(plugin)
    {
        return None;
    }
    Some(Found {
        student: Student {
            name: name.to_owned(),
            id: id.to_owned(),
        },
        file: (!file.is_empty()).then_some(file),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moodle_names_are_read() {
        let f = parse("Doe, Jane_Ann_2001_assignsubmission_file_homework_v1.py").unwrap();
        assert_eq!(f.student.name, "Doe, Jane_Ann");
        assert_eq!(f.student.id, "2001");
        assert_eq!(f.file, Some("homework_v1.py"));
        let f = parse("Roe Richard_2002_assignsubmission_file_").unwrap();
        assert_eq!((f.student.name.as_str(), f.file), ("Roe Richard", None));
        for not in [
            "Roe_x_assignsubmission_file_a.py",
            "_2_assignsubmission_file_a.py",
            "Roe_2_assignsubmission_a.py",
            "Roe_2_homework.py",
        ] {
            assert_eq!(parse(not), None, "{not}");
        }
    }
}

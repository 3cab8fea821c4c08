//! Cases read from a folder shaped like a course's test folders, each
//! folder's `output.txt` checked against the exact answer before any
//! program is graded on it: a wrong `output.txt` is the case's fault, said
//! once, and never the source of a verdict's values.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::api::ApiError;
use crate::text::parse_problem;

use super::cases::{
    generate_cases, Case, CaseKind, CaseSettings, Dispute, GradeBy, ASSIGNMENT_CASES,
};
use super::verdict::{judge_output, Verdict};

/// The cases of a grade and where they come from, in words: the
/// folder's (`cases_from`, its first `count` when given, graded `by` its
/// own answers or the exact ones where they differ), else `count` drawn
/// from `seed` (50 when not given, the assignment's number).
pub fn select_cases(
    cases_from: Option<&Path>,
    by: GradeBy,
    seed: u64,
    count: Option<usize>,
    time_limit: Duration,
) -> Result<(Vec<Case>, String), CasesError> {
    match cases_from {
        Some(dir) => {
            let mut folders = case_folders(dir)?;
            folders.truncate(count.unwrap_or(usize::MAX));
            let cases = folders
                .iter()
                .map(|folder| case_from_folder(folder, by))
                .collect::<Result<_, _>>()?;
            Ok((cases, format!("from {}", dir.display())))
        }
        None => {
            let settings = CaseSettings {
                seed,
                count: count.unwrap_or(ASSIGNMENT_CASES),
                time_limit,
            };
            Ok((generate_cases(&settings), format!("seed {seed}")))
        }
    }
}

/// Why the cases of a folder could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CasesError {
    /// The folder cannot be listed.
    // The reason is said in the message and is not the error's source, so
    // that a printer of the whole chain does not say it twice.
    #[error("cannot read the cases folder {}: {reason}", .dir.display())]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// No `input.txt` / `output.txt` pair in it.
    #[error("{}: no case in it (a case is a folder holding input.txt and output.txt)", .0.display())]
    Empty(PathBuf),
    /// A file of a case cannot be read.
    #[error("{}: {reason}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// An `input.txt` that is not a MINIMAX or ALPHABETA problem.
    #[error("{}: {reason}", .path.display())]
    Input {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: ApiError,
    },
}

/// The cases of `dir`, shaped as the course's test folders: every
/// sub-folder holding `input.txt` and `output.txt` is a case named after
/// it, in name order (or `dir` itself, when it holds the pair). Each
/// folder's `output.txt` (line ends made `\n`) is checked against the
/// exact answer; where they differ, the case carries the [`Dispute`] and
/// is graded `by` the one chosen.
pub fn cases_from_dir(dir: &Path, by: GradeBy) -> Result<Vec<Case>, CasesError> {
    case_folders(dir)?
        .iter()
        .map(|folder| case_from_folder(folder, by))
        .collect()
}

/// The case folders of `dir` (see [`cases_from_dir`]), in name order.
fn case_folders(dir: &Path) -> Result<Vec<PathBuf>, CasesError> {
    let folder_error = |reason| CasesError::Folder {
        dir: dir.to_path_buf(),
        reason,
    };
    let is_case = |p: &Path| p.join("input.txt").is_file() && p.join("output.txt").is_file();
    let mut folders: Vec<PathBuf> = if is_case(dir) {
        vec![dir.to_path_buf()]
    } else {
        let mut v = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(folder_error)? {
            let path = entry.map_err(folder_error)?.path();
            if is_case(&path) {
                v.push(path);
            }
        }
        v
    };
    if folders.is_empty() {
        return Err(CasesError::Empty(dir.to_path_buf()));
    }
    folders.sort();
    Ok(folders)
}

fn case_from_folder(folder: &Path, by: GradeBy) -> Result<Case, CasesError> {
    let read = |name: &str| {
        let path = folder.join(name);
        std::fs::read(&path).map_err(|reason| CasesError::File { path, reason })
    };
    let input_path = folder.join("input.txt");
    let input = read("input.txt")?;
    let expected = read("output.txt")?;
    let invalid = |reason: ApiError| CasesError::Input {
        path: input_path.clone(),
        reason,
    };
    let problem = parse_problem(&input).map_err(|e| invalid(e.into()))?;
    let name = folder.file_name().map_or_else(
        || folder.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut case = Case::new(name, CaseKind::Given, problem).map_err(invalid)?;
    // The program reads the folder's own text, as the course's grader gives it.
    case.input = String::from_utf8_lossy(&input).into_owned();
    let folder_answer = unix_text(&String::from_utf8_lossy(&expected));
    if folder_answer != case.expected {
        let line = dispute_line(&case, &folder_answer);
        if by == GradeBy::Folder {
            case.expected = folder_answer.clone();
        }
        case.dispute = Some(Dispute {
            folder: folder_answer,
            line,
            graded_by: by,
        });
    }
    Ok(case)
}

/// The one line that says how `folder_answer` (the folder's `output.txt`
/// for `case`) is wrong: the case, what it says, and the exact answer.
fn dispute_line(case: &Case, folder_answer: &str) -> String {
    let said = folder_answer.lines().next().unwrap_or("").trim();
    let says = match judge_output(case, folder_answer.as_bytes()) {
        Verdict::WrongMove { value, .. } => format!("says {said} (value {value})"),
        Verdict::IllegalMove { reason, .. } => format!("says {said}, an illegal move: {reason}"),
        Verdict::Spacing { differences, .. } => {
            let list: Vec<String> = differences.iter().map(|d| d.to_string()).collect();
            format!(
                "says {said}, the answer, but its white space differs: {}",
                list.join(", ")
            )
        }
        verdict => format!("says {said:?}: {verdict}"),
    };
    format!(
        "{}: its output.txt {says}; the textbook search answers {} (value {})",
        case.name, case.analysis.best, case.analysis.value
    )
}

/// `text` with `\n` line ends, no trailing blank lines and a final `\n`.
fn unix_text(text: &str) -> String {
    let mut s = text.replace("\r\n", "\n").replace('\r', "\n");
    while s.ends_with("\n\n") {
        s.pop();
    }
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::Failure;
    use crate::search::reference;

    #[test]
    fn folders_read_as_cases() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            cases_from_dir(dir.path(), GradeBy::Engine),
            Err(CasesError::Empty(_))
        ));
        assert!(matches!(
            cases_from_dir(&dir.path().join("nowhere"), GradeBy::Engine),
            Err(CasesError::Folder { .. })
        ));
        let case = dir.path().join("one");
        std::fs::create_dir(&case).unwrap();
        std::fs::write(
            case.join("input.txt"),
            "3\r\nMINIMAX\r\nO\r\n2\r\n1 8 23\r\n5 42 12\r\n26 30 9\r\nX..\r\n...\r\n...",
        )
        .unwrap();
        std::fs::write(case.join("output.txt"), "B3 Stake\r\nX..\r\n...\r\n.O.").unwrap();
        let cases = cases_from_dir(dir.path(), GradeBy::Engine).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].name, "one");
        assert_eq!(cases[0].expected, "B3 Stake\nX..\n...\n.O.\n");
        assert!(cases[0].input.contains("\r\n"), "the folder's own text");
        std::fs::write(case.join("input.txt"), "3\nCOMPETITION\nO\n2\n").unwrap();
        assert!(matches!(
            cases_from_dir(dir.path(), GradeBy::Engine),
            Err(CasesError::Input { .. })
        ));
    }

    /// The assignment's first example (O to move, depth 2) in a folder whose
    /// `output.txt` says `said`, graded `by`.
    fn example_with(said: &str, by: GradeBy) -> Case {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("input.txt"),
            "3\nMINIMAX\nO\n2\n1 8 23\n5 42 12\n26 30 9\nX..\n...\n...\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("output.txt"), said).unwrap();
        cases_from_dir(dir.path(), by).unwrap().remove(0)
    }

    /// The textbook value of `mv` for the player to move: the other
    /// player's textbook value after it, negated (the score is zero-sum).
    fn textbook_value(case: &Case, mv: &str) -> i64 {
        let p = &case.problem;
        let mut after = p.board.clone();
        after.make(mv.parse().unwrap(), p.player);
        -reference::minimax(&after, p.player.other(), case.depth() - 1).value
    }

    #[test]
    fn a_folder_answer_that_is_not_the_textbook_one_is_the_case_fault() {
        let p = &example_with("B3 Stake\nX..\n...\n.O.\n", GradeBy::Engine).problem;
        let textbook = reference::minimax(&p.board, p.player, 2);
        let answer = format!("{} (value {})", textbook.best, textbook.value);
        assert_eq!(answer, "B3 Stake (value -13)");
        let right = crate::text::answer_text(&p.board, p.player, textbook.best);

        // An illegal answer: named as such, and never given a value.
        let case = example_with("A1 Stake\nX..\n...\n...\n", GradeBy::Engine);
        let dispute = case.dispute.clone().unwrap();
        assert_eq!(
            dispute.line,
            format!(
                "{}: its output.txt says A1 Stake, an illegal move: A1 is taken; \
                 the textbook search answers {answer}",
                case.name
            )
        );
        assert_eq!(case.expected, right);
        assert_eq!(judge_output(&case, right.as_bytes()), Verdict::Pass);

        // A legal, worse answer: its own value; a program that writes it is
        // judged against the textbook answer.
        let worse = "B1 Stake\nXO.\n...\n...\n";
        let case = example_with(worse, GradeBy::Engine);
        let b1 = textbook_value(&case, "B1 Stake");
        assert!(b1 < textbook.value);
        let line = case.dispute.clone().unwrap().line;
        assert!(
            line.contains(&format!("says B1 Stake (value {b1})")),
            "{line}"
        );
        let v = judge_output(&case, worse.as_bytes());
        let Verdict::WrongMove {
            value,
            answer,
            answer_value,
            ..
        } = v
        else {
            panic!("{v}")
        };
        assert_eq!(
            (value, answer, answer_value),
            (b1, textbook.best, textbook.value)
        );

        // Graded by the folder: its answer passes, the textbook one fails
        // as the case's fault, with the textbook's values.
        let case = example_with(worse, GradeBy::Folder);
        assert_eq!(judge_output(&case, worse.as_bytes()), Verdict::Pass);
        let v = judge_output(&case, right.as_bytes());
        assert_eq!(
            v,
            Verdict::Disputed {
                answer: textbook.best,
                value: textbook.value
            }
        );
        let case = example_with("A1 Stake\nX..\n...\n...\n", GradeBy::Folder);
        assert_eq!(
            judge_output(&case, right.as_bytes()).failure(),
            Some(Failure::Disputed)
        );
    }
}

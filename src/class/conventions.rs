//! How a student's program is built and run when the class is graded with
//! no program named: found from the names of the files in the student's
//! folder, as the CSCI-561 assignment names them (`homework` with the
//! language's extension; `homework3.py` for Python 3.4 and
//! `homework11.cpp` for C++11), or from a `run.sh` or `Makefile` the
//! student gives. Precedence: `run.sh` (after `make` when there is a
//! `Makefile` too), then a `Makefile`, then one `homework` source.

use std::path::Path;

/// The source files a class is graded by, each with how it is built and
/// run: its language, the build's words (run in a copy of the folder) and
/// the run's words.
const SOURCES: [(&str, &str, &[&str], &[&str]); 9] = [
    ("homework.py", "Python 3", &[], &["python3", "homework.py"]),
    (
        "homework.py3",
        "Python 3",
        &[],
        &["python3", "homework.py3"],
    ),
    (
        "homework3.py",
        "Python 3",
        &[],
        &["python3", "homework3.py"],
    ),
    (
        "homework.java",
        "Java",
        &["javac", "-encoding", "UTF-8", "homework.java"],
        &["java", "homework"],
    ),
    (
        "Homework.java",
        "Java",
        &["javac", "-encoding", "UTF-8", "Homework.java"],
        &["java", "Homework"],
    ),
    (
        "homework.cpp",
        "C++",
        &["g++", "-O2", "-o", "homework", "homework.cpp"],
        &["./homework"],
    ),
    (
        "homework.cc",
        "C++",
        &["g++", "-O2", "-o", "homework", "homework.cc"],
        &["./homework"],
    ),
    (
        "homework11.cpp",
        "C++",
        &[
            "g++",
            "-std=c++11",
            "-O2",
            "-o",
            "homework",
            "homework11.cpp",
        ],
        &["./homework"],
    ),
    (
        "homework.c",
        "C",
        &["gcc", "-O2", "-o", "homework", "homework.c", "-lm"],
        &["./homework"],
    ),
];

/// How one student's program is built and run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Plan {
    /// The language or the student's own script, in words (`C++`,
    /// `run.sh`).
    pub(super) language: String,
    /// The build's words, run in a copy of the student's folder; `None`:
    /// nothing to build.
    pub(super) build: Option<Vec<String>>,
    /// The run's words; `None`: whatever `make` made (see
    /// [`made_by_make`]).
    pub(super) run: Option<Vec<String>>,
    /// The run starts from the built copy, not from the student's folder.
    pub(super) from_build: bool,
}

/// Why a student's folder has no plan.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum NoPlan {
    /// None of the conventions' files is there.
    #[error(
        "no program: none of {}, run.sh or Makefile in the folder",
        SOURCES.map(|s| s.0).join(", ")
    )]
    NoProgram,
    /// Two sources or more, and no script to say which one runs.
    #[error("more than one program: {} (keep one, or give a run.sh that runs it)", .0.join(", "))]
    ManyPrograms(Vec<&'static str>),
}

/// The plan for the student's folder `dir`, or why there is none (no
/// program there, or more than one).
pub(super) fn plan(dir: &Path) -> Result<Plan, NoPlan> {
    let has = |name: &str| dir.join(name).is_file();
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let make = ["Makefile", "makefile"].into_iter().find(|m| has(m));
    if has("run.sh") {
        let shell = if first_line(&dir.join("run.sh")).contains("bash") {
            "bash"
        } else {
            "sh"
        };
        return Ok(Plan {
            language: match make {
                Some(m) => format!("{m} + run.sh"),
                None => "run.sh".into(),
            },
            build: make.map(|_| words(&["make"])),
            run: Some(words(&[shell, "run.sh"])),
            from_build: make.is_some(),
        });
    }
    if let Some(m) = make {
        return Ok(Plan {
            language: m.into(),
            build: Some(words(&["make"])),
            run: None,
            from_build: true,
        });
    }
    let found: Vec<_> = SOURCES.iter().filter(|(name, ..)| has(name)).collect();
    match found[..] {
        [] => Err(NoPlan::NoProgram),
        [&(_, language, build, run)] => Ok(Plan {
            language: language.into(),
            build: (!build.is_empty()).then(|| words(build)),
            run: Some(words(run)),
            from_build: !build.is_empty(),
        }),
        _ => Err(NoPlan::ManyPrograms(found.iter().map(|s| s.0).collect())),
    }
}

/// What a `Makefile` made in `dir`, run by the same names as a source's
/// build: a `homework` program, else a `homework` or `Homework` Java class.
pub(super) fn made_by_make(dir: &Path) -> Option<Vec<String>> {
    let run: &[&str] = if dir.join("homework").is_file() {
        &["./homework"]
    } else if dir.join("homework.class").is_file() {
        &["java", "homework"]
    } else if dir.join("Homework.class").is_file() {
        &["java", "Homework"]
    } else {
        return None;
    };
    Some(run.iter().map(|s| (*s).to_owned()).collect())
}

/// The first line of the file at `path` (empty when it cannot be read).
fn first_line(path: &Path) -> String {
    let text = std::fs::read(path).unwrap_or_default();
    let line = text.split(|&b| b == b'\n').next().unwrap_or_default();
    String::from_utf8_lossy(line).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for f in files {
            std::fs::write(dir.path().join(f), "#!/bin/bash\n").unwrap();
        }
        dir
    }

    #[test]
    fn each_convention_is_found_by_its_file_names() {
        let plan_of = |files: &[&str]| plan(folder(files).path());
        let p = plan_of(&["homework.py", "notes.txt"]).unwrap();
        assert_eq!(
            (p.language.as_str(), p.build, p.run.unwrap(), p.from_build),
            (
                "Python 3",
                None,
                vec!["python3".into(), "homework.py".into()],
                false
            )
        );
        let p = plan_of(&["Homework.java"]).unwrap();
        assert_eq!(p.run.unwrap(), ["java", "Homework"]);
        assert!(p.build.unwrap().contains(&"Homework.java".to_owned()));
        let p = plan_of(&["homework11.cpp"]).unwrap();
        assert_eq!(p.language, "C++");
        assert!(p.build.unwrap().contains(&"-std=c++11".to_owned()));
        assert_eq!(p.run.unwrap(), ["./homework"]);
        assert_eq!(plan_of(&["homework.c"]).unwrap().language, "C");
        // The student's own script wins over the sources, after make.
        let p = plan_of(&["homework.cpp", "Makefile", "run.sh"]).unwrap();
        assert_eq!(p.language, "Makefile + run.sh");
        assert_eq!(p.build.unwrap(), ["make"]);
        assert_eq!(p.run.unwrap(), ["bash", "run.sh"]);
        assert!(p.from_build);
        let p = plan_of(&["homework.py", "run.sh"]).unwrap();
        assert!(!p.from_build && p.build.is_none());
        let p = plan_of(&["Makefile", "homework.c"]).unwrap();
        assert_eq!((p.language.as_str(), p.run), ("Makefile", None));

        let e = plan_of(&["homework.py", "homework.cpp"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("homework.py, homework.cpp"), "{e}");
        let e = plan_of(&["hw.py"]).unwrap_err().to_string();
        assert!(e.starts_with("no program: none of homework.py,"), "{e}");
    }

    #[test]
    fn what_make_made_is_run_by_its_name() {
        let dir = folder(&["Homework.class"]);
        assert_eq!(made_by_make(dir.path()).unwrap(), ["java", "Homework"]);
        std::fs::write(dir.path().join("homework"), "").unwrap();
        assert_eq!(made_by_make(dir.path()).unwrap(), ["./homework"]);
        assert_eq!(made_by_make(folder(&["a.out"]).path()), None);
    }
}

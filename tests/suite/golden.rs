//! Golden answers: the SPEC's examples and the case corpus.

use stakeraid::{parse_problem, solve, Engine, Limits};

use crate::util::{case_folders, normalized, SPEC_EXAMPLES};

fn engines() -> [Limits; 3] {
    [
        Limits {
            engine: Engine::Reference,
            threads: 1,
            ..Limits::default()
        },
        Limits {
            engine: Engine::Fast,
            threads: 1,
            ..Limits::default()
        },
        Limits {
            engine: Engine::Fast,
            threads: 2,
            ..Limits::default()
        },
    ]
}

#[test]
fn spec_examples() {
    for (input, expected) in SPEC_EXAMPLES {
        let problem = parse_problem(input.as_bytes()).unwrap();
        for options in engines() {
            let got = solve(&problem, &options).unwrap().text;
            assert_eq!(got, expected, "{options:?} on\n{input}");
        }
    }
}

/// Every corpus case, with every engine. Ignored, with the reason in the
/// test summary, when the corpus is not beside the crate (see build.rs);
/// [`corpus_is_there_under_ci`] makes that a failure under CI.
#[test]
#[cfg_attr(not(golden_cases), ignore = "../shared/cases not found")]
fn case_corpus() {
    let folders = case_folders();
    assert!(!folders.is_empty(), "no case folders in ../shared/cases");
    let (mut passed, mut failures) = (0, Vec::new());
    for dir in &folders {
        let input = std::fs::read(dir.join("input.txt")).unwrap();
        let expected = normalized(&std::fs::read_to_string(dir.join("output.txt")).unwrap());
        let problem = match parse_problem(&input) {
            Ok(p) => p,
            Err(e) => panic!("{}: {e}", dir.display()),
        };
        for options in engines() {
            let got = solve(&problem, &options).unwrap().text;
            if got != expected {
                failures.push(format!(
                    "{} with {options:?}\nexpected:\n{expected}got:\n{got}",
                    dir.display()
                ));
            }
        }
        passed += 1;
    }
    eprintln!("case corpus: {passed} matched");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Under CI (the `CI` environment variable set), the corpus must be there:
/// a missing one would otherwise pass as an ignored test. `case_folders`
/// fails in one line naming the folder.
#[test]
fn corpus_is_there_under_ci() {
    if std::env::var_os("CI").is_some() {
        assert!(!case_folders().is_empty());
        if !cfg!(golden_cases) {
            panic!(
                "CI is set and ../shared/cases is there now, but was not when the tests were built"
            );
        }
    }
}

//! Golden answers: the SPEC's examples and the case corpus.

use stakeraid::{parse_problem, solve, EngineKind, ParseErrorKind, SolveOptions};

use crate::util::{case_folders, normalized, SPEC_EXAMPLES};

fn engines() -> [SolveOptions; 3] {
    [
        SolveOptions {
            engine: EngineKind::Reference,
            threads: 1,
        },
        SolveOptions {
            engine: EngineKind::Fast,
            threads: 1,
        },
        SolveOptions {
            engine: EngineKind::Fast,
            threads: 2,
        },
    ]
}

#[test]
fn spec_examples() {
    for (input, expected) in SPEC_EXAMPLES {
        let problem = parse_problem(input.as_bytes()).unwrap();
        for options in engines() {
            let got = solve(&problem, &options).text;
            assert_eq!(got, expected, "{options:?} on\n{input}");
        }
    }
}

/// Every corpus case, with every engine. Inputs that break a SPEC rule (a
/// cell value of 0) must be refused as such; everything else must match.
#[test]
fn case_corpus() {
    let folders = case_folders();
    let (mut passed, mut refused, mut failures) = (0, 0, Vec::new());
    for dir in &folders {
        let input = std::fs::read(dir.join("input.txt")).unwrap();
        let expected = normalized(&std::fs::read_to_string(dir.join("output.txt")).unwrap());
        let problem = match parse_problem(&input) {
            Ok(p) => p,
            Err(e) if matches!(&e.kind, ParseErrorKind::BadValue(v) if v == "0") => {
                refused += 1;
                continue;
            }
            Err(e) => panic!("{}: {e}", dir.display()),
        };
        for options in engines() {
            let got = solve(&problem, &options).text;
            if got != expected {
                failures.push(format!(
                    "{} with {options:?}\nexpected:\n{expected}got:\n{got}",
                    dir.display()
                ));
            }
        }
        passed += 1;
    }
    eprintln!("case corpus: {passed} matched, {refused} refused for a value of 0");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(folders.is_empty() || passed > refused);
}

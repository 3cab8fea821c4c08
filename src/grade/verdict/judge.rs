//! Judging one run: past the time limit, the files written, the exit; then
//! what the `output.txt` written means against the exact answer, and, for
//! an answer that is legal output but wrong, which bug models write it.

use std::io;
use std::time::Duration;

use crate::game::{check_move, Move, MoveKind};
use crate::play::referee::{Exit, MAX_OUTPUT};
use crate::sandbox::LimitHit;
use crate::text::parse_answer;

use super::super::cases::Case;
use super::super::run::CaseRun;
use super::cause::{models_of, Miss};
use super::spacing::{first_spacing_line, normalized, spacing};
use super::{CellDiff, Verdict};

/// The share of the CPU-time limit past which a death by SIGXCPU or
/// SIGKILL is the limit's: the kernel's CPU accounting for `RLIMIT_CPU`
/// and the tree's measured time differ by a few clock ticks (a run stopped
/// at a 4 s limit may measure 3.9 s), and by more on a loaded machine (a
/// program under a shell script, stopped at a 1 s limit while other work
/// kept both cores busy, measured 0.86 s).
const NEAR_LIMIT: f64 = 0.75;

/// The verdict on `run` of `case` under a CPU-time limit of `time_limit`,
/// checked in this order: past a sandbox limit; past the time limit;
/// `output.txt` there (see [`judge_output`]); a file under another name; a
/// crash; no output.
/// A wrong move whose only explanation is a faulty search is not compared
/// with the other mode here (see [`super::with_other_mode`]).
pub fn judge(case: &Case, run: &CaseRun, time_limit: Duration) -> Verdict {
    match run.limit {
        Some(LimitHit::Memory { mb }) => return Verdict::MemoryLimit { mb },
        Some(LimitHit::Processes { max }) => return Verdict::TooManyProcesses { max },
        Some(LimitHit::Disk { mb }) => return Verdict::DiskLimit { mb },
        None => {}
    }
    let limit = time_limit.as_secs_f64();
    // The limit's signals, as the program died of them or as a wrapper (a
    // shell script running it) reports its child's death: 128 + signal.
    let limit_signal = |s: i32| s == libc::SIGXCPU || s == libc::SIGKILL;
    let near_limit = run.cpu >= limit * NEAR_LIMIT;
    let over = run.cpu >= limit
        || match run.exit {
            Exit::Killed | Exit::Signal(libc::SIGXCPU) => true,
            Exit::Signal(s) => near_limit && limit_signal(s),
            Exit::Code(c) => near_limit && limit_signal(c - 128),
        };
    if over {
        return Verdict::Timeout {
            cpu: run.cpu,
            wall: run.wall,
        };
    }
    match &run.output {
        Ok(bytes) => return judge_output(case, bytes),
        Err(io::ErrorKind::NotFound) => {}
        Err(kind) => {
            return Verdict::Malformed {
                line: None,
                reason: format!("output.txt cannot be read: {kind}"),
            }
        }
    }
    if let Some(found) = run.files.iter().find(|name| meant_as_output(name)) {
        return Verdict::WrongName {
            found: found.clone(),
        };
    }
    match run.exit {
        Exit::Code(0) => Verdict::NoOutput,
        exit => Verdict::Crash {
            exit,
            stderr: run.stderr_tail.clone(),
        },
    }
}

/// True for a file name that looks meant as `output.txt`: `Output.txt`,
/// `OUTPUT.TXT`, `output.txt.txt`, `output`, `out.txt`, ...
fn meant_as_output(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("output") || lower == "out.txt"
}

/// The verdict on an `output.txt` of `case`, the bytes written: a pass,
/// white space only, malformed (with the line), an illegal move, a wrong
/// board (with the cells), or a legal move that is not the answer, with
/// what that means ([`Miss`]).
pub fn judge_output(case: &Case, output: &[u8]) -> Verdict {
    if output == case.expected.as_bytes() {
        return Verdict::Pass;
    }
    if output.len() as u64 > MAX_OUTPUT {
        return Verdict::Malformed {
            line: None,
            reason: format!("output.txt is longer than {MAX_OUTPUT} bytes"),
        };
    }
    let text = std::str::from_utf8(output).ok();
    if let Some(text) = text {
        if normalized(text) == normalized(&case.expected) {
            let (line, written) = first_spacing_line(text, &case.expected).unzip();
            return Verdict::Spacing {
                differences: spacing(text),
                line,
                written,
            };
        }
    }
    let disputed = || Verdict::Disputed {
        answer: case.analysis.best,
        value: case.analysis.value,
    };
    if case.graded_by_folder()
        && text.is_some_and(|t| normalized(t) == normalized(&case.analysis.output_text()))
    {
        return disputed();
    }
    let board = &case.problem.board;
    let player = case.problem.player;
    let answer = match parse_answer(output, board.n()) {
        Ok(answer) => answer,
        Err(e) => {
            use crate::text::AnswerError::*;
            let line = match &e {
                Move(_) => Some(1),
                Cell { line, .. } | RowLength { line, .. } => Some(*line),
                NotText | Empty | RowCount { .. } => None,
            };
            // The error names its line; the verdict says it once.
            let reason = e.to_string();
            let reason = match line {
                Some(l) => reason
                    .strip_prefix(&format!("line {l}: "))
                    .map_or(reason.clone(), str::to_owned),
                None => reason,
            };
            return Verdict::Malformed { line, reason };
        }
    };
    let mv = answer.mv;
    // The models are run only here, on an output that parsed and is wrong.
    let models = || models_of(case, text.unwrap_or_default());
    let first = String::from_utf8_lossy(output);
    let first = first.lines().next().unwrap_or("");
    let written: Vec<&str> = first.split_whitespace().collect();
    if written.join(" ") != mv.to_string() {
        return Verdict::Malformed {
            line: Some(1),
            reason: format!("the move is written {first:?}; the format is \"{mv}\""),
        };
    }
    // The answer's board under another name: the search is right, and
    // only the naming of the move goes wrong (often its row and column
    // swapped), whether or not the name is a legal move.
    let best = case.analysis.best;
    let written_after = |m: Move| {
        let mut after = board.clone();
        after.make(m, player);
        after
            .cells_text()
            .lines()
            .eq(answer.rows.iter().map(String::as_str))
    };
    // A Raid that flips nothing leaves its Stake's board: then the board
    // is the program's own move's, named right.
    let own_board = check_move(board, player, mv).is_ok() && written_after(mv);
    if mv != best && !own_board && written_after(best) {
        return Verdict::WrongLabel {
            mv,
            answer: best,
            swapped: mv.kind() == best.kind() && (mv.row(), mv.col()) == (best.col(), best.row()),
            models: models(),
        };
    }
    if let Err(why) = check_move(board, player, mv) {
        return Verdict::IllegalMove {
            mv,
            reason: why.to_string(),
            models: models(),
        };
    }
    let mut after = board.clone();
    after.make(mv, player);
    let mut cells = Vec::new();
    for (r, (want, got)) in after.cells_text().lines().zip(&answer.rows).enumerate() {
        for (c, (w, g)) in want.chars().zip(got.chars()).enumerate() {
            if w != g {
                cells.push(CellDiff {
                    cell: Move::new(r, c, MoveKind::Stake).cell_name(),
                    expected: w,
                    found: g,
                });
            }
        }
    }
    if !cells.is_empty() {
        return Verdict::WrongBoard {
            mv,
            cells,
            models: models(),
        };
    }
    // Every value below is the engine's: the folder's `output.txt` may
    // name a move that is illegal or worse.
    let expected = case.analysis.best;
    let value_of = |m: Move| {
        case.analysis
            .moves
            .iter()
            .find(|r| r.mv == m)
            .map_or(case.analysis.value, |r| r.value)
    };
    if mv == expected {
        // Unreachable with a board parsed as it is: the answer and its
        // board, written otherwise than as white space, would fail above.
        return if case.graded_by_folder() {
            disputed()
        } else {
            Verdict::Malformed {
                line: None,
                reason: "the answer's board is written in a form not expected".into(),
            }
        };
    }
    let models = models();
    let miss = if models.reproduced_by.is_empty() {
        Miss::Unexplained
    } else {
        Miss::Reproduced
    };
    Verdict::WrongMove {
        mv,
        value: value_of(mv),
        answer: expected,
        answer_value: value_of(expected),
        models,
        miss,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{with_other_mode, Failure, Models, Spacing};
    use super::*;
    use crate::api::{analyse, Limits, Position};
    use crate::grade::cases::CaseKind;
    use crate::grade::Bug;
    use crate::parse_problem;
    use crate::search::reference;
    use crate::text::SearchMode;

    /// The assignment's third example: C3 Raid at depth 4, X to move.
    fn example(mode: &str, depth: u32) -> Case {
        let input = format!(
            "5\n{mode}\nX\n{depth}\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n\
             25 30 23 21 10\n..XX.\n..XOX\n...O.\n..OO.\n.....\n"
        );
        let problem = parse_problem(input.as_bytes()).unwrap();
        Case::new("example".into(), CaseKind::Given, problem).unwrap()
    }

    fn verdict(case: &Case, text: &str) -> Verdict {
        judge_output(case, text.as_bytes())
    }

    const RAID: &str = "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n.....\n";

    #[test]
    fn passes_and_white_space() {
        let case = example("ALPHABETA", 4);
        assert_eq!(case.expected, RAID);
        assert_eq!(verdict(&case, RAID), Verdict::Pass);
        assert_eq!(
            verdict(&case, RAID.trim_end()),
            Verdict::Spacing {
                differences: vec![Spacing::NoFinalNewline],
                line: None,
                written: None,
            }
        );
        let v = verdict(&case, &RAID.replace("C3 Raid", "C3 Raid "));
        assert_eq!(
            v.to_string(),
            "right answer, white space differs: spaces at the start or end of a line; \
             line 1 is \"C3·Raid·\" (· a space, → a tab, ␍ a carriage return)"
        );
        let v = verdict(&case, &RAID.replace("..XOX", "..XOX\t"));
        assert!(v.to_string().contains("line 3 is \"..XOX→\""), "{v}");
        let crlf = RAID.replace('\n', "\r\n").replace("C3 Raid", "C3  Raid ") + "\r\n";
        let v = verdict(&case, &crlf);
        assert_eq!(
            v,
            Verdict::Spacing {
                differences: vec![
                    Spacing::Crlf,
                    Spacing::EdgeSpaces,
                    Spacing::InnerSpaces,
                    Spacing::BlankLines
                ],
                line: Some(1),
                written: Some("C3··Raid·␍".into()),
            }
        );
        assert!(v.passes(true) && !v.passes(false));
    }

    #[test]
    fn malformed_illegal_and_wrong_boards_say_where() {
        let case = example("ALPHABETA", 4);
        let v = verdict(&case, "C3 Raid\n..XX.\n..XOX\n..XX.\n..X?.\n.....\n");
        assert!(matches!(v, Verdict::Malformed { line: Some(5), .. }), "{v}");
        // The line is said once.
        assert!(
            v.to_string().starts_with("malformed output.txt, line 5: "),
            "{v}"
        );
        assert_eq!(v.to_string().matches("line 5").count(), 1, "{v}");
        let v = verdict(&case, &RAID.replace("C3 Raid", "c3 raid"));
        assert!(matches!(v, Verdict::Malformed { line: Some(1), .. }), "{v}");
        assert_eq!(v.to_string().matches("line 1").count(), 1, "{v}");
        assert!(matches!(
            verdict(&case, ""),
            Verdict::Malformed { line: None, .. }
        ));
        let huge = format!("{RAID}{}", ".".repeat(2 << 20));
        let v = verdict(&case, &huge);
        assert!(v.to_string().contains("longer than 1048576 bytes"), "{v}");
        // The answer's board under another name is a label, legal or not.
        let v = verdict(&case, &RAID.replace("C3 Raid", "C1 Stake"));
        assert_eq!(v.failure(), Some(Failure::WrongLabel), "{v}");
        // A model given up says nothing of a name: no "not run" on a label.
        let label = Verdict::WrongLabel {
            mv: "C1 Stake".parse().unwrap(),
            answer: "C3 Raid".parse().unwrap(),
            swapped: false,
            models: Models {
                not_run: vec![Bug::OneDeep],
                ..Models::default()
            },
        };
        assert!(!label.to_string().contains("not run"), "{label}");
        let unchanged = "C1 Stake\n..XX.\n..XOX\n...O.\n..OO.\n.....\n";
        let v = verdict(&case, unchanged);
        assert_eq!(
            v,
            Verdict::IllegalMove {
                mv: "C1 Stake".parse().unwrap(),
                reason: "C1 is taken".into(),
                models: Models::default(),
            }
        );
        // The Raid written with the board of the Stake: no flips.
        let v = verdict(&case, "C3 Raid\n..XX.\n..XOX\n..XO.\n..OO.\n.....\n");
        let Verdict::WrongBoard { cells, .. } = &v else {
            panic!("{v}")
        };
        let names: Vec<&str> = cells.iter().map(|c| c.cell.as_str()).collect();
        assert_eq!(names, ["D3", "C4"]);
        assert_eq!(v.failure(), Some(Failure::WrongBoard));
    }

    /// The bugs whose models write `text` on `case`.
    fn reproduced(case: &Case, text: &str) -> Vec<Bug> {
        let v = verdict(case, text);
        v.models()
            .expect("a verdict on a legal output")
            .reproduced_by
            .clone()
    }

    #[test]
    fn wrong_moves_are_named_only_by_the_models_that_write_them() {
        // Depth 1 answers B3 Stake, depth 4 C3 Raid.
        let case = example("ALPHABETA", 4);
        let b3 = "B3 Stake\n..XX.\n..XOX\n.X.O.\n..OO.\n.....\n";
        let v = verdict(&case, b3);
        let Verdict::WrongMove {
            value,
            answer_value,
            ..
        } = v
        else {
            panic!("{v}")
        };
        assert!(value < answer_value);
        // The answer a ply short, at depth 2, is written by the models one
        // ply short and counting from 1 (the same at depth 2).
        let case2 = example("MINIMAX", 2);
        let a1 = analyse(
            &Position::from_problem(&case2.problem).unwrap(),
            &Limits::to_depth(SearchMode::Minimax, 1),
        )
        .unwrap();
        assert_ne!(a1.best, case2.analysis.best);
        let short = reproduced(&case2, &a1.output_text());
        assert!(short.contains(&Bug::OneShort) && short.contains(&Bug::DepthFromOne));
        assert!(!short.contains(&Bug::OneDeep), "{short:?}");
        let v = verdict(&case2, &a1.output_text());
        assert_eq!(v.failure(), Some(Failure::WrongMove));
        assert!(v.to_string().contains("one ply short"), "{v}");
        // The wrong side's choice.
        let p = &case.problem;
        let wrong = reference::alphabeta_scored_for(&p.board, p.player, 4, p.player.other()).best;
        let text = crate::text::answer_text(&p.board, p.player, wrong);
        assert!(reproduced(&case, &text).contains(&Bug::OtherSide));
        // A legal move no model writes names no bug: only the values.
        let v = verdict(&case, "E5 Stake\n..XX.\n..XOX\n...O.\n..OO.\n....X\n");
        let Verdict::WrongMove { models, miss, .. } = &v else {
            panic!("{v}")
        };
        assert!(models.reproduced_by.is_empty(), "{v}");
        assert_eq!(*miss, Miss::Unexplained);
        assert!(
            v.to_string()
                .ends_with("a lower value; no modelled bug writes this"),
            "{v}"
        );
    }

    #[test]
    fn a_quiet_raid_tied_with_its_stake_is_either_tie_bug() {
        // X at A1; B1 is worth most, and its Raid flips nothing.
        let input = "2\nMINIMAX\nX\n1\n1 9\n1 1\nX.\n..\n";
        let problem = parse_problem(input.as_bytes()).unwrap();
        let case = Case::new("tie".into(), CaseKind::Given, problem).unwrap();
        assert_eq!(case.expected, "B1 Stake\nXX\n..\n");
        let v = verdict(&case, "B1 Raid\nXX\n..\n");
        assert_eq!(
            v.to_string(),
            "B1 Raid (value 10) instead of B1 Stake (value 10): an equal value, and the \
             Stake on the same cell comes first; what a program with one of these \
             writes: ties won by the last best move (>=); Raids tried before Stakes"
        );
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["verdict"], "wrong_move");
        assert_eq!(json["why"], "reproduced");
        assert_eq!(
            json["reproduced_by"],
            serde_json::json!(["last_tie", "raids_first"])
        );
        assert_eq!(json["move"], "B1 Raid");
    }

    #[test]
    fn a_raid_next_to_any_piece_is_an_illegal_move_its_model_writes() {
        // X at C3, O at C1 and B2: B1 is next to O only.
        let input = "3\nMINIMAX\nX\n1\n1 50 5\n1 5 1\n1 1 1\n..O\n.O.\n..X\n";
        let problem = parse_problem(input.as_bytes()).unwrap();
        let case = Case::new("any".into(), CaseKind::Given, problem).unwrap();
        let v = verdict(&case, "B1 Raid\n.XX\n.X.\n..X\n");
        assert_eq!(v.failure(), Some(Failure::IllegalMove), "{v}");
        assert_eq!(
            reproduced(&case, "B1 Raid\n.XX\n.X.\n..X\n"),
            [Bug::RaidNextToAny]
        );
        assert!(
            v.to_string()
                .ends_with("a Raid allowed next to any piece writes"),
            "{v}"
        );
    }

    #[test]
    fn a_wrapper_reporting_the_limit_signal_is_a_timeout() {
        let case = example("ALPHABETA", 4);
        let limit = Duration::from_secs(4);
        let run = |cpu: f64, exit: Exit| CaseRun {
            cpu,
            wall: cpu,
            exit,
            output: Err(io::ErrorKind::NotFound),
            output_size: 0,
            files: Vec::new(),
            stdout: Default::default(),
            stderr: Default::default(),
            stderr_tail: "CPU time limit exceeded".into(),
            limit: None,
        };
        // Measured a little under the limit, as the kernel's accounting leaves it.
        let xcpu = 128 + libc::SIGXCPU;
        let kill = 128 + libc::SIGKILL;
        for exit in [
            Exit::Code(xcpu),
            Exit::Code(kill),
            Exit::Signal(libc::SIGKILL),
        ] {
            let v = judge(&case, &run(3.88, exit), limit);
            assert!(matches!(v, Verdict::Timeout { .. }), "{exit:?}: {v}");
        }
        // Far from the limit, the same codes are the program's own.
        let v = judge(&case, &run(0.5, Exit::Code(xcpu)), limit);
        assert!(matches!(v, Verdict::Crash { .. }), "{v}");
        let v = judge(&case, &run(3.88, Exit::Code(1)), limit);
        assert!(matches!(v, Verdict::Crash { .. }), "{v}");
    }

    #[test]
    fn the_other_mode_names_a_disagreement() {
        let case = example("ALPHABETA", 4);
        let wrong = Verdict::WrongMove {
            mv: "A1 Stake".parse().unwrap(),
            value: 0,
            answer: case.analysis.best,
            answer_value: 1,
            models: Models::default(),
            miss: Miss::Unexplained,
        };
        let other = case.other_mode();
        let v = with_other_mode(wrong.clone(), &other, &Verdict::Pass);
        assert!(
            matches!(
                v,
                Verdict::WrongMove {
                    miss: Miss::ModesDisagree { .. },
                    ..
                }
            ),
            "{v}"
        );
        assert_eq!(with_other_mode(wrong.clone(), &other, &wrong), wrong);
    }
}

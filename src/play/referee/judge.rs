//! Judging a program's move: one run of it, then what it did, checked in
//! order (CPU overrun, hang, crash, no answer, an unreadable answer, an
//! illegal move, a wrong board) down to the move it made.

use std::io;
use std::path::Path;

use crate::play::forfeit::{Forfeit, ForfeitReason};
use crate::play::game::check_move;
use crate::text::parse_answer;
use crate::{Board, Move, Player};

use super::clock::WallGuard;
use super::input::competition_input;
use super::process::{run_program, Exit, ProgramRun, MAX_OUTPUT};

/// One program move, judged.
#[derive(Debug)]
pub struct ProgramMove {
    /// CPU seconds charged: the program and every descendant, from the OS.
    pub cpu: f64,
    /// Wall-clock seconds.
    pub wall: f64,
    /// The move, or why the side forfeits.
    pub result: Result<Move, Forfeit>,
}

/// Runs one move of the program `command` in `dir` (its working folder,
/// kept between its moves): writes `input.txt` for `player` to move on
/// `board` with `seconds_left` CPU seconds, runs the program under `guard`,
/// and judges what it did (see [`judge`]). The error is the referee's own
/// trouble (writing files, starting `sh`).
pub fn program_move(
    command: &str,
    dir: &Path,
    board: &Board,
    player: Player,
    seconds_left: f64,
    guard: &WallGuard,
) -> io::Result<ProgramMove> {
    let input = competition_input(board, player, seconds_left);
    let run = run_program(command, dir, &input, guard.limit(seconds_left))?;
    Ok(ProgramMove {
        cpu: run.cpu,
        wall: run.wall,
        result: judge(&run, board, player, seconds_left),
    })
}

/// The move a program run made, or its forfeit, checked in this order:
/// CPU overrun (the run's CPU time reached `seconds_left`, also when the
/// wall guard stopped it), hang (stopped by the guard with time to spare),
/// crash (non-zero exit or a signal), no `output.txt`, then
/// [`check_answer`].
pub fn judge(
    run: &ProgramRun,
    board: &Board,
    player: Player,
    seconds_left: f64,
) -> Result<Move, Forfeit> {
    use ForfeitReason::*;
    if run.cpu >= seconds_left {
        return Err(Forfeit::new(
            CpuOverrun,
            format!(
                "used {:.3} s of CPU with {:.3} s left",
                run.cpu, seconds_left
            ),
        ));
    }
    let why = |what: String| {
        if run.stderr_tail.is_empty() {
            what
        } else {
            format!("{what}: {}", run.stderr_tail)
        }
    };
    match run.exit {
        Exit::Killed => {
            return Err(Forfeit::new(
                Hang,
                format!(
                    "no answer after {:.3} s of wall time ({:.3} s CPU)",
                    run.wall, run.cpu
                ),
            ))
        }
        Exit::Signal(s) => return Err(Forfeit::new(Crash, why(format!("killed by signal {s}")))),
        Exit::Code(0) => {}
        Exit::Code(c) => return Err(Forfeit::new(Crash, why(format!("exit code {c}")))),
    }
    match &run.output {
        Err(io::ErrorKind::NotFound) => Err(Forfeit::new(NoOutput, "no output.txt")),
        Err(kind) => Err(Forfeit::new(Unreadable, format!("output.txt: {kind}"))),
        Ok(bytes) if bytes.len() as u64 > MAX_OUTPUT => Err(Forfeit::new(
            Unreadable,
            format!("output.txt is longer than {} bytes", MAX_OUTPUT),
        )),
        Ok(bytes) => check_answer(bytes, board, player),
    }
}

/// Checks an `output.txt` for `player` to move on `board`: readable, a
/// legal move, and the board after that move. Returns the move, or the
/// forfeit ([`ForfeitReason::Unreadable`], [`ForfeitReason::IllegalMove`]
/// or [`ForfeitReason::WrongBoard`]) in that order of checking.
pub fn check_answer(text: &[u8], board: &Board, player: Player) -> Result<Move, Forfeit> {
    let n = board.n();
    let answer = parse_answer(text, n)
        .map_err(|e| Forfeit::new(ForfeitReason::Unreadable, e.to_string()))?;
    let mv = answer.mv;
    if let Err(why) = check_move(board, player, mv) {
        return Err(Forfeit::new(
            ForfeitReason::IllegalMove,
            format!("{mv}: {why}"),
        ));
    }
    let mut after = board.clone();
    after.make(mv, player);
    let expected = after.cells_text();
    for (i, (want, got)) in expected.lines().zip(&answer.rows).enumerate() {
        if want != got {
            return Err(Forfeit::new(
                ForfeitReason::WrongBoard,
                format!("after {mv}, line {} should be {want}, found {got}", i + 2),
            ));
        }
    }
    Ok(mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_problem;

    fn example() -> (Board, Player) {
        // The assignment's second example: X to move.
        let input = "5\nMINIMAX\nX\n1\n20 16 1 32 30\n20 12 2 11 8\n28 48 9 1 1\n20 12 10 6 2\n\
                     25 30 23 21 10\n..XX.\n..XOX\n...O.\n..OO.\n.....\n";
        let p = parse_problem(input.as_bytes()).unwrap();
        (p.board, p.player)
    }

    const RAID: &str = "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n.....\n";

    #[test]
    fn a_correct_answer_is_read_leniently() {
        let (board, p) = example();
        let want: Move = "C3 Raid".parse().unwrap();
        assert_eq!(check_answer(RAID.as_bytes(), &board, p), Ok(want));
        let crlf = RAID.replace('\n', " \r\n").replace("C3 Raid", "c3  raid") + "\r\n\n";
        assert_eq!(check_answer(crlf.as_bytes(), &board, p), Ok(want));
        let no_final_newline = RAID.trim_end();
        assert_eq!(
            check_answer(no_final_newline.as_bytes(), &board, p),
            Ok(want)
        );
    }

    #[test]
    fn each_fault_has_its_reason() {
        let (board, p) = example();
        let reason = |text: &str| check_answer(text.as_bytes(), &board, p).unwrap_err().reason;
        use ForfeitReason::*;
        for text in [
            "",
            "\n\n",
            "hello world\n",
            "C3 Raid\n",
            "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n",
            "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO.\n.....\n.....\n",
            "C3 Raid\n..XX.\n..XOX\n..XX.\n..Xo.\n.....\n",
            "C3 Raid\n..XX.\n..XOX\n..XX.\n..XO\n.....\n",
        ] {
            assert_eq!(reason(text), Unreadable, "{text:?}");
        }
        assert_eq!(
            check_answer(b"\xff\xfe", &board, p).unwrap_err().reason,
            Unreadable
        );
        // Taken cell, off the board, a Raid with no own piece next to it.
        for mv in ["C1 Stake", "F1 Stake", "A5 Raid"] {
            let text = RAID.replace("C3 Raid", mv);
            assert_eq!(reason(&text), IllegalMove, "{mv}");
        }
        // The Stake on the same cell does not flip D3 and D4.
        assert_eq!(reason(&RAID.replace("C3 Raid", "C3 Stake")), WrongBoard);
        assert_eq!(
            reason("C3 Raid\n..XX.\n..XOX\n...O.\n..OO.\n.....\n"),
            WrongBoard
        );
    }

    #[test]
    fn details_name_the_line() {
        let (board, p) = example();
        let f = check_answer(b"C3 Raid\n..XX.\n..XOX\n..XX.\n..X?.\n.....\n", &board, p);
        assert!(f.unwrap_err().detail.starts_with("line 5:"));
        let f = check_answer(RAID.replace("C3 Raid", "C1 Stake").as_bytes(), &board, p);
        assert_eq!(f.unwrap_err().detail, "C1 Stake: C1 is taken");
    }
}

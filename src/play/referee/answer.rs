//! Checking a program's `output.txt` against the position.

use crate::play::game::check_move;
use crate::text::parse_answer;
use crate::{Board, Move, Player};

use super::forfeit::{Forfeit, ForfeitReason};

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

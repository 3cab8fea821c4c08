//! One game in progress, whoever plays it: the position, whose turn it is,
//! the moves so far (which can be taken back), why a move would be
//! illegal, and the verdict at the end. The game loop ([`super::table`])
//! keeps every game in it.

pub use crate::game::{check_move, Illegal};
use crate::game::{legal_moves, Board, Cols, Move, Player, Undo};

/// The last move of a game, as a screen marks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub player: Player,
    /// The cells it turned over, `(row, col)` in row-major order.
    pub flipped: Vec<(usize, usize)>,
}

/// A game from a start position: moves are played for the side to move,
/// and the turn passes to the other side.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    to_move: Player,
    /// Each move played, with who played it and what takes it back.
    played: Vec<(Move, Player, Undo)>,
}

impl Game {
    /// A game from `start` with `first` to move.
    pub fn new(start: &Board, first: Player) -> Game {
        Game {
            board: start.clone(),
            to_move: first,
            played: Vec::new(),
        }
    }

    /// The position now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// True once the board is full: no side has a move.
    pub fn is_over(&self) -> bool {
        self.board.is_full()
    }

    /// The moves played so far, in order, with who played each.
    pub fn moves(
        &self,
    ) -> impl DoubleEndedIterator<Item = (Move, Player)> + ExactSizeIterator + '_ {
        self.played.iter().map(|&(mv, p, _)| (mv, p))
    }

    /// True when the side to move may play `mv`.
    pub fn is_legal(&self, mv: Move) -> bool {
        legal_moves(&self.board, self.to_move).contains(&mv)
    }

    /// Whether the side to move may play `mv`, and if not, why.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        check_move(&self.board, self.to_move, mv)
    }

    /// The last move, who played it and what it turned over, or `None` at
    /// the start.
    pub fn last_move(&self) -> Option<LastMove> {
        let &(mv, p, undo) = self.played.last()?;
        let mut flipped = Vec::new();
        for (k, bits) in undo.flipped().into_iter().enumerate() {
            // Row offsets -1, 0 and +1 from the move's row.
            let Some(r) = (mv.row() + k).checked_sub(1) else {
                continue;
            };
            flipped.extend(Cols(bits).map(|c| (r, c)));
        }
        Some(LastMove {
            mv,
            player: p,
            flipped,
        })
    }

    /// Plays `mv` for the side to move and passes the turn. The move must
    /// be legal: a move from outside is checked with [`Game::is_legal`]
    /// first (agents and checked answers give only legal ones).
    pub fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "{mv} is not legal here");
        let undo = self.board.make(mv, self.to_move);
        self.played.push((mv, self.to_move, undo));
        self.to_move = self.to_move.other();
    }

    /// Takes back the last move, which was `p`'s: `p` is to move again.
    /// `None` at the start.
    pub fn undo(&mut self) -> Option<(Move, Player)> {
        let (mv, p, undo) = self.played.pop()?;
        self.board.unmake(undo);
        self.to_move = p;
        Some((mv, p))
    }

    /// Takes back moves until only the first `plies` are left.
    pub fn undo_to(&mut self, plies: usize) {
        while self.played.len() > plies && self.undo().is_some() {}
    }

    /// The sum of `p`'s cell values.
    pub fn held(&self, p: Player) -> i64 {
        own_sum(&self.board, p)
    }

    /// The game score for `p`: its values minus the other side's.
    pub fn margin(&self, p: Player) -> i64 {
        self.board.score(p)
    }

    /// The side ahead on the score, `None` when level: at the end, the
    /// winner or a draw.
    pub fn winner(&self) -> Option<Player> {
        match self.margin(Player::X).signum() {
            1 => Some(Player::X),
            -1 => Some(Player::O),
            _ => None,
        }
    }
}

/// Sum of `p`'s cell values.
pub fn own_sum(board: &Board, p: Player) -> i64 {
    let mut s = 0;
    for r in 0..board.n() {
        for c in Cols(board.row(p, r)) {
            s += i64::from(board.value(r, c));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};
    use crate::game::Square;

    #[test]
    fn moves_pass_the_turn_and_undo_takes_them_back() {
        let start = random_board(&mut Rng::new(5), 3, 9, 0.2);
        let mut game = Game::new(&start, Player::O);
        let mut boards = vec![start.clone()];
        while !game.is_over() {
            let p = game.to_move();
            let mv = legal_moves(game.board(), p)[0];
            game.play(mv);
            assert_eq!(game.to_move(), p.other());
            assert_eq!(game.moves().last(), Some((mv, p)));
            boards.push(game.board().clone());
        }
        assert_eq!(game.moves().len() as u32, start.empty_count());
        let margin = game.margin(Player::X);
        assert_eq!(margin, game.held(Player::X) - game.held(Player::O));
        assert_eq!(
            game.winner().map(|w| w.sign()),
            Some(margin.signum()).filter(|&s| s != 0)
        );
        assert_eq!(game.margin(Player::O), -margin);

        let (_, last) = game.undo().unwrap();
        assert_eq!(game.to_move(), last, "the side that moved is to move again");
        assert_eq!(game.board(), &boards[boards.len() - 2]);
        game.undo_to(1);
        assert_eq!((game.moves().len(), game.board()), (1, &boards[1]));
        assert_eq!(game.to_move(), Player::X);
        game.undo_to(0);
        assert_eq!(game.board(), &start);
        assert_eq!((game.undo(), game.to_move()), (None, Player::O));
        assert_eq!(game.last_move(), None);
    }

    #[test]
    fn illegal_moves_say_why_and_the_last_move_shows_its_flips() {
        // X at A1 and C2, O at B1 and A2: X's Raid on B2 turns both.
        let mut board = Board::new(3, &[1; 9]);
        board.set(0, 0, Square::Piece(Player::X));
        board.set(1, 2, Square::Piece(Player::X));
        board.set(0, 1, Square::Piece(Player::O));
        board.set(1, 0, Square::Piece(Player::O));
        let mut game = Game::new(&board, Player::X);
        let why =
            |game: &Game, text: &str| game.check(text.parse().unwrap()).map_err(|e| e.to_string());
        assert_eq!(why(&game, "A1 Stake"), Err("A1 is taken".into()));
        assert_eq!(
            why(&game, "D1 Stake"),
            Err("D1 is off the 3x3 board".into())
        );
        assert_eq!(why(&game, "A3 Raid"), Err("no X piece next to A3".into()));
        assert_eq!(why(&game, "B2 Raid"), Ok(()));
        for mv in legal_moves(game.board(), Player::X) {
            assert_eq!(game.check(mv), Ok(()));
        }
        game.play("B2 Stake".parse().unwrap());
        let last = game.last_move().unwrap();
        assert_eq!(
            (last.mv.to_string(), last.player, last.flipped),
            ("B2 Stake".into(), Player::X, vec![])
        );
        game.undo();
        game.play("B2 Raid".parse().unwrap());
        assert_eq!(game.last_move().unwrap().flipped, [(0, 1), (1, 0)]);
    }
}

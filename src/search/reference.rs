//! The textbook searches, exactly as the grader runs them: AIMA minimax and
//! alpha-beta with a depth cut-off, moves in canonical order, the first
//! maximal root move chosen. Slow and plain on purpose: every faster engine
//! is tested against these.

use crate::game::{legal_moves, Move};
use crate::game::{Board, Player};
use crate::search::root::RootValue;

/// The answer of a textbook search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decision {
    /// The chosen root move.
    pub best: Move,
    /// Its minimax value, from the root player's point of view.
    pub value: i64,
    /// Positions visited, the root included.
    pub nodes: u64,
}

/// Nodes between two looks at the stop condition of a timed search.
const STOP_EVERY: u64 = 1 << 12;

struct Search<'a> {
    root: Player,
    /// Whose score a leaf takes: the root player's in the textbook search.
    scored_for: Player,
    depth: u32,
    nodes: u64,
    /// Asked every [`STOP_EVERY`] nodes; once true, every node is a leaf
    /// and the search's result is thrown away.
    stop: &'a dyn Fn() -> bool,
    stopped: bool,
}

impl<'a> Search<'a> {
    /// A textbook search for `player` to `depth` plies, scored for `player`.
    fn new(player: Player, depth: u32, stop: &'a dyn Fn() -> bool) -> Search<'a> {
        Search {
            root: player,
            scored_for: player,
            depth,
            nodes: 1,
            stop,
            stopped: false,
        }
    }

    /// The alpha-beta root: every move in canonical order, the first one
    /// strictly better than the best so far chosen.
    fn alphabeta_root(&mut self, board: &Board) -> Option<Rooted> {
        assert!(self.depth >= 1 && !board.is_full());
        let player = self.root;
        let mut board = board.clone();
        let mut best: Option<(Move, i64)> = None;
        let mut moves = Vec::new();
        for mv in legal_moves(&board, player) {
            let alpha = best.map_or(i64::MIN, |(_, b)| b);
            let undo = board.make(mv, player);
            let v = self.min_value(&mut board, 1, alpha, i64::MAX);
            board.unmake(undo);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((mv, v));
                moves.push((mv, RootValue::Exact(v)));
            } else {
                moves.push((mv, RootValue::AtMost(v)));
            }
        }
        self.rooted(best, moves)
    }

    /// The answer of a root search whose best was `best`, with every
    /// root value in `moves`; `None` if it was stopped.
    fn rooted(&self, best: Option<(Move, i64)>, moves: Vec<(Move, RootValue)>) -> Option<Rooted> {
        let (best, value) = best.expect("a board that is not full has a move");
        (!self.stopped).then_some(Rooted {
            decision: Decision {
                best,
                value,
                nodes: self.nodes,
            },
            moves,
        })
    }

    fn cutoff(&mut self, board: &Board, depth: u32) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_EVERY) && !self.stopped {
            self.stopped = (self.stop)();
        }
        self.stopped || depth == self.depth || board.is_full()
    }

    fn minimax(&mut self, board: &mut Board, to_move: Player, depth: u32) -> i64 {
        if self.cutoff(board, depth) {
            return board.score(self.scored_for);
        }
        let maximizing = to_move == self.root;
        let mut v = if maximizing { i64::MIN } else { i64::MAX };
        for mv in legal_moves(board, to_move) {
            let undo = board.make(mv, to_move);
            let child = self.minimax(board, to_move.other(), depth + 1);
            board.unmake(undo);
            v = if maximizing {
                v.max(child)
            } else {
                v.min(child)
            };
        }
        v
    }

    fn max_value(&mut self, board: &mut Board, depth: u32, mut alpha: i64, beta: i64) -> i64 {
        if self.cutoff(board, depth) {
            return board.score(self.scored_for);
        }
        let mut v = i64::MIN;
        for mv in legal_moves(board, self.root) {
            let undo = board.make(mv, self.root);
            v = v.max(self.min_value(board, depth + 1, alpha, beta));
            board.unmake(undo);
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
        v
    }

    fn min_value(&mut self, board: &mut Board, depth: u32, alpha: i64, mut beta: i64) -> i64 {
        if self.cutoff(board, depth) {
            return board.score(self.scored_for);
        }
        let mut v = i64::MAX;
        let opponent = self.root.other();
        for mv in legal_moves(board, opponent) {
            let undo = board.make(mv, opponent);
            v = v.min(self.max_value(board, depth + 1, alpha, beta));
            board.unmake(undo);
            if v <= alpha {
                return v;
            }
            beta = beta.min(v);
        }
        v
    }
}

/// Textbook minimax decision for `player` to `depth` plies (`depth >= 1`,
/// the board not full).
#[cfg(test)]
pub(crate) fn minimax(board: &Board, player: Player, depth: u32) -> Decision {
    minimax_until(board, player, depth, &|| false)
        .expect("never stopped")
        .decision
}

/// Textbook alpha-beta decision: the root is a max node whose alpha is the
/// best value so far, so a later move must be strictly better to be chosen.
pub(crate) fn alphabeta(board: &Board, player: Player, depth: u32) -> Decision {
    alphabeta_scored_for(board, player, depth, player)
}

/// [`alphabeta`] with every leaf scored from `scored_for`'s point of view
/// instead of `player`'s. With the other player it is the choice of a
/// program whose evaluation takes the wrong side (`player` still moves
/// first and maximizes): the grader names that mistake by it.
pub(crate) fn alphabeta_scored_for(
    board: &Board,
    player: Player,
    depth: u32,
    scored_for: Player,
) -> Decision {
    let mut s = Search {
        scored_for,
        ..Search::new(player, depth, &|| false)
    };
    s.alphabeta_root(board).expect("never stopped").decision
}

/// A decision with what the search proved about each root move, in
/// canonical order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rooted {
    /// The decision.
    pub decision: Decision,
    /// Every root move: exact, or at most a value where alpha-beta cut it.
    pub moves: Vec<(Move, RootValue)>,
}

/// [`minimax`] with every root value, or `None` once `stop` (asked now and
/// then) says so.
pub(crate) fn minimax_until(
    board: &Board,
    player: Player,
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> Option<Rooted> {
    assert!(depth >= 1 && !board.is_full());
    let mut s = Search::new(player, depth, stop);
    let mut board = board.clone();
    let mut best: Option<(Move, i64)> = None;
    let mut moves = Vec::new();
    for mv in legal_moves(&board, player) {
        let undo = board.make(mv, player);
        let v = s.minimax(&mut board, player.other(), 1);
        board.unmake(undo);
        moves.push((mv, RootValue::Exact(v)));
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((mv, v));
        }
    }
    s.rooted(best, moves)
}

/// [`alphabeta`] with every root value, or `None` once `stop` (asked now
/// and then) says so. A move no better than the best before it is only
/// bounded: its search stopped once it could not be chosen.
pub(crate) fn alphabeta_until(
    board: &Board,
    player: Player,
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> Option<Rooted> {
    Search::new(player, depth, stop).alphabeta_root(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};

    #[test]
    fn scored_for_the_wrong_side_picks_the_worst_move_at_depth_one() {
        let mut rng = Rng::new(5);
        for _ in 0..20 {
            let board = random_board(&mut rng, 4, 20, 0.4);
            for p in [Player::X, Player::O] {
                let (right, textbook) =
                    (alphabeta_scored_for(&board, p, 2, p), minimax(&board, p, 2));
                assert_eq!((right.best, right.value), (textbook.best, textbook.value));
                // One ply: the first move leaving the mover's own score lowest.
                let mut worst: Option<(Move, i64)> = None;
                for mv in legal_moves(&board, p) {
                    let mut b = board.clone();
                    b.make(mv, p);
                    let own = b.score(p);
                    if worst.is_none_or(|(_, w)| own < w) {
                        worst = Some((mv, own));
                    }
                }
                let wrong = alphabeta_scored_for(&board, p, 1, p.other());
                assert_eq!(
                    (wrong.best, wrong.value),
                    (worst.unwrap().0, -worst.unwrap().1)
                );
            }
        }
    }
}

//! The textbook search with switches: how a program searches and writes
//! ([`Rules`]). Every switch at its textbook setting ([`Rules::TEXTBOOK`])
//! is AIMA minimax and alpha-beta exactly as `search/reference.rs` runs
//! them (tested equal below); a bug ([`super::Bug`]) turns one switch, a
//! convention ([`super::Convention`]) another that leaves a correct
//! program's answer alone. The search is plain on purpose, on its own
//! small board: a bug such as a Raid next to any piece plays moves the
//! engine's board refuses.

use crate::game::{Board, Move, MoveKind, Player, Square};
use crate::text::SearchMode;

/// Which root move wins a tie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ties {
    /// The first (`>`): the textbook.
    First,
    /// The last (`>=`).
    Last,
}

/// The order moves are tried in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Stakes row-major, then Raids row-major: the textbook.
    Canonical,
    /// Raids row-major, then Stakes row-major.
    RaidsFirst,
}

/// Which Raids a player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Raids {
    /// Next to an own piece, flipping the enemy neighbours: the textbook.
    Textbook,
    /// Next to an own piece, flipping nothing.
    FlipNothing,
    /// Next to any piece, flipping the enemy neighbours.
    NextToAny,
    /// None.
    None,
}

/// How many plies are searched, from the depth asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Plies {
    /// The depth asked: the textbook.
    Asked,
    /// One fewer, at least one.
    Short,
    /// One more.
    Deep,
    /// One fewer, and at depth 1 to the full board.
    FromOne,
}

/// Whose score a position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scored {
    /// The root player's: the textbook.
    Mover,
    /// The other player's.
    Other,
    /// At each leaf, the side to move there.
    SideToMove,
}

/// How a program searches and writes its answer: the textbook, or the
/// textbook with one bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    pub ties: Ties,
    pub order: Order,
    pub raids: Raids,
    pub plies: Plies,
    pub scored: Scored,
    /// The root's best value before any move, the first move its default;
    /// `None`: minus infinity (the textbook).
    pub start: Option<i64>,
    /// In ALPHABETA mode, the opponent maximizes too.
    pub opponent_maximizes: bool,
    /// The flips shown on the board written (the textbook).
    pub flips_written: bool,
    /// Raids with no enemy neighbour (they turn nothing over) generated:
    /// the textbook; off, a program lists only the Raids that can flip.
    pub quiet_raids: bool,
}

impl Rules {
    /// AIMA minimax and alpha-beta with a depth cut-off, moves in canonical
    /// order, the first maximal root move kept.
    pub(crate) const TEXTBOOK: Rules = Rules {
        ties: Ties::First,
        order: Order::Canonical,
        raids: Raids::Textbook,
        plies: Plies::Asked,
        scored: Scored::Mover,
        start: None,
        opponent_maximizes: false,
        flips_written: true,
        quiet_raids: true,
    };

    /// These rules on a case asked `depth` with `empties` empty cells: a
    /// depth bug that searches the plies asked there is no bug there.
    pub(crate) fn on_case(self, depth: u32, empties: u32) -> Rules {
        if self.plies(depth, empties) == Rules::TEXTBOOK.plies(depth, empties) {
            Rules {
                plies: Plies::Asked,
                ..self
            }
        } else {
            self
        }
    }

    /// The plies searched for `depth` asked on a board with `empties` empty
    /// cells (the game ends there).
    pub(crate) fn plies(&self, depth: u32, empties: u32) -> u32 {
        let plies = match self.plies {
            Plies::Asked => depth,
            Plies::Short => depth.saturating_sub(1).max(1),
            Plies::Deep => depth + 1,
            Plies::FromOne if depth == 1 => empties,
            Plies::FromOne => depth - 1,
        };
        plies.min(empties)
    }

    /// True when these rules without quiet Raids write what they write
    /// with them. A quiet Raid reaches the position of the Stake on its
    /// cell (the model's own flips included: a Raid with no enemy
    /// neighbour turns nothing over under every rule), so no value
    /// anywhere changes; only the root's choice between the two can, and
    /// with Stakes first and the first maximal move kept, the Stake
    /// always wins it.
    pub(crate) fn quiet_raids_matter(&self) -> bool {
        self.ties == Ties::Last || self.order == Order::RaidsFirst
    }

    /// These rules in the form shared by every rules that write the same
    /// on every input, as far as the switches alone say: two rules whose
    /// forms are equal never answer differently (tested below on many
    /// small positions). Two steps, each exact:
    /// - quiet Raids: where [`Rules::quiet_raids_matter`] is false they
    ///   change nothing (its argument), so they are put back on;
    /// - Raids that turn nothing over, with Stakes first and the first
    ///   maximal root move kept: each Raid reaches the position of the
    ///   Stake on its cell, tried before it, so no position's value changes
    ///   (alpha-beta returns every root move's value exactly when it beats
    ///   the best so far, and at most that best otherwise) and the root
    ///   never takes the Raid over its Stake: the program is the one with no
    ///   Raids (whose board written has no flips either way).
    pub(crate) fn canonical(self) -> Rules {
        let mut r = self;
        if !r.quiet_raids_matter() {
            r.quiet_raids = true;
            if r.raids == Raids::FlipNothing {
                r.raids = Raids::None;
            }
        }
        if r.raids == Raids::None {
            // No Raid is ever listed or played: nothing to flip or show.
            r.quiet_raids = true;
            r.flips_written = true;
        }
        r
    }

    /// True when alpha-beta chooses the root move plain minimax chooses:
    /// with the first maximal move kept and the opponent minimizing, a move
    /// is chosen only when strictly better than the best so far, and then
    /// its value is exact. Only these rules may prune in MINIMAX mode.
    fn root_choice_is_exact(&self) -> bool {
        self.ties == Ties::First && !self.opponent_maximizes
    }
}

/// What a program with some [`Rules`] writes on a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Written {
    /// Its move.
    pub mv: Move,
    /// Its `output.txt`: the move and the board after it.
    pub text: String,
}

/// What the program with `rules` writes for `player` on `board`, asked
/// `mode` to `depth`; `None` when the search needs more than `max_nodes`
/// positions (the board must have an empty cell).
pub(crate) fn written(
    rules: &Rules,
    board: &Board,
    player: Player,
    mode: SearchMode,
    depth: u32,
    max_nodes: u64,
) -> Option<Written> {
    let mut b = Plain::new(board);
    let prune = mode == SearchMode::AlphaBeta || rules.root_choice_is_exact();
    let mut s = Search {
        rules,
        root: player,
        scored_for: match rules.scored {
            Scored::Mover | Scored::SideToMove => player,
            Scored::Other => player.other(),
        },
        plies: rules.plies(depth, b.empties),
        prune,
        nodes: 1,
        max_nodes,
    };
    let mv = s.root(&mut b)?;
    let mut shown = *rules;
    if !rules.flips_written {
        shown.raids = Raids::FlipNothing;
    }
    let flips = b.flips(&shown, mv, player);
    b.play(mv, player, &flips);
    let mut text = format!("{mv}\n");
    for r in 0..b.n {
        for c in 0..b.n {
            text.push(match b.cells[r * b.n + c] {
                None => '.',
                Some(p) => p.symbol(),
            });
        }
        text.push('\n');
    }
    Some(Written { mv, text })
}

/// A board as a homework keeps it: a cell list and the score kept for X.
struct Plain {
    n: usize,
    cells: Vec<Option<Player>>,
    values: Vec<i64>,
    /// X's cells' values minus O's.
    score_x: i64,
    empties: u32,
}

impl Plain {
    fn new(board: &Board) -> Plain {
        let n = board.n();
        let mut cells = Vec::with_capacity(n * n);
        let mut values = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                cells.push(match board.square(r, c) {
                    Square::Empty => None,
                    Square::Piece(p) => Some(p),
                });
                values.push(i64::from(board.value(r, c)));
            }
        }
        Plain {
            n,
            cells,
            values,
            score_x: board.score(Player::X),
            empties: board.empty_count(),
        }
    }

    fn score(&self, p: Player) -> i64 {
        match p {
            Player::X => self.score_x,
            Player::O => -self.score_x,
        }
    }

    /// The orthogonal neighbours of cell `i`.
    fn near(&self, i: usize) -> impl Iterator<Item = usize> {
        let (n, r, c) = (self.n, i / self.n, i % self.n);
        let up = (r > 0).then(|| i - n);
        let down = (r + 1 < n).then(|| i + n);
        let left = (c > 0).then(|| i - 1);
        let right = (c + 1 < n).then(|| i + 1);
        [up, down, left, right].into_iter().flatten()
    }

    /// `p`'s moves under `rules`, in the order tried.
    fn moves(&self, rules: &Rules, p: Player) -> Vec<Move> {
        let empty = (0..self.cells.len()).filter(|&i| self.cells[i].is_none());
        let at = |i: usize, kind| Move::new(i / self.n, i % self.n, kind);
        let stakes = empty.clone().map(|i| at(i, MoveKind::Stake));
        let raids = empty
            .filter(|&i| {
                self.near(i).any(|j| match (rules.raids, self.cells[j]) {
                    (Raids::None, _) | (_, None) => false,
                    (Raids::NextToAny, Some(_)) => true,
                    (_, Some(q)) => q == p,
                })
            })
            .filter(|&i| {
                rules.quiet_raids || self.near(i).any(|j| self.cells[j] == Some(p.other()))
            })
            .map(|i| at(i, MoveKind::Raid));
        match rules.order {
            Order::Canonical => stakes.chain(raids).collect(),
            Order::RaidsFirst => raids.chain(stakes).collect(),
        }
    }

    /// The cells `mv` by `p` turns over under `rules`.
    fn flips(&self, rules: &Rules, mv: Move, p: Player) -> Vec<usize> {
        if mv.kind() == MoveKind::Stake || rules.raids == Raids::FlipNothing {
            return Vec::new();
        }
        let i = mv.row() * self.n + mv.col();
        self.near(i)
            .filter(|&j| self.cells[j] == Some(p.other()))
            .collect()
    }

    fn play(&mut self, mv: Move, p: Player, flips: &[usize]) {
        let i = mv.row() * self.n + mv.col();
        let sign = if p == Player::X { 1 } else { -1 };
        self.cells[i] = Some(p);
        self.score_x += sign * self.values[i];
        for &j in flips {
            self.cells[j] = Some(p);
            self.score_x += sign * 2 * self.values[j];
        }
        self.empties -= 1;
    }

    fn take_back(&mut self, mv: Move, p: Player, flips: &[usize]) {
        let i = mv.row() * self.n + mv.col();
        let sign = if p == Player::X { 1 } else { -1 };
        self.cells[i] = None;
        self.score_x -= sign * self.values[i];
        for &j in flips {
            self.cells[j] = Some(p.other());
            self.score_x -= sign * 2 * self.values[j];
        }
        self.empties += 1;
    }
}

/// One search of a model: the textbook's root and nodes, each step as
/// `tests/grade-fixtures/textbook.py` takes it, under `rules`.
struct Search<'a> {
    rules: &'a Rules,
    root: Player,
    scored_for: Player,
    plies: u32,
    /// Alpha-beta's tests and bounds (ALPHABETA mode, or any mode whose
    /// root choice they do not change).
    prune: bool,
    nodes: u64,
    max_nodes: u64,
}

impl Search<'_> {
    /// The root: every move in order, searched with the best so far as
    /// alpha; kept when better than the best (`>`, or `>=` for the last
    /// tie). `None` past the node budget.
    fn root(&mut self, b: &mut Plain) -> Option<Move> {
        let p = self.root;
        let moves = b.moves(self.rules, p);
        let mut best: Option<(Move, i64)> = self.rules.start.map(|s| (moves[0], s));
        for &mv in &moves {
            let alpha = best.map_or(i64::MIN, |(_, v)| v);
            let flips = b.flips(self.rules, mv, p);
            b.play(mv, p, &flips);
            let v = self.value(b, 1, p.other(), alpha, i64::MAX);
            b.take_back(mv, p, &flips);
            let v = v?;
            let better = match (best, self.rules.ties) {
                (None, _) => true,
                (Some((_, w)), Ties::First) => v > w,
                (Some((_, w)), Ties::Last) => v >= w,
            };
            if better {
                best = Some((mv, v));
            }
        }
        best.map(|(mv, _)| mv)
    }

    /// The value of `b` with `p` to move at `depth`: a max node for the
    /// root player, a min node for the other (a max node too when the
    /// opponent maximizes), cut as AIMA's alpha-beta cuts when pruning.
    fn value(
        &mut self,
        b: &mut Plain,
        depth: u32,
        p: Player,
        alpha: i64,
        beta: i64,
    ) -> Option<i64> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return None;
        }
        if depth >= self.plies || b.empties == 0 {
            let scored_for = match self.rules.scored {
                Scored::SideToMove => p,
                _ => self.scored_for,
            };
            return Some(b.score(scored_for));
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let maximizing = p == self.root || self.rules.opponent_maximizes;
        let mut v: Option<i64> = None;
        for mv in b.moves(self.rules, p) {
            let flips = b.flips(self.rules, mv, p);
            b.play(mv, p, &flips);
            let w = self.value(b, depth + 1, p.other(), alpha, beta);
            b.take_back(mv, p, &flips);
            let w = w?;
            let now = match v {
                None => w,
                Some(v) if maximizing => v.max(w),
                Some(v) => v.min(w),
            };
            v = Some(now);
            if self.prune {
                if maximizing {
                    if now >= beta {
                        return v;
                    }
                    alpha = alpha.max(now);
                } else {
                    if now <= alpha {
                        return v;
                    }
                    beta = beta.min(now);
                }
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::Bug;
    use super::*;
    use crate::game::random::{random_board, random_board_from, Rng};
    use crate::search::reference;
    use crate::text::answer_text;

    const PLENTY: u64 = u64::MAX;

    #[test]
    fn the_textbook_rules_are_the_reference_search() {
        let mut rng = Rng::new(11);
        for i in 0..120 {
            let n = 1 + (i % 5) as usize;
            let board = if i % 3 == 0 {
                random_board_from(&mut rng, n, 1, 2, 0.4)
            } else {
                random_board(&mut rng, n, 30, 0.5)
            };
            if board.is_full() {
                continue;
            }
            for p in [Player::X, Player::O] {
                for depth in 1..=3 {
                    let want = reference::alphabeta(&board, p, depth.min(board.empty_count()));
                    for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
                        let got =
                            written(&Rules::TEXTBOOK, &board, p, mode, depth, PLENTY).unwrap();
                        assert_eq!(got.mv, want.best);
                        assert_eq!(got.text, answer_text(&board, p, want.best));
                    }
                }
            }
        }
    }

    #[test]
    fn scored_for_the_other_side_is_the_reference_scored_for_it() {
        let mut rng = Rng::new(12);
        for _ in 0..40 {
            let board = random_board(&mut rng, 4, 40, 0.4);
            for p in [Player::X, Player::O] {
                let want = reference::alphabeta_scored_for(&board, p, 2, p.other()).best;
                let rules = Bug::OtherSide.rules(p, SearchMode::Minimax);
                let got = written(&rules, &board, p, SearchMode::Minimax, 2, PLENTY).unwrap();
                assert_eq!(got.mv, want);
                // Scored for X is right for X and the other side for O.
                let x = Bug::AlwaysX.rules(p, SearchMode::AlphaBeta);
                let want = if p == Player::X {
                    Rules::TEXTBOOK
                } else {
                    rules
                };
                assert_eq!(x, want);
            }
        }
    }

    /// The one-cell twin case: X at A1, B1 worth most, its Raid flips nothing.
    fn twin() -> Board {
        let mut b = Board::new(2, &[1, 9, 1, 1]);
        b.set(0, 0, Square::Piece(Player::X));
        b
    }

    fn move_of(bug: Bug, board: &Board, p: Player, mode: SearchMode, depth: u32) -> String {
        written(&bug.rules(p, mode), board, p, mode, depth, PLENTY)
            .unwrap()
            .mv
            .to_string()
    }

    #[test]
    fn ties_go_to_the_raid_or_the_last_move() {
        let b = twin();
        let mm = SearchMode::Minimax;
        assert_eq!(move_of(Bug::RaidsFirst, &b, Player::X, mm, 1), "B1 Raid");
        assert_eq!(move_of(Bug::LastTie, &b, Player::X, mm, 1), "B1 Raid");
        assert_eq!(move_of(Bug::StakesOnly, &b, Player::X, mm, 1), "B1 Stake");
    }

    #[test]
    fn a_later_bound_equal_to_the_best_wins_under_last_tie_in_alphabeta() {
        // Depth 2, O to reply: A1 Stake is worth w; a later move whose first
        // reply already brings it down to w is cut there, its bound w, and
        // `>=` takes it although its value is lower.
        let mut rng = Rng::new(3);
        let mut found = false;
        for _ in 0..400 {
            let board = random_board(&mut rng, 3, 9, 0.3);
            if board.empty_count() < 3 {
                continue;
            }
            let ab = move_of(Bug::LastTie, &board, Player::X, SearchMode::AlphaBeta, 2);
            let mm = move_of(Bug::LastTie, &board, Player::X, SearchMode::Minimax, 2);
            let exact = reference::minimax_until(&board, Player::X, 2, &|| false).unwrap();
            let value_of = |m: &str| {
                exact
                    .moves
                    .iter()
                    .find(|(mv, _)| mv.to_string() == m)
                    .map(|(_, v)| v.bound())
                    .unwrap()
            };
            // MINIMAX: the last maximal move, always of the best value.
            assert_eq!(value_of(&mm), exact.decision.value);
            if value_of(&ab) < exact.decision.value {
                found = true;
            }
        }
        assert!(found, "no bound tie found in 400 boards");
    }

    #[test]
    fn each_bug_changes_what_it_says() {
        let mm = SearchMode::Minimax;
        let text = |bug: Bug, b: &Board, p: Player| {
            written(&bug.rules(p, mm), b, p, mm, 1, PLENTY)
                .unwrap()
                .text
        };
        // X at A1, O at C1 and B2: the Raid on B1 takes both.
        let mut b = Board::new(3, &[1, 50, 5, 1, 5, 1, 1, 1, 1]);
        b.set(0, 0, Square::Piece(Player::X));
        b.set(0, 2, Square::Piece(Player::O));
        b.set(1, 1, Square::Piece(Player::O));
        let x = Player::X;
        assert_eq!(text(Bug::OneShort, &b, x), "B1 Raid\nXXX\n.X.\n...\n");
        assert_eq!(
            text(Bug::FlipsNotWritten, &b, x),
            "B1 Raid\nXXO\n.O.\n...\n"
        );
        assert_eq!(
            text(Bug::RaidsFlipNothing, &b, x),
            "B1 Stake\nXXO\n.O.\n...\n"
        );
        assert_eq!(text(Bug::StakesOnly, &b, x), "B1 Stake\nXXO\n.O.\n...\n");
        // Depth 1 counted from 1 searches the 6 empty cells to the end.
        let rules = Bug::DepthFromOne.rules(x, mm);
        assert_eq!(written(&rules, &b, x, mm, 1, 10), None, "past the budget");
        // X at C3 instead: B1 is next to O only.
        b.set(0, 0, Square::Empty);
        b.set(2, 2, Square::Piece(Player::X));
        assert_eq!(text(Bug::OneShort, &b, x), "B1 Stake\n.XO\n.O.\n..X\n");
        assert_eq!(text(Bug::RaidNextToAny, &b, x), "B1 Raid\n.XX\n.X.\n..X\n");
        // O holds the 50: every X move is worth -49 or -48 (B1).
        let mut b = Board::new(2, &[1, 2, 1, 50]);
        b.set(1, 1, Square::Piece(Player::O));
        assert_eq!(move_of(Bug::OneShort, &b, x, mm, 1), "B1 Stake");
        assert_eq!(move_of(Bug::StartAtZero, &b, x, mm, 1), "A1 Stake");
        assert_eq!(move_of(Bug::StartAtMinus100, &b, x, mm, 1), "B1 Stake");
    }
    /// The small cases the rules are compared on: 150 seeded boards of
    /// 2x2 to 4x4 (tiny value ranges on every other, full ones left out),
    /// each side to move, each mode, depths 1 to 3.
    fn each_small_case(seed: u64, mut check: impl FnMut(&Board, Player, SearchMode, u32)) {
        let mut rng = Rng::new(seed);
        for i in 0..150 {
            let n = 2 + (i % 3) as usize;
            let board = if i % 2 == 0 {
                random_board_from(&mut rng, n, 1, 3, 0.5)
            } else {
                random_board(&mut rng, n, 30, 0.5)
            };
            if board.is_full() {
                continue;
            }
            for p in [Player::X, Player::O] {
                for mode in [SearchMode::Minimax, SearchMode::AlphaBeta] {
                    for depth in 1..=3 {
                        check(&board, p, mode, depth);
                    }
                }
            }
        }
    }

    #[test]
    fn without_quiet_raids_only_ties_to_later_moves_answer_otherwise() {
        // The convention leaves the textbook's answer alone, and every bug
        // whose ties go to the first move in canonical order; the claim
        // `Convention::apply` relies on to search those rules once.
        let mut differed = 0;
        each_small_case(21, |board, p, mode, depth| {
            for bug in Bug::ALL {
                let with = bug.rules(p, mode);
                let without = Rules {
                    quiet_raids: false,
                    ..with
                };
                let a = written(&with, board, p, mode, depth, 200_000);
                let b = written(&without, board, p, mode, depth, 200_000);
                // Fewer moves may fit the budget where more do not.
                let (Some(a), Some(b)) = (a, b) else { continue };
                if with.quiet_raids_matter() {
                    differed += usize::from(a != b);
                } else {
                    assert_eq!(a, b, "{bug:?} {mode:?} {depth}");
                }
            }
        });
        assert!(differed > 0, "the convention never mattered");
    }

    /// Every model's rules, under either convention, write what their
    /// canonical form writes: the claim `models::alike` relies on to skip
    /// the search for an input that could never tell two models apart.
    #[test]
    fn the_canonical_rules_write_what_the_rules_write() {
        use super::super::Convention;
        let mut changed = 0;
        each_small_case(23, |board, p, mode, depth| {
            for bug in Bug::ALL {
                for c in Convention::ALL {
                    let rules = c.apply(bug.rules(p, mode));
                    let canonical = rules.canonical();
                    if canonical == rules {
                        continue;
                    }
                    let a = written(&rules, board, p, mode, depth, 200_000);
                    let b = written(&canonical, board, p, mode, depth, 200_000);
                    // Fewer moves may fit the budget where more do not.
                    let (Some(a), Some(b)) = (a, b) else { continue };
                    assert_eq!(a, b, "{bug:?} {c:?} {mode:?} {depth}");
                    changed += 1;
                }
            }
        });
        assert!(
            changed > 1000,
            "canonical forms compared only {changed} times"
        );
    }

    #[test]
    fn leaves_for_the_mover_are_right_at_even_plies_and_the_other_side_at_odd() {
        let mut rng = Rng::new(22);
        for _ in 0..60 {
            let board = random_board(&mut rng, 4, 40, 0.3);
            for p in [Player::X, Player::O] {
                for depth in 1..=3u32 {
                    if depth >= board.empty_count() {
                        continue;
                    }
                    let mm = SearchMode::Minimax;
                    let got = move_of(Bug::LeavesForMover, &board, p, mm, depth);
                    let like = if depth % 2 == 0 {
                        reference::alphabeta(&board, p, depth).best
                    } else {
                        reference::alphabeta_scored_for(&board, p, depth, p.other()).best
                    };
                    assert_eq!(got, like.to_string(), "depth {depth}");
                }
            }
        }
    }
}

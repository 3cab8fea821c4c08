//! The tree below the root: tests as nodes, answered by a job or by their
//! children, and passed up as they come back.

use std::cmp::Reverse;

use super::super::job::{test as search_test, Asked};
use super::super::one_per_cell;
use super::Driver;
use crate::game::{legal_moves, Board, Move, Player};
use crate::search::root;
use crate::store::Proven;

/// Whose test a node answers.
#[derive(Clone, Copy, Debug)]
pub(super) enum Parent {
    /// A root candidate's, by index.
    Root(usize),
    /// Another node's child.
    Node(usize),
}

#[derive(Debug)]
pub(super) enum Kind {
    /// Waiting for its job.
    Job,
    /// Testing its children.
    Split(Split),
    /// Answered (or dead).
    Done,
}

#[derive(Debug)]
pub(super) struct Split {
    /// One child per empty cell, eldest first.
    pub(super) children: Vec<Move>,
    /// The nodes testing them, as they are started.
    pub(super) started: Vec<usize>,
    /// Children started whose tests have not come back.
    pub(super) open: usize,
    /// The best value for the node among the children back so far.
    pub(super) best: i64,
}

impl Split {
    /// Before its children are ordered.
    pub(super) fn new() -> Split {
        Split {
            children: Vec::new(),
            started: Vec::new(),
            open: 0,
            best: i64::MIN,
        }
    }
}

/// One test `T(board, beta)` for `player` to move, `plies` deep, `depth`
/// plies below the root, asked by `parent`.
#[derive(Debug)]
pub(super) struct Test {
    pub(super) board: Option<Box<Board>>,
    pub(super) player: Player,
    pub(super) plies: u32,
    pub(super) beta: i64,
    pub(super) depth: u32,
    pub(super) parent: Parent,
}

impl Test {
    /// The test of the child `mv` leads to: the same question from the
    /// other side (see the module docs).
    pub(super) fn child(&self, mv: Move, parent: usize) -> Test {
        let mut board = Box::new(self.board().clone());
        board.make(mv, self.player);
        Test {
            board: Some(board),
            player: self.player.other(),
            plies: self.plies - 1,
            beta: 1 - self.beta,
            depth: self.depth + 1,
            parent: Parent::Node(parent),
        }
    }

    /// The position; only a released node (done, no job out) has none,
    /// and nothing asks a released node about its position.
    pub(super) fn board(&self) -> &Board {
        self.board
            .as_deref()
            .expect("a node's board is kept while it is needed")
    }
}

/// A test and where it stands.
#[derive(Debug)]
pub(super) struct Node {
    /// Its board goes (see [`Driver::release`]) once the node is done and
    /// no job of it is out: a board is about 4 KiB, a node without one a
    /// few dozen bytes, and the driver keeps every node it made.
    pub(super) test: Test,
    /// False once its parent no longer needs it.
    pub(super) alive: bool,
    pub(super) kind: Kind,
    /// Where its job would rather run (see [`Job::home`]).
    pub(super) home: u64,
    /// Where each test from the root down to it comes among its parent's
    /// (see [`Driver::spawn`]): the order a search on one thread would
    /// reach it in.
    pub(super) path: Vec<u32>,
}

impl Driver {
    /// A new test node; it answers at once where it can (end of the game,
    /// the store, a test too small to hand out), else becomes a job or
    /// tests its eldest child. `place` is where it comes among its
    /// parent's tests: its child's place in the parent's order, or, for a
    /// root test, how many root tests were asked before it.
    pub(super) fn spawn(&mut self, test: Test, place: u32) -> usize {
        let id = self.nodes.len();
        let (board, player, plies, beta, depth) =
            (test.board(), test.player, test.plies, test.beta, test.depth);
        let path = match test.parent {
            Parent::Root(_) => vec![place],
            Parent::Node(parent) => {
                let mut path = self.nodes[parent].path.clone();
                path.push(place);
                path
            }
        };
        let immediate = if plies == 0 || board.is_full() {
            self.stats.in_driver += 1;
            Some(board.score(player))
        } else if let Some(t) = self.store.settle(board, player, plies, beta - 1, beta) {
            self.stats.from_store += 1;
            Some(t)
        } else if plies <= self.settings.inline_plies {
            let asked = Asked {
                plies,
                beta,
                most_nodes: None,
                solve_plies: self.plies,
                share: None,
            };
            let answered = search_test(board, player, asked, false);
            self.stats.nodes += answered.nodes;
            self.stats.in_driver += 1;
            answered.value
        } else {
            None
        };
        // A test handed out as one job answers what its children's tests
        // would (see the module docs), so cutting the tree higher while
        // `max_splits` tests are split changes the jobs, never the answer.
        let kind = match immediate {
            Some(t) => {
                self.events.push_back((id, t));
                Kind::Done
            }
            None if depth >= self.settings.split || !self.can_split() => {
                self.queue.insert((path.clone(), id));
                Kind::Job
            }
            None => Kind::Split(Split::new()),
        };
        let split = matches!(kind, Kind::Split(_));
        self.stats.splits += u64::from(split);
        self.open_splits += usize::from(split);
        let done = matches!(kind, Kind::Done);
        let home = match test.parent {
            // Below the home's depth (and below the cut, where only a
            // stopped job's children are), the parent's: the table that
            // holds its subtree.
            Parent::Node(parent) if depth > self.settings.home_plies.min(self.settings.split) => {
                self.nodes[parent].home
            }
            // The same position, asked again at another window, goes where
            // its last search left its subtree: the board's Zobrist hash,
            // fixed from run to run, so a resumed solve and a simulation
            // send jobs where they went before.
            _ => board.hash(),
        };
        self.nodes.push(Node {
            test,
            alive: true,
            kind,
            home,
            path,
        });
        if split {
            self.split(id);
        } else if done {
            // Its answer waits in `events`; nothing asks its position again.
            self.nodes[id].test.board = None;
        }
        id
    }

    /// Orders node `id`'s children and tests the eldest, or all of them
    /// where [`Settings::eager`] and the ordering predicts they all fail high.
    pub(super) fn split(&mut self, id: usize) {
        let (board, player, plies, beta) = {
            let t = &self.nodes[id].test;
            (t.board().clone(), t.player, t.plies, t.beta)
        };
        let Ordered { children, value } = self.ordered_children(&board, player, plies);
        let len = children.len();
        let Kind::Split(split) = &mut self.nodes[id].kind else {
            unreachable!("split is only called on a splitting node");
        };
        split.children = children;
        let all = self.settings.eager && value < beta;
        if self.settings.spare && !all && value < beta && len > 1 {
            let path = self.nodes[id].path.clone();
            self.brothers.insert((path, id));
        }
        self.start_children(id, 0..if all { len } else { 1 });
    }

    /// Whether a test may be answered by its children now, not handed out
    /// whole: fewer than [`Settings::max_splits`] are (see there).
    pub(super) fn can_split(&self) -> bool {
        self.open_splits < self.settings.max_splits
    }

    /// Starts the next younger brother waiting for an idle worker (see
    /// [`Settings::spare`]), the first in the order a search on one
    /// thread reaches them; false if none waits.
    pub(super) fn start_a_brother(&mut self) -> bool {
        while let Some((path, id)) = self.brothers.pop_first() {
            let node = &self.nodes[id];
            let Kind::Split(split) = &node.kind else {
                continue;
            };
            let (started, len) = (split.started.len(), split.children.len());
            if !node.alive || started >= len {
                continue;
            }
            if started + 1 < len {
                self.brothers.insert((path, id));
            }
            self.start_children(id, started..started + 1);
            self.pump();
            return true;
        }
        false
    }

    /// `board`'s children (one per empty cell), best first by a shallow
    /// search. Kept per position: the root's tests ask about the same
    /// positions again and again, at other windows.
    pub(super) fn ordered_children(
        &mut self,
        board: &Board,
        player: Player,
        plies: u32,
    ) -> Ordered {
        let key = (board.cells_text(), player.symbol());
        if let Some(ordered) = self.orders.get(&key) {
            return ordered.clone();
        }
        let canon = legal_moves(board, player);
        let (values, nodes) = self.shallow(board, player, plies);
        self.stats.nodes += nodes;
        let mut children: Vec<(Move, i64, usize)> = one_per_cell(board, player)
            .into_iter()
            .enumerate()
            .map(|(k, mv)| {
                let v = canon
                    .iter()
                    .position(|&m| m == mv)
                    .map_or(0, |at| values[at]);
                (mv, v, k)
            })
            .collect();
        children.sort_by_key(|&(_, v, k)| (Reverse(v), k));
        let ordered = Ordered {
            value: children.first().map_or(0, |&(_, v, _)| v),
            children: children.into_iter().map(|(mv, _, _)| mv).collect(),
        };
        if self.orders.len() >= MAX_ORDERS {
            self.orders.clear();
        }
        self.orders.insert(key, ordered.clone());
        ordered
    }

    pub(super) fn start_children(&mut self, id: usize, range: std::ops::Range<usize>) {
        for k in range {
            let node = &self.nodes[id];
            let Kind::Split(split) = &node.kind else {
                return;
            };
            let child = node.test.child(split.children[k], id);
            if let Kind::Split(split) = &mut self.nodes[id].kind {
                split.open += 1;
            }
            let cid = self.spawn(child, k as u32);
            if let Kind::Split(split) = &mut self.nodes[id].kind {
                split.started.push(cid);
            }
        }
    }

    /// Passes answered tests up until none is left.
    pub(super) fn pump(&mut self) {
        while let Some((id, t)) = self.events.pop_front() {
            self.release(id);
            if !self.nodes[id].alive {
                continue;
            }
            match self.nodes[id].test.parent {
                Parent::Root(i) => {
                    let beta = 1 - self.nodes[id].test.beta;
                    self.root_result(i, id, beta, -t);
                }
                Parent::Node(pid) => self.child_result(pid, -t),
            }
        }
    }

    /// A child of `pid` came back worth `v` to `pid`'s player.
    pub(super) fn child_result(&mut self, pid: usize, v: i64) {
        let node = &mut self.nodes[pid];
        if !node.alive {
            return;
        }
        let beta = node.test.beta;
        let Kind::Split(split) = &mut node.kind else {
            return;
        };
        split.open -= 1;
        if v > split.best {
            split.best = v;
        }
        if v >= beta {
            // The child failed low: the node's value is at least v.
            let started = std::mem::take(&mut split.started);
            for cid in started {
                self.kill(cid);
            }
            self.resolve(pid, v);
            return;
        }
        let (started, len, open, best) = (
            split.started.len(),
            split.children.len(),
            split.open,
            split.best,
        );
        if started < len {
            // A child back without a cut-off (the eldest, unless brothers
            // went with it): the rest go too.
            self.start_children(pid, started..len);
        } else if open == 0 {
            self.resolve(pid, best);
        }
    }

    /// Node `id` answered `t`: into the store, then up.
    pub(super) fn resolve(&mut self, id: usize, t: i64) {
        self.record(id, t, 0, 0);
        self.events.push_back((id, t));
    }

    pub(super) fn record(&self, id: usize, t: i64, nodes: u64, micros: u64) {
        let test = &self.nodes[id].test;
        let proven = Proven::from_search(t, test.beta - 1, test.beta, self.edge, None);
        self.store
            .record(test.board(), test.player, test.plies, proven, nodes, micros);
    }

    /// Node `id` and everything under it are no longer needed.
    pub(super) fn kill(&mut self, id: usize) {
        let mut stack = vec![id];
        while let Some(id) = stack.pop() {
            let node = &mut self.nodes[id];
            if !node.alive {
                continue;
            }
            node.alive = false;
            if let Kind::Split(split) = &node.kind {
                stack.extend(split.started.iter().copied());
            }
            self.release(id);
        }
    }

    /// Node `id` is answered or no longer needed: it drops its children's
    /// list and, unless its job is out (a late result still goes to the
    /// store), its board.
    pub(super) fn release(&mut self, id: usize) {
        let node = &mut self.nodes[id];
        if matches!(node.kind, Kind::Split(_)) {
            self.open_splits -= 1;
        }
        node.kind = Kind::Done;
        if !self.running.contains(&id) {
            node.test.board = None;
        }
    }
}

/// A position's children in the order they are tested, and the value
/// the shallow search that ordered them gives the position.
#[derive(Clone, Debug)]
pub(super) struct Ordered {
    pub(super) children: Vec<Move>,
    pub(super) value: i64,
}

/// Orders kept for positions tested again at other windows; forgotten all
/// at once past this many (the cache is what repeats, not what is right).
pub(super) const MAX_ORDERS: usize = 1 << 16;

/// Values of every legal move of `board` (canonical order, bounds where
/// alpha-beta proved no more) from a search `depth` plies deep, to order
/// by, with its nodes. With no depth, all zero.
pub(super) fn shallow(board: &Board, p: Player, depth: u32) -> (Vec<i64>, u64) {
    if depth == 0 {
        return (vec![0; legal_moves(board, p).len()], 0);
    }
    let r = root::alphabeta(board, p, depth, false);
    (r.moves.iter().map(|(_, v)| v.bound()).collect(), r.nodes)
}

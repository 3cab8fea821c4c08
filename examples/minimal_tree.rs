//! How far the exact search is from the least it could visit: for each
//! full-solve `input.txt` (at most 40 cells: 6x6), the exact value of every
//! position reachable from it, then the minimal tree that proves the root's
//! answer under perfect ordering, beside the nodes the engine searched.
//!
//!   cargo run --release --features counters --example minimal_tree -- INPUT...
//!
//! One line per input: empty cells, reachable positions, the engine's answer
//! and nodes (one thread), the minimal tree (nodes, counted as a tree) and
//! the minimal graph (distinct positions in it), and the engine's nodes over
//! each. Then, by plies left from 6 up (where the engine's nodes are
//! positions it looks up in its table; the last five plies of a solve are
//! written out and counted otherwise): the engine's nodes there, the
//! minimal graph's, their ratio, and the share of the engine's cut-offs
//! made by the first move it searched (the `counters` feature; without it
//! those columns are empty).
//!
//! The values come from a plain memoised negamax over every reachable
//! position, written here apart from the engine (bitboards of its own), and
//! each root's answer is held against the fast engine's (and, up to 10
//! empty cells, where it answers in seconds, the textbook reference
//! engine's) before anything is printed: a disagreement is an error.
//!
//! The minimal tree (Knuth and Moore) under perfect ordering, in negamax
//! form with `V` the exact value for the side to move:
//! - proving `V(n) = v` (a PV node) visits the best child exactly and proves
//!   of every other child `c` that `V(c) >= -v`;
//! - proving `V(n) >= t` visits one child, the best, proving `V(c) <= -t`;
//! - proving `V(n) <= t` visits every child, proving `V(c) >= -t`.
//!
//! It is counted with the engine's own rules, so that the two compare:
//! one child per empty cell (the Raid where it flips something, else the
//! Stake, exact by the dominance lemma in `src/search/README.md`), and a
//! node with one empty cell is a leaf (its value is the score plus the best
//! gain, as the engine takes it without making the move). At the root the
//! tie-break of the textbook answer decides what must be proved: the
//! chosen move's value exactly, every move before it in canonical order
//! below that value, every move after it at most that value.
//!
//! "Tree" counts a position as often as the proof reaches it; "graph" once,
//! as a search with a perfect table would. The engine has a table, so its
//! count may fall below the tree's, never honestly below the graph's.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use stakeraid::api::{analyse, Engine, Limits, Position};
use stakeraid::search::counters::{self, DepthCounts};
use stakeraid::{parse_problem, Board, MoveKind, Question, SearchMode, Square};

/// A fast hasher for pairs of bit sets (the positions are already well
/// mixed by the multiply).
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Fast = BuildHasherDefault<MixHasher>;

/// The board's shape and values as bit sets of cells `row * n + col`.
struct Shape {
    values: Vec<i64>,
    neighbours: Vec<u64>,
    all: u64,
    /// `3^i` for cell `i`: a position's key counts cell `i` as 0 (empty),
    /// 1 (own) or 2 (opp) times this, one word for up to 40 cells.
    pow3: Vec<u64>,
}

/// A position for the side to move: its pieces, the other side's.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Pos {
    own: u64,
    opp: u64,
}

impl Shape {
    fn of(board: &Board) -> Shape {
        let n = board.n();
        let mut values = Vec::new();
        let mut neighbours = Vec::new();
        for r in 0..n {
            for c in 0..n {
                values.push(i64::from(board.value(r, c)));
                let mut near = 0u64;
                for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                    let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                    if (0..n as i64).contains(&rr) && (0..n as i64).contains(&cc) {
                        near |= 1 << (rr as usize * n + cc as usize);
                    }
                }
                neighbours.push(near);
            }
        }
        let all = if n * n == 64 {
            u64::MAX
        } else {
            (1 << (n * n)) - 1
        };
        let pow3 = (0..n * n).map(|i| 3u64.pow(i as u32)).collect();
        Shape {
            values,
            neighbours,
            all,
            pow3,
        }
    }

    fn key(&self, p: Pos) -> u64 {
        bits(p.own).map(|i| self.pow3[i]).sum::<u64>()
            + bits(p.opp).map(|i| 2 * self.pow3[i]).sum::<u64>()
    }

    fn sum(&self, set: u64) -> i64 {
        bits(set).map(|i| self.values[i]).sum()
    }

    fn empty(&self, p: Pos) -> u64 {
        self.all & !(p.own | p.opp)
    }

    /// The child on cell `i`, seen by the other side: the Raid there if the
    /// mover has a piece next to it (flipping the enemy neighbours), else
    /// the Stake.
    fn child(&self, p: Pos, i: usize) -> Pos {
        let near = self.neighbours[i];
        let flips = if near & p.own != 0 { near & p.opp } else { 0 };
        Pos {
            own: p.opp & !flips,
            opp: p.own | flips | 1 << i,
        }
    }

    /// The mover's best over its moves with one ply left, from the score.
    fn last_ply(&self, p: Pos) -> i64 {
        let score = self.sum(p.own) - self.sum(p.opp);
        bits(self.empty(p))
            .map(|i| {
                let c = self.child(p, i);
                self.sum(c.opp) - self.sum(c.own)
            })
            .max()
            .unwrap_or(score)
    }
}

fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// Exact values of every position reachable, for the side to move.
struct Values<'a> {
    shape: &'a Shape,
    known: HashMap<u64, i32, Fast>,
}

impl Values<'_> {
    fn value(&mut self, p: Pos) -> i64 {
        let empty = self.shape.empty(p);
        if empty.count_ones() <= 1 {
            return self.shape.last_ply(p);
        }
        let key = self.shape.key(p);
        if let Some(&v) = self.known.get(&key) {
            return i64::from(v);
        }
        let v = bits(empty)
            .map(|i| -self.value(self.shape.child(p, i)))
            .max()
            .expect("a cell is empty");
        self.known.insert(key, v as i32);
        v
    }

    /// The children of `p`, best for the mover first (ties by cell).
    fn ordered(&mut self, p: Pos) -> Vec<(i64, Pos)> {
        let mut kids: Vec<(i64, usize, Pos)> = bits(self.shape.empty(p))
            .map(|i| {
                let c = self.shape.child(p, i);
                (-self.value(c), i, c)
            })
            .collect();
        kids.sort_by_key(|&(v, i, _)| (std::cmp::Reverse(v), i));
        kids.into_iter().map(|(v, _, c)| (v, c)).collect()
    }
}

/// What a node of the proof must show of its value.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Claim {
    Exact,
    AtLeast(i64),
    AtMost(i64),
}

/// The minimal proof: its size as a tree (memoised per position and claim)
/// and the distinct positions it touches.
struct Proof<'a, 'b> {
    values: &'a mut Values<'b>,
    tree: HashMap<(Pos, Claim), u64, Fast>,
    graph: HashSet<Pos, Fast>,
}

impl Proof<'_, '_> {
    fn size(&mut self, p: Pos, claim: Claim) -> u64 {
        if let Some(&n) = self.tree.get(&(p, claim)) {
            return n;
        }
        self.graph.insert(p);
        let mut n = 1;
        if self.values.shape.empty(p).count_ones() > 1 {
            let kids = self.values.ordered(p);
            match claim {
                Claim::Exact => {
                    let v = kids[0].0;
                    n += self.size(kids[0].1, Claim::Exact);
                    for &(_, c) in &kids[1..] {
                        n += self.size(c, Claim::AtLeast(-v));
                    }
                }
                Claim::AtLeast(t) => n += self.size(kids[0].1, Claim::AtMost(-t)),
                Claim::AtMost(t) => {
                    for &(_, c) in &kids {
                        n += self.size(c, Claim::AtLeast(-t));
                    }
                }
            }
        }
        self.tree.insert((p, claim), n);
        n
    }
}

struct Row {
    empties: u32,
    reachable: usize,
    answer: String,
    value: i64,
    engine_nodes: u64,
    tree: u64,
    graph: usize,
    /// Distinct positions of the minimal graph by empty cells.
    graph_by_empties: Vec<u64>,
    engine_by_depth: Vec<DepthCounts>,
}

fn measure(path: &str) -> Result<Row, Box<dyn std::error::Error>> {
    let text = std::fs::read(path)?;
    let problem = parse_problem(&text[..])?;
    let Question::Exact { depth, .. } = problem.question else {
        return Err(format!("{path}: not a MINIMAX or ALPHABETA input").into());
    };
    let board = &problem.board;
    let n = board.n();
    if n * n > 40 {
        return Err(format!("{path}: more than 40 cells").into());
    }
    let empties = board.empty_count();
    if depth < empties {
        return Err(format!("{path}: depth {depth} is short of the {empties} empty cells").into());
    }
    let shape = Shape::of(board);
    let me = problem.player;
    let mut root = Pos { own: 0, opp: 0 };
    for r in 0..n {
        for c in 0..n {
            let bit = 1u64 << (r * n + c);
            match board.square(r, c) {
                Square::Empty => {}
                Square::Piece(who) if who == me => root.own |= bit,
                Square::Piece(_) => root.opp |= bit,
            }
        }
    }

    // The textbook answer, from the values: root moves in canonical order
    // (every Stake, then every Raid, row-major), the first maximal chosen.
    let mut values = Values {
        shape: &shape,
        known: HashMap::default(),
    };
    let mut root_moves = Vec::new();
    for kind in [MoveKind::Stake, MoveKind::Raid] {
        for i in bits(shape.empty(root)) {
            let near = shape.neighbours[i];
            let child = match kind {
                MoveKind::Stake => Pos {
                    own: root.opp,
                    opp: root.own | 1 << i,
                },
                // A Raid that flips nothing reaches the Stake's position
                // and can never be chosen over it; leave it out.
                MoveKind::Raid if near & root.own != 0 && near & root.opp != 0 => {
                    shape.child(root, i)
                }
                MoveKind::Raid => continue,
            };
            root_moves.push((kind, i, child, -values.value(child)));
        }
    }
    let (best_at, &(kind, cell, _, value)) = root_moves
        .iter()
        .enumerate()
        .max_by_key(|&(k, m)| (m.3, std::cmp::Reverse(k)))
        .ok_or("no move")?;
    let answer = format!(
        "{}{} {}",
        (b'A' + (cell % n) as u8) as char,
        cell / n + 1,
        if kind == MoveKind::Stake {
            "Stake"
        } else {
            "Raid"
        }
    );

    // The textbook reference engine must give the same answer, and the
    // fast engine (whose nodes are counted) too.
    let position = Position::from_problem(&problem)?;
    let mut limits = Limits::to_depth(SearchMode::AlphaBeta, depth);
    limits.threads = 1;
    counters::take();
    let fast = analyse(&position, &limits)?;
    let engine_by_depth = counters::take();
    if fast.best.to_string() != answer || fast.value != value {
        return Err(format!(
            "{path}: the values say {answer} ({value}), the engine {} ({})",
            fast.best, fast.value
        )
        .into());
    }
    if empties <= 10 {
        limits.engine = Engine::Reference;
        let textbook = analyse(&position, &limits)?;
        if textbook.best.to_string() != answer {
            return Err(format!(
                "{path}: the values say {answer}, the reference engine {}",
                textbook.best
            )
            .into());
        }
    }

    let reachable = values.known.len();
    let mut proof = Proof {
        values: &mut values,
        tree: HashMap::default(),
        graph: HashSet::default(),
    };
    let mut tree = 1;
    for (k, &(_, _, child, _)) in root_moves.iter().enumerate() {
        // For the parent's value `-V(child)` to be exact, below `value`
        // (earlier moves), or at most `value` (later ones).
        let claim = match k.cmp(&best_at) {
            std::cmp::Ordering::Equal => Claim::Exact,
            std::cmp::Ordering::Less => Claim::AtLeast(-(value - 1)),
            std::cmp::Ordering::Greater => Claim::AtLeast(-value),
        };
        tree += proof.size(child, claim);
    }
    let graph = proof.graph.len() + 1;
    let mut graph_by_empties = vec![0; empties as usize + 1];
    graph_by_empties[empties as usize] = 1;
    for p in &proof.graph {
        graph_by_empties[shape.empty(*p).count_ones() as usize] += 1;
    }
    Ok(Row {
        empties,
        reachable,
        answer,
        value,
        engine_nodes: fast.nodes,
        tree,
        graph,
        graph_by_empties,
        engine_by_depth,
    })
}

/// The last plies of a solve, which the engine writes out.
const WRITTEN_OUT: u32 = 5;

fn print_depths(r: &Row) {
    let interior: u64 = r
        .engine_by_depth
        .iter()
        .filter(|d| d.remaining > WRITTEN_OUT)
        .map(|d| d.nodes)
        .sum();
    println!(
        "    {:>9} {:>13} {:>12} {:>9} {:>10}",
        "remaining", "engine", "min_graph", "eng/graph", "first_cut"
    );
    for d in r
        .engine_by_depth
        .iter()
        .filter(|d| d.remaining > WRITTEN_OUT)
    {
        let graph = r
            .graph_by_empties
            .get(d.remaining as usize)
            .copied()
            .unwrap_or(0);
        println!(
            "    {:>9} {:>13} {:>12} {:>9.2} {:>9.1}%",
            d.remaining,
            d.nodes,
            graph,
            d.nodes as f64 / graph.max(1) as f64,
            100.0 * d.first_cuts as f64 / d.cuts.max(1) as f64
        );
    }
    // There the engine counts the positions its written-out last plies
    // play, not the ones it looks up: one figure for all of them.
    if !r.engine_by_depth.is_empty() {
        let graph: u64 = r
            .graph_by_empties
            .iter()
            .take(WRITTEN_OUT as usize + 1)
            .sum();
        let engine = r.engine_nodes.saturating_sub(interior);
        println!(
            "    {:>9} {:>13} {:>12} {:>9.2}",
            format!("0-{WRITTEN_OUT}"),
            engine,
            graph,
            engine as f64 / graph.max(1) as f64
        );
    }
}

fn main() {
    let inputs: Vec<String> = std::env::args().skip(1).collect();
    if inputs.is_empty() {
        eprintln!("usage: minimal_tree INPUT...");
        std::process::exit(2);
    }
    println!(
        "{:<28} {:>6} {:>12} {:<10} {:>6} {:>13} {:>13} {:>12} {:>9} {:>9}",
        "input",
        "empty",
        "reachable",
        "answer",
        "value",
        "engine",
        "min_tree",
        "min_graph",
        "eng/tree",
        "eng/graph"
    );
    let mut failed = false;
    for input in &inputs {
        match measure(input) {
            Ok(r) => {
                println!(
                    "{:<28} {:>6} {:>12} {:<10} {:>6} {:>13} {:>13} {:>12} {:>9.2} {:>9.2}",
                    input.rsplit('/').next().unwrap_or(input),
                    r.empties,
                    r.reachable,
                    r.answer,
                    r.value,
                    r.engine_nodes,
                    r.tree,
                    r.graph,
                    r.engine_nodes as f64 / r.tree as f64,
                    r.engine_nodes as f64 / r.graph as f64
                );
                print_depths(&r);
            }
            Err(e) => {
                eprintln!("minimal_tree: {e}");
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}

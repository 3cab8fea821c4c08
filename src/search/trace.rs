//! A recording copy of the textbook alpha-beta ([`super::reference`]): the
//! same search, but it keeps the tree it walks, with each node's window,
//! value and the moves a cut-off skipped, and writes it as Graphviz DOT to
//! illustrate pruning. Meant for small searches (a depth of 3 or less):
//! the tree is held in memory whole.

use std::fmt::Write;

use crate::game::{legal_moves, Move};
use crate::game::{Board, Player};

/// What a node of the tree is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    /// The root player moves: the node takes its children's maximum.
    Max,
    /// The opponent moves: the node takes its children's minimum.
    Min,
    /// The depth cut-off or the end of the game: scored, not expanded.
    Leaf,
}

/// One visited position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TraceNode {
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    /// Max, min or leaf.
    pub kind: NodeKind,
    /// Alpha when the node was entered (`i64::MIN` is minus infinity).
    pub alpha: i64,
    /// Beta when the node was entered (`i64::MAX` is plus infinity).
    pub beta: i64,
    /// The value the search returned for the node (the root player's score).
    pub value: i64,
    /// The children searched, in canonical order.
    pub children: Vec<TraceNode>,
    /// The moves never searched because a child reached the bound
    /// (`v >= beta` at a max node, `v <= alpha` at a min node).
    pub pruned: Vec<Move>,
}

/// A recorded search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Trace {
    /// The root (a max node; its window is the textbook root's, from minus
    /// to plus infinity, while each child gets the best value so far as alpha).
    pub root: TraceNode,
    /// The chosen move, as [`super::reference::alphabeta`] chooses it.
    pub best: Move,
    /// Its value.
    pub value: i64,
    /// Positions visited, the root included (the reference's count).
    pub nodes: u64,
    /// The cut-off depth.
    pub depth: u32,
}

struct Recorder {
    root: Player,
    depth: u32,
    nodes: u64,
}

impl Recorder {
    fn node(
        &mut self,
        board: &mut Board,
        mv: Move,
        depth: u32,
        mut alpha: i64,
        mut beta: i64,
    ) -> TraceNode {
        self.nodes += 1;
        let (window_alpha, window_beta) = (alpha, beta);
        if depth == self.depth || board.is_full() {
            let value = board.score(self.root);
            return TraceNode {
                mv: Some(mv),
                kind: NodeKind::Leaf,
                alpha,
                beta,
                value,
                children: Vec::new(),
                pruned: Vec::new(),
            };
        }
        // The root player moves at even depths.
        let maximizing = depth.is_multiple_of(2);
        let to_move = if maximizing {
            self.root
        } else {
            self.root.other()
        };
        let moves = legal_moves(board, to_move);
        let mut v = if maximizing { i64::MIN } else { i64::MAX };
        let mut children = Vec::new();
        let mut pruned = Vec::new();
        for (i, &child_mv) in moves.iter().enumerate() {
            let undo = board.make(child_mv, to_move);
            let child = self.node(board, child_mv, depth + 1, alpha, beta);
            board.unmake(undo);
            let cv = child.value;
            children.push(child);
            if maximizing {
                v = v.max(cv);
                if v >= beta {
                    pruned = moves[i + 1..].to_vec();
                    break;
                }
                alpha = alpha.max(v);
            } else {
                v = v.min(cv);
                if v <= alpha {
                    pruned = moves[i + 1..].to_vec();
                    break;
                }
                beta = beta.min(v);
            }
        }
        TraceNode {
            mv: Some(mv),
            kind: if maximizing {
                NodeKind::Max
            } else {
                NodeKind::Min
            },
            alpha: window_alpha,
            beta: window_beta,
            value: v,
            children,
            pruned,
        }
    }
}

/// Textbook alpha-beta for `player` to `depth` plies, recorded. `None`
/// when there is nothing to search (a depth of 0 or a full board).
pub(crate) fn trace_alphabeta(board: &Board, player: Player, depth: u32) -> Option<Trace> {
    if depth == 0 || board.is_full() {
        return None;
    }
    let mut rec = Recorder {
        root: player,
        depth,
        nodes: 1,
    };
    let mut board = board.clone();
    let mut best: Option<(Move, i64)> = None;
    let mut children = Vec::new();
    for mv in legal_moves(&board, player) {
        // As in the reference: the best so far is the child's alpha, so a
        // later move must be strictly better to be chosen.
        let alpha = best.map_or(i64::MIN, |(_, b)| b);
        let undo = board.make(mv, player);
        let child = rec.node(&mut board, mv, 1, alpha, i64::MAX);
        board.unmake(undo);
        if best.is_none_or(|(_, b)| child.value > b) {
            best = Some((mv, child.value));
        }
        children.push(child);
    }
    let (best, value) = best?;
    Some(Trace {
        root: TraceNode {
            mv: None,
            kind: NodeKind::Max,
            alpha: i64::MIN,
            beta: i64::MAX,
            value,
            children,
            pruned: Vec::new(),
        },
        best,
        value,
        nodes: rec.nodes,
        depth,
    })
}

/// A value for a label, with the infinities spelled out.
fn bound(v: i64) -> String {
    match v {
        i64::MIN => "-inf".into(),
        i64::MAX => "+inf".into(),
        v => v.to_string(),
    }
}

impl Trace {
    /// The tree as a Graphviz digraph: max nodes as boxes, min nodes as
    /// ellipses, leaves as plain scores; each labelled with its value and
    /// entry window. Edges carry the moves; the principal variation is
    /// bold; the moves a cut-off skipped hang off their node in one dashed
    /// grey "pruned" box.
    pub(crate) fn to_dot(&self) -> String {
        let mut out = String::from(
            "digraph alphabeta {\n  // Textbook alpha-beta; values are the root player's score.\n  \
             node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n",
        );
        let _ = writeln!(
            out,
            "  label=\"alpha-beta to depth {}: best {} value {}, {} positions\";\n  labelloc=t;",
            self.depth, self.best, self.value, self.nodes
        );
        let mut next = 0;
        write_node(&mut out, &self.root, &mut next, true);
        out.push_str("}\n");
        out
    }
}

/// Writes `node` and its subtree; returns its id. `on_pv` is whether the
/// node lies on the principal variation.
fn write_node(out: &mut String, node: &TraceNode, next: &mut usize, on_pv: bool) -> usize {
    let id = *next;
    *next += 1;
    let (shape, title) = match node.kind {
        NodeKind::Max => ("box", "MAX"),
        NodeKind::Min => ("ellipse", "MIN"),
        NodeKind::Leaf => ("plaintext", "leaf"),
    };
    let label = match node.kind {
        NodeKind::Leaf => format!("{}", node.value),
        _ => format!(
            "{title} {}\\na={} b={}",
            node.value,
            bound(node.alpha),
            bound(node.beta)
        ),
    };
    let style = if on_pv { ", penwidth=2" } else { "" };
    let _ = writeln!(out, "  n{id} [shape={shape}, label=\"{label}\"{style}];");
    // The principal child: the first whose value is the node's.
    let pv_child = node.children.iter().position(|c| c.value == node.value);
    for (i, child) in node.children.iter().enumerate() {
        let bold = on_pv && pv_child == Some(i);
        let child_id = write_node(out, child, next, bold);
        let mv = child.mv.map(|m| m.to_string()).unwrap_or_default();
        let style = if bold { ", style=bold" } else { "" };
        let _ = writeln!(out, "  n{id} -> n{child_id} [label=\"{mv}\"{style}];");
    }
    if !node.pruned.is_empty() {
        let cut = *next;
        *next += 1;
        let reason = if node.kind == NodeKind::Max {
            "v >= b"
        } else {
            "v <= a"
        };
        let shown: Vec<String> = node.pruned.iter().take(4).map(Move::to_string).collect();
        let more = if node.pruned.len() > 4 { ", ..." } else { "" };
        let _ = writeln!(
            out,
            "  n{cut} [shape=box, style=dashed, color=grey50, fontcolor=grey40, \
             label=\"pruned ({reason}): {} moves\\n{}{more}\"];",
            node.pruned.len(),
            shown.join(", ")
        );
        let _ = writeln!(
            out,
            "  n{id} -> n{cut} [style=dashed, color=grey50, label=\"cut\"];"
        );
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random::{random_board, Rng};
    use crate::search::reference;

    fn count(node: &TraceNode) -> u64 {
        1 + node.children.iter().map(count).sum::<u64>()
    }

    /// Every node's value follows from its children, and a cut leaves
    /// exactly the moves after the cutting child.
    fn check(node: &TraceNode, board: &mut Board, to_move: Player) {
        if node.kind == NodeKind::Leaf {
            return;
        }
        let values = node.children.iter().map(|c| c.value);
        let v = if node.kind == NodeKind::Max {
            values.max()
        } else {
            values.min()
        };
        assert_eq!(Some(node.value), v);
        let moves = legal_moves(board, to_move);
        assert_eq!(node.children.len() + node.pruned.len(), moves.len());
        for (child, &mv) in node.children.iter().zip(&moves) {
            assert_eq!(child.mv, Some(mv));
            let undo = board.make(mv, to_move);
            check(child, board, to_move.other());
            board.unmake(undo);
        }
        if !node.pruned.is_empty() {
            let last = node.children.last().unwrap().value;
            match node.kind {
                NodeKind::Max => assert!(last >= node.beta),
                _ => assert!(last <= node.alpha),
            }
        }
    }

    #[test]
    fn records_the_reference_search() {
        let mut rng = Rng::new(17);
        let mut pruned_somewhere = false;
        for round in 0..300 {
            let n = 1 + round % 5;
            let board = random_board(&mut rng, n, [3, 99][round % 2], 0.4);
            let player = if round % 2 == 0 { Player::X } else { Player::O };
            let depth = 1 + (round % 3) as u32;
            let t = trace_alphabeta(&board, player, depth).unwrap();
            let r = reference::alphabeta(&board, player, depth);
            assert_eq!(
                (t.best, t.value, t.nodes),
                (r.best, r.value, r.nodes),
                "{board:?}"
            );
            assert_eq!(count(&t.root), t.nodes);
            check(&t.root, &mut board.clone(), player);
            pruned_somewhere |= t.to_dot().contains("pruned (");
        }
        assert!(pruned_somewhere);
        assert!(trace_alphabeta(&random_board(&mut rng, 2, 5, 0.0), Player::X, 0).is_none());
    }
}

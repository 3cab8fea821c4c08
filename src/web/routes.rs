//! The page's files and the small JSON endpoints.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use tower_http::limit::RequestBodyLimitLayer;

use super::caps::Caps;
use super::error::WebError;
use super::view::{view_of, View};
use super::{analysis, engine, stream};
use crate::api::{Grid, Position};
use crate::search::trace::{trace_alphabeta, NodeKind, TraceNode};
use crate::{
    check_move, input_text, parse_problem, Board, Move, Player, Problem, SearchMode, Task,
};

const INDEX: &str = include_str!("../../web/index.html");
const SCRIPT: &str = include_str!("../../web/app.js");
const STYLE: &str = include_str!("../../web/style.css");

pub(crate) fn router(caps: Caps) -> Router {
    let limit = RequestBodyLimitLayer::new(caps.max_body);
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX) }),
        )
        .route("/app.js", get(|| async { page("text/javascript", SCRIPT) }))
        .route("/style.css", get(|| async { page("text/css", STYLE) }))
        .route("/api/parse", post(parse))
        .route("/api/random", get(random))
        .route("/api/view", post(view))
        .route("/api/play", post(play))
        .route("/api/export", post(export))
        .route("/api/tree", post(tree))
        .route("/api/analyse", get(analysis::analyse))
        .route("/api/engine", get(engine::engine_move))
        .route("/api/stop", post(stream::stop))
        .fallback(|| async { WebError::not_found() })
        .layer(limit)
        .with_state(stream::Shared::new(caps))
}

fn page(kind: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind)], body)
}

/// The JSON body, or why it could not be read.
pub(crate) fn body<T>(json: Result<Json<T>, JsonRejection>) -> Result<T, WebError> {
    json.map(|Json(t)| t)
        .map_err(|e| WebError::bad(e.body_text()))
}

/// The query, or why it could not be read.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, WebError> {
    q.map(|Query(t)| t)
        .map_err(|e| WebError::bad(e.body_text()))
}

/// A grid read by the library: a position with a move to make.
pub(crate) fn board_of(grid: &Grid) -> Result<(Board, Player), WebError> {
    let p = Position::from_grid(grid).map_err(WebError::bad)?;
    Ok((p.board().clone(), p.player()))
}

#[derive(Deserialize)]
struct ParseRequest {
    text: String,
}

#[derive(Serialize)]
struct Parsed {
    #[serde(flatten)]
    view: View,
    mode: &'static str,
    depth: Option<u32>,
}

/// An `input.txt` read by the library.
async fn parse(req: Result<Json<ParseRequest>, JsonRejection>) -> Result<Json<Parsed>, WebError> {
    let req = body(req)?;
    let problem = parse_problem(req.text.as_bytes()).map_err(WebError::bad)?;
    Ok(Json(Parsed {
        view: view_of(&problem.board, problem.player),
        mode: problem.task.name(),
        depth: problem.task.depth(),
    }))
}

#[derive(Deserialize)]
struct RandomQuery {
    size: Option<usize>,
    seed: Option<u64>,
    fill: Option<f64>,
}

/// A random position, as `stakeraid position` draws one.
async fn random(q: Result<Query<RandomQuery>, QueryRejection>) -> Result<Json<View>, WebError> {
    let q = query(q)?;
    let n = q.size.unwrap_or(5);
    if !(1..=crate::MAX_N).contains(&n) {
        return Err(WebError::bad(format!(
            "size must be from 1 to {}, not {n}",
            crate::MAX_N
        )));
    }
    let fill = q.fill.unwrap_or(0.3);
    if !(0.0..=1.0).contains(&fill) {
        return Err(WebError::bad("fill must be between 0 and 1"));
    }
    let mut rng = crate::Rng::new(q.seed.unwrap_or(1));
    let board = crate::random_board(&mut rng, n, 99, fill);
    Ok(Json(view_of(&board, Player::X)))
}

/// A grid checked by the library's one check of a written position (after
/// an edit by hand, or from a shared URL). A full board is a finished game,
/// drawn as such.
async fn view(req: Result<Json<Grid>, JsonRejection>) -> Result<Json<View>, WebError> {
    let grid = body(req)?;
    let (board, player) = grid.check().map_err(WebError::bad)?;
    Ok(Json(view_of(&board, player)))
}

#[derive(Deserialize)]
struct PlayRequest {
    grid: Grid,
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Serialize)]
struct Played {
    #[serde(flatten)]
    view: View,
    #[serde(rename = "move")]
    mv: String,
    flipped: Vec<(usize, usize)>,
}

/// One move for the side to move, or why it is not legal.
async fn play(req: Result<Json<PlayRequest>, JsonRejection>) -> Result<Json<Played>, WebError> {
    let req = body(req)?;
    let (board, player) = board_of(&req.grid)?;
    let mv: Move = req.mv.parse().map_err(WebError::bad)?;
    check_move(&board, player, mv).map_err(WebError::bad)?;
    let mut game = crate::Game::new(&board, player);
    game.play(mv);
    let flipped = game.last_move().map(|l| l.flipped).unwrap_or_default();
    Ok(Json(Played {
        view: view_of(game.board(), game.to_move()),
        mv: mv.to_string(),
        flipped,
    }))
}

#[derive(Deserialize)]
struct ExportRequest {
    grid: Grid,
    mode: SearchMode,
    depth: u32,
}

/// The `input.txt` of a position and a search.
async fn export(req: Result<Json<ExportRequest>, JsonRejection>) -> Result<String, WebError> {
    let req = body(req)?;
    if req.depth == 0 {
        return Err(WebError::bad("depth must be at least 1"));
    }
    let position = Position::from_grid(&req.grid).map_err(WebError::bad)?;
    Ok(input_text(&Problem {
        board: position.board().clone(),
        player: position.player(),
        task: Task::Exact {
            mode: req.mode,
            depth: req.depth,
        },
    }))
}

#[derive(Deserialize)]
struct TreeRequest {
    grid: Grid,
    depth: u32,
}

#[derive(Serialize)]
struct Tree {
    best: String,
    value: i64,
    nodes_alphabeta: u64,
    nodes_minimax: u64,
    root: Node,
}

/// One node as the page draws it; `null` bounds are the infinities.
#[derive(Serialize)]
struct Node {
    #[serde(rename = "move")]
    mv: Option<String>,
    kind: &'static str,
    alpha: Option<i64>,
    beta: Option<i64>,
    value: i64,
    cells: Vec<String>,
    pruned: Vec<String>,
    children: Vec<Node>,
}

/// The textbook alpha-beta tree, recorded, with the minimax node count
/// beside it.
async fn tree(
    State(shared): State<stream::Shared>,
    req: Result<Json<TreeRequest>, JsonRejection>,
) -> Result<Json<Tree>, WebError> {
    let req = body(req)?;
    let position = Position::from_grid(&req.grid).map_err(WebError::bad)?;
    if req.depth == 0 {
        return Err(WebError::bad("depth must be at least 1"));
    }
    let (board, player) = (position.board().clone(), position.player());
    // Full-width minimax visits at most this many nodes: refuse before
    // searching, not after.
    let moves = 2 * u64::from(board.empty_count());
    let cap = shared.caps.max_tree_nodes;
    let bound = (0..req.depth.min(board.empty_count()))
        .try_fold((1u64, 1u64), |(total, level), _| {
            let level = level.checked_mul(moves)?;
            Some((total.checked_add(level)?, level))
        })
        .map(|(total, _)| total);
    if bound.is_none_or(|b| b > cap) {
        return Err(WebError::bad(format!(
            "the tree view draws at most {cap} nodes: lower the depth or use a smaller board"
        )));
    }
    let _permit = shared.caps.try_search().ok_or_else(WebError::busy)?;
    let depth = req.depth;
    let tree = tokio::task::spawn_blocking(move || {
        let trace = trace_alphabeta(&board, player, depth)?;
        let minimax = crate::search::reference::minimax(&board, player, depth);
        let mut b = board.clone();
        Some(Tree {
            best: trace.best.to_string(),
            value: trace.value,
            nodes_alphabeta: trace.nodes,
            nodes_minimax: minimax.nodes,
            root: node(&trace.root, &mut b, player),
        })
    })
    .await
    .map_err(|e| WebError::bad(format!("the tree search failed: {e}")))?;
    tree.map(Json)
        .ok_or_else(|| WebError::bad("nothing to search"))
}

/// `t` with the cells of each node's position; `board` is at `t`'s parent
/// and `mover` moves there.
fn node(t: &TraceNode, board: &mut Board, mover: Player) -> Node {
    let undo = t.mv.map(|mv| board.make(mv, mover));
    let next = if undo.is_some() { mover.other() } else { mover };
    let children = t.children.iter().map(|c| node(c, board, next)).collect();
    let cells = board.cells_text().lines().map(String::from).collect();
    if let Some(undo) = undo {
        board.unmake(undo);
    }
    let finite = |v: i64| (v != i64::MIN && v != i64::MAX).then_some(v);
    Node {
        mv: t.mv.map(|m| m.to_string()),
        kind: match t.kind {
            NodeKind::Max => "max",
            NodeKind::Min => "min",
            NodeKind::Leaf => "leaf",
        },
        alpha: finite(t.alpha),
        beta: finite(t.beta),
        value: t.value,
        cells,
        pruned: t.pruned.iter().map(ToString::to_string).collect(),
        children,
    }
}

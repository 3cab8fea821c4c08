//! The page's files and the small JSON endpoints.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tower_http::limit::RequestBodyLimitLayer;

use super::caps::Caps;
use super::error::{query, WebError};
use super::view::{view_of, View};
use super::{analysis, engine, stream};
use crate::api::{analyse_without_pv, Engine, Grid, Limits, Position};
use crate::search::trace::{trace_alphabeta, NodeKind, TraceNode};
use crate::{
    check_move, input_text, parse_problem, Board, Move, MoveKind, Player, Problem, Question,
    SearchMode,
};

const INDEX: &str = include_str!("../../web/index.html");
const SCRIPT: &str = include_str!("../../web/app.js");
const STYLE: &str = include_str!("../../web/style.css");
const ICON: &str = include_str!("../../web/favicon.svg");
/// The page's first position: the assignment's example (`examples/`).
const EXAMPLE: &str = include_str!("../../examples/input.txt");

pub(crate) fn router(caps: Caps) -> Router {
    let limit = RequestBodyLimitLayer::new(caps.max_body);
    let kib = caps.max_body >> 10;
    // The limit refuses a body announced too long before it is read, in
    // plain text: said again as every other refusal is, in JSON.
    let said = middleware::map_response(move |response: Response| async move {
        if response.status() != StatusCode::PAYLOAD_TOO_LARGE || is_json(&response) {
            return response;
        }
        WebError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!("the request body is over {kib} KiB"),
        }
        .into_response()
    });
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX) }),
        )
        .route("/app.js", get(|| async { page("text/javascript", SCRIPT) }))
        .route("/style.css", get(|| async { page("text/css", STYLE) }))
        // The page links the icon; a browser that asks for the usual name
        // anyway gets the same picture.
        .route(
            "/favicon.svg",
            get(|| async { page("image/svg+xml", ICON) }),
        )
        .route(
            "/favicon.ico",
            get(|| async { page("image/svg+xml", ICON) }),
        )
        .route(
            "/example.txt",
            get(|| async { page("text/plain; charset=utf-8", EXAMPLE) }),
        )
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
        .layer(said)
        .with_state(stream::Shared::new(caps))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"))
}

fn page(kind: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, kind)], body)
}

/// A JSON request body, read as JSON whatever its `Content-Type` says:
/// `curl -d` sends `application/x-www-form-urlencoded`, and a script
/// that leaves the header out means JSON all the same.
pub(crate) struct JsonBody<T>(pub(crate) T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = WebError;

    async fn from_request(req: Request, state: &S) -> Result<JsonBody<T>, WebError> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| WebError {
                status: e.status(),
                message: e.body_text(),
            })?;
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| WebError::bad(format!("the request body is not the JSON expected: {e}")))
    }
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
    /// COMPETITION's CPU seconds left for the game (no depth then).
    seconds: Option<f64>,
}

/// An `input.txt` read by the library.
async fn parse(JsonBody(req): JsonBody<ParseRequest>) -> Result<Json<Parsed>, WebError> {
    let problem = parse_problem(req.text.as_bytes()).map_err(WebError::bad)?;
    Ok(Json(Parsed {
        view: view_of(&problem.board, problem.player),
        mode: problem.question.name(),
        depth: problem.question.depth(),
        seconds: match problem.question {
            Question::Competition { seconds } => Some(seconds),
            Question::Exact { .. } => None,
        },
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
async fn view(JsonBody(grid): JsonBody<Grid>) -> Result<Json<View>, WebError> {
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
    /// The cells the move turned over, named like `"C3"`, row-major.
    flipped: Vec<String>,
}

/// One move for the side to move, or why it is not legal.
async fn play(JsonBody(req): JsonBody<PlayRequest>) -> Result<Json<Played>, WebError> {
    let (board, player) = board_of(&req.grid)?;
    let mv: Move = req.mv.parse().map_err(WebError::bad)?;
    check_move(&board, player, mv).map_err(WebError::bad)?;
    let mut game = crate::Game::new(&board, player);
    game.play(mv);
    let flipped = game
        .last_move()
        .map(|l| l.flipped.iter().map(|&(r, c)| cell_name(r, c)).collect())
        .unwrap_or_default();
    Ok(Json(Played {
        view: view_of(game.board(), game.to_move()),
        mv: mv.to_string(),
        flipped,
    }))
}

/// The name of the cell at zero-based `row` and `col`, as moves name it.
fn cell_name(row: usize, col: usize) -> String {
    Move::new(row, col, MoveKind::Stake).cell_name()
}

#[derive(Deserialize)]
struct ExportRequest {
    grid: Grid,
    mode: SearchMode,
    depth: u32,
}

/// The `input.txt` of a position and a search.
async fn export(JsonBody(req): JsonBody<ExportRequest>) -> Result<String, WebError> {
    if req.depth == 0 {
        return Err(WebError::bad("depth must be at least 1"));
    }
    let position = Position::from_grid(&req.grid).map_err(WebError::bad)?;
    Ok(input_text(&Problem {
        board: position.board().clone(),
        player: position.player(),
        question: Question::Exact {
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
    JsonBody(req): JsonBody<TreeRequest>,
) -> Result<Json<Tree>, WebError> {
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
        // The textbook minimax tree's size, through the one door.
        let position = Position::new(board.clone(), player).ok()?;
        let textbook = Limits {
            engine: Engine::Reference,
            ..Limits::to_depth(SearchMode::Minimax, depth)
        };
        let minimax = analyse_without_pv(&position, &textbook).ok()?;
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

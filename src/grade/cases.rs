//! The cases a program is graded on: drawn from a seed the way a course
//! grader draws them, or read from a folder of `input.txt` / `output.txt`
//! pairs. Every case carries its exact answer, from the fast engine in
//! MINIMAX mode so that every root move's value is exact. Drawn cases
//! expose every modelled bug, under every convention and in each mode:
//! past the first cases, a bug no case so far exposes so gets a case of
//! its own, where its model's answer is not the textbook's.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

use crate::api::{analyse, Analysis, ApiError, Limits, Position};
use crate::game::random::{random_board_from, Rng};
use crate::game::{Board, MoveKind, Player, Square};
use crate::text::{input_text, Problem, Question, SearchMode};

use super::models::{textbook_nodes, textbook_seconds, Bug, CaseModels, Convention};

/// Why a case was drawn: a course-style random position, or one of the
/// positions that catch a common mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseKind {
    /// Any board, mode, side and depth (mostly small and medium boards).
    Random,
    /// Several root moves share the best value: the canonical order decides.
    Tie,
    /// The answer is a Stake whose Raid on the same cell has the same value
    /// (a Raid that flips nothing): the Stake comes first.
    StakeRaidTie,
    /// The answer is a Raid that flips pieces: the board must show them.
    RaidFlips,
    /// The depth is larger than the number of empty cells.
    DeeperThanEmpty,
    /// A 1 x 1 board.
    Smallest,
    /// A 26 x 26 board (moves up to `Z26`).
    Largest,
    /// O to move.
    OToMove,
    /// A modelled bug answers otherwise than the textbook (the case's
    /// `exposes`).
    BugModel,
    /// Read from a folder (`--cases-from`).
    Given,
    /// A smaller input the shrinker tried.
    Shrunk,
}

impl CaseKind {
    /// What the kind of case checks, in a few words.
    pub const fn describe(self) -> &'static str {
        match self {
            CaseKind::Random => "random position",
            CaseKind::Tie => "tie between root moves",
            CaseKind::StakeRaidTie => "Stake and Raid on one cell tie",
            CaseKind::RaidFlips => "the answer is a Raid that flips",
            CaseKind::DeeperThanEmpty => "depth beyond the empty cells",
            CaseKind::Smallest => "1x1 board",
            CaseKind::Largest => "26x26 board",
            CaseKind::OToMove => "O to move",
            CaseKind::BugModel => "a modelled bug answers otherwise",
            CaseKind::Given => "from the folder",
            CaseKind::Shrunk => "smaller input",
        }
    }
}

/// One graded case: the input, the expected `output.txt` and the exact
/// analysis behind it.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case's name in reports: `case 7`, or the folder's name.
    pub name: String,
    /// Why it was drawn.
    pub kind: CaseKind,
    /// The position and the search asked for.
    pub problem: Problem,
    /// The text of `input.txt`.
    pub input: String,
    /// The text of the right `output.txt`.
    pub expected: String,
    /// The exact analysis at the case's depth, every root move's value
    /// exact (MINIMAX mode, whatever the case's mode).
    pub analysis: Analysis,
    /// The estimated node count of a textbook minimax search of the case.
    pub textbook_nodes: u64,
    /// For a case read from a folder whose `output.txt` is not the exact
    /// answer: what it says instead, and which of the two is graded.
    pub dispute: Option<Dispute>,
    /// The bug this case was drawn to expose: its model answers otherwise.
    pub exposes: Option<Bug>,
    /// The convention it was exposed under.
    pub exposes_under: Option<Convention>,
}

/// What a case read from a folder is graded against when the folder's
/// `output.txt` is not the exact answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GradeBy {
    /// The exact answer: the folder's mistake costs no program a point.
    #[default]
    Engine,
    /// The folder's `output.txt`, byte for byte, as the course's own script
    /// compares; a program that writes the exact answer there fails.
    Folder,
}

/// A name that is neither `engine` nor `folder`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: must be engine or folder")]
pub struct UnknownGradeBy(pub String);

impl std::str::FromStr for GradeBy {
    type Err = UnknownGradeBy;

    /// `engine` or `folder`, in any case.
    fn from_str(s: &str) -> Result<GradeBy, UnknownGradeBy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "engine" => Ok(GradeBy::Engine),
            "folder" => Ok(GradeBy::Folder),
            _ => Err(UnknownGradeBy(s.to_owned())),
        }
    }
}

/// A folder's `output.txt` that is not the exact answer of its `input.txt`:
/// the case's fault, not the program's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dispute {
    /// The folder's `output.txt` (line ends made `\n`).
    pub folder: String,
    /// The case, what its `output.txt` says and what the textbook search
    /// answers, in one line.
    pub line: String,
    /// Which answer the case is graded against.
    pub graded_by: GradeBy,
}

/// How large a case is, in the four ways the shrinker makes one smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CaseSize {
    /// The board side.
    pub n: usize,
    /// Empty cells.
    pub empties: u32,
    /// The depth asked for.
    pub depth: u32,
    /// Distinct cell values.
    pub distinct_values: usize,
}

impl CaseSize {
    /// True when no measure of `self` is larger than `other`'s.
    pub fn within(&self, other: &CaseSize) -> bool {
        self.n <= other.n
            && self.empties <= other.empties
            && self.depth <= other.depth
            && self.distinct_values <= other.distinct_values
    }
}

impl fmt::Display for CaseSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.distinct_values == 1 { "" } else { "s" };
        write!(
            f,
            "{n}x{n}, {} empty, depth {}, {} distinct value{plural}",
            self.empties,
            self.depth,
            self.distinct_values,
            n = self.n
        )
    }
}

impl Case {
    /// The case asking `problem`, its answer from the exact engine. Only
    /// MINIMAX and ALPHABETA problems on a board with an empty cell have
    /// one.
    pub fn new(name: String, kind: CaseKind, problem: Problem) -> Result<Case, ApiError> {
        let depth = exact_depth(problem.question)?;
        let position = Position::from_problem(&problem)?;
        let limits = Limits {
            threads: 1,
            ..Limits::to_depth(SearchMode::Minimax, depth)
        };
        let analysis = analyse(&position, &limits)?;
        debug_assert!(analysis.exact);
        Ok(Case {
            name,
            kind,
            input: input_text(&problem),
            expected: analysis.output_text(),
            textbook_nodes: textbook_nodes(&problem.board, problem.player, depth),
            dispute: None,
            exposes: None,
            exposes_under: None,
            analysis,
            problem,
        })
    }

    /// The mode asked for (a case's question is always MINIMAX or ALPHABETA).
    pub fn mode(&self) -> SearchMode {
        match self.problem.question {
            Question::Exact { mode, .. } => mode,
            Question::Competition { .. } => SearchMode::default(),
        }
    }

    /// The depth asked for.
    pub fn depth(&self) -> u32 {
        self.problem.question.depth().unwrap_or(1)
    }

    /// How large the case is.
    pub fn size(&self) -> CaseSize {
        let board = &self.problem.board;
        let n = board.n();
        let mut values: Vec<i32> = (0..n * n).map(|i| board.value(i / n, i % n)).collect();
        values.sort_unstable();
        values.dedup();
        CaseSize {
            n,
            empties: board.empty_count(),
            depth: self.depth(),
            distinct_values: values.len(),
        }
    }

    /// The case in one line: `5x5 ALPHABETA, O to move, depth 3, 12 empty`.
    pub fn summary(&self) -> String {
        let n = self.problem.board.n();
        format!(
            "{n}x{n} {}, {} to move, depth {}, {} empty",
            self.mode().name(),
            self.problem.player.symbol(),
            self.depth(),
            self.problem.board.empty_count()
        )
    }

    /// True when the case is graded against a folder's `output.txt` that
    /// is not the exact answer.
    pub fn graded_by_folder(&self) -> bool {
        self.dispute
            .as_ref()
            .is_some_and(|d| d.graded_by == GradeBy::Folder)
    }

    /// The bug models on this case, each allowed `max_nodes` positions.
    pub(crate) fn models(&self, max_nodes: u64) -> CaseModels<'_> {
        CaseModels::new(&self.problem, self.analysis.output_text(), max_nodes)
    }

    /// The same position asked in the other mode (MINIMAX for ALPHABETA and
    /// the reverse): the same answer.
    pub fn other_mode(&self) -> Case {
        let mode = match self.mode() {
            SearchMode::Minimax => SearchMode::AlphaBeta,
            SearchMode::AlphaBeta => SearchMode::Minimax,
        };
        let mut case = self.clone();
        case.problem.question = Question::Exact {
            mode,
            depth: self.depth(),
        };
        case.input = input_text(&case.problem);
        case
    }
}

/// The depth of an exact question; COMPETITION has no answer to grade.
fn exact_depth(question: Question) -> Result<u32, ApiError> {
    match question {
        Question::Exact { depth, .. } => Ok(depth),
        Question::Competition { .. } => Err(ApiError::NotExact(question.name())),
    }
}

/// The number of cases the assignment's grader runs.
pub const ASSIGNMENT_CASES: usize = 50;

/// A generated case must be answerable by a plain Python textbook program
/// in this share of the time limit.
const BUDGET_SHARE: f64 = 0.25;

/// How the cases are drawn: the seed, how many, and the time limit whose
/// share bounds each case's estimated textbook cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaseSettings {
    /// The seed: the same seed, count and time limit give the same cases,
    /// and the first cases of a longer list are those of a shorter one.
    pub seed: u64,
    /// How many cases.
    pub count: usize,
    /// The CPU-time limit of a run.
    pub time_limit: Duration,
}

/// The first cases follow this order, so that even a short list has one
/// of each kind; later ones are drawn by weight ([`KIND_WEIGHTS`]).
const FIRST_KINDS: [CaseKind; 12] = [
    CaseKind::Random,
    CaseKind::StakeRaidTie,
    CaseKind::Tie,
    CaseKind::RaidFlips,
    CaseKind::OToMove,
    CaseKind::DeeperThanEmpty,
    CaseKind::Random,
    CaseKind::Smallest,
    CaseKind::Tie,
    CaseKind::Largest,
    CaseKind::StakeRaidTie,
    CaseKind::Random,
];

/// The kinds of later cases, in percent.
const KIND_WEIGHTS: [(CaseKind, u64); 8] = [
    (CaseKind::Random, 55),
    (CaseKind::OToMove, 10),
    (CaseKind::Tie, 8),
    (CaseKind::StakeRaidTie, 8),
    (CaseKind::RaidFlips, 8),
    (CaseKind::DeeperThanEmpty, 6),
    (CaseKind::Largest, 3),
    (CaseKind::Smallest, 2),
];

/// Draws of a special kind tried before the case falls back to a random one.
const KIND_ATTEMPTS: usize = 60;

/// The cases of `settings`, named `case 1`, `case 2`, ... Each case has
/// its own generator, seeded from the seed and its number. Past the first
/// kinds ([`FIRST_KINDS`]), a case goes to the first modelled bug (under a
/// convention, then in a mode) that no case before it exposes
/// ([`exposing_case`]), until every one is exposed;
/// so the first cases of a longer list are still those of a shorter one.
pub fn generate_cases(settings: &CaseSettings) -> Vec<Case> {
    let budget = settings.time_limit.as_secs_f64() * BUDGET_SHARE;
    let mut cases: Vec<Case> = Vec::with_capacity(settings.count);
    // The bugs exposed by the cases so far (or given up on), worked out
    // once the first kinds are drawn.
    let mut exposed: Option<Vec<Exposure>> = None;
    for i in 0..settings.count {
        let mut rng = Rng::new(
            settings
                .seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(i as u64),
        );
        let name = format!("case {}", i + 1);
        if i >= FIRST_KINDS.len() {
            let exposed =
                exposed.get_or_insert_with(|| cases.iter().flat_map(exposed_by).collect());
            if let Some(key) = every_exposure().find(|m| !exposed.contains(m)) {
                // A model no position of the draw exposes is not tried again.
                exposed.push(key);
                if let Some(case) = exposing_case(&name, key, &mut rng, budget) {
                    exposed.extend(exposed_by(&case));
                    cases.push(case);
                    continue;
                }
            }
        }
        let kind = match FIRST_KINDS.get(i) {
            Some(&kind) => kind,
            None => weighted_kind(&mut rng),
        };
        let drawn = (0..KIND_ATTEMPTS).find_map(|_| {
            let problem = draw(kind, &mut rng, budget);
            let case = Case::new(name.clone(), kind, problem).ok()?;
            has_kind(&case).then_some(case)
        });
        let case = drawn.unwrap_or_else(|| {
            let problem = draw(CaseKind::Random, &mut rng, budget);
            Case::new(name, CaseKind::Random, problem).expect("a drawn case is valid")
        });
        if let Some(exposed) = exposed.as_mut() {
            exposed.extend(exposed_by(&case));
        }
        cases.push(case);
    }
    cases
}

/// Positions a model may search to tell whether a drawn case exposes its
/// bug (a case past it exposes nothing).
const EXPOSE_NODES: u64 = 100_000;

/// The largest board whose drawn cases are checked for the bugs they
/// expose: larger ones cost the models more than they tell.
const EXPOSE_MAX_SIDE: usize = 8;

/// Every bug under every convention, in the order cases are drawn for
/// them.
fn every_model() -> impl Iterator<Item = (Bug, Convention)> {
    Bug::ALL
        .into_iter()
        .flat_map(|b| Convention::ALL.into_iter().map(move |c| (b, c)))
}

/// What a drawn case may expose: a bug under a convention, in any mode
/// (`None`) or in the one named (so that a bug in one mode only is caught
/// there, and told apart from the bugs it resembles).
type Exposure = (Bug, Convention, Option<SearchMode>);

/// Everything the drawn cases expose, in the order cases are drawn for
/// them: every bug under every convention, then every bug in each mode
/// it can show in.
fn every_exposure() -> impl Iterator<Item = Exposure> {
    let anywhere = every_model().map(|(b, c)| (b, c, None));
    let per_mode = Bug::ALL.into_iter().flat_map(|b| {
        [SearchMode::Minimax, SearchMode::AlphaBeta]
            .into_iter()
            .filter(move |&m| b != Bug::OpponentMaximizes || m == SearchMode::AlphaBeta)
            .map(move |m| (b, Convention::QuietRaids, Some(m)))
    });
    anywhere.chain(per_mode)
}

/// What `case` exposes: the bugs, each under a convention, whose model
/// answers it otherwise than the textbook; in its mode, those whose answer
/// no other bug's model gives.
fn exposed_by(case: &Case) -> Vec<Exposure> {
    if case.problem.board.n() > EXPOSE_MAX_SIDE {
        return Vec::new();
    }
    let mut models = case.models(EXPOSE_NODES);
    let mode = case.mode();
    let differing: Vec<(Bug, Convention)> = every_model()
        .filter(|&(b, c)| models.differs(b, c))
        .collect();
    let mut out: Vec<Exposure> = differing.iter().map(|&(b, c)| (b, c, None)).collect();
    // In one mode, a bug is exposed only where no other bug writes its
    // answer: what tells a bug in that mode only from its look-alikes.
    for &(bug, c) in &differing {
        let text = models.text(bug, c).map(str::to_owned);
        if differing
            .iter()
            .filter(|&&(b, _)| b != bug)
            .all(|&(b, d)| models.text(b, d).map(str::to_owned) != text)
        {
            out.push((bug, c, Some(mode)));
        }
    }
    out
}

/// Positions tried for a case that exposes a bug, the smallest boards first.
const EXPOSE_ATTEMPTS: usize = 400;

/// Further positions tried, once one exposes the bug, for one where no
/// other model gives the same answer.
const ALONE_ATTEMPTS: usize = 40;

/// A case named `name` on which the model of `key`'s bug, under its
/// convention (and in its mode, if it names one), answers otherwise than
/// the textbook, found among seeded random positions (2x2 boards first, then
/// 3x3, ...; each within `budget` seconds of a textbook Python program),
/// preferring one where no other model gives that answer, so that the
/// case tells the bug apart as well as exposing it. `None` when no
/// position tried exposes it.
fn exposing_case(name: &str, key: Exposure, rng: &mut Rng, budget: f64) -> Option<Case> {
    let (bug, convention, in_mode) = key;
    let mut first: Option<(Case, usize)> = None;
    for attempt in 0..EXPOSE_ATTEMPTS {
        if first
            .as_ref()
            .is_some_and(|&(_, at)| attempt > at + ALONE_ATTEMPTS)
        {
            break;
        }
        let n = 2 + attempt * 4 / EXPOSE_ATTEMPTS;
        let player = match bug {
            Bug::AlwaysX => Player::O,
            Bug::AlwaysO => Player::X,
            _ if rng.chance(0.5) => Player::X,
            _ => Player::O,
        };
        let mode = match (bug, in_mode) {
            (_, Some(mode)) => mode,
            (Bug::OpponentMaximizes, None) => SearchMode::AlphaBeta,
            _ if rng.chance(0.5) => SearchMode::Minimax,
            _ => SearchMode::AlphaBeta,
        };
        let board = small_board(rng, n);
        let depth = pick(rng, 1, 3) as u32;
        let (board, depth) = fit(board, player, depth, budget, rng);
        let problem = Problem {
            board,
            player,
            question: Question::Exact { mode, depth },
        };
        let Ok(mut case) = Case::new(name.to_owned(), CaseKind::BugModel, problem) else {
            continue;
        };
        case.exposes = Some(bug);
        case.exposes_under = Some(convention);
        let mut models = case.models(EXPOSE_NODES);
        if !models.differs(bug, convention) {
            continue;
        }
        let answer = models.text(bug, convention).map(str::to_owned);
        let alone = every_model()
            .filter(|&(b, _)| b != bug)
            .all(|(b, c)| models.text(b, c).map(str::to_owned) != answer);
        drop(models);
        if alone {
            return Some(case);
        }
        if first.is_none() {
            first = Some((case, attempt));
        }
    }
    first.map(|(case, _)| case)
}

/// A small seeded random case for an experiment, named `name`: boards
/// from 2x2 up to 4x4 as `attempt` goes from 0 to `attempts`, either mode,
/// X or O, depths 1 to 4, few distinct values or many, its cost held to
/// the share of `time_limit` a drawn case is held to. `None` for a
/// position with no move.
pub(crate) fn small_case(
    name: &str,
    rng: &mut Rng,
    attempt: usize,
    attempts: usize,
    time_limit: Duration,
) -> Option<Case> {
    let n = 2 + attempt * 3 / attempts.max(1);
    let player = if rng.chance(0.5) {
        Player::X
    } else {
        Player::O
    };
    let mode = if rng.chance(0.5) {
        SearchMode::Minimax
    } else {
        SearchMode::AlphaBeta
    };
    let board = small_board(rng, n);
    let budget = time_limit.as_secs_f64() * BUDGET_SHARE;
    let (board, depth) = fit(board, player, pick(rng, 1, 4) as u32, budget, rng);
    let problem = Problem {
        board,
        player,
        question: Question::Exact { mode, depth },
    };
    Case::new(name.to_owned(), CaseKind::BugModel, problem).ok()
}

/// An `n` x `n` board for a case that exposes a bug: of few distinct
/// values, which make ties, or of many, which make every other bug show.
fn small_board(rng: &mut Rng, n: usize) -> Board {
    if rng.chance(0.4) {
        let v = pick(rng, 1, 40) as i32;
        let f = fill(rng, 0, 70);
        random_board_from(rng, n, v, v + 1, f)
    } else {
        let f = fill(rng, 0, 85);
        random_values(rng, n, f)
    }
}

fn weighted_kind(rng: &mut Rng) -> CaseKind {
    let total: u64 = KIND_WEIGHTS.iter().map(|&(_, w)| w).sum();
    let mut r = rng.range(0, total - 1);
    for &(kind, w) in &KIND_WEIGHTS {
        if r < w {
            return kind;
        }
        r -= w;
    }
    CaseKind::Random
}

/// A uniform draw from `lo..=hi`.
fn pick(rng: &mut Rng, lo: u64, hi: u64) -> u64 {
    rng.range(lo, hi)
}

/// A fill ratio from `lo` to `hi` percent.
fn fill(rng: &mut Rng, lo: u64, hi: u64) -> f64 {
    pick(rng, lo, hi) as f64 / 100.0
}

/// One draw of a position of `kind`, its cost fitted to `budget` seconds
/// of a textbook Python program. Whether it has the kind's property is
/// checked on its analysis ([`has_kind`]).
fn draw(kind: CaseKind, rng: &mut Rng, budget: f64) -> Problem {
    let mode = if rng.chance(0.5) {
        SearchMode::Minimax
    } else {
        SearchMode::AlphaBeta
    };
    let mut player = if rng.chance(0.5) {
        Player::X
    } else {
        Player::O
    };
    let (n, depth, board) = match kind {
        CaseKind::Tie => {
            let n = pick(rng, 2, 6) as usize;
            let few = pick(rng, 1, 2) as i32;
            let v = pick(rng, 1, 40) as i32;
            let f = fill(rng, 0, 60);
            let board = random_board_from(rng, n, v, v + few - 1, f);
            (n, pick(rng, 1, 3) as u32, board)
        }
        CaseKind::StakeRaidTie => {
            let n = pick(rng, 2, 7) as usize;
            let f = fill(rng, 10, 45);
            let board = random_board_from(rng, n, 1, 99, f);
            (n, pick(rng, 1, 3) as u32, board)
        }
        CaseKind::RaidFlips => {
            let n = pick(rng, 3, 8) as usize;
            let f = fill(rng, 30, 80);
            let board = random_board_from(rng, n, 1, 99, f);
            (n, pick(rng, 1, 3) as u32, board)
        }
        CaseKind::DeeperThanEmpty => {
            let n = pick(rng, 2, 8) as usize;
            let mut board = random_board_from(rng, n, 1, 99, 1.0);
            let empties = pick(rng, 1, 4) as u32;
            while board.empty_count() < empties {
                let cell = pick(rng, 0, (n * n - 1) as u64) as usize;
                board.set(cell / n, cell % n, Square::Empty);
            }
            (n, pick(rng, u64::from(empties) + 1, 5) as u32, board)
        }
        CaseKind::Smallest => (1, pick(rng, 1, 5) as u32, random_values(rng, 1, 0.0)),
        CaseKind::Largest => {
            let f = fill(rng, 50, 100);
            (26, pick(rng, 1, 3) as u32, random_values(rng, 26, f))
        }
        CaseKind::Random
        | CaseKind::OToMove
        | CaseKind::BugModel
        | CaseKind::Given
        | CaseKind::Shrunk => {
            let n = match pick(rng, 0, 99) {
                0..=29 => pick(rng, 2, 4),
                30..=69 => pick(rng, 5, 8),
                70..=89 => pick(rng, 9, 14),
                _ => pick(rng, 15, 26),
            } as usize;
            let f = match pick(rng, 0, 9) {
                0 => 0.0,
                1 => 1.0,
                _ => fill(rng, 0, 95),
            };
            if kind == CaseKind::OToMove {
                player = Player::O;
            }
            (n, pick(rng, 1, 5) as u32, random_values(rng, n, f))
        }
    };
    let (board, depth) = fit(board, player, depth, budget, rng);
    debug_assert_eq!(board.n(), n);
    Problem {
        board,
        player,
        question: Question::Exact { mode, depth },
    }
}

/// A random board with values 1..99, a quarter of them also with some
/// cells of value 0 and 100, as real course files have; `fill` of its cells
/// taken (1.0: all but one).
fn random_values(rng: &mut Rng, n: usize, fill: f64) -> Board {
    let mut board = random_board_from(rng, n, 1, 99, fill);
    if rng.chance(0.25) {
        let mut values: Vec<i32> = (0..n * n).map(|i| board.value(i / n, i % n)).collect();
        for v in &mut values {
            match pick(rng, 0, 19) {
                0 => *v = 0,
                1 => *v = 100,
                _ => {}
            }
        }
        board = with_values(&board, &values);
    }
    board
}

/// `board` with other cell values, its pieces kept.
pub(crate) fn with_values(board: &Board, values: &[i32]) -> Board {
    let n = board.n();
    let mut out = Board::new(n, values);
    for r in 0..n {
        for c in 0..n {
            out.set(r, c, board.square(r, c));
        }
    }
    out
}

/// `board` and `depth` made cheap enough for `budget` seconds of a
/// textbook Python program: the depth lowered first, then cells filled.
fn fit(
    mut board: Board,
    player: Player,
    mut depth: u32,
    budget: f64,
    rng: &mut Rng,
) -> (Board, u32) {
    let n = board.n();
    let cost = |b: &Board, d: u32| textbook_seconds(n, textbook_nodes(b, player, d));
    while depth > 1 && cost(&board, depth) > budget {
        depth -= 1;
    }
    while board.empty_count() > 1 && cost(&board, depth) > budget {
        let cell = pick(rng, 0, (n * n - 1) as u64) as usize;
        if board.square(cell / n, cell % n) == Square::Empty {
            let p = if rng.chance(0.5) {
                Player::X
            } else {
                Player::O
            };
            board.set(cell / n, cell % n, Square::Piece(p));
        }
    }
    (board, depth)
}

/// True when `case` has the property its kind promises.
fn has_kind(case: &Case) -> bool {
    let a = &case.analysis;
    let best = a.best;
    match case.kind {
        CaseKind::Tie => a.moves.iter().filter(|m| m.value == a.value).count() >= 2,
        CaseKind::StakeRaidTie => {
            best.kind() == MoveKind::Stake
                && a.moves.iter().any(|m| {
                    m.mv.kind() == MoveKind::Raid
                        && (m.mv.row(), m.mv.col()) == (best.row(), best.col())
                        && m.value == a.value
                })
        }
        CaseKind::RaidFlips => {
            let mut b = case.problem.board.clone();
            best.kind() == MoveKind::Raid && b.make(best, case.problem.player).flipped() != [0; 3]
        }
        CaseKind::DeeperThanEmpty => case.depth() > case.problem.board.empty_count(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::reference;
    use crate::text::parse_problem;

    #[test]
    fn an_unknown_grade_by_is_a_typed_error() {
        assert_eq!(" Folder ".parse::<GradeBy>(), Ok(GradeBy::Folder));
        let e: UnknownGradeBy = "judge".parse::<GradeBy>().unwrap_err();
        let e: &dyn std::error::Error = &e;
        assert_eq!(e.to_string(), "\"judge\": must be engine or folder");
    }

    fn settings(seed: u64, count: usize) -> CaseSettings {
        CaseSettings {
            seed,
            count,
            time_limit: Duration::from_secs(10),
        }
    }

    #[test]
    fn cases_are_seeded_and_a_prefix_of_a_longer_list() {
        let short = generate_cases(&settings(3, 12));
        let long = generate_cases(&settings(3, 20));
        for (a, b) in short.iter().zip(&long) {
            assert_eq!((&a.input, &a.expected), (&b.input, &b.expected));
        }
        let other = generate_cases(&settings(4, 12));
        assert!(short.iter().zip(&other).any(|(a, b)| a.input != b.input));
    }

    #[test]
    fn each_kind_has_its_property_and_the_textbook_answer() {
        for seed in 1..=3 {
            for case in generate_cases(&settings(seed, 24)) {
                assert!(has_kind(&case), "{}: {:?}", case.name, case.kind);
                let p = &case.problem;
                let want =
                    reference::minimax(&p.board, p.player, case.depth().min(p.board.empty_count()));
                assert_eq!(case.analysis.best, want.best, "{}", case.input);
                assert_eq!(case.analysis.value, want.value);
                assert_eq!(parse_problem(case.input.as_bytes()).unwrap().board, p.board);
                let seconds = textbook_seconds(p.board.n(), case.textbook_nodes);
                assert!(seconds <= 2.5, "{}: {seconds} s", case.name);
            }
        }
        let first = generate_cases(&settings(1, 12));
        let kinds: Vec<CaseKind> = first.iter().map(|c| c.kind).collect();
        assert_eq!(kinds, FIRST_KINDS, "every kind found within its attempts");
        assert_eq!(first[7].problem.board.n(), 1);
        assert_eq!(first[9].problem.board.n(), 26);
        assert_eq!(first[4].problem.player, Player::O);
    }

    #[test]
    fn thirty_cases_expose_every_modelled_bug_under_every_convention() {
        for seed in 1..=3 {
            let cases = generate_cases(&settings(seed, 30));
            for (bug, convention) in every_model() {
                let exposing = cases.iter().find(|c| {
                    c.problem.board.n() <= EXPOSE_MAX_SIDE
                        && c.models(EXPOSE_NODES).differs(bug, convention)
                });
                assert!(
                    exposing.is_some(),
                    "seed {seed}: {bug:?} under {convention:?} is not exposed"
                );
            }
            let own: Vec<Bug> = cases.iter().filter_map(|c| c.exposes).collect();
            assert!(own.len() <= every_exposure().count(), "{own:?}");
            for c in cases.iter().filter(|c| c.exposes.is_some()) {
                assert_eq!(c.kind, CaseKind::BugModel);
                let seconds = textbook_seconds(c.problem.board.n(), c.textbook_nodes);
                assert!(seconds <= 2.5, "{}: {seconds} s", c.name);
            }
        }
    }

    #[test]
    fn the_estimate_is_near_the_textbook_count() {
        let mut rng = Rng::new(9);
        for _ in 0..30 {
            let n = pick(&mut rng, 2, 6) as usize;
            let f = fill(&mut rng, 0, 70);
            let board = random_board_from(&mut rng, n, 1, 99, f);
            let depth = pick(&mut rng, 1, 4) as u32;
            let exact = reference::minimax(&board, Player::X, depth.min(board.empty_count())).nodes;
            let estimate = textbook_nodes(&board, Player::X, depth);
            let ratio = estimate as f64 / exact as f64;
            assert!((0.5..=2.0).contains(&ratio), "{estimate} for {exact}");
            if depth <= 2 || board.empty_count() <= 2 {
                assert_eq!(estimate, exact);
            }
        }
    }
}

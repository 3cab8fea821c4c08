"""Type stubs of the Rust extension module ``stakeraid._core``."""

from collections.abc import Iterable, Sequence
from typing import Literal, SupportsIndex, TypedDict, final

from typing_extensions import TypeAlias

__all__ = [
    "Analysis",
    "BatchError",
    "Move",
    "Position",
    "RootMove",
    "SplitSolve",
    "StopToken",
    "__version__",
    "analyse",
    "analyse_batch",
    "competition_move",
    "grade_cases_json",
    "grade_json",
    "home_plies_for",
    "judge_output_json",
    "run_job",
    "shrink_json",
    "solve_text",
]

__version__: str

_Player: TypeAlias = Literal["X", "O"]
_MoveKind: TypeAlias = Literal["Stake", "Raid"]
_SearchMode: TypeAlias = Literal["ALPHABETA", "MINIMAX", "alphabeta", "minimax"]

@final
class Move:
    """A move: a target cell and a kind, printed as in ``output.txt``
    (``"C3 Raid"``). Immutable and hashable; ``==`` to its text as ``str``
    writes it (``move == "C3 Raid"``, not ``"c3 raid"``) and hashed as that
    text is; moves order as the legal moves are listed (every Stake before
    every Raid, each kind row-major)."""

    def __new__(cls, cell: str, kind: str) -> Move:
        """``Move("C3", "Raid")``; raises ``ValueError`` on a bad cell or kind."""
    @staticmethod
    def parse(text: str) -> Move:
        """Reads ``"C3 Stake"``, ``"c3 raid"`` or ``"Z26 Raid"``; raises ``ValueError``."""
    @staticmethod
    def from_index(index: int, size: int) -> Move:
        """The move with action index ``kind * size**2 + row * size + col``
        (kind 0 Stake, 1 Raid) on a ``size`` x ``size`` board."""
    def index(self, size: int) -> int:
        """This move's action index on a ``size`` x ``size`` board."""
    def __reduce__(self) -> tuple[type[Move], tuple[str, str]]: ...
    @property
    def cell(self) -> str:
        """The target cell, e.g. ``"C3"``."""
    @property
    def kind(self) -> _MoveKind:
        """``"Stake"`` or ``"Raid"``."""
    @property
    def row(self) -> int:
        """Zero-based row (row 1 is 0)."""
    @property
    def col(self) -> int:
        """Zero-based column (column A is 0)."""
    def __eq__(self, value: object, /) -> bool:
        """True for an equal ``Move``, or for this move's text as ``str`` writes it."""
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int:
        """The hash of ``str(self)``, which it is ``==`` to."""
    def __lt__(self, value: Move, /) -> bool: ...
    def __le__(self, value: Move, /) -> bool: ...
    def __gt__(self, value: Move, /) -> bool: ...
    def __ge__(self, value: Move, /) -> bool: ...

@final
class Position:
    """A board (cell values and pieces) and the player to move. Immutable:
    ``play`` returns a new position."""

    def __new__(
        cls,
        values: Sequence[Sequence[SupportsIndex]],
        cells: Sequence[str] | None = None,
        player: str = "X",
    ) -> Position:
        """One row of values (integers from 0 to 2147483647) per board row, one string of ``X``,
        ``O`` and ``.`` per row (all empty if omitted), the player to move.
        Raises ``ValueError`` with the row and column of a bad entry."""
    @staticmethod
    def from_input(text: str) -> Position:
        """The position of the text of an ``input.txt`` (its ``YOUPLAY``
        moves); raises ``ValueError`` naming the line and the reason."""
    def to_input(
        self,
        mode: str = "ALPHABETA",
        depth: int | None = None,
        seconds: float | None = None,
    ) -> str:
        """The text of an ``input.txt``: ``depth`` for MINIMAX / ALPHABETA,
        ``seconds`` for COMPETITION."""
    def legal_moves(self) -> list[Move]:
        """Every legal move in canonical order: all Stakes row-major, then
        all Raids row-major (Raids that flip nothing included)."""
    def action_mask(self) -> bytes:
        """``2 * size**2`` bytes, 1 where ``Move.index`` numbers a legal move."""
    def play(self, move: Move | str) -> Position:
        """The position after ``move``, the other player to move; raises
        ``ValueError`` if the move is not legal."""
    def is_legal(self, move: Move | str) -> bool:
        """True if ``move`` is legal here."""
    @property
    def size(self) -> int:
        """The board side N."""
    @property
    def to_move(self) -> _Player:
        """The player to move."""
    @property
    def score(self) -> int:
        """The game score from the point of view of the player to move."""
    def score_for(self, player: str) -> int:
        """The game score from ``player``'s point of view."""
    @property
    def is_over(self) -> bool:
        """True when the board is full."""
    @property
    def empty_count(self) -> int:
        """The number of empty cells."""
    @property
    def values(self) -> list[list[int]]:
        """The cell values, one list per row."""
    @property
    def cells(self) -> list[str]:
        """The pieces, one string of ``X``, ``O`` and ``.`` per row."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Position], tuple[list[list[int]], list[str], str]]: ...

@final
class StopToken:
    """A flag that stops the searches it is passed to, from any thread."""

    def __new__(cls) -> StopToken: ...
    def stop(self) -> None:
        """Asks every search holding this token to stop."""
    def reset(self) -> None:
        """Clears the flag for a new search."""
    @property
    def stopped(self) -> bool:
        """True once ``stop()`` was called (and not reset)."""

@final
class RootMove:
    """One root move with what the search proved about its value."""

    @property
    def move(self) -> Move:
        """The move."""
    @property
    def value(self) -> int:
        """Its value, or an upper bound of it (see ``bound``)."""
    @property
    def bound(self) -> Literal["exact", "upper"]:
        """``"exact"``, or ``"upper"`` where only an upper bound was proved."""
    def __eq__(self, value: object, /) -> bool: ...

@final
class Analysis:
    """The result of ``analyse``: the JSON object of ``to_json()`` as
    attributes, with ``best`` and ``pv`` as ``Move`` (each ``==`` to its
    text) and ``moves`` as ``RootMove``; values are game scores from
    ``player``'s point of view at the depth searched."""

    @property
    def player(self) -> _Player: ...
    @property
    def mode(self) -> Literal["ALPHABETA", "MINIMAX"]: ...
    @property
    def best(self) -> Move:
        """The first move in canonical order whose value is maximal
        (``a.best == "C3 Raid"``: a ``Move`` is ``==`` to its text)."""
    @property
    def value(self) -> int:
        """The value of ``best`` (exact at ``depth``)."""
    @property
    def board(self) -> list[str]:
        """The board after ``best``, one string per row."""
    @property
    def moves(self) -> list[RootMove]:
        """Every legal root move in canonical order."""
    @property
    def pv(self) -> list[Move]:
        """The principal variation, ``best`` first."""
    @property
    def depth(self) -> int:
        """The depth the answer comes from."""
    @property
    def requested_depth(self) -> int:
        """The depth asked for, capped at the number of empty cells."""
    @property
    def exact(self) -> bool:
        """True when ``best`` and ``value`` are exact at ``requested_depth``."""
    @property
    def stopped(self) -> bool:
        """True when a stop or the time limit cut some work short."""
    @property
    def nodes(self) -> int: ...
    @property
    def time_us(self) -> int: ...
    def output_text(self) -> str:
        """The text of ``output.txt``."""
    def ranked(self) -> list[RootMove]:
        """The root moves best first."""
    def to_json(self) -> str:
        """The JSON object of ``stakeraid solve --json``."""
    @staticmethod
    def from_json(text: str) -> Analysis:
        """The analysis a ``to_json()`` text describes; ``ValueError`` if none."""
    def __eq__(self, value: object, /) -> bool: ...
    def __reduce__(self) -> tuple[object, tuple[str]]: ...

def analyse(
    position: Position,
    mode: _SearchMode = "ALPHABETA",
    depth: int | None = None,
    time: float | None = None,
    threads: int = 0,
    stop: StopToken | None = None,
) -> Analysis:
    """Analyses ``position`` to ``depth`` plies and/or for ``time`` wall
    seconds; ``threads=0`` uses one per core; ``stop`` interrupts it."""

class BatchError(ValueError):
    """Some positions of an ``analyse_many`` batch failed (raised once all
    are answered, with ``errors="raise"``)."""

    results: list[Analysis | ValueError]
    """One entry per position, in order: its analysis or its error."""
    failed: list[int]
    """The indices of the positions that failed."""

class _EachSearch(TypedDict):
    mode: str
    depth: int | None
    time: float | None

class _Budget(TypedDict):
    threads: int
    table_budget: int | None

def analyse_batch(
    positions: Iterable[Position | str],
    search: _EachSearch,
    budget: _Budget,
    stop: StopToken | None,
    errors: Literal["raise", "return"],
) -> list[Analysis | ValueError]:
    """The work of ``stakeraid.analyse_many``, its arguments grouped:
    ``search`` how each position is searched (``mode``, ``depth``,
    ``time``), ``budget`` what the batch may take (``threads``,
    ``table_budget``)."""

def solve_text(input_text: str, threads: int = 0) -> str:
    """The text of ``output.txt`` for the text of an ``input.txt``."""

def competition_move(position: Position, seconds_left: float, threads: int = 0) -> Move:
    """The competition engine's move with ``seconds_left`` CPU seconds for
    the rest of the player's game."""

class SplitSolve:
    """A split solve in progress: ``take_jobs`` hands out jobs (JSON text
    for ``run_job``), ``finish`` takes their results back in any order, and
    ``answer`` is set once every root move is settled (``take_jobs`` itself
    may settle the last ones: check ``answer`` after it too). With ``store``, every
    proven bound is written to that file as it is proved. ``hint``, a move
    and its value from an earlier solve, has that move tested first at that
    value: the answer is the same whatever the hint (an unplayable move is
    a ``ValueError``)."""

    def __init__(
        self,
        grid: tuple[list[list[int]], list[str], str],
        depth: int | None = None,
        split: int = 3,
        store: str | None = None,
        hint: tuple[str, int] | None = None,
        *,
        inline_plies: int = 8,
        order_plies: int = 2,
        speculate: bool = False,
        job_nodes: int | None = None,
        ahead: bool = False,
        spare: bool = False,
        share_nodes: int | None = None,
        home_plies: int = 2,
    ) -> None: ...
    def take_jobs(self, max: int) -> list[str]: ...
    def hand_on(self, job: str, since: int) -> tuple[str, int]:
        """``job`` with the proofs the driver gained since its ``since``-th
        added (with ``share_nodes``: what the other processes proved), for
        a process told everything before; and where to start next time."""
    def finish(self, result: str) -> None: ...
    def unneeded(self) -> list[int]: ...
    def seal(self) -> int | None:
        """Seals the store for a driver ending before its answer (its log
        folded in, no write after) and returns how many positions it keeps;
        ``None`` without a store."""
    @property
    def answer(self) -> dict | None: ...
    @property
    def stats(self) -> dict: ...

def run_job(job: str, threads: int = 1, stop: StopToken | None = None) -> str:
    """Answers one job of a ``SplitSolve`` (the interpreter released) and
    returns its result as JSON text for ``SplitSolve.finish``. Stopping
    ``stop`` gives the job up (a job the driver no longer needs): it then
    answers nothing."""

def home_plies_for(machines: int) -> int:
    """The ``home_plies`` of a ``SplitSolve`` for a cluster of
    ``machines``, each with a table its jobs share: 2 on up to four, 3 on
    more."""

def grade_json(
    command: str | Sequence[str],
    selection: tuple[int, int | None, str | None, str],
    limits: tuple[float, int, int, float],
    sandbox: tuple[str, int, int],
) -> str:
    """The JSON report of ``stakeraid grade --json`` (see ``stakeraid.grade``):
    ``selection`` is ``(seed, cases, cases_from, expected)``, ``limits``
    ``(time_limit, jobs, shrink_runs, shrink_time)``, ``sandbox``
    ``(mode, memory_mb, processes)``."""

def grade_cases_json(seed: int = 1, count: int = 50, time_limit: float = 10.0) -> str:
    """The generated cases as a JSON list (see ``stakeraid.grade_cases``)."""

def judge_output_json(input_text: str, output: bytes) -> str:
    """The verdict on an ``output.txt`` as JSON (see ``stakeraid.judge_output``)."""

def shrink_json(
    command: str | Sequence[str],
    input_text: str,
    time_limit: float = 10.0,
    max_runs: int = 60,
    max_seconds: float = 60.0,
    sandbox: tuple[str, int, int] = ("auto", 1024, 512),
) -> str:
    """A run's verdict and smallest failing input as JSON (see ``stakeraid.shrink``)."""

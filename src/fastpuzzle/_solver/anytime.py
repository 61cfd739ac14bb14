"""The anytime near-optimal solver: ``solve(board, optimal=False, limits=...)`` past 16 cells.

Moves are U, D, L, R: the direction the **blank** moves.

The first answer is the constructive one (:func:`~fastpuzzle._solver.constructive.solve_fast`,
milliseconds); while the limits allow, it is replaced by shorter ones (docs/near_optimal.rst
has the measurements behind each choice):

- on boards of 36 to 400 cells, beams first (:mod:`fastpuzzle._solver.beam`, up to three
  quarters of the limit), their shortest answer replacing the constructive one; where 6x6's
  pattern database is read instead, batch weighted A* on it
  (:mod:`fastpuzzle._solver.batch_astar`, up to four fifths of the limit);
- weighted IDA* with linear conflict (``f = g + w*h``, at most ``w`` times optimal) for a
  portfolio of decreasing weights (below :data:`UNWEIGHTED_ONLY_CELLS` cells), each from the
  start and, on the inverse problem, from the goal. Its time is erratic (on a 7x7 board ``w=5``
  ran out of 10 s where ``w=4`` took 0.06 s), so the largest searches not yet finished take
  turns under slices that double each round rather than each taking what is left: one that is
  slow on this board costs at most as much as the others, and a weight that finishes retires
  the larger ones;
- every new path not much longer than the best shortened by windows: the stretch between two
  boards ``window`` moves apart on it is re-solved optimally (IDA* with linear conflict,
  capped in nodes) and spliced in when shorter, until no window improves; after a round in
  which no weight finished, longer windows, some re-solved within a small weight;
- every round, the unweighted search capped below the best length: it certifies the best
  when it runs out of paths, finds a shortest path, or, stopped by the limits, leaves the bound
  it was searching as a certified lower bound (every shorter path was ruled out).

Every search carries the duplicate-pruning machine when it is at hand. Where the shape's
pattern database is on disk (5x5: 6-6-6-6, 6x6: 5-5-5-5-5-5-5; built first where the time
limit is long beside the build, :mod:`~fastpuzzle._solver.first_use`; 7x7's is
not read, see :data:`TABLE_CELLS`), the searches towards the goal read it once it is in memory
(:class:`Tables`): the weighted ones on ``_wide_pdb``'s weighted IDA*, the unweighted one from
the bound already certified, and the windows that end with the goal's blank; the searches from
the goal then stop. Without a time or node limit nothing of
this runs: the answer stays the constructive one. The lower bound is the largest of the
start's linear conflict, its pattern-database value and the unweighted search's bound.

With ``workers`` of 2 or more, the strongest member runs on a second thread beside the rest
(:func:`side_search`, :mod:`fastpuzzle._solver.side`): on 6x6's tables batch A* (then the
windows on its answer), its answer taken in when it is there (under a node limit alone, at a
fixed point: :func:`_side_ended`); on 36 to 49 cells without tables beams of other
tie-breaks, ending with the schedule's own, whose windows take the shorter answer.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

import numpy as np

from fastpuzzle._core import _constructive, _wide, _wide_idastar, _wide_pdb
from fastpuzzle._core._heuristics import HeuristicCode
from fastpuzzle._core._interrupt import raise_if_stopped
from fastpuzzle._core._result import CoreResult, SearchStatus
from fastpuzzle._problem import Problem, make_problem
from fastpuzzle._solver import batch_astar, beam, first_use, policy, pruning
from fastpuzzle._solver.bounds import pattern_bound, start_bound
from fastpuzzle._solver.budget import Budget
from fastpuzzle._solver.constructive import solve_fast
from fastpuzzle._solver.side import THREADS, Side
from fastpuzzle.board import MAX_CELLS, BoardLike
from fastpuzzle.errors import DepthLimitError, InternalError, TimeLimitError
from fastpuzzle.limits import Limits
from fastpuzzle.moves import inverse
from fastpuzzle.pdb.database import BuildTimeLimitError, PatternDatabaseError
from fastpuzzle.pdb.partitions import Partition
from fastpuzzle.pdb.store import load_pdb, pdb_path
from fastpuzzle.results import AnytimeStats, ProgressCallback, SearchStats, Solution

_log = logging.getLogger(__name__)

__all__ = [
    "TABLE_CELLS",
    "UNWEIGHTED_ONLY_CELLS",
    "WEIGHTS",
    "Budget",
    "Tables",
    "improve",
    "ruled_out_below",
    "search_ends",
    "shorten_windows",
    "solve_near_optimal",
]

#: The portfolio, largest first: each weight's answers are at most that many times optimal.
#: Close weights, as weighted IDA*'s time varies wildly between them (on one 5x5 board 1.75
#: took 0.06 s and 1.5 ran out of 1.25 s).
WEIGHTS: tuple[float, ...] = (
    *(5.0, 4.0, 3.0, 2.5, 2.2, 2.0, 1.85, 1.75, 1.65, 1.6, 1.55, 1.5),
    *(1.45, 1.4, 1.35, 1.3, 1.25, 1.2, 1.15, 1.1, 1.05, 1.0),
)

#: Windows of this many moves are re-solved optimally, each search capped at this many nodes.
#: (5x5 and 6x6 paths: 30,000 and 100,000 nodes gave the same lengths; 7x7, a 628-move path:
#: 522 moves in 0.38 s and 524 in 0.6 s. Cheaper windows first, of 30 moves capped at 10,000,
#: left it at 552: tight at their scale, the path then gave the longer windows less.)
WINDOW = 40
WINDOW_NODES = 30_000

#: A path this many times longer than the best gets no windows: they cost seconds on a long
#: path (7x7: two of 830 moves, against a best of 552, took 3 s) and rarely bring it under
#: (7x7, 20 M nodes, 5 boards: 482.8 moves at 1.4, 462.4 at 1.2, 456.8 at 1.1 and 1.0; 5x5
#: and 6x6 the same).
HOPELESS = 1.1

#: Windows for the best path after a round that improved it: ``(moves, weight, node cap)``,
#: taken in turn until none shortens it. Weighted windows (re-solved within a factor, kept when
#: shorter) reach further for their nodes: on 6x6 one of 100 moves at 1.3 took a path from 155
#: to 143 moves in 0.04 s.
DEEP_WINDOWS: tuple[tuple[int, float, int], ...] = (
    (60, 1.2, 100_000),
    (80, 1.3, 100_000),
    (100, 1.3, 100_000),
    (120, 1.5, 200_000),
    (60, 1.0, 1_000_000),
)

#: Each round tries the largest weights not yet finished, this many searches (a weight's two
#: directions are two).
FRONT = 4

#: The first round's slice: this share of the time limit (or of the node limit), at least
#: :data:`MIN_SLICE_SECONDS` (or :data:`MIN_SLICE_NODES`); each round doubles it.
SLICE_SHARE = 1 / 64
MIN_SLICE_SECONDS = 0.02
MIN_SLICE_NODES = 1 << 14

#: The searches read the shape's pattern database on boards of 17 to this many cells, where it
#: paid (6x6: 156.4 moves to 137.6 on DeepCubeA's first 5 boards in 30 s). 7x7's twelve
#: groups of 4 did not (its first 3 boards, 60 s each: 404.7 moves on linear conflict,
#: 466.7 with the tables; their value of the start is below linear conflict's, and with
#: them the searches from the goal stop).
TABLE_CELLS = 36

#: The unweighted search from the start.
_OPTIMAL = (1.0, False)

#: From this many cells on (10x10 and up), the weighted portfolio does not run: weighted IDA*
#: never finished there within the kernels' 1,000-move paths, and the unweighted search gets
#: its time for the bound (10x10, rng 0 to 4, 10 s each: the bound 2 moves higher on 4 of the
#: 5 boards, the lengths as before).
UNWEIGHTED_ONLY_CELLS = 100

#: The unweighted search's slice, as a share of the weighted ones' (5x5 on the pattern
#: database, 20 M nodes, 5 boards: 1/8 and 1/32 gave the same lengths and a larger gap, a
#: whole slice 6.8 moves longer).
OPTIMAL_SHARE = 1 / 4

#: Whether the searches from the goal (on linear conflict: the tables hold one goal's blank)
#: go on once the pattern database is read (5x5, 20 M nodes, 5 boards: 93.6 moves with them,
#: 93.2 without; the nodes go to the searches on the tables).
BACKWARDS_WITH_TABLES = False

#: Batch weighted A* on the tables (:mod:`fastpuzzle._solver.batch_astar`) on boards of this
#: many cells (6x6, 5-5-5-5-5-5-5; also 5x6, 4x7, 3x9 and 2x13 where their default tables are
#: on disk, not measured), once they are read, before the weighted portfolio's next round. On
#: 5x5 the portfolio on 6-6-6-6 is within 1.04x optimal already.
ASTAR_CELLS = range(26, TABLE_CELLS + 1)

#: It starts at the first round after this share of the limit is spent: from the first round.
#: Weighted IDA* first, for 30 % of the limit, then batch A* capped below its best length,
#: gave 140.4 moves against 140.0 under 20 million nodes (6x6, DeepCubeA's first 5 boards),
#: and in two paired runs of 30 s a board 138.8 and 141.6 against 139.2 and 140.0.
ASTAR_AFTER = 0.0

#: The side thread's beams (:func:`side_search`) count their tie-breaks up from this one, the
#: schedule's from none: the two threads try different beams.
SIDE_SEED = 1 << 20

#: The share of a node limit the side's batch A* (then its windows) takes; the schedule
#: takes its answer once it has spent :data:`SIDE_JOIN` of the rest.
SIDE_ASTAR_SHARE = 0.5
SIDE_JOIN = 0.5

#: The side thread runs beams on boards of 36 cells to this many (the schedule's beams take
#: the rest of the beam sizes alone: on 10x10 they need every node of the limit).
SIDE_BEAM_CELLS = 49

#: How often the side thread looks whether the tables it waits for have been read.
SIDE_WAIT_SECONDS = 0.01

#: What one beam of up to :data:`SIDE_BEAM_CELLS` cells may hold, at most (7x7 at the widest
#: width, 4,096 boards: 14.1 MB): under a memory limit below twice this the side runs no beams.
SIDE_BEAM_BYTES = 64 << 20

#: The side's batch A* does not start with less of a time limit left: its kernel looks at the
#: clock every 65,536 expansions (40 to 45 ms on 6x6), which overran a 0.05 s limit by 60 %.
SIDE_MIN_SECONDS = 0.25

_LINEAR_CONFLICT = int(HeuristicCode.H_LINEAR_CONFLICT)
_SOLVED = int(SearchStatus.STATUS_SOLVED)
_RUNNING_OUT = (int(SearchStatus.STATUS_TIME_LIMIT), int(SearchStatus.STATUS_NODE_LIMIT))
#: A search that ends so looked at every path within its depth cap.
_RULED_OUT = (int(SearchStatus.STATUS_EXHAUSTED), int(SearchStatus.STATUS_DEPTH_LIMIT))
_CODES = bytes.maketrans(
    "".join(_wide.direction_constants()).encode("ascii"),
    bytes(_wide.direction_constants().values()),
)


class Tables:
    """The pattern database the searches towards ``goal_blank`` read once it is in memory.

    Where the policy's tables for the shape are on disk (built by :mod:`first_use`), they are
    read on a background thread (255 MB for 5x5's 6-6-6-6; 158 MB for 6x6's) while the first
    searches run on linear conflict; :meth:`ready` says whether they have arrived without
    waiting, unless ``wait``: then the first call reads them (a node limit's schedule stays
    deterministic).

    Parameters
    ----------
    partition, shape, goal_blank
        What :func:`~fastpuzzle.pdb.load_pdb` reads.
    wait : bool
        Read them on the first call to :meth:`ready` rather than in the background.
    """

    def __init__(
        self,
        partition: str | Partition,
        shape: tuple[int, int],
        goal_blank: int,
        *,
        wait: bool,
        nbytes: int = 0,
    ):
        self.partition, self.shape, self.goal_blank = partition, shape, goal_blank
        self.wait = wait
        #: The file's size: what the tables hold in memory once read.
        self.nbytes = nbytes
        #: The caller's memory limit (the tables and what the searches store), or None.
        self.memory_bytes: int | None = None
        #: Whether a search or the bound read them (the answer's heuristic says so).
        self.used = False
        self._loaded: object | None = None
        self._failed = False
        # The schedule's thread and the side's (batch A*) both ask.
        self._lock = threading.Lock()
        self._bound = 0

    @classmethod
    def on_disk(
        cls, problem: Problem, *, wait: bool, memory_bytes: int | None = None
    ) -> Tables | None:
        """The shape's tables (the policy's for ``problem``'s shape and goal) where they are on
        disk and fit in ``memory_bytes`` (None: no limit), else None (none built: a build
        takes minutes, more than a limit allows; or none can be)."""
        shape = problem.board.shape
        if not MAX_CELLS < problem.rows * problem.cols <= TABLE_CELLS:
            return None
        for partition in policy.tables_of(shape, problem.goal_blank).read:
            try:
                nbytes = pdb_path(partition, shape, problem.goal_blank).stat().st_size
            except (OSError, PatternDatabaseError):
                # PatternDatabaseError: the shape's default groups cannot be built.
                continue
            if memory_bytes is None or nbytes <= memory_bytes:
                found = cls(partition, shape, problem.goal_blank, wait=wait, nbytes=nbytes)
                found.memory_bytes = memory_bytes
                return found
        return None

    def ready(self) -> object | None:
        """The laid-out tables once they are read, else None (a damaged or unreadable file,
        or no memory for it: always None, and the searches keep linear conflict)."""
        with self._lock:
            return self._read()

    @property
    def failed(self) -> bool:
        """Whether they cannot be read (the searches keep linear conflict)."""
        return self._failed

    def _read(self) -> object | None:
        if self._loaded is None and not self._failed:
            try:
                found = load_pdb(
                    self.partition,
                    self.shape,
                    self.goal_blank,
                    deadline=None if self.wait else time.monotonic(),
                )
            except BuildTimeLimitError:
                return None
            except (OSError, MemoryError) as error:
                _log.warning("the anytime solver goes on without its tables: %s", error)
                found = None
            if found is None:
                self._failed = True
            else:
                self._loaded = found.loaded()
        return self._loaded

    def bound(self, problem: Problem) -> int:
        """The tables' value of ``problem``'s start once they are read (else 0): a lower bound
        (5x5, 6-6-6-6: 2.5 moves above linear conflict on DeepCubeA's 20 boards)."""
        if not self._bound and self.ready() is not None:
            self._bound = pattern_bound(problem, self.ready())
            self.used = True
        return self._bound

    def for_goal(self, goal_blank: int) -> object | None:
        """The tables, read, for a search whose goal has its blank on ``goal_blank``."""
        found = self.ready() if goal_blank == self.goal_blank else None
        self.used = self.used or found is not None
        return found


def _idastar(
    cells: np.ndarray,
    blank: int,
    rows: int,
    cols: int,
    goal_blank: int,
    *,
    weight: float,
    time_limit: float,
    node_limit: int,
    max_depth: int,
    machine: np.ndarray | None,
    tables: Tables | None,
    min_bound: int = 0,
) -> CoreResult:
    """(Weighted) IDA* on the pattern database where it is read for this goal, else with
    linear conflict; ``min_bound`` (unweighted, on the database only): no shorter path."""
    found = None if tables is None else tables.for_goal(goal_blank)
    if found is not None:
        return _wide_pdb.idastar(
            cells.astype(np.uint8),
            blank,
            rows,
            cols,
            goal_blank,
            tables=found,
            weight=weight,
            node_limit=node_limit,
            time_limit=time_limit,
            max_depth=max_depth,
            machine=machine,
            min_bound=min_bound if weight == 1.0 else 0,
        )
    return _wide_idastar.idastar(
        cells,
        blank,
        rows,
        cols,
        goal_blank,
        heuristic=_LINEAR_CONFLICT,
        weight=weight,
        node_limit=node_limit,
        time_limit=time_limit,
        max_depth=max_depth,
        machine=machine,
    )


def _codes(moves: str) -> np.ndarray:
    return np.frombuffer(moves.encode("ascii").translate(_CODES), dtype=np.uint8)


def _relabelled(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, int]:
    """``(cells, goal_blank)``: ``start`` relabelled so that ``end`` is the canonical goal."""
    gap = int(np.flatnonzero(end == 0)[0])
    cells = np.arange(len(end), dtype=np.uint16)
    labels = np.empty(len(end), dtype=np.uint16)
    # Tile t sits at cell c of the goal, so its canonical label is c + 1 before the gap, else c.
    labels[end] = np.where(cells < gap, cells + 1, cells)
    labels[0] = 0
    return labels[start], gap


def shorten_windows(
    problem: Problem,
    moves: str,
    budget: Budget,
    *,
    window: int = WINDOW,
    node_cap: int = WINDOW_NODES,
    weight: float = 1.0,
    machine: np.ndarray | None = None,
    tables: Tables | None = None,
) -> str:
    """``moves`` shortened by re-solving each stretch of ``window`` moves optimally.

    Passes alternate the cuts by half a window and repeat until one improves nothing or the
    budget is spent (checked between windows; each search gets what is left). The moves
    returned reach the same goal and are never longer.
    """
    rows, cols = problem.rows, problem.cols
    first = 0
    stale = 0
    while stale < 2 and not budget.spent:
        before = len(moves)
        moves = _one_pass(
            problem, moves, budget, window, first, node_cap, weight, machine, tables, rows, cols
        )
        stale = stale + 1 if len(moves) >= before else 0
        first = window // 2 if first == 0 else 0
    return moves


def search_ends(problem: Problem, *, backwards: bool) -> tuple[np.ndarray, int, int]:
    """``(cells, blank, goal_blank)`` of the search from the start to the goal, or
    (``backwards``) from the goal to the start, whose moves reversed (:func:`inverse`) solve
    the board."""
    if not backwards:
        return problem.wide_cells(), problem.blank, problem.goal_blank
    # The goal relabelled so that the start is the canonical goal.
    cells, start_blank = _relabelled(_goal_cells(problem), problem.wide_cells())
    return cells, problem.goal_blank, start_blank


def _reaches_goal(problem: Problem, moves: str) -> bool:
    cells = problem.wide_cells()
    _, failed = _wide.apply_moves(cells, problem.blank, problem.rows, problem.cols, _codes(moves))
    return failed < 0 and bool(np.array_equal(cells, _goal_cells(problem)))


def _goal_cells(problem: Problem) -> np.ndarray:
    """The canonical goal of ``problem``: tile t at cell t - 1, shifted past the goal's blank."""
    cells = np.arange(problem.rows * problem.cols, dtype=np.uint16)
    goal = np.where(cells < problem.goal_blank, cells + 1, cells).astype(np.uint16)
    goal[problem.goal_blank] = 0
    return goal


def _one_pass(
    problem: Problem,
    moves: str,
    budget: Budget,
    window: int,
    first: int,
    node_cap: int,
    weight: float,
    machine: np.ndarray | None,
    tables: Tables | None,
    rows: int,
    cols: int,
) -> str:
    codes = _codes(moves)
    current = problem.wide_cells()
    blank = problem.blank
    out: list[str] = []
    i = 0
    while i < len(moves):
        if budget.spent:
            # The rest as it is: following it board by board costs a copy of the board a
            # window (a 100x100 path has tens of thousands of windows).
            out.append(moves[i:])
            break
        j = min(len(moves), i + (first if i == 0 and first else window))
        end = current.copy()
        end_blank, _ = _wide.apply_moves(end, blank, rows, cols, codes[i:j])
        # Lengths between two boards share their parity: only 2 fewer moves or more help.
        if j - i >= 4:
            cells, goal_blank = _relabelled(current, end)
            time_limit, node_limit = budget.limits(nodes=node_cap)
            # A window whose end has the blank where the goal has it reads the pattern
            # database (the tables hold one goal's blank); weighted, max_depth caps f there,
            # so any answer is still shorter.
            found = _idastar(
                cells,
                blank,
                rows,
                cols,
                goal_blank,
                weight=weight,
                node_limit=node_limit,
                time_limit=time_limit,
                max_depth=j - i - 2,
                machine=machine,
                tables=tables,
            )
            budget.charge(found.expanded, found.generated)
            out.append(found.moves if found.status == _SOLVED else moves[i:j])
        else:
            out.append(moves[i:j])
        current, blank = end, end_blank
        i = j
    return _constructive.cancel_inverse_pairs("".join(out))


def _deep_windows(
    problem: Problem,
    moves: str,
    budget: Budget,
    machine: np.ndarray | None,
    tables: Tables | None,
) -> str:
    stale = 0
    while not budget.spent:
        for window, weight, cap in DEEP_WINDOWS:
            before = len(moves)
            moves = shorten_windows(
                problem,
                moves,
                budget,
                window=window,
                node_cap=cap,
                weight=weight,
                machine=machine,
                tables=tables,
            )
            stale = 0 if len(moves) < before else stale + 1
            if stale == len(DEEP_WINDOWS) or budget.spent:
                return moves
    return moves


def improve(
    problem: Problem,
    moves: str,
    budget: Budget,
    *,
    lower_bound: int,
    base_seconds: float | None,
    base_nodes: int | None,
    progress: ProgressCallback | None = None,
    machine: np.ndarray | None = None,
    tables: Tables | None = None,
    side: Side | None = None,
) -> tuple[str, int]:
    """``(moves, lower_bound)``: the best path found and the best certified bound, improving
    ``moves`` under ``budget`` (the schedule of the module's docstring); ``tables``: the
    pattern database of the searches towards the goal, once read; ``side``: a member of the
    schedule running on another thread (:func:`side_search`), whose answer is taken in."""
    if tables is not None:
        lower_bound = max(lower_bound, tables.bound(problem))
    if tables is None and beam.MIN_CELLS <= problem.rows * problem.cols <= beam.MAX_CELLS:
        # Weighted IDA* rarely finishes there on linear conflict; a wide beam's path is far
        # shorter than the constructive one (10x10: docs/near_optimal.rst). On a pattern
        # database it does, and beams first gained nothing (6x6, 20 million nodes: 148.0
        # moves with them and without) at twice the time a node.
        moves = beam.beam_phase(
            problem, moves, budget, lambda path: _report(progress, budget, path, lower_bound)
        )
        if side is not None and side.kind == "beams":
            # The side's beams (other tie-breaks) end with these: the windows take the best.
            moves = _shorter(moves, _take_side(side, budget))
    best = shorten_windows(problem, moves, budget, machine=machine, tables=tables)
    _report(progress, budget, best, lower_bound)
    # Each weight searches from the start and, on the inverse problem, from the goal: the two
    # take very different times (5x5, weight 1.3: 0.002 s from the goal where the start ran
    # out of 3 s, and the other way round on another board).
    pending = [(weight, backwards) for weight in WEIGHTS for backwards in (False, True)]
    if problem.rows * problem.cols >= UNWEIGHTED_ONLY_CELLS:
        pending = [_OPTIMAL]
    ends = {backwards: search_ends(problem, backwards=backwards) for backwards in (False, True)}
    round_ = 0
    deep_from = len(best)
    astar = problem.rows * problem.cols in ASTAR_CELLS and (side is None or side.kind != "astar")
    while pending and not budget.spent and len(best) > lower_bound:
        scale = 1 << round_
        finished = False
        if side is not None and side.kind == "astar" and _side_ended(side, budget):
            joined = _shorter(best, _take_side(side, budget))
            if joined is not best:
                best = joined
                _report(progress, budget, best, lower_bound)
        if (
            astar
            and _spent_share(budget) >= ASTAR_AFTER
            and tables is not None
            and tables.ready() is not None
        ):
            astar = False
            best = _astar(problem, best, budget, tables, progress, lower_bound, machine)
        if not BACKWARDS_WITH_TABLES and tables is not None and tables.ready() is not None:
            pending = [entry for entry in pending if not entry[1]]
        front = pending[:FRONT]
        if _OPTIMAL in pending and _OPTIMAL not in front:
            # The optimal search below the best, on a quarter slice every round: it certifies
            # a short best early and raises the bound as it goes.
            front.append(_OPTIMAL)
        for weight, backwards in front:
            cells, blank, goal_blank = ends[backwards]
            if tables is not None:
                lower_bound = max(lower_bound, tables.bound(problem))
            if budget.spent or len(best) <= lower_bound:
                break
            share = scale * OPTIMAL_SHARE if (weight, backwards) == _OPTIMAL else scale
            time_limit, node_limit = budget.limits(
                None if base_seconds is None else base_seconds * share,
                None if base_nodes is None else max(1, int(base_nodes * share)),
            )
            # The optimal search looks only below the best, within the longest path the
            # kernels follow (a deeper max_depth is searched to that one).
            below = max(0, min(len(best) - 2, _wide_idastar.MAX_PATH))
            found = _idastar(
                cells.copy(),
                blank,
                problem.rows,
                problem.cols,
                goal_blank,
                weight=weight,
                node_limit=node_limit,
                time_limit=time_limit,
                # A weighted search capped below the best length turns the long paths it
                # finds fast into a long hunt (5x5: weight 5 found 340 moves in 2 ms, capped at
                # 160 it ran out of 5 s), and the windows shorten long paths well; the optimal
                # search looks only below the best.
                max_depth=below if weight == 1.0 else -1,
                machine=machine,
                tables=tables,
                # The iterations below the certified bound are done: on the database the
                # search starts there.
                min_bound=lower_bound,
            )
            budget.charge(found.expanded, found.generated)
            if found.status == _SOLVED:
                path = inverse(found.moves) if backwards else found.moves
                shorter = path
                if len(path) <= HOPELESS * len(best):
                    shorter = shorten_windows(problem, path, budget, machine=machine, tables=tables)
                if len(shorter) < len(best):
                    best = shorter
                    _report(progress, budget, best, lower_bound)
                finished = True
                # Larger weights than one that finished rarely find shorter paths.
                pending = [entry for entry in pending if entry[0] < weight]
                if weight == 1.0:
                    # Unweighted IDA*'s first answer is a shortest one.
                    lower_bound = len(found.moves)
                    break
            elif found.status in _RUNNING_OUT:
                if weight == 1.0:
                    # Every path shorter than the bound in progress was ruled out: each node
                    # of such a path has f below it, so an earlier iteration would have found it.
                    lower_bound = max(lower_bound, min(found.depth, len(best)))
            elif found.status in _RULED_OUT:
                # It looked at every path within its depth cap: run again, it would again (on
                # boards whose start is beyond the kernels' longest path, at once).
                pending = [entry for entry in pending if entry != (weight, backwards)]
                if weight == 1.0:
                    # No path within max_depth: none shorter than the best when that was the
                    # best but two (a path one shorter has the wrong parity), else none within.
                    lower_bound = max(lower_bound, ruled_out_below(below, len(best)))
            if weight == 1.0:
                _report(progress, budget, best, lower_bound)  # the bound it raised
        if len(best) < deep_from and not finished:
            # Longer windows pay on near-optimal paths (5x5, weight 1.5: windows of 60 took
            # 4 of 5 boards 2-6 moves shorter in 0.1-0.5 s, where windows of 40 had stopped);
            # on the long first paths they cost seconds, so they wait for a round in which
            # no weight finished.
            best = _deep_windows(problem, best, budget, machine, tables)
            deep_from = len(best)
            _report(progress, budget, best, lower_bound)
        round_ += 1
    if tables is not None:
        lower_bound = max(lower_bound, tables.bound(problem))
    if side is not None and side.kind == "astar":
        # A best proved shortest needs nothing of the side: it is stopped.
        shorter = _shorter(best, side.join(cancel=len(best) <= lower_bound))
        if shorter is not best:
            best = shorter
            _report(progress, budget, best, lower_bound)
    return best, lower_bound


def _side_ended(side: Side, budget: Budget) -> bool:
    """Whether the schedule takes the side's answer now, for the searches below it and the
    longer windows: under a time limit as soon as it is there; under a node limit alone once
    :data:`SIDE_JOIN` of the schedule's nodes are spent (waiting for it then), so that the
    answer does not depend on when the side finished."""
    if budget.deadline is not None:
        return side.done
    return _spent_share(budget) >= SIDE_JOIN


def _take_side(side: Side, budget: Budget) -> str | None:
    """The side's answer (waiting for it), and the nodes of its share it left unspent handed to
    the schedule: two threads spend the whole of a node limit, as one does."""
    answer = side.join()
    if budget.nodes is not None and side.budget.nodes is not None:
        budget.nodes += max(0, side.budget.nodes)
        side.budget.nodes = 0
    return answer


def _shorter(best: str, other: str | None) -> str:
    """``other`` if it is shorter than ``best``, else ``best`` (the first of equals)."""
    return other if other is not None and len(other) < len(best) else best


def _spent_share(budget: Budget) -> float:
    """The share of the time (or node) limit spent so far."""
    if budget.deadline is not None:
        total = budget.deadline - budget.started
        return (time.monotonic() - budget.started) / total if total > 0 else 1.0
    if budget.nodes is not None:
        return budget.expanded / max(1, budget.expanded + budget.nodes)
    return 1.0


def _astar(
    problem: Problem,
    best: str,
    budget: Budget,
    tables: Tables,
    progress: ProgressCallback | None,
    lower_bound: int,
    machine: np.ndarray | None,
) -> str:
    """``best``, or batch weighted A*'s answer on the tables shortened by windows, if shorter."""
    loaded = tables.ready()
    tables.used = tables.used or loaded is not None
    found = batch_astar.astar_phase(
        problem,
        best,
        budget,
        loaded,
        lambda path: _report(progress, budget, path, lower_bound),
        memory_bytes=None
        if tables.memory_bytes is None
        else max(1, tables.memory_bytes - tables.nbytes),
    )
    if len(found) < len(best):
        found = shorten_windows(problem, found, budget, machine=machine, tables=tables)
        _report(progress, budget, found, lower_bound)
    return found if len(found) < len(best) else best


def side_search(
    problem: Problem,
    best: str,
    budget: Budget,
    tables: Tables | None,
    machine: np.ndarray | None,
    *,
    memory_bytes: int | None = None,
) -> Side | None:
    """The schedule's strongest member started on a second thread, or None where it has none:
    batch A* on 6x6's tables (then the windows on its answer; not with less than
    :data:`SIDE_MIN_SECONDS` of a time limit left, its kernel checking the clock every 65,536
    expansions), else beams on 36 to :data:`SIDE_BEAM_CELLS` cells (not under a memory limit,
    ``memory_bytes``, below two beams' :data:`SIDE_BEAM_BYTES`: the two hold their boards at
    once, and beams do not check the limit).

    Under a node limit the side takes a fixed share of ``budget``'s nodes
    (:data:`SIDE_ASTAR_SHARE`; half of them for the beams, of which its
    beams spend :data:`~fastpuzzle._solver.beam.SHARE` as the schedule's do), the schedule
    keeps the rest, and takes the side's answer only at a fixed point of its own (the end of
    its beams; :func:`_side_ended`): the answer does not depend on the threads' speeds.
    """
    cells = problem.rows * problem.cols
    job: Callable[[Budget], str]
    left = None if budget.deadline is None else budget.deadline - time.monotonic()
    if tables is not None and cells in ASTAR_CELLS and (left is None or left >= SIDE_MIN_SECONDS):
        kind, share = "astar", SIDE_ASTAR_SHARE

        def job(own: Budget) -> str:
            # Under a time limit the tables arrive in the background as the schedule starts.
            while tables.ready() is None:
                if tables.failed or own.spent:
                    return best
                wait = SIDE_WAIT_SECONDS
                if own.deadline is not None:
                    wait = max(0.0, min(wait, own.deadline - time.monotonic()))
                time.sleep(wait)
                raise_if_stopped()
            found = _astar(problem, best, own, tables, None, 0, machine)
            if len(found) < len(best):
                found = _deep_windows(problem, found, own, machine, tables)
            return found

    elif (
        tables is None
        and beam.MIN_CELLS <= cells <= SIDE_BEAM_CELLS
        and (memory_bytes is None or memory_bytes >= 2 * SIDE_BEAM_BYTES)
    ):
        kind, share = "beams", 0.5

        def job(own: Budget) -> str:
            return beam.beam_phase(problem, best, own, lambda path: None, first_seed=SIDE_SEED)

    else:
        return None
    nodes = None if budget.nodes is None else int(budget.nodes * share)
    own = Budget(deadline=budget.deadline, nodes=nodes, started=budget.started)
    if budget.nodes is not None and nodes is not None:
        budget.nodes -= nodes
    return Side(kind, job, own)


def ruled_out_below(depth: int, best: int) -> int:
    """The lower bound that no path of at most ``depth`` moves proves, for a board with a
    path of ``best`` moves: the next length above ``depth`` of ``best``'s parity (every path
    to a goal has the same parity), at most ``best``."""
    above = max(depth, -1) + 1
    return min(best, above + (best - above) % 2)


def _report(progress: ProgressCallback | None, budget: Budget, best: str, lower_bound: int) -> None:
    if progress is not None:
        seconds = time.monotonic() - budget.started
        progress(
            AnytimeStats(
                expanded=budget.expanded,
                generated=budget.generated,
                seconds=seconds,
                depth=len(best),
                lower_bound=lower_bound,
            )
        )


def _machine(problem: Problem, budget: Budget) -> np.ndarray | None:
    """The duplicate-pruning machine every search carries (5x5, weight 1.3: 0.6 to 0.7 of the
    nodes and time); None, for parent pruning, when it cannot be built within a quarter of the
    time limit (about 1.3 s once, then read from the cache)."""
    deadline = budget.deadline
    if deadline is not None:
        deadline = budget.started + (deadline - budget.started) / 4
    try:
        return pruning.machine(problem.board.shape, pruning.DEFAULT, deadline=deadline)
    except TimeLimitError:
        return None


def solve_near_optimal(
    board: BoardLike,
    goal: BoardLike | None = None,
    *,
    limits: Limits | None = None,
    progress: ProgressCallback | None = None,
    workers: int = 1,
) -> Solution:
    """The constructive answer, then shorter ones while ``limits`` allow (boards past 16 cells).

    Parameters
    ----------
    board, goal : BoardLike
        Start and goal (default: tiles in order, blank last).
    limits : Limits, optional
        ``seconds`` and ``nodes`` (expansions, all searches together) bound the improvement;
        without either, or on boards of up to 16 cells, the answer is the constructive one.
        ``max_depth``: the answer's most moves (none is searched for when the start's lower
        bound is above it).
    progress : callable, optional
        Called with an :class:`~fastpuzzle.results.AnytimeStats` (``depth``: the best length
        so far; ``lower_bound``: the bound certified so far) after each improvement of either.
    workers : int
        Threads: from 2, the schedule's strongest member runs on a second one beside the rest
        (:func:`side_search`; more are not used); 1, everything on the calling thread.

    Returns
    -------
    Solution
        ``algorithm="anytime"`` (``"constructive"`` when nothing else ran); ``lower_bound`` the
        largest of the start's linear conflict, its pattern database value (where the tables
        were read) and the bound an unweighted search ruled out below.

    Raises
    ------
    UnsolvableError
        If the goal cannot be reached.
    TimeLimitError
        If ``limits.seconds`` ran out before the constructive answer was found.
    DepthLimitError
        If the shortest answer found is longer than ``limits.max_depth``.
    """
    started = time.monotonic()
    anytime = limits is not None and (limits.seconds is not None or limits.nodes is not None)
    # The constructive solver's reports count its moves so far, not a best length.
    first = solve_fast(board, goal, limits=limits, progress=None if anytime else progress)
    if limits is None:
        return first
    if not anytime or first.board.size <= MAX_CELLS or first.lower_bound > _max_depth(limits):
        return _within_depth(first, limits)
    problem = make_problem(first.board, first.goal, check_solvable=False)
    budget = Budget(
        deadline=None if limits.seconds is None else started + limits.seconds,
        nodes=limits.nodes,
        started=started,
    )
    if limits.seconds is not None:
        first_use.build_for_anytime(
            problem,
            started=started,
            seconds=limits.seconds,
            memory_bytes=limits.memory_bytes,
            table_cells=TABLE_CELLS,
        )
    # Under a node limit alone the tables are read before the first search, so that the same
    # board and limit give the same answer; under a time limit, while the first ones run.
    tables = Tables.on_disk(problem, wait=limits.seconds is None, memory_bytes=limits.memory_bytes)
    if tables is not None:
        # Without waiting, this starts the background read while the machine loads; waiting,
        # it reads them before the side thread starts.
        tables.ready()
    machine = _machine(problem, budget)
    side = None
    try:
        if workers >= THREADS:
            side = side_search(
                problem, first.moves, budget, tables, machine, memory_bytes=limits.memory_bytes
            )
        moves, bound = improve(
            problem,
            first.moves,
            budget,
            lower_bound=max(first.lower_bound, start_bound(problem)),
            base_seconds=None
            if limits.seconds is None
            else max(MIN_SLICE_SECONDS, limits.seconds * SLICE_SHARE),
            base_nodes=None
            if limits.nodes is None
            else max(MIN_SLICE_NODES, int(limits.nodes * SLICE_SHARE)),
            progress=progress,
            machine=machine,
            tables=tables,
            side=side,
        )
    finally:
        if side is not None:
            side.close()  # Ctrl-C or an error here: the side stops at its next check
    if side is not None:
        budget.expanded += side.budget.expanded
        budget.generated += side.budget.generated
        budget.searches += side.budget.searches
        # The two threads' stores are held at once.
        budget.peak_bytes += side.budget.peak_bytes
    if not _reaches_goal(problem, moves):
        raise InternalError(
            f"internal defect: the anytime solver's moves from {first.board.to_string()!r} do "
            "not reach the goal; it is a bug: please report it with this call"
        )
    # The tables the searches read are held in memory as the file's bytes.
    table_bytes = tables.nbytes if tables is not None and tables.used else 0
    # Its bound is its own search's proof: the answer is shortest when they meet.
    optimal = len(moves) == bound
    stats = SearchStats(
        expanded=first.stats.expanded + budget.expanded,
        generated=first.stats.generated + budget.generated,
        # The tables stay in memory beside what each search stores (batch A*: up to 1 GiB).
        peak_memory_bytes=max(first.stats.peak_memory_bytes, table_bytes + budget.peak_bytes),
        peak_allocated_bytes=budget.peak_bytes,
        seconds=time.monotonic() - started,
        depth=len(moves),
        iterations=1 + budget.searches,
    )
    solution = Solution(
        board=first.board,
        goal=first.goal,
        moves=moves,
        stats=stats,
        algorithm="anytime",
        heuristic="pdb" if tables is not None and tables.used else "linear_conflict",
        optimal=optimal,
        lower_bound=bound,
    )
    return _within_depth(solution, limits)


def _max_depth(limits: Limits) -> float:
    return math.inf if limits.max_depth is None else limits.max_depth


def _within_depth(solution: Solution, limits: Limits) -> Solution:
    """``solution`` if it is within ``limits.max_depth`` moves, else DepthLimitError."""
    if len(solution) <= _max_depth(limits):
        return solution
    raise DepthLimitError(
        f"no solution within max_depth={limits.max_depth} found: the shortest found has "
        f"{len(solution)} moves, and at least {solution.lower_bound} are needed",
        solution.stats,
    )

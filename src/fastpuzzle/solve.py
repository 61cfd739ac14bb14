"""``search()`` and ``solve()``: check the input, pick the algorithm, call the compiled core.

No loop over nodes lives here, and there is one path for every board size: input is validated and
relabelled (:mod:`fastpuzzle._problem`), the registry (:mod:`fastpuzzle.algorithms`) gives the
algorithm's driver (``auto`` asks :mod:`fastpuzzle._solver.policy` which heuristic IDA* uses),
and the driver's :class:`~fastpuzzle._core._result.CoreResult` becomes a
:class:`~fastpuzzle.results.SearchResult`. :func:`solve` has three jobs, one function each: the
fast solver (``optimal=False``), a named algorithm, and the default optimal search (``auto``).
Moves are U, D, L, R: the direction the **blank** moves.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any, Literal, NoReturn, cast

from fastpuzzle._problem import Problem, make_problem
from fastpuzzle._solver import idastar as ida
from fastpuzzle._solver import policy, pruning
from fastpuzzle._solver.anytime import solve_near_optimal
from fastpuzzle._solver.bounds import start_bound
from fastpuzzle._solver.defects import check_result
from fastpuzzle._solver.heuristic_tables import not_ready
from fastpuzzle._solver.idastar import MAX_OPTIMAL_DEPTH, WIDE_HEURISTICS
from fastpuzzle._solver.parallel import check_workers, resolve_workers
from fastpuzzle._solver.prepared import Prepared
from fastpuzzle._solver.request import Request
from fastpuzzle._solver.search_line import SearchLine
from fastpuzzle._util.checks import check_seed, check_weight, dask_client, flag, shown
from fastpuzzle.algorithms import (
    ALGORITHMS,
    DFS_DEPTH_HINT,
    Algorithm,
    AlgorithmName,
    is_auto,
    resolve_algorithm,
)
from fastpuzzle.board import BoardLike, Shape, as_board
from fastpuzzle.conventions import Conventions, HeuristicFunction, conventions
from fastpuzzle.errors import (
    BoardTooLargeError,
    DepthLimitError,
    FastPuzzleWarning,
    InvalidOptionError,
    NodeLimitError,
    TimeLimitError,
)
from fastpuzzle.heuristics import BY_NAME, HeuristicName, name_key, resolve_heuristic
from fastpuzzle.limits import Limits, as_limits
from fastpuzzle.results import (
    ProgressCallback,
    SearchResult,
    SearchStats,
    Solution,
    Status,
    core_progress,
    result_from_core,
)

__all__ = ["ANYTIME", "check_fast_method", "search", "solve"]

#: :func:`search`'s name for the anytime near-optimal solver, ``solve(optimal=False)``'s method
#: (:mod:`fastpuzzle._solver.anytime`). No entry of :data:`~fastpuzzle.ALGORITHMS`: it runs a
#: schedule of other searches rather than one search of its own.
ANYTIME = "anytime"


#: What a depth-first search stopped by a limit says: its bound, not the board, made it long.
DFS_HINT = (
    "dfs_visited looks at every board within its max_depth (50 unless set) before it "
    "gives up on a branch, which on a 4x4 board is far more than any limit allows; "
    "algorithm='iddfs' finds a shortest solution and keeps only the current path"
)

_DFS_HINTED = (Status.MEMORY_LIMIT, Status.TIME_LIMIT, Status.NODE_LIMIT)

#: What a search with a heuristic function reports as its heuristic.
HEURISTIC_FUNCTION = "function"

#: Which algorithms take the options that only some take.
_TAKERS = {"weight": ("wastar", "idastar"), "seed": ("random",)}


def _uses_default(heuristic: object) -> bool:
    # solve() and solve_many() take "auto" (any case) or None for the algorithm's own choice.
    return heuristic is None or is_auto(heuristic)


def check_fast_method(
    algorithm: object, heuristic: object, weight: object = None, seed: object = None
) -> None:
    """Refuse method options beside ``optimal=False``, which picks its own method.

    Raises
    ------
    InvalidOptionError
        Naming each option given.
    """
    given = [("algorithm", algorithm)] if not is_auto(algorithm) else []
    if not _uses_default(heuristic):
        given.append(("heuristic", heuristic))
    given += [
        (name, value) for name, value in (("weight", weight), ("seed", seed)) if value is not None
    ]
    if given:
        listed = ", ".join(f"{name}={shown(value)}" for name, value in given)
        raise InvalidOptionError(
            "optimal=False picks its own method: expected no algorithm, heuristic, weight or "
            f"seed, got {listed}"
        )


def _threads(algorithm: Algorithm, workers: object) -> int:
    """The threads ``algorithm`` runs on: ``workers`` (None: every core) for IDA*, else 1."""
    if algorithm.name == "idastar":
        return resolve_workers(workers)
    if check_workers(workers) not in (None, 1):
        raise InvalidOptionError(
            f"only idastar runs on several threads, got workers={shown(workers)} for "
            f"{algorithm.name}"
        )
    return 1


def _check_options(
    algorithm: Algorithm,
    heuristic: str | None,
    weight: float | None,
    seed: int | None,
    shape: Shape,
) -> str | None:
    """The canonical heuristic name for ``algorithm`` on ``shape``; reject options it does not
    take."""
    if algorithm.informed:
        chosen = "manhattan" if heuristic is None else heuristic
        name = resolve_heuristic(chosen, algorithm, shape=shape).name
    elif heuristic is not None:
        raise InvalidOptionError(
            f"{algorithm.name} does not use a heuristic, got heuristic={shown(heuristic)}"
        )
    else:
        name = None
    for option, value in (("weight", weight), ("seed", seed)):
        takers = _TAKERS[option]
        if value is not None and algorithm.name not in takers:
            who = " and ".join(takers) + (" take" if len(takers) > 1 else " takes")
            raise InvalidOptionError(
                f"only {who} a {option}, got {option}={shown(value)} for {algorithm.name}"
            )
    check_weight(weight)
    check_seed(seed)
    return name


# Limits are frozen, so one shared default spares each search building and checking its own.
_NO_LIMITS = Limits()


def _run(
    problem: Problem,
    algorithm: Algorithm,
    heuristic: str | None,
    limits: Limits | None,
    *,
    weight: float | None = None,
    seed: int | None = None,
    progress: ProgressCallback | None = None,
    label: str | None = None,
    workers: int = 1,
    client: Any = None,
    prune: str | int = pruning.DEFAULT,
    prepared: Prepared | None = None,
    rules: Conventions | None = None,
) -> SearchResult:
    """Every search's one path: a request to the algorithm's driver, its result as a record
    (``prepared``: an IDA* search of this request already prepared, run as it is; ``rules``:
    textbook conventions or a heuristic function)."""
    if prepared is None:
        request = _request(
            problem, heuristic, limits, weight, seed, progress, workers, client, prune
        )
        if rules is not None:
            request = request._replace(conventions=rules)
        core = algorithm.driver(request)
    else:
        core = ida.search(prepared, problem)
    check_result(core, problem, method=algorithm.name, complete=algorithm.complete)
    # A weight of 1 is no weight: wastar is then A*, and IDA* keeps its promise.
    unweighted = weight is None or weight == 1
    if algorithm.name == "wastar":
        optimal = weight is not None and weight == 1
    else:
        optimal = algorithm.optimal and unweighted
    if rules is not None and rules.function is not None:
        # A function's admissibility is the caller's claim, not ours (check_heuristic tests it).
        optimal, heuristic = False, HEURISTIC_FUNCTION
    elif algorithm.informed and not BY_NAME[heuristic or "manhattan"].admissible:
        optimal = False
    name = algorithm.name if label is None else label
    bound = 0 if optimal else start_bound(problem)
    return result_from_core(
        problem.board, problem.goal, core, name, heuristic, optimal, lower_bound=bound
    )


def _request(
    problem: Problem,
    heuristic: str | None,
    limits: Limits | None,
    weight: float | None,
    seed: int | None,
    progress: ProgressCallback | None,
    workers: int,
    client: Any,
    prune: str | int,
) -> Request:
    return Request(
        problem,
        heuristic,
        _NO_LIMITS if limits is None else limits,
        None if weight is None else float(weight),
        seed,
        core_progress(progress),
        workers,
        client,
        prune,
    )


def _pruning(algorithm: Algorithm, prune: object) -> str | int:
    """IDA*'s duplicate pruning, checked (None: the default); other algorithms take none."""
    if prune is None:
        return pruning.DEFAULT
    if algorithm.name != "idastar":
        raise InvalidOptionError(
            f"only idastar prunes duplicate paths, got prune={shown(prune)} for {algorithm.name}"
        )
    return pruning.check_prune(prune)


def _refuse_size(problem: Problem, algorithm: Algorithm, heuristic: object) -> NoReturn:
    # Named with its heuristic where it takes one; the heuristic itself is checked afterwards.
    method = algorithm.name
    if algorithm.informed and isinstance(heuristic, str):
        method += f"+{heuristic}"
    # Only what runs on this shape (walking distance was offered on 5x5, then refused).
    shape = (problem.rows, problem.cols)
    offered = [
        name
        for name in WIDE_HEURISTICS
        if BY_NAME[name].fits(shape)
        and not (
            BY_NAME[name].tables == "walking"
            and not_ready(BY_NAME[name], shape, problem.goal_blank) is not None
        )
    ]
    raise BoardTooLargeError(
        f"{method} works on boards of at most "
        f"{algorithm.max_cells} cells, got a {problem.rows}x{problem.cols} board; use idastar "
        f"with {', '.join(offered)} (pattern databases up to 25 cells; 3x6's and 4x5's "
        "are built on first use, the others beforehand), or solve(board, optimal=False) for a "
        "fast solution"
    )


def search(
    board: BoardLike,
    goal: BoardLike | None = None,
    *,
    algorithm: AlgorithmName | Literal["anytime"],
    heuristic: HeuristicName | HeuristicFunction | None = None,
    limits: Limits | None = None,
    weight: float | None = None,
    seed: int | None = None,
    progress: ProgressCallback | bool | None = None,
    workers: int | None = None,
    client: Any = None,
    prune: str | int | None = None,
    shape: Shape | None = None,
    order: str | None = None,
    ties: str | None = None,
    goal_test: str | None = None,
) -> SearchResult:
    """Run one search algorithm and report how it ended; never raises on limits.

    Parameters
    ----------
    board, goal : BoardLike
        Start and goal (default: tiles in order, blank last).
    algorithm : str
        A name of :data:`fastpuzzle.ALGORITHMS` or an alias (``"a*"``, ``"bidi"``...), or
        ``"anytime"``: ``solve(optimal=False)``'s near-optimal solver, which takes no other
        method option. Without ``limits.seconds`` or ``limits.nodes`` it gives the constructive
        answer (milliseconds); with either, past 16 cells, shorter ones until they run out (the
        answer, SOLVED, is the shortest found, with its ``lower_bound`` and ``gap``; see
        :doc:`/near_optimal`). Only a time limit that the first answer does not meet ends it
        without one.
    heuristic : str or callable, optional
        For informed algorithms: a name of :data:`fastpuzzle.heuristics.CATALOGUE`
        (``"misplaced"``, ``"manhattan"``, the default, ``"linear_conflict"``, ``"euclidean"``,
        ``"squared_difference"``...), or a function of the board's tiles (a tuple, row by row,
        0 for the blank: see :mod:`fastpuzzle.conventions`) for greedy, A*, weighted A* and
        IDA*, which then run the slower textbook loop and promise no shortest solution. An
        inadmissible heuristic (``squared_difference``) is taken too, without that promise.
    limits : Limits, optional
        Time, node, memory and depth limits. Searches that store nodes stop at
        ``Limits.memory_cap`` (2 GiB unless set). ``max_depth`` bounds every search's paths
        (DEPTH_LIMIT when nothing within it reaches the goal) and is the depth-first searches'
        bound: ``dfs``'s default is the board's misplaced tiles plus its Manhattan distance
        (:func:`~fastpuzzle.algorithms.dfs_depth`), ``dfs_visited``'s
        :data:`~fastpuzzle.algorithms.DEFAULT_DFS_DEPTH` (50).
    weight : float, optional
        ``wastar`` and ``idastar`` only: ``1 <= w <= 1000`` in ``f = g + w*h``, whose solutions
        are at most ``w`` times optimal (``wastar``'s default: 2; ``idastar``'s: 1, optimal).
        Weighted IDA* runs on the wide kernel, serially, with Manhattan, linear conflict or
        walking distance.
    seed : int, optional
        ``random`` only: seed of the walk (default: fresh randomness).
    progress : callable or bool, optional
        Called with a :class:`SearchStats` snapshot at most every 2**16 expansions; ``True``:
        the command line's line on stderr (bound, nodes, time; with the ``progress`` extra a
        ``tqdm.auto`` line, a widget in a notebook).
    workers : int, optional
        ``idastar`` only: threads for its large iterations (None, the default: every core this
        process may use; 1: the serial search, whose node counts are reproducible). The length
        found is the same on any number; the statistics sum every thread's nodes. ``"anytime"``
        runs its strongest search on a second thread where ``workers`` allows two (see
        :doc:`/near_optimal`). Other algorithms run serially and refuse ``workers`` other than
        None or 1.
    client : dask.distributed.Client, optional
        ``idastar`` only: its largest iterations are searched on the client's cluster (see
        :doc:`/parallel`); boards of up to 16 cells with any heuristic, larger ones with their
        pattern databases.
    prune : str or int, optional
        ``idastar`` only: which paths to the same board it skips. ``"fsm"`` (the default) never
        enters a move string with an earlier twin (a finite-state machine of the duplicates up
        to about a dozen moves: about half the nodes of parent pruning; on 4x4 and 5x5 boards
        the machine of depth 13); ``"parent"`` only never undoes the last move (the published
        node counts); a depth of 6 or 8 to 16 (an int, or its digits as a string): the
        machine of every twin up to that many moves. A small depth is a weaker machine (more
        nodes); depths 2 to 5 would be parent pruning and 7 would be 6, so they are refused.
        The length found is the same.
    shape : tuple of int, optional
        ``(rows, cols)`` of a flat ``board`` (and ``goal``) that is not square, as
        :class:`~fastpuzzle.Board` takes it.
    order : str, optional
        The move order children are generated in, a permutation of ``"UDLR"`` (the default):
        bfs, ucs, greedy, astar, wastar and idastar.
    ties : {"lowest_h", "lifo", "fifo"}, optional
        Tie-breaking among open nodes of equal priority in ucs, greedy, astar and wastar
        (default ``"lowest_h"``, then the newest).
    goal_test : {"generation", "expansion"}, optional
        When bfs tests a board for the goal (default ``"generation"``).

        Anything but the defaults runs the textbook loop (see :mod:`fastpuzzle.conventions`):
        boards of up to 16 cells, no progress callback, 10 to 50 times slower.

    Returns
    -------
    SearchResult
        ``status`` (SOLVED, or the limit that stopped it), ``solution`` (moves are U/D/L/R, the
        direction the blank moves) and ``stats`` (partial when stopped).

    Raises
    ------
    InvalidBoardError
        If the board or goal is not valid.
    UnsolvableError
        If the goal cannot be reached (checked before searching).
    UnknownNameError
        If the algorithm or heuristic is not known.
    InvalidOptionError
        If an option does not apply to the algorithm, or is of the wrong type or range.

    Examples
    --------
    >>> result = search("1 2 3/4 5 6/_ 7 8", algorithm="bfs")
    >>> result.status, result.solution.moves
    (<Status.SOLVED: 'solved'>, 'RR')
    """
    if isinstance(algorithm, str) and name_key(algorithm) == ANYTIME:
        others = {"heuristic": heuristic, "weight": weight, "seed": seed, "client": client,
                  "prune": prune, "order": order, "ties": ties, "goal_test": goal_test}  # fmt: skip
        threads = resolve_workers(workers)
        return _search_anytime(*_shaped(board, goal, shape), limits, progress, others, threads)
    chosen = resolve_algorithm(algorithm)
    if limits is not None:
        limits = as_limits(limits)
    board, goal = _shaped(board, goal, shape)
    problem = make_problem(board, goal)
    if chosen.max_cells is not None and problem.board.size > chosen.max_cells:
        _refuse_size(problem, chosen, heuristic)
    function = heuristic if callable(heuristic) else None
    rules = conventions(chosen.name, order=order, ties=ties, goal_test=goal_test, function=function)
    if rules is not None and problem.wide:
        raise InvalidOptionError(
            "textbook conventions and heuristic functions take boards of at most 16 cells, got a "
            f"{problem.rows}x{problem.cols} board"
        )
    if rules is not None and not rules.compiled:
        # The textbook loop runs on this thread and prunes only the parent's move: IDA*'s
        # options for its compiled driver would be dropped without a word.
        if dask_client(client) is not None:
            raise InvalidOptionError(
                "textbook conventions and heuristic functions run on this thread, got client="
            )
        if prune not in (None, "parent"):
            raise InvalidOptionError(
                "textbook conventions and heuristic functions prune only the move that undoes "
                f"the last one: expected prune=None or 'parent', got prune={shown(prune)}"
            )
    named = None if function is not None else cast(str | None, heuristic)
    heuristic_name = _check_options(chosen, named, weight, seed, problem.board.shape)
    threads = _threads(chosen, workers)
    pruned = _pruning(chosen, prune)
    if dask_client(client) is not None and chosen.name != "idastar":
        raise InvalidOptionError(
            f"only idastar runs on a Dask cluster, got client= for {chosen.name}"
        )
    line = None
    if isinstance(progress, bool):
        line = SearchLine(problem.board.shape, problem.goal_blank, hint=False) if progress else None
        progress = None if line is None else line.show
    try:
        return _run(
            problem,
            chosen,
            heuristic_name,
            limits,
            weight=weight,
            seed=seed,
            progress=progress,
            workers=threads,
            client=client,
            prune=pruned,
            rules=rules,
        )
    except TimeLimitError as error:
        # Drivers report limits as statuses; only a table build (pdb.BuildTimeLimitError) raises
        # one: its tables were not ready within the time limit, which ends the search the same.
        if error.stats is None:
            raise
        return SearchResult(
            problem.board,
            problem.goal,
            Status.TIME_LIMIT,
            None,
            error.stats,
            chosen.name,
            heuristic_name,
        )
    finally:
        if line is not None:
            line.close()


def _search_anytime(
    board: BoardLike,
    goal: BoardLike | None,
    limits: Limits | None,
    progress: ProgressCallback | bool | None,
    others: dict[str, object],
    workers: int,
) -> SearchResult:
    """``search(algorithm="anytime")``: the anytime solver's answer as a SOLVED result, or the
    limit that stopped its first answer; ``others`` the options it refuses when given."""
    given = {name: value for name, value in others.items() if value is not None}
    if given:
        listed = ", ".join(f"{name}={shown(value)}" for name, value in given.items())
        raise InvalidOptionError(
            f"algorithm='anytime' picks its own method: expected no {' or '.join(given)}, got "
            f"{listed}"
        )
    problem = make_problem(board, goal)
    line = None
    if isinstance(progress, bool):
        line = SearchLine(problem.board.shape, problem.goal_blank, hint=False) if progress else None
        progress = None if line is None else line.show
    try:
        solution = solve_near_optimal(
            problem.board,
            problem.goal,
            limits=None if limits is None else as_limits(limits),
            progress=progress,
            workers=workers,
        )
    except (TimeLimitError, NodeLimitError, DepthLimitError) as error:
        if error.stats is None:
            raise
        status = {
            TimeLimitError: Status.TIME_LIMIT,
            NodeLimitError: Status.NODE_LIMIT,
            DepthLimitError: Status.DEPTH_LIMIT,
        }[type(error)]
        return SearchResult(problem.board, problem.goal, status, None, error.stats, ANYTIME)
    finally:
        if line is not None:
            line.close()
    return SearchResult(
        solution.board,
        solution.goal,
        Status.SOLVED,
        solution,
        solution.stats,
        solution.algorithm,
        solution.heuristic,
    )


def solve(
    board: BoardLike,
    goal: BoardLike | None = None,
    *,
    algorithm: AlgorithmName | Literal["auto"] = "auto",
    heuristic: HeuristicName | HeuristicFunction | Literal["auto"] = "auto",
    limits: Limits | None = None,
    weight: float | None = None,
    seed: int | None = None,
    progress: ProgressCallback | bool | None = None,
    optimal: bool = True,
    workers: int | None = None,
    client: Any = None,
    prune: str | int | None = None,
    shape: Shape | None = None,
    order: str | None = None,
    ties: str | None = None,
    goal_test: str | None = None,
) -> Solution:
    """Solve a board, optimally by default.

    Parameters
    ----------
    board, goal : BoardLike
        Start and goal (default: tiles in order, blank last).
    algorithm : str
        ``"auto"`` (the default optimal solver, IDA* with the best heuristic available) or any
        name :func:`search` takes.
    heuristic : str or callable
        ``"auto"`` (the algorithm's default), a heuristic name or a heuristic function (as for
        :func:`search`; with ``algorithm="auto"`` it runs IDA*).
    limits, weight, seed, shape, order, ties, goal_test
        As for :func:`search`. Past 16 cells an optimal solve without ``limits`` stops after
        60 s with a :class:`TimeLimitError` rather than run for hours. Where ``auto`` builds a
        pattern database on first use (:mod:`fastpuzzle._solver.policy`), the first search
        without it, the build and the search with it share the limits; a search stopped by a
        limit names the table that would help on the shape.
    progress : callable or bool, optional
        As for :func:`search`; with ``True`` the line also names the table that would make the
        default search faster, once it has run for a few seconds.
    optimal : bool
        ``False``: a fast solution without the promise of being shortest, for boards of any size
        up to 100x100 (the constructive method, then shortened; see
        :func:`fastpuzzle._solver.constructive.solve_fast`), in milliseconds. With
        ``limits.seconds`` or ``limits.nodes``, boards past 16 cells then get shorter answers
        until the limits run out (weighted IDA* and windows re-solved optimally; see
        :doc:`/near_optimal`). Its ``lower_bound`` and ``gap`` say how far from optimal it may
        be.
    workers : int, optional
        Threads for IDA* (the default optimal search): None, the default, uses every core this
        process may run on; 1 gives the serial search. Several threads find a solution of the
        same, optimal length (not always the same moves) and share the limits; Ctrl-C stops
        them all. Boards of up to 16 cells use them with every heuristic, larger boards with
        their pattern databases. ``optimal=False`` with a limit uses two where ``workers``
        allows them (6x6 and 7x7: its strongest search on the second; under a node limit each
        its own share, the answer the same from run to run but not the same as on one
        thread); the other searches run on one thread.
    client : dask.distributed.Client, optional
        IDA* only: its largest iterations are searched on the client's cluster, with
        ``workers`` threads here for the others (see :doc:`/parallel`).
    prune : str or int, optional
        IDA* only: ``"fsm"`` (the default: duplicate pruning), ``"parent"`` or a depth, as for
        :func:`search`.

    Returns
    -------
    Solution
        The moves (U/D/L/R: the direction the blank moves) and the statistics.

    Raises
    ------
    InvalidOptionError, UnknownNameError
        Before any search, if an option is not valid (as for :func:`search`; ``optimal=False``
        takes no method, weight, seed or threads).
    UnsolvableError
        Before any search, if the goal cannot be reached.
    SearchLimitError
        A :class:`TimeLimitError`, :class:`NodeLimitError`, :class:`MemoryLimitError` or
        :class:`DepthLimitError` carrying the partial statistics.

    Examples
    --------
    >>> solve("1 2 3/4 5 6/_ 7 8", algorithm="astar").moves
    'RR'
    """
    board, goal = _shaped(board, goal, shape)
    if isinstance(progress, bool):
        line = _search_line(board, goal, algorithm, heuristic, optimal) if progress else None
        try:
            return solve(board, goal, algorithm=algorithm, heuristic=heuristic, limits=limits,
                         weight=weight, seed=seed, progress=None if line is None else line.show,
                         optimal=optimal, workers=workers, client=client, prune=prune,
                         order=order, ties=ties, goal_test=goal_test)  # fmt: skip
        finally:
            if line is not None:
                line.close()
    if limits is not None:
        limits = as_limits(limits)
    textbook = {"order": order, "ties": ties, "goal_test": goal_test}
    asked = {name: value for name, value in textbook.items() if value is not None}
    if not flag("optimal", optimal):
        if asked:
            listed = ", ".join(f"{name}={shown(value)}" for name, value in asked.items())
            raise InvalidOptionError(
                f"optimal=False picks its own method: expected no {' or '.join(asked)}, got "
                f"{listed}"
            )
        if prune is not None:
            raise InvalidOptionError(
                f"optimal=False picks its own method: expected no prune, got {shown(prune)}"
            )
        return _solve_fast(board, goal, algorithm, heuristic, weight, seed, limits, progress,
                           workers, client)  # fmt: skip
    chosen = None if _uses_default(heuristic) else heuristic
    if not is_auto(algorithm) or callable(heuristic) or asked:
        # The default search with a function or conventions is IDA*'s textbook loop.
        named = "idastar" if is_auto(algorithm) else algorithm
        return _solve_named(board, goal, named, chosen, limits, weight, seed, progress,
                            workers, client, prune, textbook)  # fmt: skip
    if weight is not None or seed is not None:
        given = f"weight={shown(weight)}" if weight is not None else f"seed={shown(seed)}"
        raise InvalidOptionError(f"algorithm='auto' takes no weight or seed, got {given}")
    pruned = _pruning(ALGORITHMS["idastar"], prune)
    # A function went to _solve_named above: what is left is a name or None.
    named_heuristic = cast(str | None, chosen)
    return _solve_auto(board, goal, named_heuristic, limits, progress, workers, client, pruned)


def _shaped(
    board: BoardLike, goal: BoardLike | None, shape: Shape | None
) -> tuple[BoardLike, BoardLike | None]:
    """``board`` and ``goal`` read as ``shape`` (None: as they are)."""
    if shape is None:
        return board, goal
    return as_board(board, shape), None if goal is None else as_board(goal, shape)


def _search_line(
    board: BoardLike, goal: BoardLike | None, algorithm: object, heuristic: object, optimal: bool
) -> SearchLine:
    """``solve(progress=True)``'s display, with the hint of the default optimal search."""
    problem = make_problem(board, goal, check_solvable=False)
    default = optimal is True and (is_auto(algorithm) or algorithm == "idastar")
    hint = default and (_uses_default(heuristic) or heuristic == "pdb")
    return SearchLine(problem.board.shape, problem.goal.blank, hint=hint)


def _solve_fast(
    board: BoardLike,
    goal: BoardLike | None,
    algorithm: object,
    heuristic: object,
    weight: object,
    seed: object,
    limits: Limits | None,
    progress: ProgressCallback | None,
    workers: object,
    client: Any,
) -> Solution:
    """``optimal=False``: the constructive solver, which takes no method, then the anytime
    solver on up to ``workers`` threads (None: every core, of which it uses two)."""
    check_fast_method(algorithm, heuristic, weight, seed)
    threads = resolve_workers(workers)
    if dask_client(client) is not None:
        raise InvalidOptionError("optimal=False runs on this machine: expected no client")
    return solve_near_optimal(board, goal, limits=limits, progress=progress, workers=threads)


def _solve_named(
    board: BoardLike,
    goal: BoardLike | None,
    algorithm: str,
    heuristic: str | HeuristicFunction | None,
    limits: Limits | None,
    weight: float | None,
    seed: int | None,
    progress: ProgressCallback | None,
    workers: int | None,
    client: Any,
    prune: str | int | None,
    textbook: dict[str, str | None],
) -> Solution:
    """A named algorithm: :func:`search`, its solution or its limit error, with a hint where a
    depth-first search's bound rather than the board made it stop."""
    result = search(
        board,
        goal,
        # Names as solve() was given them; search() checks them as any caller's.
        algorithm=cast(AlgorithmName, algorithm),
        heuristic=cast(HeuristicName | HeuristicFunction | None, heuristic),
        limits=limits,
        weight=weight,
        seed=seed,
        progress=progress,
        workers=workers,
        client=client,
        prune=prune,
        order=textbook["order"],
        ties=textbook["ties"],
        goal_test=textbook["goal_test"],
    )
    dfs_hint = None
    if result.algorithm == "dfs_visited" and result.status in _DFS_HINTED:
        dfs_hint = DFS_HINT
    elif result.algorithm == "dfs" and result.status is Status.DEPTH_LIMIT:
        set_depth = limits is not None and limits.max_depth is not None
        dfs_hint = DFS_DEPTH_HINT.format(
            depth=result.stats.depth,
            source="as set" if set_depth else "misplaced + Manhattan of the board, the default",
        )
    return _unwrap(result, dfs_hint)


def _solve_auto(
    board: BoardLike,
    goal: BoardLike | None,
    heuristic: str | None,
    limits: Limits | None,
    progress: ProgressCallback | None,
    workers: int | None,
    client: Any,
    prune: str | int,
) -> Solution:
    """The default optimal search: IDA* with the policy's table for the shape (or the heuristic
    named), a time cap past 16 cells unless the caller set limits, and a hint when a table
    would have been faster."""
    threads = resolve_workers(workers)
    dask_client(client)
    problem = make_problem(board, goal)
    shape = problem.board.shape
    idastar = ALGORITHMS["idastar"]
    prepared = None
    if heuristic is None:
        choice = policy.auto_choice(shape, problem.goal_blank)
        label, name = choice.algorithm, choice.heuristic
        if name == "pdb" and policy.builds_first(shape) and client is None:
            # One look at the cache: the search prepared where its table is there, else a
            # search without it first.
            run_limits = policy.auto_limits(shape, limits)
            asked = _request(problem, name, run_limits, None, None, progress, threads, None, prune)
            prepared = ida.prepare_if_built(asked)
            if prepared is None:
                first, limits = _before_building(problem, limits, progress, threads, prune)
                if first is not None:
                    return first
    else:
        label, name = idastar.name, resolve_heuristic(heuristic, idastar, shape=shape).name
    run_limits = policy.auto_limits(shape, limits)
    result = _run(
        problem,
        idastar,
        name,
        run_limits,
        progress=progress,
        label=label,
        workers=threads,
        client=client,
        prune=prune,
        prepared=prepared,
    )
    # What would help: for auto's own choice, or a pattern database named; a heuristic the
    # caller chose gets no advice on another.
    stopped = result.status in (Status.TIME_LIMIT, Status.NODE_LIMIT)
    advised = stopped and (heuristic is None or name == "pdb")
    hint = policy.limit_hint(shape, problem.goal_blank, name) if advised else None
    if limits is None and run_limits is not None and result.status is Status.TIME_LIMIT:
        raise TimeLimitError(
            f"an optimal solution of this {problem.rows}x{problem.cols} board was not found "
            f"in {run_limits.seconds:g} s (bound {result.stats.depth}); pass "
            "limits=Limits(seconds=...) to search longer, or optimal=False for a fast "
            "solution that is not guaranteed shortest" + (f"; {hint}" if hint else ""),
            result.stats,
        )
    return _unwrap(result, hint)


def _before_building(
    problem: Problem,
    limits: Limits | None,
    progress: ProgressCallback | None,
    threads: int,
    prune: str | int,
) -> tuple[Solution | None, Limits | None]:
    """A board of a shape whose pattern database the policy builds on first use, while none is
    on disk for its goal's blank cell (:func:`~fastpuzzle._solver.idastar.prepare_if_built`
    found none): solved without it (optimal too, with
    :func:`~fastpuzzle._solver.policy.probe`'s heuristic) when that takes at most
    :data:`~fastpuzzle._solver.policy.PROBE_NODES` nodes (or the caller's node limit, if
    lower). Else, after a :class:`~fastpuzzle.errors.FastPuzzleWarning` that the table is
    being built: None, and what is left of the caller's limits for the search with it. The
    caller's depth and time limits apply, and its node limit when lower."""
    shape, goal_blank = problem.board.shape, problem.goal_blank
    given = limits or Limits()
    budget = policy.PROBE_NODES if given.nodes is None else min(given.nodes, policy.PROBE_NODES)
    probe = dataclasses.replace(given, nodes=budget)
    first = policy.probe(shape)
    result = _run(
        problem,
        ALGORITHMS["idastar"],
        first.heuristic,
        probe,
        progress=progress,
        label=first.algorithm,
        workers=threads,
        client=None,
        prune=prune,
    )
    if result.status is not Status.NODE_LIMIT or budget == given.nodes:
        # Solved, or stopped by the caller's own limit before the table was built.
        stopped = result.status in (Status.TIME_LIMIT, Status.NODE_LIMIT)
        hint = policy.limit_hint(shape, goal_blank, first.heuristic) if stopped else None
        return _unwrap(result, hint), limits
    warnings.warn(
        policy.first_use_message(shape, goal_blank, budget, first),
        FastPuzzleWarning,
        stacklevel=4,
    )
    return None, _left(limits, result.stats)


def _left(limits: Limits | None, spent: SearchStats) -> Limits | None:
    """What is left of the caller's ``limits`` after a first search spent ``spent``: the
    building and the search after it share them (at least a node and a millisecond, so that
    the search still starts and says which limit stopped it)."""
    if limits is None or (limits.seconds is None and limits.nodes is None):
        return limits
    seconds = None if limits.seconds is None else max(1e-3, limits.seconds - spent.seconds)
    nodes = None if limits.nodes is None else max(1, limits.nodes - spent.expanded)
    return dataclasses.replace(limits, seconds=seconds, nodes=nodes)


def _unwrap(result: SearchResult, hint: str | None = None) -> Solution:
    """The solution, or the limit error; a board refused before any search says why."""
    stats = result.stats
    if result.status is Status.DEPTH_LIMIT and stats.iterations == 0 and stats.expanded == 0:
        rows, cols = result.board.shape
        if stats.depth > MAX_OPTIMAL_DEPTH:
            raise DepthLimitError(
                f"optimal search cannot solve this {rows}x{cols} board: it needs at least "
                f"{stats.depth} moves (its Manhattan distance), beyond the {MAX_OPTIMAL_DEPTH} "
                "moves an optimal search can follow; use solve(board, optimal=False) for a fast "
                "solution that is not guaranteed shortest",
                stats,
            )
    return result.unwrap(hint)

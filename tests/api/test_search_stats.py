"""SearchStats.max_depth_reached and reexpanded (issue 57, item 3): one meaning each, for every
algorithm, checked on boards counted by hand and against plain Python searches written here."""

import pytest

import fastpuzzle as fp

ONE_MOVE = "1 2 3/4 5 6/7 _ 8"  # blank mid-edge: 3 moves, R reaches the goal
TWO_MOVES = "1 2 3/4 5 6/_ 7 8"  # blank in a corner: U, R; R then R reaches the goal


def _search(board, name, seed=1, **options):
    """``fp.search`` with ``seed`` for the random walk only (the others take none)."""
    return fp.search(board, algorithm=name, seed=seed if name == "random" else None, **options)


def _neighbours(tiles, rows, cols, last):
    """(direction, board) of each blank move but the one undoing ``last``, in order U, D, L, R."""
    blank = tiles.index(0)
    r, c = divmod(blank, cols)
    out = []
    for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
        if last is not None and d == last ^ 1:
            continue
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            cells = list(tiles)
            other = nr * cols + nc
            cells[blank], cells[other] = cells[other], cells[blank]
            out.append((d, tuple(cells)))
    return out


def _dfs_visited(start, goal, rows, cols, bound):
    """The visited-table DFS as docs/algorithms.rst describes it, recursively: goal test as a
    child is generated, a child searched again only when reached at a smaller depth.
    Returns (expanded, generated, deepest, reexpanded)."""
    held = {start: 0}
    counts = {"expanded": 1, "generated": 0, "deepest": 0, "again": 0}
    expanded_once = {start}

    def down(board, depth, last):
        for d, child in _neighbours(board, rows, cols, last):
            counts["generated"] += 1
            counts["deepest"] = max(counts["deepest"], depth + 1)
            if child in held and held[child] <= depth + 1:
                continue
            held[child] = depth + 1
            if child == goal:
                return True
            if depth + 1 >= bound:
                continue
            counts["expanded"] += 1
            if child in expanded_once:
                counts["again"] += 1
            expanded_once.add(child)
            if down(child, depth + 1, d):
                return True
        return False

    down(start, 0, None)
    return counts["expanded"], counts["generated"], counts["deepest"], counts["again"]


def test_a_one_move_board_by_hand():
    # BFS: the start expanded, its 3 children generated, one the goal: depth 1.
    stats = fp.search(ONE_MOVE, algorithm="bfs").stats
    assert (stats.expanded, stats.generated, stats.max_depth_reached, stats.reexpanded) == (
        1,
        3,
        1,
        0,
    )
    # dfs's bound is misplaced + Manhattan = 2: U is expanded (3 children at depth 2), L is
    # expanded (1 child, U), then R is the goal.
    stats = fp.search(ONE_MOVE, algorithm="dfs").stats
    assert (stats.expanded, stats.generated, stats.max_depth_reached, stats.reexpanded) == (
        3,
        7,
        2,
        None,
    )
    # A*: the start expanded, the goal popped: one layer.
    stats = fp.search(ONE_MOVE, algorithm="astar").stats
    assert (stats.max_depth_reached, stats.reexpanded) == (1, 0)


def test_bfs_on_a_two_move_board_by_hand():
    # Layer 0: the start generates U and R. Layer 1: U generates U, R (2); R generates U and
    # R, the goal (2): 3 expanded, 6 generated, depth 2 the deepest.
    stats = fp.search(TWO_MOVES, algorithm="bfs").stats
    assert (stats.expanded, stats.generated, stats.max_depth_reached, stats.reexpanded) == (
        3,
        6,
        2,
        0,
    )


def test_the_start_is_the_goal():
    for name in fp.ALGORITHMS:
        stats = _search(fp.Board.goal((3, 3)), name).stats
        assert stats.max_depth_reached in (0, None), name


@pytest.mark.parametrize(
    ("board", "bound"),
    [("4 1 3/7 2 6/_ 5 8", 10), ("8 6 7/2 5 4/3 _ 1", 12), ("1 2 3/4 5 6/_ 7 8", 9)],
)
def test_dfs_visited_counts_its_reexpansions_as_a_python_dfs_does(board, bound):
    start = fp.Board(board)
    expected = _dfs_visited(start.tiles, fp.Board.goal((3, 3)).tiles, 3, 3, bound)
    result = fp.search(start, algorithm="dfs_visited", limits=fp.Limits(max_depth=bound))
    stats = result.stats
    got = (stats.expanded, stats.generated, stats.max_depth_reached, stats.reexpanded)
    assert got == expected


def test_reexpansions_appear_in_dfs_visited_and_nowhere_with_a_closed_set():
    board = "8 6 7/2 5 4/3 _ 1"
    assert fp.search(board, algorithm="dfs_visited").stats.reexpanded > 0
    for name in ("bfs", "bidirectional", "astar", "wastar", "greedy", "lookahead"):
        assert fp.search(board, algorithm=name).stats.reexpanded == 0, name
    for name in ("dfs", "iddfs", "idastar", "random"):
        stats = _search("4 1 3/7 2 6/_ 5 8", name).stats
        assert stats.reexpanded is None, name


def test_max_depth_reached_by_algorithm():
    board = "4 1 3/7 2 6/_ 5 8"  # 6 moves
    depth = {name: _search(board, name, seed=3).stats.max_depth_reached for name in fp.ALGORITHMS}
    # Optimal searches that test as they generate, or stop at the goal: the goal's depth.
    assert depth["bfs"] == depth["iddfs"] == depth["astar"] == depth["idastar"] == 6
    # Each side of the bidirectional search counts from its own end: 3 + 3.
    assert depth["bidirectional"] == 3
    # A random walk is one node deeper a step.
    walk = fp.search(board, algorithm="random", seed=3)
    assert depth["random"] == walk.stats.generated == len(walk.unwrap())
    # dfs tries every child down to its bound, misplaced + Manhattan = 12 here.
    assert depth["dfs"] == 12
    # IDA* stopped by a limit has no count (its engine does not keep one).
    stopped = fp.search("8 6 7/2 5 4/3 _ 1", algorithm="idastar", limits=fp.Limits(nodes=5))
    assert not stopped.solved and stopped.stats.max_depth_reached is None


def test_a_stopped_bfs_says_how_deep_it_went():
    # 31 moves: stopped after 1,000 expansions, inside layer 9 or so; never deeper than the
    # layer after the last one expanded, and at least as deep as the depth it reports.
    stats = fp.search("8 6 7/2 5 4/3 _ 1", algorithm="bfs", limits=fp.Limits(nodes=1000)).stats
    assert stats.max_depth_reached in (stats.depth, stats.depth + 1)


def test_weighted_ida_star_does_not_claim_its_solution_is_its_deepest_node():
    # A weight lets IDA*'s last bound pass the solution's length, so nodes deeper than the
    # solution are generated: the solution's length would understate the deepest.
    for seed in range(6):
        board = fp.random_board((3, 3), rng=seed)
        weighted = fp.search(board, algorithm="idastar", weight=3)
        assert weighted.solved
        assert weighted.stats.max_depth_reached is None
    plain = fp.search(board, algorithm="idastar")
    assert plain.stats.max_depth_reached == len(plain.unwrap())

"""compare(): the course-report table, its CSV round trip, records and plot."""

from __future__ import annotations

import csv
import io

import pytest

import fastpuzzle as fp
from tests.oracle import distances_3x3

BOARDS = ["1 3 _/5 2 6/4 7 8", "5 2 3/4 1 8/_ 7 6", "1 2 3/4 5 6/8 7 _"]  # the last: unsolvable


@pytest.fixture(scope="module")
def table() -> fp.Comparison:
    return fp.compare(
        BOARDS,
        ["bfs", "greedy", "a*", "bidi", "random", "wastar"],
        heuristics=["misplaced", "manhattan"],
        seed=3,
        weight=1.5,
    )


def test_one_row_per_board_and_method(table):
    methods = [row.method for row in table if row.board == fp.Board(BOARDS[0]).to_string()]
    assert methods == [
        "bfs",
        "greedy+misplaced",
        "greedy+manhattan",
        "astar+misplaced",
        "astar+manhattan",
        "bidirectional",
        "random",
        "wastar+misplaced",
        "wastar+manhattan",
    ]
    assert len(table) == 2 * 9 + 1


def test_rows_hold_checked_results(table):
    oracle = distances_3x3()
    for row in table:
        if row.status == "unsolvable":
            assert row.board == fp.Board(BOARDS[2]).to_string()
            assert row.length is None
            continue
        assert row.status == "solved"
        best = oracle[fp.Board(row.board).tiles]
        assert row.length >= best
        assert row.shortest == (row.length == best)
        assert row.expanded <= row.generated + 1
        assert row.peak_memory_bytes > 0
        assert row.seconds >= 0


def test_table_prints_fixed_width(table):
    text = str(table)
    lines = text.splitlines()
    assert lines[0].split() == [
        "board",
        "method",
        "status",
        "length",
        "shortest",
        "expanded",
        "generated",
        "memory",
        "time",
    ]
    assert set(lines[1]) <= {"-", " "}
    assert len(lines) == 2 + len(table)
    # Columns line up: every row is as wide as the rule (trailing blanks stripped).
    assert max(len(line) for line in lines) == len(lines[1])
    assert "unsolvable" in text
    assert "astar+manhattan" in text


def test_csv_round_trip(table, tmp_path):
    text = table.to_csv()
    assert fp.Comparison.from_csv(text) == table
    records = list(csv.DictReader(io.StringIO(text)))
    assert len(records) == len(table)
    assert records[0]["algorithm"] == "bfs"
    path = tmp_path / "table.csv"
    assert table.to_csv(path) == path.read_text()
    with pytest.raises(ValueError):
        fp.Comparison.from_csv("a,b\n1,2\n")
    # Files written before the rename, whose column is "optimal", still read back.
    old = text.replace(",shortest,", ",optimal,", 1)
    assert fp.Comparison.from_csv(old) == table


def test_shortest_is_not_the_methods_guarantee():
    (greedy, astar) = fp.compare(["1 2 3/4 5 6/_ 7 8"], ["greedy", "astar"])
    # Greedy found a shortest solution here, but promised none: Solution.optimal says the
    # promise, the table's column says the length.
    assert greedy.shortest is True and astar.shortest is True
    assert fp.solve("1 2 3/4 5 6/_ 7 8", algorithm="greedy").optimal is False


def test_records(table):
    records = table.to_records()
    assert len(records) == len(table)
    assert set(records[0]) == {
        "board",
        "algorithm",
        "heuristic",
        "status",
        "length",
        "shortest",
        "expanded",
        "generated",
        "peak_memory_bytes",
        "seconds",
        "seconds_spread",
        "runs",
        "bound",
    }


def test_limits_apply_to_every_search():
    hard = "8 6 7/2 5 4/3 _ 1"
    table = fp.compare([hard], ["bfs", "astar"], limits=fp.Limits(nodes=100))
    assert [row.status for row in table] == ["node_limit", "node_limit"]
    assert [row.expanded for row in table] == [100, 100]
    assert all(row.length is None and row.shortest is None for row in table)


def test_single_board_and_single_algorithm():
    table = fp.compare("1 2 3/4 5 6/_ 7 8", "astar", heuristics="linear_conflict")
    assert [(row.method, row.length, row.shortest) for row in table] == [
        ("astar+linear_conflict", 2, True)
    ]


def test_unknown_names_raise_before_running():
    with pytest.raises(fp.UnknownNameError):
        fp.compare(BOARDS, ["bfs", "nope"])


def test_plot(table):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    ax = table.plot(metric="generated")
    assert ax.get_ylabel() == "nodes generated"
    with pytest.raises(fp.InvalidOptionError, match="expected metric="):
        table.plot(metric="board")


def test_to_pandas_has_a_column_per_field(table):
    pd = pytest.importorskip("pandas")
    frame = table.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert len(frame) == len(table)
    fields = list(table.to_records()[0])
    assert list(frame.columns) == [*fields[:3], "method", *fields[3:]]
    # Unsolved rows have no length: pandas' <NA> in nullable columns (before: NaN in a float
    # column), as in BatchResult.to_pandas.
    assert [None if pd.isna(v) else v for v in frame["length"]] == [row.length for row in table]
    assert str(frame["length"].dtype) == "Int64" and str(frame["shortest"].dtype) == "boolean"
    assert frame["length"].isna().any() and frame["shortest"].isna().any()


@pytest.mark.heavy
def test_plot_of_every_method_tells_them_apart_and_fits():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_hex

    from fastpuzzle.algorithms import ALGORITHMS

    boards = ["1 2 3/4 5 6/_ 7 8", "8 6 7/2 5 4/3 _ 1"]
    heuristics = ["misplaced", "manhattan", "linear_conflict"]
    table = fp.compare(
        boards, list(ALGORITHMS), heuristics=heuristics, limits=fp.Limits(nodes=2000)
    )
    methods = list(dict.fromkeys(row.method for row in table))
    assert len(methods) >= 13
    ax = table.plot()
    figure = ax.figure
    figure.canvas.draw()
    bars = ax.patches
    assert len(bars) == len(table)
    # Bars are drawn method by method, board by board, in the table's order.
    styles = {}
    for bar, row in zip(bars, sorted(table, key=lambda r: methods.index(r.method))):
        stopped = row.status != "solved"
        assert (bar.get_hatch() == "xx") == stopped, row
        assert (bar.get_alpha() or 1.0) < 1.0 if stopped else (bar.get_alpha() or 1.0) == 1.0
        if not stopped:
            styles.setdefault(row.method, set()).add((to_hex(bar.get_facecolor()), bar.get_hatch()))
    assert all(len(style) == 1 for style in styles.values())
    assert len({next(iter(style)) for style in styles.values()}) == len(styles)
    legend = ax.get_legend()
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts == [*methods, "stopped by a limit"]
    renderer = figure.canvas.get_renderer()
    # The legend is beside the bars, and every label is inside the figure.
    assert legend.get_window_extent(renderer).x0 >= ax.get_window_extent(renderer).x1
    inside = figure.bbox
    for artist in [legend, *ax.get_xticklabels(), ax.yaxis.label]:
        box = artist.get_window_extent(renderer)
        assert inside.x0 - 1 <= box.x0 and box.x1 <= inside.x1 + 1, artist
        assert inside.y0 - 1 <= box.y0 and box.y1 <= inside.y1 + 1, artist


def test_a_dfs_stopped_by_its_bound_says_the_bound():
    # Before: "depth_limit" alone; the bound (misplaced + Manhattan = 13 here) was not said.
    table = fp.compare("5 2 3/4 1 8/_ 7 6", ["dfs", "bfs"])
    dfs, bfs = table.rows
    assert (dfs.status, dfs.bound, bfs.bound) == ("depth_limit", 13, None)
    assert "depth_limit (13)" in str(table)
    given = fp.compare("5 2 3/4 1 8/_ 7 6", ["dfs_visited"], limits=fp.Limits(max_depth=9))
    assert given.rows[0].bound == 9 and "depth_limit (9)" in str(given)
    # The CSV carries it, and files without the column still read.
    assert fp.Comparison.from_csv(table.to_csv()) == table
    older = "\n".join(",".join(line.split(",")[:-1]) for line in table.to_csv().splitlines()) + "\n"
    assert [row.bound for row in fp.Comparison.from_csv(older)] == [None, None]


def test_packed_boards_from_random_boards_are_compared_with_their_shape() -> None:
    # Before (issue 47, item 4): InvalidBoardError on np.uint64(...), with no word of a shape
    # or of Board.from_packed, and compare() had no shape= to give.
    words = fp.random_boards(3, (3, 3), rng=1)
    table = fp.compare(words, ["bfs"], shape=(3, 3))
    assert [row.board for row in table] == [
        fp.Board.from_packed(int(w), (3, 3)).to_string() for w in words
    ]
    assert all(row.status == "solved" for row in table)
    # The goal gives the shape too; a single word is one board.
    goal = "1 2 3/4 5 _"
    two = fp.random_boards(2, (2, 3), rng=1, goal=goal)
    assert len(fp.compare(two, ["bfs"], goal=goal)) == 2
    assert len(fp.compare(two[0], ["bfs"], shape=(2, 3))) == 1
    with pytest.raises(fp.InvalidBoardError, match=r"needs its shape: pass shape=\(rows, cols\)"):
        fp.compare(words, ["bfs"])


def test_to_pandas_has_the_method_column() -> None:
    # Before (issue 47, item 8): the table, the plots and the CSV's readers group by method,
    # which the DataFrame lacked.
    pytest.importorskip("pandas")
    frame = fp.compare(["1 2 3/4 5 6/7 _ 8"], ["bfs", "astar"]).to_pandas()
    assert frame["method"].tolist() == ["bfs", "astar+manhattan"]
    assert list(frame.columns[:4]) == ["board", "algorithm", "heuristic", "method"]


def test_a_methods_one_off_cost_is_not_its_rows_time(monkeypatch):
    # Issue 58, item 4: the first search of a method in a process pays for loading its table
    # or machine; past min_seconds that run was the row's only one (a 50-70x difference that
    # is not there). Here the first search of each method takes 30 ms and reports 1 s, as a
    # load would; the later ones report 1 ms.
    import dataclasses
    import importlib
    import time

    compare_module = importlib.import_module("fastpuzzle.compare")
    real = compare_module.search
    seen: set[str] = set()

    def search(*args, **options):
        result = real(*args, **options)
        first = options["algorithm"] not in seen
        seen.add(options["algorithm"])
        if first:
            time.sleep(0.03)
        stats = dataclasses.replace(result.stats, seconds=1.0 if first else 0.001)
        return dataclasses.replace(result, stats=stats)

    monkeypatch.setattr(compare_module, "search", search)
    table = fp.compare(["5 2 3/4 1 8/_ 7 6", "1 3 _/5 2 6/4 7 8"], ["bfs", "astar"])
    assert [row.seconds for row in table] == [0.001] * 4
    assert all(row.length for row in table)

"""depth_study() (issue 57, item 1): boards at exact depths, each method's statistics over them,
b* of the mean nodes generated, the table's conversions and plots."""

import io
import statistics

import numpy as np
import pytest

import fastpuzzle as fp
from fastpuzzle.study import DepthStudy, depth_study
from tests.oracle import distances_3x3


def _bstar(n: float, d: int) -> float:
    """b* solving N + 1 = 1 + b + ... + b^d by plain bisection (written apart from the library)."""
    low, high = 0.0, n
    for _ in range(200):
        mid = (low + high) / 2
        if sum(mid**k for k in range(1, d + 1)) < n:
            low = mid
        else:
            high = mid
    return low


def test_rows_hold_the_statistics_of_each_methods_searches_on_the_same_boards():
    seen = []
    study = depth_study(
        (3, 3),
        [3, 8],
        per_depth=6,
        methods=["bfs", "astar+manhattan"],
        rng=4,
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[-1] == (24, 24) and len(seen) == 24
    assert study.depths == [3, 8] and study.methods == ["bfs", "astar+manhattan"]
    # The study draws each depth's boards from one generator, in order: the same draw here.
    generator = np.random.default_rng(4)
    oracle = distances_3x3()
    for depth in (3, 8):
        words = fp.random_boards(6, (3, 3), distance=depth, rng=generator)
        boards = [fp.Board.from_packed(int(w), (3, 3)) for w in words.tolist()]
        assert {oracle[b.tiles] for b in boards} == {depth}
        for method, algorithm, heuristic in (
            ("bfs", "bfs", None),
            ("astar+manhattan", "astar", "manhattan"),
        ):
            stats = [fp.search(b, algorithm=algorithm, heuristic=heuristic).stats for b in boards]
            row = study.row(depth, method)
            assert (row.boards, row.solved) == (6, 6)
            generated = [s.generated for s in stats]
            expanded = [s.expanded for s in stats]
            assert row.generated_mean == pytest.approx(statistics.fmean(generated))
            assert row.generated_median == pytest.approx(statistics.median(generated))
            assert row.generated_std == pytest.approx(statistics.stdev(generated))
            assert row.expanded_mean == pytest.approx(statistics.fmean(expanded))
            assert row.peak_memory_mean == pytest.approx(
                statistics.fmean(s.peak_memory_bytes for s in stats)
            )
            assert row.seconds_mean > 0


def test_ebf_is_b_star_of_the_mean_nodes_generated():
    # The goal of issue 57: the table's b* within 1 % of b* recomputed from its own mean nodes.
    # The table's ebf is b* of the mean (so a reader's recomputation agrees); ebf_mean, the
    # mean of each board's own b*, is lower (b* is concave in N).
    study = depth_study((3, 3), [2, 6, 12], per_depth=20, methods=["bfs", "astar+misplaced"], rng=2)
    for row in study.rows:
        assert row.ebf == pytest.approx(_bstar(row.generated_mean, row.depth), rel=1e-6)
        assert row.ebf_mean is not None and row.ebf_mean <= row.ebf + 1e-9


def test_a_one_move_board_by_hand():
    # Both boards one move from the goal (blank last) have the blank mid-edge, 3 moves: BFS
    # expands the start and generates its 3 children, one the goal: N = 3, d = 1, b* = 3.
    study = depth_study((3, 3), [1], per_depth=3, methods=["bfs"], rng=1)
    row = study.row(1, "bfs")
    assert (row.expanded_mean, row.generated_mean, row.ebf) == (1.0, 3.0, 3.0)
    assert row.generated_std == 0.0


def test_conversions_and_layout():
    study = depth_study((2, 3), [2, 4], per_depth=4, methods=["bfs", "astar"], rng=3)
    text = str(study)
    header = text.splitlines()[0].split()
    assert header[:2] == ["d", "boards"] and "astar+manhattan" in header
    assert text.splitlines()[2].split()[:2] == ["2", "4"]
    assert study.to_markdown().startswith("| d | boards | bfs nodes | bfs ebf |")
    assert "\\begin{tabular}" in study.to_latex()
    frame = study.to_pandas()
    assert list(frame["depth"]) == [2, 2, 4, 4]
    assert list(frame["method"]) == ["bfs", "astar+manhattan"] * 2
    assert "ebf" in frame.columns and "generated_median" in frame.columns
    wide = frame.pivot(index="depth", columns="method", values="ebf")
    assert wide.loc[4, "bfs"] == pytest.approx(study.row(4, "bfs").ebf)
    csv = study.to_csv()
    assert csv.splitlines()[0].startswith("depth,method,boards,solved,expanded_mean")
    assert len(csv.splitlines()) == 5
    assert "DepthStudy: 2x3, 2 depths x 2 methods" in repr(study)
    assert isinstance(study, DepthStudy)


def test_plot_draws_a_line_per_method_log_for_nodes():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    study = depth_study((3, 3), [2, 4, 6], per_depth=3, methods=["bfs", "astar"], rng=1)
    nodes, bstar = study.plot()
    assert nodes.get_yscale() == "log" and bstar.get_yscale() == "linear"
    assert [line.get_label() for line in nodes.get_lines()] == ["bfs", "astar+manhattan"]
    assert list(bstar.get_lines()[0].get_xdata()) == [2, 4, 6]
    buffer = io.BytesIO()
    nodes.figure.savefig(buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"
    (one,) = study.plot(metric="seconds")
    assert one.get_yscale() == "log"


def test_bad_arguments_are_refused_before_any_search():
    with pytest.raises(fp.InvalidOptionError, match="depth"):
        depth_study((3, 3), [2, -1], per_depth=2)
    with pytest.raises(fp.InvalidOptionError, match="at least one depth"):
        depth_study((3, 3), [], per_depth=2)
    with pytest.raises(fp.InvalidOptionError, match="per_depth"):
        depth_study((3, 3), [2], per_depth=0)
    with pytest.raises(fp.UnknownNameError, match="'bsf'"):
        depth_study((3, 3), [2], per_depth=2, methods=["bsf"])
    with pytest.raises(fp.InvalidOptionError, match="no 3x3 board is 40 moves"):
        depth_study((3, 3), [40], per_depth=2, methods=["bfs"])
    study = depth_study((3, 3), [2], per_depth=2, methods=["bfs"], rng=1)
    with pytest.raises(fp.InvalidOptionError, match="metric"):
        study.plot(metric="nodes")


def test_no_method_a_repeated_depth_and_a_string_of_depths_are_refused(monkeypatch):
    # Before: methods=[] gave an empty study, [4, 2, 4] ran depth 4 twice under one row, and
    # "24" ran depths 2 and 4.
    def no_search(*args, **kwargs):
        raise AssertionError("a search ran before the arguments were checked")

    monkeypatch.setattr("fastpuzzle.study.search", no_search)
    with pytest.raises(fp.InvalidOptionError, match="at least one method"):
        depth_study((3, 3), [2], per_depth=1, methods=[])
    with pytest.raises(fp.InvalidOptionError, match="expected each depth once, got 4 twice"):
        depth_study((3, 3), [4, 2, 4], per_depth=1, methods=["bfs"])
    with pytest.raises(fp.InvalidOptionError, match="expected depths as whole numbers, got '24'"):
        depth_study((3, 3), "24", per_depth=1, methods=["bfs"])


def test_4x4_rows_by_solving_boards():
    study = depth_study((4, 4), [4, 10], per_depth=3, methods=["astar+manhattan"], rng=5)
    assert [row.solved for row in study.rows] == [3, 3]


def _printed(study):
    """(depth, nodes, b*) of every method in the printed table, read back from its text."""
    lines = study.to_string().splitlines()[2:]
    out = []
    for line in lines:
        cells = line.split()
        for k in range(2, len(cells), 2):
            out.append((int(cells[0]), float(cells[k].replace(",", "")), float(cells[k + 1])))
    return out


def test_b_star_from_the_printed_nodes_is_the_printed_b_star():
    study = depth_study((3, 3), [2, 5, 9], per_depth=10, methods=["bfs", "idastar"], rng=6)
    for depth, nodes, bstar in _printed(study):
        assert _bstar(nodes, depth) == pytest.approx(bstar, rel=0.01, abs=0.006)


@pytest.mark.slow
def test_the_whole_goal_study():
    # Issue 57's goal: Russell and Norvig's 12 depths, 100 boards each, four methods.
    study = depth_study(
        (3, 3),
        range(2, 25, 2),
        per_depth=100,
        methods=["bfs", "astar+misplaced", "astar+manhattan", "idastar+manhattan"],
        rng=1,
    )
    assert len(study) == 48
    for row in study.rows:
        assert row.solved == 100
        assert row.ebf == pytest.approx(_bstar(row.generated_mean, row.depth), rel=1e-6)
    # What a reader of the printed table recomputes: within 1 % (and the table's 2 decimals).
    for depth, nodes, bstar in _printed(study):
        assert _bstar(nodes, depth) == pytest.approx(bstar, rel=0.01, abs=0.006)
    # Manhattan dominates misplaced tiles: fewer nodes at every depth past the shallowest.
    for depth in range(6, 25, 2):
        assert (
            study.row(depth, "astar+manhattan").generated_mean
            < study.row(depth, "astar+misplaced").generated_mean
            < study.row(depth, "bfs").generated_mean
        )


def test_the_study_and_the_comparison_share_their_text_forms():
    # Before: DepthStudy repeated Comparison's to_csv and text wrappers line for line.
    from fastpuzzle._util.text_tables import TableText

    for method in ("to_string", "to_markdown", "to_latex", "__str__", "_repr_html_"):
        assert getattr(fp.DepthStudy, method) is getattr(TableText, method)
        assert getattr(fp.Comparison, method) is getattr(TableText, method)
    study = depth_study((3, 3), [2], per_depth=2, methods=["bfs"], rng=1)
    assert str(study) == study.to_string() and "<table>" in study._repr_html_()
    assert study.to_csv().splitlines()[0].startswith("depth,method,boards,solved,")

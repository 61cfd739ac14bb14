"""Smaller command-line items: compare --random keeps the boards given, random draws the boards
of random_boards, --plot is checked before the searches, plot ticks read as plain numbers in
one unit, and pdb info says what each table is for."""

import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main

BOARD = "8 6 7/2 5 4/3 _ 1"


def test_compare_random_keeps_the_boards_given(capsys):
    # Before: --random replaced the boards given, without a word.
    assert main(["compare", "--algorithms", "bfs", "--random", "2", "--seed", "1", "--format",
                 "csv", BOARD, "5 2 3/4 1 8/_ 7 6"]) == 0  # fmt: skip
    table = fp.Comparison.from_csv(capsys.readouterr().out)
    boards = [row.board for row in table]
    assert boards[:2] == [BOARD, "5 2 3/4 1 8/_ 7 6"] and len(boards) == 4
    assert boards[2:] == [fp.random_board((3, 3), rng=seed).to_string() for seed in (1, 2)]
    # Random boards take the shape of the boards given.
    four = fp.Board.goal((4, 4)).apply("ULDR").to_string()
    assert main(["compare", "--algorithms", "bfs", "--random", "1", "--format", "csv", four]) == 0
    rows = list(fp.Comparison.from_csv(capsys.readouterr().out))
    assert fp.Board(rows[1].board).shape == (4, 4)


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 5)])
def test_random_prints_the_boards_of_random_boards(capsys, shape):
    # Before: board k came from random_board(rng=S + k), other boards than random_boards'.
    argv = ["random", "--seed", "7", "--count", "40", "--shape", *map(str, shape)]
    assert main(argv) == 0
    printed = capsys.readouterr().out.splitlines()
    expected = [
        fp.Board.from_packed(int(w), shape).to_string() for w in fp.random_boards(40, shape, rng=7)
    ]
    assert printed == expected


def test_random_in_blocks_is_one_draw(capsys, monkeypatch):
    from fastpuzzle.cli import generate

    monkeypatch.setattr(generate, "_RANDOM_BLOCK", 7)
    assert main(["random", "--seed", "2", "--count", "30", "--shape", "3", "3"]) == 0
    expected = [
        fp.Board.from_packed(int(w), (3, 3)).to_string()
        for w in fp.random_boards(30, (3, 3), rng=2)
    ]
    assert capsys.readouterr().out.splitlines() == expected
    # Past 16 cells (no packed words) one stream of the seed too: the same boards twice.
    assert main(["random", "--seed", "2", "--count", "2", "--shape", "5", "5"]) == 0
    first = capsys.readouterr().out
    assert main(["random", "--seed", "2", "--count", "2", "--shape", "5", "5"]) == 0
    assert capsys.readouterr().out == first and len(set(first.splitlines())) == 2


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("chart.nosuchformat", "expected a file name ending in"),
        ("missing-folder/chart.png", "is not a folder"),
        (".", "is a folder"),
    ],
)
def test_plot_is_checked_before_the_searches(tmp_path, capsys, monkeypatch, name, said):
    # Before: every search ran (minutes for a course table), then savefig failed.
    pytest.importorskip("matplotlib")
    import sys

    compare_module = sys.modules["fastpuzzle.compare"]

    def no_search(*args, **kwargs):
        raise AssertionError("a search ran before --plot was checked")

    monkeypatch.setattr(compare_module, "search", no_search)
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "--algorithms", "bfs", "--plot", name, BOARD]) == 2
    assert said in capsys.readouterr().err


def _tick_texts(ax):
    ax.figure.canvas.draw()
    major = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    minor = [t.get_text() for t in ax.get_yticklabels(minor=True) if t.get_text()]
    return major, minor


def test_plot_ticks_are_plain_numbers_in_one_unit():
    # Before: a short log axis (solution lengths 14 to 70) read 2x10^1, 3x10^1 ...; times
    # read 500 µs beside 1.00 ms, sizes 977 B beside 9.77 KiB.
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    table = fp.compare([BOARD, "5 2 3/4 1 8/_ 7 6"], ["bfs", "astar", "greedy"])
    metrics = ["length", "seconds", "peak_memory_bytes", "expanded"]
    # Linear (the default since issue 47) and log axes alike.
    for axes in (table.plot(metric=metrics), table.plot(metric=metrics, log=True)):
        for ax, metric in zip(axes, metrics):
            major, minor = _tick_texts(ax)
            texts = major + minor
            assert texts, metric
            assert not any("$" in t or "^" in t or "e-" in t or "e+" in t for t in texts), texts
            if metric in ("seconds", "peak_memory_bytes"):
                assert len({t.split()[-1] for t in texts}) == 1, texts  # one unit an axis
            else:
                assert all(t.replace(",", "").replace(".", "").isdigit() for t in texts), texts
    # The short length axis is labelled between its decades.
    assert {"20", "30", "50"} <= set(_tick_texts(axes[0])[1])
    # Sizes on powers of 4, round in their unit.
    assert all(float(t.split()[0].replace(",", "")) in {0.0625, 0.25, 1, 4, 16, 64, 256, 1024}
               for t in _tick_texts(axes[2])[0])  # fmt: skip


def test_pdb_info_says_what_each_table_is_for(tmp_path, capsys):
    # Before: the file name, its size and "ok"; what custom-<hash> was for was not said, nor
    # what could be built.
    fp.build_pdb([(0, 1, 2), (3, 4, 5, 6), (7, 8, 9, 10)], (3, 4), 11, cache_dir=tmp_path)
    fp.build_pdb("auto", (2, 5), 9, cache_dir=tmp_path)
    capsys.readouterr()
    assert main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "a partition given to build_pdb, for 3x4 boards whose goal has the blank on cell 11;" \
        " groups of goal cells 0 1 2 | 3 4 5 6 | 7 8 9 10" in out  # fmt: skip
    assert "heuristic 'pdb' (the default partition) for 2x5 boards" in out
    assert "not built yet: 5-5-5 (4x4), 6-6-3 (4x4), 7-8 (4x4), 7-8b (4x4), 6-6-6-6 (5x5)" in out
    assert "fastpuzzle pdb build NAME" in out

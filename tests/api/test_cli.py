"""The command line: both input layouts of the source documents, output forms, exit codes, and
the smaller items of compare, random, --plot and pdb info."""

import csv
import io
import json
import os
import shlex
import subprocess
import sys

import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main


def _stdin(monkeypatch, text):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_solve_prints_moves_that_replay(capsys):
    assert main(["solve", "--algorithm", "astar", "8 6 7/2 5 4/3 _ 1"]) == 0
    out = capsys.readouterr().out.splitlines()
    moves = out[0]
    assert fp.Board("8 6 7/2 5 4/3 _ 1").apply(moves) == fp.Board.goal((3, 3))
    assert out[1].startswith(f"length {len(moves)} (optimal), astar + manhattan")


def test_count_layout_with_an_unsolvable_board(capsys, monkeypatch):
    _stdin(monkeypatch, "2\n1 2 3\n4 5 6\n7 0 8\n\n1 2 3\n4 5 6\n8 7 0\n")
    assert main(["solve", "--algorithm", "bfs"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["board 1 of 2: 1 2 3/4 5 6/7 _ 8", "R"]
    # Each board's lines are led by the board (before: nothing said which was unsolvable).
    unsolvable = out.index("board 2 of 2: 1 2 3/4 5 6/8 7 _")
    assert out[unsolvable + 1] == "This puzzle is not solvable."


def test_start_and_goal_lines_with_json(capsys, monkeypatch):
    _stdin(monkeypatch, "1 2 3 4 5 6 7 8 0\n0 1 2 3 4 5 6 7 8\n")
    assert main(["solve", "--algorithm", "astar", "--json", "--format", "pair"]) == 0
    record = json.loads(capsys.readouterr().out)
    goal = fp.Board("_ 1 2/3 4 5/6 7 8")
    assert record["goal"] == goal.to_string()
    assert fp.Board(record["board"]).apply(record["moves"]) == goal
    assert record["length"] == len(record["moves"]) and record["stats"]["expanded"] > 0


def test_show_prints_every_step(capsys):
    assert main(["solve", "--algorithm", "bfs", "--show", "1 2 3/4 5 6/_ 7 8"]) == 0
    out = capsys.readouterr().out
    assert "step 2/2: blank right (tile 8)" in out


def test_fast_mode_solves_a_big_board(capsys):
    board = fp.random_board((12, 12), rng=4)
    assert main(["solve", "--fast", board.to_string()]) == 0
    out = capsys.readouterr().out.splitlines()
    assert board.apply(out[0]) == fp.Board.goal((12, 12))
    assert "not guaranteed optimal" in out[1]
    assert main(["solve", "--fast", "--algorithm", "bfs", board.to_string()]) == 2


def test_progress_shows_the_bound_on_stderr(capsys):
    # IDA* + Manhattan on a 50-move 4x4 board: millions of nodes, so several progress calls on
    # one thread (several threads report every 0.05 s, and may finish before the first report).
    board = "12 1 10 2/7 11 4 14/5 _ 9 15/8 13 6 3"
    args = ["solve", "--algorithm", "idastar", "--heuristic", "manhattan", "--progress", board]
    args += ["--workers", "1"]
    assert main(args) == 0
    captured = capsys.readouterr()
    # Not a terminal: one report per line, no carriage returns; at most one a second (the
    # issue's item 3: before, a line per report, thousands), so this short search draws one.
    assert "  bound " in captured.err and " expanded, " in captured.err
    assert "\r" not in captured.err and 1 <= len(captured.err.splitlines()) <= 3
    assert fp.Board(board).apply(captured.out.splitlines()[0]) == fp.Board.goal((4, 4))


@pytest.mark.parametrize(
    ("terminal", "option", "drawn"),
    [(True, [], True), (True, ["--no-progress"], False), (False, [], False)],
)
def test_solve_shows_its_progress_on_a_terminal_by_default(
    terminal, option, drawn, monkeypatch, capsys
):
    # Before (issue 47, item 1): a 24-second solve printed nothing unless given --progress, so
    # the line and its `pdb build 7-8` hint never reached the people they are for. Now a
    # terminal gets them by default (the line cleared at the end), a pipe or file does not,
    # and --no-progress silences them.
    from fastpuzzle._util import progress
    from fastpuzzle.cli import solve as solve_command

    monkeypatch.setattr(progress, "on_terminal", lambda: terminal)
    monkeypatch.setattr(solve_command, "on_terminal", lambda: terminal)
    board = "12 1 10 2/7 11 4 14/5 _ 9 15/8 13 6 3"
    argv = ["solve", "--algorithm", "idastar", "--heuristic", "manhattan", "--workers", "1"]
    assert main([*argv, *option, board]) == 0
    captured = capsys.readouterr()
    assert ("\r  bound " in captured.err) is drawn
    if drawn:  # the line is cleared once the search ends
        assert captured.err.endswith("\r") and captured.err.rsplit("\r", 2)[1].strip() == ""
    else:
        assert captured.err == ""
    assert fp.Board(board).apply(captured.out.splitlines()[0]) == fp.Board.goal((4, 4))


def test_progress_names_the_78_build_once_after_a_few_seconds(tmp_path, monkeypatch, capsys):
    # The report itself is driven here: a real search would have to run for seconds.
    from fastpuzzle import cli, pdb
    from fastpuzzle.cli import solve as solve_command
    from fastpuzzle.formats import Job
    from fastpuzzle.results import SearchStats

    monkeypatch.setenv("FASTPUZZLE_CACHE", str(tmp_path))
    args = cli.build_parser().parse_args(
        ["solve", "--progress", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15"]
    )
    job = Job(fp.Board("1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15"))
    show = solve_command._progress_printer(job, args)
    for seconds in (0.5, solve_command.HINT_AFTER_SECONDS, solve_command.HINT_AFTER_SECONDS + 1):
        show(SearchStats(depth=50, seconds=seconds))
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if "pdb build 7-8" in line] == [lines[1]]
    assert len(lines) == 4
    # With 7-8 on disk, the hint names 7-8b.
    paths = [pdb.pdb_path(name, (4, 4), 15) for name in ("7-8", "7-8b")]
    paths[0].parent.mkdir(parents=True, exist_ok=True)
    paths[0].write_bytes(b"")
    show = solve_command._progress_printer(job, args)
    show(SearchStats(seconds=solve_command.HINT_AFTER_SECONDS + 1))
    assert "hint: `fastpuzzle pdb build 7-8b`" in capsys.readouterr().err
    # With both on disk, or on another shape, or with another heuristic: no hint.
    paths[1].write_bytes(b"")
    for argv, board in [
        (["solve", "--progress"], "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15"),
        (["solve", "--progress"], "1 2 3/4 5 6/7 _ 8"),
    ]:
        show = solve_command._progress_printer(
            Job(fp.Board(board)), cli.build_parser().parse_args(argv)
        )
        show(SearchStats(seconds=solve_command.HINT_AFTER_SECONDS + 1))
    for path in paths:
        path.unlink()
    argv = ["solve", "--progress", "--heuristic", "manhattan"]
    show = solve_command._progress_printer(job, cli.build_parser().parse_args(argv))
    show(SearchStats(seconds=solve_command.HINT_AFTER_SECONDS + 1))
    assert "7-8" not in capsys.readouterr().err


def test_prune_option_reaches_ida_star(capsys):
    board = "8 6 7/2 5 4/3 _ 1"
    counts = {}
    for prune in ("parent", "fsm", "12"):
        args = ["solve", "--algorithm", "idastar", "--heuristic", "manhattan", "--json"]
        assert main([*args, "--workers", "1", "--prune", prune, board]) == 0
        record = json.loads(capsys.readouterr().out)
        assert fp.Board(board).apply(record["moves"]) == fp.Board.goal((3, 3))
        counts[prune] = (record["length"], record["stats"]["generated"])
    assert counts["parent"][0] == counts["fsm"][0] == counts["12"][0]
    assert counts["fsm"][1] < counts["parent"][1]


@pytest.mark.parametrize(
    "args",
    [
        ["--prune", "25"],
        ["--prune", "some"],
        ["--prune", "4"],  # would be parent pruning: refused as the library refuses prune=4
        ["--algorithm", "bfs", "--prune", "parent"],
    ],
)
def test_bad_prune_names_the_option(args, capsys):
    assert main(["solve", *args, "1 2 3/4 5 6/_ 7 8"]) == 2
    assert "--prune" in capsys.readouterr().err


def test_limits_are_reported_not_raised(capsys):
    assert main(["solve", "--algorithm", "bfs", "--node-limit", "10", "8 6 7/2 5 4/3 _ 1"]) == 1
    assert "No solution" in capsys.readouterr().out


def test_compare_table_csv_and_plot(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    csv_path, png = tmp_path / "t.csv", tmp_path / "t.png"
    code = main(
        [
            "compare",
            "--random",
            "2",
            "--seed",
            "3",
            "--algorithms",
            "bfs,astar",
            "--csv",
            str(csv_path),
            "--plot",
            str(png),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "astar+manhattan" in out and out.count("solved") == 4
    assert len(csv_path.read_text().splitlines()) == 5
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_bench_says_why_a_board_was_not_solved():
    from fastpuzzle.cli import quickbench

    boards = [fp.random_board((4, 4), rng=seed) for seed in range(3)] + [fp.Board.goal((4, 4))]

    def capped(board):
        return fp.search(
            board, algorithm="idastar", heuristic="manhattan", limits=fp.Limits(nodes=1000)
        )

    row = quickbench._measure("capped", boards, capped)
    assert (row.boards, row.solved, row.stopped) == (4, 1, {"node_limit": 3})
    table = quickbench.format_rows([row])
    assert "not solved: 3 at node_limit" in table and "solved boards only" in table


def test_random_and_scramble_are_seeded(capsys):
    assert main(["random", "--shape", "3", "3", "--count", "3", "--seed", "4"]) == 0
    first = capsys.readouterr().out
    assert main(["random", "--shape", "3", "3", "--count", "3", "--seed", "4"]) == 0
    assert capsys.readouterr().out == first
    assert len(first.splitlines()) == 3
    assert main(["scramble", "--moves", "10", "--seed", "1"]) == 0
    assert len(capsys.readouterr().out.split("/")) == 4


def test_bad_board_prints_one_line_and_exits_2(capsys):
    # Each argument is one board (the item 3): "1 2 3" is one bad board, not three.
    assert main(["solve", "1 2 3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: error: board argument 1: expected a square number")
    assert "--shape ROWS COLS" in err and "shape=" not in err
    assert len(err.strip().splitlines()) == 1
    assert main(["solve", "--algorithm", "nosuch", "1 2/3 _"]) == 2
    assert "unknown algorithm" in capsys.readouterr().err.lower()


def test_python_dash_m_runs_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "fastpuzzle", "random", "--seed", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert fp.Board(done.stdout).shape == (4, 4)


@pytest.mark.heavy
def test_bench_prints_a_table_of_node_rates(capsys):
    assert main(["bench", "--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["task", "boards", "solved"]
    rows = [line for line in lines[2:] if line.strip() and not line.startswith("(")]
    assert len(rows) == 6
    for row in rows:
        numbers, _, why = row.partition("  not solved: ")
        # ... boards solved generated TIME UNIT rate: the time is in the unit that fits.
        boards, solved, generated = (int(v.replace(",", "")) for v in numbers.split()[-6:-3])
        assert numbers.split()[-2] in ("ns", "µs", "ms", "s")
        assert generated > 0 and solved >= 1
        # Every board is solved or said to be stopped by a limit.
        assert solved == boards or why.endswith("at node_limit")
        if "default" in row:  # solve() has no cap: it solves every board
            assert solved == boards


def _run(args, stdin=None):  # type: ignore[no-untyped-def]
    return subprocess.run(
        [sys.executable, "-m", "fastpuzzle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_what_random_prints_goes_back_into_solve_unchanged():
    printed = _run(["random", "--count", "3", "--shape", "3", "3", "--seed", "1"])
    boards = printed.stdout.splitlines()
    solved = _run(["solve", "--json"], stdin=printed.stdout)
    assert solved.returncode == 0, solved.stderr
    records = [json.loads(line) for line in solved.stdout.splitlines()]
    # Three boards solved towards the usual goal: none taken as another's goal.
    assert [fp.Board(r["board"]) for r in records] == [fp.Board(b) for b in boards]
    assert all("goal" not in r for r in records)


def test_ambiguous_input_exits_2_naming_the_flag():
    rows = "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n"
    broken = rows.replace(" 0 ", " 14 ")  # neither one 4x4 board nor four 2x2 boards
    done = _run(["solve"], stdin=broken)
    assert done.returncode == 2
    assert "--format rows" in done.stderr and "Traceback" not in done.stderr
    assert _run(["solve", "--format", "rows", "--algorithm", "astar"], stdin=rows).returncode == 0


def test_a_closed_pipe_is_not_an_error():
    done = subprocess.run(
        f"{sys.executable} -m fastpuzzle random --count 100000 --shape 3 3 | head -2",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(done.stdout.splitlines()) == 2
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_solve_without_input_on_a_terminal_says_what_it_expects(monkeypatch, capsys):
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert main(["solve"]) == 2
    assert "expected boards as arguments or on standard input" in capsys.readouterr().err


def test_version_help_and_csv_to_stdout(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.startswith("fastpuzzle ")
    assert main(["compare", "1 2 3/4 5 6/7 _ 8", "--algorithms", "bfs", "--csv", "-"]) == 0
    out = capsys.readouterr().out
    assert "board,method" in out.replace(" ", "") or "board" in out.splitlines()[-2]
    missing = tmp_path / "no" / "such" / "table.csv"
    assert main(["compare", "1 2 3/4 5 6/7 _ 8", "--algorithms", "bfs", "--csv", str(missing)]) == 2
    assert "fastpuzzle: error:" in capsys.readouterr().err


def test_no_escape_codes_when_stdout_is_not_a_terminal():
    done = _run(["solve", "--algorithm", "bfs", "--animate", "--delay", "0", "1 2 3/4 5 6/_ 7 8"])
    assert done.returncode == 0 and "\x1b" not in done.stdout


def test_memory_limit_option(capsys):
    board = "13 7 6 11/12 9 15 8/5 4 10 0/14 2 3 1"
    assert main(["solve", "--algorithm", "bfs", "--memory-limit", "4M", board]) == 1
    assert "memory_limit" in capsys.readouterr().out


def test_one_bad_line_costs_only_itself():
    text = "1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/7 7 _\n1 2 3/4 5 6/_ 7 8\n1 2 3 4 5\n"
    done = _run(["solve", "--json", "--algorithm", "astar"], stdin=text)
    assert done.returncode == 2
    solved = [json.loads(line)["board"] for line in done.stdout.splitlines()]
    assert solved == ["1 2 3/4 5 6/7 _ 8", "1 2 3/4 5 6/_ 7 8"]
    errors = done.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("fastpuzzle: error: line 2: ") and "twice" in errors[0]
    assert errors[1].startswith("fastpuzzle: error: line 4 has 5 numbers")


def _batch_file(tmp_path, boards):
    path = tmp_path / "boards.txt"
    path.write_text("".join(board.to_string() + "\n" for board in boards))
    return path


def test_batch_writes_one_row_per_board_with_its_board(tmp_path, capsys):
    import csv

    from tests.oracle import distances_3x3

    boards = [fp.random_board((3, 3), rng=seed) for seed in range(40)]
    unsolvable = fp.Board("1 2 3/4 5 6/8 7 _")
    source = _batch_file(tmp_path, [*boards, unsolvable])
    out = tmp_path / "rows.csv"
    assert main(["batch", str(source), "--out", str(out), "--workers", "2"]) == 1
    assert "40 of 41 boards solved" in capsys.readouterr().err
    rows = list(csv.DictReader(out.open()))
    distances = distances_3x3()
    for row, board in zip(rows, boards):
        assert fp.Board(row["board"]) == board
        assert int(row["length"]) == distances[board.tiles]
        assert board.apply(row["moves"]) == fp.Board.goal((3, 3))
    assert (rows[-1]["board"], rows[-1]["status"]) == (unsolvable.to_string(), "unsolvable")
    assert not (tmp_path / "rows.csv.chunks").exists()
    # JSON lines, and CSV on stdout when there is no --out.
    assert main(["batch", str(source), "--out", str(tmp_path / "rows.jsonl")]) == 1
    records = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert [r["board"] for r in records] == [row["board"] for row in rows]
    capsys.readouterr()
    assert main(["batch", str(_batch_file(tmp_path, boards[:3]))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("index,board,length") and len(lines) == 4


def test_batch_resumes_into_the_same_out(tmp_path, capsys, monkeypatch):
    from fastpuzzle.batch import run

    # 5,000 boards: three chunks. Ctrl-C as the third starts; the first two are kept.
    boards = [fp.random_board((3, 3), rng=seed) for seed in range(5000)]
    source = _batch_file(tmp_path, boards)
    out = tmp_path / "rows.csv"
    solved_chunks = []
    real = run.solve_chunk

    def interrupted(first, rows, spec):
        if len(solved_chunks) == 2:
            raise KeyboardInterrupt
        solved_chunks.append(first)
        return real(first, rows, spec)

    monkeypatch.setattr(run, "solve_chunk", interrupted)
    assert main(["batch", str(source), "--out", str(out), "--workers", "1"]) == 130
    assert not out.exists() and len(list((tmp_path / "rows.csv.chunks").glob("part-*"))) == 2
    # A new run refuses the chunks left behind; --resume solves only the missing one.
    assert main(["batch", str(source), "--out", str(out)]) == 2
    assert "add --resume" in capsys.readouterr().err and not out.exists()
    monkeypatch.setattr(run, "solve_chunk", real)
    resumed = []
    monkeypatch.setattr(run, "solve_chunk", lambda f, r, s: resumed.append(f) or real(f, r, s))
    assert main(["batch", str(source), "--out", str(out), "--resume"]) == 0
    assert len(resumed) == 1 and resumed[0] not in solved_chunks
    lines = out.read_text().splitlines()
    assert len(lines) == 5001
    assert [fp.Board(line.split(",")[1]) for line in lines[1:]] == boards
    assert not (tmp_path / "rows.csv.chunks").exists()
    assert main(["batch", str(source), "--resume"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err


def test_batch_parquet_without_pyarrow_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    source = _batch_file(tmp_path, [fp.random_board((3, 3), rng=1)])
    assert main(["batch", str(source), "--out", str(tmp_path / "rows.parquet")]) == 2
    assert "pip install 'fastpuzzle[parquet]'" in capsys.readouterr().err
    assert main(["batch", str(source), "--out", str(tmp_path / "rows.txt")]) == 2
    assert "--out must end in" in capsys.readouterr().err


def test_every_option_has_help():
    import argparse

    from fastpuzzle.cli import build_parser

    def commands(parser, prefix):  # type: ignore[no-untyped-def]
        # Every command and subcommand (pdb build, pdb info, pdb clear), by its words.
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, command in action.choices.items():
                    yield f"{prefix}{name}", command
                    yield from commands(command, f"{prefix}{name} ")

    missing = [
        f"{name} {'/'.join(action.option_strings) or action.dest}"
        for name, command in commands(build_parser(), "")
        for action in command._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert missing == [], missing


def _with_stdout_closed(args, stdin="", env=None):  # type: ignore[no-untyped-def]
    # ``>&-`` closes descriptor 1 before Python starts (subprocess.DEVNULL would open it).
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "fastpuzzle", *args])
    return subprocess.run(
        ["bash", "-c", f"exec {command} >&-"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_a_line_of_thousands_of_digits_costs_only_itself(capsys, monkeypatch, tmp_path):
    # It raised int()'s ValueError, which refused the whole input without a line number.
    text = f"1 2 3/4 5 6/7 _ 8\n{'1' * 5000} 2 3 _\n1 2/_ 3\n"
    _stdin(monkeypatch, text)
    assert main(["solve", "--json", "--algorithm", "astar"]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2
    assert captured.err.startswith("fastpuzzle: error: line 2: ") and "5,000 digits" in captured.err
    assert len(captured.err) < 400
    source = tmp_path / "boards.txt"
    source.write_text(text)
    assert main(["batch", str(source)]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 3  # the header and two rows
    assert captured.err.startswith("fastpuzzle: error: line 2: ")


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "1 2 3/4 5 6/7 _ 8"],  # before: exit 0, having printed nothing
        ["batch", "-"],  # before: an AttributeError traceback, once every board was solved
        ["random", "--shape", "3", "3"],
        ["pdb", "info"],
    ],
)
def test_a_closed_standard_output_is_one_line_and_exit_2(tmp_path, args):
    env = dict(os.environ, FASTPUZZLE_CACHE=str(tmp_path))
    done = _with_stdout_closed(args, stdin="1 2 3/4 5 6/7 _ 8\n8 6 7/2 5 4/3 _ 1\n", env=env)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("fastpuzzle: error: standard output is closed")


def test_batch_into_a_file_needs_no_standard_output(tmp_path):
    out = tmp_path / "rows.csv"
    done = _with_stdout_closed(["batch", "-", "--out", str(out)], stdin="1 2 3/4 5 6/7 _ 8\n")
    assert done.returncode == 0, done.stderr
    assert out.read_text().count("\n") == 2


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--format", "count"],  # '//' on the first line raised IndexError: exit 1
        ["batch", "-", "--format", "count"],
    ],
)
def test_a_first_line_without_a_count_is_a_one_line_error(args, capsys, monkeypatch):
    _stdin(monkeypatch, "//\n1 2 3 _\n")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == "fastpuzzle: error: expected a count of boards on the first line, got '//'\n"


@pytest.mark.parametrize("command", [["solve", "--algorithm", "astar"], ["batch", "-"]])
def test_an_empty_goal_is_an_error(command, capsys, monkeypatch):
    # --goal '' was ignored: the boards were solved towards the default goal.
    _stdin(monkeypatch, "1 2 3/4 5 6/7 _ 8\n")
    assert main([*command, "--goal", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "expected tiles, got an empty board: ''" in captured.err


@pytest.mark.parametrize(
    "args",
    [
        ["random", "--count", "\u0663"],  # an Arabic-Indic 3
        ["random", "--shape", "\u0663", "3"],
        ["scramble", "--moves", "\uff15"],  # a full-width 5
        ["solve", "--time-limit", "\u0663", "1 2/_ 3"],
        ["solve", "--memory-limit", "\u0663M", "1 2/_ 3"],
        ["solve", "--workers", "1" * 5000, "1 2/_ 3"],
    ],
)
def test_numbers_on_the_command_line_are_ascii_digits(args, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "expected" in err and "Traceback" not in err and len(err) < 1000


def test_each_argument_is_one_board(capsys):
    # Before: the two arguments were glued into one line of 18 numbers, refused.
    assert main(["solve", "--algorithm", "astar", "1 3 0 5 2 6 4 7 8", "5 2 3 4 1 8 0 7 6"]) == 0
    out = capsys.readouterr().out.splitlines()
    moves = [line for line in out if not line.startswith(("length", "elapsed", "board "))]
    assert out[0] == "board 1 of 2: 1 3 _/5 2 6/4 7 8" and len(moves) == 2
    assert fp.Board("1 3 0 5 2 6 4 7 8").apply(moves[0]) == fp.Board.goal((3, 3))
    assert fp.Board("5 2 3 4 1 8 0 7 6").apply(moves[1]) == fp.Board.goal((3, 3))
    # A bad argument is named by its position and costs only itself.
    assert main(["solve", "--algorithm", "astar", "1 2 3/4 5 6/7 _ 8", "1 2 3"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("fastpuzzle: error: board argument 2: ")
    assert len(captured.err.splitlines()) == 1 and captured.out.startswith("R\n")


@pytest.mark.parametrize("command", ["solve", "compare"])
def test_a_dash_reads_standard_input(command, capsys, monkeypatch):
    # Before: '-' was read as a board of no numbers (solve and compare; batch took it).
    _stdin(monkeypatch, "1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/_ 7 8\n")
    extra = ["--algorithm", "bfs"] if command == "solve" else ["--algorithms", "bfs"]
    assert main([command, "-", *extra]) == 0
    out = capsys.readouterr().out
    if command == "solve":
        assert out.splitlines()[1] == "R" and "RR" in out.splitlines()
    else:
        assert out.count("bfs") >= 2


def test_format_pair_takes_several_pairs(capsys, monkeypatch):
    # Before: only one pair (36 numbers were "expected a start board then a goal board").
    _stdin(
        monkeypatch,
        "1 2 3/4 5 6/7 _ 8\n1 2 3/4 5 6/7 8 _\n1 2 3/4 5 6/7 8 _\n1 2 3/4 5 6/7 _ 8\n",
    )
    assert main(["solve", "--algorithm", "bfs", "--json", "--format", "pair"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["moves"] for r in records] == ["R", "L"]
    args = ["solve", "--algorithm", "bfs", "--format", "pair", "1 2 3/4 5 6/7 _ 8"]
    assert main([*args, "1 2 3/4 5 6/7 8 _", "1 2 3/4 5 6/7 8 _", "1 2 3/4 5 6/7 _ 8"]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if len(line) == 1] == ["R", "L"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: error: --format pair") and len(err.splitlines()) == 1


def test_words_that_are_not_numbers_are_called_so(capsys, monkeypatch):
    # Before: "line 1 has 3 numbers: not a whole board ...".
    _stdin(monkeypatch, "a b c\n")
    assert main(["solve"]) == 2
    err = capsys.readouterr().err
    assert "not tiles" in err and "'a', 'b', 'c'" in err and "3 numbers" not in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["gui", "--port", "70000"], "--port"),  # before: a traceback
        (["random", "--count", "-1"], "--count"),  # before: nothing printed, exit 0
        (["scramble", "--moves", "-3"], "--moves"),
        (["solve", "--animate", "--delay", "-1", "1 2 3/4 5 6/7 _ 8"], "--delay"),  # mid-animation
        (["solve", "--time-limit", "0", "1 2 3/4 5 6/7 _ 8"], "--time-limit"),  # Limits.seconds
        (["solve", "--workers", "0", "1 2 3/4 5 6/7 _ 8"], "--workers"),
        (["compare", "--random", "-2"], "--random"),
    ],
)
def test_bad_numbers_are_refused_up_front_naming_the_option(args, option, capsys):
    with pytest.raises(SystemExit) as info:
        main(args)
    captured = capsys.readouterr()
    assert info.value.code == 2 and captured.out == ""
    assert f"argument {option}: expected" in captured.err
    assert len(captured.err.splitlines()) == 1 and "Traceback" not in captured.err


def test_library_messages_name_the_command_options(capsys):
    # Before: "expected shape (3, 3) from shape=, but the input has shape (4, 4)", although no
    # shape was given.
    goal = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 _"
    assert main(["solve", "--goal", goal, "1 2 3/4 5 6/7 _ 8"]) == 2
    err = capsys.readouterr().err
    assert "--goal is a 4x4 board" in err and "3x3" in err and "shape=" not in err
    # Before: "... or solve(board, optimal=False) for a fast solution".
    board = fp.random_board((5, 5), rng=1).to_string()
    assert main(["solve", "--algorithm", "astar", board]) == 2
    err = capsys.readouterr().err
    assert "fastpuzzle solve --fast" in err and "optimal=False" not in err
    assert len(err.splitlines()) == 1


def test_seed_makes_the_random_algorithm_reproducible(capsys):
    # Before: solve had no --seed (argparse refused it), and compare's seeded only its boards.
    args = ["solve", "--algorithm", "random", "--seed", "7", "--json", "1 2 3/4 5 6/_ 7 8"]
    runs = []
    for _ in range(2):
        assert main(args) == 0
        runs.append(json.loads(capsys.readouterr().out)["moves"])
    assert runs[0] == runs[1] and len(runs[0]) > 2
    assert fp.Board("1 2 3/4 5 6/_ 7 8").apply(runs[0]) == fp.Board.goal((3, 3))
    tables = []
    for _ in range(2):
        command = ["compare", "--algorithms", "random", "--random", "2", "--seed", "5"]
        assert main([*command, "--format", "csv"]) == 0
        tables.append(list(csv.DictReader(io.StringIO(capsys.readouterr().out))))
    # The same boards and walks: every column but the times.
    timed = ("seconds", "seconds_spread", "runs")
    rows = [[{k: v for k, v in row.items() if k not in timed} for row in t] for t in tables]
    assert rows[0] == rows[1] and len(rows[0]) == 2 and rows[0][0]["status"] == "solved"
    # A seed only the random algorithm takes: one line naming --seed.
    assert main(["solve", "--algorithm", "astar", "--seed", "1", "1 2 3/4 5 6/_ 7 8"]) == 2
    err = capsys.readouterr().err
    assert "--seed 1" in err and "seed=" not in err and len(err.splitlines()) == 1


def test_weight_goes_to_wastar(capsys):
    # Before: no --weight (argparse refused it).
    board = "8 6 7/2 5 4/3 _ 1"
    lengths = []
    for weight in ("1", "5"):
        args = ["solve", "--algorithm", "wastar", "--weight", weight, "--json", board]
        assert main(args) == 0
        lengths.append(json.loads(capsys.readouterr().out)["length"])
    assert lengths[0] == 31 and lengths[1] >= 31
    assert main(["compare", "--algorithms", "wastar", "--weight", "2", board]) == 0
    assert "wastar" in capsys.readouterr().out
    assert main(["solve", "--algorithm", "wastar", "--weight", "5000", board]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: error: --weight ") and "weight=" not in err


@pytest.mark.parametrize("terminal", [False, True])
def test_progress_is_drawn_at_most_10_times_a_second_with_one_count(terminal, monkeypatch, capsys):
    # Before: every report was drawn (2,102 lines in 3 s into a file, 600 redraws a second on a
    # terminal), counting generated nodes where the solution's line counts expanded ones.
    from fastpuzzle import cli
    from fastpuzzle._util import progress
    from fastpuzzle.cli import solve as solve_command
    from fastpuzzle.formats import Job
    from fastpuzzle.results import SearchStats

    monkeypatch.setattr(progress, "on_terminal", lambda: terminal)
    monkeypatch.setattr(solve_command, "on_terminal", lambda: terminal)
    argv = ["solve", "--progress", "--heuristic", "manhattan", "1 2 3/4 5 6/7 _ 8"]
    show = solve_command._progress_printer(
        Job(fp.Board("1 2 3/4 5 6/7 _ 8")), cli.build_parser().parse_args(argv)
    )
    for report in range(2000):  # 2,000 reports in 3 s of search
        show(
            SearchStats(
                expanded=1000 * report, generated=7777777, depth=40, seconds=0.0015 * report
            )
        )
    err = capsys.readouterr().err
    draws = err.count("\r") if terminal else len(err.splitlines())
    assert draws <= (31 if terminal else 3) and draws >= (25 if terminal else 2)
    assert " expanded, " in err and "7,777,777" not in err and "generated" not in err


COMMANDS = ["solve", "compare", "batch", "gui", "bench", "random", "scramble", "pdb"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_documents_its_exit_status(command, capsys):
    # Before: only solve, compare and batch ended their --help with an exit status, the same
    # for all three (compare never exits 1).
    import re

    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    status = " ".join(text[text.index("exit status: ") :].split())
    codes = re.findall(r"(?:^exit status: |; )(\d+) ", status)
    assert codes[0] == "0" and "2" in codes
    assert ("1" in codes) == (command in ("solve", "batch"))


def test_the_exit_statuses_are_those_documented(tmp_path, capsys, monkeypatch):
    unsolvable = "1 2 3/4 5 6/8 7 _"
    assert main(["solve", "--algorithm", "bfs", unsolvable]) == 1
    assert main(["compare", "--algorithms", "bfs", unsolvable]) == 0
    assert main(["compare", "--algorithms", "bfs", "1 2 3"]) == 2
    board_file = tmp_path / "boards.txt"
    board_file.write_text(unsolvable + "\n")
    assert main(["batch", str(board_file), "--no-progress"]) == 1
    assert main(["random", "--count", "0"]) == 0
    assert main(["pdb", "clear", "--cache-dir", str(tmp_path / "cache")]) == 0
    assert main(["gui", "--host", "256.0.0.1", "--no-browser"]) == 2
    capsys.readouterr()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["solve", "--goal", "1 2 x", "1 2 3/4 5 6/7 _ 8"], "--goal: "),
        (["solve", "--algorithm", "nosuch", "1 2 3/4 5 6/7 _ 8"], "--algorithm: "),
        (["compare", "--algorithms", "bfs,nosuch", "1 2 3/4 5 6/7 _ 8"], "--algorithms: "),
        (["compare", "--heuristics", "nosuch", "--algorithms", "astar", "1 2/_ 3"], "--heuristics"),
        (["solve", "--algorithm", "bfs", "--heuristic", "manhattan", "1 2/_ 3"], "--heuristic "),
        (["solve", "--memory-limit", "0", "1 2/_ 3"], "--memory-limit expected a whole number"),
        (["random", "--shape", "1", "1"], "--shape: "),
        (["scramble", "--shape", "300", "300"], "--shape: "),
        (["pdb", "build", "nosuch"], "NAME: "),
        (["batch", "/nonexistent/boards.txt"], "/nonexistent/boards.txt: No such file"),
    ],
)
def test_errors_name_the_option_or_argument(args, named, capsys):
    # Before: the library's message alone ("unknown algorithm 'nosuch'", "[Errno 2] ...",
    # "heuristic='manhattan'", "or None (no limit)").
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: error: ") and named in err, err
    assert len(err.splitlines()) == 1 and "None" not in err and "=" not in err


@pytest.mark.parametrize("args", [["solve", "-"], ["compare", "1 2/_ 3", "-"], ["batch", "-"]])
def test_a_dash_on_a_terminal_says_so(args, monkeypatch, capsys):
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "'-'" in err and "terminal" in err and len(err.splitlines()) == 1


def test_tiles_as_separate_arguments_say_to_quote_them(capsys, monkeypatch):
    assert main(["solve", "1", "2", "3", "4", "5", "6", "7", "_", "8"]) == 2
    err = capsys.readouterr().err
    assert 'quote the tiles of a board ("1 2 3 4 5 6 7 _ 8")' in err and len(err.splitlines()) == 1
    # '-' alone reads standard input as if no argument were given: one line of a pair too.
    _stdin(monkeypatch, "1 2 3 4 5 6 7 _ 8 1 2 3 4 5 6 7 8 _\n")
    assert main(["solve", "--algorithm", "bfs", "--format", "pair", "-"]) == 0
    assert capsys.readouterr().out.startswith("R\n")


def test_dfs_without_max_depth_stops_at_once_naming_it(capsys):
    # Before: dfs had room for 50 moves whatever the board; on the 15-puzzle report's 12-move
    # board it stored boards for 49 s (1.6 GB) and stopped at a limit. Now its bound is the
    # board's misplaced tiles + Manhattan distance (21 there): a solution within it, at once.
    board = "1 2 3 4/5 6 8 12/13 9 0 7/14 11 10 15"
    assert fp.misplaced(board) + fp.manhattan(board) == 21
    assert main(["solve", "--algorithm", "dfs", "--json", board]) == 0
    record = json.loads(capsys.readouterr().out)
    assert fp.Board(board).apply(record["moves"]) == fp.Board.goal((4, 4))
    assert 12 <= len(record["moves"]) <= 21
    # A board whose optimal length (31) is beyond that bound (28): the stop names --max-depth.
    assert main(["solve", "--algorithm", "dfs", "8 6 7/2 5 4/3 _ 1"]) == 1
    captured = capsys.readouterr()
    assert "no solution within --max-depth=28 moves (misplaced + Manhattan" in (
        captured.out + captured.err
    )


def test_bench_rates_count_the_searches_own_time(monkeypatch):
    # Before (issue 47, item 8): the rate divided the nodes by the call's wall time, loading
    # tables included: rows whose first call loaded a table showed "0.03 M nodes/s".
    import time

    from fastpuzzle.cli import quickbench

    def loads_a_table_first(board):
        time.sleep(0.2)  # what reading a large table costs the first call
        return fp.search(board, algorithm="idastar", heuristic="manhattan")

    row = quickbench._measure("loading", [fp.random_board((3, 3), rng=1)], loads_a_table_first)
    assert row.seconds >= 0.2 > row.search_seconds > 0
    assert row.nodes_per_second == row.generated / row.search_seconds
    assert "searches' own clock" in quickbench.format_rows([row])


def test_a_bare_command_prints_the_help(capsys):
    # Before: `fastpuzzle` alone was an error about a missing command.
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: fastpuzzle") and "solve" in out and "pdb" in out


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["solve", "--algorithm", "astr"], "did you mean 'astar'"),
        (["solve", "--algorithm", "IDA"], "did you mean 'idastar'"),
        (["solve", "--algorithm", "astar", "--heuristic", "manhatan"], "did you mean 'manhattan'"),
        (["compare", "--algorithms", "bfs,greedi"], "did you mean 'greedy'"),
    ],
)
def test_an_unknown_name_says_which_it_is_closest_to(args, meant, capsys):
    # Before: the list of every name, and no word of which one was meant.
    assert main([*args, "1 2 3/4 5 6/7 _ 8"]) == 2
    err = capsys.readouterr().err
    assert meant in err and "expected one of" in err


def test_random_and_scramble_seeds_mean_the_same(capsys):
    # Before: random --seed S drew every board from one stream seeded S, scramble --seed S
    # board k from the seed S + k; both draw from one stream now.
    import numpy as np

    argv = ["scramble", "--shape", "3", "3", "--moves", "12", "--count", "3", "--seed", "5"]
    assert main(argv) == 0
    printed = capsys.readouterr().out.split()
    generator = np.random.default_rng(5)
    goal = fp.Board.goal((3, 3))
    expected = [fp.scramble(goal, 12, rng=generator).to_string() for _ in range(3)]
    assert " ".join(printed) == " ".join(expected)
    with pytest.raises(SystemExit):  # a seed is a whole number of 0 or more
        main(["scramble", "--moves", "12", "--seed", "-1"])
    assert "--seed: expected a whole number" in capsys.readouterr().err


# -----------------------------------------------------------------------------------------------
# Smaller command-line items: compare --random keeps the boards given, random draws the boards of
# random_boards, --plot is checked before the searches, plot ticks read as plain numbers in one
# unit, and pdb info says what each table is for.


BOARD = "8 6 7/2 5 4/3 _ 1"


@pytest.mark.heavy
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
        ("missing-folder/chart.png", "is not a directory, so"),
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


@pytest.mark.heavy
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


def test_pdb_info_names_a_file_of_the_older_format(tmp_path, capsys):
    # Format 1's files are still read, with a checksum 14 times slower to take (255 MB: 0.28 s
    # against 0.02 s); before, info said only "ok" and nothing showed which to rebuild.
    from fastpuzzle import pdb
    from fastpuzzle.pdb.fileformat import write_file

    path = fp.build_pdb("auto", (2, 5), 9, cache_dir=tmp_path)
    capsys.readouterr()
    assert main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    assert "format 1" not in capsys.readouterr().out
    database = pdb.load_pdb("auto", (2, 5), 9, cache_dir=tmp_path)
    write_file(path, database.shape, 9, database.name, database.cells, database.groups, version=1)
    assert main(["pdb", "info", "--cache-dir", str(tmp_path)]) == 0
    assert "ok, format 1 (--force rebuilds it to load faster)" in capsys.readouterr().out


def test_solve_json_writes_the_record_batch_writes(tmp_path, capsys):
    # Issue 58, item 3: `solve --json` had other keys and status words ("limit") than batch's
    # JSONL (time_limit, node_limit), and an unsolvable board had no length or message.
    from fastpuzzle.batch.result import COLUMNS, STATUSES

    boards = ["1 2 3/4 5 6/8 7 _", "8 6 7/2 5 4/3 _ 1"]
    listed = tmp_path / "boards.txt"
    listed.write_text("".join(f"{board}\n" for board in boards))
    out = tmp_path / "rows.jsonl"
    main(["batch", str(listed), "--out", str(out)])
    capsys.readouterr()
    batch = [json.loads(line) for line in out.read_text().splitlines()]
    assert main(["solve", "--json", *boards]) == 1
    solved = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    keys = ["index", "board", *COLUMNS[1:]]
    assert list(batch[0]) == keys and solved[0] == batch[0]  # the unsolvable row, whole
    assert list(solved[1])[: len(keys)] == keys and solved[1]["length"] == batch[1]["length"]
    assert main(["solve", "--json", "--algorithm", "bfs", "--node-limit", "100", boards[1]]) == 1
    stopped = json.loads(capsys.readouterr().out)
    assert list(stopped) == keys and stopped["status"] == "node_limit" in STATUSES
    assert stopped["length"] is None and stopped["expanded"] == 100 and stopped["message"]


def test_prune_help_says_what_the_default_machine_is(capsys):
    # Issue 58, item 6: --help said "the machine of depth 13" where the file in the cache is
    # named d16-s16384; it says both now, and what it holds on 4x4 is what --prune 13 holds.
    from fastpuzzle._solver import pruning

    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"within {pruning.MAX_STATES:,} states" in shown and f"-d{pruning.MAX_DEPTH}-" in shown
    board = fp.scramble(fp.Board.goal((4, 4)), 40, rng=3)  # 70,313 nodes with either
    counts = {
        prune: fp.search(board, algorithm="idastar", heuristic="manhattan", workers=1,
                         prune=prune).stats.expanded
        for prune in ("fsm", 13)
    }  # fmt: skip
    assert counts["fsm"] == counts[13]


def test_fast_with_a_time_limit_shows_the_best_length_and_its_gap(capsys):
    # The anytime solver reports each shorter answer; the first report is always drawn.
    board = fp.random_board((6, 6), rng=2).to_string()
    assert main(["solve", "--fast", "--time-limit", "0.3", "--progress", board]) == 0
    captured = capsys.readouterr()
    assert "  best " in captured.err and " moves (lower bound " in captured.err
    moves, figures = captured.out.splitlines()[:2]
    assert fp.Board(board).apply(moves) == fp.Board.goal((6, 6))
    assert "anytime" in figures and "lower bound" in figures


def test_solve_takes_a_course_conventions(capsys):
    # One move from the goal (R): testing at expansion, UDLR expands 3 boards and generates 7,
    # RLDU finds the goal with its first child (counted by hand, as docs/algorithms.rst does).
    board = "1 2 3/4 5 6/7 _ 8"
    counts = {}
    for order in ("UDLR", "RLDU"):
        argv = ["solve", "--algorithm", "bfs", "--goal-test", "expansion", "--order", order]
        assert main([*argv, "--json", board]) == 0
        record = json.loads(capsys.readouterr().out)
        counts[order] = (record["expanded"], record["generated"])
    assert counts == {"UDLR": (3, 7), "RLDU": (1, 3)}
    # An algorithm that takes no such option says so, as the library does.
    assert main(["solve", "--algorithm", "idastar", "--ties", "fifo", board]) == 2
    assert "idastar does not take ties='fifo'" in capsys.readouterr().err

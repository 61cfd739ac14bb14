"""The command line: exit codes and one-line errors."""

import subprocess
import sys

import fastpuzzle as fp
from fastpuzzle.cli import main


def test_random_and_scramble_are_seeded(capsys):
    assert main(["random", "--shape", "3", "3", "--count", "3", "--seed", "4"]) == 0
    first = capsys.readouterr().out
    assert main(["random", "--shape", "3", "3", "--count", "3", "--seed", "4"]) == 0
    assert capsys.readouterr().out == first
    assert len(first.splitlines()) == 3
    assert main(["scramble", "--moves", "10", "--seed", "1"]) == 0
    assert len(capsys.readouterr().out.split("/")) == 4


def test_bad_board_prints_one_line_and_exits_non_zero(capsys):
    assert main(["solve", "1", "2", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: error: expected 4, 9 or 16 tiles")
    assert len(err.strip().splitlines()) == 1


def test_unsolvable_board_says_so(capsys):
    assert main(["solve", "1 2 3/4 5 6/8 7 _"]) == 1
    assert "This puzzle is not solvable." in capsys.readouterr().out


def test_python_dash_m_runs_the_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "fastpuzzle", "random", "--seed", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert fp.Board(done.stdout).shape == (4, 4)

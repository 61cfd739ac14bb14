"""``fastpuzzle batch --out OUT`` keeps its chunks in ``OUT.chunks/`` and removes only what it
wrote there: a folder of the user's at that name is refused, never emptied, and a symbolic link
there is not followed (issue 37, item 2)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main


def _boards(tmp_path: Path, count: int = 12) -> Path:
    source = tmp_path / "boards.txt"
    boards = [fp.random_board((3, 3), rng=seed) for seed in range(count)]
    source.write_text("\n".join(board.to_string() for board in boards) + "\n")
    return source


@pytest.mark.parametrize("resume", [False, True])
def test_a_folder_of_the_users_at_the_chunks_name_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], resume: bool
) -> None:
    out = tmp_path / "rows.csv"
    chunks = tmp_path / "rows.csv.chunks"
    chunks.mkdir()
    (chunks / "notes.txt").write_text("mine\n")
    (chunks / "sub").mkdir()
    (chunks / "sub" / "data.bin").write_bytes(b"\0" * 10)
    args = ["batch", str(_boards(tmp_path)), "--out", str(out)]
    assert main(args + (["--resume"] if resume else [])) == 2
    err = capsys.readouterr().err
    assert str(chunks) in err and "notes.txt" in err and "not a batch's" in err
    assert (chunks / "notes.txt").read_text() == "mine\n"
    assert (chunks / "sub" / "data.bin").exists()
    assert not out.exists()


def test_a_link_at_the_chunks_name_is_refused_and_its_target_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.csv"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("keep\n")
    os.symlink(mine, tmp_path / "rows.csv.chunks")
    assert main(["batch", str(_boards(tmp_path)), "--out", str(out)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert sorted(p.name for p in mine.iterdir()) == ["keep.txt"]
    assert not out.exists()


def test_a_file_at_the_chunks_name_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rows.csv.chunks").write_text("a file\n")
    out = tmp_path / "rows.csv"
    assert main(["batch", str(_boards(tmp_path)), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "not a directory" in err and "earlier batch" not in err
    assert (tmp_path / "rows.csv.chunks").read_text() == "a file\n"


def test_an_empty_folder_is_used_and_removed_with_the_batchs_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rows.csv"
    (tmp_path / "rows.csv.chunks").mkdir()
    assert main(["batch", str(_boards(tmp_path)), "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 13
    assert not (tmp_path / "rows.csv.chunks").exists()


def test_a_file_put_in_the_folder_during_the_batch_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastpuzzle.batch import run

    out = tmp_path / "rows.csv"
    chunks = tmp_path / "rows.csv.chunks"
    real = run.solve_chunk

    def meddled(first, rows, spec):  # type: ignore[no-untyped-def]
        (chunks / "late.txt").write_text("late\n")
        return real(first, rows, spec)

    monkeypatch.setattr(run, "solve_chunk", meddled)
    assert main(["batch", str(_boards(tmp_path)), "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 13
    assert sorted(p.name for p in chunks.iterdir()) == ["late.txt"]


@pytest.mark.parametrize("where", ["a directory", "in no directory"])
def test_an_out_no_file_can_be_written_to_is_refused_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    # A directory at --out was found after solving, named by a temporary file's name, and left
    # the chunk folder behind; a missing directory was created (with its parents).
    out = tmp_path / "rows.csv" if where == "a directory" else tmp_path / "no" / "such" / "r.csv"
    if where == "a directory":
        out.mkdir()
    assert main(["batch", str(_boards(tmp_path)), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastpuzzle: error: --out: ") and ".rows.csv." not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["boards.txt"] + (["rows.csv"] if where == "a directory" else [])
    )

"""Files as users give them: a file of boards named on the command line, UTF-8 with a BOM and
UTF-16 (what Notepad, Excel and PowerShell write), ``Comparison.from_csv`` of a path or a
buffer, and errors that name the user's path rather than a temporary file."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

import fastpuzzle as fp
from fastpuzzle.cli import main
from fastpuzzle.formats import decode_text

BOARDS = ["1 2 3/4 5 6/7 _ 8", "1 2 3/4 5 6/_ 7 8"]
TEXT = "\n".join(BOARDS) + "\n"

#: How the text is written: plain UTF-8, UTF-8 with a BOM (Notepad, Excel), UTF-16 LE with a
#: BOM and CRLF (Windows PowerShell's '>'), UTF-16 BE, and UTF-16 LE without a BOM.
ENCODINGS = {
    "utf-8": TEXT.encode(),
    "utf-8-bom": b"\xef\xbb\xbf" + TEXT.encode(),
    "powershell": TEXT.replace("\n", "\r\n").encode("utf-16"),
    "utf-16-be": b"\xfe\xff" + TEXT.encode("utf-16-be"),
    "utf-16-le-no-bom": TEXT.encode("utf-16-le"),
}


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_text_in_every_encoding_users_write_reads_as_utf8(encoding):
    assert decode_text(ENCODINGS[encoding]).replace("\r\n", "\n") == TEXT


def test_text_that_is_no_text_says_so():
    with pytest.raises(fp.InvalidBoardError, match=r"boards.txt is not text .* byte 0xff"):
        decode_text(b"1 2 3 \xff", name="boards.txt")


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_solve_reads_a_file_named_as_its_argument(tmp_path, capsys, encoding):
    # Before: the name was read as a board ("expected ... got 'boards.txt'"), and a BOM or
    # UTF-16 made the first line a bad board.
    path = tmp_path / "boards.txt"
    path.write_bytes(ENCODINGS[encoding])
    assert main(["solve", "--algorithm", "bfs", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    # Each board's lines are led by the board they are about.
    assert out[0] == f"board 1 of 2: {BOARDS[0]}" and out[1] == "R"
    second = out.index(f"board 2 of 2: {BOARDS[1]}")
    assert out[second + 1] == "RR"


def test_compare_and_batch_read_such_files(tmp_path, capsys):
    path = tmp_path / "boards.txt"
    path.write_bytes(ENCODINGS["powershell"])
    assert main(["compare", "--algorithms", "bfs", "--format", "csv", str(path)]) == 0
    table = fp.Comparison.from_csv(capsys.readouterr().out)
    assert [row.board for row in table] == BOARDS
    assert main(["batch", str(path)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [line.split(",")[1] for line in rows[1:]] == BOARDS


def test_a_file_among_boards_and_a_bad_line_named_by_its_file(tmp_path, capsys):
    path = tmp_path / "more.txt"
    path.write_bytes(b"\xef\xbb\xbf1 2 3/4 5 6/7 8 _\n1 2 x\n")
    argv = ["solve", "--algorithm", "bfs", BOARDS[0], str(path)]
    assert main(argv) == 2  # the bad line costs only itself
    captured = capsys.readouterr()
    assert "board 2 of 2: 1 2 3/4 5 6/7 8 _" in captured.out.splitlines()
    assert f"{path}: line 2" in captured.err


def test_a_name_that_is_neither_board_nor_file_says_both(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "boards.txt"]) == 2
    assert "nor a file: none has that name" in capsys.readouterr().err


def test_utf16_on_standard_input_is_read():
    # What PowerShell pipes: UTF-16 with a BOM. Before: a bad board per line.
    done = subprocess.run(
        [sys.executable, "-m", "fastpuzzle", "solve", "--algorithm", "bfs", "--json"],
        input=ENCODINGS["powershell"],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2


# -- Comparison.from_csv: a path or a buffer, as pandas.read_csv ---------------------------------


@pytest.fixture(scope="module")
def table():
    return fp.compare([*BOARDS, "1 2 3/4 5 6/8 7 _"], ["bfs", "greedy"])


def test_from_csv_takes_a_path_a_buffer_or_the_text(tmp_path, table):
    # Before: only the text; a path was read as CSV text ("expected the columns ...").
    path = tmp_path / "table.csv"
    table.to_csv(path)
    assert fp.Comparison.from_csv(path) == table
    assert fp.Comparison.from_csv(str(path)) == table
    assert fp.Comparison.from_csv(io.StringIO(table.to_csv())) == table
    with open(path, "rb") as stream:
        assert fp.Comparison.from_csv(stream) == table
    assert fp.Comparison.from_csv(table.to_csv()) == table
    # Saved again by Excel ("CSV UTF-8": a BOM, CRLF) or PowerShell (UTF-16).
    excel = b"\xef\xbb\xbf" + table.to_csv().replace("\n", "\r\n").encode()
    assert fp.Comparison.from_csv(io.BytesIO(excel)) == table
    (tmp_path / "ps.csv").write_bytes(table.to_csv().encode("utf-16"))
    assert fp.Comparison.from_csv(tmp_path / "ps.csv") == table
    with pytest.raises(FileNotFoundError):
        fp.Comparison.from_csv(tmp_path / "missing.csv")
    with pytest.raises(fp.InvalidOptionError, match="expected a path, an open file"):
        fp.Comparison.from_csv(3)


# -- errors name the user's path -------------------------------------------------------------


@pytest.mark.parametrize("where", ["missing/table.csv", "a-file/table.csv", "a-folder"])
def test_an_odd_output_path_is_named_as_given(tmp_path, table, where):
    # Before: "No such file or directory: '.../missing/.table.csv.k2j3h4g5'", a temporary
    # file's name, and for a folder both names.
    (tmp_path / "a-file").write_text("x")
    (tmp_path / "a-folder").mkdir()
    target = tmp_path / where
    with pytest.raises(OSError) as caught:
        table.to_csv(target)
    assert caught.value.filename == str(target)
    assert str(caught.value).endswith(f": '{target}'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "a-folder"]
    assert list((tmp_path / "a-folder").iterdir()) == []


def test_the_command_line_names_the_path_too(tmp_path, capsys):
    target = tmp_path / "missing" / "table.csv"
    argv = ["compare", "--algorithms", "bfs", "--csv", str(target), BOARDS[0]]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert str(target) in err and ".table.csv." not in err


def test_solution_files_name_the_path(tmp_path):
    target = Path(tmp_path / "missing" / "solution.html")
    with pytest.raises(FileNotFoundError) as caught:
        fp.solve(BOARDS[0]).to_html(target)
    assert caught.value.filename == str(target)

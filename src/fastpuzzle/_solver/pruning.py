"""Duplicate pruning for IDA*: which machine a search carries, built once and kept.

Parent pruning (never undo the last move) removes only the shortest cycles. The machine of
:mod:`fastpuzzle._core._fsm` (Taylor and Korf, 1993) also removes every other move string that
has an earlier twin (same effect on the board, no longer, covering no more of it), so IDA* never
searches the same board twice along two such paths: on the 24-puzzle it cuts the brute-force
branching factor from 2.368 to 2.249 with the duplicates of up to 14 moves, as theirs does.
Every IDA* kernel takes it, with every heuristic, threads and clusters included.

``prune`` names what a search uses:

- ``"fsm"`` (the default): the deepest machine of at most :data:`MAX_DEPTH` moves within
  :data:`MAX_STATES` states, for a box the board's shape fits (:func:`box_of`): depth 13 on
  boxes of 3x5, 4x4 and larger (up to 5x5), 15 on 3x4, 16 on 3x3 and on two-row boxes. Larger
  machines cut a few more nodes, but each node then reads a table that no longer stays in the
  processor's fastest caches (measured on random50 and Korf and Felner's 5x5 boards,
  ``benchmarks/studies/fsm_report.py``);
- ``"parent"``: parent pruning alone, whose node counts are the published ones (Korf's 100
  with Manhattan, Korf and Felner's 6-6-6-6 counts, ``tests/data``);
- a depth N of :data:`DEPTHS` (6, or 8 to :data:`MAX_DEPTH`), as an int or a string of
  digits: the machine of every twin up to N moves, however many states it has. A small depth
  is a weaker machine: the shortest twins past parent pruning's are 6 moves long, so depths 2
  to 5 would forbid only what ``"parent"`` does, and none is 7 moves long, so 7 would be 6's
  machine; from 8 on each depth forbids more (``fsm`` on a 4x4 board is 13's machine).

A machine depends only on its box and depth, so every process builds the same one: a Dask
worker builds its own. Machines are kept in memory, and in the table cache directory
(``fsm-v4-RxC-dD-sS.npy``), written whole or not at all. A file holds the machine's forbidden
strings, each with its twin: the earlier string, of the same effect and a box inside its box,
that makes it forbidden. A file is rebuilt, never trusted, unless it proves a valid machine for
what it is read for (:func:`_read`): its header names its box, depth, state limit, the depth it
reached, its states and strings, and must name the ones asked for; a checksum covers header and
strings (it proves only that the file is whole: anyone can recompute it); every string's twin is
replayed beside it and must prove it forbidden (:func:`fastpuzzle._core._fsm.verify`, a few
milliseconds for every machine up to 16 moves); the machine is compiled from those strings and
must have the states the header says; and every move string of up to :data:`VERIFIED_LENGTH`
moves is allowed or forbidden as a machine built afresh to that length says. So a machine read
from a file forbids only strings whose twin keeps a path as short to every board (the argument
of :mod:`fastpuzzle._core._fsm`): at worst a file could leave out strings past
:data:`VERIFIED_LENGTH` moves, which costs nodes, never a wrong ``optimal=True``. Comparing with
a machine built afresh to its full depth would cost the build (seconds for 16 moves on 5x5:
docs/performance.rst, "Where the constants come from"); the proof costs milliseconds at every
depth. (Issue 53: a file correct to 10 moves and wrong past
them, its checksum recomputed, was trusted and gave 22 moves, optimal, for 20-move boards.) A
machine that forbids a string it should not could make a board unreachable: a search that then
ran out of paths would report no solution for a solvable board, which the solver refuses as an
internal defect (:class:`~fastpuzzle.errors.InternalError`) rather than answer.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import threading
from pathlib import Path

import numpy as np

from fastpuzzle._core import _fsm
from fastpuzzle._util.checks import shown
from fastpuzzle._util.files import atomic_writer, open_regular
from fastpuzzle.errors import InvalidOptionError
from fastpuzzle.pdb.database import stopped_at_deadline
from fastpuzzle.pdb.store import cache_root

__all__ = [
    "DEFAULT",
    "DEPTHS",
    "MAX_DEPTH",
    "MAX_STATES",
    "VERIFIED_LENGTH",
    "box_of",
    "check_prune",
    "in_effect",
    "machine",
]

#: What a search uses when it is not told.
DEFAULT = "fsm"

#: The largest default machine, in states (16 bytes each: 256 KiB): larger ones cut a few more
#: nodes but take longer, their table out of the fastest caches (``fsm_report.py``).
MAX_STATES = 16_384

#: The deepest machine a caller may name, and the deepest the default looks: deeper ones take
#: minutes and gigabytes to build, with no way to stop them (docs/performance.rst, "Where the
#: constants come from").
MAX_DEPTH = 16

#: The depths a caller may name: those whose machine is not another's. Twins of 2 moves are
#: parent pruning's (``"parent"``); the next are 6 moves long, and none is 7 moves long.
DEPTHS: tuple[int, ...] = (6, *range(8, MAX_DEPTH + 1))

#: How deep the default looks before :data:`MAX_STATES` stops it (small boxes reach it: a 2x3
#: box has few strings), so that it is one of :data:`DEPTHS`' machines.
_DEFAULT_DEPTH = MAX_DEPTH

#: A machine's box holds at most this many cells: one for a 5x5 serves every larger board (a
#: string whose box fits it fits them too), and a larger box costs more to build than it saves.
_BOX_CELLS = 25

#: The file layout's version; files of another one are ignored (and rebuilt under a new name).
#: Version 3 held the compiled table, which nothing but a build could check past a few moves.
_VERSION = 4

#: The first word of a machine file's header ("FSM4" in ASCII, little-endian).
_MAGIC = int.from_bytes(b"FSM4", "little")

#: Header rows before the strings (four int32 each): ``MAGIC, VERSION, rows, cols``,
#: ``depth, max_states, reached, states`` and ``strings, 0, 0, 0``. Then a row a forbidden
#: string: its code and its twin's, each a little-endian uint64 in two int32.
_HEADER_ROWS = 3

#: Move strings up to this length are checked against a machine built afresh whenever a file is
#: read (340 forbidden strings on the 4x4 and 5x5 boxes, built in milliseconds; every box's
#: default machine reaches 13 moves or more): a file cannot leave out the strings that make
#: most of a machine's cut (parent pruning's among them). Every string, of any length, is
#: proven by its twin.
VERIFIED_LENGTH = 10


def check_prune(prune: object) -> str | int:
    """``prune`` checked: ``"fsm"``, ``"parent"`` (any case) or a depth of :data:`DEPTHS`
    (an int, or a string of its digits, as the command line's ``--prune`` takes it).

    Raises
    ------
    InvalidOptionError
        For anything else, saying what is expected; for a depth whose machine is another's
        (2 to 5: parent pruning's; 7: 6's), which to name instead.
    """
    if isinstance(prune, str) and prune.lower() in ("fsm", "parent"):
        return prune.lower()
    depth: int | None = None
    if isinstance(prune, (int, np.integer)) and not isinstance(prune, (bool, np.bool_)):
        depth = int(prune)
    elif isinstance(prune, str) and prune.strip().isascii() and prune.strip().isdigit():
        depth = int(prune.strip()) if len(prune.strip()) < 10 else None
    if depth in DEPTHS:
        return depth
    expected = (
        f"expected prune='fsm' (duplicate pruning, the default), 'parent' (parent pruning "
        f"alone) or a depth of 6 or 8 to {MAX_DEPTH}"
    )
    if depth is not None and 2 <= depth <= 5:
        raise InvalidOptionError(
            f"{expected}, got {shown(prune)}: twins shorter than 6 moves are parent pruning's, "
            "so that machine would do what prune='parent' does"
        )
    if depth == 7:
        raise InvalidOptionError(
            f"{expected}, got {shown(prune)}: no twins are 7 moves long, so that machine would "
            "be 6's: name 6, or 8 for a stronger one"
        )
    raise InvalidOptionError(f"{expected}, got {shown(prune)}")


def box_of(shape: tuple[int, int]) -> tuple[int, int]:
    """The box a board of ``shape`` uses a machine of: the shape, its longer side cut until it
    holds at most 25 cells (a machine is valid for every board its box fits)."""
    rows, cols = shape
    while rows * cols > _BOX_CELLS:
        if rows >= cols:
            rows -= 1
        else:
            cols -= 1
    return rows, cols


def in_effect(prune: str | int, *, exact: bool = False) -> str | int:
    """The pruning a search with checked ``prune`` does: ``"parent"`` for a depth of 2, and for
    ``"fsm"`` with an ``exact`` heuristic (the distance table of boards up to 9 cells), where IDA*
    walks straight down its solution and the default machine could only turn it away from a move
    it forbids, onto a detour."""
    if prune == 2 or (exact and prune == "fsm"):
        return "parent"
    return prune


def machine(
    shape: tuple[int, int], prune: str | int, *, deadline: float | None = None
) -> np.ndarray | None:
    """The machine IDA* carries on boards of ``shape`` for ``prune`` (checked, and as
    :func:`in_effect` gives it); None for parent pruning, which the kernels hold themselves.

    Parameters
    ----------
    shape : tuple of int
        The board's rows and columns; the machine's box is :func:`box_of` it.
    prune : str or int
        ``"fsm"``, ``"parent"`` or a depth of :data:`DEPTHS`.
    deadline : float, optional
        A :func:`time.monotonic` time by which a machine that is neither in memory nor on disk
        must be built (a deep one takes seconds: docs/performance.rst, "Where the constants
        come from").

    Returns
    -------
    numpy.ndarray or None
        The read-only ``int32`` table, one row of four next states a state (-1: forbidden).

    Raises
    ------
    fastpuzzle.pdb.BuildTimeLimitError
        When the deadline passes while the machine is built (nothing is kept).
    """
    if prune == "parent" or prune == 2:
        return None
    rows, cols = box_of(shape)
    _asked.deadline = deadline
    try:
        if prune == "fsm":
            return _kept(rows, cols, _DEFAULT_DEPTH, MAX_STATES, _directory())
        return _kept(rows, cols, int(prune), 0, _directory())
    finally:
        _asked.deadline = None


#: The deadline of the :func:`machine` call running on this thread, for its build (kept out of
#: :func:`_kept`'s arguments, which are its memo's key).
_asked = threading.local()

#: A machine named by its depth and built on first use is announced from this depth on (INFO
#: on the ``fastpuzzle`` logger, a line on the command line): the first depth whose build a
#: user waits for (docs/performance.rst, "Where the constants come from").
_ANNOUNCED_FROM = 14

_log = logging.getLogger(__name__)


def _directory() -> str:
    """The cache directory as a string, or "" (keep machines in memory only) where there is
    none: a machine costs a second to build, never a search."""
    try:
        return cache_root()
    except (RuntimeError, OSError, KeyError):  # no home directory to put it under
        return ""


@functools.lru_cache(maxsize=32)
def _kept(rows: int, cols: int, depth: int, max_states: int, directory: str) -> np.ndarray:
    name = f"fsm-v{_VERSION}-{rows}x{cols}-d{depth}-s{max_states}.npy"
    path = Path(directory) / name if directory else None
    table = None if path is None else _read(path, rows, cols, depth, max_states)
    if table is None:
        forbidden, levels, twins = _build(rows, cols, depth, max_states)
        table = _fsm.compile(forbidden)
        if path is not None:
            reached, strings = len(levels) - 1, len(forbidden)
            header = _header(rows, cols, depth, max_states, reached, len(table), strings)
            _write(path, header, _pairs(forbidden, twins))
    table.setflags(write=False)
    return table


def _build(
    rows: int, cols: int, depth: int, max_states: int
) -> tuple[np.ndarray, list[int], np.ndarray]:
    deadline = getattr(_asked, "deadline", None)
    if not max_states and depth >= _ANNOUNCED_FROM:
        _log.info(
            "building the %d-move pruning machine of the %dx%d box (once: it is kept in the cache)",
            depth, rows, cols,
        )  # fmt: skip
    # The default machine stops at a state bound, not at its depth: named without one.
    which = "the pruning machine" if max_states else f"the {depth}-move pruning machine"
    with stopped_at_deadline(
        f"{which} of the {rows}x{cols} box was",
        "; a search without a time limit builds it once and keeps it",
    ):
        return _fsm.build(rows, cols, depth, max_states, deadline, twins=True)


def _header(
    rows: int, cols: int, depth: int, max_states: int, reached: int, states: int, strings: int
) -> np.ndarray:
    """The header rows of a machine file: what the machine is for, and what it holds."""
    return np.array(
        [
            [_MAGIC, _VERSION, rows, cols],
            [depth, max_states, reached, states],
            [strings, 0, 0, 0],
        ],
        dtype=np.int32,
    )


def _pairs(forbidden: np.ndarray, twins: np.ndarray) -> np.ndarray:
    """The rows of a machine file's strings: each forbidden string's code and its twin's."""
    pairs = np.stack([forbidden, twins], axis=1).astype("<u8")
    return pairs.view("<i4").astype(np.int32).reshape(-1, 4)


def _unpaired(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The forbidden strings and their twins of a machine file's rows (:func:`_pairs`)."""
    pairs = np.ascontiguousarray(rows, dtype="<i4").view("<u8").astype(np.uint64)
    return np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1])


def _digest_row(rows: np.ndarray) -> np.ndarray:
    """A row of four int32 holding a checksum of ``rows`` (header and strings): the file's last
    row."""
    digest = hashlib.blake2b(np.ascontiguousarray(rows).tobytes(), digest_size=16).digest()
    return np.frombuffer(digest, dtype="<i4").astype(np.int32).reshape(1, 4)


def _read(path: Path, rows: int, cols: int, depth: int, max_states: int) -> np.ndarray | None:
    """The machine in ``path`` when it is a valid one for the box ``rows`` x ``cols``, ``depth``
    and ``max_states`` (see the module docstring); else None (it is then rebuilt)."""
    try:
        with open_regular(path) as stream:
            stored = np.load(stream, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if (
        not isinstance(stored, np.ndarray)  # an .npz archive under this name
        or stored.dtype != np.int32
        or stored.ndim != 2
        or stored.shape[0] < _HEADER_ROWS + 1
        or stored.shape[1] != 4
    ):
        return None
    header, strings = stored[:_HEADER_ROWS], stored[_HEADER_ROWS:-1]
    if not np.array_equal(stored[-1:], _digest_row(stored[:-1])):
        return None
    reached, states = int(header[1, 2]), int(header[1, 3])
    expected = _header(rows, cols, depth, max_states, reached, states, len(strings))
    if not np.array_equal(header, expected):
        return None
    forbidden, twins = _unpaired(strings)
    if _fsm.verify(rows, cols, depth, forbidden, twins) >= 0:
        return None
    table = _fsm.compile(forbidden)  # proven strings: each of at least one move
    if len(table) != states or not _valid_machine(table, rows, cols, depth, max_states, reached):
        return None
    return table


def _valid_machine(
    table: np.ndarray, rows: int, cols: int, depth: int, max_states: int, reached: int
) -> bool:
    """Whether ``table``, compiled from proven strings, is the machine its header says: within
    its state limit, and the same strings of up to :data:`VERIFIED_LENGTH` moves allowed as a
    machine built afresh to that length (so that no file can leave out the strings that make
    most of its cut)."""
    states = len(table)
    # The builder reaches its depth, or stops short of it for the state limit alone (every
    # box's default machine reaches past VERIFIED_LENGTH).
    full = reached == depth if max_states == 0 else min(depth, VERIFIED_LENGTH) <= reached <= depth
    if not full or (max_states and states > max_states):
        return False
    length = min(reached, VERIFIED_LENGTH)
    return _same_strings(table, _fresh(rows, cols, length), length)


@functools.lru_cache(maxsize=32)
def _fresh(rows: int, cols: int, length: int) -> np.ndarray:
    """The machine of the box's twins up to ``length`` moves, built now (milliseconds)."""
    return _fsm.compile(_fsm.build(rows, cols, length, 0)[0])


def _same_strings(first: np.ndarray, second: np.ndarray, length: int) -> bool:
    """Whether two machines allow the same move strings of up to ``length`` moves: a walk over
    the pairs of states the strings they both allow lead to, from both start states (a pair
    reached by two strings is walked on once)."""
    size = len(second)
    pairs = np.zeros(1, dtype=np.int64)  # first's state * size + second's
    for _ in range(length):
        after_first = first[pairs // size].astype(np.int64)
        after_second = second[pairs % size].astype(np.int64)
        allowed = after_first >= 0
        if not np.array_equal(allowed, after_second >= 0):
            return False
        pairs = np.sort(after_first[allowed] * size + after_second[allowed])
        if len(pairs) == 0:
            break
        # Each pair once (np.unique would import numpy.ma, inside a search's time limit).
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
    return True


def _write(path: Path, header: np.ndarray, strings: np.ndarray) -> None:
    # A cache that cannot be written (read-only, full) only costs the next process a build.
    body = np.vstack([header, strings])
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_writer(path, suffix=".partial") as stream:
            np.save(stream, np.vstack([body, _digest_row(body)]), allow_pickle=False)

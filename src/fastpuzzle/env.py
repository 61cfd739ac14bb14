"""A Gymnasium environment of the sliding-tile puzzle whose ``info`` carries the exact distance
to the goal and every optimal action, from the solver.

Importing this module registers it as ``fastpuzzle/SlidingPuzzle-v0`` (Gymnasium, the ``gym``
extra: ``pip install 'fastpuzzle[gym]'``)::

    import gymnasium as gym
    import fastpuzzle.env  # noqa: F401  (registers the environment)

    env = gym.make("fastpuzzle/SlidingPuzzle-v0", shape=(3, 3))
    observation, info = env.reset(seed=1)
    action = int(info["optimal_mask"].argmax())  # an optimal action (any, at the goal)
    observation, reward, terminated, truncated, info = env.step(action)

or, without the import, ``gym.make("fastpuzzle.env:fastpuzzle/SlidingPuzzle-v0", shape=(3, 3))``.
Without ``shape=`` the board is 3x3 after a ``FutureWarning``: it becomes 4x4, the library's
default, in the next minor release. Vector environments work too
(``gym.make_vec(ENV_ID, num_envs=8, vectorization_mode="async", shape=(3, 3))``): every entry
of ``info`` has the same shape at every step.

- **Actions**: ``Discrete(4)``, 0..3 = U, D, L, R, the direction the **blank** moves. A move off
  the board leaves the board as it is (and costs its step); ``info["action_mask"]`` marks the
  legal ones.
- **Observations**: the board as a ``(rows, cols)`` uint8 array of tiles (0 = blank; uint16
  past 256 cells), or with ``observation="onehot"`` a ``(rows * cols, rows, cols)`` 0/1 int8
  array: plane ``t`` marks the cell of tile ``t``.
- **Reward** -1 a step; the episode **terminates** at the goal. It is truncated only where
  ``gym.make(..., max_episode_steps=N)`` asks for it (Gymnasium's ``TimeLimit``).
- **Starts**: uniformly random boards that can reach the goal (``scramble=None``), or the goal
  scrambled by ``scramble`` random moves; ``reset(seed=...)`` makes them reproducible.
  ``reset(options={"board": ...})`` starts from that board, which must be able to reach the goal
  (:class:`~fastpuzzle.UnsolvableError` otherwise); ``reset(options={"distance": d})`` from a
  board exactly ``d`` optimal moves away (:func:`~fastpuzzle.random_board`'s ``distance``).
- **info**: ``distance``, the exact number of moves to the goal; ``optimal_mask`` (int8[4], 1 =
  the action's board is one move nearer; all 0 at the goal); ``action_mask`` (int8[4], 1 =
  legal). With ``distances=False`` the solver is not called and only ``action_mask`` is given.
  Each entry has the same shape at every step, as vector environments need.
- **Rendering**: ``render_mode="ansi"`` gives the board as text, ``"rgb_array"`` as an RGB
  picture (uint8, ``(rows * 48, cols * 48, 3)``), which Gymnasium's ``RecordVideo`` records.

The distances come from :func:`fastpuzzle.solve`: each step solves the new board's neighbours
but the one it came from (its own distance is the last one, less one where the action was
optimal, else more one: each move changes a board's distance by exactly one). Boards of up to 9
cells walk their exact table (tens of microseconds a step); larger boards are searched, 4x4
with the pattern databases (milliseconds to seconds a step, as hard as the board).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np

from fastpuzzle._core import _batch
from fastpuzzle._problem import canonical_labels
from fastpuzzle._util.checks import choice, flag, shown, whole
from fastpuzzle._util.default_shape import OLD_DEFAULT_SHAPE, old_default_shape
from fastpuzzle.board import Board, BoardLike, Shape, as_goal, check_shape
from fastpuzzle.errors import InvalidOptionError, UnsolvableError
from fastpuzzle.generate import MAX_SCRAMBLE, random_board, scramble
from fastpuzzle.moves import MOVES
from fastpuzzle.pdb.search_tables import exact_table
from fastpuzzle.solve import solve

try:
    import gymnasium as gym
except ImportError as missing:
    raise ImportError("fastpuzzle.env needs gymnasium: pip install 'fastpuzzle[gym]'") from missing

__all__ = ["ACTIONS", "ENV_ID", "SlidingPuzzleEnv"]

#: The moves of actions 0..3: the direction the blank moves.
ACTIONS = MOVES

#: The id this module registers.
ENV_ID = "fastpuzzle/SlidingPuzzle-v0"

_OBSERVATIONS = ("board", "onehot")
_RENDER_MODES = ("ansi", "rgb_array")
#: Side of a cell, in pixels, of ``render_mode="rgb_array"``.
_CELL = 48


class SlidingPuzzleEnv(gym.Env):  # type: ignore[misc, unused-ignore]
    """The sliding-tile puzzle of any shape as a Gymnasium environment (see the module's text).

    Parameters
    ----------
    shape : tuple of int
        ``(rows, cols)``; at most 16 cells with ``distances=True`` (the solver's optimal
        range), any shape otherwise. Omitted, it is (3, 3) after a ``FutureWarning``: it
        becomes (4, 4), the library's default, in the next minor release.
    goal : Board-like, optional
        The goal (default: tiles in order, blank last).
    scramble : int, optional
        Start each episode from the goal scrambled by this many random moves (default: a
        uniformly random board that can reach the goal).
    observation : {"board", "onehot"}
        The board's tiles, or one 0/1 plane a tile.
    distances : bool
        Give ``distance`` and ``optimal_mask`` in ``info`` (the solver runs each step).
    render_mode : {"ansi", "rgb_array"} or None
        ``"ansi"``: :meth:`render` returns the board as text; ``"rgb_array"``: as an RGB
        picture, a uint8 array of ``(rows * 48, cols * 48, 3)``.
    """

    # Gymnasium's own class attribute; render_fps is the frame rate RecordVideo writes.
    metadata = {"render_modes": list(_RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        shape: Shape = OLD_DEFAULT_SHAPE,
        *,
        goal: BoardLike | None = None,
        scramble: int | None = None,
        observation: str = "board",
        distances: bool = True,
        render_mode: str | None = None,
    ) -> None:
        self.shape = check_shape(old_default_shape(shape, "SlidingPuzzleEnv()"))
        self.goal = as_goal(Board.goal(self.shape), goal)
        self.scramble = whole(
            "scramble", scramble, low=0, high=MAX_SCRAMBLE, none=True, why="scramble's longest walk"
        )
        self.observation = choice("observation", observation, _OBSERVATIONS)
        self.distances = flag("distances", distances)
        self.render_mode = (
            None if render_mode is None else choice("render_mode", render_mode, _RENDER_MODES)
        )
        rows, cols = self.shape
        cells = rows * cols
        self.action_space = gym.spaces.Discrete(4)
        self._dtype = np.uint8 if cells <= 256 else np.uint16
        if self.observation == "board":
            self.observation_space = gym.spaces.Box(0, cells - 1, (rows, cols), dtype=self._dtype)
        else:
            self.observation_space = gym.spaces.MultiBinary([cells, rows, cols])
        self.board = self.goal
        self._distance = self._previous = 0
        self._nearer = np.zeros(4, dtype=np.int8)
        self._solver = _Distances(self.goal)

    # -- what the agent sees ----------------------------------------------------------------

    def _observe(self) -> np.ndarray:
        grid = np.asarray(self.board.tiles, dtype=self._dtype).reshape(self.shape)
        if self.observation == "board":
            return grid
        planes: np.ndarray = grid[None, :, :] == np.arange(self.board.size)[:, None, None]
        return planes.astype(np.int8)

    def _mask(self) -> np.ndarray:
        legal = self.board.moves()
        return np.array([move in legal for move in ACTIONS], dtype=np.int8)

    def _info(self, came_from: str = "") -> dict[str, Any]:
        """``info`` of the current board; ``came_from`` is the move back to the board before,
        whose distance is known (one more than this board's, or one less)."""
        info: dict[str, Any] = {"action_mask": self._mask()}
        if not self.distances:
            return info
        # Every neighbour's distance but the board's it came from, which is known.
        moves = [move for move in self.board.moves() if move != came_from]
        found = dict(zip(moves, self._solver([self.board.apply(move) for move in moves])))
        if came_from:
            found[came_from] = self._previous
        # An illegal move has no distance (at the goal, -1 would read as one move nearer).
        self._nearer = np.array(
            [move in found and found[move] == self._distance - 1 for move in ACTIONS],
            dtype=np.int8,
        )
        info["distance"] = self._distance
        info["optimal_mask"] = self._nearer.copy()
        return info

    # -- the Gymnasium interface ------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start an episode from a random board (see ``scramble``); ``seed`` seeds the draws.

        ``options={"board": ...}`` starts from that board instead; ``options={"distance": d}``
        from a board exactly ``d`` optimal moves from the goal (see
        :func:`~fastpuzzle.random_board`: uniform among them on up to 9 cells, scrambles
        solved past that).

        Raises
        ------
        gymnasium.error.Error
            If ``seed`` is not None or a non-negative Python int (Gymnasium's own check, which
            every environment's ``reset`` runs; its message quotes the seed).
        InvalidOptionError
            If ``options`` is not a dict (or None), names another key than ``"board"`` or
            ``"distance"``, or both; or no board is ``distance`` moves away (on up to 9 cells).
        DistanceNotFoundError
            Past 9 cells, if no scramble tried was ``distance`` moves away.
        InvalidBoardError
            If the board of ``options`` is not a board of the environment's shape.
        UnsolvableError
            If the board of ``options`` cannot reach the goal.
        """
        super().reset(seed=seed)
        start = self._start(options)
        if start is not None:
            self.board = start
        elif self.scramble is None:
            self.board = random_board(self.shape, rng=self.np_random, goal=self.goal)
        else:
            self.board = scramble(self.goal, self.scramble, rng=self.np_random)
        if self.distances:
            (self._distance,) = self._solver([self.board])
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Move the blank in the direction of ``action`` (0..3 = U, D, L, R); off the board,
        the board stays.

        Raises
        ------
        gymnasium.error.InvalidAction
            If ``action`` is not in the action space (0, 1, 2 or 3): Gymnasium's error for an
            action an environment cannot take, which its wrappers and checkers expect.
        """
        if not self.action_space.contains(action):
            raise gym.error.InvalidAction(f"expected an action 0..3 (U, D, L, R), got {action!r}")
        move = ACTIONS[int(action)]
        back = ""
        if move in self.board.moves():
            self.board = self.board.apply(move)
            back = ACTIONS[ACTIONS.index(move) ^ 1]  # U<->D, L<->R
            # A move changes the distance by exactly one (every move changes the parity of
            # the board's distance), down where the solver found the action optimal.
            self._previous = self._distance
            self._distance += -1 if self._nearer[int(action)] else 1
        terminated = self.board == self.goal
        return self._observe(), -1.0, terminated, False, self._info(back)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the method sb3-contrib's ``MaskablePPO`` calls)."""
        return self._mask().astype(bool)

    def render(self) -> str | np.ndarray | None:
        """The board as text (``render_mode="ansi"``) or as an RGB picture (``"rgb_array"``)."""
        if self.render_mode == "ansi":
            return str(self.board)
        if self.render_mode == "rgb_array":
            from fastpuzzle.render import board_rgb

            return board_rgb(self.board, cell=_CELL, goal=self.goal)
        return None

    def _start(self, options: object) -> Board | None:
        """The board that ``reset``'s ``options`` asks for, checked (None: a random start)."""
        if options is None:
            return None
        if not isinstance(options, dict):
            raise InvalidOptionError(
                f"expected options as a dict such as {{'board': ...}} or None, got {shown(options)}"
            )
        unknown = sorted(str(key) for key in options if key not in ("board", "distance"))
        if unknown:
            raise InvalidOptionError(
                f"expected options with the keys 'board' or 'distance' only, got {shown(unknown)}"
            )
        if options.get("distance") is not None:
            if options.get("board") is not None:
                raise InvalidOptionError(
                    f"expected options with 'board' or 'distance', not both: got {shown(options)}"
                )
            return random_board(
                self.shape, rng=self.np_random, goal=self.goal, distance=options["distance"]
            )
        if options.get("board") is None:
            return None
        board = Board(options["board"], shape=self.shape)
        if not board.is_solvable(self.goal):
            raise UnsolvableError(board, self.goal)
        return board


class _Distances:
    """Exact distances of boards to one goal: one compiled walk down the exact table for boards
    of up to 9 cells (microseconds), else :func:`~fastpuzzle.solve` board by board."""

    def __init__(self, goal: Board) -> None:
        self.goal = goal
        self.table: Any = None
        if goal.size <= 9:
            database = exact_table(goal.rows, goal.cols, goal.blank)
            ((_, _, self.nibble, self.table),) = database.groups
            # The table is of the canonical goal: tiles relabelled so that the goal's tile t
            # is the one that belongs in cell t (the blank skipped).
            self.labels = canonical_labels(goal)

    def __call__(self, boards: list[Board]) -> list[int]:
        if self.table is None:
            return [len(solve(board, self.goal, workers=1)) for board in boards]
        count = len(boards)
        labels = self.labels
        words = [
            sum(labels[tile] << (4 * cell) for cell, tile in enumerate(board.tiles))
            for board in boards
        ]
        lengths = np.empty(count, dtype=np.int32)
        _batch.walk_exact_many(
            np.array(words, dtype=np.uint64),
            np.array([board.blank for board in boards], dtype=np.int8),
            self.goal.rows,
            self.goal.cols,
            self.goal.blank,
            self.table,
            self.nibble,
            lengths,
            np.zeros((count, 64), dtype=np.uint8),
            np.empty(count, dtype=np.int64),
            np.empty(count, dtype=np.float64),
        )
        return lengths.tolist()


def _register() -> None:
    if ENV_ID not in gym.envs.registry:
        gym.register(id=ENV_ID, entry_point="fastpuzzle.env:SlidingPuzzleEnv")


_register()

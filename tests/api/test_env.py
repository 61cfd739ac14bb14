"""The Gymnasium environment: Gymnasium's own checks, and info's distances and optimal actions
against BFS over the whole 3x3 space."""

import numpy as np
import pytest

import fastpuzzle as fp
from tests.oracle import distances_3x3, distances_from

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from fastpuzzle.env import ACTIONS, ENV_ID, SlidingPuzzleEnv  # noqa: E402


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"observation": "onehot"},
        {"shape": (2, 3), "goal": "_ 1 2/3 4 5"},
        {"shape": (4, 4), "scramble": 6},
        {"shape": (3, 4), "distances": False},
    ],
)
def test_gymnasium_finds_nothing_wrong(options):
    env = gym.make(ENV_ID, **options)
    check_env(env.unwrapped, skip_render_check=True)
    observation, _ = env.reset(seed=3)
    assert env.observation_space.contains(observation)
    if options.get("observation") == "onehot":
        assert observation.shape == (9, 3, 3) and (observation.sum(axis=0) == 1).all()


def _check_steps(env, truth, steps, seed):
    """Step at random ``steps`` times; every info against the exact distances ``truth``."""
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    checked = 0
    for _ in range(steps):
        tiles = tuple(int(t) for t in observation.reshape(-1))
        board = fp.Board(tiles, shape=env.unwrapped.shape)
        assert info["distance"] == truth[tiles]
        legal = board.moves()
        assert info["action_mask"].tolist() == [int(m in legal) for m in ACTIONS]
        nearer = [
            a
            for a, m in enumerate(ACTIONS)
            if m in legal and truth[board.apply(m).tiles] == truth[tiles] - 1
        ]
        assert info["optimal_actions"].tolist() == nearer
        checked += 1
        # Mostly legal moves, some optimal ones, some off the board.
        action = int(rng.integers(4))
        observation, reward, terminated, truncated, info = env.step(action)
        if ACTIONS[action] not in legal:
            assert observation.reshape(-1).tolist() == list(tiles)
        assert reward == -1.0 and terminated == (info["distance"] == 0) and not truncated
        if terminated:
            observation, info = env.reset()
    return checked


def test_ten_thousand_steps_agree_with_bfs():
    env = gym.make(ENV_ID)
    assert _check_steps(env, distances_3x3(), 10_000, seed=1) == 10_000


def test_a_custom_goal_and_a_rectangle_agree_with_bfs():
    goal = fp.Board("_ 1 2/3 4 5/6 7 8")
    env = gym.make(ENV_ID, goal=goal)
    _check_steps(env, distances_from(goal.tiles, 3, 3), 2_000, seed=2)
    goal = fp.Board("1 2 3 4/5 6 _ 7")
    env = gym.make(ENV_ID, shape=(2, 4), goal=goal)
    _check_steps(env, distances_from(goal.tiles, 2, 4), 2_000, seed=3)


def test_episodes_reach_the_goal_by_optimal_actions_in_distance_steps():
    env = gym.make(ENV_ID)
    for seed in range(20):
        _, info = env.reset(seed=seed)
        distance, steps, terminated = info["distance"], 0, False
        while not terminated:
            _, _, terminated, _, info = env.step(int(info["optimal_actions"][0]))
            steps += 1
        assert steps == distance


def test_4x4_distances_are_those_of_bfs():
    # Scrambled starts near the goal, where a BFS (another algorithm) gives the exact length.
    env = gym.make(ENV_ID, shape=(4, 4), scramble=9)
    _, info = env.reset(seed=4)
    for _ in range(6):
        board = env.unwrapped.board
        assert info["distance"] == len(fp.solve(board, algorithm="bfs"))
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break


def test_seeds_repeat_and_options_choose_the_start():
    env = gym.make(ENV_ID, shape=(4, 4), distances=False)
    first, _ = env.reset(seed=11)
    again, _ = env.reset(seed=11)
    other, _ = env.reset(seed=12)
    assert (first == again).all() and not (first == other).all()
    start, info = env.reset(options={"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 _ 15"})
    assert start[3].tolist() == [13, 14, 0, 15] and "distance" not in info
    assert gym.make("fastpuzzle.env:" + ENV_ID).unwrapped.shape == (3, 3)


def test_bad_options_and_actions_are_refused():
    with pytest.raises(fp.InvalidOptionError, match="observation"):
        SlidingPuzzleEnv(observation="pixels")
    with pytest.raises(fp.InvalidBoardError):
        SlidingPuzzleEnv(shape=(1, 5))
    env = SlidingPuzzleEnv()
    env.reset(seed=1)
    with pytest.raises(gym.error.InvalidAction):
        env.step(4)
    assert SlidingPuzzleEnv(render_mode="ansi").render() == str(fp.Board.goal((3, 3)))

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
        {"shape": (3, 3)},
        {"shape": (3, 3), "observation": "onehot"},
        {"shape": (2, 3), "goal": "_ 1 2/3 4 5"},
        {"shape": (4, 4), "scramble": 6},
        {"shape": (3, 4), "distances": False},
        {"shape": (3, 3), "render_mode": "rgb_array"},
        {"render_mode": "ansi", "shape": (2, 2)},
    ],
)
def test_gymnasium_finds_nothing_wrong(options):
    env = gym.make(ENV_ID, **options)
    check_env(env.unwrapped, skip_render_check="render_mode" not in options)
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
        assert info["optimal_mask"].tolist() == [int(a in nearer) for a in range(4)]
        assert info["optimal_mask"].dtype == np.int8
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
    env = gym.make(ENV_ID, shape=(3, 3))
    assert _check_steps(env, distances_3x3(), 10_000, seed=1) == 10_000


def test_a_custom_goal_and_a_rectangle_agree_with_bfs():
    goal = fp.Board("_ 1 2/3 4 5/6 7 8")
    env = gym.make(ENV_ID, shape=(3, 3), goal=goal)
    _check_steps(env, distances_from(goal.tiles, 3, 3), 2_000, seed=2)
    goal = fp.Board("1 2 3 4/5 6 _ 7")
    env = gym.make(ENV_ID, shape=(2, 4), goal=goal)
    _check_steps(env, distances_from(goal.tiles, 2, 4), 2_000, seed=3)


def test_episodes_reach_the_goal_by_optimal_actions_in_distance_steps():
    env = gym.make(ENV_ID, shape=(3, 3))
    for seed in range(20):
        _, info = env.reset(seed=seed)
        distance, steps, terminated = info["distance"], 0, False
        while not terminated:
            _, _, terminated, _, info = env.step(int(info["optimal_mask"].argmax()))
            steps += 1
        assert steps == distance
        # At the goal no action is optimal (before, the illegal ones were listed: their
        # "distance" of -1 was one less than the goal's).
        assert info["distance"] == 0 and info["optimal_mask"].tolist() == [0, 0, 0, 0]


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
    # Without shape= the id is still 3x3, after a warning that it becomes 4x4 (issue 58).
    with pytest.warns(FutureWarning, match=r"pass shape=\(3, 3\) to keep 3x3"):
        assert gym.make("fastpuzzle.env:" + ENV_ID).unwrapped.shape == (3, 3)


def test_bad_options_and_actions_are_refused():
    with pytest.raises(fp.InvalidOptionError, match="observation"):
        SlidingPuzzleEnv((3, 3), observation="pixels")
    with pytest.raises(fp.InvalidBoardError):
        SlidingPuzzleEnv(shape=(1, 5))
    env = SlidingPuzzleEnv((3, 3))
    env.reset(seed=1)
    with pytest.raises(gym.error.InvalidAction):
        env.step(4)
    assert SlidingPuzzleEnv((3, 3), render_mode="ansi").render() == str(fp.Board.goal((3, 3)))


# -- vector environments: every info entry keeps its shape ------------------------------------


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environments_step_a_thousand_times_and_agree_with_bfs(mode):
    # Before: the second step raised "could not broadcast input array from shape (2,) into shape
    # (1,)" (optimal_actions changed length), and reset padded one env's actions with repeats.
    truth = distances_3x3()
    envs = gym.make_vec(ENV_ID, num_envs=4, vectorization_mode=mode, shape=(3, 3))
    try:
        observations, info = envs.reset(seed=5)
        rng = np.random.default_rng(5)
        goals = 0
        for _ in range(1000):
            assert observations.dtype == np.uint8 and observations.shape == (4, 3, 3)
            for env in range(4):
                tiles = tuple(int(t) for t in observations[env].reshape(-1))
                board = fp.Board(tiles, shape=(3, 3))
                legal = board.moves()
                assert info["distance"][env] == truth[tiles]
                assert info["action_mask"][env].tolist() == [int(m in legal) for m in ACTIONS]
                nearer = [
                    int(m in legal and truth[board.apply(m).tiles] == truth[tiles] - 1)
                    for m in ACTIONS
                ]
                assert info["optimal_mask"][env].tolist() == nearer
            # Optimal actions half of the time, so that episodes end and envs reset.
            best = info["optimal_mask"].argmax(axis=1)
            actions = np.where(rng.random(4) < 0.7, best, rng.integers(4, size=4))
            observations, _, terminated, _, info = envs.step(actions)
            goals += int(terminated.sum())
        assert goals > 0
    finally:
        envs.close()


def test_render_modes_and_observation_types():
    env = gym.make(ENV_ID, shape=(3, 3), render_mode="rgb_array")
    assert env.metadata["render_fps"] > 0 and "rgb_array" in env.metadata["render_modes"]
    observation, _ = env.reset(options={"board": "1 2 3/4 5 6/7 _ 8"})
    assert observation.dtype == np.uint8 and env.observation_space.dtype == np.uint8
    frame = env.render()
    assert frame.shape == (144, 144, 3) and frame.dtype == np.uint8
    # A tile at home is green, one away from home yellow, the blank the background.
    home, blank, away = frame[24, 4], frame[24 + 96, 52], frame[24 + 96, 100]
    assert home.tolist() == [0xA8, 0xD5, 0xA2] and away.tolist() == [0xF4, 0xD5, 0x8D]
    assert blank.tolist() == [0x3D, 0x3A, 0x35]
    env.step(3)
    assert not np.array_equal(env.render(), frame)
    wide = SlidingPuzzleEnv(shape=(17, 16), distances=False)
    assert wide.observation_space.dtype == np.uint16


def test_a_recorded_video_has_a_frame_a_step(tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make(ENV_ID, shape=(3, 3), render_mode="rgb_array"),
        str(tmp_path / "videos"),
        episode_trigger=lambda e: True,
    )
    _, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(info["optimal_mask"].argmax()))
    env.close()
    assert [p.suffix for p in (tmp_path / "videos").iterdir()] == [".mp4"]


def test_reset_refuses_an_unsolvable_board_and_options_that_are_no_dict():
    # Issue 37: an unsolvable start was accepted (distance -1, an episode that never ends), and
    # options that were not a dict raised AttributeError.
    env = SlidingPuzzleEnv((3, 3))
    with pytest.raises(fp.UnsolvableError) as caught:
        env.reset(options={"board": "1 2 3/4 5 6/8 7 _"})
    assert caught.value.goal == fp.Board.goal((3, 3))
    with pytest.raises(fp.UnsolvableError):
        SlidingPuzzleEnv((3, 3), distances=False).reset(options={"board": "2 1 3/4 5 6/7 8 _"})
    for options in (["board"], "1 2 3/4 5 6/7 _ 8", 3):
        with pytest.raises(fp.InvalidOptionError, match="expected options as a dict"):
            env.reset(options=options)
    with pytest.raises(fp.InvalidOptionError, match="'bord'"):
        env.reset(options={"bord": "1 2 3/4 5 6/7 _ 8"})
    _, info = env.reset(seed=2, options={"board": None})
    assert info["distance"] >= 0
    _, info = env.reset(options={})
    assert info["distance"] >= 0


@pytest.mark.parametrize(
    ("method", "call"),
    [
        ("step", lambda env: env.step(4)),
        ("step", lambda env: env.step("U")),
        ("reset", lambda env: env.reset(seed=-1)),
        ("reset", lambda env: env.reset(seed=1.5)),
    ],
    ids=["step-4", "step-text", "reset-negative-seed", "reset-float-seed"],
)
def test_gymnasiums_own_errors_are_named_in_the_docstrings(method, call):
    # Issue 53, item 6: these raise Gymnasium's errors (what its wrappers expect), which the
    # docstrings did not name.
    env = SlidingPuzzleEnv((3, 3))
    env.reset(seed=1)
    with pytest.raises(gym.error.Error) as caught:
        call(env)
    kind = type(caught.value)
    raises = getattr(SlidingPuzzleEnv, method).__doc__.split("Raises", 1)[-1]
    assert f"{kind.__module__}.{kind.__qualname__}" in raises


@pytest.mark.slow
def test_maskable_ppo_learns_to_solve_short_scrambles():
    # A short training loop of a common RL library (sb3-contrib's MaskablePPO on a vector env of
    # Stable-Baselines3), deterministic on the CPU with one thread: about 15 s. Not in the test
    # extra (torch): install stable-baselines3 and sb3-contrib to run it.
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)

    def make():
        return gym.make(
            ENV_ID,
            shape=(3, 3),
            scramble=3,
            max_episode_steps=20,
            distances=False,
            observation="onehot",
        )

    def solved(model, episodes=100):
        env, count = make(), 0
        for episode in range(episodes):
            observation, _ = env.reset(seed=1000 + episode)
            for _ in range(20):
                masks = env.unwrapped.action_masks()
                action, _ = model.predict(observation, action_masks=masks, deterministic=True)
                observation, _, terminated, truncated, _ = env.step(int(action))
                if terminated or truncated:
                    count += int(terminated)
                    break
        return count

    vec = make_vec_env(make, n_envs=4, seed=0)
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", vec, seed=0, n_steps=256, batch_size=256, device="cpu"
    )
    before = solved(model)
    model.learn(4096)
    after = solved(model)
    assert after >= before + 20, (before, after)  # 8 and 54 of 100 when written

"""Boards a few random moves from the goal, for tests whose optimum a plain BFS finds."""

from __future__ import annotations

import random

import fastpuzzle as fp

__all__ = ["scrambled"]


def scrambled(shape: tuple[int, int], moves: int, seed: int) -> fp.Board:
    """The goal of ``shape`` after ``moves`` random moves, none undoing the last one."""
    rng = random.Random(seed)
    board = fp.Board.goal(shape)
    last = None
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    for _ in range(moves):
        move = rng.choice([m for m in board.moves() if m != undo.get(last or "")])
        board, last = board.move(move), move
    return board

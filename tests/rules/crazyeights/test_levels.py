"""The levels' strength: normal and hard beat easy heads-up (the benchmark,
``benchmarks/ai_crazyeights.py``, measures every match over thousands of games)."""

from __future__ import annotations

import random

import pytest

import rules.crazyeights as ce
import rules.crazyeights.ai as crazyeights_ai
from rules.crazyeights.ai import choose_action
from rules.levels import Level


def wins(level: Level, against: Level, games: int) -> int:
    """Games ``level`` wins heads-up against ``against``: each deal twice, seats swapped."""
    won = 0
    for game in range(games):
        state = ce.new(2, seed=game // 2)
        levels = (level, against) if game % 2 == 0 else (against, level)
        rng = random.Random(game)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat), levels[seat], rng))
        assert state.result is not None
        won += levels[state.result.winners[0]] is level
    return won


def test_normal_beats_easy() -> None:
    assert wins(Level.NORMAL, Level.EASY, 300) >= 175  # 193 here; about 65% in long runs


def test_hard_beats_easy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A third of the budget keeps the test short and still wins about three games in four
    # (29 of these 40); the whole budget wins about four in five.
    monkeypatch.setattr(crazyeights_ai, "HARD_MOVES", crazyeights_ai.HARD_MOVES // 3)
    assert wins(Level.HARD, Level.EASY, 40) >= 25

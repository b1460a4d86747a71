"""The one dispatch every game's ``choose_action`` goes through (``rules.levels.decide``)."""

from __future__ import annotations

import random

import pytest

from rules.levels import Level, decide


def players(calls: list[tuple[str, float | None]]) -> dict[str, object]:
    """Easy, normal and hard players that record who was asked and their first draw."""
    return {
        "easy": lambda view, rng: calls.append(("easy", rng.random())) or "slip",
        "normal": lambda view: calls.append(("normal", None)) or "rule of thumb",
        "hard": lambda view, rng: calls.append(("hard", rng.random())) or "searched",
    }


@pytest.mark.parametrize(
    ("level", "answer"),
    [(Level.EASY, "slip"), (Level.NORMAL, "rule of thumb"), (Level.HARD, "searched")],
)
def test_each_level_asks_its_own_player(level: Level, answer: str) -> None:
    calls: list[tuple[str, float | None]] = []
    rng = random.Random(5)
    assert decide(level, "view", rng, **players(calls), default_seed=18) == answer  # type: ignore[arg-type]
    assert [name for name, _ in calls] == [level.value]


def test_without_an_rng_a_decision_repeats_and_normal_draws_nothing() -> None:
    calls: list[tuple[str, float | None]] = []
    for level in (Level.EASY, Level.HARD, Level.EASY):
        decide(level, "view", None, **players(calls), default_seed=18)  # type: ignore[arg-type]
    expected = random.Random(18).random()
    assert [draw for _, draw in calls] == [expected, expected, expected]
    given = random.Random(7)
    decide(Level.NORMAL, "view", given, **players(calls), default_seed=18)  # type: ignore[arg-type]
    assert given.random() == random.Random(7).random()  # normal left the rng untouched

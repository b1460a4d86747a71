"""The moves the bot makes for a seat are legal, in every game (docs/design.md §3): the safe
move of a timed-out seat and a computer's move at every level.

At every decision of every play-out, the adapter's timeout move and its easy and normal
computers' moves for the seat to act must be offered moves, or do exactly what one does, or
(where ``legal_actions`` does not list every legal move: Rummikub's table edits) be accepted.
A hard computer searches, so it is asked at a few decisions of each play-out only.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rules.engine import Action
from rules.levels import Level
from tests.conformance.harness import GAMES, Case, Fork, Step, play_all


def assert_legal(case: Case, fork: Fork, seat: int, action: Action, who: str) -> None:
    """``action`` is a legal move of ``seat``: offered, another name of an offered one, or
    accepted in a game that does not list every legal move."""
    open_moves = case.profile.open_moves  # accepted is enough: no need to find its alias
    verdict = fork.judge(seat, action, alias=not open_moves)
    allowed = {"listed", "alias"} | ({"accepted"} if open_moves else set())
    assert verdict in allowed, f"{who} plays {action!r} for seat {seat}: {verdict}"


def players(case: Case) -> Callable[[Step], None]:
    adapter = case.adapter
    # The first decision and one of the next few (a game may end before a later one).
    hard_at = {0, random.Random(f"hard {case}").randrange(1, 12)}

    def check(step: Step) -> None:
        seat = step.seat
        if seat is None:
            return
        state, fork = step.state, Fork(adapter, step.state)
        assert_legal(case, fork, seat, adapter.timeout_action(state, seat), "the timeout")
        levels = [Level.EASY, Level.NORMAL] + ([Level.HARD] if step.number in hard_at else [])
        for level in levels:
            rng = random.Random(f"{case} {step.number} {level}")
            action = adapter.computer_action(state, seat, level, rng)
            assert_legal(case, fork, seat, action, f"a {level.value} computer")

    return check


@pytest.mark.parametrize("name", GAMES)
def test_the_timeout_move_and_every_computers_move_are_legal(name: str) -> None:
    assert play_all(name, players) > 20

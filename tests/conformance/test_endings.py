"""Every game ends, within its bound, with one result (docs/design.md §2), in every game.

A play-out still running after its profile's number of decisions fails. ``GameOver`` comes
once, as the last event of the move that ended the game (or of the deal, when a game ends
at once: a House blackjack) and never before; from then on nobody is to act, and the result
gives every seat an outcome and a score and ranks every seat once.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.engine import GameOver
from tests.conformance.harness import GAMES, Case, Step, play_all


def endings(case: Case) -> Callable[[Step], None]:
    seats = case.deal.seats

    def check(step: Step) -> None:
        state = step.state
        over = [e for e in step.events if isinstance(e, GameOver)]
        if not state.is_over:
            assert not over, "GameOver before the end"
            assert state.current_seat is not None and state.result is None
            return
        assert over and step.events[-1] is over[0] and len(over) == 1, (
            f"the last move's events end in one GameOver: {step.events}"
        )
        result = state.result
        assert result is not None and over[0].result == result
        assert state.current_seat is None
        assert len(result.outcomes) == len(result.scores) == seats
        assert sorted(result.ranking) == list(range(seats)), result.ranking

    return check


@pytest.mark.parametrize("name", GAMES)
def test_every_game_ends_within_its_bound_with_one_result(name: str) -> None:
    assert play_all(name, endings) > 20

"""The reference game (``tests/reference_game.py``) in the conformance suite: nothing is
hidden, and other seats may ``Cheer`` out of turn while the total is 1."""

from __future__ import annotations

from rules.engine import Action
from tests.conformance.profile import Deal, Profile
from tests.reference_game import Cheer, CountAdapter, CountState


def cheers(state: CountState, seat: int, action: Action) -> bool:
    """Out of turn a seat may only ``Cheer``, and only while the total is 1."""
    return action == Cheer() and state.total == 1


PROFILE = Profile(
    deals=(Deal(2), Deal(3, {"target": 15}, computers=(1,)), Deal(4, {"target": 7})),
    seeds=3,
    max_decisions=40,
    out_of_turn=cheers,
    button_moves=True,  # its hand's Add 1, on its turn
    commands={"n": "add"},
    adapter=CountAdapter,
)

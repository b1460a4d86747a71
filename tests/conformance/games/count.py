"""The reference game (``tests/reference_game.py``) in the conformance suite: nothing is
hidden, and other seats may ``Cheer`` out of turn while the total is 1."""

from __future__ import annotations

from tests.conformance.profile import Deal, Profile
from tests.reference_game import CountAdapter

PROFILE = Profile(
    deals=(Deal(2), Deal(3, {"target": 15}, computers=(1,)), Deal(4, {"target": 7})),
    seeds=3,
    max_decisions=40,
    out_of_turn=lambda options: True,
    commands={"n": "add"},
    adapter=CountAdapter,
)

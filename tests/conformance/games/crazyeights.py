"""Crazy Eights in the conformance suite: hands and the stock are hidden, the discard pile
is public (rule 7)."""

from __future__ import annotations

from rules.levels import Level
from tests.conformance.profile import Deal, Profile, slots

PROFILE = Profile(
    deals=(
        Deal(2),
        Deal(3, computers=(1,), secret=False),
        Deal(4, computers=(0, 2), level=Level.EASY),
        Deal(6, computers=(1, 3, 5)),
    ),
    seeds=3,
    max_decisions=3000,
    hands=lambda snapshot: [slots(hand) for hand in snapshot["hands"]],
    stock=lambda snapshot: slots(snapshot["stock"]),
    commands={"card": "play"},
)

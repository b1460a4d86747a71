"""Go-Stop in the conformance suite: the two hands and the pile are hidden (rules 3-4)."""

from __future__ import annotations

from tests.conformance.profile import Deal, Profile, slots

PROFILE = Profile(
    deals=(
        Deal(2),
        Deal(2, {"bonus_cards": 2}, computers=(1,)),
        Deal(2, {"bonus_cards": 3, "dealer": 1, "nagari_carry": 1}),
    ),
    seeds=10,
    max_decisions=200,
    hands=lambda snapshot: [slots(hand) for hand in snapshot["hands"]],
    stock=lambda snapshot: slots(snapshot["pile"]),
    commands={"card": "play", "choose": "choose"},
)

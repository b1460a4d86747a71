"""Uno in the conformance suite: hands and the draw pile are hidden (rule 2). Its rules
depart from the plain contract in three places: with ``jump_in`` or ``uno_call`` other
seats have moves out of turn (rules 17 and 19), the seed's rules penalise a card that does
not fit instead of refusing it (seed rule 11), and a challenge says in public whether the
Wild Draw Four was legal, which the challenged seat's hand decides (rule 8)."""

from __future__ import annotations

from rules.engine import Action
from rules.levels import Level
from rules.uno import CallUno, CatchUno, Challenge, Play, PlayCard, State
from rules.uno.state import PLAY
from tests.conformance.profile import Deal, Profile, slots

HOUSE_ALL = {
    "stacking": True,
    "draw_until_playable": True,
    "jump_in": True,
    "seven_zero": True,
    "uno_call": True,
}


def out_of_turn(state: State, seat: int, action: Action) -> bool:
    """A jump-in (rule 17) and calling or catching a missed UNO (rule 19) are played out of
    turn, each only with its house rule."""
    if isinstance(action, Play | PlayCard):
        return state.jump_in
    return state.uno_call and isinstance(action, CallUno | CatchUno)


def penalised(state: State, seat: int, action: Action) -> bool:
    """Seed rule 11: a card played on one's own turn that does not fit is penalised."""
    own_turn = seat == state.turn and state.phase == PLAY
    return state.seed_program_rules and own_turn and isinstance(action, Play | PlayCard)


PROFILE = Profile(
    deals=(
        Deal(2, {"ruleset": "official"}),
        Deal(3, {"ruleset": "seed", **HOUSE_ALL}, computers=(2,)),
        Deal(5, {"ruleset": "official", "stacking": True, "draw_until_playable": True}),
        Deal(
            7,
            {"ruleset": "official", "jump_in": True, "uno_call": True, "seven_zero": True},
            computers=(1, 4),
            level=Level.EASY,
        ),
        Deal(10, {"ruleset": "seed", "jump_in": True}),
    ),
    seeds=2,
    max_decisions=3000,
    hands=lambda snapshot: [slots(hand) for hand in snapshot["hands"]],
    stock=lambda snapshot: slots(snapshot["pile"]),
    out_of_turn=out_of_turn,
    lenient=penalised,
    reveals=lambda action: isinstance(action, Challenge),
    commands={"card": "play"},
)

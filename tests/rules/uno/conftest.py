"""Fixtures for the Uno tests: a table dealt exactly as a test says."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from rules.uno import State, new
from rules.uno.cards import CARD_CODES, CARD_COLOUR, COLOUR_NAMES, DECK_SIZE
from rules.uno.state import _turn_first_card

Rig = Callable[..., State]


def _rig(
    hands: Sequence[Sequence[str]],
    top: str | None = None,
    *,
    colour: str | None = None,
    turn: int = 0,
    pile: Sequence[str] = (),
    first: str | None = None,
    ruleset: str = "official",
    seed: int = 7,
    **house: Any,
) -> State:
    """A game with these hands and top card; ``pile`` lists the next cards drawn, in order.

    With ``first`` the top card is turned by the engine's own first-card rule instead.
    Every other card goes under ``pile``, so the table still holds exactly one deck.
    """
    state = new(len(hands), seed=seed, options={"ruleset": ruleset, **house})
    free: dict[str, list[int]] = {}
    for card in range(DECK_SIZE):
        free.setdefault(CARD_CODES[card], []).append(card)

    def take(code: str) -> int:
        return free[code].pop()

    state.hands = [[take(c) for c in hand] for hand in hands]
    drawn = [take(c) for c in pile]
    first_card = take(first) if first is not None else None
    top_card = take(top) if top is not None else None
    state.pile = [c for cards in free.values() for c in cards] + drawn[::-1]
    state._unshuffled = 0  # the order given is the order drawn
    state.discard = []
    state.turn = turn
    state.direction = 1
    state.phase = 0
    state.pending = 0
    if first_card is not None:
        state.pile.append(first_card)
        _turn_first_card(state)
    else:
        assert top_card is not None
        state.discard.append(top_card)
        state.colour = COLOUR_NAMES.index(colour) if colour else CARD_COLOUR[top_card]
    return state


@pytest.fixture
def rig() -> Rig:
    """Build a rigged table: ``rig([["red_5"], ["blue_2"]], "red_3", turn=0, ...)``."""
    return _rig

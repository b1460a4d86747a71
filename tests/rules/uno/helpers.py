"""What the Uno rule tests read off a table dealt by hand (the ``rig`` fixture of conftest.py):
a hand and the top card as codes, every card on the table, the colours by name."""

from __future__ import annotations

from rules.uno import Colour, State
from rules.uno.cards import CARD_CODES, top_code

RED, GREEN, BLUE, YELLOW = Colour.RED, Colour.GREEN, Colour.BLUE, Colour.YELLOW


def hand(state: State, seat: int) -> list[str]:
    return [CARD_CODES[c] for c in state.hands[seat]]


def top(state: State) -> str:
    return top_code(state.top, state.colour)


def all_cards(state: State) -> list[int]:
    return sorted([*state.pile, *state.discard, *(c for h in state.hands for c in h)])

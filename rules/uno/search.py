"""Full Uno states consistent with one seat's view, for the ``hard`` player's search.

Only :class:`rules.uno.state.UnoView` goes in: the seat's own hand, the top card, every card
count and the table. The cards that seat cannot see (other hands, the draw pile, the discard
pile under its top card) are dealt at random from the rest of the deck; the view holds no
history, so every unseen card is as likely anywhere. A hand shown to the seat by a challenge
(``view.revealed``) stays where it was seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.engine import Action
from rules.montecarlo import clone
from rules.rng import GameRandom
from rules.uno.actions import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from rules.uno.cards import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_POINTS,
    COLOUR_NAMES,
    DECK_SIZE,
    NONE,
    RANK_NAMES,
    WILD,
)
from rules.uno.state import GAME, HOUSE_RULES, PHASE_NAMES, SCHEMA, UnoState, UnoView, restore

__all__ = ["quick_move", "sample_snapshot", "sample_world"]

# Every sampled world starts from this generator state (decoding one costs more than
# everything else in a snapshot); :func:`sample_world` reseeds each world's copies.
_RNG_STATE = GameRandom(0).getstate()

_BY_CODE: dict[str, tuple[int, ...]] = {}
for _card, _code in enumerate(CARD_CODES):
    _BY_CODE[_code] = (*_BY_CODE.get(_code, ()), _card)
_WILD_RANKS = frozenset(RANK_NAMES[WILD:])


def _card_of_top(top: str) -> str:
    """The canonical code of the top card: a wild is shown in the colour named for it."""
    _, _, rank = top.partition("_")
    return f"none_{rank}" if rank in _WILD_RANKS else top


def sample_world(view: UnoView, rng: random.Random) -> Callable[[], UnoState]:
    """A factory of fresh copies of one world sampled for ``view``: each copy draws the same
    cards, from its own generator seeded by ``rng``."""
    world = restore(sample_snapshot(view, rng))
    seed = rng.getrandbits(63)
    return lambda: clone(world, seed)


def sample_snapshot(view: UnoView, rng: random.Random) -> dict[str, Any]:
    """A snapshot (for :func:`rules.uno.state.restore`) of a game whose ``view(view.seat)``
    shows what ``view`` shows, the unseen cards dealt at random by ``rng``."""
    seat = view.seat
    if seat is None or view.hand is None or view.current_seat is None:
        raise ValueError("a world is sampled for a seated player of a game in progress")
    free = {code: list(cards) for code, cards in _BY_CODE.items()}
    n = len(view.hand_counts)
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = [free[code].pop() for code in view.hand]
    top = free[_card_of_top(view.top)].pop()
    if view.revealed is not None:
        shown, codes = view.revealed
        if len(codes) <= view.hand_counts[shown]:
            hands[shown] = [free[code].pop() for code in codes]
    unseen = [card for cards in free.values() for card in cards]
    rng.shuffle(unseen)
    for other, count in enumerate(view.hand_counts):
        missing = count - len(hands[other])
        if other != seat and missing:
            hands[other] += unseen[-missing:]
            del unseen[-missing:]
    pile = unseen[: view.draw_pile]
    discard = [*unseen[view.draw_pile :], top]
    assert len(pile) + len(discard) + sum(map(len, hands)) == DECK_SIZE
    challengeable = any(isinstance(a, Challenge) for a in view.legal)
    calls_left = any(isinstance(a, CallUno) for a in view.legal)
    declared = (
        seat
        if "uno_call" in view.house
        and view.current_seat == seat
        and len(view.hand) == 2
        and not calls_left
        else -1
    )
    return {
        "game": GAME,
        "schema": SCHEMA,
        "players": n,
        "options": {"ruleset": view.ruleset, **{r: r in view.house for r in HOUSE_RULES}},
        "rng": _RNG_STATE,
        "hands": hands,
        "pile": pile,
        "unshuffled": 0,  # already in random order
        "discard": discard,
        "colour": COLOUR_NAMES.index(view.colour),
        "turn": view.current_seat,
        "direction": view.direction,
        "phase": PHASE_NAMES.index(view.phase),
        "pending": view.pending,
        # Whether a pending Wild Draw Four was a bluff is not in the view: the world says it
        # was not (the hard player never challenges, so it never matters).
        "guilty": False,
        "offender": _offender(view) if challengeable else -1,
        "exposed": -1 if view.uno_exposed is None else view.uno_exposed,
        "declared": declared,
        "reveal": None,
        "idle": 0,
        "out": [i in view.out for i in range(n)] if view.out else [],
        "over": False,
        "log": [],
    }


def _offender(view: UnoView) -> int:
    """Who played the Wild Draw Four pending for the seat to act: the seat before it."""
    assert view.current_seat is not None
    n = len(view.hand_counts)
    seat = (view.current_seat - view.direction) % n
    while seat in view.out:
        seat = (seat - view.direction) % n
    return seat


def quick_move(state: UnoState, seat: int) -> Action:
    """The rollout policy of the hard player's search: the normal player's main rules of
    thumb on the engine's ints. It says UNO and catches, plays the colour it holds most
    (the costliest card among equals), a wild only when nothing else plays (naming that
    colour), stacks rather than takes, and never challenges."""
    legal = state.legal_actions(seat)
    hand = state.hands[seat]
    held = [0, 0, 0, 0, 0]
    for card in hand:
        held[CARD_COLOUR[card]] += 1
    favourite = max(range(4), key=held.__getitem__)
    best = legal[-1]
    best_score = -1
    for action in legal:
        cls = action.__class__
        if cls is CallUno or cls is CatchUno:
            return action
        if cls is Play:
            card = hand[action.index]  # type: ignore[attr-defined]
            colour = CARD_COLOUR[card]
            if colour == NONE:
                if action.colour != favourite:  # type: ignore[attr-defined]
                    continue
                score = 1
            else:
                score = 2 + held[colour] * 64 + CARD_POINTS[card]
        elif cls is ChooseColour:
            score = held[action.colour]  # type: ignore[attr-defined]
        elif cls is Draw or cls is Pass:
            score = 0
        else:
            continue
        if score > best_score:
            best, best_score = action, score
    return best

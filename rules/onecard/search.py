"""Full One Card states consistent with one seat's view, for the ``hard`` player's search.

Only :class:`rules.onecard.state.OneCardView` goes in: the seat's own hand, the open card,
every card count and the table. The cards that seat cannot see (other hands and the main
deck, which also holds the cards played before the open one) are dealt at random from the
rest of the 54; the view holds no history, so every unseen card is as likely anywhere.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.cards import FULL_DECK
from rules.montecarlo import clone
from rules.onecard.state import (
    GAME,
    SCHEMA,
    OneCardView,
    State,
    restore,
    target_suits,
)
from rules.rng import GameRandom

__all__ = ["sample_snapshot", "sample_world"]

_TARGETS = {target_suits(t): t for t in range(6)}
# Every sampled world starts from this generator state (decoding one costs more than
# everything else in a snapshot); :func:`sample_world` reseeds each world's copies.
_RNG_STATE = GameRandom(0).getstate()


def sample_world(view: OneCardView, rng: random.Random) -> Callable[[], State]:
    """A factory of fresh copies of one world sampled for ``view``: each copy draws the same
    cards, from its own generator seeded by ``rng``."""
    world = restore(sample_snapshot(view, rng))
    seed = rng.getrandbits(63)
    return lambda: clone(world, seed)


def sample_snapshot(view: OneCardView, rng: random.Random) -> dict[str, Any]:
    """A snapshot (for :func:`rules.onecard.state.restore`) of a game whose
    ``view(view.seat)`` shows what ``view`` shows, the unseen cards dealt at random."""
    seat = view.seat
    if seat is None or view.hand is None or view.current is None:
        raise ValueError("a world is sampled for a seated player of a game in progress")
    seen = {card.index for card in view.hand} | {view.open_card.index}
    unseen = [i for i in range(len(FULL_DECK)) if i not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for other, count in enumerate(view.counts):
        if other == seat:
            hands.append([card.index for card in view.hand])
        else:
            hands.append(unseen[len(unseen) - count :])
            del unseen[len(unseen) - count :]
    assert len(unseen) == view.table - 1
    out = [s for s in range(view.players) if not view.playing[s]]
    return {
        "game": GAME,
        "schema": SCHEMA,
        "players": view.players,
        "seed": 0,
        "rng": _RNG_STATE,
        "hands": [[FULL_DECK[i].code for i in hand] for hand in hands],
        "deck": [FULL_DECK[i].code for i in unseen],
        "open": view.open_card.code,
        "target": _TARGETS[view.suits],
        "offense": view.offense,
        "direction": view.direction,
        "current": view.current,
        "phase": view.phase,
        "bankrupt": list(view.bankrupt),
        "forfeited": [not view.playing[s] and not view.bankrupt[s] for s in range(view.players)],
        # Who went out first only orders the losers of the finish: not in the view, not
        # needed by a search that plays for the win.
        "out_order": out,
        "out_cards": [0] * view.players,
        "log": [],
        "result": None,
    }

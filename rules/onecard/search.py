"""Full One Card states consistent with one seat's view, for the ``hard`` player's search.

Only :class:`rules.onecard.state.OneCardView` goes in: the seat's own hand, the open card,
every card count and the table. The cards that seat cannot see (other hands and the main
deck, which also holds the cards played before the open one) are dealt at random from the
rest of the 54, with one thing the table saw: a player who took cards held nothing that
played (``view.unfit``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.cards import FULL_DECK
from rules.montecarlo import clone
from rules.onecard.state import OneCardView, State, target_suits
from rules.rng import GameRandom

__all__ = ["sample_snapshot", "sample_world"]

_TARGETS = {target_suits(t): t for t in range(6)}


def sample_world(view: OneCardView, rng: random.Random) -> Callable[[], State]:
    """A factory of fresh copies of one world sampled for ``view``: each copy draws the same
    cards, from its own generator seeded by ``rng``."""
    world = _sample(view, rng, _WORLDS_RNG)
    seed = rng.getrandbits(63)
    return lambda: clone(world, seed)


def sample_snapshot(view: OneCardView, rng: random.Random) -> dict[str, Any]:
    """A snapshot (for :func:`rules.onecard.state.restore`) of a game whose
    ``view(view.seat)`` shows what ``view`` shows, the unseen cards dealt at random: the
    world :func:`sample_world` copies, as data."""
    return _sample(view, rng, GameRandom(0)).snapshot()


# The generator of every world :func:`sample_world` keeps: never drawn from, since only its
# copies play, each with a generator of its own. A world so costs no generator to build
# (restoring one from a snapshot was about a sixth of the hard player's time).
_WORLDS_RNG = GameRandom(0)


def _sample(view: OneCardView, rng: random.Random, generator: GameRandom) -> State:
    """The state of a game whose ``view(view.seat)`` shows what ``view`` shows, the unseen
    cards dealt at random by ``rng``, drawing from ``generator``."""
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
            continue
        known = view.unfit[other] if view.unfit else None
        hand: list[int] = []
        if known is not None and count:
            # Its cards known to be none of the mask: the last such cards of the shuffled
            # unseen ones, so a uniform pick among them. Seat after seat: with two such
            # seats the second's odds lean a little on the first's cards, close enough.
            mask, unfit = known
            for i in range(len(unseen) - 1, -1, -1):
                if len(hand) == min(unfit, count):
                    break
                if not (mask >> unseen[i]) & 1:
                    hand.append(unseen.pop(i))
        rest = count - len(hand)
        hand += unseen[len(unseen) - rest :]
        del unseen[len(unseen) - rest :]
        hands.append(hand)
    assert len(unseen) == view.deck_count - 1
    state = State(view.players, generator)
    state._hands = hands
    state._deck = unseen
    state._open = view.open_card.index
    state._target = _TARGETS[view.suits]
    state._offense = view.offense
    state._direction = view.direction
    state._current = view.current
    state._phase = view.phase
    state._playing = list(view.playing)
    state._bankrupt = list(view.bankrupt)
    state._forfeited = [not view.playing[s] and not view.bankrupt[s] for s in range(view.players)]
    # Who went out first only orders the losers of the finish: not in the view, not
    # needed by a search that plays for the win.
    state._out_order = [s for s in range(view.players) if not view.playing[s]]
    if view.unfit:
        state._unfit = list(view.unfit)
    return state

"""The computer player: a pure function from a :class:`GostopView` to an action.

It values cards by what they do for its own score (brights, birds towards godori, ribbons
towards a 단, pi towards ten) and for the opponent's: it takes what the opponent needs before
they can, avoids leaving such cards on the floor, always shows a shake and takes a bomb, and
calls Go only when ahead, with the opponent far from 7 and enough cards left to use it.

Levels: ``normal`` is that player. ``easy`` is a hasty human: half of its turns
(drawn from ``rng``) it takes the first capture it sees in its hand, whatever it is worth, and
it calls Go on a whim (three times in five while it holds cards) without looking at the
opponent's score. ``hard`` searches where it pays (:mod:`rules.gostop.search`): at Go/Stop it
plays both out to the end on sampled deals of the cards it has not seen and takes the better
mean point difference; its plays are the normal player's. It reads only its view.
"""

from __future__ import annotations

import random

from rules.engine import Action
from rules.gostop.cards import BIRDS, DANS, RAIN_BRIGHT, HwatuCard, Kind
from rules.gostop.events import Bomb, ChongtongChoice, Go, Play, Stop, TakeFlip
from rules.gostop.search import search
from rules.gostop.state import GostopView, PileView
from rules.levels import Level, decide

__all__ = ["choose_action"]

DEFAULT_SEED = 18  # the rng when none is given, so every level stays deterministic
EASY_HASTE = 0.5  # how often easy grabs the first capture it sees
EASY_GO = 0.6  # how often easy calls Go while it has cards
HARD_GO_SAMPLES = 96  # sampled deals for a Go/Stop decision (p99 about 140 ms CPU here)

GO_MIN_LEAD = 1  # Go only when strictly ahead ...
GO_OPPONENT_MAX = 3  # ... and the opponent has at most this many points ...
GO_MIN_HAND = 3  # ... and there are turns left to score more.
_DAN_OF = {i: cards for cards in DANS.values() for i in cards}


def _indices(pile: PileView) -> set[int]:
    return {c.index for c in (*pile.brights, *pile.animals, *pile.ribbons, *pile.pi)}


def _worth(card: HwatuCard, pile: PileView, held: set[int]) -> float:
    """How much ``card`` adds to the owner of ``pile`` (``held``: that pile's indices)."""
    kind = card.kind
    if kind is Kind.BRIGHT:
        value = 4.0 + 2.0 * len(pile.brights)
        return value - (1.0 if card.index == RAIN_BRIGHT else 0.0)
    if kind is Kind.ANIMAL:
        value = 2.0 + 0.5 * max(0, len(pile.animals) - 3)
        if card.index in BIRDS:
            value += 2.5 * len(BIRDS & held)
        return value
    if kind is Kind.RIBBON:
        value = 1.5 + 0.5 * max(0, len(pile.ribbons) - 3)
        dan = _DAN_OF.get(card.index)
        if dan is not None:
            value += 2.0 * len(dan & held)
        return value
    near_ten = 1.0 if pile.pi_value >= 7 else 0.0
    return card.pi_value * (1.2 + near_ten)


def _value(card: HwatuCard, view: GostopView, me: int) -> float:
    """Taking ``card``: what it gives me plus what it keeps from the opponent."""
    mine, theirs = view.piles[me], view.piles[1 - me]
    return _worth(card, mine, _indices(mine)) + 0.8 * _worth(card, theirs, _indices(theirs))


def _floor_of(view: GostopView, month: int) -> tuple[HwatuCard, ...]:
    for m, cards, _owner in view.floor:
        if m == month:
            return cards
    return ()


def _play_score(action: Action, view: GostopView, me: int) -> float:
    if isinstance(action, Bomb):
        cards = [c for c in view.hand or () if c.month == action.month]
        floor = _floor_of(view, action.month)
        return sum(_value(c, view, me) for c in (*cards, *floor)) + 6.0
    assert isinstance(action, Play)
    card = action.card
    if card.kind is Kind.BONUS:
        return 20.0  # free: taken at once, steals, and the turn goes on
    floor = _floor_of(view, card.month)
    shake = 3.0 if action.shake else 0.0
    if not floor:
        # Left on the floor: the opponent may take it; give away what matters least.
        theirs = view.piles[1 - me]
        return shake - 0.7 * _worth(card, theirs, _indices(theirs)) - 0.3 * _value(card, view, me)
    if len(floor) == 3:
        return sum(_value(c, view, me) for c in (card, *floor)) + 3.0
    target = action.target if action.target is not None else floor[0]
    return _value(card, view, me) + _value(target, view, me) + shake


def _should_go(view: GostopView, me: int) -> bool:
    mine = view.piles[me].score
    theirs = view.piles[1 - me].score
    hand = view.hand_sizes[me]
    return (
        mine - theirs >= GO_MIN_LEAD
        and theirs <= GO_OPPONENT_MAX
        and hand >= GO_MIN_HAND
        and view.pile_size >= 2 * GO_MIN_HAND
    )


def _normal(view: GostopView) -> Action:
    """The rule-of-thumb player (level ``normal``); also hard's rollout policy."""
    if view.seat is None or not view.legal:
        raise ValueError("the computer player needs the view of the seat to move")
    me = view.seat
    first = view.legal[0]
    if isinstance(first, ChongtongChoice):
        return ChongtongChoice(end=True)  # 10 points now beats a gamble
    if isinstance(first, Stop | Go):
        return Go() if _should_go(view, me) else Stop()
    if isinstance(first, TakeFlip):
        takes = [a for a in view.legal if isinstance(a, TakeFlip)]
        return max(takes, key=lambda a: _value(a.target, view, me))
    return max(view.legal, key=lambda a: _play_score(a, view, me))


def _easy(view: GostopView, rng: random.Random) -> Action:
    first = view.legal[0]
    if isinstance(first, Stop | Go):
        holding = view.hand_sizes[view.seat or 0] > 0
        return Go() if holding and rng.random() < EASY_GO else Stop()
    if isinstance(first, Play | Bomb) and rng.random() < EASY_HASTE:
        floor_months = {month for month, _cards, _stack in view.floor}
        for action in view.legal:
            if isinstance(action, Play) and action.card.month in floor_months:
                return action
    return _normal(view)


def _hard(view: GostopView, rng: random.Random) -> Action:
    if isinstance(view.legal[0], Stop | Go):
        return search(view, [Stop(), Go()], HARD_GO_SAMPLES, rng, _normal)
    # Searching plays too (the normal player's best three, a dozen deals each) measured no
    # better than its rule of thumb at three times the cost: the rollouts' noise outweighs
    # the differences between good plays, while Go/Stop swings whole games.
    return _normal(view)


def choose_action(
    view: GostopView, level: Level = Level.NORMAL, rng: random.Random | None = None
) -> Action:
    """The computer's move for the seat ``view`` belongs to; it must be that seat's turn.

    ``rng`` drives easy's slips and hard's sampling (a fixed seed when None)."""
    if view.seat is None or not view.legal:
        raise ValueError("the computer player needs the view of the seat to move")
    return decide(
        level, view, rng, easy=_easy, normal=_normal, hard=_hard, default_seed=DEFAULT_SEED
    )

"""Full Uno states consistent with one seat's view, for the ``hard`` player's search.

Only :class:`rules.uno.state.UnoView` goes in: the seat's own hand, the top card, every card
count and the table. The cards that seat cannot see (other hands, the draw pile, the discard
pile under its top card) are dealt at random from the rest of the deck; the view holds no
history, so every unseen card is as likely anywhere. A hand shown to the seat by a challenge
(``view.revealed``) stays where it was seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rules.engine import Action
from rules.montecarlo import clone
from rules.rng import GameRandom
from rules.uno.actions import CallUno, CatchUno, Challenge, ChooseColour, Draw, Pass, Play
from rules.uno.cards import (
    CARD_CODES,
    CARD_COLOUR,
    CARD_POINTS,
    CARD_RANK,
    COLOUR_NAMES,
    DECK_SIZE,
    NONE,
    RANK_NAMES,
    WILD,
    WILD_DRAW_FOUR,
)
from rules.uno.state import (
    _PLAYABLE,
    AFTER_DRAW,
    GAME,
    HOUSE_RULES,
    PHASE_NAMES,
    PLAY,
    SCHEMA,
    UnoState,
    UnoView,
    restore,
)

__all__ = ["normal_move", "quick_move", "sample_snapshot", "sample_world"]

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
    """A cruder cousin of :func:`normal_move` on the engine's ints (the hard player's first
    rollout policy, before the play-outs modelled the normal player exactly): the normal
    player's main rules of thumb. It says UNO and catches, plays the colour it holds most
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


_DRAW = Draw()
_THREAT = 2  # as the normal player's: the next player with this many cards is about to win
# By card: whether it is one of the normal player's attacks (+2, reverse, skip, W+4), and
# its rank's weight among equals (the number, 10 for a symbol).
_ATTACK = tuple(rank >= 10 and rank != WILD for rank in CARD_RANK)
_WEIGHT = tuple(min(rank, 10) for rank in CARD_RANK)


def normal_move(state: UnoState, seat: int) -> Action:
    """The normal player's decision (``rules.uno.ai._normal``) read off the engine's ints:
    the same action it takes from ``state.view(seat)``, without building the view, so a
    rollout's players are the very player the hard one meets at the table.

    Its scores are ``_normal``'s tuples packed into one int (the same order): first
    whether the play attacks the player about to win (or, -1, is a wild or -2 a 7 aimed at
    the wrong seat), then whether an attack is kept for later (or the wild names the
    colour held most), then the colour held most and the card's weight (or W before W+4).
    """
    if (
        seat == state.turn
        and state.phase == PLAY
        and not state.pending
        and not (state.seed_rules or state.uno_call or state.seven_zero)
    ):
        return _normal_turn(state, seat)
    legal = state.legal_actions(seat)
    for action in legal:
        cls = action.__class__
        if cls is CallUno or cls is CatchUno:
            return action
    hand = state.hands[seat]
    held, favourite = _colours_held(hand)
    no_bluff = not state.seed_rules and held[state.colour]
    hands = state.hands
    n = state.n
    threat = len(hands[(seat + state.direction) % n]) <= _THREAT
    fewest = -1
    best: Play | None = None
    best_score = 0
    for action in legal:
        if not isinstance(action, Play):
            continue
        card = hand[action.index]
        if CARD_COLOUR[card] == NONE:
            rank = CARD_RANK[card]
            if rank == WILD_DRAW_FOUR:
                if no_bluff:
                    continue
                score = (1 if threat else -1) * 1_000_000 + (2 if threat else 1)
            else:
                score = -1_000_000 + (1 if threat else 2)
            if action.colour != favourite:
                score -= 100_000
        else:
            target = action.target
            if target is not None:
                if fewest < 0:
                    fewest = min(
                        (s for s in range(n) if s != seat), key=lambda s: (len(hands[s]), s)
                    )
                if target != fewest:
                    score = -2_000_000
                    if best is None or score > best_score:
                        best, best_score = action, score
                    continue
            attack = _ATTACK[card]
            score = held[CARD_COLOUR[card]] * 20 + _WEIGHT[card]
            if attack:
                score += 1_000_000 if threat else -100_000
        if best is None or score > best_score:
            best, best_score = action, score
    if best is None:
        for action in legal:
            if isinstance(action, ChooseColour) and action.colour == favourite:
                return action
        for action in legal:
            if isinstance(action, (Draw, Pass)):
                return action
        return legal[0]
    if state.phase == AFTER_DRAW and not threat and CARD_COLOUR[hand[best.index]] == NONE:
        for action in legal:
            if action.__class__ is Pass:
                return action
    return best


def _colours_held(hand: Sequence[int]) -> tuple[list[int], int]:
    """How many cards of each colour (wilds last) the hand holds, and the colour held most
    (the first on a tie): what the normal player names for a wild."""
    held = [0, 0, 0, 0, 0]
    for card in hand:
        held[CARD_COLOUR[card]] += 1
    favourite = 0
    for colour in (1, 2, 3):
        if held[colour] > held[favourite]:
            favourite = colour
    return held, favourite


def _normal_turn(state: UnoState, seat: int) -> Action:
    """:func:`normal_move` on an ordinary official turn (nothing pending, no UNO to say, no
    7 to aim), the hot path of every play-out: the same choice straight off the hand, without
    listing the legal actions. Of a wild's four plays the one naming the colour held most
    scores best, so each card is scored once."""
    hand = state.hands[seat]
    held, favourite = _colours_held(hand)
    playable = _PLAYABLE[state.colour * 15 + CARD_RANK[state.discard[-1]]]
    no_bluff = held[state.colour]
    threat = len(state.hands[(seat + state.direction) % state.n]) <= _THREAT
    best = -1
    best_score = 0
    for index, card in enumerate(hand):
        if not playable[card]:
            continue
        colour = CARD_COLOUR[card]
        if colour == NONE:
            if CARD_RANK[card] == WILD_DRAW_FOUR:
                if no_bluff:
                    continue
                score = 1_000_002 if threat else -999_999
            else:
                score = -999_999 if threat else -999_998
        else:
            score = held[colour] * 20 + _WEIGHT[card]
            if _ATTACK[card]:
                score += 1_000_000 if threat else -100_000
        if best < 0 or score > best_score:
            best, best_score = index, score
    if best < 0:
        return _DRAW
    return Play(best, favourite) if CARD_COLOUR[hand[best]] == NONE else Play(best)

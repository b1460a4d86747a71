"""Determinized Monte Carlo for the hard Go-Stop player: search from a seat's view only.

:func:`determinize` deals the cards that seat has not seen (the opponent's hand and the pile)
at random into a full :class:`State`, built through ``restore`` from a snapshot made of
the view; every other field is read off the view (or, for the few counters a view does not
show, worked out from what it does show). :func:`search` tries each candidate on the same
sampled deals (so their comparison is paired) and plays each game out with the normal
player on both sides, scoring the point difference for the searching seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rules.engine import Action
from rules.gostop.cards import BONUS_SETS, DECK
from rules.gostop.state import (
    GAME,
    HAND_SIZE,
    SCHEMA,
    GostopView,
    Phase,
    State,
    restore,
)
from rules.rng import GameRandom

__all__ = ["determinize", "search", "unseen"]

# Nothing after the deal draws from a game's generator; a fixed one keeps snapshots valid.
_RNG_STATE = GameRandom(0).getstate()

Policy = Callable[[GostopView], Action]


def _seen(view: GostopView) -> list[int]:
    cards = [c.index for c in view.hand or ()]
    cards += [c.index for _month, floor, _stack in view.floor for c in floor]
    for pile in view.piles:
        cards += [c.index for c in (*pile.brights, *pile.animals, *pile.ribbons, *pile.pi)]
    cards += [c.index for c in view.in_play]
    return cards


def unseen(view: GostopView) -> list[int]:
    """The cards ``view``'s seat cannot see (the opponent's hand and the pile), sorted."""
    seen = set(_seen(view))
    deck = [*DECK, *BONUS_SETS[view.bonus_cards]]
    return sorted(c.index for c in deck if c.index not in seen)


def _captured(view: GostopView, seat: int) -> list[int]:
    pile = view.piles[seat]
    return [c.index for c in (*pile.brights, *pile.animals, *pile.ribbons, *pile.pi)]


def _turns(view: GostopView, seat: int) -> int:
    # A normal turn spends one hand card; a bomb spends three in one turn and owes two
    # flip-only turns (a bonus card is replaced from the pile, so it spends none).
    return max(0, HAND_SIZE - view.hand_sizes[seat] - view.flip_turns[seat])


def determinize(view: GostopView, rng: random.Random) -> State:
    """A full state agreeing with ``view``: the unseen cards dealt at random by ``rng``.

    Only for a seat deciding at the start of its turn or at Go/Stop, where nothing of the turn
    is pending.
    """
    me = view.seat
    if me is None or view.phase not in (Phase.PLAY, Phase.GO_STOP):
        raise ValueError("determinize needs the view of the seat to play or to call Go/Stop")
    hidden = unseen(view)
    rng.shuffle(hidden)
    opponent = 1 - me
    size = view.hand_sizes[opponent]
    if len(hidden) != size + view.pile_size:
        raise ValueError("the view does not add up to a whole deck")
    hands: list[list[int]] = [[], []]
    hands[me] = sorted(c.index for c in view.hand or ())
    hands[opponent] = sorted(hidden[:size])
    turns = [_turns(view, 0), _turns(view, 1)]
    # Opening ppuks (rule 16) count only while every turn so far was one.
    opening = [t if view.ppuks[s] >= t else 0 for s, t in enumerate(turns)]
    data: dict[str, Any] = {
        "game": GAME,
        "schema": SCHEMA,
        "rng": _RNG_STATE,
        "options": {"bonus_cards": view.bonus_cards, "nagari_carry": view.nagari_carry},
        "hands": hands,
        "floor": [c.index for _month, floor, _stack in view.floor for c in floor],
        "pile": hidden[size:],
        "captured": [_captured(view, 0), _captured(view, 1)],
        "stacks": [[m, s] for m, _cards, s in view.floor if s is not None],
        "pending": [],
        "choices": [],
        "win_reason": "",
        "log": [],
        "result": None,
        "goes": list(view.goes),
        "go_score": list(view.go_scores),
        "shakes": list(view.shakes),
        "bombs": list(view.bombs),
        "ppuks": list(view.ppuks),
        "opening": opening,
        "flip_turns": list(view.flip_turns),
        "turns": turns,
        "instant": list(view.instant),
        "dealer": view.dealer,
        "carry": view.nagari_carry,
        "redeals": view.redeals,
        "phase": view.phase,
        "seat": me,
        "played": -1,
        "played_n": 0,
        "flip": -1,
        "special": 0,
        "steals": 0,
    }
    return restore(data)


def _play_out(state: State, me: int, policy: Policy) -> int:
    seat = state.current_seat
    while seat is not None:
        state.apply(seat, policy(state.view(seat)))
        seat = state.current_seat
    assert state.result is not None
    scores = state.result.scores
    return scores[me] - scores[1 - me]


def search(
    view: GostopView,
    candidates: Sequence[Action],
    samples: int,
    rng: random.Random,
    policy: Policy,
) -> Action:
    """The candidate with the best mean point difference over ``samples`` sampled deals."""
    me = view.seat
    assert me is not None
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for _ in range(samples):
        snapshot = determinize(view, rng).snapshot()
        for i, action in enumerate(candidates):
            state = restore(snapshot)
            state.apply(me, action)
            totals[i] += _play_out(state, me, policy)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]

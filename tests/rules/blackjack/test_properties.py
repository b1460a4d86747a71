"""Blackjack's own invariants over thousands of random games: 2,000 seeded (the seed's
shoe) and 500 fair.

Each game: 1-7 seats, some held by computers from the start, one maybe handed over midway,
the humans choosing Hit or Stand at random. At every step the 208 cards are all somewhere
and the seat to act is a member's; at the end the House followed its rule, every seat's
result is the table's, and the seed and the logged inputs alone rebuild the game. That
refused moves change nothing and a restored snapshot plays on alike, the conformance suite
checks for every game (tests/conformance/).
"""

from __future__ import annotations

import random
from collections import Counter
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.blackjack as bj
from rules.cards import STANDARD_DECK
from rules.engine import GameOver, Outcome
from tests.rules.blackjack import reference

FULL_SHOE = Counter({card.index: 4 for card in STANDARD_DECK})
LETTERS = {"♣": "c", "♥": "h", "♦": "d", "♠": "s"}


def seed_program_names(indices: list[int]) -> list[str]:
    return [STANDARD_DECK[i].rank.label + LETTERS[STANDARD_DECK[i].suit.value] for i in indices]


def check_cards(state: bj.State) -> None:
    data = state.snapshot()
    cards = Counter(data["shoe"] + data["house"] + [i for hand in data["hands"] for i in hand])
    assert cards == FULL_SHOE
    assert len(data["shoe"]) == state.view(None).shoe


def check_end(state: bj.State, events: list[object]) -> None:
    result = state.result
    assert result is not None and isinstance(events[-1], GameOver)
    house = state.snapshot()["house"]
    hands = state.snapshot()["hands"]
    house_value = reference.value(seed_program_names(house))
    blackjack = any(isinstance(e, bj.HouseBlackjack) for e in events)
    if blackjack:
        assert len(house) == 2 and house_value == 21
    else:
        # The House drew while at 16 or less and stopped at 17 or more (rule 8).
        assert house_value >= 17
        assert all(
            reference.value(seed_program_names(house[:n])) <= 16 for n in range(2, len(house))
        )
    for seat, hand in enumerate(hands):
        value = reference.value(seed_program_names(hand))
        assert result.scores[seat] == value
        if blackjack or value > 21:
            expected = Outcome.LOSE
        elif house_value > 21 or value > house_value:
            expected = Outcome.WIN
        elif value == house_value:
            expected = Outcome.DRAW
        else:
            expected = Outcome.LOSE
        assert result.outcomes[seat] is expected
    assert sorted(result.ranking) == list(range(state.players))


GAME_SHAPES = {
    "players": st.integers(1, 7),
    "computers": st.sets(st.integers(0, 6)),
    "handover": st.integers(-1, 20),
    "policy": st.integers(0, 2**32 - 1),
}


@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(-(2**31), 2**32 - 1), **GAME_SHAPES)
def test_seeded_games_keep_every_invariant(
    *, seed: int, players: int, computers: set[int], handover: int, policy: int
) -> None:
    options = {"computers": sorted(s for s in computers if s < players)}
    state = bj.new(players, seed=seed, options=options)
    assert state.faithful
    play_and_check(state, random.Random(policy), handover)


@settings(max_examples=500, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), **GAME_SHAPES)
def test_fair_games_keep_every_invariant(
    *, seed: int, players: int, computers: set[int], handover: int, policy: int
) -> None:
    options = {"computers": sorted(s for s in computers if s < players)}
    with patch("rules.rng.new_seed", return_value=seed):
        state = bj.new(players, options=options)
    assert not state.faithful
    play_and_check(state, random.Random(policy), handover)


def play_and_check(state: bj.State, pick: random.Random, handover: int) -> None:
    """Play ``state`` out at random (handing the seat to act over at step ``handover``),
    checking every invariant at every step and at the end."""
    events: list[object] = list(state.opening_events)
    check_cards(state)
    steps = 0
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None and not state.is_computer(seat)
        if steps == handover:
            events += state.hand_to_computer(seat)
        else:
            events += state.apply(seat, pick.choice(state.legal_actions(seat)))
        check_cards(state)
        steps += 1
        assert steps < 200
    check_end(state, events)
    # The seed and the logged inputs alone rebuild the same game.
    assert bj.replay(state.snapshot()).snapshot() == state.snapshot()

"""Invariants over thousands of seeded random play-outs with 2-6 players (docs/design.md §2)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.crazyeights as ce
from rules.cards import STANDARD_DECK, SUITS, Card, Rank
from rules.engine import GameOver, IllegalAction, SnapshotError

MAX_DECISIONS = 3000
EVERY_REFUSAL_EACH = 8  # every this many decisions, every move not offered is tried
LEAVE_CHANCE = 0.004  # a seat leaves at about one decision in 250
Move = ce.PlayCard | ce.Draw | ce.Pass


def hands(state: ce.State) -> list[tuple[Card, ...]]:
    return [state.hand(seat) for seat in range(state.players)]


def pick(legal: list[Move], chooser: random.Random, draw_share: float) -> Move:
    """A random offered move: a card that fits mostly, a draw at ``draw_share`` of the
    turns where one fits too (always drawing would never end a game)."""
    plays = [a for a in legal if isinstance(a, ce.PlayCard)]
    if plays and chooser.random() >= draw_share:
        return chooser.choice(plays)
    return chooser.choice([a for a in legal if not isinstance(a, ce.PlayCard)] or plays)


def not_offered(state: ce.State, seat: int, legal: list[Move]) -> list[Move]:
    """Moves the engine must refuse now: cards in hand that do not fit, a card of another
    seat or the stock, an 8 without a suit, a suit with another card, Draw and Pass when
    they are not offered."""
    hand = state.hand(seat)
    elsewhere = [c for c in STANDARD_DECK if c not in hand]
    moves: list[Move] = [ce.PlayCard(c) for c in hand if ce.PlayCard(c) not in legal]
    moves += [ce.PlayCard(elsewhere[seat % len(elsewhere)])]
    moves += [ce.PlayCard(c) for c in hand if c.rank is Rank.EIGHT]
    moves += [ce.PlayCard(c, SUITS[0]) for c in hand[:2] if c.rank is not Rank.EIGHT]
    moves += [m for m in (ce.Draw(), ce.Pass()) if m not in legal]
    return [m for m in moves if m not in legal]


@settings(max_examples=500, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    players=st.integers(2, 6),
    policy=st.integers(0, 2**32),
    draw_share=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_random_playouts_keep_every_invariant(
    seed: int, players: int, policy: int, draw_share: float
) -> None:
    state = ce.new(players, seed=seed)
    chooser = random.Random(policy)
    check_at = chooser.randrange(40)
    copy: ce.State | None = None
    replay: list[tuple[int, Move | None]] = []  # None: the seat left
    decisions = 0
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        assert all(state.legal_actions(other) == [] for other in range(players) if other != seat)
        legal = state.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        before_hands = hands(state)
        before_stock = state.stock()
        before_pile = state.discard_pile()
        # A move that is not offered is refused, and nothing changes. Now and then every
        # such move is tried, with the whole snapshot compared; otherwise one, with the cards.
        every = decisions % EVERY_REFUSAL_EACH == 0
        if every:
            before_snapshot = state.snapshot()
        refusals = not_offered(state, seat, legal)
        for refused in refusals if every else refusals[:1]:
            with pytest.raises(IllegalAction) as error:
                state.apply(seat, refused)
            assert error.value.reason and error.value.code
        if every:
            assert state.snapshot() == before_snapshot
        assert hands(state) == before_hands and state.discard_pile() == before_pile
        if chooser.random() < LEAVE_CHANCE:
            leaver = chooser.randrange(players)
            if state.view(None).playing[leaver]:
                state.forfeit(leaver)
                if copy is not None:
                    replay.append((leaver, None))
                assert state.hand(leaver) == ()
                continue
        action = pick(legal, chooser, draw_share)
        events = state.apply(seat, action)
        decisions += 1
        if copy is not None:
            replay.append((seat, action))
        after = hands(state)
        # The 52 cards, each once, always.
        pack = [*state.stock(), *state.discard_pile(), *(c for h in after for c in h)]
        assert len(pack) == 52 and set(pack) == set(STANDARD_DECK)
        if isinstance(action, ce.PlayCard):
            assert list(after[seat]) == [c for c in before_hands[seat] if c is not action.card]
            assert state.discard_pile() == (*before_pile, action.card)
            assert state.suit is (action.suit or action.card.suit)
        elif isinstance(action, ce.Draw):
            # One card, from the top of the stock, or from the old pile shuffled into it.
            assert after[seat][:-1] == before_hands[seat]
            drawn = after[seat][-1]
            if before_stock:
                assert drawn is before_stock[0] and state.stock() == before_stock[1:]
            else:
                assert drawn in before_pile[:-1] and state.discard_pile() == before_pile[-1:]
            assert state.current_seat == seat
        else:
            assert after == before_hands and not before_stock and len(before_pile) == 1
        for other in range(players):
            if other != seat:
                assert after[other] == before_hands[other]
        assert not state.is_over or isinstance(events[-1], GameOver)
        assert all(not isinstance(e, GameOver) for e in events[:-1])
        if decisions == check_at:
            data = json.loads(json.dumps(state.snapshot()))
            copy = ce.restore(data)
            assert copy.snapshot() == data
        assert decisions < MAX_DECISIONS, "the game did not end"
    result = state.result
    assert result is not None and len(result.winners) == 1
    assert sorted(result.ranking) == list(range(players))
    assert state.current_seat is None
    if copy is not None:
        for seat, move in replay:
            if move is None:
                copy.forfeit(seat)
            else:
                copy.apply(seat, move)
        assert copy.snapshot() == state.snapshot()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_state_restores_to_itself_and_shows_every_seat_the_same(players: int) -> None:
    for seed in range(6):
        state = ce.new(players, seed=seed * 7 + players)
        chooser = random.Random(seed)
        while not state.is_over:
            data = json.loads(json.dumps(state.snapshot()))
            copy = ce.restore(data)
            assert copy.snapshot() == data
            assert all(copy.view(s) == state.view(s) for s in (None, *range(players)))
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, pick(state.legal_actions(seat), chooser, 0.1))
        copy = ce.restore(json.loads(json.dumps(state.snapshot())))
        assert copy.result == state.result and copy.view(0) == state.view(0)


def test_restore_refuses_another_game_and_damaged_snapshots() -> None:
    state = ce.new(3, seed=1)
    data = state.snapshot()
    damaged = [
        {**data, "game": "onecard"},
        {**data, "schema": 2},
        {**data, "stock": data["stock"][1:]},  # a card lost
        {**data, "stock": [*data["stock"], data["discard"][0]]},  # a card twice
        {**data, "hands": "nonsense"},
        {**data, "suit": 4},
        {**data, "current": 3},
        {**data, "out_order": [0, 0]},
        {**data, "players": 7},
        {key: value for key, value in data.items() if key != "rng"},
    ]
    for bad in damaged:
        with pytest.raises(SnapshotError):
            ce.restore(bad)
    assert ce.restore(data).snapshot() == data


def test_unknown_options_are_refused() -> None:
    with pytest.raises(IllegalAction, match="options") as error:
        ce.new(2, seed=1, options={"jokers": True})
    assert error.value.code == "options"
    assert ce.new(2, seed=1, options={}).snapshot() == ce.new(2, seed=1).snapshot()

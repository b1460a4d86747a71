"""Invariants over thousands of seeded random playouts with 2-4 players (DESIGN.md section 2)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.onecard as oc
from rules.cards import FULL_DECK
from rules.engine import GameOver, IllegalAction

MAX_DECISIONS = 5000


def hands(state: oc.State) -> list[tuple[object, ...]]:
    return [state.hand(seat) for seat in range(state.players)]


@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 4), policy=st.integers(0, 2**32))
def test_random_playouts_keep_every_invariant(seed: int, players: int, policy: int) -> None:
    state = oc.new(players, seed=seed)
    chooser = random.Random(policy)
    check_at = chooser.randrange(60)
    copy: oc.State | None = None
    replay: list[tuple[int, oc.PlayCard | oc.Take]] = []
    decisions = 0
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        assert all(state.legal_actions(other) == [] for other in range(players) if other != seat)
        legal = state.legal_actions(seat)
        before_hands = hands(state)
        before_open = state.open_card
        before_deck = set(state.main_deck())
        # Every card in hand that is not offered is refused, and nothing changes.
        offered = {a.card for a in legal if isinstance(a, oc.PlayCard)}
        refused = next((c for c in before_hands[seat] if c not in offered), None)
        if refused is not None:
            try:
                state.apply(seat, oc.PlayCard(refused))
            except IllegalAction as error:
                assert error.reason
            else:
                raise AssertionError(f"{refused} was accepted but not offered")
            assert hands(state) == before_hands and state.open_card == before_open
        action = chooser.choice(legal)
        events = state.apply(seat, action)
        decisions += 1
        if copy is not None:
            replay.append((seat, action))
        after = hands(state)
        # 54 distinct cards, always.
        everything = [*state.main_deck(), *(c for h in after for c in h)]
        assert len(everything) == 54 and set(everything) == set(FULL_DECK)
        if isinstance(action, oc.PlayCard):
            # The card left this hand, and only by this legal play.
            assert action.card not in after[seat] and state.open_card is action.card
            assert list(after[seat]) == [c for c in before_hands[seat] if c is not action.card]
        else:
            # Draws come from the main deck and never take the open card.
            gained = after[seat][len(before_hands[seat]) :] if after[seat] else ()
            assert before_open not in gained and set(gained) <= before_deck
            assert state.open_card is before_open
        for other in range(players):
            if other != seat and after[other]:
                assert after[other] == before_hands[other]
        assert not state.is_over or isinstance(events[-1], GameOver)
        if decisions == check_at:
            data = json.loads(json.dumps(state.snapshot()))
            copy = oc.restore(data)
            assert copy.snapshot() == data
        assert decisions < MAX_DECISIONS, "the game did not end"
    result = state.result
    assert result is not None and len(result.winners) == 1
    assert sorted(result.ranking) == list(range(players))
    if copy is not None:
        for seat, action in replay:
            copy.apply(seat, action)
        assert copy.snapshot() == state.snapshot()

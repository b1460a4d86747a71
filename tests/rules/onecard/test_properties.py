"""One Card's invariants over thousands of seeded random playouts with 2-4 players
(docs/design.md §2): 54 cards, what a play or a take does to the hands and the deck, every
card in hand that is not offered refused, one winner. The contract every game keeps (only
the seat to act moves, GameOver last, every seat ranked, restore plays on alike) the
conformance suite checks (tests/conformance/)."""

from __future__ import annotations

import json
import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

import rules.onecard as oc
from rules.cards import FULL_DECK
from rules.engine import IllegalAction

MAX_DECISIONS = 5000
EVERY_REFUSAL_EACH = 8  # every this many decisions, every card that is not legal is tried


def hands(state: oc.State) -> list[tuple[object, ...]]:
    return [state.hand(seat) for seat in range(state.players)]


@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 4), policy=st.integers(0, 2**32))
# A seat played its last card while the table's record said some of its cards fit none of an
# earlier open card: the record kept a count of 0, which restore refused as damaged.
@example(seed=622_946_418_657, players=3, policy=145_803_210)
def test_random_playouts_keep_every_invariant(seed: int, players: int, policy: int) -> None:
    state = oc.new(players, seed=seed)
    chooser = random.Random(policy)
    check_at = chooser.randrange(60)
    decisions = 0
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        legal = state.legal_actions(seat)
        before_hands = hands(state)
        before_open = state.open_card
        before_deck = set(state.main_deck())
        # A card in hand that is not offered is refused, and nothing changes. Now and then
        # every such card is tried, and a card from the main deck (not in the hand) too,
        # with the whole snapshot compared; otherwise one card, with the cards compared.
        offered = {a.card for a in legal if isinstance(a, oc.PlayCard)}
        not_legal = [c for c in before_hands[seat] if c not in offered]
        every = decisions % EVERY_REFUSAL_EACH == 0
        if every:
            before_snapshot = state.snapshot()
            not_legal.append(chooser.choice(sorted(before_deck, key=lambda c: c.index)))
        for refused in not_legal if every else not_legal[:1]:
            try:
                state.apply(seat, oc.PlayCard(refused))
            except IllegalAction as error:
                assert error.reason
            else:
                raise AssertionError(f"{refused} was accepted but not offered")
            assert hands(state) == before_hands and state.open_card == before_open
        if every:
            assert state.snapshot() == before_snapshot
        action = chooser.choice(legal)
        events = state.apply(seat, action)
        decisions += 1
        after = hands(state)
        # 54 distinct cards, always.
        everything = [*state.main_deck(), *(c for h in after for c in h)]
        assert len(everything) == 54 and set(everything) == set(FULL_DECK)
        if isinstance(action, oc.PlayCard):
            # The card left this hand, and only by this legal play.
            assert action.card not in after[seat] and state.open_card is action.card
            assert list(after[seat]) == [c for c in before_hands[seat] if c is not action.card]
        elif any(isinstance(e, oc.Bankrupt) and e.seat == seat for e in events):
            assert after[seat] == ()  # rule 22: every card went back to the main deck
        else:
            # The cards in hand stay as they were; the draws come from the main deck, as many
            # as the events say, and never take the open card.
            kept = len(before_hands[seat])
            assert after[seat][:kept] == before_hands[seat]
            gained = after[seat][kept:]
            told = sum(
                e.count if isinstance(e, oc.CardsTaken) else e.received
                for e in events
                if isinstance(e, oc.CardsTaken | oc.AttackTaken)
            )
            assert len(gained) == told
            assert before_open not in gained and set(gained) <= before_deck
            assert state.open_card is before_open
        for other in range(players):
            if other != seat and after[other]:
                assert after[other] == before_hands[other]
        if decisions == check_at:  # the example's position: restore once refused it
            data = json.loads(json.dumps(state.snapshot()))
            assert oc.restore(data).snapshot() == data
        assert decisions < MAX_DECISIONS, "the game did not end"
    result = state.result
    assert result is not None and len(result.winners) == 1

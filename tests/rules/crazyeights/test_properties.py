"""Crazy Eights' own invariants over thousands of seeded random play-outs with 2-6 players
(docs/design.md §2): the 52 cards conserved, a draw from the stock's top or the reshuffled
pile. What every game keeps (a refusal changes nothing, a restored game plays on the same,
every seat's view) is the conformance suite's (tests/conformance/)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.crazyeights as ce
from rules.cards import STANDARD_DECK, Card
from rules.engine import GameOver

MAX_DECISIONS = 3000
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
        if chooser.random() < LEAVE_CHANCE:
            leaver = chooser.randrange(players)
            if state.view(None).playing[leaver]:
                state.forfeit(leaver)
                assert state.hand(leaver) == ()
                continue
        action = pick(legal, chooser, draw_share)
        events = state.apply(seat, action)
        decisions += 1
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
        assert decisions < MAX_DECISIONS, "the game did not end"
    result = state.result
    assert result is not None and len(result.winners) == 1
    assert sorted(result.ranking) == list(range(players))
    assert state.current_seat is None

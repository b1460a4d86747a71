"""Invariants over thousands of seeded random games per ruleset, 2-10 players, house rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import GameOver, IllegalAction
from rules.uno import CardPlayed, Draw, Play, RuleBroken, UnoState, new

# Documented cap: a random game still running after this many actions is stopped (checked
# below to be rare); the engine's own stop is the blocked table (see rules/uno/state.py).
CAP = 3000
HOUSE = st.fixed_dictionaries(
    {
        "stacking": st.booleans(),
        "draw_until_playable": st.booleans(),
        "jump_in": st.booleans(),
        "seven_zero": st.booleans(),
        "uno_call": st.booleans(),
    }
)


def cards_held(state: UnoState) -> int:
    return len(state.pile) + len(state.discard) + sum(map(len, state.hands))


def probe_illegal(state: UnoState, seat: int, rand: random.Random) -> None:
    """A play the rules do not allow: refused unchanged (official) or penalised (seed)."""
    legal = {a for a in state.legal_actions(seat) if isinstance(a, Play)}
    hand = state.hands[seat]
    candidates = [Play(i, 0) for i in range(len(hand)) if Play(i, 0) not in legal]
    candidates = [a for a in candidates if all(p.index != a.index for p in legal)]
    action = rand.choice([*candidates, Play(len(hand) + 3)])
    before_hand = list(hand)
    before_top = state.top
    if not state.seed_rules:
        snapshot = state.snapshot()
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
        assert state.snapshot() == snapshot
        return
    events = state.apply(seat, action)
    assert any(isinstance(e, RuleBroken) for e in events)
    assert state.top == before_top
    assert state.hands[seat][: len(before_hand)] == before_hand  # nothing left the hand


def playout(ruleset: str, players: int, seed: int, house: dict[str, bool]) -> None:
    state = new(players, seed=seed, options={"ruleset": ruleset, **house})
    rand = random.Random(seed)
    assert cards_held(state) == 108
    steps = 0
    events: list[object] = []
    while not state.is_over and steps < CAP:
        steps += 1
        seat = state.turn
        if house["jump_in"] or house["uno_call"]:
            other = rand.randrange(players)
            extra = state.legal_actions(other) if other != seat else []
            if extra and rand.random() < 0.3:
                events = state.apply(other, rand.choice(extra))
                assert cards_held(state) == 108
                continue
        if rand.random() < 0.05 and state.phase == 0 and not state.pending:
            probe_illegal(state, seat, rand)
            events = []
            assert cards_held(state) == 108
            continue
        legal = state.legal_actions(seat)
        plays = [a for a in legal if isinstance(a, Play)]
        action = rand.choice(plays if plays and rand.random() < 0.9 else legal)
        card = state.hands[seat][action.index] if isinstance(action, Play) else None
        hand_size = len(state.hands[seat])
        events = state.apply(seat, action)
        assert cards_held(state) == 108
        if card is not None:
            assert isinstance(events[0], CardPlayed)
            assert state.top == card
            assert card not in state.hands[seat] or house["seven_zero"]
        elif isinstance(action, Draw):
            assert len(state.hands[seat]) >= hand_size
    assert sorted([*state.pile, *state.discard, *(c for h in state.hands for c in h)]) == list(
        range(108)
    )
    if state.is_over:
        result = state.result
        assert result is not None
        assert sorted(result.ranking) == list(range(players))
        assert isinstance(events[-1], GameOver)
        assert state.current_seat is None
        if any(not h for h in state.hands):
            assert result.winners == (result.ranking[0],)
            assert not state.hands[result.winners[0]]
    else:
        assert steps == CAP


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**63 - 1), house=HOUSE)
def test_official_playouts_keep_the_invariants(
    players: int, seed: int, house: dict[str, bool]
) -> None:
    playout("official", players, seed, house)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 10), seed=st.integers(0, 2**63 - 1), house=HOUSE)
def test_seed_playouts_keep_the_invariants(players: int, seed: int, house: dict[str, bool]) -> None:
    playout("seed", players, seed, house)


def test_random_games_end_well_before_the_cap() -> None:
    ended = 0
    for seed in range(200):
        for ruleset in ("official", "seed"):
            state = new(2 + seed % 9, seed=seed, options={"ruleset": ruleset})
            rand = random.Random(seed)
            for _ in range(CAP):
                if state.is_over:
                    ended += 1
                    break
                legal = state.legal_actions(state.turn)
                plays = [a for a in legal if isinstance(a, Play)]
                state.apply(state.turn, rand.choice(plays or legal))
    assert ended == 400

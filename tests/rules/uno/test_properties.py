"""Uno's invariants over thousands of seeded random games per ruleset, 2-10 players, house
rules: 108 cards, every play judged from the card codes alone (what is listed, what is
refused, what seed rule 11 penalises), the winner the seat that went out, random games ending
well before the cap. The contract every game keeps (GameOver last, every seat ranked, restore
plays on alike) the conformance suite checks (tests/conformance/)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Action, IllegalAction
from rules.uno import (
    CallUno,
    CardPlayed,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Pass,
    Play,
    RuleBroken,
    State,
    new,
    restore,
)
from rules.uno.cards import CARD_CODES

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


def cards_held(state: State) -> int:
    return len(state.pile) + len(state.discard) + sum(map(len, state.hands))


IN_PLAY = ("red", "green", "blue", "yellow", "none")  # state.colour as docs/rules/uno.md names it


def judge(state: State, seat: int, action: Play) -> str:
    """What docs/rules/uno.md makes of this play: ``legal``, ``penalty`` (seed rule 11) or
    ``refused``, worked out from the card codes alone, never from legal_actions or the
    engine's tables, so an over- or under-permissive legal_actions fails against it.

    An official Wild Draw Four held with the colour in play counts as legal: rule 5 is
    enforced by rule 8's challenge (see rules/uno/state.py).
    """
    hand = state.hands[seat]
    my_turn = seat == state.turn
    seed_program_penalty = (
        "penalty" if state.seed_program_rules and my_turn and state.phase == 0 else "refused"
    )
    if not 0 <= action.index < len(hand):
        return seed_program_penalty
    colour, _, rank = CARD_CODES[hand[action.index]].partition("_")
    top_colour, _, top_rank = CARD_CODES[state.top].partition("_")
    in_play = IN_PLAY[state.colour]
    house = state.options
    wild = colour == "none"
    if wild:
        colour_ok = action.colour in (0, 1, 2, 3) or (
            state.seed_program_rules and action.colour is None
        )
    else:
        colour_ok = action.colour is None  # the seed: a colour only counts on W and W+4
    if house["seven_zero"] and rank == "7" and len(hand) > 1:  # rule 18; going out swaps nothing
        target_ok = action.target in range(state.n) and action.target != seat
        target_ok = target_ok or (state.seed_program_rules and action.target is None)
    else:
        target_ok = action.target is None
    if not (colour_ok and target_ok):
        return "refused"
    if not my_turn:  # rule 17
        fits = house["jump_in"] and state.phase == 0 and not state.pending
        fits = fits and not wild and (colour, rank) == (top_colour, top_rank)
    elif state.phase == 2:  # rule 4: the colour of a wild turned first comes first
        fits = False
    elif state.pending:  # rule 15
        fits = house["stacking"] and rank == top_rank
    elif state.phase == 1 and action.index != len(hand) - 1:  # rule 6: only the drawn card
        return "refused"
    else:  # rules 5, 12 and 14
        fits = wild or colour == in_play or rank == top_rank or in_play == "none"
    return "legal" if fits else seed_program_penalty


def every_kind_of_action(state: State, seat: int) -> list[Action]:
    """Plays of every index (and two beyond) with every colour and target, and each other
    kind of action, well-formed or not."""
    n = state.n
    actions: list[Action] = [Draw(), Pass(), Challenge(), CallUno()]
    actions += [ChooseColour(c) for c in (0, 3, 4, -1)]
    actions += [CatchUno(t) for t in range(-1, n + 1)]
    targets = sorted({-1, seat, (seat + 1) % n, (seat - 1) % n, n})
    for i in range(-1, len(state.hands[seat]) + 1):
        actions += [Play(i), Play(i, 0, (seat + 1) % n)]
        actions += [Play(i, c) for c in (0, 3, 4, -1)]
        actions += [Play(i, None, t) for t in targets]
    return actions


def probe_every_refusal(state: State, seat: int) -> None:
    """Every action legal_actions does not list is refused with nothing changed, or (seed
    rule 11) penalised, exactly where :func:`judge` says; every listed play is one it allows."""
    before = state.snapshot()
    legal = set(state.legal_actions(seat))
    for action in every_kind_of_action(state, seat):
        verdict = judge(state, seat, action) if isinstance(action, Play) else None
        if verdict is not None:
            assert (verdict == "legal") == (action in legal), (action, verdict)
        if action in legal:
            continue
        if verdict == "penalty":
            copy = restore(before)
            hand = list(copy.hands[seat])
            events = copy.apply(seat, action)
            assert any(isinstance(e, RuleBroken) for e in events)
            assert copy.top == state.top
            assert copy.hands[seat][: len(hand)] == hand  # nothing left the hand
            assert copy.turn != seat or copy.n == 1
            continue
        with pytest.raises(IllegalAction):
            state.apply(seat, action)
    assert state.snapshot() == before


def playout(ruleset: str, players: int, seed: int, house: dict[str, bool]) -> None:
    state = new(players, seed=seed, options={"ruleset": ruleset, **house})
    rand = random.Random(seed)
    assert cards_held(state) == 108
    steps = 0
    probe_at = rand.randrange(1, 60)  # one decision per game: each probe costs a playout
    while not state.is_over and steps < CAP:
        steps += 1
        seat = state.turn
        if steps == probe_at:
            probe_every_refusal(state, seat)
            probe_every_refusal(state, rand.randrange(players))
        if house["jump_in"] or house["uno_call"]:
            other = rand.randrange(players)
            extra = state.legal_actions(other) if other != seat else []
            if extra and rand.random() < 0.3:
                action = rand.choice(extra)
                if isinstance(action, Play):
                    assert judge(state, other, action) == "legal", action
                state.apply(other, action)
                assert cards_held(state) == 108
                continue
        legal = state.legal_actions(seat)
        plays = [a for a in legal if isinstance(a, Play)]
        action = rand.choice(plays if plays and rand.random() < 0.9 else legal)
        card = None
        if isinstance(action, Play):
            assert judge(state, seat, action) == "legal", action
            card = state.hands[seat][action.index]
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

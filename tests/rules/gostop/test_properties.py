"""Go-Stop's invariants over thousands of seeded playouts (docs/design.md §2): every card in
one place, piles scored as their cards make them, how each game ends and what it scores, and
every move of every kind (twins too) accepted exactly when listed. The contract every game
keeps (only the seat to act moves, no hidden card in a view, GameOver last, restore plays on
alike) the conformance suite checks (tests/conformance/)."""

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import Action, IllegalAction, Outcome
from rules.gostop import Bomb, ChongtongChoice, Go, State, Stop, TakeFlip, new, restore
from rules.gostop.cards import CARDS, TWIN, HwatuCard
from rules.gostop.events import Play
from rules.gostop.scoring import breakdown
from rules.gostop.state import GostopView

DECK_SIZE = {0: 48, 2: 50, 3: 51}


def visible_cards(view: GostopView) -> list[int]:
    cards = [c.index for _, cs, _ in view.floor for c in cs]
    for p in view.piles:
        cards += [c.index for c in (*p.brights, *p.animals, *p.ribbons, *p.pi)]
    cards += [c.index for c in view.in_play]
    return cards


def check_view(state: State, total: int) -> None:
    public = state.view(None)
    views = (state.view(0), state.view(1))
    shown = visible_cards(public)
    # Cards are conserved: every card is in exactly one place.
    assert len(shown) == len(set(shown))
    assert len(shown) + sum(public.hand_sizes) + public.pile_size == total
    for seat in (0, 1):
        pile = public.piles[seat]
        # A pile's score is its breakdown's sum, and the breakdown is what its cards make.
        fields = pile.breakdown
        assert pile.score == (
            fields.bright + fields.animal + fields.ribbon + fields.pi + fields.godori + fields.dan
        )
        cards = [c.index for c in (*pile.brights, *pile.animals, *pile.ribbons, *pile.pi)]
        assert breakdown(cards, gukjin_as_double=fields.gukjin_as_double) == fields
        assert len(views[seat].hand or ()) == public.hand_sizes[seat]


def play(seed: int, bonus: int) -> State:
    state = new(2, seed=seed, options={"bonus_cards": bonus})
    policy = random.Random(seed)
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        check_view(state, DECK_SIZE[bonus])
        actions = state.legal_actions(seat)
        state.apply(seat, actions[policy.randrange(len(actions))])
    return state


@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), bonus=st.sampled_from([0, 0, 2, 3]))
def test_random_playouts_keep_every_invariant(seed: int, bonus: int) -> None:
    state = play(seed, bonus)
    result = state.result
    assert result is not None
    # Every game ends in a win or a nagari.
    if state.win_reason == "nagari":
        assert result.outcomes == (Outcome.DRAW, Outcome.DRAW)
    else:
        assert sorted(o.value for o in result.outcomes) == ["lose", "win"]
    instant = state.view(None).instant
    if state.win_reason == "stop":
        sheet = state.settlement
        assert sheet is not None
        (winner,) = result.winners
        assert sheet.base == sheet.breakdown.total
        # Stopping needs 7, and the 국진 stays where play placed it (rule 21: one placement).
        assert sheet.breakdown == state.view(None).piles[winner].breakdown
        assert sheet.base >= 7
        assert sheet.total == (sheet.base + sheet.go_bonus) * sheet.multiplier
        assert result.scores[winner] == sheet.total + instant[winner]
        assert result.scores[1 - winner] == instant[1 - winner]
    elif state.win_reason == "nagari":
        assert result.scores == instant


def test_playouts_reach_every_kind_of_ending() -> None:
    """Random play, but always Go when asked: nagaris (rule 25) are rare otherwise."""
    reasons: set[str] = set()
    for seed in range(2000):
        state = new(2, seed=seed)
        policy = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            actions = state.legal_actions(seat)
            go = [a for a in actions if isinstance(a, Go)]
            state.apply(seat, go[0] if go else actions[policy.randrange(len(actions))])
        reasons.add(state.win_reason)
    assert reasons == {"stop", "chongtong", "three-ppuk", "nagari"}


def candidate_actions(snap: dict[str, Any], seat: int, deck: int) -> list[Action]:
    """Actions of every kind a player might send now: each legal one and many near misses.

    Every card of the game played; each card in hand also shaken, and aimed at each floor card
    of its month and at one of another month; a bomb of every month (0 and 13 too); the flip
    aimed at every floor card; Go, Stop and both chongtong answers.
    """
    floor: list[int] = snap["floor"]
    hand = [CARDS[c] for c in snap["hands"][seat]]
    actions: list[Action] = [Go(), Stop(), ChongtongChoice(end=False), ChongtongChoice(end=True)]
    actions += [Bomb(m) for m in range(14)]
    actions += [TakeFlip(CARDS[f]) for f in floor]
    actions += [Play(CARDS[c]) for c in range(deck)]
    for card in hand:
        actions.append(Play(card, shake=True))
        targets = [f for f in floor if CARDS[f].month == card.month]
        targets += [f for f in floor if CARDS[f].month != card.month][:1]
        actions += [Play(card, CARDS[f], shake) for f in targets for shake in (False, True)]
    return actions


def held_twin(action: Action, listed: set[Action]) -> Action | None:
    """The listed move ``action`` stands for when it names a card's twin (two identical cards
    are one card to every rule), else ``None``."""
    if isinstance(action, Play):
        targets = [None] if action.target is None else with_twin(action.target)
        for card in with_twin(action.card):
            for target in targets:
                if (move := Play(card, target, action.shake)) in listed:
                    return move
    elif isinstance(action, TakeFlip):
        for target in with_twin(action.target):
            if (move := TakeFlip(target)) in listed:
                return move
    return None


def with_twin(card: HwatuCard) -> list[HwatuCard]:
    return [card] if TWIN[card.index] < 0 else [card, CARDS[TWIN[card.index]]]


def test_every_listed_action_is_accepted_and_every_other_refused() -> None:
    """Over thousands of decisions: whatever is not listed is refused and changes nothing.

    Every listed action is also among the candidates (so the candidates cover every kind), and
    every 8th decision applies each listed one to a copy.
    """
    decisions = 0
    for seed in range(400):
        bonus = (0, 2, 3)[seed % 3]
        state = new(2, seed=seed, options={"bonus_cards": bonus})
        policy = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions(seat)
            snap = state.snapshot()
            candidates = candidate_actions(snap, seat, DECK_SIZE[bonus])
            listed = set(legal)
            assert listed <= set(candidates)
            for action in candidates:
                if action in listed:
                    continue
                twin = held_twin(action, listed)
                try:
                    events = state.apply(seat, action)
                except IllegalAction:
                    pass
                else:
                    # Only a twin of a listed move is accepted: as exactly that move.
                    assert twin is not None, f"{action} was accepted but not listed"
                    assert events == restore(snap).apply(seat, twin)
                    state = restore(snap)
                    continue
                assert twin is None, f"{action} names the twin of {twin} and was refused"
            assert state.snapshot() == snap
            if decisions % 8 == 0:
                for action in legal:
                    restore(snap).apply(seat, action)
            state.apply(seat, legal[policy.randrange(len(legal))])
            decisions += 1
    assert decisions > 5000

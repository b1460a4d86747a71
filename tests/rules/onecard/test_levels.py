"""The easy and hard levels: always legal, repeatable per seed, view-only."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import rules.onecard as oc
import rules.onecard.ai as onecard_ai
from rules.cards import Card, Suit, parse_card
from rules.levels import Level
from rules.onecard.ai import choose_action, legal_moves
from rules.onecard.search import sample_world


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def positions(count: int) -> Iterator[oc.State]:
    """Seeded games of 2-4 players stopped part-way."""
    for seed in range(count):
        state = oc.new(2 + seed % 3, seed=seed)
        for _ in range(random.Random(seed).randrange(40)):
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat), Level.EASY, random.Random(seed)))
        if not state.is_over:
            yield state


def seat_view(state: oc.State) -> oc.OneCardView:
    seat = state.current_seat
    assert seat is not None
    return state.view(seat)


@pytest.fixture
def quick_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small search budget: legality does not depend on it, and the tests stay fast."""
    monkeypatch.setattr(onecard_ai, "HARD_ROLLOUTS", 8)
    monkeypatch.setattr(onecard_ai, "HARD_MIN_WORLDS", 2)


def test_sampled_worlds_show_the_seat_exactly_its_view() -> None:
    for state in positions(80):
        view = seat_view(state)
        assert legal_moves(view) == state.legal_actions(state.current_seat or 0)
        world = sample_world(view, random.Random(1))()
        assert world.view(view.seat) == view


@pytest.mark.parametrize("level", [Level.EASY, Level.HARD])
@pytest.mark.usefixtures("quick_hard")
def test_every_level_plays_legally_and_repeatably(level: Level) -> None:
    for state in positions(60):
        view = seat_view(state)
        action = choose_action(view, level, random.Random(5))
        assert action in state.legal_actions(state.current_seat or 0)
        assert choose_action(view, level, random.Random(5)) == action
        assert choose_action(view, level) == choose_action(view, level)  # rng=None: fixed seed


def _hide_differently(state: oc.State, seed: int) -> oc.State:
    """The same game with every card the seat to act cannot see dealt again at random."""
    snapshot = state.snapshot()
    seat = state.current_seat
    others = [s for s in range(state.players) if s != seat]
    hidden = list(snapshot["deck"])
    for other in others:
        hidden += snapshot["hands"][other]
    random.Random(seed).shuffle(hidden)
    for other in others:
        count = len(snapshot["hands"][other])
        snapshot["hands"][other], hidden = hidden[:count], hidden[count:]
    snapshot["deck"] = hidden
    return oc.restore(snapshot)


def test_hard_decides_from_the_view_alone() -> None:
    checked = 0
    for state in positions(40):
        view = seat_view(state)
        if len(legal_moves(view)) < 3:
            continue  # hardly anything to choose between: no evidence either way
        other = _hide_differently(state, seed=99)
        seats = range(state.players)
        assert [other.hand(s) for s in seats] != [state.hand(s) for s in seats]
        assert seat_view(other) == view
        assert choose_action(seat_view(other), Level.HARD, random.Random(3)) == (
            choose_action(view, Level.HARD, random.Random(3))
        )
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_normal_is_unchanged_by_level_and_rng() -> None:
    for state in positions(30):
        view = seat_view(state)
        assert choose_action(view, Level.NORMAL, random.Random(1)) == choose_action(view)


def test_easy_spends_a_joker_early_where_normal_keeps_it() -> None:
    state = oc.position([cards("JKB ♠3 ♠4 ♦5"), cards("♥6 ♥7")], parse_card("♠9"))
    view = state.view(0)
    assert choose_action(view) == oc.PlayCard(parse_card("♠3"))
    picks = [choose_action(view, Level.EASY, random.Random(seed)) for seed in range(100)]
    jokers = picks.count(oc.PlayCard(parse_card("JKB")))
    assert 10 < jokers < 90
    assert picks.count(oc.Take()) < 30  # a slip now and then, not a habit


def test_easy_names_the_suit_of_the_first_card_it_sees() -> None:
    state = oc.position([cards("♠7 ♦3 ♣4 ♣5"), cards("♥6 ♥8")], parse_card("♠9"))
    view = state.view(0)
    assert choose_action(view) == oc.PlayCard(parse_card("♠7"), Suit.CLUBS)
    sevens = {choose_action(view, Level.EASY, random.Random(seed)) for seed in range(60)}
    assert oc.PlayCard(parse_card("♠7"), Suit.DIAMONDS) in sevens


def test_the_rollout_player_is_the_normal_player_on_the_ints() -> None:
    # The hard player's play-outs model its opponents as the normal player exactly: every
    # position of whole games, attacks and jokers among them.
    checked = 0
    for state in positions(120):
        rng = random.Random(state.players)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            view = state.view(seat)
            assert onecard_ai._rollout(state, seat) == choose_action(view), view
            checked += 1
            level = Level.EASY if rng.random() < 0.5 else Level.NORMAL
            state.apply(seat, choose_action(view, level, rng))
    assert checked > 2_000

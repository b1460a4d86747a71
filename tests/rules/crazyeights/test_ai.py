"""The computer player at each level: the normal rule of thumb, every level legal, repeatable
and deciding from the view alone (its strength: test_levels.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import rules.crazyeights as ce
import rules.crazyeights.ai as crazyeights_ai
from rules.cards import STANDARD_DECK, Card, Suit, parse_card
from rules.crazyeights.ai import choose_action, play_out, sample_world
from rules.engine import Outcome
from rules.levels import Level
from rules.montecarlo import clone


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def c(text: str) -> Card:
    return parse_card(text)


def positions(count: int) -> Iterator[ce.State]:
    """Seeded games of 2-6 players stopped part-way."""
    for seed in range(count):
        state = ce.new(2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(40)):
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat), Level.EASY, rng))
        if not state.is_over:
            yield state


def seat_view(state: ce.State) -> ce.CrazyEightsView:
    seat = state.current_seat
    assert seat is not None
    return state.view(seat)


@pytest.fixture
def quick_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small search budget: legality does not depend on it, and the tests stay fast."""
    monkeypatch.setattr(crazyeights_ai, "HARD_MOVES", 200)
    monkeypatch.setattr(crazyeights_ai, "HARD_MIN_WORLDS", 2)


# ---------------------------------------------------------------- the normal player


def test_normal_keeps_its_eights_while_another_card_fits() -> None:
    state = ce.position([cards("♠8 ♠3 ♦9"), cards("♥5")], c("♠9"))
    assert choose_action(state.view(0)) == ce.PlayCard(c("♦9"))


def test_normal_plays_the_suit_it_holds_most() -> None:
    # ♠3 keeps spades (none left but ♠3 itself); ♦9 turns play to diamonds, two more held.
    state = ce.position([cards("♠3 ♦9 ♦4 ♦K ♣2"), cards("♥5")], c("♠9"))
    assert choose_action(state.view(0)) == ce.PlayCard(c("♦9"))


def test_normal_sheds_the_higher_card_of_a_suit() -> None:
    state = ce.position([cards("♠3 ♠Q ♠4"), cards("♥5")], c("♠9"))
    assert choose_action(state.view(0)) == ce.PlayCard(c("♠Q"))


def test_normal_plays_an_eight_when_nothing_else_fits_naming_its_suit() -> None:
    state = ce.position([cards("♠8 ♥3 ♣4 ♣6"), cards("♥5")], c("♦9"))
    assert choose_action(state.view(0)) == ce.PlayCard(c("♠8"), Suit.CLUBS)


def test_normal_draws_when_nothing_fits_and_passes_when_nothing_is_left() -> None:
    state = ce.position([cards("♥3 ♣4"), cards("♥5")], c("♦9"))
    assert choose_action(state.view(0)) == ce.Draw()
    others = [card for card in STANDARD_DECK if card not in cards("♣2 ♥5")]
    dry = ce.position([cards("♣2"), others], c("♥5"))
    assert choose_action(dry.view(0)) == ce.Pass()


def test_normal_is_unchanged_by_level_and_rng() -> None:
    for state in positions(30):
        view = seat_view(state)
        assert choose_action(view, Level.NORMAL, random.Random(1)) == choose_action(view)


# ---------------------------------------------------------------- every level


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.usefixtures("quick_hard")
def test_every_level_plays_legally_and_repeatably(level: Level) -> None:
    for state in positions(60):
        view = seat_view(state)
        action = choose_action(view, level, random.Random(5))
        assert action in state.legal_actions(state.current_seat or 0)
        assert choose_action(view, level, random.Random(5)) == action
        assert choose_action(view, level) == choose_action(view, level)  # rng=None: fixed seed


@pytest.mark.parametrize("level", list(Level))
@pytest.mark.usefixtures("quick_hard")
def test_every_level_finishes_whole_games(level: Level) -> None:
    rng = random.Random(level.value)
    for seed in range(10):
        state = ce.new(2 + seed % 5, seed=seed)
        moves = 0
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            action = choose_action(state.view(seat), level, rng)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            moves += 1
            assert moves < 2_000
        assert state.result is not None


def test_easy_plays_any_card_that_fits_and_sometimes_draws_anyway() -> None:
    state = ce.position([cards("♠8 ♠3 ♦9"), cards("♥5")], c("♠9"))
    picks = [choose_action(state.view(0), Level.EASY, random.Random(s)) for s in range(200)]
    assert {p.card for p in picks if isinstance(p, ce.PlayCard)} == set(cards("♠8 ♠3 ♦9"))
    assert len({p.suit for p in picks if isinstance(p, ce.PlayCard) and p.suit}) == 4
    assert 0 < picks.count(ce.Draw()) < 50  # a slip now and then, not a habit


# ---------------------------------------------------------------- the hard player's search


def test_sampled_worlds_show_the_seat_exactly_its_view() -> None:
    for state in positions(80):
        view = seat_view(state)
        world = sample_world(view, random.Random(1))()
        assert world.view(view.seat) == view
        assert ce.legal_moves(view) == state.legal_actions(view.seat or 0)


def test_the_play_out_is_the_engine_played_by_the_normal_player() -> None:
    checked = 0
    for state in positions(60):
        fast, slow = clone(state, 7), clone(state, 7)
        result, made = play_out(fast, 0)
        moves = 0
        while not slow.is_over:
            seat = slow.current_seat
            assert seat is not None
            slow.apply(seat, choose_action(slow.view(seat)))
            moves += 1
        assert slow.result is not None and fast.result == slow.result and made == moves
        assert result == (1.0 if slow.result.outcomes[0] is Outcome.WIN else 0.0)
        assert [fast.hand(s) for s in range(state.players)] == [
            slow.hand(s) for s in range(state.players)
        ]
        checked += moves
    assert checked > 1_000


def _hide_differently(state: ce.State, seed: int) -> ce.State:
    """The same game with every card the seat to act cannot see dealt again at random."""
    snapshot = state.snapshot()
    seat = state.current_seat
    others = [s for s in range(state.players) if s != seat]
    hidden = list(snapshot["stock"])
    for other in others:
        hidden += snapshot["hands"][other]
    random.Random(seed).shuffle(hidden)
    for other in others:
        count = len(snapshot["hands"][other])
        snapshot["hands"][other], hidden = hidden[:count], hidden[count:]
    snapshot["stock"] = hidden
    return ce.restore(snapshot)


def test_hard_decides_from_the_view_alone() -> None:
    checked = 0
    for state in positions(60):
        view = seat_view(state)
        if len([m for m in ce.legal_moves(view) if isinstance(m, ce.PlayCard)]) < 2:
            continue  # nothing to choose between: no evidence either way
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

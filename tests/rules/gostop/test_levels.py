"""The computer player's levels: easy's slips, hard's search from the view only."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rules.gostop import Go, GostopView, Phase, Play, State, Stop, new, restore
from rules.gostop.ai import choose_action
from rules.gostop.cards import parse_hwatu
from rules.gostop.search import determinize, unseen
from rules.levels import Level
from tests.rules.gostop.helpers import arrange


class Fixed(random.Random):
    """A generator whose ``random()`` always returns ``value`` (to force easy's choices)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def positions(seeds: range, phases: tuple[int, ...]) -> Iterator[State]:
    """Copies of the positions in normal-vs-normal games where the seat to move is in one of
    ``phases`` (all three bonus-card options dealt)."""
    for seed in seeds:
        state = new(2, seed=seed, options={"bonus_cards": (0, 2, 3)[seed % 3]})
        seat = state.current_seat
        while seat is not None:
            view = state.view(seat)
            if view.phase in phases:
                yield restore(state.snapshot())
            state.apply(seat, choose_action(view))
            seat = state.current_seat


def reshuffled_hidden(state: State, seed: int) -> State:
    """The same position with the opponent's hand and the pile dealt again from their cards."""
    data = state.snapshot()
    seat = state.current_seat
    assert seat is not None
    other = 1 - seat
    hidden = [*data["hands"][other], *data["pile"]]
    random.Random(seed).shuffle(hidden)
    size = len(data["hands"][other])
    data["hands"][other] = sorted(hidden[:size])
    data["pile"] = hidden[size:]
    return restore(data)


def _with_legal(view: GostopView, legal: tuple[object, ...]) -> GostopView:
    fields = {name: getattr(view, name) for name in view.__dataclass_fields__}
    fields["legal"] = legal
    return GostopView(**fields)


def test_determinize_deals_a_state_whose_view_is_the_same() -> None:
    checked = 0
    for state in positions(range(40), (Phase.PLAY, Phase.GO_STOP)):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        again = determinize(view, random.Random(checked)).view(seat)
        # The floor's order inside the engine is history the view does not keep; it only
        # orders the two targets a card may take, so legal actions are compared as sets.
        assert set(again.legal) == set(view.legal)
        assert _with_legal(again, view.legal) == view
        checked += 1
    assert checked > 500


def test_determinize_deals_only_unseen_cards_to_the_hidden_places() -> None:
    state = next(positions(range(3), (Phase.PLAY,)))
    seat = state.current_seat
    assert seat is not None
    view = state.view(seat)
    hidden = set(unseen(view))
    data = determinize(view, random.Random(5)).snapshot()
    assert set(data["hands"][1 - seat]) | set(data["pile"]) == hidden
    truth = state.snapshot()
    assert hidden == set(truth["hands"][1 - seat]) | set(truth["pile"])


def test_determinize_refuses_a_spectators_view() -> None:
    state = new(2, seed=3)
    with pytest.raises(ValueError, match="seat to play"):
        determinize(state.view(None), random.Random(0))


def test_hard_decides_from_the_view_alone() -> None:
    go_stop = list(positions(range(150), (Phase.GO_STOP,)))
    plays = list(positions(range(3), (Phase.PLAY,)))[:10]
    assert len(go_stop) >= 15
    changed = 0
    for n, state in enumerate([*go_stop[:15], *plays]):
        seat = state.current_seat
        assert seat is not None
        other = reshuffled_hidden(state, n)
        assert other.view(seat) == state.view(seat)
        changed += other.snapshot()["pile"] != state.snapshot()["pile"]
        first = choose_action(state.view(seat), Level.HARD, random.Random(n))
        second = choose_action(other.view(seat), Level.HARD, random.Random(n))
        assert first == second
    assert changed >= 20  # the hidden cards really were dealt differently


def test_every_level_plays_only_legal_actions() -> None:
    levels = list(Level)
    for seed in range(24):
        state = new(2, seed=seed, options={"bonus_cards": (0, 2, 3)[seed % 3]})
        chosen = (levels[seed % 3], levels[(seed // 3) % 3])
        rng = random.Random(seed)
        seat = state.current_seat
        while seat is not None:
            action = choose_action(state.view(seat), chosen[seat], rng)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            seat = state.current_seat
        assert state.is_over


def test_normal_is_the_default_and_ignores_the_generator() -> None:
    for n, state in enumerate(positions(range(5), (Phase.PLAY, Phase.GO_STOP))):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        assert choose_action(view, Level.NORMAL, random.Random(n)) == choose_action(view)


def test_levels_stay_deterministic_without_a_generator() -> None:
    go_stop = next(positions(range(60), (Phase.GO_STOP,)))
    seat = go_stop.current_seat
    assert seat is not None
    for level in (Level.EASY, Level.HARD):
        view = go_stop.view(seat)
        assert choose_action(view, level) == choose_action(view, level)


def test_easy_in_a_hurry_takes_the_first_capture_it_sees() -> None:
    # 1피b takes 1피a (junk) and comes first in the hand; 8피b would take the 8 bright.
    state = arrange((("1피b", "8피b", "10열"), ("11광", "11피a")), ["1피a", "8광"], ["9피a"])
    view = state.view(0)
    assert choose_action(view) == Play(parse_hwatu("8피b"))
    assert choose_action(view, Level.EASY, Fixed(0.1)) == Play(parse_hwatu("1피b"))
    assert choose_action(view, Level.EASY, Fixed(0.9)) == Play(parse_hwatu("8피b"))


def test_easy_calls_go_on_a_whim_whatever_the_opponent_has() -> None:
    state = next(positions(range(60), (Phase.GO_STOP,)))
    seat = state.current_seat
    assert seat is not None
    view = state.view(seat)
    hasty = choose_action(view, Level.EASY, Fixed(0.1))
    careful = choose_action(view, Level.EASY, Fixed(0.9))
    assert careful == Stop()
    assert hasty == (Go() if view.hand_sizes[seat] > 0 else Stop())

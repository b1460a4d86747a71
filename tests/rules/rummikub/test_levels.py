"""The computer player's levels: easy's beginner play, hard from the view only."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import rules.rummikub as rk
from rules.levels import Level
from rules.rummikub.ai import choose_action


class Fixed(random.Random):
    """A generator whose ``random()`` always returns ``value`` (to force easy's choices)."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def positions(seeds: range, every: int) -> Iterator[rk.State]:
    """Copies of every ``every``-th position of normal-vs-normal games."""
    for seed in seeds:
        state = rk.new(2, seed=seed)
        turn = 0
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            if turn % every == every - 1:
                yield rk.restore(state.snapshot())
            state.apply(seat, choose_action(state.view(seat)))
            turn += 1


def hidden_swapped(state: rk.State, seed: int) -> rk.State:
    """The same position with the opponent's rack dealt again from its tiles and the pool's."""
    data = state.snapshot()
    seat = state.current_seat
    assert seat is not None
    other = 1 - seat
    hidden = [*data["racks"][other], *data["pool"]]
    random.Random(seed).shuffle(hidden)
    size = len(data["racks"][other])
    data["racks"][other] = hidden[:size]
    data["pool"] = hidden[size:]
    return rk.restore(data)


def test_hard_decides_from_the_view_alone() -> None:
    changed = 0
    for n, state in enumerate(positions(range(4), 7)):
        seat = state.current_seat
        assert seat is not None
        other = hidden_swapped(state, n)
        assert other.view(seat) == state.view(seat)
        changed += Counter(other.racks[1 - seat]) != Counter(state.racks[1 - seat])
        first = choose_action(state.view(seat), Level.HARD, random.Random(n))
        second = choose_action(other.view(seat), Level.HARD, random.Random(n))
        assert first == second
    assert changed >= 10  # the hidden tiles really were different


def test_every_level_makes_only_moves_the_rules_accept() -> None:
    levels = list(Level)
    for seed in range(9):
        state = rk.new(2, seed=seed)
        chosen = (levels[seed % 3], levels[(seed // 3) % 3])
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat), chosen[seat], rng))  # never refused
        assert state.result is not None


def test_easy_never_rearranges_the_table_and_sometimes_draws_instead_of_playing() -> None:
    played = drew = 0
    for state in positions(range(4), 4):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        normal = choose_action(view)
        assert choose_action(view, Level.EASY, Fixed(0.1)) == rk.Draw() or not state.pool
        easy = choose_action(view, Level.EASY, Fixed(0.9))
        if isinstance(easy, rk.Meld):
            # Every set on the table is still there, in its place, at most grown at its ends.
            assert len(easy.table) >= len(view.table)
            for old, new in zip(view.table, easy.table, strict=False):
                assert any(new[i : i + len(old)] == old for i in range(len(new) - len(old) + 1))
            played += 1
        elif isinstance(normal, rk.Meld):
            drew += 1  # the beginner misses what the table offers
    assert played >= 10 and drew >= 5


def test_normal_is_the_default_and_ignores_the_generator() -> None:
    for n, state in enumerate(positions(range(2), 9)):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        assert choose_action(view, Level.NORMAL, random.Random(n)) == choose_action(view)


def test_levels_stay_deterministic_without_a_generator() -> None:
    for state in positions(range(1), 11):
        seat = state.current_seat
        assert seat is not None
        view = state.view(seat)
        for level in (Level.EASY, Level.HARD):
            assert choose_action(view, level) == choose_action(view, level)

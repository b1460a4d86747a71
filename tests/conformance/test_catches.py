"""The suite's checks can fail: each is shown catching the reference game with one flaw.

The reference game (``tests/reference_game.py``) passes the suite; each test here breaks one
piece of it (a refusal that changes the state, a restore that loses the turn, a view that
shows a hidden number, a table too wide for a phone, a timeout move or a suggestion that is
not legal, a move offered out of turn, a button that is no move, a menu value that does not
parse, a game that never ends) and plays it through the check that must catch it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.games import Control, Menu, Option, Rendered
from rules.engine import Action, Event, IllegalAction
from tests.conformance import harness
from tests.conformance.games.count import cheers
from tests.conformance.profile import Deal, Profile, slots
from tests.conformance.test_endings import endings
from tests.conformance.test_hidden import Hidden
from tests.conformance.test_menus import menus
from tests.conformance.test_phone import fits
from tests.conformance.test_players import players
from tests.conformance.test_restore import restores
from tests.conformance.test_turns import turns
from tests.reference_game import Add, Cheer, CountAdapter, CountState

Check = Callable[[harness.Case], Callable[[harness.Step], None]]


def caught(
    monkeypatch: pytest.MonkeyPatch, name: str, adapter: type[CountAdapter], check: Check, **kw: Any
) -> str:
    """What ``check`` says of the reference game played through ``adapter``."""
    profile = Profile(deals=(Deal(2), Deal(3)), seeds=2, max_decisions=40, adapter=adapter, **kw)
    monkeypatch.setattr(harness, "profiles", lambda: {name: profile})
    with pytest.raises(AssertionError) as failure:
        harness.play_all(name, check)
    return str(failure.value)


class SecretState(CountState):
    """The reference game with two secret numbers that no seat may see, and a view that
    shows the first."""

    def __init__(self, seats: int, target: int) -> None:
        super().__init__(seats, target)
        self.secret = [7, 8]

    def view(self, seat: int | None) -> Any:
        return (*super().view(seat), self.secret[0])

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "secret": list(self.secret)}


class ShowsTheSecret(CountAdapter):
    def new(self, seats: int, *args: Any, **kwargs: Any) -> tuple[CountState, tuple[()]]:
        return SecretState(seats, 10), ()

    def restore(self, snapshot: dict[str, Any]) -> CountState:
        state = SecretState(snapshot["seats"], snapshot["target"])
        state.total, state.turn = snapshot["total"], snapshot["turn"]
        state.secret = list(snapshot["secret"])
        return state


class ChangesWhenRefusing(CountAdapter):
    def new(self, *args: Any, **kwargs: Any) -> tuple[CountState, Any]:
        state, events = super().new(*args, **kwargs)
        real = state.apply

        def apply(seat: int, action: Action) -> list[Event]:
            if seat != state.current_seat:
                state.total += 1  # and then refuses
            return real(seat, action)

        state.apply = apply  # type: ignore[method-assign]
        return state, events


class LosesTheTurn(CountAdapter):
    def restore(self, snapshot: dict[str, Any]) -> CountState:
        state = super().restore(snapshot)
        state.turn = 0
        return state


class WideTable(CountAdapter):
    def table(self, view: Any, events: Any, names: Any, locale: str) -> Rendered:
        return Rendered((), "x" * 41)


class IllegalTimeout(CountAdapter):
    def timeout_action(self, state: CountState, seat: int) -> Action:
        return Add(3)


class SuggestsNonsense(CountAdapter):
    def suggest(self, view: Any, option: str, typed: str, locale: str) -> list[Option]:
        return [Option("three", "3")]


class CheersAnyTime(CountAdapter):
    """Other seats are offered a Cheer whatever the total (the rules allow it only at 1)."""

    def new(self, *args: Any, **kwargs: Any) -> tuple[CountState, Any]:
        state, events = super().new(*args, **kwargs)
        real = state.legal_actions

        def legal_actions(seat: int) -> Sequence[Action]:
            if seat != state.current_seat and not state.is_over:
                return [Cheer()]
            return real(seat)

        state.legal_actions = legal_actions  # type: ignore[method-assign]
        return state, events


class MenuOfNonsense(CountAdapter):
    """The hand's menu offers a value its ``picked`` passes on and ``parse`` refuses."""

    def hand(self, view: Any, names: Sequence[str], locale: str) -> Rendered:
        menu = Menu("Add", (Option("+1", "1"), Option("plus two", "two")))
        return Rendered((), "", "", (), menu if view[1] == view[2] else None)


class ButtonAnyTime(CountAdapter):
    """Every hand shows the Add 1 button, whether or not it is the seat's turn."""

    def hand(self, view: Any, names: Sequence[str], locale: str) -> Rendered:
        return Rendered((), "", "", (Control("add", "button.hit", arg="1"),))


class NeverEnds(CountAdapter):
    def new(self, seats: int, *args: Any, **kwargs: Any) -> tuple[CountState, tuple[()]]:
        return CountState(seats, 10**9), ()


def test_a_refusal_that_changes_the_state_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    said = caught(monkeypatch, "refusing", ChangesWhenRefusing, turns, out_of_turn=cheers)
    assert "changed the state" in said


def test_a_move_offered_out_of_turn_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    said = caught(monkeypatch, "cheering", CheersAnyTime, turns, out_of_turn=cheers)
    assert "has moves out of turn: [Cheer()]" in said


def test_a_button_that_is_no_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    said = caught(
        monkeypatch, "buttons", ButtonAnyTime, menus, out_of_turn=cheers, button_moves=True
    )
    assert "button ('add', '1') is no move" in said


def test_a_menu_value_that_does_not_parse_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    said = caught(monkeypatch, "nonsense", MenuOfNonsense, menus)
    assert "menu value 'two' as ('add', 'two') does not parse: Add a number: 1 or 2." in said


def test_a_restore_that_loses_the_turn_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "snapshots otherwise" in caught(monkeypatch, "losing", LosesTheTurn, restores)


def test_a_view_that_shows_a_hidden_number_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    tally = {"tried": 0, "refused": 0}
    said = caught(
        monkeypatch,
        "showing",
        ShowsTheSecret,
        lambda case: Hidden(case, tally),
        stock=lambda snapshot: slots(snapshot["secret"]),
    )
    assert "view changed with cards it may not see" in said


def test_a_table_wider_than_a_phone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "wider than 40 columns" in caught(monkeypatch, "wide", WideTable, fits)


def test_an_illegal_timeout_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    said = caught(monkeypatch, "timeout", IllegalTimeout, players)
    assert "the timeout plays Add(n=3)" in said


def test_a_suggestion_that_is_no_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    said = caught(monkeypatch, "suggesting", SuggestsNonsense, menus, commands={"n": "add"})
    assert "suggestion '3' for n is no move" in said


def test_a_game_that_never_ends_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "no end after 40 decisions" in caught(monkeypatch, "endless", NeverEnds, endings)


def test_an_unoffered_move_the_engine_accepts_is_caught() -> None:
    """Add(3) is not offered; an engine that takes it is caught by the judge of moves."""

    class TakesThree(CountState):
        def apply(self, seat: int, action: Action) -> list[Event]:
            if action == Add(3):
                self.total += 3
                return []
            return super().apply(seat, action)

    class Adapter(CountAdapter):
        def restore(self, snapshot: dict[str, Any]) -> CountState:
            state = TakesThree(snapshot["seats"], snapshot["target"])
            state.total, state.turn = snapshot["total"], snapshot["turn"]
            return state

    state = TakesThree(2, 10)
    fork = harness.Fork(Adapter(), state)
    assert fork.judge(0, Add(1)) == "listed"
    assert fork.judge(0, Add(5)) == "refused"
    assert fork.judge(0, Add(3)) == "accepted"
    with pytest.raises(IllegalAction):
        fork.outcome(1, Add(1))

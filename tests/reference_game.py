"""The reference game: a tiny counting game the session tests play, and any test that needs a
game of the engine contract (docs/design.md) small enough to follow by hand.

Seats add 1 or 2 to a running total in turn; the seat that reaches the target wins. While the
total is exactly 1 the other seats may ``Cheer`` out of turn (as Uno's catch or jump-in is
played out of turn). Its adapter draws a one-line table and a private hand.

Some options and moves exist only to drive the sessions' failure paths, and are never
offered by ``legal_actions``: ``Add(99)`` is an engine bug that half-applies and raises
``ZeroDivisionError``; the option ``instant`` ends the game at the deal (like a House
blackjack); ``no_easy`` makes the deal refuse the easy level. The adapter also records the
level of each deal (``dealt_levels``) and what each computer move was asked with (``asked``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import Control, Option, Rendered
from bot.settings import Settings
from rules.engine import Action, Event, GameOver, IllegalAction, Outcome, Result, check_snapshot
from rules.levels import Level


@dataclass(frozen=True, slots=True)
class Add(Action):
    n: int


@dataclass(frozen=True, slots=True)
class Cheer(Action):
    """Out of turn, while the total is exactly 1 (like Uno's catch or jump-in)."""


@dataclass(frozen=True, slots=True)
class Added(Event):
    seat: int
    n: int
    total: int


class CountState:
    def __init__(self, seats: int, target: int) -> None:
        self.seats = seats
        self.target = target
        self.total = 0
        self.turn = 0
        self.winner: int | None = None
        self.computers: list[int] = []

    @property
    def current_seat(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def result(self) -> Result | None:
        if self.winner is None:
            return None
        outcomes = tuple(
            Outcome.WIN if s == self.winner else Outcome.LOSE for s in range(self.seats)
        )
        ranking = (self.winner, *(s for s in range(self.seats) if s != self.winner))
        return Result(outcomes, tuple(int(o is Outcome.WIN) for o in outcomes), ranking)

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if seat == self.current_seat:
            return [Add(1), Add(2)]
        return [Cheer()] if self.total == 1 and not self.is_over else []

    def apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Cheer) and action in self.legal_actions(seat):
            return []
        if seat != self.current_seat:
            raise IllegalAction("Not your turn.", code="turn")
        if isinstance(action, Add) and action.n == 99:  # a bug in the engine, half-way
            self.total += 1
            raise ZeroDivisionError("engine bug")
        if not isinstance(action, Add) or action.n not in (1, 2):
            raise IllegalAction("You may add 1 or 2.", code="count_add", low=1, high=2)
        self.total += action.n
        events: list[Event] = [Added(seat, action.n, self.total)]
        if self.total >= self.target:
            self.winner = seat
            result = self.result
            assert result is not None
            events.append(GameOver(result))
        else:
            self.turn = (self.turn + 1) % self.seats
        return events

    def view(self, seat: int | None) -> tuple[int, int | None, int | None]:
        return (self.total, self.current_seat, seat)

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": "count",
            "schema": 1,
            "seats": self.seats,
            "target": self.target,
            "total": self.total,
            "turn": self.turn,
            "winner": self.winner,
        }


class CountAdapter:
    name = "count"
    min_seats = 2
    max_seats = 4
    verbs = ("add",)

    def __init__(self) -> None:
        self.dealt_levels: list[Level] = []  # the level each deal was given
        # What each computer move was asked with: (seat, level, a draw of its rng).
        self.asked: list[tuple[int, Level, float]] = []

    def turn_seconds(self, settings: Settings) -> float:
        return settings.default_turn_seconds

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[CountState, Sequence[Event]]:
        if level is Level.EASY and options.get("no_easy"):  # an engine without that level
            raise IllegalAction("No easy players here.", code="unknown_option")
        state = CountState(seats, int(options.get("target", 10)))
        state.computers = list(computers)
        self.dealt_levels.append(level)
        if options.get("instant"):  # like a House blackjack: over before anyone acts
            state.winner = 0
            result = state.result
            assert result is not None
            return state, (GameOver(result),)
        return state, ()

    def restore(self, snapshot: dict[str, Any]) -> CountState:
        check_snapshot(snapshot, "count", 1)
        state = CountState(snapshot["seats"], snapshot["target"])
        state.total, state.turn, state.winner = (
            snapshot["total"],
            snapshot["turn"],
            snapshot["winner"],
        )
        return state

    def hand_to_computer(self, state: CountState, seat: int) -> Sequence[Event]:
        state.computers.append(seat)
        return ()

    def next_options(self, state: CountState, options: Mapping[str, Any]) -> dict[str, Any]:
        # Like Go-Stop's "the winner deals": the next game remembers who won this one.
        return {**options, "last_winner": state.winner}

    forfeits = False
    timeout_moves = 1

    def forfeit(self, state: CountState, seat: int) -> Sequence[Event]:
        raise AssertionError("the count game hands a leaving seat to a computer")

    def timeout_action(self, state: CountState, seat: int) -> Action:
        return Add(1)

    def private(
        self,
        view: tuple[int, int | None, int | None],
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Rendered | None:
        if not any(isinstance(e, Added) and e.n == 2 for e in events):
            return None
        return Rendered((f"{locale}: only {names[view[2] or 0]} sees this",), f"total {view[0]}")

    def picked(
        self,
        view: tuple[int, int | None, int | None],
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> tuple[str, str | None]:
        return ("add", value)

    def suggest(
        self, view: tuple[int, int | None, int | None], option: str, typed: str, locale: str
    ) -> list[Option]:
        return [Option(f"+{n}", str(n)) for n in (1, 2) if view[1] == view[2]]

    def computer_action(
        self,
        state: CountState,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        assert rng is not None, "the session gives every computer move its own rng"
        self.asked.append((seat, level, rng.random()))
        return Add(2)

    def computer_seconds(self, level: Level) -> float | None:
        return None  # the computer's move is chosen at once

    def private_step(self, events: Sequence[Event]) -> bool:
        return False

    def edit_text(self, view: tuple[int, int | None, int | None], locale: str) -> str | None:
        return None

    def parse(self, verb: str, arg: str | None) -> Action:
        if verb != "add" or arg is None:
            raise IllegalAction("Unknown move.", code="unknown")
        try:
            n = int(arg)
        except ValueError:  # a number out of range is the engine's to refuse
            raise IllegalAction("Add a number: 1 or 2.", code="count_add", low=1, high=2) from None
        return Add(n)

    def table(
        self,
        view: tuple[int, int | None, int | None],
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Rendered:
        log = tuple(f"{names[e.seat]} +{e.n}" for e in events if isinstance(e, Added))
        controls = (Control("hand", "button.hand"),)
        if view[1] is None:
            controls = (Control("again", "button.again"),)
        return Rendered(log, f"total {view[0]}", "", controls)

    def hand(
        self, view: tuple[int, int | None, int | None], names: Sequence[str], locale: str
    ) -> Rendered:
        controls = (Control("add", "button.hit", arg="1"),) if view[1] == view[2] else ()
        return Rendered((), f"hand total {view[0]}", "", controls)

"""The conformance suite's play-outs: every game, seeded, played through its adapter.

Modelled on OpenSpiel's ``random_sim_test`` and ``api_test.py``: each registered game (and
the reference game of the session tests) is dealt as its profile says (several seat counts,
options, computer seats) from several seeds and played to the end by a seeded mix of
players: a random offered move, a computer's move, the safe move of a timeout, a pick from
the hand's menu, a move out of turn where the rules allow one, and now and then a seat that
leaves. The tests walk the same play-outs and check one part of the contract each
(docs/design.md §2 and §4).

A play-out is the same every run, so a failure names its game, deal, seed and decision and
fails the same way again.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import itertools
import json
import pkgutil
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.games import AnyAdapter, GameCatalog, Menu, Move
from rules.engine import Action, Event, IllegalAction
from rules.levels import Level
from tests.conformance.profile import Deal, Profile

__all__ = [
    "GAMES",
    "LOCALES",
    "NONSENSE_ARGS",
    "NONSENSE_VERBS",
    "Case",
    "Fork",
    "Game",
    "Nonsense",
    "Played",
    "Step",
    "cases",
    "field_values",
    "game",
    "menu_moves",
    "names",
    "nonsense_actions",
    "picked_moves",
    "play_all",
    "profiles",
    "registered",
    "through_json",
]

LOCALES = ("en", "ko")
SESSION_VERBS = frozenset({"hand", "again"})  # buttons the session answers, not the game
THOROUGH_FIRST = 100
THOROUGH_EVERY = 4
LEAVE_CHANCE = 0.01  # a seat leaves (or is handed to a computer) at about one decision in 100
NONSENSE_VERBS = ("zz", "", "play-it-now", "\u202eyalp", "스페이드7")
# Numbers out of every game's range; not 99, the reference game's deliberate engine bug.
NONSENSE_ARGS = ("", "zz", "♠♠♠", "\u202eRTL", "x" * 30, "-1", "1000", "1:", ">", "0/0@0")

# Display names as long as Discord allows (32) and as short as one letter, Latin and
# Hangul: a table clips them to its room, and its columns must still line up.
_NAMES = {
    "en": ["Alice", "Bartholomew Featherstonehaugh-Smyth", "Bo", "Charlotte"],
    "ko": ["김민준", "아주아주긴이름을가진플레이어입니다정말로깁니다요", "Bo", "이서연"],
}


def names(locale: str, seats: int) -> list[str]:
    """``seats`` display names for tables in ``locale``, each a different length."""
    base = _NAMES[locale]
    return [f"{base[i % len(base)]}{i // len(base) or ''}"[:32] for i in range(seats)]


def registered() -> dict[str, AnyAdapter]:
    """Every game the bot knows (:meth:`GameCatalog.discover`), by name."""
    return {adapter.name: adapter for adapter in GameCatalog.discover()}


@functools.cache
def profiles() -> dict[str, Profile]:
    """Every profile of ``tests/conformance/games/``, by game name (its module's name)."""
    package = importlib.import_module("tests.conformance.games")
    found = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"tests.conformance.games.{info.name}")
        found[info.name] = module.PROFILE
    return found


@dataclass(frozen=True)
class Game:
    """A game the suite plays: its adapter and its profile."""

    name: str
    adapter: AnyAdapter
    profile: Profile


@functools.cache
def game(name: str) -> Game:
    """The game ``name``: a registered one, or one a profile brings (the reference game)."""
    profile = profiles()[name]
    built = profile.adapter() if profile.adapter is not None else registered()[name]
    return Game(name, built, profile)


GAMES = sorted({*registered(), *(n for n, p in profiles().items() if p.adapter is not None)})
"""The games the suite runs over: every registered game and the reference game."""


def through_json(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` as the store keeps it: through JSON and back."""
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


@dataclass(frozen=True)
class Played:
    """A move of the play-out: a seat's action, or the seat leaving (``forfeit``) or handed
    to a computer (``computer``). :meth:`again` makes it on another state."""

    seat: int
    kind: str
    action: Action | None = None

    def again(self, adapter: AnyAdapter, state: Any) -> list[Event]:
        """Make this move on ``state``; what it did."""
        if self.kind == "forfeit":
            return list(adapter.forfeit(state, self.seat))
        if self.kind == "computer":
            return list(adapter.hand_to_computer(state, self.seat))
        return list(state.apply(self.seat, self.action))


@dataclass
class Step:
    """One point of a play-out: the live ``state`` (a check must leave it as it is), what
    the move that led here did (``events``; the deal's for the first step) and that move
    (``played``; ``None`` for the first).

    ``thorough``: whether the checks that try moves on copies of the state run here: at
    each of the first :data:`THOROUGH_FIRST` decisions, then at one in
    :data:`THOROUGH_EVERY` (a long game's snapshot holds its whole log, so each copy costs
    more the longer it runs).
    """

    number: int
    state: Any
    events: tuple[Event, ...]
    played: Played | None
    rng: random.Random = field(repr=False)  # the checks' own, never the players'
    thorough: bool = True

    @property
    def seat(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        seat: int | None = self.state.current_seat
        return seat


@dataclass(frozen=True)
class Case:
    """One play-out: a game, a deal and a seed."""

    game: str
    deal: Deal
    seed: int

    def __str__(self) -> str:
        return f"{self.game} ({self.deal}), seed {self.seed}"

    @property
    def adapter(self) -> AnyAdapter:
        return game(self.game).adapter

    @property
    def profile(self) -> Profile:
        return game(self.game).profile

    def at(self, step: Step) -> str:
        """Where a failure happened, for its message."""
        return f"{self}, decision {step.number}"

    def new_state(self) -> tuple[Any, list[Event]]:
        """A new state of this play-out's deal, and what dealing did."""
        deal = self.deal
        state, events = self.adapter.new(
            deal.seats,
            self.seed,
            deal.options,
            list(deal.computers),
            secret=deal.secret,
            level=deal.level,
        )
        return state, list(events)

    def steps(self) -> Iterator[Step]:
        """The play-out, one step per decision and one at the end: the players' moves
        (chosen once, :meth:`play`) made again on a new deal, so every test walks live
        states."""
        adapter = self.adapter
        state, events = self.new_state()
        played: Played | None = None
        moves = iter(_moves(self))
        for number in itertools.count():
            rng = random.Random(f"check {self} {number}")
            thorough = number < THOROUGH_FIRST or number % THOROUGH_EVERY == 0
            yield Step(number, state, tuple(events), played, rng, thorough)
            if state.is_over:
                return
            played = next(moves)
            events = played.again(adapter, state)

    def play(self) -> tuple[Played, ...]:
        """The moves of the seeded players from the deal to the end, which must come within
        the profile's bound."""
        adapter, profile = self.adapter, self.profile
        state, _ = self.new_state()
        pick = random.Random(f"play {self}")
        computers = set(self.deal.computers)
        moves: list[Played] = []
        while not state.is_over:
            assert len(moves) < profile.max_decisions, (
                f"{self}: no end after {profile.max_decisions} decisions"
            )
            played = self._choose(state, pick, computers)
            try:
                played.again(adapter, state)
            except IllegalAction:
                # A move the bot makes that the engine refuses (nothing changed): the
                # players' and menus' tests say so; this play-out goes on.
                seat = state.current_seat
                played = Played(seat, "act", pick.choice(list(state.legal_actions(seat))))
                played.again(adapter, state)
            moves.append(played)
        return tuple(moves)

    def _choose(self, state: Any, pick: random.Random, computers: set[int]) -> Played:
        """The next move of the seeded players (:data:`LEAVE_CHANCE` a seat leaves)."""
        adapter, profile = self.adapter, self.profile
        seats = self.deal.seats
        if pick.random() < LEAVE_CHANCE:
            seat = pick.randrange(seats)
            if adapter.forfeits:
                try:
                    adapter.forfeit(Fork(adapter, state).state(), seat)
                except IllegalAction:
                    pass  # already out: choose a move instead
                else:
                    return Played(seat, "forfeit")
            elif seat not in computers:
                computers.add(seat)
                return Played(seat, "computer")
        seat = state.current_seat

        def out_of_turn(other: int, action: Action) -> bool:
            return profile.out_of_turn(state, other, action)

        allowed = {  # the moves the rules let other seats play out of turn now
            other: moves
            for other in range(seats)
            if other != seat
            and (moves := [a for a in state.legal_actions(other) if out_of_turn(other, a)])
        }
        if allowed and pick.random() < 0.2:
            other = pick.choice(sorted(allowed))
            return Played(other, "act", pick.choice(allowed[other]))
        if seat in computers:
            level = self.deal.level if self.deal.level is not Level.HARD else Level.NORMAL
            return Played(seat, "act", adapter.computer_action(state, seat, level, pick))
        roll = pick.random()
        if roll < 0.6:
            level = pick.choice([Level.EASY, Level.NORMAL])
            return Played(seat, "act", adapter.computer_action(state, seat, level, pick))
        if roll < 0.65:
            return Played(seat, "act", adapter.timeout_action(state, seat))
        if roll < 0.8:
            view, locale = state.view(seat), pick.choice(LOCALES)
            moves = menu_moves(adapter, view, locale, seats)
            moves += [
                (verb, option.value)
                for name, verb in profile.commands.items()
                for option in adapter.suggest(view, name, "", locale)
            ]
            fork = Fork(adapter, state)
            for move in pick.sample(moves, min(3, len(moves))):
                # A suggestion may want more (a 7's suit): those the engine refuses are
                # left for the menu test to complete.
                with contextlib.suppress(IllegalAction):
                    action = adapter.parse(*move)
                    if fork.judge(seat, action, alias=False) != "refused":
                        return Played(seat, "act", action)
        return Played(seat, "act", pick.choice(list(state.legal_actions(seat))))


_PLAYED: dict[str, tuple[Played, ...]] = {}


def _moves(case: Case) -> tuple[Played, ...]:
    """The moves of ``case``'s play-out, chosen once per test process (a computer's move
    can take a while) and made again by each test."""
    key = repr(case)
    if key not in _PLAYED:
        _PLAYED[key] = case.play()
    return _PLAYED[key]


def cases(name: str) -> list[Case]:
    """Every play-out of game ``name``: each deal of its profile with each seed."""
    profile = game(name).profile
    return [Case(name, deal, seed) for deal in profile.deals for seed in range(profile.seeds)]


class Fork:
    """Copies of one decision's state (restored from its snapshot) to try moves on, and
    what each offered move does there, worked out once."""

    def __init__(self, adapter: AnyAdapter, state: Any) -> None:
        self.adapter = adapter
        self.snapshot: dict[str, Any] = state.snapshot()
        self._text = json.dumps(self.snapshot)  # loaded again for each copy: nothing shared
        self._live = state
        self._spare: Any = None  # a copy a refused move left as it was
        self._listed: dict[int, list[Action]] = {}
        self._done: dict[tuple[int, Action], tuple[list[Event], dict[str, Any]]] = {}
        self._verdicts: dict[tuple[int, Action, bool], str] = {}

    def state(self) -> Any:
        """A copy of the state, to change."""
        copy, self._spare = self._spare, None
        return copy if copy is not None else self.adapter.restore(json.loads(self._text))

    def listed(self, seat: int) -> list[Action]:
        """The moves offered to ``seat``."""
        if seat not in self._listed:
            self._listed[seat] = list(self._live.legal_actions(seat))
        return self._listed[seat]

    def outcome(self, seat: int, action: Action) -> tuple[list[Event], dict[str, Any]]:
        """What ``action`` by ``seat`` does: its events and the snapshot after it
        (``IllegalAction`` if refused)."""
        key = (seat, action)
        if key not in self._done:
            copy = self.state()
            events = list(copy.apply(seat, action))
            self._done[key] = (events, copy.snapshot())
        return self._done[key]

    def judge(self, seat: int, action: Action, *, alias: bool = True) -> str:
        """``listed`` (offered), ``alias`` (not offered, but does exactly what an offered
        move does: Go-Stop's twin cards, Uno's card named by its code), ``refused``
        (``IllegalAction`` with a reason, nothing changed) or ``accepted`` (none of these;
        without ``alias`` an accepted move is not compared with the offered ones)."""
        listed = self.listed(seat)
        if action in listed:
            return "listed"
        known = self._verdicts.get((seat, action, alias))
        if known is None:
            known = self._verdicts[(seat, action, alias)] = self._judge(seat, action, alias)
        return known

    def _judge(self, seat: int, action: Action, alias: bool) -> str:
        listed = self.listed(seat)
        copy = self.state()
        try:
            events = list(copy.apply(seat, action))
        except IllegalAction as refusal:
            assert refusal.reason, f"{action!r} was refused without a reason"
            assert copy.snapshot() == self.snapshot, f"refusing {action!r} changed the state"
            self._spare = copy
            return "refused"
        done = (events, copy.snapshot())
        self._done[(seat, action)] = done
        if alias and any(
            self.outcome(seat, offered) == done for offered in _likest(action, listed)
        ):
            return "alias"
        return "accepted"


def _likest(action: Action, listed: Sequence[Action]) -> list[Action]:
    """``listed``, those sharing most fields' values with ``action`` first: the offered
    move an alias stands for is tried early (Uno's card by its code has a play's colour)."""
    mine = field_values(action)

    def shared(offered: Action) -> int:
        return sum(
            name in mine and mine[name] == value for name, value in field_values(offered).items()
        )

    return sorted(listed, key=shared, reverse=True)


def menu_moves(adapter: AnyAdapter, view: Any, locale: str, seats: int) -> list[Move]:
    """Every move a seat's hand menu leads to: each option picked, and each option of the
    second menus a pick opens (:meth:`GameAdapter.picked`)."""
    hand = adapter.hand(view, names(locale, seats), locale)
    if hand.menu is None:
        return []
    return [
        move
        for option in hand.menu.options
        for move in picked_moves(adapter, view, option.value, locale, seats)
    ]


def picked_moves(
    adapter: AnyAdapter,
    view: Any,
    value: str,
    locale: str,
    seats: int,
    *,
    step: str | None = None,
    depth: int = 0,
) -> list[Move]:
    """The moves a pick of ``value`` (from the menu of ``step``) leads to: the move, or
    every move of the menu it opens."""
    assert depth < 4, f"menus within menus: {value!r}"
    chosen: Move | Menu = adapter.picked(view, step, value, locale, names(locale, seats))
    if not isinstance(chosen, Menu):
        return [chosen]
    assert chosen.options, f"picking {value!r} opens an empty menu"
    return [
        move
        for option in chosen.options
        for move in picked_moves(
            adapter, view, option.value, locale, seats, step=chosen.step, depth=depth + 1
        )
    ]


class Nonsense(Action):
    """A move of no game."""

    __slots__ = ()


def _mutations(value: Any, seen: Sequence[Any], optional: bool) -> list[Any]:
    """Other values for one field of an action: numbers out of range, values the field
    held in other moves, and ``None`` where the field may be empty."""
    found: list[Any] = []
    if type(value) is int:
        found += [-1, value + 1, 1000]
    elif type(value) is bool:
        found.append(not value)
    found += [v for v in seen if v != value and type(v) is type(value)][:3]
    if optional and value is not None:
        found.append(None)
    if value is None:
        found += [v for v in seen if v is not None][:3]
    return found


def nonsense_actions(
    listed: Sequence[Action], seen: Mapping[str, Sequence[Any]], pick: random.Random
) -> list[Action]:
    """Moves that look like offered ones with one field changed (another card, a seat or
    an index out of range, a colour left out)."""
    found: list[Action] = []
    for action in pick.sample(list(listed), min(3, len(listed))):
        for spec in fields(action):
            value = getattr(action, spec.name)
            optional = "None" in str(spec.type)
            for other in _mutations(value, seen.get(spec.name, ()), optional):
                try:
                    found.append(replace(action, **{spec.name: other}))
                except (TypeError, ValueError):
                    continue  # the action's own checks refuse to build it
    return found


def field_values(action: Action) -> dict[str, Any]:
    """An action's fields by name (empty for an action with none)."""
    try:
        specs = fields(action)
    except TypeError:
        return {}
    return {spec.name: getattr(action, spec.name) for spec in specs}


def play_all(name: str, check: Callable[[Case], Callable[[Step], None]]) -> int:
    """Walk every play-out of game ``name``, calling ``check(case)`` once per play-out for a
    per-step checker and that checker on each step; a failure names where it happened.
    Returns how many steps were checked."""
    checked = 0
    for case in cases(name):
        on_step = check(case)
        for step in case.steps():
            try:
                on_step(step)
            except AssertionError as failure:
                raise AssertionError(f"{case.at(step)}: {failure}") from failure
            checked += 1
    return checked

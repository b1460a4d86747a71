"""Blackjack as the session code sees it (:class:`bot.games.GameAdapter`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.games import BaseAdapter, Program, Rendered, Scores, SoakStrategy, soak_seats
from bot.text import blackjack as render
from rules.blackjack import ai
from rules.blackjack import state as engine
from rules.blackjack.events import Double, Hit, Split, Stand
from rules.engine import Action, Event, IllegalAction
from rules.levels import Level

if TYPE_CHECKING:
    from bot.settings import Settings

__all__ = ["ADAPTER", "RULES_OPTION", "BlackjackAdapter", "engine_options", "table_options"]

_VERBS: dict[str, Action] = {"hit": Hit(), "stand": Stand(), "double": Double(), "split": Split()}
RULES_OPTION = "ruleset"  # the engine's option, read by ``/rules`` for a casino table's rules


def table_options(rules: str) -> dict[str, Any]:
    """The options of ``/blackjack start rules:...``: a casino table names its ruleset; a
    seed (classic) table has none, so it deals exactly as it always did."""
    return {} if rules == engine.SEED_PROGRAM_RULES else {RULES_OPTION: rules}


def engine_options(computers: Sequence[int], level: Level) -> dict[str, Any]:
    """The engine options that seat its computer players: which seats, and how well they
    play (``computer_level``). A normal level is the engine's own default and is left out,
    so a normal table deals with exactly the options it always did."""
    options: dict[str, Any] = {"computers": list(computers)}
    if level is not Level.NORMAL:
        options["computer_level"] = level.value
    return options


def _soak_start(rng: random.Random) -> dict[str, Any]:
    """Up to three seats, half the time at a casino table (rules 16-22: double and split get
    played too)."""
    chosen = soak_seats(1, 3)(rng)
    if rng.random() < 0.5:
        chosen["rules"] = "casino"
    return chosen


class BlackjackAdapter(BaseAdapter):
    """Seats 1-7 against the House; the engine plays computer seats and the House itself."""

    name = engine.GAME
    min_seats = engine.MIN_PLAYERS
    max_seats = engine.MAX_PLAYERS
    verbs = tuple(_VERBS)
    order = 1
    scores = Scores.HOUSE
    console = Program("bot.console.blackjack", "the Blackjack seed program: SEED PLAYERS")
    session_plays_computers = False
    soak = SoakStrategy(
        start=_soak_start,
        moves=(("hit", {}), ("stand", {}), ("double", {}), ("split", {})),
        practice={"players": 2, "bots": 1, "rules": "casino"},
    )

    def turn_seconds(self, settings: Settings) -> float:
        """``BLACKJACK_TURN_SECONDS`` (45 s by default)."""
        return settings.blackjack_turn_seconds

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[engine.State, Sequence[Event]]:
        """Deal; the opening events include computer seats' play (and a House blackjack).

        A member's seed deals the seed program's game (rule 11); the bot's secret seed a fair
        one (rule 12). The engine plays its computer seats itself, at ``level``."""
        state = engine.new(
            seats,
            seed=seed,
            options={**options, **engine_options(computers, level)},
            fair=True if secret else None,
        )
        return state, state.opening_events

    def restore(self, snapshot: dict[str, Any]) -> engine.State:
        """Continue a stored game."""
        return engine.restore(snapshot)

    def hand_to_computer(self, state: Any, seat: int) -> Sequence[Event]:
        """The engine takes the seat over (and plays it at once if it is its turn)."""
        return list(state.hand_to_computer(seat))

    forfeits = False  # a member leaving hands the seat to the engine's computer player

    def forfeit(self, state: engine.State, seat: int) -> Sequence[Event]:
        """Never asked (:attr:`forfeits` is false): the seat goes to a computer instead."""
        return self.hand_to_computer(state, seat)

    # A seat that split keeps the turn after standing its first hand: a timeout stands both.
    timeout_moves = 2

    def timeout_action(self, state: Any, seat: int) -> Action:
        """Stand (docs/design.md §3)."""
        return _VERBS["stand"]

    def computer_action(
        self,
        state: Any,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        """The engine's computer player at ``level`` (``rules/blackjack/ai.py``) on the seat's
        view. The session never asks (the engine plays its computer seats, at the level
        :meth:`new` gave it); a ``normal`` player's coin comes from ``rng``, never the game's
        stream (that would change a fair deal's replay), and without one always stands."""
        coin = (lambda: rng.randrange(2)) if rng is not None else (lambda: 0)
        return ai.choose_action(state.view(seat), coin, level)

    def parse(self, verb: str, arg: str | None) -> Action:
        """``hit``, ``stand``, and at a casino table ``double`` or ``split`` (the engine
        refuses those at a seed table, with its reason)."""
        action = _VERBS.get(verb)
        if action is None:
            raise IllegalAction("In Blackjack you can only Hit or Stand.", code="unknown_action")
        return action

    def table(
        self, view: Any, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered:
        """The public table (:func:`bot.text.blackjack.table`)."""
        return render.table(view, events, names, locale)

    def hand(self, view: Any, names: Sequence[str], locale: str) -> Rendered:
        """One seat's hand (:func:`bot.text.blackjack.hand`): Hit and Stand are buttons, and
        Double and Split when the hand may make them."""
        return render.hand(view, names, locale)


ADAPTER = BlackjackAdapter()

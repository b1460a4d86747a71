"""How a game plugs into the bot: one small adapter per game, registered by its cog.

The session code (:mod:`bot.sessions`) handles every game the same way; everything it needs
to know about one game goes through :class:`GameAdapter`: how to deal and restore, what a
seat does when its time runs out or when a computer holds it, and how to draw the public
table and a private hand (pure functions of views and events, in ``bot/text/<game>.py``).
Each game's adapter lives beside this module (``bot/games/<game>.py``); its cog registers it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.settings import Settings
from rules.engine import Action, Event, GameState

__all__ = ["Control", "GameAdapter", "GameCatalog", "Table", "UnknownGame"]


@dataclass(frozen=True, slots=True)
class Control:
    """A button offered on a message: ``action`` (and ``arg``) go into its custom id.

    ``label`` is a message-catalog key; ``style`` is a ``discord.ButtonStyle`` name.
    """

    action: str
    label: str
    style: str = "secondary"
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """A rendered public table: move-log lines above a code block."""

    log: tuple[str, ...]
    body: str
    lang: str = ""  # code-block language: "" or "ansi" for colour
    controls: tuple[Control, ...] = field(default=())


class GameAdapter(Protocol):
    """What one game gives the session code (Blackjack, One Card, Uno, Go-Stop, Rummikub)."""

    @property
    def name(self) -> str:
        """The command group and store name, e.g. ``"blackjack"``."""

    @property
    def min_seats(self) -> int:
        """The fewest seats (members and computers) a game can start with."""

    @property
    def max_seats(self) -> int:
        """The most seats a table has."""

    def turn_seconds(self, settings: Settings) -> float:
        """The turn limit when the guild sets none (Blackjack: ``blackjack_turn_seconds``)."""

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
    ) -> tuple[GameState[Any, Any], Sequence[Event]]:
        """Deal a new game for ``seats`` seats (``computers``: the seats a computer holds).

        Returns the state and what dealing did (events an engine that plays its computer
        seats itself reports before the first decision; may include ``GameOver``).
        """

    def restore(self, snapshot: dict[str, Any]) -> GameState[Any, Any]:
        """Continue a game from :meth:`GameState.snapshot`."""

    def hand_to_computer(self, state: GameState[Any, Any], seat: int) -> Sequence[Event]:
        """A computer holds ``seat`` from now on; what that changed at once, as events.

        Engines that play computer seats themselves (Blackjack) take it over here; for the
        others this returns nothing and the session plays the seat with :meth:`computer_action`.
        """

    def timeout_action(self, state: GameState[Any, Any], seat: int) -> Action:
        """The safe move for a seat whose time ran out (Blackjack: Stand)."""

    def computer_action(self, state: GameState[Any, Any], seat: int) -> Action:
        """The computer player's move (``rules/<game>/ai.py``)."""

    def parse(self, verb: str, arg: str | None) -> Action:
        """The action a button or command verb names; ``IllegalAction`` if none."""

    def table(
        self,
        view: Any,
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Table:
        """The public table after ``events`` (spectator view), with its buttons."""

    def hand(self, view: Any, names: Sequence[str], locale: str) -> Table:
        """One seat's private hand (its own view), with buttons when it is their turn."""


class UnknownGame(LookupError):
    """No cog registered a game by that name."""


class GameCatalog:
    """The games this bot runs, by name; each game's cog registers its adapter in ``setup``."""

    def __init__(self) -> None:
        self._games: dict[str, GameAdapter] = {}

    def register(self, adapter: GameAdapter) -> None:
        """Add (or replace, on an extension reload) a game."""
        self._games[adapter.name] = adapter

    def unregister(self, name: str) -> None:
        """Drop a game (its extension was unloaded)."""
        self._games.pop(name, None)

    def get(self, name: str) -> GameAdapter:
        """The adapter for ``name``; :class:`UnknownGame` if no cog registered it."""
        try:
            return self._games[name]
        except KeyError:
            raise UnknownGame(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def names(self) -> list[str]:
        """Registered game names, sorted."""
        return sorted(self._games)

"""How a game plugs into the bot: one small adapter per game, registered by its cog.

The session code (:mod:`bot.sessions`) handles every game the same way; everything it needs
to know about one game goes through :class:`GameAdapter`: how to deal and restore, what a
seat does when its time runs out or when a computer holds it, and how to draw the public
table and a private hand (pure functions of views and events, in ``bot/text/<game>.py``).
Each game's adapter lives beside this module (``bot/games/<game>.py``); its cog registers it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from bot.settings import Settings
from rules.engine import Action, Event, GameState
from rules.levels import Level

__all__ = [
    "HARD_SECONDS",
    "MAX_OPTIONS",
    "AnyAdapter",
    "Control",
    "GameAdapter",
    "GameCatalog",
    "Menu",
    "Move",
    "Option",
    "PublicTurns",
    "Table",
    "UnknownGame",
    "fit_options",
]

MAX_OPTIONS = 25  # Discord's limit of options in a select menu and of autocomplete choices
# How long a hard computer player may think, off the event loop, before the safe move is
# played instead (the levels' target is 200 ms p99, docs/design.md §8; this is the guard).
HARD_SECONDS = 1.5

Move = tuple[str, str | None]
"""A move as buttons, menus and commands name it: ``(verb, arg)``, parsed by the adapter."""


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
class Option:
    """One entry of a select menu or of an autocomplete list: what the member reads
    (``label``, ≤ 100 characters) and what comes back (``value``, ≤ 100 characters)."""

    label: str
    value: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Menu:
    """A private select of moves: the legal moves of a hand, or a second choice after one.

    ``step`` is ``None`` for the first menu; a second menu carries in ``step`` what was
    picked first (One Card's 7 asking for a suit: ``step`` is the card), and comes back to
    :meth:`GameAdapter.picked` with it. ``prompt`` is the message shown with a second menu;
    ``note`` says what did not fit (a hand of more than 25 legal moves).
    """

    placeholder: str
    options: tuple[Option, ...]
    step: str | None = None
    prompt: str | None = None
    note: str | None = None


def fit_options(
    options: Sequence[Option], keep_last: Sequence[Option] = ()
) -> tuple[tuple[Option, ...], int]:
    """``options`` cut to what one menu holds, leaving room for ``keep_last`` (e.g. Take);
    the options kept and how many were left out."""
    room = MAX_OPTIONS - len(keep_last)
    kept = tuple(options[:room]) + tuple(keep_last)
    return kept, max(0, len(options) - room)


@dataclass(frozen=True, slots=True)
class Table:
    """A rendered table or hand: move-log lines above a code block, its buttons, and (for
    a hand on its turn) the select of its legal moves."""

    log: tuple[str, ...]
    body: str
    lang: str = ""  # code-block language: "" or "ansi" for colour
    controls: tuple[Control, ...] = field(default=())
    menu: Menu | None = None


StateT = TypeVar("StateT", bound=GameState[Any, Any])


class GameAdapter(Protocol[StateT]):
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
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[StateT, Sequence[Event]]:
        """Deal a new game for ``seats`` seats (``computers``: the seats a computer holds,
        at ``level``; only an engine that plays its computer seats itself needs it).

        ``secret``: ``seed`` is the bot's own secret seed of a fair deal (``bot.fairness``),
        not one a member chose; a game whose seeded deal is not a fair shuffle (Blackjack's
        seed program) deals fairly from it.

        Returns the state and what dealing did (events an engine that plays its computer
        seats itself reports before the first decision; may include ``GameOver``).
        """

    def restore(self, snapshot: dict[str, Any]) -> StateT:
        """Continue a game from :meth:`GameState.snapshot`."""

    def next_options(self, state: StateT, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options the next deal at this table starts with ("Deal again"), once ``state``
        is over: what a finished game carries into the next (Go-Stop: the winner deals, a
        nagari doubles the stakes). ``options`` are this game's; most games keep them."""

    def hand_to_computer(self, state: StateT, seat: int) -> Sequence[Event]:
        """A computer holds ``seat`` from now on; what that changed at once, as events.

        Engines that play computer seats themselves (Blackjack) take it over here; for the
        others this returns nothing and the session plays the seat with :meth:`computer_action`.
        """

    @property
    def forfeits(self) -> bool:
        """Whether leaving a running game forfeits the seat by the game's rule
        (:meth:`forfeit`) rather than handing it to a computer player."""

    def forfeit(self, state: StateT, seat: int) -> Sequence[Event]:
        """The seat leaves the game by its rule (One Card: its cards go back to the deck);
        ``IllegalAction`` having changed nothing if it cannot. Only when :attr:`forfeits`."""

    @property
    def timeout_moves(self) -> int:
        """How many safe moves one timeout makes at most while the seat keeps the turn
        (Uno: 2, Draw then Keep; most games: 1)."""

    def timeout_action(self, state: StateT, seat: int) -> Action:
        """The safe move for a seat whose time ran out (Blackjack: Stand)."""

    def computer_action(
        self,
        state: StateT,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        """The computer player's move at ``level`` (``rules/<game>/ai.py``), from the
        seat's own view; ``rng`` is its own, never the game's (a fair deal's replay must
        not depend on what the computers chose)."""

    def parse(self, verb: str, arg: str | None) -> Action:
        """The action a button or command verb names; ``IllegalAction`` if none."""

    def computer_seconds(self, level: Level) -> float | None:
        """``None``: a computer's move at ``level`` is chosen at once, on the event loop; a
        number: it is chosen off the event loop and given up after that many seconds for the
        safe move (a hard player's search, Rummikub's solver on a full table: neither may
        keep the bot from answering Discord)."""

    def private_step(self, events: Sequence[Event]) -> bool:
        """Whether a move that made ``events`` is a private step of a turn still going on
        (Rummikub's staging): saved, answered to the member alone, no public table."""

    def edit_text(self, view: Any, locale: str) -> str | None:
        """The text of the turn's edit box (Rummikub's Arrange: the staged table, one set a
        line), which comes back as the move ``("arrange", text)``; ``None``: no edit box."""

    def table(
        self,
        view: Any,
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Table:
        """The public table after ``events`` (spectator view), with its buttons."""

    def hand(self, view: Any, names: Sequence[str], locale: str) -> Table:
        """One seat's private hand (its own view) in the member's ``locale``, with its
        buttons and the :class:`Menu` of its legal moves when it is their turn."""

    def private(
        self, view: Any, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Table | None:
        """What the member who made a move alone is told after it, in their ``locale``
        (Uno: the hand a challenge revealed to the challenger); ``None``: nothing.
        ``view`` is that seat's own view after the move."""

    def picked(
        self, view: Any, step: str | None, value: str, locale: str, names: Sequence[str] = ()
    ) -> Move | Menu:
        """What a pick from a hand's menu means: the move to make, or a second menu.

        ``step`` is the menu's own (``None`` for the first). A value the menu never offered
        is passed on as a move for the engine to refuse with its reason. ``names``: the
        seats' names, for a second menu of seats (Uno's 7).
        """

    def suggest(self, view: Any, option: str, typed: str, locale: str) -> Sequence[Option]:
        """Autocomplete for a command ``option`` (``card`` of ``/onecard play``): the
        seat's own legal moves that match ``typed``, best first (at most 25 are shown)."""


class PublicTurns:
    """What most games' adapters share: every move is public (nothing told to the mover
    alone), one safe move ends a timed-out turn, the computer's move is chosen at once, no
    edit box; an easy or normal computer's move is chosen at once, a hard one's off the event
    loop. An adapter inherits these and
    overrides what its game does otherwise (Uno's two timeout moves, Rummikub's staging)."""

    timeout_moves: int = 1

    def computer_seconds(self, level: Level) -> float | None:
        """Only a hard player searches: it thinks off the event loop, for
        :data:`HARD_SECONDS` at most."""
        return HARD_SECONDS if level is Level.HARD else None

    def private_step(self, events: Sequence[Event]) -> bool:
        """Every move is announced at the table."""
        return False

    def edit_text(self, view: Any, locale: str) -> str | None:
        """No edit box."""
        return None

    def private(
        self, view: Any, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Table | None:
        """Nothing is told to the member alone: every move shows on the table."""
        return None


AnyAdapter = GameAdapter[Any]
"""An adapter of any game, as the catalog and the session code hold them."""


class UnknownGame(LookupError):
    """No cog registered a game by that name."""


class GameCatalog:
    """The games this bot runs, by name; each game's cog registers its adapter in ``setup``."""

    def __init__(self) -> None:
        self._games: dict[str, AnyAdapter] = {}

    def register(self, adapter: AnyAdapter) -> None:
        """Add (or replace, on an extension reload) a game."""
        self._games[adapter.name] = adapter

    def unregister(self, name: str) -> None:
        """Drop a game (its extension was unloaded)."""
        self._games.pop(name, None)

    def get(self, name: str) -> AnyAdapter:
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

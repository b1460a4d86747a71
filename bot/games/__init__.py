"""How a game plugs into the bot: one small adapter per game, and the catalog of games.

The session code (:mod:`bot.sessions`) handles every game the same way; everything it needs
to know about one game goes through :class:`GameAdapter`: how to deal and restore, what a
seat does when its time runs out or when a computer holds it, and how to draw the public
table and a private hand (pure functions of views and events, in ``bot/text/<game>.py``).

Each game's adapter lives beside this module (``bot/games/<game>.py``, its ``ADAPTER``) and
says, once, everything else the bot, the tools and the tests list of the game: where it comes
in lists, what its scores count, its console and tools, who plays its computer seats, the
verbs it reads and how the chaos soak plays it. :meth:`GameCatalog.discover` finds every
game from those modules, so no list of the games is kept anywhere by hand; a running bot's
catalog holds the games whose cogs are loaded.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from rules.engine import Action, Event, GameState
from rules.levels import Level

if TYPE_CHECKING:  # annotations only: the catalog is read without loading the settings
    from bot.settings import Settings

__all__ = [
    "AUTOCOMPLETE",
    "HARD_SECONDS",
    "MAX_OPTIONS",
    "NONSENSE",
    "AnyAdapter",
    "BaseAdapter",
    "Control",
    "GameAdapter",
    "GameCatalog",
    "Menu",
    "Move",
    "Option",
    "Program",
    "Rendered",
    "Scores",
    "SoakStrategy",
    "UnknownGame",
    "fit_options",
    "soak_seats",
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
class Rendered:
    """A rendered table or hand: move-log lines above a code block, its buttons, and (for
    a hand on its turn) the select of its legal moves."""

    log: tuple[str, ...]
    body: str
    lang: str = ""  # code-block language: "" or "ansi" for colour
    controls: tuple[Control, ...] = field(default=())
    menu: Menu | None = None


class Scores(Enum):
    """What a game's results count, as ``/stats`` and ``/leaderboard`` show them."""

    WINS = "wins"  # places only (One Card): wins, losses, draws
    POINTS = "points"  # a score each game too (the cards left in Uno): /stats sums them
    HOUSE = "house"  # hands against the House (Blackjack): ranked by the share won


@dataclass(frozen=True, slots=True)
class Program:
    """A command-line program of a game (``deckhand play <game>``, ``deckhand <game> ...``):
    a module with ``add_arguments(parser)`` and ``run(args) -> int``, imported only when
    chosen, and the one line ``deckhand --help`` says of it."""

    module: str
    help: str


AUTOCOMPLETE: Final = object()
"""In a :class:`SoakStrategy` move, an option filled from the bot's own suggestions."""
NONSENSE: Final = ("", "zz", "♠♠♠", "\u202eRTL", "x" * 30)
"""In a :class:`SoakStrategy` move, an option given one of these (a tuple: one at random)."""


@dataclass(frozen=True, slots=True)
class SoakStrategy:
    """How a random member plays the game in the chaos soak (the ``soak`` package); the
    rest, its buttons and hand menus, is played without knowing the game.

    ``start`` chooses the options of ``/<game> start`` from a seeded generator; ``moves`` are
    slash commands a member may try at any time, legal or not, in turn or not:
    ``(subcommand, options)``, an option's value given as :data:`AUTOCOMPLETE` filled from
    the bot's suggestions and a tuple meaning one of its values. ``practice``: the options
    of a table of one member and computers with the game's own features on (the tests play
    one to the end in each language). ``join``: the game has ``join`` and ``leave``.
    """

    start: Callable[[random.Random], dict[str, Any]]
    moves: tuple[tuple[str, Mapping[str, Any]], ...]
    practice: Mapping[str, Any]
    join: bool = True


def soak_seats(low: int, high: int) -> Callable[[random.Random], dict[str, Any]]:
    """A :attr:`SoakStrategy.start` of ``low`` to ``high`` players, fewer computers than
    players, and mostly a seed (so a run can be replayed)."""

    def options(rng: random.Random) -> dict[str, Any]:
        players = rng.randint(low, high)
        chosen: dict[str, Any] = {"players": players, "bots": rng.randint(0, players - 1)}
        if rng.random() < 0.8:
            chosen["seed"] = rng.randint(0, 10**6)
        return chosen

    return options


StateT = TypeVar("StateT", bound=GameState[Any, Any])


class GameAdapter(Protocol[StateT]):
    """What one game gives the session code; each game's adapter module defines one."""

    @property
    def name(self) -> str:
        """The command group and store name, e.g. ``"blackjack"``."""

    @property
    def min_seats(self) -> int:
        """The fewest seats (members and computers) a game can start with."""

    @property
    def max_seats(self) -> int:
        """The most seats a table has."""

    # What the catalog lists of the game: :class:`BaseAdapter` has a default for each but
    # the verbs and the soak strategy.

    @property
    def order(self) -> int:
        """Where the game comes in every list of the games (``/rules``, the benchmarks...),
        smallest first; games of one order by name."""

    @property
    def scores(self) -> Scores:
        """What its results count: wins, points as well (``/stats`` sums them), or hands
        against the House (``/leaderboard`` ranks by the share won)."""

    @property
    def console(self) -> Program | None:
        """Its console game (``deckhand play <game>``), if it has one."""

    @property
    def tools(self) -> Program | None:
        """Its command-line tools (``deckhand <game> ...``), if it has any."""

    @property
    def session_plays_computers(self) -> bool:
        """Whether the session plays its computer seats (:meth:`computer_action`, at the
        table's level) rather than its engine (Blackjack's, told the level in :meth:`new`)."""

    @property
    def verbs(self) -> tuple[str, ...]:
        """Every verb :meth:`parse` reads (``play``, ``take`` ...): its buttons', menus' and
        commands' moves."""

    @property
    def soak(self) -> SoakStrategy:
        """How the chaos soak plays it."""

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
    ) -> Rendered:
        """The public table after ``events`` (spectator view), with its buttons."""

    def hand(self, view: Any, names: Sequence[str], locale: str) -> Rendered:
        """One seat's private hand (its own view) in the member's ``locale``, with its
        buttons and the :class:`Menu` of its legal moves when it is their turn."""

    def private(
        self, view: Any, events: Sequence[Event], names: Sequence[str], locale: str
    ) -> Rendered | None:
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


class BaseAdapter:
    """What an adapter inherits: what the catalog lists of a game, and the hooks most games
    share: every move public (nothing told to the mover alone, no private step, no edit box),
    one safe move per timeout, the guild's turn limit, Deal again with the same options,
    leaving as a forfeit by the engine's ``forfeit(seat)``, a computer seat played by the
    session with :meth:`choose` (at once on the event loop, a hard one off it), no menu of
    its own, no suggestions.

    A game's adapter sets ``name``, ``min_seats``, ``max_seats``, ``verbs`` and ``soak``,
    writes its own hooks (``new``, ``restore``, ``timeout_action``, ``parse``, ``table``,
    ``hand`` and :meth:`choose`), and overrides what its game does otherwise (Uno's two
    timeout moves, Rummikub's staging, Blackjack's House)."""

    name: str
    min_seats: int
    max_seats: int
    verbs: tuple[str, ...]
    soak: SoakStrategy

    order: int = 100  # a game that names no place comes after those that do
    scores: Scores = Scores.WINS
    console: Program | None = None
    tools: Program | None = None
    session_plays_computers: bool = True

    forfeits: bool = True
    timeout_moves: int = 1

    def turn_seconds(self, settings: Settings) -> float:
        """The guild's default: the game has no limit of its own."""
        return settings.default_turn_seconds

    def next_options(self, state: Any, options: Mapping[str, Any]) -> dict[str, Any]:
        """The next deal keeps this one's options: nothing of the game carries over."""
        return dict(options)

    def hand_to_computer(self, state: Any, seat: int) -> Sequence[Event]:
        """Nothing changes at once: the session plays the seat with :meth:`computer_action`."""
        return ()

    def forfeit(self, state: Any, seat: int) -> Sequence[Event]:
        """The seat leaves the running game by the engine's rule (its cards go back, or a
        game of two is lost)."""
        return list(state.forfeit(seat))

    def computer_action(
        self,
        state: Any,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        """The computer player's move at ``level`` from the seat's own view only."""
        return self.choose(state.view(seat), level, rng)

    def choose(self, view: Any, level: Level, rng: random.Random | None) -> Action:
        """The game's computer player, ``rules/<game>/ai.py``'s ``choose_action``, on a
        seat's view."""
        raise NotImplementedError(f"{self.name}: the session plays no computer seat")

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
    ) -> Rendered | None:
        """Nothing is told to the member alone: every move shows on the table."""
        return None

    def picked(
        self, view: Any, step: str | None, value: str, locale: str, names: Sequence[str] = ()
    ) -> Move | Menu:
        """No second menu: a pick is the verb it names."""
        return (value, None)

    def suggest(self, view: Any, option: str, typed: str, locale: str) -> Sequence[Option]:
        """No command of the game takes a move to complete."""
        return ()


AnyAdapter = GameAdapter[Any]
"""An adapter of any game, as the catalog and the session code hold them."""


class UnknownGame(LookupError):
    """No game by that name (in a running bot: no cog registered it)."""


class GameCatalog:
    """The games this bot runs, by name, in their order (:attr:`GameAdapter.order`).

    A running bot's catalog is filled as each game's cog registers its adapter in ``setup``;
    :meth:`discover` is every game Deckhand has, for what must know them all without the
    cogs (``/rules``, the stats, ``deckhand``, the benchmarks, the tests).
    """

    def __init__(self, adapters: Iterable[AnyAdapter] = ()) -> None:
        self._games: dict[str, AnyAdapter] = {}
        for adapter in adapters:
            self.register(adapter)

    @classmethod
    def discover(cls, package: str = __name__) -> GameCatalog:
        """Every game of ``package``: each of its modules that defines ``ADAPTER`` is one
        (``bot/games/<game>.py``), so adding a game is adding its module."""
        return cls(_adapters_in(package))

    def register(self, adapter: AnyAdapter) -> None:
        """Add (or replace, on an extension reload) a game."""
        self._games[adapter.name] = adapter

    def unregister(self, name: str) -> None:
        """Drop a game (its extension was unloaded)."""
        self._games.pop(name, None)

    def get(self, name: str) -> AnyAdapter:
        """The adapter for ``name``; :class:`UnknownGame` if there is none."""
        try:
            return self._games[name]
        except KeyError:
            raise UnknownGame(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._games

    def __iter__(self) -> Iterator[AnyAdapter]:
        """The adapters in the games' order."""
        return iter(sorted(self._games.values(), key=lambda game: (game.order, game.name)))

    def __len__(self) -> int:
        return len(self._games)

    def names(self) -> list[str]:
        """The games' names in their order."""
        return [game.name for game in self]


@functools.cache
def _adapters_in(package: str) -> tuple[AnyAdapter, ...]:
    """The ``ADAPTER`` of each module of ``package`` that has one (helpers have none)."""
    root = importlib.import_module(package)
    found = []
    for info in pkgutil.iter_modules(root.__path__, f"{package}."):
        if info.name.rpartition(".")[2].startswith("_"):
            continue
        adapter: AnyAdapter | None = getattr(importlib.import_module(info.name), "ADAPTER", None)
        if adapter is not None:
            found.append(adapter)
    return tuple(found)

"""The engine contract shared by every game (docs/design.md §2).

A game package exposes ``new(players, *, seed=None, options=None)`` and
``restore(snapshot)`` functions returning a state that satisfies :class:`GameState`, plus a
computer player in ``ai.py``. Actions and events are frozen dataclasses. A refused action
raises :class:`IllegalAction` *before* anything changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, unique
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = [
    "Action",
    "Event",
    "GameOver",
    "GameState",
    "IllegalAction",
    "Outcome",
    "Result",
    "SnapshotError",
    "check_snapshot",
    "result_data",
    "result_from_data",
]


class IllegalAction(Exception):
    """An action the rules refuse; nothing has changed.

    ``reason`` is a sentence meant for the player (English). ``code`` is a stable key the bot
    uses to look up a translation, with ``params`` filled into it. A reason never names a
    card the player who sees it is not allowed to see.
    """

    def __init__(self, reason: str, *, code: str = "illegal", **params: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.params: dict[str, object] = params


class SnapshotError(ValueError):
    """A snapshot that cannot be restored: wrong game, unknown schema or damaged data."""


@dataclass(frozen=True, slots=True)
class Action:
    """Base class of every player decision."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of everything that happened, as reported by ``apply``."""


class TurnAgain(Event):
    """The seat that moved moves again, as a turn of its own (One Card's K): a fresh turn
    time, and the member is told, as when the turn comes round. A turn of several steps
    (a Rummikub arrangement, a Blackjack hit) is one turn and reports no such thing."""

    __slots__ = ()


@unique
class Outcome(Enum):
    """How one seat finished, for stats and leaderboards."""

    WIN = "win"
    LOSE = "lose"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game.

    ``outcomes[i]`` and ``scores[i]`` belong to seat ``i``; ``ranking`` lists seats best
    first. What a score means is the game's own (Go-Stop points, Uno points, cards left).
    """

    outcomes: tuple[Outcome, ...]
    scores: tuple[int, ...]
    ranking: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won."""
        return tuple(i for i, o in enumerate(self.outcomes) if o is Outcome.WIN)


def result_data(result: Result | None) -> dict[str, list[Any]] | None:
    """``result`` as a snapshot keeps it (``None`` while the game goes on)."""
    if result is None:
        return None
    return {
        "outcomes": [o.value for o in result.outcomes],
        "scores": list(result.scores),
        "ranking": list(result.ranking),
    }


def result_from_data(data: Mapping[str, Any] | None) -> Result | None:
    """The inverse of :func:`result_data`; a damaged entry raises ``KeyError``,
    ``TypeError`` or ``ValueError`` for the engine's restore to report."""
    if data is None:
        return None
    return Result(
        tuple(Outcome(o) for o in data["outcomes"]),
        tuple(int(s) for s in data["scores"]),
        tuple(int(s) for s in data["ranking"]),
    )


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """The game has ended; every engine emits it last."""

    result: Result


ActionT = TypeVar("ActionT", bound=Action)
ActionT_contra = TypeVar("ActionT_contra", bound=Action, contravariant=True)
ViewT_co = TypeVar("ViewT_co", covariant=True)


@runtime_checkable
class GameState(Protocol[ActionT_contra, ViewT_co]):
    """What the bot needs of every engine's state."""

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` when nobody is to act (game over)."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def result(self) -> Result | None:
        """The result once the game is over."""

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """What ``seat`` may do now; empty when it is not theirs to act."""

    def apply(self, seat: int, action: ActionT_contra) -> list[Event]:
        """Verify, then apply; raise :class:`IllegalAction` and change nothing if refused."""

    def view(self, seat: int | None) -> ViewT_co:
        """What ``seat`` may see (``None``: a spectator). Hidden cards are only counts."""

    def snapshot(self) -> dict[str, Any]:
        """A JSON-safe dict that ``restore`` turns back into an identical state."""


def check_snapshot(data: Mapping[str, Any], game: str, schema: int) -> None:
    """Refuse a snapshot of another game or of a schema this code does not read."""
    if not isinstance(data, Mapping):
        raise SnapshotError("a snapshot must be a JSON object")
    if data.get("game") != game:
        raise SnapshotError(f"snapshot is of game {data.get('game')!r}, expected {game!r}")
    if data.get("schema") != schema:
        raise SnapshotError(
            f"{game} snapshot schema {data.get('schema')!r} is not supported (expected {schema})"
        )

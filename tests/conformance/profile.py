"""What the conformance suite must be told of a game: the little no adapter says.

Each game has a profile in ``tests/conformance/games/<game>.py`` (its ``PROFILE``): the deals
to play (seats, options, computers), how long a game may run, which parts of a snapshot
no seat may see (so the suite can change them and check that no view changes), and the
few places where the game's own rules differ from the plain contract (Uno's moves out of
turn, its seed rules' penalty for a wrong card, Rummikub's table edits that
``legal_actions`` does not list). Everything else the suite reads from the adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import AnyAdapter
from rules.engine import Action
from rules.levels import Level

__all__ = ["Deal", "Profile", "Slot", "slots"]

Slot = tuple[list[Any], int]
"""One place in a snapshot's JSON that holds a card: a list and an index into it."""


def slots(items: list[Any], start: int = 0) -> list[Slot]:
    """Every place of ``items`` from ``start`` on."""
    return [(items, i) for i in range(start, len(items))]


def _none(snapshot: dict[str, Any]) -> list[Any]:
    return []


def _never(*_: Any) -> bool:
    return False


@dataclass(frozen=True)
class Deal:
    """One way to deal a game: ``seats``, the engine's ``options``, the seats computers hold
    from the start and at what level, and whether the seed is the bot's own secret one (a
    fair deal) or a member's."""

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    computers: tuple[int, ...] = ()
    level: Level = Level.NORMAL
    secret: bool = True

    def __str__(self) -> str:
        words = [f"{self.seats} seats", *(f"{k}={v}" for k, v in sorted(self.options.items()))]
        if self.computers:
            words.append(f"computers {list(self.computers)} {self.level.value}")
        if not self.secret:
            words.append("member's seed")
        return ", ".join(words)


@dataclass(frozen=True)
class Profile:
    """A game as the conformance suite plays it.

    ``deals`` are played with seeds ``0 .. seeds - 1`` each; a game still running after
    ``max_decisions`` fails. ``hands(snapshot)`` gives each seat's hidden cards (an empty
    list for a seat whose cards are public) and ``stock(snapshot)`` the hidden cards no
    seat holds (a draw pile's, a face-down card's), as places in the snapshot's JSON;
    exchanging them must change no other seat's view.

    Where a game's rules depart from the plain contract:

    - ``out_of_turn(state, seat, action)``: the rules let ``seat``, not the one to act,
      play ``action`` now (Uno's jump-in and catch); any other move offered out of turn fails;
    - ``open_moves``: ``legal_actions`` lists the turn's choices but not every legal move
      (Rummikub's table edits), so a move that is not listed may still be accepted;
    - ``lenient(state, seat, action)``: the rules accept this move even though it is not
      offered, as a penalised one (Uno's seed rules);
    - ``reveals(action)``: what the move does in public depends on another seat's hidden
      cards by the rules (Uno's challenge shows whether the Wild Draw Four was legal).

    ``button_moves``: every game button a seat is offered (its hand's, and the public
    table's for the seat to act) is one of its offered moves, as Blackjack's, whose moves are
    only buttons; otherwise a button need only parse (Uno's Draw stays on the table in every
    phase and is refused with a reason when it is no move).

    ``commands`` maps each command option the adapter completes (:meth:`suggest`) to the
    verb its command sends. ``adapter`` builds the adapter of a game no cog registers (the
    reference game).
    """

    deals: tuple[Deal, ...]
    seeds: int
    max_decisions: int
    hands: Callable[[dict[str, Any]], Sequence[Sequence[Slot]]] = _none
    stock: Callable[[dict[str, Any]], Sequence[Slot]] = _none
    out_of_turn: Callable[[Any, int, Action], bool] = _never
    open_moves: bool = False
    lenient: Callable[[Any, int, Action], bool] = _never
    reveals: Callable[[Action], bool] = _never
    button_moves: bool = False
    commands: Mapping[str, str] = field(default_factory=dict)
    adapter: Callable[[], AnyAdapter] | None = None

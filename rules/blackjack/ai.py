"""The Blackjack computer player: the seed program's rule (rule 7).

Below 14 it always hits, above 17 it always stands, and from 14 to 17 it tosses a coin: the
seed's ``int is_hit = rand() % 2``, 1 meaning Hit. The coin is a callable so it is drawn
only when the rule needs it, exactly when the seed program called ``rand()``; the engine
passes its own random stream, which is what makes seeded games replay the seed.

Levels (issue 18; the engine's ``computer_level`` option): ``normal`` is that rule.
``hard`` is basic strategy for these rules (Hit or Stand only, no double or split, the House
stands on all 17s and has already checked for Blackjack): against the House's face-up card it
stands on hard 12 against 4–6, hard 13–16 against 2–6, hard 17 up, soft 18 against 2–8 and
soft 19 up, and hits everything else. ``easy`` is a beginner with the reasoning backwards:
afraid of the House's strong cards (7 to Ace) it stands on any hard 12 or more against them,
while against a weak card it hits until 17; it hits every soft total below 19. Neither draws a
coin, so only ``normal`` touches the engine's random stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from rules.blackjack.events import Hit, Stand
from rules.levels import Level

if TYPE_CHECKING:
    from rules.blackjack.state import BlackjackView

__all__ = [
    "ALWAYS_HIT_BELOW",
    "ALWAYS_STAND_ABOVE",
    "HIT",
    "STAND",
    "basic_strategy",
    "choose",
    "decide",
    "decide_at",
]

ALWAYS_HIT_BELOW: Final = 14
ALWAYS_STAND_ABOVE: Final = 17
HIT: Final = Hit()
STAND: Final = Stand()


def decide(total: int, coin: Callable[[], int]) -> Hit | Stand:
    """The move for a hand worth ``total``; ``coin()`` is called only from 14 to 17."""
    if total < ALWAYS_HIT_BELOW:
        return HIT
    if total > ALWAYS_STAND_ABOVE:
        return STAND
    return HIT if coin() == 1 else STAND


def basic_strategy(total: int, soft: bool, up: int) -> Hit | Stand:
    """Hit or Stand by basic strategy; ``up`` is the House's face-up card (Ace 1, faces 10)."""
    if soft:
        return STAND if total >= 19 or (total == 18 and 2 <= up <= 8) else HIT
    if total >= 17:
        return STAND
    if total >= 13:
        return STAND if 2 <= up <= 6 else HIT
    if total == 12:
        return STAND if 4 <= up <= 6 else HIT
    return HIT


def _backwards(total: int, soft: bool, up: int) -> Hit | Stand:
    if soft:
        return HIT if total < 19 else STAND
    strong = up == 1 or up >= 7
    return STAND if total >= 17 or (strong and total >= 12) else HIT


def decide_at(
    level: Level, total: int, soft: bool, up: int, coin: Callable[[], int]
) -> Hit | Stand:
    """The move of a ``level`` computer for a hand worth ``total`` (``soft``: an Ace counts
    11) against the House's face-up ``up``; only ``normal`` calls ``coin``."""
    if level is Level.NORMAL:
        return decide(total, coin)
    if level is Level.HARD:
        return basic_strategy(total, soft, up)
    return _backwards(total, soft, up)


def choose(
    view: BlackjackView, coin: Callable[[], int], level: Level = Level.NORMAL
) -> Hit | Stand:
    """The move for the seat to act in ``view`` (every hand is public, so any view will do)."""
    if view.current is None:
        raise ValueError("nobody is to act: the game is over")
    total = view.totals[view.current]
    raw = sum(min(int(card.rank), 10) for card in view.hands[view.current])
    up = min(int(view.house[0].rank), 10)
    return decide_at(level, total, total != raw, up, coin)

"""The Blackjack computer player: the seed program's rule (rule 7).

Below 14 it always hits, above 17 it always stands, and from 14 to 17 it tosses a coin: the
seed's ``int is_hit = rand() % 2``, 1 meaning Hit. The coin is a callable so it is drawn
only when the rule needs it, exactly when the seed program called ``rand()``; the engine
passes its own random stream, which is what makes seeded games replay the seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from rules.blackjack.events import Hit, Stand

if TYPE_CHECKING:
    from rules.blackjack.state import BlackjackView

__all__ = ["ALWAYS_HIT_BELOW", "ALWAYS_STAND_ABOVE", "HIT", "STAND", "choose", "decide"]

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


def choose(view: BlackjackView, coin: Callable[[], int]) -> Hit | Stand:
    """The move for the seat to act in ``view`` (every hand is public, so any view will do)."""
    if view.current is None:
        raise ValueError("nobody is to act: the game is over")
    return decide(view.totals[view.current], coin)

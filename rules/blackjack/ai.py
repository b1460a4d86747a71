"""The Blackjack computer player: the seed program's rule (rule 7).

Below 14 it always hits, above 17 it always stands, and from 14 to 17 it tosses a coin: the
seed's ``int is_hit = rand() % 2``, 1 meaning Hit. The coin is a callable so it is drawn
only when the rule needs it, exactly when the seed program called ``rand()``; the engine
passes its own random stream, which is what makes seeded games replay the seed.

Levels (the engine's ``computer_level`` option): ``normal`` is that rule.
``hard`` is basic strategy for these rules (Hit or Stand only, no double or split, the House
stands on all 17s and has already checked for Blackjack): against the House's face-up card it
stands on hard 12 against 4–6, hard 13–16 against 2–6, hard 17 up, soft 18 against 2–8 and
soft 19 up, and hits everything else. ``easy`` is a beginner with the reasoning backwards:
afraid of the House's strong cards (7 to Ace) it stands on any hard 12 or more against them,
while against a weak card it hits until 17; it hits every soft total below 19. Neither draws a
coin, so only ``normal`` touches the engine's random stream.

At a casino table (:func:`casino_move`) each level also doubles and splits, and Hit/Stand
stay as above when it does neither. ``hard`` plays the basic strategy chart for four decks,
double after split allowed, no surrender (the common casino chart; the House hitting soft 17
moves three cells: double 11 against an Ace, soft 18 against 2 and soft 19 against 6).
``normal`` keeps the seed's coin for Hit/Stand and adds the two rules every regular knows:
double a hard 10 or 11 against a 2 to 9, and always split Aces and eights. ``easy`` doubles
only a hard 11 and splits only Aces. None of this draws a coin: the coin is still tossed
only where the seed's rule tosses it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from rules.blackjack.events import Double, Hit, Split, Stand
from rules.levels import Level

if TYPE_CHECKING:
    from rules.blackjack.state import BlackjackView

__all__ = [
    "ALWAYS_HIT_BELOW",
    "ALWAYS_STAND_ABOVE",
    "DOUBLE",
    "HIT",
    "SPLIT",
    "STAND",
    "basic_strategy",
    "casino_move",
    "choose_action",
    "decide",
    "decide_at",
]

ALWAYS_HIT_BELOW: Final = 14
ALWAYS_STAND_ABOVE: Final = 17
HIT: Final = Hit()
STAND: Final = Stand()
DOUBLE: Final = Double()
SPLIT: Final = Split()

Move = Hit | Stand | Double | Split


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


def _split_pair(pair: int, up: int) -> bool:
    """Basic strategy's pair splitting, double after split allowed (``pair``: the cards'
    value, Ace 1, tens and faces 10; ``up`` likewise). The House's soft 17 changes none."""
    if pair in (1, 8):
        return True
    if pair == 9:
        return up not in (1, 7, 10)
    if pair in (2, 3, 7):
        return 2 <= up <= 7
    if pair == 6:
        return 2 <= up <= 6
    if pair == 4:
        return up in (5, 6)
    return False  # fives play as a hard 10, tens stand


def _double_down(total: int, soft: bool, up: int, hits_soft17: bool) -> bool:
    """Basic strategy's doubles on two cards (four decks)."""
    if soft:
        if total in (13, 14):
            return up in (5, 6)
        if total in (15, 16):
            return 4 <= up <= 6
        if total == 17:
            return 3 <= up <= 6
        if total == 18:
            return (2 if hits_soft17 else 3) <= up <= 6
        return total == 19 and hits_soft17 and up == 6
    if total == 9:
        return 3 <= up <= 6
    if total == 10:
        return 2 <= up <= 9
    if total == 11:
        return up != 1 or hits_soft17
    return False


def casino_move(
    level: Level,
    total: int,
    soft: bool,
    up: int,
    coin: Callable[[], int],
    *,
    pair: int | None = None,
    may_double: bool = False,
    hits_soft17: bool = False,
) -> Move:
    """A ``level`` computer's move at a casino table. ``pair`` is the value of the pair it
    may split (``None``: no split is allowed), ``may_double`` whether it may double."""
    if level is Level.HARD:
        if pair is not None and _split_pair(pair, up):
            return SPLIT
        if may_double and _double_down(total, soft, up, hits_soft17):
            return DOUBLE
        return basic_strategy(total, soft, up)
    normal = level is Level.NORMAL
    if pair == 1 or (pair == 8 and normal):
        return SPLIT
    if may_double and not soft:
        if normal and total in (10, 11) and 2 <= up <= 9:
            return DOUBLE
        if not normal and total == 11:
            return DOUBLE
    return decide_at(level, total, soft, up, coin)


def choose_action(
    view: BlackjackView, coin: Callable[[], int], level: Level = Level.NORMAL
) -> Move:
    """The move for the seat to act in ``view`` (every hand is public, so any view will do);
    at a casino table the hand in play, doubling and splitting where the view allows."""
    if view.current is None:
        raise ValueError("nobody is to act: the game is over")
    if view.ruleset == "casino" and view.seat_hands:
        cards = view.seat_hands[view.current][view.playing].cards
    else:
        cards = view.hands[view.current]
    values = [min(int(card.rank), 10) for card in cards]
    raw = sum(values)
    total = raw + 10 if 1 in values and raw <= 11 else raw
    up = min(int(view.house[0].rank), 10)
    if view.ruleset != "casino":
        return decide_at(level, total, total != raw, up, coin)
    return casino_move(
        level,
        total,
        total != raw,
        up,
        coin,
        pair=values[0] if view.may_split else None,
        may_double=view.may_double,
        hits_soft17=view.house_hits_soft17,
    )

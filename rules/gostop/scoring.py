"""Go-Stop scoring (rules 17–26): the breakdown of a capture pile and the settlement.

Everything works on card indices (see :mod:`rules.gostop.cards`). The 국진 (September animal)
counts where it gives its owner the higher score (rule 21), a tie keeping it an animal. "Score"
is the base score, as in rules 22 and 24: one placement (:func:`best_points`) serves both players,
in play (what may be stolen) and in the settlement alike, so a loser's 국진 is never moved to
spare them a bak and a winner's never to earn one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.gostop.cards import BIRDS, CARDS, DANS, GUKJIN, RAIN_BRIGHT, Kind

__all__ = [
    "DELTAS",
    "TALLY_SIZE",
    "WINNING_SCORE",
    "Breakdown",
    "Settlement",
    "best_breakdown",
    "best_points",
    "best_score",
    "best_tally_breakdown",
    "breakdown",
    "first_steal",
    "go_terms",
    "settle",
    "settle_tallies",
    "settle_total",
    "steal_order",
    "tally",
    "tally_points",
]

WINNING_SCORE = 7
PI_BAK_MAX = 7  # a loser whose pi value is 1..7 pays double
MEONG_TTA_ANIMALS = 7

# Per index: 0 bright, 1 animal, 2 ribbon, 3 junk-like (junk, 쌍피, bonus).
_BRIGHT, _ANIMAL, _RIBBON, _JUNK = 0, 1, 2, 3
_KIND_CODE: tuple[int, ...] = tuple(
    _BRIGHT
    if c.kind is Kind.BRIGHT
    else _ANIMAL
    if c.kind is Kind.ANIMAL
    else _RIBBON
    if c.kind is Kind.RIBBON
    else _JUNK
    for c in CARDS
)
_PI_VALUE: tuple[int, ...] = tuple(c.pi_value for c in CARDS)
# Per index, for the steal order: plain junk, 쌍피, bonus card, or no pi (0).
_JUNK_PI, _DOUBLE_PI, _BONUS_PI = 1, 2, 3
_STEAL_KIND: tuple[int, ...] = tuple(
    {Kind.JUNK: _JUNK_PI, Kind.DOUBLE: _DOUBLE_PI, Kind.BONUS: _BONUS_PI}.get(c.kind, 0)
    for c in CARDS
)
_DAN_SETS = tuple(DANS.values())


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Points of one capture pile by category, and the counts they come from."""

    bright: int
    animal: int
    ribbon: int
    pi: int
    godori: int
    dan: int
    brights: int  # number of bright cards
    animals: int  # number of animals, 국진 included when it counts as one
    ribbons: int
    pi_value: int  # total junk value, 국진 included (as 2) when it counts as 쌍피
    gukjin_as_double: bool

    @property
    def total(self) -> int:
        """The base score: the sum of the six categories."""
        return self.bright + self.animal + self.ribbon + self.pi + self.godori + self.dan

    def as_dict(self) -> dict[str, int]:
        """The score-sheet ``breakdown`` object (rule 27)."""
        return {
            "bright": self.bright,
            "animal": self.animal,
            "ribbon": self.ribbon,
            "pi": self.pi,
            "godori": self.godori,
            "dan": self.dan,
        }


# A tally: counts one pile keeps up to date card by card (the engine adds and removes cards
# as they move), so a score is a few integer operations instead of a pass over the pile.
T_BRIGHT, T_RAIN, T_ANIMAL, T_GUKJIN, T_BIRD, T_RIBBON, T_HONG, T_CHEONG, T_CHO, T_PI = range(10)
TALLY_SIZE = 10


def _deltas(i: int) -> tuple[tuple[int, int], ...]:
    kind = _KIND_CODE[i]
    if kind == _JUNK:
        return ((T_PI, _PI_VALUE[i]),)
    if kind == _BRIGHT:
        return ((T_BRIGHT, 1), (T_RAIN, 1)) if i == RAIN_BRIGHT else ((T_BRIGHT, 1),)
    if kind == _ANIMAL:
        if i == GUKJIN:
            return ((T_GUKJIN, 1),)
        return ((T_ANIMAL, 1), (T_BIRD, 1)) if i in BIRDS else ((T_ANIMAL, 1),)
    dan_slots = tuple(
        (slot, 1)
        for slot, cards in zip((T_HONG, T_CHEONG, T_CHO), _DAN_SETS, strict=True)
        if i in cards
    )
    return ((T_RIBBON, 1), *dan_slots)


DELTAS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_deltas(c.index) for c in CARDS)


def tally(captured: Iterable[int]) -> list[int]:
    """The counts of a pile (see ``DELTAS``)."""
    counts = [0] * TALLY_SIZE
    for i in captured:
        for slot, amount in DELTAS[i]:
            counts[slot] += amount
    return counts


def _animal_pi_points(animals: int, pi_value: int) -> int:
    return (animals - 4 if animals >= 5 else 0) + (pi_value - 9 if pi_value >= 10 else 0)


def tally_points(t: list[int], gukjin_as_double: bool) -> int:
    """The base score of a tally with the 국진 placed as told (same sums as ``Breakdown``)."""
    placed = list(t)
    placed[T_GUKJIN] = 0
    if gukjin_as_double:
        placed[T_PI] += 2 * t[T_GUKJIN]
    else:
        placed[T_ANIMAL] += t[T_GUKJIN]
    return best_points(placed)[0]


def best_points(t: list[int]) -> tuple[int, bool]:
    """(base score, 국진 counted as 쌍피) with the 국진 where it scores higher; tie: animal."""
    gukjin = t[T_GUKJIN]
    if not gukjin:
        return best_score(t), False
    animal, pi = t[T_ANIMAL], t[T_PI]
    as_double = _animal_pi_points(animal, pi + 2 * gukjin) > _animal_pi_points(animal + gukjin, pi)
    return best_score(t), as_double


def best_score(t: list[int]) -> int:
    """``best_points(t)[0]``, the base score alone: what the engine reads once a turn.

    One unpacking of the tally instead of ten subscripts, the common case (no 국진) summed
    inline and no tuple built: about a third faster than ``best_points`` was.
    """
    bright, rain, animal, gukjin, bird, ribbon, hong, cheong, cho, pi = t  # T_BRIGHT..T_PI
    points = 0
    # Gated by what each category needs at least (three brights; three ribbons for a dan,
    # five to score as ribbons), so a small pile, the common case, costs three tests.
    if bright >= 3:
        points = 15 if bright == 5 else 4 if bright == 4 else 3 - rain
    if ribbon >= 3:
        if ribbon >= 5:
            points += ribbon - 4
        if hong == 3:  # branches, not a sum of bools: bool arithmetic is unspecialised
            points += 3
        if cheong == 3:
            points += 3
        if cho == 3:
            points += 3
    if bird == 3:
        points += 5
    if gukjin:
        # _animal_pi_points inline (no calls): the 국진 as an animal, then as 쌍피
        animals, pi_value = animal + gukjin, pi + 2 * gukjin
        as_animal = (animals - 4 if animals >= 5 else 0) + (pi - 9 if pi >= 10 else 0)
        as_double = (animal - 4 if animal >= 5 else 0) + (pi_value - 9 if pi_value >= 10 else 0)
        return points + (as_double if as_double > as_animal else as_animal)
    return points + (animal - 4 if animal >= 5 else 0) + (pi - 9 if pi >= 10 else 0)


def breakdown(captured: Iterable[int], *, gukjin_as_double: bool = False) -> Breakdown:
    """Score a capture pile with the 국진 placed as told (rules 17–20)."""
    return _tally_breakdown(tally(captured), gukjin_as_double)


def _tally_breakdown(t: list[int], gukjin_as_double: bool) -> Breakdown:
    brights = t[T_BRIGHT]
    held_gukjin = t[T_GUKJIN] > 0
    as_double = gukjin_as_double and held_gukjin
    animals = t[T_ANIMAL] + (0 if as_double else t[T_GUKJIN])
    pi_value = _pi_value(t, as_double)
    ribbons = t[T_RIBBON]
    if brights == 5:
        bright = 15
    elif brights == 4:
        bright = 4
    elif brights == 3:
        bright = 3 - t[T_RAIN]  # the rain bright makes three worth 2
    else:
        bright = 0
    return Breakdown(
        bright=bright,
        animal=animals - 4 if animals >= 5 else 0,
        ribbon=ribbons - 4 if ribbons >= 5 else 0,
        pi=pi_value - 9 if pi_value >= 10 else 0,
        godori=5 if t[T_BIRD] == 3 else 0,
        dan=3 * ((t[T_HONG] == 3) + (t[T_CHEONG] == 3) + (t[T_CHO] == 3)),
        brights=brights,
        animals=animals,
        ribbons=ribbons,
        pi_value=pi_value,
        gukjin_as_double=as_double,
    )


def _pi_value(t: list[int], gukjin_as_double: bool) -> int:
    return t[T_PI] + 2 * t[T_GUKJIN] if gukjin_as_double else t[T_PI]


def best_breakdown(captured: Iterable[int]) -> Breakdown:
    """The breakdown with the 국진 where :func:`best_points` places it (rule 21)."""
    return best_tally_breakdown(tally(captured))


def best_tally_breakdown(t: list[int]) -> Breakdown:
    """:func:`best_breakdown` of a pile from its tally (the engine keeps one per pile)."""
    return _tally_breakdown(t, best_points(t)[1])


def steal_order(captured: Iterable[int], *, gukjin_as_double: bool) -> list[int]:
    """Pi the opponent would take, lowest value first (rule 15).

    Plain pi, then 쌍피 (the 국진 too when it counts as one), then bonus cards (2 before 3).
    An animal 국진 is never stolen.
    """
    plain: list[int] = []
    doubles: list[int] = []
    bonus: list[int] = []
    gukjin = False
    # The kinds read from a table: each ``Kind.X`` read is a call into EnumType.__getattr__
    # (CPython 3.11 cannot specialise attribute reads on a class with one), three per card.
    for i in captured:
        kind = _STEAL_KIND[i]
        if kind == _JUNK_PI:
            plain.append(i)
        elif kind == _DOUBLE_PI:
            doubles.append(i)
        elif kind == _BONUS_PI:
            bonus.append(i)
        elif i == GUKJIN:
            gukjin = gukjin_as_double
    plain.sort()
    doubles.sort()
    if gukjin:
        doubles.append(GUKJIN)
    bonus.sort(key=lambda i: (_PI_VALUE[i], i))
    return plain + doubles + bonus


# A rank per card that sorts as steal_order does (plain pi by index, then 쌍피 by index with the
# 국진 after them when it counts as one, then bonus cards by value), or _NOT_PI.
_NOT_PI = 1000


def _steal_ranks(gukjin_as_double: bool) -> tuple[int, ...]:
    ranks = []
    for c in CARDS:
        kind = _STEAL_KIND[c.index]
        if kind == _JUNK_PI:
            ranks.append(c.index)
        elif kind == _DOUBLE_PI:
            ranks.append(100 + c.index)
        elif kind == _BONUS_PI:
            ranks.append(300 + 100 * _PI_VALUE[c.index] + c.index)
        elif c.index == GUKJIN and gukjin_as_double:
            ranks.append(299)
        else:
            ranks.append(_NOT_PI)
    return tuple(ranks)


_STEAL_RANKS = (_steal_ranks(False), _steal_ranks(True))  # [gukjin_as_double]
_RANKED: dict[int, int] = {r: i for ranks in _STEAL_RANKS for i, r in enumerate(ranks)}


def first_steal(captured: Iterable[int], *, gukjin_as_double: bool) -> int:
    """``steal_order(...)[0]``, or -1 when there is no pi to steal: the engine takes one card
    at a time, so it needs the least only, not the sorted lists."""
    least = min(map(_STEAL_RANKS[gukjin_as_double].__getitem__, captured), default=_NOT_PI)
    return -1 if least == _NOT_PI else _RANKED[least]


def go_terms(goes: int) -> tuple[int, int]:
    """(go bonus points, go multiplier) for ``goes`` Go calls (rule 23)."""
    return goes, (1 << (goes - 2)) if goes >= 3 else 1


@dataclass(frozen=True, slots=True)
class Settlement:
    """The winner's score sheet (rules 23–27)."""

    base: int
    go_bonus: int
    multiplier: int
    total: int
    breakdown: Breakdown
    baks: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        """The JSON object of rule 27."""
        return {
            "base": self.base,
            "go_bonus": self.go_bonus,
            "multiplier": self.multiplier,
            "total": self.total,
            "breakdown": self.breakdown.as_dict(),
            "baks": list(self.baks),
        }


def settle(
    winner_captured: Iterable[int],
    loser_captured: Iterable[int],
    *,
    winner_go: int = 0,
    shakes: int = 0,
    bombs: int = 0,
    loser_go: int = 0,
    nagari_carry: int = 0,
) -> Settlement:
    """The winner's final points before instant points: (base + go bonus) × multipliers.

    Multipliers (×2 each, rule 24): each shake and bomb, pi-bak, gwang-bak, meong-tta, go-bak,
    each carried nagari; three or more Go's add ×2^(n−2) (rule 23). Each player's 국진 is
    placed for their own higher score (:func:`best_breakdown`, rule 21), whatever it does to
    the multipliers.
    """
    return settle_tallies(
        tally(winner_captured),
        tally(loser_captured),
        winner_go=winner_go,
        shakes=shakes,
        bombs=bombs,
        loser_go=loser_go,
        nagari_carry=nagari_carry,
    )


def settle_tallies(
    winner_tally: list[int],
    loser_tally: list[int],
    *,
    winner_go: int = 0,
    shakes: int = 0,
    bombs: int = 0,
    loser_go: int = 0,
    nagari_carry: int = 0,
) -> Settlement:
    """:func:`settle` from the two piles' tallies (the engine keeps one per pile)."""
    base, go_bonus, multiplier, baks, gukjin_as_double = _settle_terms(
        winner_tally,
        loser_tally,
        winner_go=winner_go,
        shakes=shakes,
        bombs=bombs,
        loser_go=loser_go,
        nagari_carry=nagari_carry,
    )
    return Settlement(
        base=base,
        go_bonus=go_bonus,
        multiplier=multiplier,
        total=(base + go_bonus) * multiplier,
        breakdown=_tally_breakdown(winner_tally, gukjin_as_double),
        baks=baks,
    )


def settle_total(
    winner_tally: list[int],
    loser_tally: list[int],
    *,
    winner_go: int = 0,
    shakes: int = 0,
    bombs: int = 0,
    loser_go: int = 0,
    nagari_carry: int = 0,
) -> int:
    """``settle_tallies(...).total`` without building the score sheet: what a Stop pays, which
    the engine needs at once (the sheet itself waits until someone reads it)."""
    base, go_bonus, multiplier, _, _ = _settle_terms(
        winner_tally,
        loser_tally,
        winner_go=winner_go,
        shakes=shakes,
        bombs=bombs,
        loser_go=loser_go,
        nagari_carry=nagari_carry,
    )
    return (base + go_bonus) * multiplier


def _settle_terms(
    winner_tally: list[int],
    loser_tally: list[int],
    *,
    winner_go: int,
    shakes: int,
    bombs: int,
    loser_go: int,
    nagari_carry: int,
) -> tuple[int, int, int, tuple[str, ...], bool]:
    """(base, go bonus, multiplier, baks, the winner's 국진 counted as 쌍피) of a settlement,
    read from the tallies: no Breakdown is built (this runs at every Stop)."""
    go_bonus, go_multiplier = go_terms(winner_go)
    base, gukjin_as_double = best_points(winner_tally)
    # The winner's counts as their Breakdown has them, the 국진 placed as best_points put it.
    pi_value = _pi_value(winner_tally, gukjin_as_double)
    animals = winner_tally[T_ANIMAL] + (0 if gukjin_as_double else winner_tally[T_GUKJIN])
    # Of the loser's pile only two counts matter.
    loser_pi_value = _pi_value(loser_tally, best_points(loser_tally)[1])
    baks: list[str] = []
    if pi_value >= 10 and 1 <= loser_pi_value <= PI_BAK_MAX:  # the winner scores pi
        baks.append("pi-bak")
    if winner_tally[T_BRIGHT] >= 3 and loser_tally[T_BRIGHT] == 0:  # ... scores brights
        baks.append("gwang-bak")
    if animals >= MEONG_TTA_ANIMALS:
        baks.append("meong-tta")
    if loser_go > 0:
        baks.append("go-bak")
    multiplier = go_multiplier << (shakes + bombs + len(baks) + nagari_carry)
    return base, go_bonus, multiplier, tuple(baks), gukjin_as_double

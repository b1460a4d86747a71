"""Arranged Go-Stop positions: a dealt game whose cards are then placed by hand, via a snapshot."""

from collections.abc import Iterable, Sequence
from typing import Any

from rules.gostop import GostopState, new, restore
from rules.gostop.cards import parse_hwatu


def ids(codes: Iterable[str]) -> list[int]:
    return [parse_hwatu(c).index for c in codes]


def arrange(
    hands: tuple[Sequence[str], Sequence[str]],
    floor: Sequence[str],
    pile: Sequence[str],
    *,
    captured: tuple[Sequence[str], Sequence[str]] = ((), ()),
    stacks: dict[int, int] | None = None,
    seat: int = 0,
    **fields: Any,
) -> GostopState:
    """A position: ``pile`` is listed in flip order (first flipped first).

    ``fields`` override other snapshot entries (``turns``, ``goes``, ``ppuks`` ...).
    """
    data = new(2, seed=1, options={"dealer": 0}).snapshot()
    data.update(
        hands=[sorted(ids(hands[0])), sorted(ids(hands[1]))],
        floor=ids(floor),
        pile=list(reversed(ids(pile))),
        captured=[ids(captured[0]), ids(captured[1])],
        stacks=[[m, o] for m, o in (stacks or {}).items()],
        phase=1,
        seat=seat,
        turns=[1, 1],
        opening=[0, 0],
        pending=[],
        choices=[],
    )
    for key, value in fields.items():
        data[key] = value
    return restore(data)


def codes(cards: Iterable[Any]) -> list[str]:
    return [c.code for c in cards]


def pile_codes(state: GostopState, seat: int) -> list[str]:
    p = state.view(None).piles[seat]
    return sorted(codes([*p.brights, *p.animals, *p.ribbons, *p.pi]))


def floor_codes(state: GostopState) -> list[str]:
    return sorted(c.code for _, cards, _ in state.view(None).floor for c in cards)

"""Arranged Go-Stop positions: a dealt game whose cards are then placed by hand, via a snapshot;
a deal made to order (:func:`deal_order`, :func:`chongtong_deal`); the fillers and positions
the rule tests share."""

from collections.abc import Iterable, Sequence
from typing import Any

from rules.gostop import State, new, restore
from rules.gostop.cards import DECK, parse_hwatu
from rules.gostop.events import Special
from rules.gostop.state import _deal


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
) -> State:
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


def pile_codes(state: State, seat: int) -> list[str]:
    p = state.view(None).piles[seat]
    return sorted(codes([*p.brights, *p.animals, *p.ribbons, *p.pi]))


def floor_codes(state: State) -> list[str]:
    return sorted(c.code for _, cards, _ in state.view(None).floor for c in cards)


FILL0 = ("10열", "10띠")  # filler cards that keep a hand from being its last
FILL1 = ("11광", "11피a")


def specials(events: list[object]) -> list[str]:
    return [e.name for e in events if isinstance(e, Special)]


def deal_order(hand0: list[str], hand1: list[str], floor: list[str]) -> list[int]:
    """A card list that ``_deal`` (dealer 0) turns into these hands and floor."""
    rest = [c.index for c in DECK if c.code not in {*hand0, *hand1, *floor}]
    order: list[int] = []
    h0, h1, fl = ids(hand0), ids(hand1), ids(floor)
    for i in range(10):
        order += [h0[i], h1[i]]
        if i < 8:
            order.append(fl[i])
    return rest + list(reversed(order))


HAND0 = ["1광", "1띠", "2열", "2띠", "3광", "3띠", "4열", "4띠", "5열", "5띠"]
HAND1 = ["6열", "6띠", "7열", "7띠", "8광", "8열", "9열", "9띠", "10열", "10띠"]


def chongtong_deal(dealer: int) -> State:
    """Seat 0 dealt all four cards of January; seat ``dealer`` deals."""
    hand0 = ["1광", "1띠", "1피a", "1피b", *HAND0[4:]]
    floor = ["11광", "11피a", "11피b", "12광", "12열", "6피a", "2피a", "3피a"]
    hand0 = [c for c in hand0 if c not in floor]
    hand0 += ["7피a", "7피b", "8피a", "8피b"][: 10 - len(hand0)]
    state = new(2, seed=1, options={"dealer": dealer})
    hands = (hand0, HAND1) if dealer == 0 else (HAND1, hand0)
    assert _deal(state, deal_order(*hands, floor))
    return state


# Plain pi of months 3–9: worth 14, five points; one more pair makes seven.
FIVE_POINTS = [f"{m}피{x}" for m in range(3, 10) for x in "ab"]


def near_seven(hand0: tuple[str, ...], pile: list[str], **fields: object) -> State:
    """Seat 0 to play ``hand0`` with five points of pi taken (one more pair makes seven),
    ``1피a`` and ``8광`` on the floor and ``pile`` to flip."""
    return arrange(
        (hand0, FILL1),
        ["1피a", "8광"],
        pile,
        captured=(FIVE_POINTS, ()),
        **fields,
    )

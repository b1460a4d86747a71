"""Rummikub's adapter: every tile form of rule 1 in every verb, refusals with codes, the
Arrange box's text both ways, and the autocomplete of valid rack sets, best first."""

from __future__ import annotations

import pytest

from bot.games.rummikub import ADAPTER, arrange_text, parse_table
from bot.i18n import refusal
from rules.engine import IllegalAction
from rules.rummikub import Back, Done, Draw, Gather, PutSet, SplitSet, Stage, Undo
from rules.rummikub.tiles import parse_tile
from tests.bot.text.test_rummikub import STATE_RACKS, STATE_TABLE, game


def tiles(text: str) -> tuple:  # type: ignore[type-arg]
    return tuple(parse_tile(c) for c in text.split())


@pytest.mark.parametrize(
    "typed",
    ["R5 R6 R7", "r5 r6 r7", "R5,R6,R7", "  R5 ,  r6,R7 ", "빨5 빨6 빨7", "r 5 r 6 r 7"],
)
def test_put_reads_every_form_of_a_tile(typed: str) -> None:
    assert ADAPTER.parse("put", typed) == PutSet(tiles("R5 R6 R7"))


def test_yellow_is_orange_and_jokers_have_every_name() -> None:
    assert ADAPTER.parse("put", "Y5 O6 노7") == PutSet(tiles("O5 O6 O7"))
    assert ADAPTER.parse("put", "J * 조커") == PutSet(tiles("J J J"))
    assert ADAPTER.parse("put", "검5 파5 K5") == PutSet(tiles("K5 B5 K5"))


def test_add_and_move_name_rack_tiles_and_tiles_of_sets() -> None:
    assert ADAPTER.parse("add", "3 R8 2:K9, 1 : J") == Gather(
        ((None, parse_tile("R8")), (1, parse_tile("K9")), (0, parse_tile("J"))), 2
    )
    assert ADAPTER.parse("move", "new 3:K9 2:J") == Gather(
        ((2, parse_tile("K9")), (1, parse_tile("J"))), None
    )
    # "new" as the Korean option's description says it: 새.
    assert ADAPTER.parse("move", "새 3:K9 2:J") == ADAPTER.parse("move", "new 3:K9 2:J")
    assert ADAPTER.parse("split", "3 4") == SplitSet(2, 3)


def test_the_turn_verbs() -> None:
    assert ADAPTER.parse("undo", None) == Back()
    assert ADAPTER.parse("reset", None) == Undo()
    assert ADAPTER.parse("done", None) == Done()
    assert ADAPTER.parse("draw", None) == Draw()


@pytest.mark.parametrize(
    ("verb", "arg", "code"),
    [
        ("put", "R14", "bad_tile"),
        ("put", "R01", "bad_tile"),
        ("add", "x R5", "no_set"),
        ("add", "2", "no_tiles"),
        ("split", "1 x", "no_place"),
        ("fly", None, "not_a_rummikub_move"),
        ("done", "now", "not_a_rummikub_move"),
    ],
)
def test_bad_input_is_refused_with_a_code(verb: str, arg: str, code: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        ADAPTER.parse(verb, arg)
    assert refused.value.code == code


def test_the_arrange_box_round_trip() -> None:
    state = game(STATE_RACKS, STATE_TABLE)
    text = arrange_text(state.view(0))
    assert text == "R3 R4 R5 R6 R7 R8\nK9 B9 J"
    assert parse_table(" 1: R3 R4 R5\n\n2: +R9 r6 R7 R8\nK9 B9 O9\nK1 K2 J") == (
        tiles("R3 R4 R5"),
        tiles("R9 R6 R7 R8"),
        tiles("K9 B9 O9"),
        tiles("K1 K2 J"),
    )
    assert isinstance(ADAPTER.parse("arrange", text), Stage)


def test_autocomplete_offers_valid_rack_sets_best_first() -> None:
    state = game(["R1 R2 R3 R4 B4 O4 K4 J", "K1"], [])
    offered = ADAPTER.suggest(state.view(0), "tiles", "", "en")
    assert 0 < len(offered) <= 25
    first = offered[0].value.split()
    assert len(first) == max(len(o.value.split()) for o in offered)
    assert all(o.value for o in offered)
    assert ADAPTER.suggest(state.view(1), "tiles", "", "en") == []  # not their turn
    typed = ADAPTER.suggest(state.view(0), "tiles", "B4", "en")
    assert typed[0].value.startswith("B4")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en", ["Not done:", "set 1: B9 B10 O9 — a group needs one number, a run one colour"]),
        (
            "ko",
            [
                "완료할 수 없어요:",
                "1번 세트: B9 B10 O9 — 그룹은 같은 숫자, 런은 같은 색이어야 해요",
            ],
        ),
    ],
)
def test_a_refused_done_says_which_set_and_why_in_the_members_language(
    locale: str, expected: list[str]
) -> None:
    state = game(["B9 O9 B10 R1 R2", "K5"], [])
    state.apply(0, ADAPTER.parse("put", "B9 O9 B10"))
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Done())
    assert refusal(refused.value, locale, "rummikub").splitlines() == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en",
            [
                "Your rack has no R5 B7 to use.",
                "Set 2 has no K1 to use.",
                "K9 is in set 2 already: move tiles to another set.",
                "Set 1 (R3 R4 R5 R6 R7 R8) cannot be split there: name a tile from the second"
                " to the last.",
                "Every tile of the table must stay on it; missing from your arrangement: B9 K9 J.",
            ],
        ),
        (
            "ko",
            [
                "내 타일에 R5 B7이(가) 없어요.",
                "2번 세트에 K1이(가) 없어요.",
                "K9은(는) 이미 2번 세트에 있어요: 다른 세트로 옮기세요.",
                "1번 세트(R3 R4 R5 R6 R7 R8)는 거기서 나눌 수 없어요: 두 번째부터 마지막 타일"
                " 중에서 고르세요.",
                "테이블의 타일은 모두 테이블에 남아야 해요. 배열에서 빠진 타일: B9 K9 J",
            ],
        ),
    ],
)
def test_every_refusal_names_the_tiles_it_means(locale: str, expected: list[str]) -> None:
    """Rule 11's refusals name their tiles ('one is missing from your arrangement' once named
    none): each says which, by their codes as the hand shows them, in the member's language."""
    state = game(STATE_RACKS, STATE_TABLE)
    said = []
    for verb, arg in [
        ("add", "1 R5 R9 B7"),
        ("move", "new 2:K1"),
        ("add", "2 2:K9"),
        ("split", "1 7"),
        ("arrange", "R3 R4 R5 R6 R7 R8"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(0, ADAPTER.parse(verb, arg))
        said.append(refusal(refused.value, locale, "rummikub"))
    assert said == expected
    assert state.view(0).staged is None  # nothing changed


def test_the_arrange_box_reads_the_turn_view_and_the_hint_as_they_are_shown() -> None:
    """Whatever a Rummikub view shows can be pasted into Arrange: a set wrapped over two
    lines (its further lines start with spaces), the numbers, the + of rack tiles, the
    checks, colour codes and a code block's fence."""
    from bot.text.rummikub import staged_text

    run = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"
    state = game([f"{run} B5", "K1"], ["K9 B9 J"])
    state.apply(0, ADAPTER.parse("put", run))
    view = state.view(0)
    shown = staged_text(view, "en")
    assert len(shown) == 3 and shown[2].startswith("    ")  # the 13-tile run is wrapped
    assert parse_table("\n".join(shown)) == view.staged
    assert parse_table("```ansi\n" + "\n".join(shown) + "\n```") == view.staged
    assert parse_table(" 1: K9 B9 J ✓\n 2: +R1 +R2\n    +R3\n\nR4 R5 R6") == (
        tiles("K9 B9 J"),
        tiles("R1 R2 R3"),
        tiles("R4 R5 R6"),
    )

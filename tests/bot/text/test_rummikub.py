"""Rummikub's text: the coloured public table (golden, en and ko), the turn view with each
set's exact problem in the member's language, and a 100-tile table within Discord's limits."""

from __future__ import annotations

import re
from collections import Counter

from bot.games import Table
from bot.games.rummikub import ADAPTER
from bot.i18n import catalog
from bot.sessions.model import compose
from rules.rummikub import State, restore
from rules.rummikub.sets import check_set
from rules.rummikub.tiles import FULL_SET, parse_tile
from tests.phone import assert_fits_phone

ANSI = re.compile(r"\x1b\[[0-9;]*m")
NAMES = ["alice", "민준"]


def game(racks: list[str], table: list[str], turn: int = 0) -> State:
    from rules import rummikub

    state = rummikub.new(len(racks), seed=1)
    state.racks = [[parse_tile(c) for c in r.split()] for r in racks]
    state.table = [tuple(parse_tile(c) for c in s.split()) for s in table]
    left = Counter(FULL_SET) - Counter(t for r in state.racks for t in r)
    left -= Counter(t for s in state.table for t in s)
    state.pool = sorted(left.elements())
    state.melded = [True, False]
    state.turn = turn
    return restore(state.snapshot())


STATE_RACKS = ["R9 O9 K1 K2 B5", "R1 B1 O1 K3"]
STATE_TABLE = ["R3 R4 R5 R6 R7 R8", "K9 B9 J"]


def test_the_public_table_in_colour_golden_en_and_ko() -> None:
    state = game(STATE_RACKS, STATE_TABLE)
    en = ADAPTER.table(state.view(None), [], NAMES, "en")
    assert en.lang == "ansi"
    assert en.body == (
        "On the table: 2 sets · pool 88\n"
        " 1: \x1b[31mR3 R4 R5 R6 R7 R8\x1b[0m\n"
        " 2: \x1b[37mK9 \x1b[34mB9 \x1b[35mJ\x1b[0m\n"
        "\n"
        "▶ alice 5 tiles melded\n"
        "  민준 4 tiles"
    )
    ko = ADAPTER.table(state.view(None), [], NAMES, "ko")
    assert ANSI.sub("", ko.body) == (
        "테이블: 세트 2개 · 더미 88\n"
        " 1: R3 R4 R5 R6 R7 R8\n"
        " 2: K9 B9 J\n"
        "\n"
        "▶ alice 타일 5개 등록함\n"
        "  민준 타일 4개"
    )
    for table in (en, ko):
        assert_fits_phone(table.body)
        assert "R9" not in table.body and "K1" not in table.body  # no rack tile


def test_the_turn_view_names_each_wrong_set_and_why_in_the_members_language() -> None:
    state = game(["R9 O9 K1 K2 B5 R12 R13 R1", "B1 O1 K3"], STATE_TABLE)
    state.apply(0, ADAPTER.parse("move", "new 2:J"))
    state.apply(0, ADAPTER.parse("add", "3 k1 K2"))
    state.apply(0, ADAPTER.parse("put", "R12 R13 R1"))
    view = state.view(0)
    en = ADAPTER.hand(view, NAMES, "en")
    assert "- set 2: B9 K9 — a set needs at least 3 tiles, this one has 2" in en.log
    assert "- set 4: R1 R12 R13 — 1 is only the lowest: a run cannot go from 13 to 1" in en.log
    assert [c.action for c in en.controls] == ["done", "undo", "reset", "arrange", "draw"]
    assert "+K1" in ANSI.sub("", en.body) and "+R12" in ANSI.sub("", en.body)
    ko = ADAPTER.hand(view, NAMES, "ko")
    assert "- 2번 세트: B9 K9 — 세트는 3개 이상이어야 하는데 2개예요" in ko.log
    phrases = [v for k, v in catalog("en").items() if k.startswith("rummikub.")]
    assert not [line for line in ko.log if any(p in line for p in phrases if len(p) > 8)]
    waiting = ADAPTER.hand(state.view(1), NAMES, "en")
    assert waiting.controls == () and "R12" not in waiting.body
    # Each staged set is marked: valid ✓, wrong ✗ (its reason is in the lines above).
    marks = [
        line.rstrip().rsplit(" ", 1)[-1]
        for line in ANSI.sub("", en.body).splitlines()
        if line.rstrip().endswith(("✓", "✗"))
    ]
    checks = [check_set(tiles).valid for tiles in view.staged or ()]
    assert marks == ["✓" if valid else "✗" for valid in checks] and False in checks
    assert_fits_phone(en.body)


def test_a_table_of_100_tiles_fits_one_message_and_a_phone() -> None:
    table = [
        " ".join(f"{c}{n}" for n in range(1, 13 if copy == 0 else 14))
        for c in "RBOK"
        for copy in (0, 1)
    ]
    state = game(["R13 B13 J", "O13 K13 J"], table)
    for locale in ("en", "ko"):
        public = ADAPTER.table(state.view(None), [], ["a" * 32, "민" * 32], locale)
        text = compose(public, ["x" * 300], "<@1>, your turn.")
        assert len(text) <= 2000
        assert_fits_phone(text)
        tiles = re.findall(r"\b([RBOK]\d+|J)\b", ANSI.sub("", public.body))
        assert len(tiles) == 100
        hand = ADAPTER.hand(state.view(0), NAMES, locale)
        assert len(compose(Table(hand.log, hand.body, "ansi"))) <= 2000
        assert_fits_phone(hand.body)

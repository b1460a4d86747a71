"""Rummikub's text: the coloured public table (golden, en and ko), the turn view with each
set's exact problem in the member's language, and a 100-tile table within Discord's limits."""

from __future__ import annotations

import re
from collections import Counter

from bot.games import Rendered
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
        "> alice 5 tiles melded\n"
        "  민준 4 tiles"
    )
    ko = ADAPTER.table(state.view(None), [], NAMES, "ko")
    assert ANSI.sub("", ko.body) == (
        "테이블: 세트 2개 · 더미 88\n"
        " 1: R3 R4 R5 R6 R7 R8\n"
        " 2: K9 B9 J\n"
        "\n"
        "> alice 타일 5개 등록함\n"
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
        assert len(compose(Rendered(hand.log, hand.body, "ansi"))) <= 2000
        assert_fits_phone(hand.body)


# -- rule 16: hints as a table option, one meld at a time; log lines; both widths ------------


def test_a_table_with_hints_on_says_so_golden_en_and_ko() -> None:
    state = game(STATE_RACKS, STATE_TABLE)
    off = ADAPTER.table(state.view(None), [], NAMES, "en")
    assert "Hints" not in off.body  # off by default: nothing said
    state.hints = True
    en = ADAPTER.table(state.view(None), [], NAMES, "en")
    assert ANSI.sub("", en.body).splitlines()[:3] == [
        "On the table: 2 sets · pool 88",
        "Hints on: /rummikub hint",
        " 1: R3 R4 R5 R6 R7 R8",
    ]
    ko = ADAPTER.table(state.view(None), [], NAMES, "ko")
    assert ANSI.sub("", ko.body).splitlines()[:3] == [
        "테이블: 세트 2개 · 더미 88",
        "힌트 켜짐: /루미큐브 힌트",
        " 1: R3 R4 R5 R6 R7 R8",
    ]
    for table in (en, ko):
        assert_fits_phone(table.body)


HINT_EN = (
    "Hint, one meld of the best play: make K1 K2 J as set 3, with K1 K2 from your rack.\n"
    "Melds still to make after this one: 1.\n"
    "To stage it, open Arrange and put these lines in place of its text:\n"
    "```\n"
    " 1: R3 R4 R5 R6 R7 R8\n"
    " 2: K9 B9\n"
    " 3: +K1 +K2 J\n"
    "```"
)
HINT_KO = (
    "힌트(가장 좋은 수의 세트 하나): 3번 세트로 K1 K2 J을(를) 만드세요. 내 타일 K1 K2을(를) 써요.\n"
    "이 세트 다음에 만들 세트: 1개\n"
    "배열하기를 열고 내용을 아래 줄로 바꾸면 준비돼요:\n"
    "```\n"
    " 1: R3 R4 R5 R6 R7 R8\n"
    " 2: K9 B9\n"
    " 3: +K1 +K2 J\n"
    "```"
)


def hint_lines(text: str) -> str:
    """What a member copies from a hint: its code block."""
    found = re.search(r"```\n(.*?)\n```", text, re.DOTALL)
    assert found is not None, text
    return found.group(1)


def test_a_hint_shows_one_meld_whose_lines_stage_it_in_arrange_golden_en_and_ko() -> None:
    from bot.text.rummikub import hint_text
    from rules.rummikub.ai import hint

    state = game(STATE_RACKS, STATE_TABLE)
    play = hint(state.view(0))
    assert len(play.tiles) == 4  # the best play puts down R9 O9 K1 K2: the hint shows less
    assert hint_text(state.view(0), play, "en", 1.5) == HINT_EN
    assert hint_text(state.view(0), play, "ko", 1.5) == HINT_KO
    # Pasted as shown, each hint's lines stage one more meld, until the staged table is the
    # best play; then the hint says to press Done.
    said = []
    for _ in range(5):
        text = hint_text(state.view(0), play, "en", 1.5)
        if "```" not in text:
            break
        said.append(text.splitlines()[0])
        assert_fits_phone(text)
        state.apply(0, ADAPTER.parse("arrange", hint_lines(text)))
    assert len(said) == 2 and text == "Your staged table is the best play: press Done."
    assert state.problems() == ()
    # A staged table that put down a tile the play keeps is told to start over.
    state.apply(0, ADAPTER.parse("reset", None))
    state.apply(0, ADAPTER.parse("put", "B5"))
    assert hint_text(state.view(0), play, "ko", 1.5).startswith("준비한 테이블이 가장 좋은 수")


def test_a_hint_of_a_long_play_keeps_a_wrapped_set_whole_in_arrange() -> None:
    """A 13-tile run takes two lines of the hint (40 columns); Arrange reads them as one."""
    from bot.text.rummikub import hint_text
    from rules.rummikub.ai import hint

    state = game(["R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1", "K1"], [])
    state.melded = [True, True]
    text = hint_text(state.view(0), hint(state.view(0)), "en", 1.5)
    block = hint_lines(text)
    assert block.splitlines()[1].startswith("    ")
    assert_fits_phone(text)
    state.apply(0, ADAPTER.parse("arrange", block))
    assert state.problems() == ()


def test_move_log_lines_break_between_melds_and_stay_short() -> None:
    """A whole-table turn once made one 600-character log line."""
    from bot.text.rummikub import LOG_LINE, event_lines
    from rules.rummikub import TableChanged

    table = tuple(
        tuple(parse_tile(c) for c in f"{c}{n} {c}{n + 1} {c}{n + 2}".split())
        for c in "RBOK"
        for n in (1, 4, 7, 10)
    )
    played = tuple(tile for tiles in table for tile in tiles)
    for locale in ("en", "ko"):
        lines = event_lines([TableChanged(0, played, table, 200)], ["a" * 32, "b"], locale)
        assert len(lines) > 3 and all(len(line) <= LOG_LINE for line in lines), lines
        words = " ".join(lines)
        assert all(tile.code in words for tile in played)
    en = event_lines([TableChanged(1, played[:6], table[:2], 21)], NAMES, "en")
    assert en == ["민준 put R1 R2 R3 and put R4 R5 R6"]
    long = event_lines([TableChanged(1, played, table, 200)], NAMES, "en")
    assert long[0].startswith("민준 put R1 R2 R3 and put R4 R5 R6 and ")
    assert long[1].startswith("민준 also put ")


def test_every_rummikub_table_lines_up_under_both_widths() -> None:
    """The turn marker is ASCII: ▶ took two columns in a CJK font and shifted the name."""
    from tests.phone import misaligned

    state = game(STATE_RACKS, STATE_TABLE)
    state.hints = True
    for locale in ("en", "ko"):
        for seat in (0, 1):
            state.turn = seat
            for body in (
                ADAPTER.table(state.view(None), [], NAMES, locale).body,
                ADAPTER.hand(state.view(seat), NAMES, locale).body,
            ):
                assert "▶" not in body
                assert misaligned(body.splitlines()) == []
                assert_fits_phone(body)


def test_the_turn_view_says_what_an_initial_meld_is_worth() -> None:
    state = game(["R7 R8 R9 K1", "B1"], [])
    state.melded = [False, False]
    state.apply(0, ADAPTER.parse("put", "R7 R8 R9"))
    assert "- your initial meld is worth 24 of 30" in ADAPTER.hand(state.view(0), NAMES, "en").log
    assert "- 첫 등록 합이 30 중 24이에요" in ADAPTER.hand(state.view(0), NAMES, "ko").log


def test_a_set_reason_names_the_tile_by_its_code() -> None:
    from bot.text.rummikub import reason_text

    assert reason_text("group has two blue 7s", "en") == "a group has B7 twice"
    assert reason_text("group has two black 13s", "ko") == "그룹에 K13이(가) 두 개예요"
    assert reason_text("run has two R5s", "en") == "a run has R5 twice"


def test_the_end_says_who_won_once_and_a_shared_win_names_everyone() -> None:
    from bot.text.rummikub import event_lines
    from rules.engine import GameOver, Outcome, Result

    names = ["alice", "bob", "carol"]
    won = GameOver(Result((Outcome.LOSE, Outcome.WIN, Outcome.LOSE), (-5, 12, -7), (1, 0, 2)))
    assert event_lines([won], names, "en") == ["bob wins the game!"]
    assert event_lines([won], names, "ko") == ["bob 님이 이겼어요!"]
    shared = GameOver(Result((Outcome.WIN, Outcome.LOSE, Outcome.WIN), (3, -6, 3), (0, 2, 1)))
    assert event_lines([shared], names, "en") == [
        "Nobody went out: alice, carol share the win with the fewest points left."
    ]

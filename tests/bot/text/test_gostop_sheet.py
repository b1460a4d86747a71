"""Go-Stop's score sheet (bot/text/gostop_sheet.py): golden final tables in English and
Korean, every multiplier named, each sheet line by line against ``deckhand gostop score``'s
numbers over whole games, and what a nagari, a chongtong, three ppuks and a forfeit pay.
"""

from __future__ import annotations

import re

import pytest

from bot.text import gostop as render
from bot.tools.gostop import score_sheet
from rules.gostop import Play, Stop
from rules.gostop.cards import parse_hwatu
from tests.bot.text.gostop_positions import NAMES, at_go_stop, finished_games, rich
from tests.phone import assert_fits_phone
from tests.rules.gostop.helpers import arrange

C = parse_hwatu


# The shake and the nagari were explained above the sheet (Alice's counts, the stakes).
STOP_EN = """\
Score sheet: Alice stopped
 junk                         7
 base                         7
 shakes: 1                   x2
 pi-bak (loser: 1-7 junk)    x2
 go-bak (loser called Go)    x2
 nagari: 1                   x2
 7 x 16                   = 112
 instant points              +7
 total                      119"""


STOP_KO = """\
점수표: Alice 님 스톱
 피                         7점
 기본 점수                  7점
 흔들기 1번                 2배
 피박                       2배
 고박                       2배
 나가리 1번                 2배
 7의 16배               = 112점
 즉시 점수                 +7점
 합계                     119점"""


@pytest.mark.parametrize(("locale", "golden"), [("en", STOP_EN), ("ko", STOP_KO)])
def test_the_final_table_ends_with_the_score_sheet(locale: str, golden: str) -> None:
    state = at_go_stop()
    events = state.apply(0, Stop())
    body = render.table_body(state.view(None), NAMES, locale)
    assert body.endswith("\n\n" + golden)
    assert_fits_phone(body)
    log = render.event_lines(events, NAMES, locale)
    assert (
        log[-1] == {"en": "Alice wins 119 points!", "ko": "Alice 님이 119점으로 이겼어요!"}[locale]
    )


def test_a_sheet_with_go_bonus_go_times_bombs_and_dans_by_name() -> None:
    sheet = score_sheet(
        {
            "winner": {
                "captured": ["1띠", "2띠", "3띠", "6띠", "9띠", "10띠", "1광", "3광", "8광"],
                "go": 3,
                "bombs": 1,
            },
            "loser": {"captured": ["11광"]},
        }
    )
    assert sheet["total"] == (11 + 3) * 2 * 2
    from rules.gostop.scoring import settle

    settlement = settle(
        [C(c).index for c in ["1띠", "2띠", "3띠", "6띠", "9띠", "10띠", "1광", "3광", "8광"]],
        [C("11광").index],
        winner_go=3,
        bombs=1,
    )
    dans = ["red dan", "blue dan"]
    lines = render.sheet_lines(settlement, "en", goes=3, bombs=1, dans=dans, plain=True)
    # Alone, the sheet explains the bomb itself, its numbers moved right to make room.
    assert lines == [
        " brights                      3",
        " ribbons                      2",
        " dan (red dan, blue dan)      6",
        " base                        11",
        " Go bonus (3 Go)             +3",
        " 3 Go                        x2",
        " bombs: 1 (3 played at once) x2",
        " (11 + 3) x 4              = 56",
        " total                       56",
    ]
    assert_fits_phone("\n".join(lines))
    # The console keeps the seed's signs (its golden transcript is byte-exact).
    console = render.sheet_lines(settlement, "ko", goes=3, bombs=1, dans=["홍단", "청단"])
    assert console[-3:-1] == [" 폭탄 1번                    ×2", " (11 + 3) × 4            = 56점"]


def test_every_score_sheet_says_the_numbers_deckhand_gostop_score_computes() -> None:
    checked = 0
    for state in finished_games(120):
        view = state.view(None)
        if view.settlement is None or view.result is None:
            continue
        winner = view.result.winners[0]
        sheet = score_sheet(
            {
                "winner": {
                    "captured": [c.code for c in _pile(view, winner)],
                    "go": view.goes[winner],
                    "shakes": view.shakes[winner],
                    "bombs": view.bombs[winner],
                },
                "loser": {"captured": [c.code for c in _pile(view, 1 - winner)],
                          "go": view.goes[1 - winner]},
                "nagari_carry": view.nagari_carry,
            }
        )  # fmt: skip
        lines = render.result_lines(view, "en", plain=True)
        text = "\n".join(lines)
        shown = dict.fromkeys(SHEET_LABELS, "0")
        for line in lines:
            label = line.split()[0]
            for kind, name in SHEET_LABELS.items():
                if label == name:
                    shown[kind] = line.split()[-1]
        assert shown == {kind: str(points) for kind, points in sheet["breakdown"].items()}  # type: ignore[attr-defined]
        assert re.search(rf"^ base +{sheet['base']}$", text, re.M)
        total = int(sheet["total"]) + view.instant[winner]  # type: ignore[call-overload]
        assert re.search(rf"^ total +{total}$", text, re.M)
        if sheet["go_bonus"]:
            assert re.search(rf"^ Go bonus \(\d+ Go\) +\+{sheet['go_bonus']}$", text, re.M)
        for bak in sheet["baks"]:  # type: ignore[attr-defined]
            assert re.search(rf"^ {bak} \(.+\) +x2$", text, re.M)
        if int(sheet["multiplier"]) > 1:  # type: ignore[call-overload]
            assert re.search(rf" x {sheet['multiplier']} += {sheet['total']}$", text, re.M)
        checked += 1
    assert checked > 50


SHEET_LABELS = {
    "bright": "brights",
    "animal": "animals",
    "ribbon": "ribbons",
    "pi": "junk",
    "godori": "godori",
    "dan": "dan",
}


def _pile(view: object, seat: int) -> list[object]:
    pile = view.piles[seat]  # type: ignore[attr-defined]
    return [*pile.brights, *pile.animals, *pile.ribbons, *pile.pi]


def test_the_nagari_the_chongtong_and_three_ppuks_end_with_what_they_pay() -> None:
    endings = {}
    for state in finished_games(300):
        endings.setdefault(state.win_reason, state)
    nagari = arrange((("1피b",), ("11광",)), ["1피a"], ["12광"], carry=2, instant=[7, 0])
    nagari.apply(0, Play(C("1피b")))  # the pile's last card: nobody stopped
    assert nagari.win_reason == "nagari"
    body = render.table_body(nagari.view(None), NAMES, "en")
    assert body.endswith(
        "Nagari: nobody stopped, nobody wins.\nThe next game is ×8.\nInstant points kept: Alice 7"
    )
    ko = render.table_body(nagari.view(None), NAMES, "ko")
    assert ko.endswith("나가리: 아무도 스톱하지 못했어요.\n다음 판은 ×8예요.\n"
                       "받은 즉시 점수는 그대로예요: Alice 7점")  # fmt: skip
    chongtong = endings["chongtong"]
    winner = chongtong.result.winners[0]  # type: ignore[union-attr]
    lines = render.end_lines(chongtong.view(None), NAMES, "en")
    assert lines[:2] == [f"{NAMES[winner]} wins with a chongtong (4 of a month", "   dealt)"]
    assert lines[2:] == [" chongtong                   10", " total                       10"]
    three = endings["three-ppuk"]
    lines = render.end_lines(three.view(None), NAMES, "ko")
    assert lines[1].split() == ["삼뻑", "7점"]


def test_a_forfeit_ends_with_the_winners_score_sheet() -> None:
    state = rich()
    state.forfeit(1)
    lines = render.end_lines(state.view(None), NAMES, "en")
    # Paid as a Stop would be (rule 26): Alice's two brights score nothing, her Go one point.
    # Said alone (no table above to explain them), the shake and the nagari are explained here.
    assert lines == [
        "Bob left: Alice wins",
        " base                            0",
        " Go bonus (1 Go)                +1",
        " shakes: 1 (3 of a month shown) x2",
        " nagari: 1 (no winner)          x2",
        " (0 + 1) x 4                   = 4",
        " total                           4",
        "Instant points kept: Bob 7",
    ]
    assert_fits_phone("\n".join(lines))
    result = state.result
    assert result is not None and result.scores == (4, 7)

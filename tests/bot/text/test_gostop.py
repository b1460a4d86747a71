"""Go-Stop text: golden tables, hands, logs and score sheets in English and Korean, 40 columns.

The tables are drawn from arranged positions (``tests/rules/gostop/helpers.arrange``) and
from whole seeded games; every line of every table is checked against a phone's 40 columns.
The score sheet is checked line by line against ``deckhand gostop score``'s numbers.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from bot.i18n import catalog
from bot.text import gostop as render
from bot.text.width import columns
from bot.tools.gostop import score_sheet
from rules.engine import GameOver, Outcome, Result
from rules.gostop import Go, GostopState, Phase, Play, Stop, new
from rules.gostop.ai import choose_action
from rules.gostop.cards import CARDS, Kind, parse_hwatu
from rules.gostop.state import (
    Bombed,
    Captured,
    CardPlayed,
    ChongtongWin,
    Flipped,
    Forfeited,
    GoCalled,
    InstantPoints,
    Shook,
    Special,
    Stolen,
    Stopped,
)
from tests.phone import assert_fits_phone
from tests.rules.gostop.helpers import arrange

C = parse_hwatu
NAMES = ["Alice", "Bob"]
FIVE_POINTS = [f"{m}피{x}" for m in range(3, 10) for x in "ab"]  # 14 pi: 5 points


def rich() -> GostopState:
    """A game in its middle: a ppuk's stack, a Go, a shake, a bomb with a flip-only turn
    owed, instant points, a bonus card, a carried nagari."""
    return arrange(
        (("1피b", "2띠", "3띠", "3피a", "3피b", "6열"), ("11광", "11피a", "11피b", "12띠", "12열")),
        ["1피a", "2열", "2피a", "9열", "9띠", "9피a", "10피a"],
        ["12광", "3광", "10피b", "4피a", "5피a"],
        captured=(
            ("1광", "8광", "4열", "5열", "1띠", "5띠", "6띠", "4피b", "6피a", "6피b", "7피a",
             "12쌍피", "B2a"),
            ("2피b", "7열", "8피a", "8피b", "11쌍피", "9피b", "10열"),
        ),
        stacks={9: 1},
        goes=[1, 0], go_score=[7, 0], shakes=[1, 0], bombs=[0, 1], flip_turns=[0, 1],
        instant=[0, 7], ppuks=[0, 1], carry=1,
        options={"bonus_cards": 2, "dealer": 0, "nagari_carry": 1},
    )  # fmt: skip


def at_go_stop() -> GostopState:
    """Alice has just reached 7 with 16 pi, Bob having called Go: Go or Stop."""
    state = arrange(
        (("1피b", "10열", "10띠"), ("11광", "11피a")),
        ["1피a", "8광"],
        ["12광", "3광", "10피a", "10피b"],
        captured=([*FIVE_POINTS, "2띠", "1띠"], ["11쌍피", "9열"]),
        goes=[0, 1], shakes=[1, 0], instant=[7, 0], carry=1,
        options={"bonus_cards": 0, "dealer": 0, "nagari_carry": 1},
    )  # fmt: skip
    state.apply(0, Play(C("1피b")))
    assert state.phase == Phase.GO_STOP
    return state


RICH_EN = """\
Go-Stop (Matgo) | bonus cards 2
Stakes ×2 after 1 nagari (drawn game)
Floor (pile 5)
 Jan junk | Feb animal junk
 Sep animal ribbon junk (ppuk: Bob; the
   4th card takes all) | Oct junk

Bob: 0 pts, hand 5
 bombs 1 (3 played at once), ppuks 1,
   flip-only turns 1, instant points 7
 animals: Jul Oct
 junk 6: Feb Aug Aug Sep Nov double

Alice: 0 pts, hand 6, dealer
 Go 1, shakes 1 (3 of a month shown)
 brights: Jan Aug
 animals: Apr May
 ribbons: Jan May Jun
 junk 8: Apr Jun Jun Jul Dec double
    bonus double

Alice to play"""

RICH_KO = """\
고스톱 (맞고) | 보너스패 2장
판돈 ×2: 나가리 1번
바닥 (더미 5장)
 1월 피 | 2월 열 피
 9월 열 띠 피(뻑: Bob) | 10월 피

Bob: 0점, 손패 5장
 폭탄 1, 뻑 1, 뒤집기만 1번 남음,
   즉시 7점
 열: 7열 10열
 피 6: 2피 8피 8피 9피 11쌍피

Alice: 0점, 손패 6장, 선
 1고, 흔들기 1
 광: 1광 8광
 열: 4열 5열
 띠: 1띠 5띠 6띠
 피 8: 4피 6피 6피 7피 12쌍피 보너스쌍피

Alice 님 차례"""


@pytest.mark.parametrize(("locale", "golden"), [("en", RICH_EN), ("ko", RICH_KO)])
def test_table_golden_in_the_middle_of_a_game(locale: str, golden: str) -> None:
    body = render.table_body(rich().view(None), NAMES, locale)
    assert body == golden
    assert_fits_phone(body)


def test_the_table_is_the_same_from_every_view_no_hand_in_it() -> None:
    state = rich()
    spectator = render.table_body(state.view(None), NAMES, "en")
    assert render.table_body(state.view(0), NAMES, "en") == spectator
    assert render.table_body(state.view(1), NAMES, "en") == spectator


@pytest.mark.parametrize(
    ("locale", "golden"),
    [
        (
            "en",
            "Go-Stop (Matgo)\nFloor (pile 1)\n Jan bright | Aug junk\n Dec [1]animal [2]ribbon\n"
            "Flipped: Dec double\nIt takes [1] or [2].\n\nBob: 0 pts, hand 2\n"
            " nothing taken yet\n\nAlice: 0 pts, hand 2, dealer\n nothing taken yet\n\n"
            "Alice: which card does the flip take?",
        ),
        (
            "ko",
            "고스톱 (맞고)\n바닥 (더미 1장)\n 1월 광 | 8월 피 | 12월 [1]열 [2]띠\n"
            "뒤집은 패: 12쌍피\n[1], [2] 중 하나를 먹어요.\n\nBob: 0점, 손패 2장\n"
            " 먹은 패 없음\n\nAlice: 0점, 손패 2장, 선\n 먹은 패 없음\n\n"
            "Alice 님: 뒤집은 패가 먹을 패 고르기",
        ),
    ],
)
def test_table_golden_while_a_flip_waits_for_its_choice(locale: str, golden: str) -> None:
    state = arrange(
        (("8피b", "10열", "10띠"), ("11광", "11피a")), ["12열", "12띠", "1광"], ["12쌍피", "5피a"]
    )
    state.apply(0, Play(C("8피b")))
    assert state.phase == Phase.FLIP_CHOICE
    assert render.table_body(state.view(None), NAMES, locale) == golden


def test_the_cards_taken_in_a_turn_show_while_its_flip_waits() -> None:
    state = arrange(
        (("4피a", "10열"), ("11광", "11피a")), ["4열", "12열", "12띠"], ["12쌍피", "5피a"]
    )
    state.apply(0, Play(C("4피a")))
    body = render.table_body(state.view(None), NAMES, "en")
    assert "Taken this turn: Apr junk, Apr animal" in body.splitlines()


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


def finished_games(count: int) -> list[GostopState]:
    """Whole games played by the computer on both sides, one per seed."""
    games = []
    for seed in range(count):
        state = new(2, seed=seed, options={"bonus_cards": seed % 4 if seed % 4 != 1 else 0})
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat)))
        games.append(state)
    return games


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


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_every_table_of_whole_games_fits_a_phone_even_with_long_names(locale: str) -> None:
    names = ["W" * 32, "가나다라마바사아자차카타파하"]
    for seed in range(40):
        state = new(2, seed=seed, options={"bonus_cards": 3 if seed % 2 else 0})
        while True:
            body = render.table_body(state.view(None), names, locale)
            assert_fits_phone(body)
            for seat in (0, 1):
                assert_fits_phone("\n".join(render.hand_lines(state.view(seat), locale)))
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            action = choose_action(state.view(seat))
            state.apply(seat, Go() if isinstance(action, Stop) and seed % 3 == 0 else action)
    assert "WWWWWWWWWWW~" in body and "가나다라마~" in body


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


HAND_EN = """\
6 cards
Jan: 1) junk -> takes the junk
Feb: 2) ribbon -> takes the animal or
    the junk: your pick
Mar: 3) ribbon 4) junk 5) junk
    -> stays on the floor (may shake:
    show the three, a win pays ×2)
Jun: 6) animal -> stays on the floor"""

HAND_KO = """\
손패 6장
1월: 1) 피 -> 피 먹기
2월: 2) 띠 -> 열, 피 중 골라 먹기
3월: 3) 띠 4) 피 5) 피 -> 바닥에 깔림
    (흔들기 가능, ×2)
6월: 6) 열 -> 바닥에 깔림"""


@pytest.mark.parametrize(("locale", "golden"), [("en", HAND_EN), ("ko", HAND_KO)])
def test_hand_golden_numbered_by_month_with_what_each_takes(locale: str, golden: str) -> None:
    assert "\n".join(render.hand_lines(rich().view(0), locale)) == golden


def test_a_hand_says_a_stack_a_bomb_and_a_bonus_card() -> None:
    state = arrange(
        (("9피b", "5열", "5띠", "5피a", "B3"), ("11광",)),
        ["9열", "9띠", "9피a", "5피b"],
        ["12광", "3광"],
        stacks={9: 1},
    )
    assert render.hand_lines(state.view(0), "en") == [
        "5 cards",
        "May: 1) animal 2) ribbon 3) junk",
        "    -> takes the junk",
        "    (may bomb: play all three at once)",
        "Sep: 4) junk -> takes all three",
        "    (animal, ribbon, junk)",
        "bonus: 5) bonus triple -> taken at once,",
        "    steals 1 junk, then play again",
    ]


GO_STOP_EN = [
    "You have 7 points; Bob has 0.",
    "Stop: you win 119 points now.",
    "Doubled by: shakes: 1 (3 of a month shown), pi-bak (loser: 1-7 junk), go-bak (loser "
    "called Go), nagari ×2 (no winner).",
    "Go: your Go 1 adds +1 and you play on.",
    "The risk: if Bob reaches 7 points and stops first, you pay double (go-bak).",
]
GO_STOP_KO = [
    "지금 7점이에요. Bob 님은 0점이에요.",
    "스톱하면 지금 119점을 받고 이겨요.",
    "두 배씩 곱해지는 것: 흔들기 1번, 피박, 고박, 나가리 ×2.",
    "고를 하면 1고로 +1점을 얹고 계속해요.",
    "하지만 Bob 님이 먼저 7점을 내고 스톱하면 고박으로 두 배를 물어요.",
]


@pytest.mark.parametrize(("locale", "golden"), [("en", GO_STOP_EN), ("ko", GO_STOP_KO)])
def test_go_stop_golden_with_the_score_and_what_go_risks(locale: str, golden: list[str]) -> None:
    assert render.go_stop_lines(at_go_stop().view(0), NAMES, locale) == golden


def test_from_the_third_go_the_question_says_the_total_doubles() -> None:
    state = at_go_stop()
    data = state.snapshot()
    data["goes"] = [2, 1]
    from rules.gostop import restore

    lines = render.go_stop_lines(restore(data).view(0), NAMES, "en")
    assert "Go: your Go 3 adds +3 and you play on. From the third Go your total is also ×2." in (
        lines
    )


EVENTS = [
    CardPlayed(0, C("3띠")),
    Shook(0, 3, (C("3띠"), C("3피a"), C("3피b"))),
    Bombed(1, 4, (C("4열"), C("4띠"), C("4피a"))),
    Flipped(0, C("12쌍피")),
    Captured(0, (C("1광"), C("1피a"))),
    Special(0, "ppuk", 9),
    Special(0, "jjok"),
    Special(0, "ttadak"),
    Special(0, "sweep"),
    Special(1, "stack", 5),
    Stolen(0, C("11쌍피")),
    InstantPoints(1, 7, 7, "ppuk"),
    InstantPoints(0, 7, 7, "ttadak"),
    GoCalled(0, 2, 9),
    Stopped(1, 8, False),
    Stopped(0, 7, True),
    ChongtongWin(1, 6),
    Forfeited(1),
    GameOver(Result((Outcome.WIN, Outcome.LOSE), (12, 0), (0, 1))),
    GameOver(Result((Outcome.DRAW, Outcome.DRAW), (0, 7), (1, 0))),
]
LOG_EN = [
    "Alice plays Mar ribbon",
    "Alice shakes, showing Mar ribbon, Mar junk, Mar junk: a win now pays double",
    "Bob bombs: Apr animal, Apr ribbon, Apr junk at once, taking all four; a win now pays double",
    "Alice flips Dec double",
    "Alice takes Jan bright, Jan junk",
    "Ppuk! The three Sep cards stay on the floor, Alice's stack: the fourth card takes them all",
    "Jjok! Alice takes back the card just played",
    "Ttadak! Alice takes all four",
    "Sweep! Alice clears the floor",
    "Bob takes the May stack at once",
    "Alice steals Nov double",
    "Bob gets 7 instant points (ppuk on an opening turn)",
    "Alice gets 7 instant points (ttadak on the first turn)",
    "Alice calls Go 2 at 9 points!",
    "Bob calls Stop at 8 points!",
    "Alice stops on the last card, at 7 points",
    "Chongtong! Bob holds all four Jun cards",
    "Bob left the game",
    "Alice wins 12 points!",
    "Nagari! Nobody stopped, so nobody wins: the next game pays double.",
]
LOG_KO = [
    "Alice 님이 3띠 패를 냈어요",
    "Alice 님이 흔들었어요! 3띠, 3피, 3피 패를 보여 줘요",
    "Bob 님 폭탄! 4열, 4띠, 4피 패를 한꺼번에 냈어요",
    "Alice 님이 더미에서 12쌍피 패를 뒤집었어요",
    "Alice 님이 1광, 1피 패를 먹었어요",
    "뻑! 9월 석 장이 바닥에 쌓였어요 (Alice 님의 뻑)",
    "쪽! Alice 님이 방금 낸 패를 다시 먹었어요",
    "따닥! Alice 님이 네 장을 모두 먹었어요",
    "싹쓸이! Alice 님이 바닥을 쓸었어요",
    "Bob 님이 5월 석 장을 한꺼번에 먹었어요",
    "피 뺏기: Alice 님이 11쌍피 패를 가져왔어요",
    "Bob 님이 초반 뻑으로 7점을 바로 받아요",
    "Alice 님이 첫 따닥으로 7점을 바로 받아요",
    "Alice 님 2고! (9점)",
    "Bob 님 스톱! (8점)",
    "Alice 님은 마지막 패라서 저절로 스톱해요 (7점)",
    "총통! Bob 님이 6월 네 장을 모두 들었어요",
    "Bob 님이 판을 떠났어요 (기권)",
    "Alice 님이 12점으로 이겼어요!",
    "나가리! 아무도 스톱하지 못했어요.",
]


@pytest.mark.parametrize(("locale", "golden"), [("en", LOG_EN), ("ko", LOG_KO)])
def test_every_event_has_its_line_in_the_games_own_words(locale: str, golden: list[str]) -> None:
    assert render.event_lines(EVENTS, NAMES, locale) == golden


def test_log_lines_escape_markdown_in_names() -> None:
    lines = render.escape_log(render.event_lines([Forfeited(0)], ["*bold*_x_"], "en"))
    assert lines == [r"\*bold\*\_x\_ left the game"]


def test_every_card_has_a_name_in_both_languages_and_different_cards_read_differently() -> None:
    for lang in ("en", "ko"):
        names = {}
        for card in CARDS:
            name = render.card_name(card, lang)
            assert name != f"gostop.card.{card.code}"
            names.setdefault(name, set()).add((card.month, card.kind))
        # Only the two junk of a month (and the two double-junk bonus cards) share a name.
        assert all(len(kinds) == 1 for kinds in names.values()), names
    assert render.card_name(C("1광"), "en") == "Jan bright"
    assert render.card_name(C("3띠"), "en") == "Mar ribbon"
    assert render.card_name(C("11쌍피"), "ko") == "11쌍피"
    assert [k for k in catalog("ko") if k.startswith("gostop.card.")] == [
        f"gostop.card.{c.code}" for c in CARDS
    ]
    assert {c.kind for c in CARDS} == set(Kind)


def test_random_positions_never_name_a_hidden_card_in_the_table() -> None:
    rng = random.Random(5)
    for seed in range(30):
        state = new(2, seed=seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
            body = render.table_body(state.view(None), NAMES, "ko")
            hidden = [c for s in (0, 1) for c in state.view(s).hand or ()]
            for card in hidden:
                name = render.card_name(card, "ko")
                same = [c for c in CARDS if render.card_name(c, "ko") == name]
                if all(c in hidden for c in same):
                    assert not re.search(rf"(?<![0-9]){re.escape(name)}", body), (name, body)


# -- a newcomer reads it: terms explained, one name per card, plurals, alignment ----

# Each term a table may use, the English word for it, and how it is explained the first time.
EXPLAINED = {
    "ppuk": ("ppuk", ("(stuck stacks)", "; the 4th card takes all)")),
    "shake": ("shake", ("(3 of a month shown)",)),
    "bomb": ("bomb", ("(3 played at once)",)),
    "nagari": ("nagari", ("(no winner)", "(drawn game)", "(drawn games)")),
    "chongtong": ("chongtong", ("(4 of a month dealt)",)),
    "godori": ("godori", ("(3 birds)",)),
    "홍단": ("red dan", ("(3 red ribbons)",)),
    "청단": ("blue dan", ("(3 blue ribbons)",)),
    "초단": ("grass dan", ("(3 grass ribbons)",)),
    "pi-bak": ("pi-bak", ("(loser: 1-7 junk)",)),
    "gwang-bak": ("gwang-bak", ("(loser: no bright)",)),
    "meong-tta": ("meong-tta", ("(7+ animals)",)),
    "go-bak": ("go-bak", ("(loser called Go)",)),
}


def assert_explained_where_first_used(text: str) -> set[str]:
    """Each term ``text`` uses is explained once, right after its first use; the terms used."""
    flat = " ".join(text.split())  # a wrapped line reads on
    used = set()
    for term, (word, glosses) in EXPLAINED.items():
        found = [(flat.index(g), g) for g in glosses if g in flat]
        if word not in flat:
            assert not found, (term, text)
            continue
        used.add(term)
        assert len(found) == 1 and sum(flat.count(g) for g in glosses) == 1, (term, text)
        at, _ = found[0]
        first = flat.index(word)
        assert first < at and word not in flat[first + len(word) : at], (term, text)
    return used


def test_english_explains_each_term_where_a_table_first_uses_it() -> None:
    used: set[str] = set()
    for seed in range(24):
        state = new(2, seed=seed, options={"bonus_cards": 2 if seed % 2 else 0})
        while True:
            used |= assert_explained_where_first_used(
                render.table_body(state.view(None), NAMES, "en")
            )
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat)))
    final = at_go_stop()
    final.apply(0, Stop())
    for body in (render.table_body(rich().view(None), NAMES, "en"),
                 render.table_body(final.view(None), NAMES, "en")):  # fmt: skip
        used |= assert_explained_where_first_used(body)
    assert used >= {"ppuk", "shake", "bomb", "nagari", "godori", "pi-bak", "go-bak", "홍단"}
    # The rich table explains the ppuk on the floor, then says its count plain.
    rich_body = render.table_body(rich().view(None), NAMES, "en")
    assert " ppuks 1," in rich_body and "(ppuk: Bob; the" in rich_body


def test_the_sheet_explains_each_bak_and_the_log_says_why_the_loser_pays_double() -> None:
    state = at_go_stop()
    events = state.apply(0, Stop())
    body = render.table_body(state.view(None), NAMES, "en")
    assert " pi-bak (loser: 1-7 junk)    x2" in body.splitlines()
    assert render.bak_lines(state.view(None), NAMES, "en") == [
        "Bob pays double: pi-bak (loser: 1-7 junk), go-bak (loser called Go)!"
    ]
    assert render.event_lines(events, NAMES, "en")[-1] == "Alice wins 119 points!"
    assert_explained_where_first_used(
        "\n".join(render.go_stop_lines(at_go_stop().view(0), NAMES, "en"))
    )


def test_every_bak_and_three_dans_keep_the_sheet_aligned_within_a_phone() -> None:
    from rules.gostop.scoring import settle

    winner = ["1광", "3광", "8광", "1띠", "2띠", "3띠", "4띠", "5띠", "7띠", "6띠", "9띠", "10띠",
              "2열", "4열", "8열", "6열", "7열", "12열", "10열", *FIVE_POINTS]  # fmt: skip
    settlement = settle([C(c).index for c in winner], [C("1피a").index], loser_go=1, shakes=2)
    assert set(settlement.baks) == {"pi-bak", "gwang-bak", "meong-tta", "go-bak"}
    dans = ["red dan", "blue dan", "grass dan"]
    lines = render.sheet_lines(settlement, "en", shakes=2, nagari_carry=3, dans=dans, plain=True)
    assert_fits_phone("\n".join(lines))
    assert len({columns(line) for line in lines}) == 1  # every number ends in one column
    # A dan is explained in the pile it is made in, which a table shows above its sheet.
    sheet = "\n".join(lines).replace("(red dan, blue dan, grass dan)", "")
    assert assert_explained_where_first_used(sheet) == {
        "shake", "nagari", "godori", "pi-bak", "gwang-bak", "meong-tta", "go-bak"
    }  # fmt: skip
    ko = render.sheet_lines(settlement, "ko", shakes=2, nagari_carry=3, dans=["홍단"], plain=True)
    assert_fits_phone("\n".join(ko))
    assert " 피박                       2배" in ko


def test_korean_says_its_own_terms_with_no_gloss_and_no_latin_letter() -> None:
    assert all(
        text == "{word}" for key, text in catalog("ko").items() if key.startswith("gostop.gloss.")
    )
    assert render.Glossary("ko")("pi-bak", "피박") == "피박"
    final = at_go_stop()
    final.apply(0, Stop())
    for state in (rich(), final):
        body = render.table_body(state.view(None), NAMES, "ko")
        assert not re.search("[A-Za-z]", body.replace("Alice", "").replace("Bob", "")), body


def test_one_english_name_per_card_in_the_hand_the_floor_the_piles_and_the_log() -> None:
    en = catalog("en")
    kinds = {Kind.BRIGHT: "bright", Kind.ANIMAL: "animal", Kind.RIBBON: "ribbon",
             Kind.JUNK: "junk", Kind.DOUBLE: "double"}  # fmt: skip
    for card in CARDS:
        name = render.card_name(card, "en")
        token = en[f"gostop.short.{card.code}"]  # in a pile, under its kind's heading
        if card.kind is Kind.BONUS:
            assert token == name
            continue
        # The hand and the floor say the month, then the kind: together, the name.
        assert (
            name == f"{render.month_name(card.month, 'en')} {en[f'gostop.kind.{kinds[card.kind]}']}"
        )
        plain_kind = card.kind is not Kind.DOUBLE  # a double sits under "junk"
        assert token == (render.month_name(card.month, "en") if plain_kind else name)
    # Nov's double, everywhere it shows: the hand, the floor, a pile, the log, a menu.
    state = arrange(
        (("11쌍피", "11광", "2피a"), ("3광", "4피a")),
        ["12쌍피", "5피a"],
        ["12광", "4피b", "6피a"],
        captured=(("B2a",), ("11피a",)),
        options={"bonus_cards": 2, "dealer": 0},
    )
    view = state.view(0)
    texts = [
        "\n".join(render.hand_lines(view, "en")),
        render.table_body(state.view(None), NAMES, "en"),
        *render.event_lines([Flipped(0, C("11쌍피")), Stolen(1, C("12쌍피"))], NAMES, "en"),
    ]
    joined = "\n".join(texts)
    assert "Nov: 2) bright 3) double" in joined and " May junk | Dec double" in joined
    assert "Alice flips Nov double" in joined and "Bob steals Dec double" in joined
    assert " junk 2: bonus double" in joined
    assert not re.search(r"double junk|\(2\)|\(3\)", joined), joined


def test_no_hand_line_breaks_inside_a_card_name_or_after_an_arrow() -> None:
    """Nor inside a phrase that fits a line: ``-> stays on the floor`` is never left at
    ``the``."""
    multiword = [render.card_name(c, "en") for c in CARDS if " " in render.card_name(c, "en")]
    checked = 0
    for seed in range(30):
        state = new(2, seed=seed, options={"bonus_cards": 3})
        while not state.is_over:
            for seat in (0, 1):
                lines = render.hand_lines(state.view(seat), "en")
                for line, after in itertools.pairwise(lines):
                    assert not line.endswith("->"), lines
                    assert not line.endswith((" stays on the", " stays on")), lines
                    for name in multiword:
                        words = name.split(" ")
                        for cut in range(1, len(words)):
                            head, tail = " ".join(words[:cut]), " ".join(words[cut:])
                            broken = line.endswith(head) and after.lstrip().startswith(tail)
                            assert not broken, (name, lines)
                    checked += 1
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, choose_action(state.view(seat)))
    assert checked > 1000
    # The words the hand wraps keep each filled-in name whole, wherever the template puts it.
    state = arrange(
        (("B3", "2띠"), ("3광",)),
        ["2열", "2피a"],
        ["12광"],
        options={"bonus_cards": 3, "dealer": 0},
    )
    words = render.outcome_words(state.view(0), C("2띠"), "en")
    assert "Feb animal" in words and "Feb junk:" in words


def test_one_of_a_count_is_singular() -> None:
    state = arrange((("1피b",), ("11광", "3광")), ["1피a"], ["12광", "5피a"],
                    captured=((), ("5열", "6열", "7열", "9열", "10열")))  # fmt: skip
    assert render.hand_lines(state.view(0), "en")[0] == "1 card"
    assert render.hand_lines(state.view(1), "en")[0] == "2 cards"
    assert render.hand_lines(state.view(0), "ko")[0] == "손패 1장"
    body = render.table_body(state.view(None), NAMES, "en")
    assert "Bob: 1 pt, hand 2" in body.splitlines() and "Alice: 0 pts, hand 1, dealer" in body
    assert "Bob: 1점, 손패 2장" in render.table_body(state.view(None), NAMES, "ko")
    won = GameOver(Result((Outcome.WIN, Outcome.LOSE), (1, 0), (0, 1)))
    assert render.event_lines([won], NAMES, "en") == ["Alice wins 1 point!"]
    assert render.event_lines([won], NAMES, "ko") == ["Alice 님이 1점으로 이겼어요!"]
    stakes = arrange((("1피b",), ("11광",)), ["1피a"], ["12광"], carry=1)
    assert "Stakes ×2 after 1 nagari (drawn game)" in render.table_body(
        stakes.view(None), NAMES, "en"
    )
    # No English text of a whole game says "1 cards", "1 pts" or "1 points".
    for state in finished_games(30):
        for seat in (None, 0, 1):
            text = render.table_body(state.view(seat), NAMES, "en")
            assert not re.search(r"\b1 (cards|pts|points)\b", text), text

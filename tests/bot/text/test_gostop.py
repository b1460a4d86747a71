"""Go-Stop text: golden tables and logs in English and Korean, 40 columns, card names, and the
game's terms explained to a newcomer.

The tables are drawn from arranged positions (``tests/rules/gostop/helpers.arrange``) and
from whole seeded games; every line of every table is checked against a phone's 40 columns.
The score sheet's own tests are in test_gostop_sheet.py, the hand's and the Go-or-Stop
question's in test_gostop_hand.py; the positions they share in gostop_positions.py.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.i18n import catalog
from bot.text import gostop as render
from bot.text.width import columns
from rules.engine import GameOver, Outcome, Result
from rules.gostop import Go, Phase, Play, Stop, new
from rules.gostop.ai import choose_action
from rules.gostop.cards import CARDS, Kind, parse_hwatu
from rules.gostop.events import (
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
from tests.bot.text.gostop_positions import NAMES, at_go_stop, finished_games, rich
from tests.phone import assert_fits_phone
from tests.rules.gostop.helpers import FIVE_POINTS, arrange

C = parse_hwatu


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

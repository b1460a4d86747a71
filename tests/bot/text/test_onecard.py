"""One Card rendering: golden strings for the table, the hand and every event message."""

from __future__ import annotations

import re

import pytest

import rules.onecard as oc
from bot.games.onecard import ADAPTER
from bot.i18n import catalog, refusal
from bot.sessions.model import MAX_MESSAGE, compose
from bot.text import onecard as render
from rules.cards import FULL_DECK, Card, Suit, parse_card
from rules.engine import Event, GameOver, IllegalAction, Outcome, Result
from tests.language import foreign_lines
from tests.phone import assert_fits_phone, misaligned

NAMES = ["Alice", "Bob", "Carol"]


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def attacked() -> tuple[oc.State, list[Event]]:
    state = oc.position(
        [cards("♣2 ♦4 ♦5"), cards("♠2 ♥6"), cards("♥2 ♦8")], parse_card("♣3"), phase=13
    )
    return state, list(state.apply(0, oc.PlayCard(parse_card("♣2"))))


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def public(
    view: oc.OneCardView, names: list[str] | None, events: list[Event], locale: str = "en"
) -> str:
    """The public table message as the bot posts it, colour codes left out."""
    return _COLOUR.sub("", compose(ADAPTER.table(view, events, names or [], locale)))


@pytest.mark.parametrize(
    ("card", "text"),
    [("♠2", "[♠ 2]"), ("♥10", "[♥ 0]"), ("♦K", "[♦ K]"), ("♣A", "[♣ A]"), ("JKB", "[JK B]"),
     ("JKC", "[JK C]")],
)  # fmt: skip
def test_card_format_is_the_seeds(card: str, text: str) -> None:
    assert render.card_text(parse_card(card)) == text


@pytest.mark.parametrize(
    ("card", "en", "ko"),
    [("♠2", "♠2", "♠2"), ("♥10", "♥10", "♥10"), ("♣A", "♣A", "♣A"),
     ("JKB", "Black joker", "흑백 조커"), ("JKC", "Colour joker", "컬러 조커")],
)  # fmt: skip
def test_discord_names_a_ten_10_and_the_jokers_in_words_it_reads_back(
    card: str, en: str, ko: str
) -> None:
    assert render.card_name(parse_card(card), "en") == en
    assert render.card_name(parse_card(card), "ko") == ko
    for text in (en, ko):
        assert parse_card(text) is parse_card(card)  # what Discord shows, /onecard play reads


TABLE_EN = """\
Alice (A) played ♣2
Bob (B) is attacked: draw 2 cards unless they block
```ansi
Turn 14 · Deck: 48 cards
Open card: ♣2
Attack: draw 2 unless you block

  A Alice         2 cards
> B Bob           2 cards
  C Carol         2 cards

Next: C Carol (A → B → C)
```"""

TABLE_KO = """\
Alice (A) 님이 ♣2 카드를 냈어요
Bob (B) 님이 공격받았어요: 막지 못하면 2장을 가져가요
```ansi
14번째 차례 · 덱 48장
바닥 카드: ♣2
공격: 막지 못하면 2장 가져가요

  A Alice         2장
> B Bob           2장
  C Carol         2장

다음: C Carol (A → B → C)
```"""


@pytest.mark.parametrize(("locale", "golden"), [("en", TABLE_EN), ("ko", TABLE_KO)])
def test_public_table_golden_in_plain_words(locale: str, golden: str) -> None:
    state, events = attacked()
    text = public(state.view(None), NAMES, events, locale)
    assert text == golden
    assert_fits_phone(text)
    assert foreign_lines(text.splitlines(), locale) == []
    for seed_program_word in ("Phase", "Table<", "offense", "[♣", "current:", "Player "):
        assert seed_program_word not in text


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_a_long_hand_long_names_and_an_out_seat_fit_a_phone_and_line_up(locale: str) -> None:
    hands = [FULL_DECK[:15], FULL_DECK[15:18], FULL_DECK[18:21], []]
    state = oc.position(hands, FULL_DECK[30], out=[3])
    names = ["W" * 32, "가나다라마바사아자차카타파하", "bob", "탈락한 사람의 아주 긴 이름"]
    body = render.table_body(state.view(None), names, locale)
    assert_fits_phone(body)
    seats = body.splitlines()[4:8]
    out = "out: bankrupt" if locale == "en" else "탈락: 파산"
    count = "15 cards" if locale == "en" else "15장"
    assert seats == [
        f"> A WWWWWWWWWWW~ {count}",
        f"  B 가나다라마~   {'3 cards' if locale == 'en' else '3장'}",
        f"  C bob           {'3 cards' if locale == 'en' else '3장'}",
        f"  D 탈락한 사람~  {out}",
    ]
    assert misaligned(body.splitlines()) == []
    adapter_table = ADAPTER.table(state.view(None), [], names, locale)
    assert_fits_phone(adapter_table.body)  # the colours add no columns


def test_public_table_never_shows_a_hand() -> None:
    state, events = attacked()
    for seat in (None, 0, 1, 2):
        for locale in ("en", "ko"):
            text = public(state.view(seat), NAMES, events, locale)
            for owner in range(3):
                for card in state.hand(owner):
                    assert render.card_name(card, locale) not in text


HAND_EN = """\
Open card: ♣2
Attack: draw 2 unless you block

2 cards in your hand:
1:♠2 2:♥6 3:Take 2"""

HAND_KO = """\
바닥 카드: ♣2
공격: 막지 못하면 2장 가져가요

내 카드 2장:
1:♠2 2:♥6 3:2장 가져오기"""


def test_private_hand_golden_numbers_the_cards_and_take() -> None:
    state, _ = attacked()
    view = state.view(1)
    assert render.hand_body(view, "Take 2", NAMES, "en") == HAND_EN
    assert render.hand_body(view, "2장 가져오기", NAMES, "ko") == HAND_KO
    waiting = render.hand_body(state.view(2), "Take 2", NAMES, "en")
    assert "Now playing: B Bob" in waiting.splitlines()


def test_a_long_private_hand_wraps_between_cards_at_40_columns() -> None:
    hand = cards("♥5 ♠3 ♥6 ♦J ♥A ♣10 ♣2 ♣J ♦7 JKC")
    rest = [c for c in FULL_DECK if c not in hand and c is not parse_card("♣3")]
    state = oc.position([hand, rest[:5]], parse_card("♣3"))
    body = render.hand_body(state.view(0), "Take", NAMES, "en")
    assert body.splitlines()[-3:] == [
        "10 cards in your hand:",
        "1:♥5 2:♠3 3:♥6 4:♦J 5:♥A 6:♣10 7:♣2 8:♣J",
        "9:♦7 10:Colour joker 11:Take",
    ]
    assert_fits_phone(body)


def test_the_seeds_hand_listing_is_kept_for_the_console() -> None:
    state, _ = attacked()
    view = state.view(1)
    assert render.hand_text(view) == "Total 2 cards\n1:[♠ 2] 2:[♥ 6] 3: Take"
    hand = cards("♥5 ♠3 ♥6 ♦J ♥A ♣10 ♣2 ♣J ♦7")
    rest = [c for c in FULL_DECK if c not in hand and c is not parse_card("♣3")]
    state = oc.position([hand, rest[:5]], parse_card("♣3"))
    assert render.hand_text(state.view(0)) == (
        "Total 9 cards\n"
        "1:[♥ 5] 2:[♠ 3] 3:[♥ 6] 4:[♦ J] 5:[♥ A] 6:[♣ 0]\n"
        "7:[♣ 2] 8:[♣ J] 9:[♦ 7] 10: Take"
    )


def test_joker_open_card_says_both_suits() -> None:
    state = oc.position([cards("♠3"), cards("♥4")], parse_card("JKB"))
    assert render.open_line(state.view(None)) == "[JK B] ♠ ♣"  # the console
    lines = render.table_body(state.view(None), None, "en").splitlines()
    assert lines[1:3] == ["Open card: Black joker", "To play: any ♠ or ♣, or a joker"]
    ko = render.table_body(state.view(None), None, "ko").splitlines()
    assert ko[1:3] == ["바닥 카드: 흑백 조커", "낼 수 있는 카드: ♠ 또는 ♣ 무늬, 조커"]


def test_seven_shows_the_chosen_suit_and_the_reversed_order() -> None:
    state = oc.position(
        [cards("♠5 ♥9"), cards("♠6"), cards("♠7 ♥2")], parse_card("♣7"), suit=Suit.SPADES,
        direction=-1,
    )  # fmt: skip
    view = state.view(None)
    assert render.open_line(view) == "[♣ 7] ♠"
    assert render.status_line(view) == ("current: A  next: C  direction: <---  offense point: 0")
    lines = render.table_body(view, NAMES, "en").splitlines()
    assert lines[2] == "To play: any ♠, any 7, or a joker"
    assert lines[5] == "  B Bob           1 card  one card!"
    assert lines[-1] == "Next: C Carol (A → C → B)"


@pytest.mark.parametrize(
    ("offense", "hand", "en", "ko"),
    [
        (0, "♠3 ♦4 ♠7", "Your turn: 2 cards you can play. Pick one below, or take a card.",
         "내 차례예요: 낼 수 있는 카드 2장. 아래에서 고르거나 한 장 가져오세요."),
        (0, "♠3 ♦4", "Your turn: 1 card you can play. Pick it below, or take a card.",
         "내 차례예요: 낼 수 있는 카드 1장. 아래에서 고르거나 한 장 가져오세요."),
        (0, "♦4 ♥6",
         "Your turn: no card of yours can be played. Pick Take below to take a card.",
         "내 차례예요: 낼 수 있는 카드가 없어요. 아래에서 가져오기를 골라 한 장 가져오세요."),
        (2, "♠2 ♦4", "Your turn: 1 card can block the attack. Pick it below, or take 2 cards.",
         "내 차례예요: 공격을 막을 수 있는 카드 1장. 아래에서 고르거나 2장을 가져오세요."),
        (2, "♦4 ♥6",
         "Your turn: no card of yours blocks the attack. Pick Take 2 below to take 2 cards.",
         "내 차례예요: 공격을 막을 카드가 없어요. 아래에서 2장 가져오기를 골라 2장을 가져오세요."),
    ],
)  # fmt: skip
def test_the_turn_line_says_what_to_do_with_plurals(
    offense: int, hand: str, en: str, ko: str
) -> None:
    opening = parse_card("♣2" if offense else "♠5")
    state = oc.position([cards(hand), cards("♥9 ♦8")], opening, offense=offense)
    view = state.view(0)
    for locale, line in (("en", en), ("ko", ko)):
        assert ADAPTER.hand(view, NAMES, locale).log[1] == line


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (oc.CardPlayed(0, parse_card("♣2")), "Player A put the card [♣ 2]"),
        (oc.Attack(1, 2, 2, 2), "Attack Player C with offense point 2+2!!"),
        (oc.AttackTaken(2, 4, 4), "Player C couldn't defend the attack!! Takes 4 cards"),
        (oc.CardsTaken(0, 1), "Player A takes a card"),
        (oc.Jump(2, 0, 1), "Jump to player B"),
        (oc.DirectionChanged(2, -1, 1), "The direction is changed. next player is B"),
        (
            oc.ShortDeck(0, 5, 3),
            "There is no much cards... Return remaining cards only except first card",
        ),
        (oc.EmptyDeck(1), "Cannot take a card anymore... Play with the cards you have"),
        (oc.SuitChosen(0, Suit.DIAMONDS), "The pattern is changed to ♦"),
        (oc.PlayAgain(3), "Player D plays again"),
        (oc.OneCard(1), "Player B has one card left!"),
        (oc.Bankrupt(2, 22), "Player C is bankrupt!! 22 cards go back to the main deck"),
        (oc.Forfeited(1, 4), "Player B left the game; 4 cards go back to the main deck"),
        (
            GameOver(Result((Outcome.LOSE, Outcome.WIN), (3, 0), (1, 0))),
            "Player B wins!",
        ),
    ],
)
def test_event_lines_are_the_seeds_messages_for_the_console(event: oc.GameOver, line: str) -> None:
    assert render.event_lines([event]) == [line]


@pytest.mark.parametrize(
    ("event", "en", "ko"),
    [
        (oc.CardPlayed(0, parse_card("♣10")), "Alice (A) played ♣10",
         "Alice (A) 님이 ♣10 카드를 냈어요"),
        (oc.CardPlayed(0, parse_card("JKC")), "Alice (A) played Colour joker",
         "Alice (A) 님이 컬러 조커 카드를 냈어요"),
        (oc.Attack(1, 2, 0, 10), "Carol (C) is attacked: draw 10 cards unless they block",
         "Carol (C) 님이 공격받았어요: 막지 못하면 10장을 가져가요"),
        (oc.AttackTaken(2, 4, 4), "Carol (C) could not block and takes 4 cards",
         "Carol (C) 님이 막지 못해 4장을 가져가요"),
        (oc.CardsTaken(0, 1), "Alice (A) takes a card", "Alice (A) 님이 카드를 한 장 가져갔어요"),
        (oc.Jump(2, 0, 1), "J: Alice (A) is skipped, Bob (B) plays next",
         "J: Alice (A) 님을 건너뛰고 Bob (B) 님 차례예요"),
        (oc.DirectionChanged(2, -1, 1), "Q: the direction is reversed, Bob (B) plays next",
         "Q: 방향이 바뀌어 Bob (B) 님 차례예요"),
        (oc.ShortDeck(0, 5, 1), "The deck is short: Alice (A) gets only 1 card",
         "덱이 모자라요: Alice (A) 님은 1장만 가져가요"),
        (oc.EmptyDeck(1), "No card left to take: Bob (B) plays on with the cards in hand",
         "가져올 카드가 없어요: Bob (B) 님은 가진 카드로 계속해요"),
        (oc.SuitChosen(0, Suit.DIAMONDS), "Suit is now ♦", "이제 무늬는 ♦예요"),
        (oc.PlayAgain(2), "K: Carol (C) plays again", "K: Carol (C) 님이 한 번 더 내요"),
        (oc.OneCard(1), "Bob (B) has one card left!", "Bob (B) 님의 카드가 한 장 남았어요!"),
        (oc.Bankrupt(2, 22),
         "Carol (C) holds 20 cards or more and is out (bankrupt): 22 cards go back to the deck",
         "Carol (C) 님이 20장 이상을 들어 파산했어요: 22장이 덱으로 돌아가요"),
        (oc.Forfeited(1, 1), "Bob (B) left the game: 1 card goes back to the deck",
         "Bob (B) 님이 게임을 떠났어요: 1장이 덱으로 돌아가요"),
        (GameOver(Result((Outcome.LOSE, Outcome.WIN), (3, 0), (1, 0))), "Bob (B) wins!",
         "Bob (B) 님이 이겼어요!"),
    ],
)  # fmt: skip
def test_log_lines_in_plain_english_and_korean(event: oc.GameOver, en: str, ko: str) -> None:
    assert render.log_lines([event], NAMES, "en") == [en]
    assert render.log_lines([event], NAMES, "ko") == [ko]
    assert foreign_lines([ko], "ko") == [] and foreign_lines([en], "en") == []


def refusals() -> list[IllegalAction]:
    """One refusal of every code the One Card engine and its parser raise."""
    out: list[IllegalAction] = []

    def refused(action: object, state: oc.State, seat: int = 0) -> None:
        with pytest.raises(IllegalAction) as caught:
            state.apply(seat, action)  # type: ignore[arg-type]
        out.append(caught.value)

    state = oc.position([cards("♦4 ♥5"), cards("♣3")], parse_card("♠9"))
    refused(oc.PlayCard(parse_card("♦4")), state)  # no_match
    refused(oc.PlayCard(parse_card("♠5")), state)  # not_in_hand
    refused("take", state)  # not_a_onecard_move
    refused(
        oc.PlayCard(parse_card("♥5")), oc.position([cards("♥5"), cards("♣3")], parse_card("JKB"))
    )
    for attack, answer in (("♣2", "♣6"), ("♥A", "♥2"), ("JKB", "♠A")):
        opening = parse_card("♣3" if attack != "♥A" else "♥3")
        state = oc.position([cards(f"{attack} ♦8"), cards(f"{answer} ♦9"), cards("♦3")], opening)
        state.apply(0, oc.PlayCard(parse_card(attack)))
        refused(oc.PlayCard(parse_card(answer)), state, 1)
    state.forfeit(2)
    with pytest.raises(IllegalAction) as caught:
        state.forfeit(2)
    out.append(caught.value)
    for verb, arg in (("play", "♠X"), ("draw", None), ("play", "9")):
        with pytest.raises(IllegalAction) as caught:
            ADAPTER.parse(verb, arg)
        out.append(caught.value)
    return out


def test_every_refusal_has_its_catalog_entry_in_english_and_korean() -> None:
    found = refusals()
    assert {error.code for error in found} == {
        "no_match", "not_in_hand", "not_a_onecard_move", "no_match_joker", "must_defend",
        "must_defend_ace", "must_defend_joker", "not_playing", "unknown_card", "no_number",
    }  # fmt: skip
    for error in found:
        assert f"illegal.onecard.{error.code}" in catalog("ko"), error.code
        # The English catalog says what the engine says, the jokers by name.
        said = error.reason
        for value in error.params.values():
            if value in ("JKB", "JKC"):
                said = said.replace(str(value), render.card_name(parse_card(str(value)), "en"))
        assert refusal(error, "en", "onecard") == said
        korean = refusal(error, "ko", "onecard")
        assert korean != error.reason and re.search("[가-힣]", korean), error.code


def test_refusals_in_korean_name_the_cards() -> None:
    by_code = {error.code: error for error in refusals()}
    assert refusal(by_code["must_defend"], "ko", "onecard") == (
        "공격을 받고 있어요. 2, ♣A, 조커로만 막을 수 있고, 아니면 카드 2장을 가져와야 해요."
    )
    assert refusal(by_code["no_match"], "ko", "onecard") == (
        "♦4 카드는 낼 수 없어요. ♠ 무늬 카드, 다른 9, 조커 중 하나를 내거나 카드를 가져오세요."
    )


def test_a_refusal_names_a_joker_as_the_tables_do() -> None:
    by_code = {error.code: error for error in refusals()}
    assert refusal(by_code["must_defend_joker"], "ko", "onecard") == (
        "공격을 받고 있어요. 컬러 조커로만 막을 수 있고, 아니면 카드 7장을 가져와야 해요."
    )
    assert "Colour joker" in refusal(by_code["must_defend_joker"], "en", "onecard")


def test_the_console_names_cards_in_the_seeds_form() -> None:
    by_code = {error.code: error for error in refusals()}
    assert render.refusal_text(by_code["not_in_hand"]) == "You don't have [♠ 5]."
    assert render.refusal_text(by_code["must_defend_joker"]) == (
        "Under attack you can only defend with the [JK C], or take 7 cards."
    )
    assert render.refusal_text(by_code["must_defend"]) == (
        "Under attack you can only defend with a 2, the [♣ A] or a joker, or take 2 cards."
    )


def test_names_and_markdown_are_escaped_in_the_log() -> None:
    state, _ = attacked()
    names = ["*Al*", "B`ob", "Carol"]
    assert render.log_lines([oc.CardsTaken(0, 1)], names) == ["*Al* (A) takes a card"]
    text = public(state.view(None), names, [oc.CardsTaken(0, 1)])
    assert text.startswith("\\*Al\\* (A) takes a card\n```")
    assert "B`ob" not in text and "B'ob" in text


def test_long_logs_are_trimmed_to_discords_limit() -> None:
    state, _ = attacked()
    events: list[Event] = [oc.CardsTaken(seat % 3, 1) for seat in range(200)]
    text = public(state.view(None), ["x" * 30] * 3, events)
    assert len(text) <= MAX_MESSAGE < 200 * len("xxx (A) takes a card")
    assert text.endswith("```") and "Attack: draw 2 unless you block" in text


FINAL_EN = """\
Alice (A) played ♠3
Alice (A) wins!
```ansi
Turn 2 · Deck: 49 cards
Open card: ♠3

1st A Alice         0 cards
2nd D Dave          2 cards
3rd B Bob           3 cards
4th C Carol         out: left

Game over: Deal again for a new game.
```"""

FINAL_KO = """\
Alice (A) 님이 ♠3 카드를 냈어요
Alice (A) 님이 이겼어요!
```ansi
2번째 차례 · 덱 49장
바닥 카드: ♠3

1등 A Alice         0장
2등 D Dave          2장
3등 B Bob           3장
4등 C Carol         탈락: 떠남

게임 끝: 다시 하기로 새 게임을 해요.
```"""


@pytest.mark.parametrize(("locale", "golden"), [("en", FINAL_EN), ("ko", FINAL_KO)])
def test_the_final_table_ranks_every_seat_with_its_cards_and_offers_deal_again(
    locale: str, golden: str
) -> None:
    state = oc.position(
        [cards("♠3"), cards("♥4 ♥5 ♣5"), cards("♣9 ♣8 ♥8"), cards("♦9 ♦8")], parse_card("♠9")
    )
    state.forfeit(2)  # Carol left: her cards went back to the deck
    events = list(state.apply(0, oc.PlayCard(parse_card("♠3"))))
    table = ADAPTER.table(state.view(None), events, ["Alice", "Bob", "Carol", "Dave"], locale)
    text = _COLOUR.sub("", compose(table))
    assert text == golden
    assert_fits_phone(text)
    assert foreign_lines(text.splitlines(), locale) == []
    wins = "wins!" if locale == "en" else "이겼어요!"
    assert text.count(wins) == 1  # one winner line
    assert [(c.action, c.label, c.style) for c in table.controls] == [
        ("again", "button.again", "success")
    ]


def test_a_bankrupt_seat_is_ranked_last_on_the_final_table() -> None:
    state = oc.position([cards("♠3"), cards("♥4 ♥5"), []], parse_card("♠9"), out=[2])
    state.apply(0, oc.PlayCard(parse_card("♠3")))
    lines = render.table_body(state.view(None), NAMES, "en").splitlines()
    assert lines[3:6] == [
        "1st A Alice         0 cards",
        "2nd B Bob           2 cards",
        "3rd C Carol         out: bankrupt",
    ]
    assert misaligned(lines) == []

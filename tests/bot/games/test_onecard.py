"""One Card's adapter and cog helpers: parsing, safe and computer moves, no hand in public."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import pytest

import rules.onecard as oc
from bot.games import MAX_OPTIONS, GameCatalog, Menu
from bot.games.onecard import ADAPTER, coloured, parse_suit, play_arg
from bot.i18n import refusal, t
from bot.sessions import Player, Post, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store.memory import MemoryStore
from bot.text import onecard as render
from cogs.common.buttons import GameButton, MoveMenu
from cogs.onecard import cog
from rules.cards import FULL_DECK, Card, Suit, parse_card
from rules.engine import GameOver, IllegalAction
from tests.language import foreign_lines
from tests.phone import assert_fits_phone

NAMES = ["Alice", "Bob", "Carol"]
CHANNEL, GUILD = 555, 777


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def public_text(view: oc.OneCardView, events: list[Any]) -> str:
    table = ADAPTER.table(view, events, NAMES, "en")
    return "\n".join([*table.log, table.body])


# -- parse -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "arg", "expected"),
    [
        ("take", None, oc.Take()),
        ("play", "♠A", oc.PlayCard(parse_card("♠A"))),
        ("play", "10h", oc.PlayCard(parse_card("♥10"))),
        ("play", "[♣ 0]", oc.PlayCard(parse_card("♣10"))),
        ("play", "JKB", oc.PlayCard(parse_card("JKB"))),
        ("play", "♠7/♥", oc.PlayCard(parse_card("♠7"), Suit.HEARTS)),
        ("play", "7d/clubs", oc.PlayCard(parse_card("♦7"), Suit.CLUBS)),
        ("play", "♣7/하트", oc.PlayCard(parse_card("♣7"), Suit.HEARTS)),
        ("play", play_arg("♥7", "♦"), oc.PlayCard(parse_card("♥7"), Suit.DIAMONDS)),
    ],
)
def test_parse_reads_verbs_cards_and_the_suit_after_a_seven(
    verb: str, arg: str | None, expected: oc.PlayCard | oc.Take
) -> None:
    assert ADAPTER.parse(verb, arg) == expected


@pytest.mark.parametrize(
    ("verb", "arg", "code"),
    [
        ("play", "♠X", "unknown_card"),
        ("play", "♠7/purple", "unknown_suit"),
        ("play", None, "not_a_onecard_move"),
        ("take", "♠A", "not_a_onecard_move"),
        ("draw", None, "not_a_onecard_move"),
    ],
)
def test_parse_refuses_with_a_reason(verb: str, arg: str | None, code: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        ADAPTER.parse(verb, arg)
    assert caught.value.code == code
    assert caught.value.reason


def test_a_seven_without_a_suit_and_a_suit_after_another_card_are_the_engines_refusals() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7"), cards("♥6 ♦8")], parse_card("♠5"))
    assert ADAPTER.parse("play", "♠7") == oc.PlayCard(parse_card("♠7"))
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, ADAPTER.parse("play", "♠7"))
    assert caught.value.code == "choose_suit"
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, ADAPTER.parse("play", "♥7"))
    assert caught.value.code == "not_in_hand"
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, ADAPTER.parse("play", "♠3/♥"))
    assert caught.value.code == "suit_without_seven"


def test_parse_suit_words() -> None:
    assert parse_suit("♠") is Suit.SPADES
    assert parse_suit("D") is Suit.DIAMONDS
    assert parse_suit("heart") is Suit.HEARTS
    assert parse_suit(" 클로버 ") is Suit.CLUBS


# -- seats, timeouts, computers ---------------------------------------------------------------


def test_seats_and_turn_time() -> None:
    assert (ADAPTER.name, ADAPTER.min_seats, ADAPTER.max_seats) == ("onecard", 2, 4)
    settings = Settings(_env_file=None, default_turn_seconds=77.0)  # type: ignore[call-arg]
    assert ADAPTER.turn_seconds(settings) == 77.0


def test_the_next_deal_keeps_the_options() -> None:
    state = oc.new(2, seed=3)
    options = {"house": "x"}
    carried = ADAPTER.next_options(state, options)
    assert carried == options and carried is not options


def test_new_and_restore_continue_the_same_game() -> None:
    state = ADAPTER.new(3, 42, {}, [])[0]
    again = ADAPTER.restore(state.snapshot())
    assert again.snapshot() == state.snapshot()
    with pytest.raises(IllegalAction):
        ADAPTER.new(5, 1, {}, [])


def test_timeout_action_is_take_and_under_attack_takes_the_penalty() -> None:
    state = oc.position([cards("♠3 ♦4"), cards("♥6 ♦8")], parse_card("♣2"), offense=2)
    action = ADAPTER.timeout_action(state, 0)
    assert action == oc.Take()
    events = state.apply(0, action)
    assert events[0] == oc.AttackTaken(0, 2, 2)
    assert len(state.hand(0)) == 4


def test_computer_action_defends_an_attack_when_it_can() -> None:
    state = oc.position([cards("♠2 ♦4"), cards("♥6 ♦8")], parse_card("♣2"), offense=2)
    assert ADAPTER.computer_action(state, 0) == oc.PlayCard(parse_card("♠2"))


# -- the public table never holds a hand ------------------------------------------------------


def test_table_is_in_plain_words_under_the_move_log_with_the_take_label() -> None:
    state = oc.position(
        [cards("♣2 ♦4 ♦5"), cards("♠2 ♥6"), cards("♥2 ♦8")], parse_card("♣3"), phase=13
    )
    events = state.apply(0, oc.PlayCard(parse_card("♣2")))
    table = ADAPTER.table(state.view(None), events, NAMES, "en")
    assert table.log == (
        "Alice (A) played ♣2",
        "Bob (B) is attacked: draw 2 cards unless they block",
    )
    assert table.body == (
        "Turn 14 · Deck: 48 cards\nOpen card: ♣2\nAttack: draw 2 unless you block\n\n"
        "  A Alice         2 cards\n> B Bob           2 cards\n  C Carol         2 cards\n\n"
        "Next: C Carol (A → B → C)"
    )
    assert [(c.action, c.label) for c in table.controls] == [
        ("hand", "button.hand"),
        ("take", "Take 2"),
    ]
    assert ADAPTER.table(state.view(None), [], NAMES, "ko").controls[1].label == "2장 가져오기"
    assert_fits_phone(table.body)


def test_a_korean_table_has_its_move_log_and_notes_in_korean() -> None:
    state = oc.position([cards("♣2 ♦4 ♦5"), cards("♠2 ♥6"), cards("♥2 ♦8")], parse_card("♣3"))
    events = state.apply(0, oc.PlayCard(parse_card("♣2")))
    table = ADAPTER.table(state.view(None), events, NAMES, "ko")
    assert table.log == (
        "Alice (A) 님이 ♣2 카드를 냈어요",
        "Bob (B) 님이 공격받았어요: 막지 못하면 2장을 가져가요",
    )
    lines = table.body.splitlines()
    assert lines[:3] == ["2번째 차례 · 덱 48장", "바닥 카드: ♣2", "공격: 막지 못하면 2장 가져가요"]
    assert lines[-1] == "다음: C Carol (A → B → C)"
    assert not foreign_lines(lines, "ko")
    state.forfeit(1)
    events = state.forfeit(2)
    over = ADAPTER.table(state.view(None), events, NAMES, "ko")
    assert over.log[-1] == "Alice (A) 님이 이겼어요!"
    plain = re.sub(r"\x1b\[[0-9;]*m", "", over.body)
    assert "2등 C Carol         탈락: 떠남" in plain.splitlines()  # the last out first
    assert "이겼어요" not in plain  # the winner is said once, in the log


def test_table_is_an_ansi_block_with_red_hearts_diamonds_and_colour_joker() -> None:
    state = oc.position([cards("♠3 ♦4"), cards("♥6 ♦8")], parse_card("♥5"))
    table = ADAPTER.table(state.view(None), [], NAMES, "en")
    assert table.lang == "ansi"
    assert "Open card: \x1b[31m♥5\x1b[0m" in table.body
    assert "any \x1b[31m♥\x1b[0m," in table.body
    plain = re.sub(r"\x1b\[[0-9;]*m", "", table.body)
    assert plain == render.table_body(state.view(None), NAMES)
    assert coloured("Colour joker ♥10 ♦\n♠3 ♠\nBlack joker ♠ ♣") == (
        "\x1b[31mColour joker\x1b[0m \x1b[31m♥10\x1b[0m \x1b[31m♦\x1b[0m\n♠3 ♠\nBlack joker ♠ ♣"
    )
    assert coloured("컬러 조커", "ko") == "\x1b[31m컬러 조커\x1b[0m"


def test_table_never_shows_a_card_of_any_hand_in_whole_games() -> None:
    for seed in range(12):
        state = ADAPTER.new(2 + seed % 3, seed, {}, [])[0]
        text = public_text(state.view(None), [])
        while True:
            hands = [state.hand(s) for s in range(state.players)]
            played = {render.card_text(state.open_card)}
            for hand in hands:
                for card in hand:
                    if render.card_text(card) not in played:
                        assert render.card_text(card) not in text, (seed, card)
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            events = state.apply(seat, ADAPTER.computer_action(state, seat))
            # The table is drawn from the spectator view, whoever asks.
            text = public_text(state.view(None), events)
            played = {render.card_text(e.card) for e in events if isinstance(e, oc.CardPlayed)}
            for s in range(state.players):
                for card in state.hand(s):
                    if render.card_text(card) not in played:
                        assert render.card_text(card) not in text, (seed, card)


def test_a_finished_table_offers_deal_again_and_names_the_winner_once() -> None:
    state = oc.position([cards("♠3"), cards("♥6 ♦8")], parse_card("♠5"))
    events = state.apply(0, oc.PlayCard(parse_card("♠3")))
    assert isinstance(events[-1], GameOver)
    table = ADAPTER.table(state.view(None), events, NAMES, "en")
    assert [c.action for c in table.controls] == ["again"]
    assert "Alice (A) wins!" in table.log
    assert "wins" not in table.body and "1st A Alice" in table.body
    for gone in ("current:", "offense", "Next:"):
        assert gone not in table.body
    assert ADAPTER.next_options(state, {}) == {}


def test_log_lines_escape_markdown_in_names() -> None:
    state = oc.position([cards("♠3 ♠4"), cards("♥6 ♦8")], parse_card("♠5"))
    events = state.apply(0, oc.PlayCard(parse_card("♠3")))
    table = ADAPTER.table(state.view(None), events, ["*Al*", "B_b"], "en")
    assert table.log[0] == r"\*Al\* (A) played ♠3"


def test_hand_is_numbered_under_the_open_card_with_take_on_the_turn() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7"), cards("♥6 ♦8")], parse_card("♠5"))
    table = ADAPTER.hand(state.view(0), NAMES, "en")
    assert table.log == (t("hand.title", "en"), t("onecard.your_turn", "en", n=2))
    assert table.body.startswith("Open card: ♠5\nTo play: any ♠, any 5, or a joker\n")
    assert table.body.endswith("3 cards in your hand:\n1:♠3 2:♦4 3:♠7 4:Take")
    assert table.controls == () and table.menu is not None  # Take is in the menu
    assert table.menu.options[-1].value == "take"
    other = ADAPTER.hand(state.view(1), NAMES, "en")
    assert other.menu is None and other.controls == () and other.log == (t("hand.title", "en"),)
    assert "Now playing: A Alice\n\n2 cards in your hand:\n1:♥6 2:♦8 3:Take" in other.body


def test_a_bankrupt_seat_sees_that_it_is_out_and_no_take() -> None:
    state = oc.position([[], cards("♠3 ♦4"), cards("♥6 ♦8")], parse_card("♠5"), out=[0], current=1)
    table = ADAPTER.hand(state.view(0), NAMES, "en")
    assert table.log == (t("onecard.out", "en"),)
    assert table.controls == () and "Take" not in table.body and "Total" not in table.body


# -- the hand's menus and autocomplete --------------------------------------------------------


def menu_of(view: oc.OneCardView) -> Menu | None:
    return ADAPTER.hand(view, NAMES, "en").menu


def test_hand_menu_lists_exactly_the_legal_cards_plus_take() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7 ♥5 JKC"), cards("♥6 ♦8")], parse_card("♠5"))
    menu = menu_of(state.view(0))
    assert menu is not None and menu.note is None and menu.step is None
    values = [o.value for o in menu.options]
    assert values == ["♠3", "♠7", "♥5", "JKC", "take"]
    assert [o.label for o in menu.options][-1] == "Take"
    assert menu_of(state.view(1)) is None  # not their turn
    assert ADAPTER.hand(state.view(0), NAMES, "en").controls == ()  # Take is in the menu


def test_hand_menu_under_attack_offers_only_defences_and_take_n() -> None:
    state = oc.position([cards("♠2 ♦4 ♣A JKB"), cards("♥6 ♦8")], parse_card("♣2"), offense=2)
    menu = menu_of(state.view(0))
    assert menu is not None
    assert [(o.value, o.label) for o in menu.options] == [
        ("♠2", "♠2"),
        ("♣A", "♣A"),
        ("JKB", "Black joker"),
        ("take", "Take 2"),
    ]


def test_a_menu_never_has_more_than_25_options() -> None:
    many = oc.OneCardView(
        seat=0, players=2, phase=1, current=0, next_seat=1, direction=1, offense=0,
        open_card=FULL_DECK[0], suits=(Suit.SPADES,), deck_count=1, counts=(30, 5),
        playing=(True, True), bankrupt=(False, False), order=(0, 1), hand=FULL_DECK[:30],
        playable=FULL_DECK[:30], result=None,
    )  # fmt: skip
    menu = menu_of(many)
    assert menu is not None
    assert len(menu.options) == MAX_OPTIONS
    assert menu.options[-1].value == "take"
    assert menu.note == t("onecard.more_cards", "en", n=30 - (MAX_OPTIONS - 1))


def test_picking_a_seven_asks_for_the_suit_and_the_suit_plays_it() -> None:
    state = oc.position([cards("♦7 ♦4"), cards("♥6 ♦8")], parse_card("♦5"))
    view = state.view(0)
    suits = ADAPTER.picked(view, None, "♦7", "ko")
    assert isinstance(suits, Menu)
    assert suits.step == "♦7" and suits.prompt == t("onecard.choose_suit", "ko")
    assert [o.value for o in suits.options] == ["♠", "♥", "♦", "♣"]
    assert ADAPTER.picked(view, "♦7", "♥", "en") == ("play", "♦7/♥")
    assert ADAPTER.picked(view, None, "♦4", "en") == ("play", "♦4")
    assert ADAPTER.picked(view, None, "take", "en") == ("take", None)
    # Whatever else comes back is left for the engine to refuse with its reason.
    assert ADAPTER.picked(view, None, "nonsense", "en") == ("play", "nonsense")
    assert ADAPTER.parse(*ADAPTER.picked(view, "♦7", "♥", "en")) == oc.PlayCard(
        parse_card("♦7"), Suit.HEARTS
    )


def test_autocomplete_offers_only_the_seats_own_legal_cards() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7 ♥5"), cards("♠6 ♦8")], parse_card("♠5"))

    def values(seat: int, typed: str, locale: str = "en") -> list[str]:
        return [o.value for o in ADAPTER.suggest(state.view(seat), "card", typed, locale)]

    assert values(0, "") == ["♠3", "♠7", "♥5"]
    assert values(0, "♠") == ["♠3", "♠7"]
    assert values(0, "5h") == ["♥5"]
    sevens = ADAPTER.suggest(state.view(0), "card", "7", "ko")
    assert [(o.label, o.value) for o in sevens] == [("♠7 - 그다음 무늬를 골라요", "♠7")]
    assert values(1, "") == []  # not their turn: nothing


# -- leaving a running game forfeits it -------------------------------------------------------


class Poster:
    def __init__(self) -> None:
        self.posts: list[Post] = []

    async def post(self, post: Post) -> int | None:
        self.posts.append(post)
        return len(self.posts)

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        return None

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        return None


ALICE, BOB, CAROL = Player(1, "Alice"), Player(2, "Bob"), Player(3, "Carol")


@asynccontextmanager
async def three_seat_game() -> AsyncIterator[tuple[SessionRegistry, MemoryStore]]:
    """A seeded One Card game of Alice, Bob and Carol on a memory store."""
    games = GameCatalog()
    games.register(ADAPTER)
    store = MemoryStore()
    settings = Settings(_env_file=None, computer_delay_seconds=0.0)  # type: ignore[call-arg]
    registry = SessionRegistry(store=store, settings=settings, poster=Poster(), games=games)
    try:
        await registry.open_lobby(CHANNEL, GUILD, "onecard", ALICE, players=3, member_seed=5)
        await registry.join(CHANNEL, BOB)
        await registry.join(CHANNEL, CAROL)
        yield registry, store
    finally:
        await registry.close()


async def test_leave_forfeits_cards_back_to_the_deck_and_is_saved() -> None:
    async with three_seat_game() as (registry, store):
        session = registry.get(CHANNEL)
        assert session is not None and isinstance(session.state, oc.State)
        before = session.state.view(None)
        version = session.version
        reply = await registry.leave(CHANNEL, BOB.id)
        assert reply.post is not None
        left = "Bob (B) left the game: 5 cards go back to the deck"
        assert left in reply.post.content
        after = session.state.view(None)
        assert after.playing == (True, False, True)
        assert after.counts[1] == 0 and after.deck_count == before.deck_count + 5
        assert session.version == version + 1
        (stored,) = await store.load_active()
        assert stored.version == session.version
        assert stored.data["state"]["forfeited"] == [False, True, False]
        with pytest.raises(SessionError) as caught:
            await registry.leave(CHANNEL, BOB.id)
        assert caught.value.key == "error.not_seated"
        with pytest.raises(SessionError):
            await registry.hand(CHANNEL, BOB.id)
        # The last but one leaving ends the game; the one who stays wins.
        reply = await registry.leave(CHANNEL, CAROL.id)
        await asyncio.sleep(0)
        assert registry.get(CHANNEL) is None
        assert reply.post is not None and "Alice (A) wins!" in reply.post.content


async def test_a_bankrupt_member_leaving_is_told_so_and_nothing_changes() -> None:
    async with three_seat_game() as (registry, _):
        session = registry.get(CHANNEL)
        assert session is not None
        # Bob went bankrupt (rule 22): his seat is out, the member still sits there.
        session.state = oc.position([cards("♠3 ♠4"), [], cards("♥5")], parse_card("♠9"), out=[1])
        before, version = session.state.snapshot(), session.version
        with pytest.raises(IllegalAction) as caught:
            await registry.leave(CHANNEL, BOB.id)
        assert caught.value.code == "already_bankrupt"
        assert refusal(caught.value, "en", "onecard") == (
            "You went bankrupt: you are already out of this game."
        )
        assert refusal(caught.value, "ko", "onecard") == "파산해서 이미 이 게임에서 빠졌어요."
        assert session.state.snapshot() == before and session.version == version
        assert session.seat_of(BOB.id) == 1


async def test_setup_registers_the_game_and_teardown_forgets_it() -> None:
    added: list[Any] = []
    cogs: list[Any] = []
    registry = SimpleNamespace(poster=None, games=GameCatalog())

    async def add_cog(one: Any) -> None:
        cogs.append(one)

    bot = SimpleNamespace(
        sessions=registry, add_dynamic_items=lambda *items: added.extend(items), add_cog=add_cog
    )
    await cog.setup(bot)  # type: ignore[arg-type]
    assert "onecard" in registry.games and isinstance(cogs[0], cog.OneCardCog)
    assert added == [GameButton, MoveMenu]  # the shared components, registered once
    await cog.teardown(bot)  # type: ignore[arg-type]
    assert "onecard" not in registry.games


# -- a card named by the number its hand shows ------------------------------------------------


def test_a_number_shown_in_the_hand_names_that_card_and_the_last_one_take() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7"), cards("♥6 ♦8")], parse_card("♠5"))
    view = state.view(0)
    assert [ADAPTER.shown_card(view, n) for n in ("1", "2", " 3 ", "4")] == [
        "♠3",
        "♦4",
        "♠7",
        "take",
    ]  # as the hand lists them: 1:♠3 2:♦4 3:♠7 4:Take
    for text in ("0", "5", "♠3", "²", "", "1.0"):
        assert ADAPTER.shown_card(view, text) is None
    with pytest.raises(IllegalAction) as refused:
        ADAPTER.parse("play", "5")  # a number the hand does not show
    assert refused.value.code == "no_number"
    assert refusal(refused.value, "en", "onecard") == "Your hand has no card number 5."
    assert refusal(refused.value, "ko", "onecard") == "내 패에 5번 카드는 없어요."
    # Autocomplete reads the number too: the card it names, when it may be played.
    assert [o.value for o in ADAPTER.suggest(view, "card", "1", "en")] == ["♠3"]
    assert ADAPTER.suggest(view, "card", "2", "en") == []  # ♦4 does not fit the ♠5
    bankrupt = oc.position([cards("♠3"), []], parse_card("♠5"), out=[1]).view(1)
    assert ADAPTER.shown_card(bankrupt, "1") is None

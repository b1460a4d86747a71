"""One Card end to end: the real bot and cogs, driven by members through the fake Discord.

Members use everything a member can: ``/onecard start 4`` with a computer seat, Join, the
table's **Hand** button and its select menus (a 7 asks for the suit), the **Take** button,
``/onecard play`` and ``/onecard take``. Besides the game reaching its end, the tests check
what nobody may see: no card of any hand in any public message (each message is compared
with the hands at the moment it was posted, taken from the engine snapshots the bot saved).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage
from bot.i18n import counted, language, t
from bot.text import onecard as render
from rules.cards import FULL_DECK, Card, Rank, parse_card
from rules.engine import GameOver
from rules.onecard import CardsTaken, Forfeited, PlayCard, State, Take, position
from rules.onecard.ai import choose_action
from tests.bot.store.fakes import watch_writes
from tests.e2e.deckhand_tables import (
    answered_in_private,
    leave_game,
    live_tables,
    menu_of,
    open_hand,
    pick_in_menus,
    settled,
    version_of,
    whose_turn,
)
from tests.language import foreign_lines, message_lines

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

SEED = 43  # 52 member moves: 7s with a suit, attacks, two bankruptcies
PHASE = re.compile(r"^Turn (\d+) · ", re.MULTILINE)
HAND_LISTING = re.compile(r"^(\d+ cards? in your hand:|내 카드 \d+장:)$", re.MULTILINE)  # en, ko
CARD_TEXTS = {render.card_name(card, "en"): card for card in FULL_DECK}
# A card as an English table names it: ♠10, ♥A, Black joker (the longest first).
CARD = re.compile("|".join(re.escape(text) for text in sorted(CARD_TEXTS, key=len, reverse=True)))
PLAYED = re.compile(f"played (?:{CARD.pattern})")
MENU = "Play a card or take"


# -- reading the channel --------------------------------------------------------------------


class HandLog:
    """Every position the bot saved, by phase: the hands as they were at that moment."""

    def __init__(self, bot: DeckhandBot, channel_id: int) -> None:
        self.by_phase: dict[int, list[list[str]]] = {}
        self.channel_id = channel_id
        self.state: State | None = None

        def record(game: Any) -> None:
            if game.data.get("state"):
                snapshot = game.data["state"]
                self.by_phase[snapshot["phase"]] = snapshot["hands"]

        def finishing(channel_id: int) -> None:
            session = bot.sessions.get(channel_id)
            if session is not None and isinstance(session.state, State):
                snapshot = session.state.snapshot()
                self.by_phase[snapshot["phase"]] = snapshot["hands"]

        watch_writes(bot.store, record, finishing)

    def leaks(self, message: FakeMessage) -> list[str]:
        """Cards of a hand (at the message's phase) that the message shows; played cards aside."""
        text = PLAYED.sub("", message.text)
        phases = [int(p) for p in PHASE.findall(message.text)]
        if phases:
            hands = self.by_phase[phases[-1]]
            held = {code for hand in hands for code in hand}
        else:  # a lobby or notice: no card belongs in it at all
            held = {card.code for card in FULL_DECK}
        shown = {CARD_TEXTS[m].code for m in CARD.findall(text)}
        return sorted(shown & held)


# -- acting like a member -------------------------------------------------------------------


async def via_hand_menu(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: PlayCard | Take
) -> Any:
    """Hand button → the select of legal cards (→ the suit after a 7)."""
    hand = await open_hand(fake, member, table)
    assert HAND_LISTING.search(hand.text), hand.text
    if isinstance(action, Take):
        return await pick_in_menus(fake, member, hand, ["take"])
    values = [action.card.code]
    if action.card.rank is Rank.SEVEN:
        assert action.suit is not None
        values.append(action.suit.value)
    return await pick_in_menus(fake, member, hand, values)


async def via_commands(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: PlayCard | Take
) -> Any:
    """``/onecard play card suit`` or the table's Take button."""
    if isinstance(action, Take):
        label = next(b["label"] for b in table.buttons if str(b["label"]).startswith("Take"))
        return await fake.click(member, table, label)
    options: dict[str, Any] = {"card": action.card.code}
    if action.suit is not None:
        options["suit"] = action.suit.value
    return await fake.slash(member, fake.channel, "onecard play", **options)


async def via_slash_take(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: PlayCard | Take
) -> Any:
    if isinstance(action, Take):
        return await fake.slash(member, fake.channel, "onecard take")
    return await via_hand_menu(fake, member, table, action)


ROUTES: list[Callable[..., Any]] = [via_hand_menu, via_commands, via_slash_take]


def from_the_hand(route: Callable[..., Any], action: PlayCard | Take) -> bool:
    """Whether the route makes the move in the private hand's menu, rather than by command
    or with the public table's Take button."""
    return route is via_hand_menu or (route is via_slash_take and isinstance(action, PlayCard))


async def open_game(
    fake: FakeDiscord, bot: DeckhandBot, members: list[FakeMember], *, seed: int = SEED
) -> tuple[FakeMessage, HandLog]:
    alice, bob, carol = members
    log = HandLog(bot, fake.channel.id)
    opened = await fake.slash(alice, fake.channel, "onecard start", players=4, bots=1, seed=seed)
    assert not opened.ephemeral, opened.text
    joined = await fake.click(bob, opened.message or opened.messages[0], "Join")
    assert not joined.ephemeral, joined.text
    joined = await fake.slash(carol, fake.channel, "onecard join")
    assert not joined.ephemeral, joined.text
    return await settled(fake, bot, fake.channel), log


def seat_state(bot: DeckhandBot, channel_id: int) -> tuple[Any, State]:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, State)
    return session, session.state


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("bob"),
        fake_discord.add_member("carol", locale="ko"),
    ]


# -- the tests ------------------------------------------------------------------------------


async def test_three_members_and_a_computer_play_to_the_end_and_no_hand_is_ever_public(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    table, log = await open_game(fake, bot, members)
    session, state = seat_state(bot, fake.channel.id)
    assert [s.computer for s in session.seats] == [False, False, False, True]
    names = session.names
    by_id = {m.id: m for m in members}
    moves = 0
    sevens: set[str] = set()  # how 7s were played: the suit menu, the command's option
    routes_used: set[str] = set()
    for _ in range(1000):
        table = await settled(fake, bot, fake.channel)
        session = bot.sessions.get(fake.channel.id)
        if session is None:
            break
        seat = state.current_seat
        assert seat is not None and not session.seats[seat].computer
        member = by_id[session.seats[seat].member_id]
        action = choose_action(state.view(seat))
        route = ROUTES[moves % len(ROUTES)]
        routes_used.add(route.__name__)
        if isinstance(action, PlayCard) and action.card.rank is Rank.SEVEN:
            sevens.add("command" if route is via_commands else "menu")
        version = session.version
        result = await route(fake, member, table, action)
        if from_the_hand(route, action):  # answered in the hand; the table goes to the channel
            await answered_in_private(fake, result)
        else:
            assert not result.ephemeral, result.text
        assert session.version > version or bot.sessions.get(fake.channel.id) is None
        moves += 1
    else:
        raise AssertionError("the game did not end")

    assert state.is_over and state.result is not None
    final = fake.public_messages(fake.channel)[-1]
    assert render.log_lines([GameOver(state.result)], names)[0] in final.text
    assert final.text.count("wins!") == 1  # one winner line
    assert [m.button_labels for m in live_tables(fake, fake.channel)] == [["Deal again"]]
    for place in ("1st", "2nd", "3rd", "4th"):  # every seat's result
        assert f"\n{place} " in final.text
    stats = await bot.store.member_stats(fake.guild.id, members[0].id)
    assert stats.games == {} and stats.practice == {"onecard": 1}  # seeded: practice only
    assert t("fair.seeded", "en", seed=SEED) in final.text
    assert moves > 30 and routes_used == {r.__name__ for r in ROUTES}
    assert sevens == {"menu", "command"}

    public = fake.public_messages(fake.channel)
    tables = [m for m in public if PHASE.search(m.text)]
    assert len(tables) > moves // 2
    for message in public:
        assert log.leaks(message) == [], message.text
        assert not HAND_LISTING.search(message.text)  # the hand listing is only ever ephemeral
    # The scan does see a leak: the first table with a card of a hand added to it.
    first = tables[0]
    phase = int(PHASE.findall(first.text)[-1])
    held = parse_card(log.by_phase[phase][0][0])
    leaked = dataclasses.replace(first, content=f"{first.content}\n{render.card_name(held)}")
    assert log.leaks(leaked) == [held.code]


async def test_the_hand_menu_holds_exactly_the_legal_cards_and_autocomplete_only_your_own(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    table, _ = await open_game(fake, bot, members)
    session, state = seat_state(bot, fake.channel.id)
    seat = state.current_seat
    assert seat is not None
    by_id = {m.id: m for m in members}
    member = by_id[session.seats[seat].member_id]
    others = [m for m in members if m is not member]
    legal = [card.code for card in state.view(seat).playable]

    hand = await fake.click(member, table, "Hand")
    assert hand.ephemeral and hand.message is not None
    held = state.hand(seat)
    assert counted("onecard.hand.count", len(held), language(member.locale)) in hand.text
    for card in held:
        assert render.card_name(card, language(member.locale)) in hand.text
    options = [o["value"] for o in menu_of(hand.message)["options"]]
    assert options == [*legal, "take"]

    offered = await fake.autocomplete(member, fake.channel, "onecard play", "card", "")
    assert [c["value"] for c in offered] == legal
    for other in others:
        assert await fake.autocomplete(other, fake.channel, "onecard play", "card", "") == []
        waiting = await fake.click(other, table, "Hand")
        assert waiting.ephemeral and waiting.message is not None
        assert not [c for c in waiting.message.items() if c.get("type") == 3]
        other_seat = session.seat_of(other.id)
        count = len(state.hand(other_seat))
        total = counted("onecard.hand.count", count, language(other.locale))
        assert total in waiting.text
        for card in state.hand(other_seat):
            assert render.card_name(card, language(other.locale)) in waiting.text


async def test_refusals_are_ephemeral_specific_and_change_nothing(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    table, _ = await open_game(fake, bot, members, seed=SEED + 1)
    session, state = seat_state(bot, fake.channel.id)
    seat = state.current_seat
    assert seat is not None
    by_id = {m.id: m for m in members}
    member = by_id[session.seats[seat].member_id]
    other = next(m for m in members if m is not member)
    before = (session.version, state.snapshot(), len(fake.public_messages(fake.channel)))

    def unchanged() -> None:
        assert (session.version, state.snapshot(), len(fake.public_messages(fake.channel))) == (
            before
        )

    held = set(state.hand(seat))
    mine = next(iter(state.hand(seat)))
    foreign: Card = next(c for c in FULL_DECK if c not in held and c is not state.open_card)
    refused = await fake.slash(member, fake.channel, "onecard play", card=foreign.code)
    assert refused.ephemeral and f"You don't have {foreign.code}." in refused.text
    unchanged()

    turnless = await fake.slash(other, fake.channel, "onecard play", card=mine.code)
    assert turnless.ephemeral and "It is not your turn." in turnless.text
    unchanged()
    clicked = await fake.click(other, table, table.button_labels[-1])
    assert clicked.ephemeral and "It is not your turn." in clicked.text
    unchanged()

    nonsense = await fake.slash(member, fake.channel, "onecard play", card="purple 99")
    assert nonsense.ephemeral and "Unknown card" in nonsense.text
    unchanged()

    playable = set(state.view(seat).playable)
    unplayable = [c for c in state.hand(seat) if c not in playable]
    assert unplayable, "pick a seed whose first player holds a card that does not fit"
    card = unplayable[0]
    options = {"suit": "♥"} if card.rank is Rank.SEVEN else {}
    illegal = await fake.slash(member, fake.channel, "onecard play", card=card.code, **options)
    assert illegal.ephemeral
    assert f"{card.code} does not match" in illegal.text or "Under attack" in illegal.text
    unchanged()

    # A 7 they do not hold, without a suit: the first thing wrong is that it is not theirs.
    seven = next(c for c in FULL_DECK if c.rank is Rank.SEVEN and c not in held)
    asked = await fake.slash(member, fake.channel, "onecard play", card=seven.code)
    assert asked.ephemeral and f"You don't have {seven.code}." in asked.text
    unchanged()

    stale_hand = await fake.click(member, table, "Hand")
    assert stale_hand.message is not None
    await via_commands(fake, member, table, Take())  # a real move: the menu is now stale
    fresh = await settled(fake, bot, fake.channel)
    assert fresh.id != table.id
    stale = await fake.select(
        member, stale_hand.message, menu_of(stale_hand.message)["custom_id"], ["take"]
    )
    assert stale.ephemeral and "out of date" in stale.text


async def test_leave_forfeits_and_the_cards_go_back_to_the_deck(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    await open_game(fake, bot, members, seed=SEED + 2)
    session, state = seat_state(bot, fake.channel.id)
    leaver = members[1]
    seat = session.seat_of(leaver.id)
    assert seat is not None
    count = len(state.hand(seat))
    deck_before = state.view(None).deck_count
    said = render.log_lines([Forfeited(seat, count)], session.names)
    left = await leave_game(fake, leaver, fake.channel, "onecard")
    # The Leave button of a private question answers in it; the table goes to the channel.
    table = await answered_in_private(fake, left)
    assert left.text == t("answer.on_table", "en"), left.text  # no seat, no hand any more
    assert said[0] in table.text
    assert f"Deck: {deck_before + count} cards" in table.text
    assert not state.view(None).playing[seat]
    again = await fake.slash(leaver, fake.channel, "onecard hand")
    assert again.ephemeral and "don't have a seat" in again.text
    await settled(fake, bot, fake.channel)


async def test_a_bankrupt_member_leaving_hears_why_in_their_language(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    await open_game(fake, bot, members, seed=SEED + 2)
    session, state = seat_state(bot, fake.channel.id)
    carol = members[2]  # speaks Korean
    seat = session.seat_of(carol.id)
    current = state.current_seat
    assert seat is not None and current is not None and current != seat
    # Carol has gone bankrupt (rule 22): same table, her cards back in the main deck.
    hands = [[] if s == seat else list(state.hand(s)) for s in range(state.players)]
    session.state = position(
        hands, state.open_card, current=current, direction=state.direction, out=[seat]
    )
    version = session.version
    left = await leave_game(fake, carol, fake.channel, "onecard")
    assert left.ephemeral and left.text == t("illegal.onecard.already_bankrupt", "ko"), left.text
    assert session.version == version and session.seat_of(carol.id) == seat


def test_card_texts_cover_the_deck() -> None:
    assert len(CARD_TEXTS) == 54
    assert CARD_TEXTS["♠10"] is parse_card("♠10")
    assert CARD_TEXTS["Colour joker"] is parse_card("JKC")


async def test_a_turn_timeout_takes_for_the_member(
    deckhand: Deckhand, fake_discord: FakeDiscord, members: list[FakeMember]
) -> None:
    fake = fake_discord
    async with deckhand.run(default_turn_seconds=0.4) as running:
        await open_game(fake, running, members)
        session, state = seat_state(running, fake.channel.id)
        timed_out = await fake.wait_for_message(fake.channel, lambda m: "ran out of time" in m.text)
        seat, kind, _ = state.snapshot()["log"][0]
        assert kind == 0  # the first move of the game was the engine's Take
        assert not session.seats[seat].computer
        assert f"{session.seats[seat].name} ran out of time" in timed_out.text
        assert render.log_lines([CardsTaken(seat, 1)], session.names)[0] in timed_out.text


async def test_the_hand_menu_still_works_after_a_restart(
    deckhand: Deckhand, fake_discord: FakeDiscord, members: list[FakeMember]
) -> None:
    fake = fake_discord
    async with deckhand.run() as first:
        await open_game(fake, first, members)
        session, state = seat_state(first, fake.channel.id)
        seat = state.current_seat
        assert seat is not None
        member = next(m for m in members if m.id == session.seats[seat].member_id)
        table = await settled(fake, first, fake.channel)
        hand = await fake.click(member, table, "Hand")
        assert hand.message is not None
        version = session.version
    async with deckhand.run() as second:
        restored, state = seat_state(second, fake.channel.id)
        assert restored.version == version and state.current_seat == seat
        menu = menu_of(hand.message)["custom_id"]
        picked = await fake.select(member, hand.message, menu, ["take"])
        # Answered in the hand (posted before the restart); the table goes to the channel.
        table = await answered_in_private(fake, picked, hand.message)
        assert render.log_lines([CardsTaken(seat, 1)], restored.names)[0] in table.text
        assert restored.version == version + 1
        newest = fake.public_messages(fake.channel)[-1]
        assert version_of(newest) == restored.version and "Turn " in newest.text


async def test_one_card_commands_leave_another_games_table_alone(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    pytest.importorskip("cogs.blackjack")
    fake = fake_discord
    alice = members[0]
    opened = await fake.slash(alice, fake.channel, "blackjack start", players=1, seed=1)
    assert not opened.ephemeral, opened.text
    session = bot.sessions.get(fake.channel.id)
    assert session is not None and session.game == "blackjack"
    version = session.version
    for command, options in (("onecard hand", {}), ("onecard play", {"card": "♠A"})):
        refused = await fake.slash(alice, fake.channel, command, **options)
        assert refused.ephemeral and "Blackjack game is open" in refused.text, refused.text
    assert await fake.autocomplete(alice, fake.channel, "onecard play", "card", "") == []
    assert session.version == version


@pytest.mark.parametrize(("member_locale", "server_locale"), [("ko", "en-US"), ("en-US", "ko")])
async def test_the_hand_speaks_the_members_language_not_the_servers(
    fake_discord: FakeDiscord, deckhand: Deckhand, member_locale: str, server_locale: str
) -> None:
    fake = fake_discord
    fake.guild.locale = server_locale
    lang, table_lang = member_locale[:2], server_locale[:2]
    host = fake.add_member("host", locale=server_locale)
    member = fake.add_member("member", locale=member_locale)
    async with deckhand.run() as bot:
        opened = await fake.slash(host, fake.channel, "onecard start", players=2, seed=SEED)
        await fake.click(member, opened.message or opened.messages[0], t("button.join", table_lang))
        table = await settled(fake, bot, fake.channel)
        assert not foreign_lines(message_lines(table), table_lang)  # the server's language
        # The member's hand on their turn (menu and all), by button and by command.
        if whose_turn(bot, fake.channel) != member.id:
            await fake.slash(host, fake.channel, "onecard take")
            table = await settled(fake, bot, fake.channel)
        assert whose_turn(bot, fake.channel) == member.id
        for hand in (
            await fake.click(member, table, t("button.hand", table_lang)),
            await fake.slash(member, fake.channel, "onecard hand"),
        ):
            assert hand.ephemeral and hand.message is not None
            lines = message_lines(hand.message)
            assert t("hand.title", lang) in lines and t("onecard.pick", lang) in lines
            assert not foreign_lines(lines, lang), lines


async def test_a_card_is_played_by_the_number_its_hand_shows(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    await open_game(fake, bot, members, seed=SEED + 1)
    session, state = seat_state(bot, fake.channel.id)
    seat = state.current_seat
    assert seat is not None
    member = next(m for m in members if m.id == session.seats[seat].member_id)
    hand = list(state.hand(seat))
    view = state.view(seat)
    shown = await fake.slash(member, fake.channel, "onecard hand")
    listing = " ".join(f"{i}:{render.card_name(c)}" for i, c in enumerate(hand, 1))
    assert listing in " ".join(shown.text.split()), shown.text  # the numbers the member sees
    version = session.version
    missing = await fake.slash(member, fake.channel, "onecard play", card=str(len(hand) + 2))
    assert missing.ephemeral
    assert f"Your hand has no card number {len(hand) + 2}." in missing.text
    unplayable = next(i for i, c in enumerate(hand, 1) if c not in view.playable)
    refused = await fake.slash(member, fake.channel, "onecard play", card=str(unplayable))
    assert refused.ephemeral and render.card_name(hand[unplayable - 1]) in refused.text
    assert session.version == version
    number, card = next((i, c) for i, c in enumerate(hand, 1) if c in view.playable)
    suit = {"suit": "♥"} if card.rank is Rank.SEVEN else {}
    offered = await fake.autocomplete(member, fake.channel, "onecard play", "card", str(number))
    assert [c["value"] for c in offered] == [card.code]
    played = await fake.slash(member, fake.channel, "onecard play", card=str(number), **suit)
    assert not played.ephemeral, played.text
    assert f"played {render.card_name(card)}" in played.text
    assert card not in state.hand(seat)


async def test_the_last_number_of_the_hand_takes_and_the_final_table_deals_again(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, bob, _ = members
    opened = await fake.slash(alice, fake.channel, "onecard start", players=2, seed=SEED)
    await fake.click(bob, opened.message or opened.messages[0], "Join")
    await settled(fake, bot, fake.channel)
    session, state = seat_state(bot, fake.channel.id)
    seat = state.current_seat
    assert seat is not None
    member = alice if session.seats[seat].member_id == alice.id else bob
    count = len(state.hand(seat))
    said = render.log_lines([CardsTaken(seat, 1)], session.names)[0]
    took = await fake.slash(member, fake.channel, "onecard play", card=str(count + 1))
    assert not took.ephemeral, took.text
    assert said in took.text and len(state.hand(seat)) == count + 1
    # The other member leaves: the one who stays wins; the final table offers Deal again.
    left = await leave_game(fake, bob if member is alice else alice, fake.channel, "onecard")
    await answered_in_private(fake, left)  # the final table is posted, not the answer
    final = await settled(fake, bot, fake.channel)
    assert final.button_labels == ["Deal again"], final.text
    assert "\n1st " in final.text and "\n2nd " in final.text and "out: left" in final.text
    again = await fake.click(member, final, "Deal again")
    assert not again.ephemeral, again.text
    fresh = await settled(fake, bot, fake.channel)
    assert PHASE.search(fresh.text) and "Hand" in fresh.button_labels

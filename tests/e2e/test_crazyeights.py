"""Crazy Eights end to end: the real bot and cogs, driven by members through the fake Discord.

Two members (one reading Korean) and a computer play whole games with everything a member
can use: ``/crazyeights start`` and Join, the table's **Hand** and **Draw** buttons, the
hand's menus (an 8 asks for the suit next, a draw answers with the card drawn and the hand
again), ``/crazyeights play``, ``draw`` and ``pass``. Besides the game reaching its end, the
tests check what nobody may see: no card of any hand in any public message (each message is
compared with the hands of the turn it shows, from the positions the bot saved).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

import pytest

from bot.fairness import commitment
from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage
from bot.i18n import language, t
from bot.text import crazyeights as render
from rules.cards import STANDARD_DECK, Rank, parse_card
from rules.crazyeights import CardDrawn, Draw, GameOver, Pass, PlayCard, State
from rules.crazyeights.ai import choose_action
from tests.bot.store.fakes import watch_writes
from tests.e2e.deckhand_tables import (
    answered_in_private,
    answered_with_private,
    button_action,
    leave_game,
    live_tables,
    menu_of,
    open_hand,
    pick_in_menus,
    settled,
    to_play,
    whose_turn,
)
from tests.language import english_words, foreign_lines, message_lines

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

SEED = 44  # 56 member moves with the normal player's choices: 27 draws, 3 eights, a reshuffle
TURN = re.compile(r"^(?:Turn (\d+)|(\d+)번째 차례) · ", re.MULTILINE)
CODES = {card.code: card for card in STANDARD_DECK}
CARD = re.compile("|".join(re.escape(code) for code in sorted(CODES, key=len, reverse=True)))
# Cards in public by rule 7: each card played, and the top card (the last played).
PLAYED = re.compile(f"(?:played |님이 |Top card: |바닥 카드: )({CARD.pattern})")
HAND_LISTING = re.compile(r"^(\d+ cards? in your hand:|내 카드 \d+장:)$", re.MULTILINE)
Move = PlayCard | Draw | Pass


class HandLog:
    """The cards in any hand during each turn, from every position the bot saved: a table
    showing turn N may name none of them (a card drawn during turn N included)."""

    def __init__(self, bot: DeckhandBot) -> None:
        self.by_turn: dict[int, set[str]] = {}

        def keep(snapshot: dict[str, Any]) -> None:
            held = self.by_turn.setdefault(snapshot["turn"], set())
            held.update(code for hand in snapshot["hands"] for code in hand)

        def record(game: Any) -> None:
            if game.data.get("state"):
                keep(game.data["state"])

        def finishing(channel_id: int) -> None:
            session = bot.sessions.get(channel_id)
            if session is not None and isinstance(session.state, State):
                keep(session.state.snapshot())

        watch_writes(bot.store, record, finishing)

    def leaks(self, message: FakeMessage) -> list[str]:
        """Cards of a hand (in the turn the message shows) that it names; played ones aside."""
        text = PLAYED.sub("", re.sub(r"\x1b\[[0-9;]*m", "", message.text))
        turns = [int(a or b) for a, b in TURN.findall(message.text)]
        held = self.by_turn[turns[-1]] if turns else set(CODES)  # a notice names no card
        return sorted(set(CARD.findall(text)) & held)


def seat_state(bot: DeckhandBot, channel_id: int) -> tuple[Any, State]:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, State)
    return session, session.state


# -- acting like a member -------------------------------------------------------------------


async def via_hand_menu(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Move, state: State
) -> Any:
    """Hand button, then its menu: a card (an 8, then its suit), Draw or Pass."""
    hand = await open_hand(fake, member, table)  # the table speaks the server's English
    assert HAND_LISTING.search(hand.text), hand.text
    if isinstance(action, PlayCard):
        values = [action.card.code]
        if action.card.rank is Rank.EIGHT:
            assert action.suit is not None
            values.append(action.suit.value)
        return await pick_in_menus(fake, member, hand, values)
    verb = "draw" if isinstance(action, Draw) else "pass"
    return await pick_in_menus(fake, member, hand, [verb])


async def via_commands(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Move, state: State
) -> Any:
    """``/crazyeights play card suit``, ``/crazyeights draw`` or ``pass``."""
    if isinstance(action, PlayCard):
        options: dict[str, Any] = {"card": action.card.code}
        if action.suit is not None:
            options["suit"] = action.suit.value
        return await fake.slash(member, fake.channel, "crazyeights play", **options)
    verb = "draw" if isinstance(action, Draw) else "pass"
    return await fake.slash(member, fake.channel, f"crazyeights {verb}")


async def via_table_buttons(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Move, state: State
) -> Any:
    """The table's Draw (or Pass) button; a card through the hand's menu."""
    if isinstance(action, PlayCard):
        return await via_hand_menu(fake, member, table, action, state)
    wanted = "draw" if isinstance(action, Draw) else "pass"
    button = next(b for b in table.buttons if button_action(b) == wanted)
    return await fake.click(member, table, str(button["custom_id"]))


ROUTES = [via_hand_menu, via_commands, via_table_buttons]


def from_the_hand(route: Any, action: Move) -> bool:
    """Whether the route makes the move in the private hand's menu (a card through the
    table's buttons too), rather than by command or with a button of the public table."""
    return route is via_hand_menu or (route is via_table_buttons and isinstance(action, PlayCard))


async def told_the_draw(
    fake: FakeDiscord, result: Any, member: FakeMember, state: State, seat: int
) -> None:
    """After a draw the member alone is told the card drawn, with the hand and its menu
    again while the turn goes on (a play or a draw from there): as the move's answer, the
    hand's message updated in place after a pick in its menu, else a new private message;
    the table is posted apart."""
    note = result.message
    assert note is not None, result
    drawn = state.hand(seat)[-1]
    assert note.ephemeral and note.visible_to == member.id, note.text
    assert t("crazyeights.drew", language(member.locale), card=drawn.code) in note.text
    assert HAND_LISTING.search(note.text) and menu_of(note)["options"]


async def open_game(
    fake: FakeDiscord, bot: DeckhandBot, alice: FakeMember, bob: FakeMember, **options: Any
) -> FakeMessage:
    """Alice opens a table of three with a computer; Bob joins with the Join button. The
    table once a member is to move."""
    start = {"players": 3, "bots": 1, **options}
    opened = await fake.slash(alice, fake.channel, "crazyeights start", **start)
    assert not opened.ephemeral, opened.text
    joined = await fake.click(bob, opened.message or opened.messages[0], "Join")
    assert not joined.ephemeral, joined.text
    return await to_play(fake, bot, fake.channel)


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [fake_discord.add_member("alice"), fake_discord.add_member("bob", locale="ko")]


# -- the tests ------------------------------------------------------------------------------


async def test_two_members_and_a_computer_play_to_the_end_and_no_hand_is_ever_public(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, bob = members
    log = HandLog(bot)
    await open_game(fake, bot, alice, bob, seed=SEED)
    session, state = seat_state(bot, fake.channel.id)
    assert [s.computer for s in session.seats] == [False, False, True]
    by_id = {m.id: m for m in members}
    moves = 0
    eights: list[str] = []  # how each 8 was played: the suit menu, the command's option
    for _ in range(400):
        table = await settled(fake, bot, fake.channel)
        if bot.sessions.get(fake.channel.id) is None:
            break
        seat = state.current_seat
        assert seat is not None and not session.seats[seat].computer
        member = by_id[session.seats[seat].member_id]
        action = choose_action(state.view(seat))
        route = ROUTES[moves % len(ROUTES)]
        if isinstance(action, PlayCard) and action.card.rank is Rank.EIGHT:
            route = via_commands if len(eights) % 2 else via_hand_menu
            eights.append(route.__name__)
        version = session.version
        result = await route(fake, member, table, action, state)
        if from_the_hand(route, action):  # answered in the hand; the table goes to the channel
            await answered_in_private(fake, result)
        elif isinstance(action, Draw):  # answered with the card drawn, privately; the table too
            await answered_with_private(fake, result)
        else:
            assert not result.ephemeral, result.text
        if isinstance(action, Draw):
            await told_the_draw(fake, result, member, state, seat)
        assert session.version > version or bot.sessions.get(fake.channel.id) is None
        moves += 1
    else:
        raise AssertionError("the game did not end")

    assert state.is_over and state.result is not None
    winner = session.names[state.result.winners[0]]
    final = fake.public_messages(fake.channel)[-1]
    assert render.log_lines([GameOver(state.result)], session.names)[0] in final.text
    assert final.text.count(" wins and scores ") == 1 and winner in final.text
    assert [m.button_labels for m in live_tables(fake, fake.channel)] == [["Deal again"]]
    for place in ("1st", "2nd", "3rd"):  # every seat's result
        assert f"\n{place} " in final.text
    assert t("fair.seeded", "en", seed=SEED) in final.text
    stats = await bot.store.member_stats(fake.guild.id, alice.id)
    assert stats.games == {} and stats.practice == {"crazyeights": 1}
    assert moves > 40 and eights[:2] == ["via_hand_menu", "via_commands"]

    public = fake.public_messages(fake.channel)
    assert len([m for m in public if TURN.search(m.text)]) > moves // 2
    for message in public:
        assert log.leaks(message) == [], message.text
        assert not HAND_LISTING.search(message.text)  # the hand listing is only ever private
    # The scan does see a leak: a table with a card of a hand added to it.
    first = next(m for m in public if TURN.search(m.text))
    turn = TURN.findall(first.text)[-1][0]
    held = sorted(log.by_turn[int(turn)])[0]
    leaked = dataclasses.replace(first, content=f"{first.content}\n{held}")
    assert log.leaks(leaked) == [held]


async def test_the_korean_member_reads_the_hand_in_korean_and_the_table_in_english(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, bob = members
    table = await open_game(fake, bot, alice, bob, seed=SEED)
    assert not foreign_lines(message_lines(table), "en")  # the table speaks the server's
    _, state = seat_state(bot, fake.channel.id)
    for _ in range(50):  # Alice plays until it is Bob's turn
        table = await to_play(fake, bot, fake.channel)
        if whose_turn(bot, fake.channel) == bob.id:
            break
        seat = state.current_seat
        assert seat is not None
        await via_commands(fake, alice, table, choose_action(state.view(seat)), state)
    else:
        raise AssertionError("Bob's turn never came")
    for hand in (
        await fake.click(bob, table, "Hand"),
        await fake.slash(bob, fake.channel, "crazyeights hand"),
    ):
        assert hand.ephemeral and hand.message is not None
        lines = message_lines(hand.message)
        assert t("hand.title", "ko") in lines and t("crazyeights.pick", "ko") in lines
        assert not foreign_lines(lines, "ko") and not english_words(hand.text), lines


async def test_refusals_are_private_specific_and_change_nothing(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, bob = members
    table = await open_game(fake, bot, alice, bob, seed=SEED)
    session, state = seat_state(bot, fake.channel.id)
    seat = state.current_seat
    assert seat is not None
    member = next(m for m in members if m.id == session.seats[seat].member_id)
    other = bob if member is alice else alice
    before = (session.version, state.snapshot(), len(fake.public_messages(fake.channel)))

    def unchanged() -> None:
        now = (session.version, state.snapshot(), len(fake.public_messages(fake.channel)))
        assert now == before

    lang = language(member.locale)
    held = set(state.hand(seat))
    foreign = next(c for c in STANDARD_DECK if c not in held and c is not state.top)
    for typed, said in (
        (foreign.code, t("illegal.crazyeights.not_in_hand", lang, card=foreign.code)),
        ("purple 99", t("illegal.crazyeights.unknown_card", lang, text="purple 99")),
    ):
        refused = await fake.slash(member, fake.channel, "crazyeights play", card=typed)
        assert refused.ephemeral and said in refused.text, refused.text
        unchanged()
    unfits = [c for c in state.hand(seat) if c not in state.view(seat).playable]
    assert unfits, "a seed whose first player holds a card that does not fit"
    unfit = unfits[0]
    refused = await fake.slash(member, fake.channel, "crazyeights play", card=unfit.code)
    assert refused.ephemeral and unfit.code in refused.text
    unchanged()
    passed = await fake.slash(member, fake.channel, "crazyeights pass")
    assert passed.ephemeral and passed.text == t("illegal.crazyeights.must_draw", lang)
    unchanged()
    turnless = await fake.slash(other, fake.channel, "crazyeights draw")
    assert turnless.ephemeral and turnless.text == t("error.not_your_turn", language(other.locale))
    clicked = await fake.click(other, table, "Draw")
    assert clicked.ephemeral
    unchanged()
    assert await fake.autocomplete(other, fake.channel, "crazyeights play", "card", "") == []
    offered = await fake.autocomplete(member, fake.channel, "crazyeights play", "card", "")
    assert [o["value"] for o in offered] == [
        c.code for c in render.sorted_hand(state.view(seat)) if c in state.view(seat).playable
    ]


async def test_a_timeout_draws_until_a_card_fits_and_plays_it(
    deckhand: Deckhand, fake_discord: FakeDiscord, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, bob = members
    async with deckhand.run(default_turn_seconds=0.4) as running:
        await open_game(fake, running, alice, bob, seed=SEED)
        session, state = seat_state(running, fake.channel.id)
        first = state.current_seat
        start = len(state.snapshot()["log"])  # the computer may have begun
        assert first is not None and not session.seats[first].computer
        timed_out = await fake.wait_for_message(fake.channel, lambda m: "ran out of time" in m.text)
        mine = []  # the first turn's moves: (seat, kind, _), kind 0 a card, 1 a draw
        for seat, kind, _ in state.snapshot()["log"][start:]:
            if seat != first:
                break
            mine.append(kind)
        assert mine and mine[-1] == 0 and set(mine[:-1]) <= {1}  # draws, then a card played
        draws = len(mine) - 1
        if draws:
            said = render.log_lines([CardDrawn(first, 0)] * draws, session.names)[0]
            assert said in timed_out.text
        assert "played " in timed_out.text


async def test_leaving_forfeits_the_last_member_wins_and_deals_again(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, bob = members
    opened = await fake.slash(alice, fake.channel, "crazyeights start", players=2, seed=SEED)
    await fake.click(bob, opened.message or opened.messages[0], "Join")
    await settled(fake, bot, fake.channel)
    _session, state = seat_state(bot, fake.channel.id)
    count = len(state.hand(1))
    left = await leave_game(fake, bob, fake.channel, "crazyeights")
    told = await answered_in_private(fake, left)  # the Leave button of a private question
    assert left.text == t("answer.on_table", "ko"), left.text  # no seat, no hand any more
    assert f"bob left the game: {count} cards were shuffled into the stock" in told.text
    final = await settled(fake, bot, fake.channel)
    assert final.button_labels == ["Deal again"], final.text
    assert "\n1st alice" in final.text and "\n2nd bob" in final.text and "left" in final.text
    again = await fake.click(alice, final, "Deal again")
    assert not again.ephemeral, again.text
    fresh = await settled(fake, bot, fake.channel)
    assert TURN.search(fresh.text) and "Hand" in fresh.button_labels


async def test_a_fair_deal_is_revealed_under_the_final_table_and_verifies(
    deckhand: Deckhand, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rules.rng

    secret = 7270349581932761301
    monkeypatch.setattr(rules.rng, "new_seed", lambda: secret)
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        opened = await fake.slash(alice, fake.channel, "crazyeights start", players=2, bots=1)
        assert not opened.ephemeral, opened.text
        first = await settled(fake, bot, fake.channel)
        session, state = seat_state(bot, fake.channel.id)
        assert session.secret is not None
        salt = session.secret.salt
        shown = commitment("crazyeights", secret, salt)
        assert t("fair.commit", "en", commitment=shown) in first.text
        dealt = [card.code for card in state.hand(0)]
        await to_play(fake, bot, fake.channel)  # a first move of the computer's is in
        left = await leave_game(fake, alice, fake.channel, "crazyeights")  # the computer wins
        final = await answered_in_private(fake, left)
        command = f"/game verify game:Crazy Eights seed:{secret} salt:{salt} players:2"
        assert final.text.endswith(t("fair.reveal", "en", seed=secret, salt=salt, command=command))
        checked = await fake.slash(
            alice, fake.channel, "game verify", game="crazyeights", seed=str(secret),
            salt=salt, players=2,
        )  # fmt: skip
        assert checked.ephemeral
        assert t("verify.result", "en", commitment=shown) in checked.text
        assert all(code in checked.text for code in dealt)
        assert parse_card(dealt[0]).code == dealt[0]

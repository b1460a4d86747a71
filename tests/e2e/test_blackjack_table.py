"""Blackjack end to end: the real bot, its store and cogs, driven by members through the fake.

Members type slash commands and click the table's buttons exactly as in Discord; the fake
refuses whatever Discord would (the ``fake_discord`` fixture fails the test on any refusal)
and the checks read only what members can see, plus the session's version to prove that a
refused click changed nothing.
"""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, UsageError
from bot.i18n import t
from tests.e2e.deckhand_tables import (
    answered_in_private,
    blackjack_seed,
    latest_table,
    open_table,
    play_to_the_end,
    settled,
    version_of,
    whose_turn,
)
from tests.language import foreign_lines, message_lines

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand


CARD = re.compile(r"^(♠|♥|♦|♣)(A|[2-9]|10|J|Q|K)$")


@pytest.fixture
async def bot(deckhand: Deckhand, fake_discord: FakeDiscord) -> Any:
    """The running bot; afterwards, every table that showed the House face down showed
    exactly one of its cards (the hole card never rides along)."""
    async with deckhand.run() as running:
        yield running
    hidden = {t("bj.hidden", "en"), t("bj.hidden", "ko")}
    for message in fake_discord.messages.values():
        for line in message.text.splitlines():
            if any(f": {h}, " in line for h in hidden):
                shown = line.split(", ", 1)[1]
                assert CARD.match(shown), f"more than the up card shown: {line!r}"


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("bob", locale="ko"),
        fake_discord.add_member("carol"),
    ]


async def test_three_members_and_two_computers_play_to_results(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, carol = members
    await open_table(fake_discord, bot, alice, [bob, carol], bots=2)
    session = bot.sessions.get(fake_discord.channel.id)
    assert session is not None and session.state is not None
    assert [s.computer for s in session.seats] == [False, False, False, True, True]
    final = await play_to_the_end(fake_discord, bot, members)
    assert bot.sessions.get(fake_discord.channel.id) is None
    assert "Deal again" in final.button_labels
    outcomes = tuple(f"[{t(key, 'en')}] " for key in ("bj.win", "bj.lose", "bj.draw"))
    results = [line for line in final.text.splitlines() if line.startswith(outcomes)]
    assert len(results) == 5  # every seat, members and computers, against the House
    for member in members:
        assert sum(f"] {member.name}: " in line for line in results) == 1
    assert t("fair.seeded", "en", seed=blackjack_seed(5)) in final.text  # practice, in public
    for member in members:  # a seeded deal is practice: recorded, never counted
        stats = await bot.store.member_stats(fake_discord.guild.id, member.id)
        assert stats.games == {} and stats.practice == {"blackjack": 1}
    shown = await fake_discord.slash(members[0], fake_discord.channel, "stats")
    practice = t("stats.practice_game", "en", game=t("game.blackjack", "en"), played=1)
    assert shown.text.splitlines()[1:] == [t("stats.practice", "en", games=practice)]
    again = await fake_discord.click(bob, final, "Deal again")
    assert not again.ephemeral, again.text
    assert again.message is not None and again.message.buttons
    assert (version_of(again.message) or 0) > (version_of(final) or 0)
    await fake_discord.wait_for(lambda: not final.buttons)  # the old table's button retires


async def test_lobby_refusals(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, carol = members
    seed = blackjack_seed(2)
    opened = await fake_discord.slash(
        alice, fake_discord.channel, "blackjack start", players=2, seed=seed
    )
    assert not opened.ephemeral
    lobby = latest_table(fake_discord, fake_discord.channel)
    version = bot.sessions.get(fake_discord.channel.id).version  # type: ignore[union-attr]

    second = await fake_discord.slash(bob, fake_discord.channel, "blackjack start", players=2)
    # Bob's client is Korean: his refusals are in Korean.
    assert second.ephemeral
    assert second.text == t("error.already_here", "ko", game=t("game.blackjack", "ko"))
    early = await fake_discord.click(bob, lobby, "Start")
    assert early.ephemeral and early.text == t("error.host_only", "ko")
    assert bot.sessions.get(fake_discord.channel.id).version == version  # type: ignore[union-attr]

    # Bob takes the last seat; a full lobby never waits: the game is dealt at once, so a
    # latecomer meets a started game, by command or by the full lobby's own Join button.
    last_lobby = lobby.snapshot()
    joined = await fake_discord.click(bob, lobby, "Join")
    assert not joined.ephemeral
    session = bot.sessions.get(fake_discord.channel.id)
    assert session is not None and session.state is not None
    await settled(fake_discord, bot, fake_discord.channel)
    assert not fake_discord.messages[lobby.id].buttons  # the lobby's Join is gone
    full = await fake_discord.slash(carol, fake_discord.channel, "blackjack join")
    assert full.ephemeral and full.text == t("error.already_started", "en")
    # A client that has not seen the lobby lose its buttons yet can still click Join.
    late = await fake_discord.click(carol, last_lobby, "Join", stale=True)
    assert late.ephemeral and late.text == t("error.stale_button", "en")
    assert [seat.member_id for seat in session.seats] == [alice.id, bob.id]
    assert fake_discord.ephemeral_messages(alice) == []


async def test_refused_clicks_change_nothing(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, carol = members
    table = await open_table(fake_discord, bot, alice, [bob])
    session = bot.sessions.get(fake_discord.channel.id)
    assert session is not None
    version, posted = session.version, len(fake_discord.public_messages(fake_discord.channel))
    turn = whose_turn(bot, fake_discord.channel)
    waiting = bob if turn == alice.id else alice

    outsider = await fake_discord.click(carol, table, "Hit")
    assert outsider.ephemeral and outsider.text == t("error.not_seated", "en")
    out_of_turn = await fake_discord.click(waiting, table, "Hit")
    assert out_of_turn.ephemeral
    assert out_of_turn.text == t("error.not_your_turn", "ko" if waiting is bob else "en")
    current = alice if turn == alice.id else bob
    old = table.snapshot()
    moved = await fake_discord.click(current, table, "Hit")
    assert not moved.ephemeral
    await settled(fake_discord, bot, fake_discord.channel)
    stale = await fake_discord.click(current, old, "Stand", stale=True)
    assert stale.ephemeral
    assert stale.text == t("error.stale_button", "ko" if current is bob else "en")
    assert session.version == version + 1 or bot.sessions.get(fake_discord.channel.id) is None
    # Refusals are private: one new public table only (the accepted Hit's).
    assert len(fake_discord.public_messages(fake_discord.channel)) >= posted + 1
    for refused in (outsider, out_of_turn, stale):
        assert all(m.ephemeral for m in refused.messages)


async def test_two_simultaneous_clicks_apply_once(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, _ = members
    table = await open_table(fake_discord, bot, alice, [bob])
    session = bot.sessions.get(fake_discord.channel.id)
    assert session is not None
    version = session.version
    current = alice if whose_turn(bot, fake_discord.channel) == alice.id else bob
    first, second = await asyncio.gather(
        fake_discord.click(current, table, "Stand"), fake_discord.click(current, table, "Stand")
    )
    assert sorted([first.ephemeral, second.ephemeral]) == [False, True]
    refused = first if first.ephemeral else second
    locale = "ko" if current is bob else "en"
    assert refused.text in (t("error.stale_button", locale), t("error.not_your_turn", locale))
    live = bot.sessions.get(fake_discord.channel.id)
    assert live is None or live.version == version + 1


async def test_game_end_needs_a_moderator(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, _ = members
    mod = fake_discord.add_member("mod", moderator=True)
    await open_table(fake_discord, bot, alice, [bob])
    refused = await fake_discord.slash(alice, fake_discord.channel, "game end")
    assert refused.ephemeral and refused.text == t("error.moderator_only", "en")
    assert bot.sessions.get(fake_discord.channel.id) is not None
    ended = await fake_discord.slash(mod, fake_discord.channel, "game end")
    assert not ended.ephemeral and mod.mention in ended.text
    assert ended.message is not None and ended.message.pinged == []  # named, not pinged
    assert bot.sessions.get(fake_discord.channel.id) is None


async def test_a_table_of_computers_does_not_flood_the_channel(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice = members[0]
    # Discord's per-channel limit is about 5 messages per 5 seconds: computer moves must be
    # coalesced into the table posts, not sent one message each.
    fake_discord.channel_send_limit = (5, 5.0)
    await open_table(fake_discord, bot, alice, [], bots=6)
    final = await play_to_the_end(fake_discord, bot, [alice])
    assert "Deal again" in final.button_labels
    assert fake_discord.rate_limited == []
    assert len(fake_discord.public_messages(fake_discord.channel)) <= 4


async def test_the_hand_button_answers_privately_with_controls_on_your_turn(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, _ = members
    table = await open_table(fake_discord, bot, alice, [bob])
    assert whose_turn(bot, fake_discord.channel) == alice.id  # seat 1 plays first
    mine = await fake_discord.click(alice, table, "Hand")
    theirs = await fake_discord.click(bob, table, "Hand")
    assert mine.ephemeral and theirs.ephemeral
    assert mine.message is not None and theirs.message is not None
    assert mine.message.button_labels == ["Hit", "Stand"]
    assert theirs.message.button_labels == []  # not bob's turn: nothing to press
    assert fake_discord.ephemeral_messages(bob) == [theirs.message]
    with pytest.raises(UsageError):  # bob cannot even see alice's hand
        await fake_discord.click(bob, mine.message, "Stand")
    stood = await fake_discord.click(alice, mine.message, "Stand")
    # Answered in alice's hand, now without controls (bob's turn); the table is posted.
    await answered_in_private(fake_discord, stood, mine.message)
    assert mine.message.button_labels == [], mine.message.text
    await settled(fake_discord, bot, fake_discord.channel)
    assert whose_turn(bot, fake_discord.channel) == bob.id


async def test_a_thread_is_a_channel_of_its_own(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, _ = members
    thread = await fake_discord.add_thread(fake_discord.channel, "side table", alice)
    await open_table(fake_discord, bot, alice, [], bots=1)
    seed = blackjack_seed(1)
    opened = await fake_discord.slash(bob, thread, "blackjack start", players=1, seed=seed)
    assert not opened.ephemeral, opened.text
    assert bot.sessions.get(thread.id) is not None
    assert bot.sessions.get(fake_discord.channel.id) is not None
    in_thread = fake_discord.public_messages(thread)
    assert [m.id for m in in_thread] == [opened.message.id]  # type: ignore[union-attr]
    moved = await fake_discord.click(bob, in_thread[0], "Stand")
    assert not moved.ephemeral, moved.text
    assert bot.sessions.get(fake_discord.channel.id) is not None  # the parent's game is untouched


@pytest.mark.parametrize(("member_locale", "server_locale"), [("ko", "en-US"), ("en-US", "ko")])
async def test_the_hand_speaks_the_members_language_not_the_servers(
    fake_discord: FakeDiscord, bot: DeckhandBot, member_locale: str, server_locale: str
) -> None:
    fake_discord.guild.locale = server_locale
    lang, table_lang = member_locale[:2], server_locale[:2]
    host = fake_discord.add_member("host", locale=member_locale)
    seed = blackjack_seed(1)
    opened = await fake_discord.slash(host, fake_discord.channel, "blackjack start", seed=seed)
    assert not foreign_lines(message_lines(opened.message or opened.messages[0]), table_lang)
    table = await settled(fake_discord, bot, fake_discord.channel)
    for hand in (
        await fake_discord.click(host, table, t("button.hand", table_lang)),
        await fake_discord.slash(host, fake_discord.channel, "blackjack hand"),
    ):
        assert hand.ephemeral and hand.message is not None
        lines = message_lines(hand.message)
        assert hand.message.button_labels == [t("button.hit", lang), t("button.stand", lang)]
        assert any(line.startswith(t("bj.your_hand", lang, hand="")) for line in lines)
        assert not foreign_lines(lines, lang), lines


def casino_seed_with_a_pair() -> int:
    """The first seed whose casino deal for one seat lets it split."""
    from rules.blackjack import Split, new

    return next(
        seed
        for seed in range(2000)
        if not (state := new(1, seed=seed, options={"ruleset": "casino"})).is_over
        and Split() in state.legal_actions(0)
    )


async def test_a_member_splits_and_doubles_at_a_casino_table(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, _ = members
    seed = casino_seed_with_a_pair()
    opened = await fake_discord.slash(
        alice, fake_discord.channel, "blackjack start", seed=seed, rules="casino"
    )
    assert not opened.ephemeral, opened.text
    table = await settled(fake_discord, bot, fake_discord.channel)
    assert t("bj.rules_casino", "en") in table.text.splitlines()
    assert table.button_labels == ["Hand", "Hit", "Stand", "Double", "Split"]
    rules = await fake_discord.slash(alice, fake_discord.channel, "rules", game="blackjack")
    assert rules.ephemeral and rules.text == t("rules.blackjack.casino", "en")
    mine = await fake_discord.click(alice, table, "Hand")
    assert mine.message is not None
    assert mine.message.button_labels == ["Hit", "Stand", "Double", "Split"]
    split = await fake_discord.click(alice, table, "Split")
    assert not split.ephemeral, split.text
    table = await settled(fake_discord, bot, fake_discord.channel)
    assert "alice splits: " in table.text
    assert "> alice: Split" in table.text and "  > Hand 1: " in table.text
    assert table.button_labels == ["Hand", "Hit", "Stand", "Double"]  # no second split
    resplit = await fake_discord.slash(alice, fake_discord.channel, "blackjack split")
    assert resplit.ephemeral and resplit.text == t("illegal.blackjack.split_once", "en")
    doubled = await fake_discord.slash(alice, fake_discord.channel, "blackjack double")
    assert not doubled.ephemeral, doubled.text
    table = await settled(fake_discord, bot, fake_discord.channel)
    assert "alice doubles hand 1: " in table.text and "  > Hand 2: " in table.text
    final = await fake_discord.click(alice, table, "Stand")
    assert not final.ephemeral, final.text
    final_table = await settled(fake_discord, bot, fake_discord.channel)
    assert final_table.button_labels == ["Deal again"]
    assert "] Hand 1: " in final_table.text and "] Hand 2: " in final_table.text
    outsider = await fake_discord.click(bob, final_table, "Deal again")
    assert outsider.ephemeral  # bob was not seated
    again = await fake_discord.click(alice, final_table, "Deal again")
    assert not again.ephemeral and again.message is not None, again.text
    assert t("bj.rules_casino", "en") in again.message.text  # the next deal is casino too


async def test_a_classic_table_refuses_double_in_the_members_language(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    alice, bob, _ = members
    table = await open_table(fake_discord, bot, alice, [bob])
    assert "Double" not in table.button_labels and "Split" not in table.button_labels
    assert t("bj.rules_casino", "en") not in table.text
    current = alice if whose_turn(bot, fake_discord.channel) == alice.id else bob
    locale = "ko" if current is bob else "en"
    refused = await fake_discord.slash(current, fake_discord.channel, "blackjack double")
    assert refused.ephemeral
    assert refused.text == t("illegal.blackjack.casino_only", locale)


async def test_a_korean_casino_table_speaks_korean_only(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake_discord.guild.locale = "ko"
    bob = members[1]  # a Korean client
    seed = casino_seed_with_a_pair()
    opened = await fake_discord.slash(
        bob, fake_discord.channel, "blackjack start", seed=seed, rules="casino"
    )
    assert not opened.ephemeral, opened.text
    table = await settled(fake_discord, bot, fake_discord.channel)
    assert t("bj.rules_casino", "ko") in table.text.splitlines()
    for label in ("button.split", "button.double", "button.stand", "button.stand"):
        if whose_turn(bot, fake_discord.channel) is None:
            break
        moved = await fake_discord.click(bob, table, t(label, "ko"))
        assert not moved.ephemeral, moved.text
        table = await settled(fake_discord, bot, fake_discord.channel)
    assert t("bj.split", "ko") in table.text and t("bj.hand_n", "ko", n=2) in table.text
    for message in fake_discord.public_messages(fake_discord.channel):
        assert not foreign_lines(message_lines(message), "ko"), message_lines(message)

"""Go-Stop end to end: the real bot and cogs, driven by members through the fake Discord.

Members use everything a member can: ``/gostop start`` against the computer or a member,
Join, the table's **Hand** button and its menus (a card, then which of two floor cards, a
shake or a bomb), the menu sent after a move that leaves a choice (what the flip takes, Go or
Stop), the **Go** and **Stop** buttons, ``/gostop play`` with its autocomplete, ``/gostop
choose``, ``go``, ``stop`` and ``leave``, and **Deal again**. Besides the games reaching their
end, the tests check what nobody may see: every public table is the spectator's view drawn
anew (never a seat's), and no public message names a card that was in a hand or the pile at
the moment it was posted (taken from the engine snapshots the bot saved). How a member
plays, and the saved positions, are in tests/e2e/gostop_play.py.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

import rules.rng
from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage
from bot.i18n import language, t
from bot.text import gostop as render
from rules.engine import Action
from rules.gostop import Go, Phase, Play, State, Stop
from rules.gostop.cards import CARDS, Kind
from tests.e2e.deckhand_tables import (
    answered_in_private,
    code_block,
    leave_game,
    live_tables,
    menu_of,
    to_play,
)
from tests.e2e.gostop_play import (
    ROUTES,
    Saved,
    ai,
    as_offered,
    game_state,
    play_through,
    via_command,
)
from tests.language import foreign_lines, message_lines

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand


# -- fixtures ---------------------------------------------------------------------------------


# Each test deals a known game without a member's seed (a seeded game is practice and never
# counts): the seed the operating system would give for the bot's fair deal is fixed here.
NEXT_DEAL: list[int] = []


@pytest.fixture(autouse=True)
def fixed_fair_deals(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(rules.rng, "new_seed", lambda: NEXT_DEAL[-1])
    yield
    NEXT_DEAL.clear()


def fair_start(seed: int) -> dict[str, Any]:
    """The table's next fair deal is the one ``seed`` deals; no ``seed`` option is given."""
    NEXT_DEAL.append(seed)
    return {}


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("민준", locale="ko"),
    ]


# -- the tests --------------------------------------------------------------------------------


async def test_a_member_against_the_computer_plays_to_the_end_and_no_hidden_card_is_public(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    alice = members[0]
    saved = Saved(bot, monkeypatch)
    opened = await fake.slash(alice, fake.channel, "gostop start", bots=1, **fair_start(SEED))
    assert not opened.ephemeral, opened.text
    played = await play_through(fake, bot, [alice], ai)
    assert played.moves > 5
    final = await to_play(fake, bot, fake.channel)
    assert final.button_labels == ["Deal again"]
    finished = bot.sessions.finished.get(fake.channel.id)
    assert finished is not None and isinstance(finished.state, State)
    result = finished.state.result
    assert result is not None
    assert saved.scan(fake) > played.moves // 2
    the_scan_sees_a_leak(saved, fake.public_messages(fake.channel)[0])
    assert live_tables(fake, fake.channel) == [final]
    stats = await bot.store.member_stats(fake.guild.id, alice.id)
    assert stats.games["gostop"]["played"] == 1


SEED = 11
NAGARI_SEED = 149  # both members calling Go whenever asked: nobody stops, a nagari
CHOICES_SEED = 9  # the deal after it: a two-target card, a flip's choice, a shake, a bomb


def always_go(state: State, seat: int) -> Action:
    """The computer's move, but Go whenever Go or Stop is asked."""
    action = ai(state, seat)
    return Go() if isinstance(action, Stop) else action


def go_once() -> Callable[[State, int], Action]:
    """The computer's move, but each seat's first Go / Stop is Go and the next Stop."""
    goes = [0, 0]

    def policy(state: State, seat: int) -> Action:
        action = ai(state, seat)
        if isinstance(action, Go | Stop):
            action = Go() if not goes[seat] else Stop()
            goes[seat] += isinstance(action, Go)
        return action

    return policy


async def test_two_members_a_nagari_then_deal_again_with_every_choice_and_a_go_then_stop(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    fake.guild.locale = "ko"  # the tables in Korean; alice's own answers stay English
    alice, minjun = members
    saved = Saved(bot, monkeypatch)
    opened = await fake.slash(alice, fake.channel, "gostop start", **fair_start(NAGARI_SEED))
    assert not opened.ephemeral and "1번 자리: alice" in opened.text, opened.text
    joined = await fake.click(minjun, opened.message or opened.messages[0], "참가")
    assert not joined.ephemeral, joined.text
    first = game_state(bot, fake.channel.id)
    dealer = first.dealer
    played = await play_through(fake, bot, members, always_go)
    assert any(isinstance(a, Go) for a in played.actions)
    nagari = await to_play(fake, bot, fake.channel)
    assert "나가리! 아무도 스톱하지 못했어요." in nagari.text
    assert "다음 판은 ×2예요." in code_block(nagari.content)
    assert nagari.button_labels == ["다시 하기"]
    for member in members:
        record = await bot.store.member_stats(fake.guild.id, member.id)
        assert record.games["gostop"]["draw"] == 1

    # Deal again: the dealer stays and the stakes double (rules 3, 25). The deal is nobody's
    # seed, so the test fixes the one the operating system would give.
    monkeypatch.setattr(rules.rng, "new_seed", lambda: CHOICES_SEED)
    again = await fake.click(minjun, nagari, "다시 하기")
    assert not again.ephemeral, again.text
    second = game_state(bot, fake.channel.id)
    assert (second.dealer, second.nagari_carry) == (dealer, 1)
    assert "판돈 ×2: 나가리 1번" in code_block((await to_play(fake, bot, fake.channel)).content)
    played = await play_through(fake, bot, members, go_once())
    kinds = {type(a).__name__ for a in played.actions}
    assert {"Bomb", "TakeFlip", "Go", "Stop"} <= kinds
    assert any(isinstance(a, Play) and a.target is not None for a in played.actions)
    assert any(isinstance(a, Play) and a.shake for a in played.actions)
    assert played.routes == {r.__name__ for r in ROUTES} and played.followups > 0
    final = await to_play(fake, bot, fake.channel)
    log = final.text
    assert re.search(r"님 1고! \(\d+점\)", fake_text(fake))
    assert re.search(r"님 스톱! \(\d+점\)", log)
    sheet = code_block(final.content)
    assert "점수표:" in sheet and "나가리 1번" in sheet and "고 보너스 (1고)" in sheet

    assert saved.scan(fake) > 40


def fake_text(fake: FakeDiscord) -> str:
    """Every public message of the channel, oldest first."""
    return "\n".join(m.text for m in fake.public_messages(fake.channel))


CHONGTONG_SEED = 72  # the host, dealing first, holds all four of a month (rule 5)
TARGET_SEED = 1  # the host moves first and holds a card with two floor cards to choose from
RESTART_SEED = 15  # a member is asked Go or Stop on the 14th move


async def open_two(
    fake: FakeDiscord, bot: DeckhandBot, members: list[FakeMember], seed: int
) -> FakeMessage:
    """alice opens a table, 민준 joins by command; the first table."""
    opened = await fake.slash(members[0], fake.channel, "gostop start", **fair_start(seed))
    assert not opened.ephemeral, opened.text
    joined = await fake.slash(members[1], fake.channel, "gostop join")
    assert not joined.ephemeral, joined.text
    return await to_play(fake, bot, fake.channel)


def the_scan_sees_a_leak(saved: Saved, table: FakeMessage) -> None:
    """The scan is no formality: a hidden card named in a table, or a table that is no
    saved position's spectator view, is found."""
    version = saved.version_of(table)
    assert version is not None
    one = next(c for c in saved.hidden(version) if c.kind in (Kind.BRIGHT, Kind.ANIMAL))
    named = dataclasses.replace(table, content=f"{render.card_name(one, 'en')}\n{table.content}")
    assert saved.leaks(named) == [render.card_name(one, "en")]
    other = dataclasses.replace(table, content=table.content.replace("```\n", "```\nX", 1))
    assert saved.leaks(other) == ["a table that is not the spectator's view of a saved position"]


async def test_refusals_are_ephemeral_specific_in_the_members_language_and_change_nothing(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun = members
    table = await open_two(fake, bot, members, TARGET_SEED)
    state = game_state(bot, fake.channel.id)
    session = bot.sessions.get(fake.channel.id)
    assert session is not None and state.current_seat == 0
    before = (session.version, state.snapshot(), len(fake.public_messages(fake.channel)))

    def unchanged() -> None:
        now = (session.version, state.snapshot(), len(fake.public_messages(fake.channel)))
        assert now == before

    async def refused(member: FakeMember, command: str, text: str, **options: Any) -> None:
        answer = await fake.slash(member, fake.channel, command, **options)
        assert answer.ephemeral and answer.text == text, answer.text
        unchanged()

    hand = state.view(0).hand
    assert hand is not None
    two = next(a for a in state.legal_actions(0) if isinstance(a, Play) and a.target)
    first, second = render.in_floor_order(
        a.target for a in state.legal_actions(0) if isinstance(a, Play) and a.card is two.card
    )
    card = render.card_name(two.card, "en")
    other = next(c for c in CARDS[:48] if c not in hand and c.month != two.card.month)
    await refused(minjun, "gostop play", t("error.not_your_turn", "ko"), card=two.card.code)
    await refused(alice, "gostop play", "Unknown card 'purple 99': type one like 1광, 5피a "
                  "or jan-bright.", card="purple 99")  # fmt: skip
    await refused(alice, "gostop play", f"You don't have {render.card_name(other, 'en')}.",
                  card=other.code)  # fmt: skip
    await refused(
        alice,
        "gostop play",
        f"Choose which card {card} takes: {render.card_name(first, 'en')} or "
        f"{render.card_name(second, 'en')}.",
        card=two.card.code,
    )
    await refused(alice, "gostop go", "Play a card from your hand.")
    await refused(alice, "gostop choose", "Play a card from your hand.", card=first.code)
    await refused(alice, "gostop chongtong", "Play a card from your hand.", choice="end")
    clicked = await fake.click(minjun, table, "Hand")  # his hand: no menu, not his turn
    assert clicked.ephemeral and clicked.message is not None
    assert not [c for c in clicked.message.items() if c.get("type") == 3]
    assert "alice 님 차례예요." in clicked.text
    unchanged()
    assert await fake.autocomplete(minjun, fake.channel, "gostop play", "card", "") == []

    # A menu of an older table is out of date once a move is made.
    stale = await fake.click(alice, table, "Hand")
    assert stale.message is not None
    await fake.slash(alice, fake.channel, "gostop play", card=f"{two.card.code}>{first.code}")
    answer = await fake.select(
        alice, stale.message, menu_of(stale.message)["custom_id"], [hand[0].code]
    )
    assert answer.ephemeral and answer.text == t("error.stale_button", "en")


async def test_the_hand_and_its_menus_speak_the_members_language(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun = members
    await open_two(fake, bot, members, TARGET_SEED)
    state = game_state(bot, fake.channel.id)
    table = await to_play(fake, bot, fake.channel)
    assert not foreign_lines(message_lines(table), "en")  # the server speaks English
    hand = await fake.click(alice, table, "Hand")
    assert hand.ephemeral and hand.message is not None
    lines = message_lines(hand.message)
    assert not foreign_lines(lines, "en"), lines
    assert "Your turn: pick a card to play." in lines and "Play a card" in lines
    assert f"{len(state.view(0).hand or ())} cards" in hand.text
    two = next(a for a in state.legal_actions(0) if isinstance(a, Play) and a.target)
    second = await fake.select(
        alice, hand.message, menu_of(hand.message)["custom_id"], [two.card.code]
    )
    assert second.ephemeral and second.message is not None
    assert second.text == f"Which floor card does {render.card_name(two.card, 'en')} take?"
    assert len(menu_of(second.message)["options"]) == 2
    offered = await fake.autocomplete(alice, fake.channel, "gostop play", "card", "")
    assert f"{two.card.code}>{two.target.code}" in [c["value"] for c in offered]  # type: ignore[union-attr]
    for korean in (
        await fake.click(minjun, table, "Hand"),
        await fake.slash(minjun, fake.channel, "gostop hand"),
    ):
        assert korean.ephemeral and korean.message is not None
        lines = message_lines(korean.message)
        assert "내 패" in lines and "alice 님 차례예요." in lines
        assert not foreign_lines(lines, "ko"), lines
        assert re.search(r"손패 10장", korean.text)


async def test_a_chongtong_is_offered_to_its_holder_alone_and_wins_ten_points(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    alice, minjun = members
    saved = Saved(bot, monkeypatch)
    table = await open_two(fake, bot, members, CHONGTONG_SEED)
    state = game_state(bot, fake.channel.id)
    assert state.phase == Phase.CHONGTONG and state.current_seat == 0
    # To the table an ordinary turn: nothing shows.
    assert "alice to play" in code_block(table.content)
    refused = await fake.slash(alice, fake.channel, "gostop play", card="1광")
    assert refused.ephemeral and "win now with your chongtong, or play on" in refused.text
    theirs = await fake.click(minjun, table, "Hand")
    assert "총통" not in theirs.text
    hand = await fake.click(alice, table, "Hand")
    assert hand.message is not None and "Chongtong: you hold all four" in hand.text
    options = [o["value"] for o in menu_of(hand.message)["options"]]
    assert options == ["end", "play"]
    won = await fake.select(alice, hand.message, menu_of(hand.message)["custom_id"], ["end"])
    # Answered in alice's hand; the final table goes to the channel.
    table = await answered_in_private(fake, won, hand.message)
    assert "Chongtong! alice holds all four" in table.text
    assert "alice wins with a chongtong" in code_block(table.content)
    final = code_block(table.content)
    assert re.search(r"^ chongtong +10$", final, re.M) and re.search(r"^ total +10$", final, re.M)
    record = await bot.store.member_stats(fake.guild.id, alice.id)
    assert record.games["gostop"]["win"] == 1 and record.games["gostop"]["points"] == 10
    board = await fake.slash(alice, fake.channel, "leaderboard", game="gostop")
    lines = board.text.splitlines()  # rated over games between members: alice first
    assert lines[0] == "Go-Stop: ratings over games between members"
    assert lines[1].startswith(f"1. <@{alice.id}>: ") and lines[1].endswith(
        "(1 games against members)"
    )
    stats = await fake.slash(alice, fake.channel, "stats")
    assert "Go-Stop: 1 played, 1 won, 0 lost, 0 drawn, 10 points" in stats.text
    assert saved.scan(fake) == 2


async def test_leaving_forfeits_and_the_other_member_wins(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun = members
    await open_two(fake, bot, members, TARGET_SEED)
    left = await leave_game(fake, minjun, fake.channel, "gostop")
    # The Leave button of a private question answers in it; the table goes to the channel.
    table = await answered_in_private(fake, left)
    assert left.text == t("answer.on_table", "ko"), left.text  # no seat, no hand any more
    assert "민준 left the game" in table.text and "민준 left: alice wins" in table.text
    assert table.button_labels == ["Deal again"]
    for member, outcome in ((alice, "win"), (minjun, "lose")):
        record = await bot.store.member_stats(fake.guild.id, member.id)
        assert record.games["gostop"][outcome] == 1
    again = await fake.slash(minjun, fake.channel, "gostop hand")
    assert again.ephemeral and again.text == t("error.no_game", "ko")


async def test_out_of_time_the_safe_move_is_made(
    deckhand: Deckhand, fake_discord: FakeDiscord, members: list[FakeMember]
) -> None:
    fake = fake_discord
    async with deckhand.run(default_turn_seconds=0.4) as running:
        await open_two(fake, running, members, TARGET_SEED)
        state = game_state(running, fake.channel.id)
        safe = state.legal_actions(0)[0]  # the first card (and its first target), no shake
        assert isinstance(safe, Play) and safe.card is (state.view(0).hand or ())[0]
        timed_out = await fake.wait_for_message(fake.channel, lambda m: "ran out of time" in m.text)
        assert f"alice plays {render.card_name(safe.card, 'en')}" in timed_out.text
        target = -1 if safe.target is None else safe.target.index
        assert state.snapshot()["log"][0] == ["play", safe.card.index, target, False]


async def test_a_restart_keeps_the_game_its_menus_and_its_go_stop_buttons(
    deckhand: Deckhand, fake_discord: FakeDiscord, members: list[FakeMember]
) -> None:
    fake = fake_discord
    async with deckhand.run() as first:
        await open_two(fake, first, members, RESTART_SEED)
        policy = go_once()
        # Play until a member must answer Go or Stop.
        for _ in range(60):
            state = game_state(first, fake.channel.id)
            if state.phase == Phase.GO_STOP:
                break
            table = await to_play(fake, first, fake.channel)
            seat = state.current_seat
            assert seat is not None
            member = members[seat]
            action = as_offered(policy(state, seat), state, seat)
            await via_command(fake, member, table, action, state)
        else:
            raise AssertionError("nobody reached Go or Stop")
        table = await to_play(fake, first, fake.channel)
        member = members[seat]
        hand = await fake.click(member, table, "Hand")
        assert hand.message is not None
        session = first.sessions.get(fake.channel.id)
        assert session is not None
        version = session.version
    async with deckhand.run() as second:
        restored = game_state(second, fake.channel.id)
        assert restored.phase == Phase.GO_STOP and restored.current_seat == seat
        # Go and Stop are the choosing member's alone; their hand's Go button, posted
        # before the restart, still works.
        table = await to_play(fake, second, fake.channel, restarted=True)
        other = members[1 - seat]
        refused = await fake.click(other, table, "Go")
        not_yours = t("error.not_your_turn", language(other.locale))
        assert refused.ephemeral and refused.text == not_yours
        go = await fake.click(member, hand.message, t("button.go", language(member.locale)))
        # Answered in the hand; the table goes to the channel.
        told = await answered_in_private(fake, go, hand.message)
        assert "Go 1" in told.text, told.text
        session = second.sessions.get(fake.channel.id)
        assert session is not None and session.version == version + 1
        played = await play_through(fake, second, members, policy, restarted=True)
        assert played.moves > 0
        assert second.sessions.get(fake.channel.id) is None

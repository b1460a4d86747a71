"""Uno end to end: the real bot and cogs, driven by members through the fake Discord.

Members play what the computer player would in their seat, through what a member can use:
``/uno start`` with every house rule and a computer seat, Join, the table's **Hand** button
and its select of legal plays (a wild asks for its colour, a 7 for its target), **Draw** /
**Take n**, **Challenge**, **UNO!**, ``/uno play`` with colour and target, ``/uno pass``.
Besides the round reaching its end, every public message is scanned for a card of a hand:
only the played cards and the top card may be named in public. How a member makes each move,
and the scan, are in tests/e2e/uno_play.py.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

import rules.rng
from bot.fakediscord import FakeDiscord, FakeMember
from bot.i18n import t
from bot.text import uno as render
from rules.uno import (
    CallUno,
    Draw,
    Play,
    State,
)
from rules.uno.ai import choose_action
from rules.uno.cards import CARD_CODES, COLOUR_NAMES
from tests.e2e.deckhand_tables import (
    answered_in_private,
    answered_table,
    answered_with_private,
    leave_game,
    menu_of,
    settled,
    whose_turn,
)
from tests.e2e.uno_play import (
    ALL_RULES,
    ANSI,
    CARD_CODE,
    CARD_NAMES,
    NEXT_DEAL,
    final_table,
    log_text,
    make_move,
    open_rigged,
    play_round,
    public_cards,
    state_of,
    state_of_finished,
)
from tests.language import foreign_lines, message_lines
from tests.phone import assert_fits_phone

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand


@pytest.fixture(autouse=True)
def fixed_fair_deals(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(rules.rng, "new_seed", lambda: NEXT_DEAL[-1])
    yield
    NEXT_DEAL.clear()


@pytest.fixture(autouse=True)
def no_hand_in_public(
    fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    """After every test: the hand-leak scan of every public message and every log line."""
    caplog.set_level(logging.INFO)
    yield
    for message in fake_discord.public_messages(fake_discord.channel):
        assert public_cards(message.text) == [], message.text
    for record in caplog.records:
        line = record.getMessage()
        assert not CARD_CODE.search(line), line
        assert not [name for name in CARD_NAMES if name in line], line


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("민준", locale="ko"),
        fake_discord.add_member("carol"),
    ]


async def test_three_members_and_a_computer_play_a_round_with_every_house_rule(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
) -> None:
    fake = fake_discord
    alice, minjun, carol = members
    NEXT_DEAL.append(7)
    opened = await fake.slash(alice, fake.channel, "uno start", players=4, bots=1, **ALL_RULES)
    assert not opened.ephemeral, opened.text
    await fake.slash(minjun, fake.channel, "uno join")
    await fake.slash(carol, fake.channel, "uno join")
    moves = await play_round(fake, bot, members)
    assert moves > 5
    final = await final_table(fake)
    assert final.button_labels == ["Deal again"]
    assert "wins +" in final.text and "\n*" in ANSI.sub("", final.text)  # the winner's seat
    finished = bot.sessions.finished.get(fake.channel.id)
    assert finished is not None and isinstance(finished.state, State)
    assert finished.state.result is not None
    public = fake.public_messages(fake.channel)
    assert len(public) > moves // 2
    for message in public:
        for block in re.findall(r"```ansi\n(.*?)\n```", message.text, re.DOTALL):
            assert_fits_phone(block)
    # The scan (run after every test by no_hand_in_public) sees a hand where it would be.
    hand = "\n".join(render.hand_lines(state_of_finished(bot, fake.channel.id).view(0), "en"))
    assert public_cards(hand.replace("Top: ", "")) != []
    assert CARD_CODE.search("seat 0 holds red_5, blue_+2")
    stats = await bot.store.member_stats(fake.guild.id, alice.id)
    assert stats.games["uno"]["played"] == 1


# -- rigged tables: each house rule and challenge, on a deal set by hand ----------------------


async def test_a_bluffed_wild_draw_four_is_caught_and_its_hand_shown_to_the_challenger_only(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, carol = members
    state = await open_rigged(
        fake,
        bot,
        members,
        [["red_3", "none_W+4", "blue_5"], ["green_1", "green_2"], ["blue_9"]],
        "red_7",
    )
    await make_move(fake, bot, alice, Play(1, colour=2), 0)  # Hand select, then Blue
    table = await settled(fake, bot, fake.channel)
    assert "Challenge" in table.button_labels
    assert "Penalty waiting: draw 4" in ANSI.sub("", table.text)
    answer = await fake.click(minjun, table, "Challenge")
    # Answered with alice's hand, to 민준 alone; the table goes to the channel.
    await answered_with_private(fake, answer)
    revealed = answer.message
    assert revealed is not None and revealed.visible_to == minjun.id
    assert "alice" in revealed.text and "Red 3" not in revealed.text  # in Korean for 민준
    assert "빨강 3" in ANSI.sub("", revealed.text)
    assert not [m for m in fake.ephemeral_messages(carol, fake.channel) if "빨강 3" in m.text]
    assert "민준 challenged: alice bluffed and draws 4" in log_text(fake)
    assert len(state.hands[0]) == 2 + 4 and state.turn == 1  # the challenger plays on
    for message in fake.public_messages(fake.channel):
        assert public_cards(message.text) == [], message.text


async def test_an_honest_wild_draw_four_costs_the_challenger_six(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, _ = members
    state = await open_rigged(
        fake,
        bot,
        members,
        [["green_3", "none_W+4", "blue_5"], ["green_1", "green_2"], ["blue_9"]],
        "red_7",
    )
    await make_move(fake, bot, alice, Play(1, colour=1), 1)  # /uno play card colour
    table = await settled(fake, bot, fake.channel)
    challenged = await fake.click(minjun, table, "Challenge")
    await answered_table(fake, challenged)  # the table is in the channel
    assert "민준 challenged: alice was honest, 민준 draws 6" in log_text(fake)
    assert len(state.hands[1]) == 2 + 6 and state.turn == 2  # and is skipped


async def test_uno_not_called_is_caught_for_two_cards(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _, carol = members
    state = await open_rigged(
        fake,
        bot,
        members,
        [["red_3", "red_4"], ["green_1", "green_2", "green_3"], ["blue_9", "blue_8", "blue_7"]],
        "red_7",
        uno_call=True,
    )
    table = await settled(fake, bot, fake.channel)
    hand = await fake.click(alice, table, "Hand")
    assert hand.message is not None and "UNO!" in hand.message.button_labels  # two cards
    await make_move(fake, bot, alice, Play(0), 2)
    table = await settled(fake, bot, fake.channel)
    assert "UNO? (not called)" in ANSI.sub("", table.text)
    assert {"UNO!", "Catch"} <= set(table.button_labels)
    await fake.click(carol, table, "Catch")
    assert "carol caught alice without UNO: alice draws 2" in log_text(fake)
    assert len(state.hands[0]) == 3


async def test_uno_called_in_time_cannot_be_caught(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _, carol = members
    await open_rigged(
        fake,
        bot,
        members,
        [["red_3", "red_4"], ["green_1", "green_2", "green_3"], ["blue_9", "blue_8", "blue_7"]],
        "red_7",
        uno_call=True,
    )
    await make_move(fake, bot, alice, CallUno(), 0)
    await make_move(fake, bot, alice, Play(0), 2)
    table = await settled(fake, bot, fake.channel)
    assert "Catch" not in table.button_labels
    assert "alice called UNO!" in log_text(fake)
    cards = [len(hand) for hand in state_of(bot, fake.channel.id).hands]
    refused = await fake.slash(carol, fake.channel, "uno catch")
    assert refused.ephemeral
    assert [len(hand) for hand in state_of(bot, fake.channel.id).hands] == cards


async def test_uno_pressed_in_the_hand_then_the_card_picked_from_the_hand_it_answers(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, _, carol = members
    await open_rigged(
        fake,
        bot,
        members,
        [["red_3", "red_4"], ["green_1", "green_2", "green_3"], ["blue_9", "blue_8", "blue_7"]],
        "red_7",
        uno_call=True,
    )
    table = await settled(fake, bot, fake.channel)
    hand = await fake.click(alice, table, "Hand")
    assert hand.message is not None and "UNO!" in hand.message.button_labels
    said = await fake.click(alice, hand.message, "UNO!")
    # The table goes to the channel, and alice's hand, updated in place, is a fresh hand,
    # its menu of the new version.
    await answered_in_private(fake, said, hand.message)
    fresh = said.message
    assert fresh is not None
    assert fresh.ephemeral and t("uno.said_early", "en") in fresh.content, fresh.content
    played = await fake.select(alice, fresh, menu_of(fresh)["custom_id"], ["red_3"])
    await answered_in_private(fake, played, fresh)
    await settled(fake, bot, fake.channel)
    assert "alice called UNO!" in log_text(fake)
    refused = await fake.slash(carol, fake.channel, "uno catch")
    assert refused.ephemeral


async def test_a_seven_swaps_hands_with_the_seat_picked_from_the_select(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice = members[0]
    state = await open_rigged(
        fake,
        bot,
        members,
        [
            ["red_7", "blue_1", "blue_2"],
            ["green_1", "green_2"],
            ["blue_9", "blue_8", "blue_7", "blue_6", "blue_4"],
        ],
        "red_5",
        seven_zero=True,
    )
    await make_move(fake, bot, alice, Play(0, target=2), 0)  # Hand select, then seat 3
    assert "alice swapped hands with carol" in log_text(fake)
    assert [len(hand) for hand in state.hands] == [5, 2, 2]


async def test_a_zero_passes_every_hand_on_and_each_reaches_its_owner_by_hand(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, _ = members
    state = await open_rigged(
        fake,
        bot,
        members,
        [
            ["red_0", "blue_1", "blue_2"],
            ["green_1", "green_2", "green_3", "green_4"],
            ["blue_9", "blue_8", "blue_7", "blue_6", "blue_4"],
        ],
        "red_5",
        seven_zero=True,
    )
    await make_move(fake, bot, alice, Play(0), 1)
    assert "Every hand passes on one seat" in log_text(fake)
    assert [len(hand) for hand in state.hands] == [5, 2, 4]
    table = await settled(fake, bot, fake.channel)
    hand = await fake.click(minjun, table, "Hand")
    assert hand.ephemeral and "파랑 1" in ANSI.sub("", hand.text)


async def test_a_member_jumps_in_out_of_turn_with_the_identical_card(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    carol = members[2]
    state = await open_rigged(
        fake,
        bot,
        members,
        [["green_3", "blue_5"], ["green_1", "green_2"], ["red_5", "blue_9"]],
        "red_5",
        jump_in=True,
    )
    choices = await fake.autocomplete(carol, fake.channel, "uno play", "card", "")
    assert [c["value"] for c in choices] == ["red_5"]
    hand = await fake.click(carol, await settled(fake, bot, fake.channel), "Hand")
    assert hand.message is not None
    assert [o["value"] for o in menu_of(hand.message)["options"]] == ["red_5"]  # no Draw
    answer = await fake.slash(carol, fake.channel, "uno play", card="red 5")
    assert not answer.ephemeral, answer.text
    assert "carol jumped in with Red 5" in log_text(fake)
    assert state.turn == 0  # play goes on from carol, to alice


async def test_a_stacked_draw_two_chain_passes_the_sum_on(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, carol = members
    state = await open_rigged(
        fake,
        bot,
        members,
        [["red_+2", "blue_5"], ["blue_+2", "green_1"], ["green_9", "blue_9"]],
        "red_5",
        stacking=True,
    )
    await make_move(fake, bot, alice, Play(0), 0)
    await make_move(fake, bot, minjun, Play(0), 0)  # the Hand select offers the +2
    table = await settled(fake, bot, fake.channel)
    assert "Penalty waiting: draw 4" in ANSI.sub("", table.text)
    await fake.click(carol, table, "Take 4")
    assert "carol draws 4" in log_text(fake)
    assert len(state.hands[2]) == 6 and state.turn == 0


async def test_a_restart_mid_game_keeps_the_table_and_its_buttons(
    fake_discord: FakeDiscord, deckhand: Deckhand, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, carol = members
    NEXT_DEAL.append(3)
    async with deckhand.run() as first:
        await fake.slash(alice, fake.channel, "uno start", players=3, jump_in=True)
        await fake.slash(minjun, fake.channel, "uno join")
        await fake.slash(carol, fake.channel, "uno join")
        for turn in range(4):
            await settled(fake, first, fake.channel)
            member_id = whose_turn(first, fake.channel)
            state = state_of(first, fake.channel.id)
            member = next(m for m in members if m.id == member_id)
            await make_move(fake, first, member, choose_action(state.view(state.turn)), turn)
        before = state_of(first, fake.channel.id).snapshot()
        table = await settled(fake, first, fake.channel)
    async with deckhand.run() as second:
        assert state_of(second, fake.channel.id).snapshot() == before
        member_id = whose_turn(second, fake.channel)
        member = next(m for m in members if m.id == member_id)
        hand = await fake.click(member, table, "Hand")
        assert hand.ephemeral and hand.message is not None
        state = state_of(second, fake.channel.id)
        action = choose_action(state.view(state.turn))
        if isinstance(action, Draw):
            await fake.click(member, table, "Draw")
        else:
            await make_move(fake, second, member, action, 0)
        assert state_of(second, fake.channel.id).log[-1][0] == before["turn"]


async def test_a_thirty_card_hand_fits_discords_limits_in_both_languages(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, _ = members
    hands = [[CARD_CODES[c] for c in range(start, start + 30)] for start in (0, 30)]
    await open_rigged(fake, bot, members, [*hands, ["yellow_9"]], "yellow_5")
    table = await settled(fake, bot, fake.channel)
    for member, lang in ((alice, "en"), (minjun, "ko")):
        hand = await fake.click(member, table, "Hand")
        assert hand.ephemeral and hand.message is not None
        assert len(hand.message.text) <= 2000
        assert_fits_phone(hand.message.text)
        assert foreign_lines(message_lines(hand.message), lang) == []
        if member is alice:
            options = menu_of(hand.message)["options"]
            assert 0 < len(options) <= 25
            assert all(len(o["value"]) <= 100 and len(o["label"]) <= 100 for o in options)


async def test_the_seed_ruleset_penalises_a_refused_card_and_an_action_card_does_not_win(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, _ = members
    state = await open_rigged(
        fake,
        bot,
        members,
        [["red_3", "blue_+2"], ["green_+2"], ["blue_9", "blue_8"]],
        "red_5",
        ruleset="seed",
    )
    answer = await fake.slash(alice, fake.channel, "uno play", card="blue +2")
    assert not answer.ephemeral, answer.text  # rule 11: not a refusal but a penalty
    assert "alice broke the rule: a penalty card" in log_text(fake)
    assert len(state.hands[0]) == 3 and state.turn == 1
    table = await settled(fake, bot, fake.channel)
    assert "UNO · classroom rules" in ANSI.sub("", table.text)
    state.discard.append(next(c for c in state.pile if CARD_CODES[c] == "green_5"))
    state.pile.remove(state.discard[-1])
    state._unshuffled = len(state.pile)
    state.colour = COLOUR_NAMES.index("green")
    await fake.slash(minjun, fake.channel, "uno play", card="green +2")
    assert len(state.hands[1]) == 1 and not state.is_over  # rule 13: an action card never wins
    rules_text = await fake.slash(minjun, fake.channel, "rules", game="uno")
    assert "수업용 규칙" in rules_text.text


async def test_the_lobby_shows_the_ruleset_and_the_house_rules(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    opened = await fake.slash(
        members[0], fake.channel, "uno start", players=3, stacking=True, seven_zero=True
    )
    assert not opened.ephemeral
    lobby = fake.public_messages(fake.channel)[-1].text
    assert "Rules: official" in lobby
    assert "House rule: stacking (+2 on +2, +4 on +4)" in lobby
    assert "House rule: 7 swaps, 0 passes hands on" in lobby
    assert "jump-in" not in lobby


async def test_leaving_forfeits_the_cards_go_under_the_pile_and_the_last_member_wins(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice, minjun, carol = members
    state = await open_rigged(
        fake, bot, members, [["red_3", "blue_4"], ["green_1", "green_2"], ["blue_9"]], "red_7"
    )
    left = await leave_game(fake, alice, fake.channel, "uno")
    # The Leave button of a private question answers in it; the table goes to the channel.
    told = await answered_in_private(fake, left)
    assert left.text == t("answer.on_table", "en"), left.text  # no seat, no hand any more
    assert "alice left the game: 2 cards go under the draw pile" in told.text
    table = await settled(fake, bot, fake.channel)
    assert " 1 alice            0 left" in ANSI.sub("", table.text)
    assert state.turn == 1
    left = await leave_game(fake, minjun, fake.channel, "uno")
    await answered_in_private(fake, left)
    final = await final_table(fake)
    assert "carol wins the round" in final.text
    stats = await bot.store.member_stats(fake.guild.id, carol.id)
    # Rule 10: the other hands' points; theirs went under the pile, so carol's own blue 9
    # does not count for her.
    assert stats.games["uno"]["win"] == 1 and stats.games["uno"]["points"] == 0
    board = await fake.slash(alice, fake.channel, "leaderboard", game="uno")
    assert "carol" in board.text or carol.mention in board.text, board.text
    again = await fake.click(carol, final, "Deal again")
    assert not again.ephemeral, again.text
    table = await settled(fake, bot, fake.channel)
    assert "Hand" in table.button_labels
    # Who left is not dealt in again (nor recorded): computers without a member take over.
    seats = bot.sessions.get(fake.channel.id).seats  # type: ignore[union-attr]
    assert [(s.member_id, s.computer) for s in seats] == [
        (None, True),
        (None, True),
        (carol.id, False),
    ]


async def test_out_of_time_the_seat_draws_then_keeps_the_card_in_one_timeout(
    deckhand: Deckhand, fake_discord: FakeDiscord, members: list[FakeMember]
) -> None:
    fake = fake_discord
    async with deckhand.run(default_turn_seconds=1.0) as running:
        state = await open_rigged(
            fake, running, members, [["blue_1"], ["green_1"], ["blue_9"]], "red_7"
        )
        red_nine = next(c for c in state.pile if CARD_CODES[c] == "red_9")
        state.pile.remove(red_nine)
        state.pile.append(red_nine)  # the card drawn next, playable on the red 7
        state._unshuffled = 0
        timed_out = await fake.wait_for_message(fake.channel, lambda m: "ran out of time" in m.text)
        assert "alice draws 1" in timed_out.text and "alice passes" in timed_out.text
        assert [len(hand) for hand in state.hands] == [2, 1, 1]
        assert state.turn == 1
        session = running.sessions.get(fake.channel.id)
        assert session is not None and session.seats[0].timeouts == 1


async def test_after_a_draw_the_drawn_card_comes_privately_with_play_it_and_pass(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice = members[0]
    state = await open_rigged(fake, bot, members, [["blue_1"], ["green_1"], ["blue_9"]], "red_7")
    red_nine = next(c for c in state.pile if CARD_CODES[c] == "red_9")
    state.pile.remove(red_nine)
    state.pile.append(red_nine)  # the card drawn next, playable on the red 7
    state._unshuffled = 0
    drew = await fake.click(alice, await settled(fake, bot, fake.channel), "Draw")
    # Answered with the drawn card, to alice alone; the table goes to the channel.
    posted = await answered_with_private(fake, drew)
    assert "alice draws 1" in posted.text
    assert "Red 9" not in ANSI.sub("", posted.text)
    private = drew.message
    assert private is not None
    assert private.visible_to == alice.id and "You drew Red 9." in private.text
    assert private.button_labels == ["Play it", "Pass"]
    played = await fake.click(alice, private, "Play it")
    await answered_in_private(fake, played, private)  # answered in the drawn card's message
    assert "alice played Red 9" in log_text(fake)
    assert [len(hand) for hand in state.hands] == [1, 1, 1] and state.turn == 1


async def test_a_card_is_played_by_the_number_its_hand_shows_and_pass_says_pass(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice = members[0]
    state = await open_rigged(
        fake, bot, members, [["blue_1", "red_4", "green_2"], ["green_1"], ["blue_9"]], "red_7"
    )
    hand = await fake.slash(alice, fake.channel, "uno hand")
    assert hand.ephemeral and " 1 Red 4" in ANSI.sub("", hand.text)  # sorted: red first
    passed = await fake.slash(alice, fake.channel, "uno pass")
    assert passed.ephemeral and "You can pass only right after drawing" in passed.text
    missing = await fake.slash(alice, fake.channel, "uno play", card="4")
    assert missing.ephemeral and "Your hand has no card number 4." in missing.text
    offered = await fake.autocomplete(alice, fake.channel, "uno play", "card", "1")
    assert [c["value"] for c in offered] == ["red_4"]
    played = await fake.slash(alice, fake.channel, "uno play", card="1")
    assert not played.ephemeral, played.text
    assert "alice played Red 4" in log_text(fake)
    assert [CARD_CODES[c] for c in state.hands[0]] == ["blue_1", "green_2"]

"""Uno end to end: the real bot and cogs, driven by members through the fake Discord.

Members play what the computer player would in their seat, through what a member can use:
``/uno start`` with every house rule and a computer seat, Join, the table's **Hand** button
and its select of legal plays (a wild asks for its colour, a 7 for its target), **Draw** /
**Take n**, **Challenge**, **UNO!**, ``/uno play`` with colour and target, ``/uno pass``.
Besides the round reaching its end, every public message is scanned for a card of a hand:
only the played cards and the top card may be named in public.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import pytest

import rules.rng
from bot.i18n import t
from bot.text import uno as render
from rules.engine import Action
from rules.uno import (
    CallUno,
    CatchUno,
    Challenge,
    ChooseColour,
    Draw,
    Pass,
    Play,
    UnoState,
)
from rules.uno.ai import choose_action
from rules.uno.cards import CARD_CODES, COLOUR_NAMES
from tests.e2e.deckhand_tables import settled, whose_turn
from tests.e2e.fakediscord import FakeDiscord, FakeMember, FakeMessage
from tests.phone import assert_fits_phone

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

ANSI = re.compile(r"\x1b\[[0-9;]*m")
ALL_RULES = {
    "stacking": True,
    "draw_until_playable": True,
    "jump_in": True,
    "seven_zero": True,
    "uno_call": True,
}
CARD_NAMES = sorted(
    {render.card_name(code, lang) for code in set(CARD_CODES) for lang in ("en", "ko")}
    | {
        render.card_name(f"{colour}_{rank}", lang)
        for colour in ("red", "yellow", "green", "blue")
        for rank in ("W", "W+4")
        for lang in ("en", "ko")
    },
    key=len,
    reverse=True,
)
NEXT_DEAL: list[int] = []


@pytest.fixture(autouse=True)
def fixed_fair_deals(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(rules.rng, "new_seed", lambda: NEXT_DEAL[-1])
    yield
    NEXT_DEAL.clear()


@pytest.fixture
async def bot(deckhand: Deckhand) -> Any:
    async with deckhand.run() as running:
        yield running


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("민준", locale="ko"),
        fake_discord.add_member("carol"),
    ]


def state_of(bot: DeckhandBot, channel_id: int) -> UnoState:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, UnoState)
    return session.state


def public_cards(message: FakeMessage) -> list[str]:
    """Card names in a public message outside the lines allowed to name one (a card
    played, the top card): a card anywhere else would be a hand's."""
    found = []
    for line in ANSI.sub("", message.text).splitlines():
        if re.search(r"played |jumped in with |냈어요|끼어들었어요|^Top: |^맨 위: ", line):
            continue
        for name in CARD_NAMES:
            if name in line:
                found.append(name)
                line = line.replace(name, "")
    return found


def menu_of(message: FakeMessage) -> dict[str, Any]:
    menus = [c for c in message.items() if c.get("type") == 3]
    assert len(menus) == 1, message.items()
    return menus[0]


async def by_hand_menu(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, value: str
) -> Any:
    hand = await fake.click(member, table, "Hand")
    assert hand.ephemeral and hand.message is not None, hand.text
    return await fake.select(member, hand.message, menu_of(hand.message)["custom_id"], [value])


async def make_move(
    fake: FakeDiscord,
    bot: DeckhandBot,
    member: FakeMember,
    table: FakeMessage,
    action: Action,
    turn: int,
) -> Any:
    """``action`` as a member makes it: the Hand select, buttons, or commands, in turn."""
    state = state_of(bot, fake.channel.id)
    seat = state.turn
    view = state.view(seat)
    if isinstance(action, Play):
        code = (view.hand or ())[action.index]
        colour = None if action.colour is None else COLOUR_NAMES[action.colour]
        if turn % 2:
            return await fake.slash(
                member,
                fake.channel,
                "uno play",
                card=code,
                **({"colour": colour} if colour else {}),
                **({"target": action.target + 1} if action.target is not None else {}),
            )
        picked = await by_hand_menu(fake, member, table, code)
        if colour is not None or action.target is not None:
            assert picked.ephemeral and picked.message is not None, picked.text
            second = menu_of(picked.message)
            value = colour if colour is not None else str(action.target)
            picked = await fake.select(member, picked.message, second["custom_id"], [value])
        return picked
    if isinstance(action, Draw):
        label = t("uno.take_n", "en", n=view.pending) if view.pending else t("uno.draw", "en")
        return await fake.click(member, table, label)
    if isinstance(action, Pass):
        return await fake.slash(member, fake.channel, "uno pass")
    if isinstance(action, CallUno):
        return await fake.slash(member, fake.channel, "uno uno")
    if isinstance(action, Challenge):
        return await fake.click(member, table, t("uno.challenge", "en"))
    if isinstance(action, CatchUno):
        return await fake.click(member, table, t("uno.catch", "en"))
    if isinstance(action, ChooseColour):
        return await by_hand_menu(fake, member, table, f"={COLOUR_NAMES[action.colour]}")
    raise AssertionError(action)


async def final_table(fake: FakeDiscord) -> FakeMessage:
    """The round's final table: the one message left with a button, Deal again."""

    def ready() -> FakeMessage | None:
        live = [m for m in fake.public_messages(fake.channel) if m.buttons]
        return live[0] if len(live) == 1 and live[0].button_labels == ["Deal again"] else None

    return await fake.wait_for(ready)


async def play_round(fake: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]) -> int:
    """Each member plays what the computer would in their seat; the moves made."""
    by_id = {m.id: m for m in members}
    for turn in range(600):
        if bot.sessions.get(fake.channel.id) is None:
            return turn
        table = await settled(fake, bot, fake.channel)
        member_id = whose_turn(bot, fake.channel)
        if member_id is None:
            return turn
        state = state_of(bot, fake.channel.id)
        action = choose_action(state.view(state.turn))
        answer = await make_move(fake, bot, by_id[member_id], table, action, turn)
        if answer.ephemeral:
            # A private follow-up (the drawn card, a revealed hand) is fine; a refusal is not.
            assert state_of(bot, fake.channel.id).log, answer.text
    raise AssertionError("the round did not end")


async def test_three_members_and_a_computer_play_a_round_with_every_house_rule(
    fake_discord: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
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
    assert "★" in final.text
    finished = bot.sessions.finished.get(fake.channel.id)
    assert finished is not None and isinstance(finished.state, UnoState)
    assert finished.state.result is not None
    public = fake.public_messages(fake.channel)
    assert len(public) > moves // 2
    for message in public:
        assert public_cards(message) == [], message.text
        for block in re.findall(r"```ansi\n(.*?)\n```", message.text, re.DOTALL):
            assert_fits_phone(block)
    assert not [
        r for r in caplog.records if re.search(r"\b[a-z]+_(?:\d|\+2|R|S|W)", r.getMessage())
    ]
    stats = await bot.store.member_stats(fake.guild.id, alice.id)
    assert stats.games["uno"]["played"] == 1

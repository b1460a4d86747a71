"""The soak's witness (soak/witness.py) sees what it is there to see: double applies, leaks
of hands, tokens and stack traces, and the versions a table carries.

The soak itself is not a test (make soak runs it); these keep its judges honest: a check that
can never fire would report 0 for ever.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.fakediscord import FakeDiscord
from cogs.common.ids import button_id, menu_id
from cogs.common.ids import version_of as version_of_id
from soak.report import Tally
from soak.witness import CARD, Witness, actions_of, is_menu_id, version_of


def table(channel: int, version: int, content: str, action: str = "hit") -> dict[str, Any]:
    button = {
        "type": 2,
        "style": 2,
        "label": action,
        "custom_id": f"dh:{channel}:{version}:{action}",
    }
    return {"content": content, "components": [{"type": 1, "components": [button]}]}


def hand(channel: int, version: int, cards: list[str]) -> dict[str, Any]:
    options = [{"label": card, "value": f"c{i}"} for i, card in enumerate(cards)]
    menu = {"type": 3, "custom_id": f"dh:{channel}:{version}:onecard-menu", "options": options}
    return {"content": "Your hand", "components": [{"type": 1, "components": [menu]}], "flags": 64}


def watched() -> tuple[FakeDiscord, Tally, Witness]:
    fake = FakeDiscord()
    tally = Tally()
    return fake, tally, Witness(fake, tally)


def test_a_table_reads_its_version_and_actions() -> None:
    data = table(5, 42, "```x```", "join")
    assert version_of(data["components"]) == 42
    fake, _, _ = watched()
    message = fake.new_message(fake.channel, data)
    assert actions_of(message) == {"join": "join"}
    assert version_of([]) is None


def test_two_different_tables_for_one_version_are_a_double_apply() -> None:
    fake, tally, witness = watched()
    channel = fake.channel
    fake.new_message(channel, table(channel.id, 7, "```A```"))
    fake.new_message(channel, table(channel.id, 7, "```A```"))  # a repost: the same table
    assert tally.double_applies == []
    fake.new_message(channel, table(channel.id, 7, "```B```"))
    assert len(tally.double_applies) == 1
    assert witness.shown[channel.id][0] == 7


async def test_a_hand_card_on_the_public_table_of_its_version_is_a_leak() -> None:
    fake, tally, _ = watched()
    fake._loop = asyncio.get_running_loop()  # the interaction's clock; no server needed
    channel = fake.channel
    alice = fake.add_member("alice")
    fake.new_message(channel, table(channel.id, 3, "```top [♠7]```"))
    inter = fake._interaction(3, alice, channel, {"custom_id": "x", "component_type": 2})
    fake.new_message(channel, hand(channel.id, 3, ["[♥2]", "[♣K]"]), interaction=inter)
    assert tally.leaks == []
    # A later version may show the card (it was played); the same version may not.
    fake.new_message(channel, table(channel.id, 4, "```top [♥2]```"))
    assert tally.leaks == []
    fake.new_message(channel, hand(channel.id, 5, ["[♣K]"]), interaction=inter)
    fake.new_message(channel, table(channel.id, 5, "```top [♣K]```"))
    assert len(tally.leaks) == 1 and "[♣K]" in tally.leaks[0]


def test_a_hand_menu_in_public_is_a_leak_in_every_game() -> None:
    fake, tally, _ = watched()
    channel = fake.channel
    public = hand(channel.id, 3, ["Red 5", "Red 5"])  # Uno's cards repeat: no card check
    del public["flags"]
    fake.new_message(channel, table(channel.id, 3, "```top Red 5```"))
    assert tally.leaks == []
    fake.new_message(channel, public)
    assert len(tally.leaks) == 1 and "menu" in tally.leaks[0]


def test_tokens_and_stack_traces_in_public_are_leaks() -> None:
    fake, tally, _ = watched()
    fake.new_message(fake.channel, {"content": f"oops {fake.token}"})
    fake.new_message(fake.channel, {"content": 'Traceback (most recent call last):\n  File "x"'})
    fake.new_message(fake.channel, {"content": "aW50ZXJhY3Rpb24abc"})  # an interaction's
    assert len(tally.leaks) == 3


def test_cards_are_told_from_month_numbers() -> None:
    assert CARD.fullmatch("[♠10]") and CARD.fullmatch("[7H]")
    assert not CARD.fullmatch("[1]") and not CARD.fullmatch("[12]")


def test_versions_are_read_with_the_bots_own_custom_ids() -> None:
    """The ids the cogs make (cogs/common/ids.py) are the ones the witness reads."""
    assert version_of_id(button_id(5, 42, "hit")) == 42
    assert version_of_id(button_id(5, 43, "end_listed", "9")) == 43
    assert version_of_id(menu_id(5, 44, "uno", "r5")) == 44
    assert is_menu_id(menu_id(5, 44, "uno")) and not is_menu_id(button_id(5, 44, "hand"))
    for other in ("dh-edit:5:42", "table", "dh:5:x:hit", ""):
        assert version_of_id(other) is None, other
    fake = FakeDiscord()
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"}
    data = table(5, 3, "```x```", "take")
    data["components"][0]["components"].append(link)
    assert actions_of(fake.new_message(fake.channel, data)) == {"take": "take"}

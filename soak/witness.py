"""What the bot posted: every message it creates or edits in the fake Discord, public and
ephemeral, watched for leaks and double applies, and the newest game version each channel
showed in public (what a kill checks the store against).

A table's buttons and a hand's menus carry the game version in their custom ids
(``cogs/common/ids.py``): one version is one position of the game.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from cogs.common.ids import MENU_TEMPLATE, parse_button_id
from cogs.common.ids import version_of as version_of_id
from soak.report import Tally

__all__ = [
    "CARD",
    "INTERACTION_TOKEN",
    "Witness",
    "actions_of",
    "is_menu_id",
    "version_of",
]

# A card as the games write it in a hand menu and on a table: "[♠7]", "[10H]" (not "[1]",
# Go-Stop's month numbers, which many cards share).
CARD = re.compile(r"\[(?=[^\]]*[^\d\]])[^\]\s]{2,4}\]")
INTERACTION_TOKEN = "aW50ZXJhY3Rpb24"  # how the fake's interaction tokens begin
SELECT = 3  # a component's type: a select menu
_MENU = re.compile(MENU_TEMPLATE)


def is_menu_id(custom_id: str) -> bool:
    """Whether ``custom_id`` is a game's menu of moves (a hand's cards)."""
    return _MENU.fullmatch(custom_id) is not None


def version_of(components: list[dict[str, Any]]) -> int | None:
    """The game version a message's buttons or menus carry."""
    stack = list(components)
    while stack:
        comp = stack.pop()
        stack.extend(comp.get("components") or [])
        version = version_of_id(str(comp.get("custom_id", "")))
        if version is not None:
            return version
    return None


def actions_of(message: FakeMessage) -> dict[str, str]:
    """A table's buttons by action (``dh:<channel>:<version>:<action>``): their labels."""
    found = {}
    for button in message.buttons:
        try:
            action = parse_button_id(str(button.get("custom_id", "")))[2]
        except ValueError:
            continue  # a link, or not Deckhand's
        found[action] = str(button.get("label", ""))
    return found


class Witness:
    """Watches every message the bot creates or edits in the fake (public and ephemeral),
    counting in ``tally`` what it sees go wrong."""

    def __init__(self, fake: FakeDiscord, tally: Tally) -> None:
        self.fake = fake
        self.tally = tally
        # channel -> newest version shown in public, and the message id that showed it
        self.shown: dict[int, tuple[int, int]] = {}
        self.bodies: dict[tuple[int, int], str] = {}  # (channel, version) -> table digest
        self.tables = 0
        # (channel, version) -> card texts a hand offered / the public table's content
        self.hands: dict[tuple[int, int], set[str]] = {}
        self.public: dict[tuple[int, int], str] = {}
        self.tokens: set[str] = {fake.token, INTERACTION_TOKEN}
        new_message, edit = fake.new_message, fake.edit

        def created(channel: FakeChannel, data: dict[str, Any], **kw: Any) -> FakeMessage:
            message = new_message(channel, data, **kw)
            self.saw(message)
            return message

        def edited(message: FakeMessage, data: dict[str, Any]) -> None:
            edit(message, data)
            self.saw(message)

        fake.new_message = created  # type: ignore[method-assign]
        fake.edit = edited  # type: ignore[method-assign]

    def saw(self, message: FakeMessage) -> None:
        """Check one message the fake just created or edited."""
        if message.author.id != self.fake.bot_user.id:
            return
        text = message.text
        channel = message.channel_id
        if message.ephemeral:
            self._saw_hand(message)
            return
        for token in self.tokens:
            if token in text:  # the bot's token, or the start every interaction token shares
                self.tally.leaks.append(f"channel {channel}: a token in message {message.id}")
        if "Traceback" in text or 'File "' in text:
            self.tally.leaks.append(f"channel {channel}: a stack trace in message {message.id}")
        if any(is_menu_id(str(c.get("custom_id", ""))) for c in message.items()):
            # A hand's menu of moves lists its cards: in public, in every game, it is a hand
            # shown to the whole channel (the check the card names below cannot make in
            # games whose decks repeat a card, Uno's and Rummikub's).
            self.tally.leaks.append(f"channel {channel}: a hand's menu in public, {message.id}")
        self._check_hands(message)
        version = version_of(message.components)
        if version is None:
            return
        self.tables += 1
        digest = hashlib.sha256(message.content.encode()).hexdigest()
        known = self.bodies.setdefault((channel, version), digest)
        if known != digest:
            self.tally.double_applies.append(
                f"channel {channel}: two different tables for version {version}"
            )
        if version >= self.shown.get(channel, (0, 0))[0]:
            self.shown[channel] = (version, message.id)

    def _saw_hand(self, message: FakeMessage) -> None:
        """A hand listed to its member: the cards its menus offer, by the game version."""
        version = version_of(message.components)
        if message.visible_to is None or version is None:
            return
        labels = {
            str(o.get("label", ""))
            for c in message.items()
            if c.get("type") == SELECT
            for o in c.get("options", [])
        }
        cards = {label for label in labels if CARD.fullmatch(label)}
        if cards:
            key = (message.channel_id, version)
            self.hands.setdefault(key, set()).update(cards)
            self._leaked(key, self.public.get(key, ""), cards, message.id)

    def _check_hands(self, message: FakeMessage) -> None:
        version = version_of(message.components)
        if version is None:
            return
        key = (message.channel_id, version)
        self.public[key] = message.content
        self._leaked(key, message.content, self.hands.get(key, set()), message.id)

    def _leaked(self, key: tuple[int, int], public: str, cards: set[str], where: int) -> None:
        """A card a hand offered at a version, named by the public table of that version.

        One version is one position, so a card cannot be both in a hand and on the table at
        it: the played card ``[X]`` a table names was played at that version, not held.
        """
        for card in sorted(card for card in cards if card in public):
            self.tally.leaks.append(
                f"channel {key[0]}, version {key[1]}: the public table names {card} "
                f"from a hand (message {where})"
            )

    def ended_after(self, channel_id: int, message_id: int) -> bool:
        """Whether a public bot message without buttons came after ``message_id`` (a notice
        that the game ended or a lobby was closed)."""
        return any(
            m.id > message_id
            and m.channel_id == channel_id
            and not m.ephemeral
            and m.author.id == self.fake.bot_user.id
            and version_of(m.components) is None
            for m in self.fake.messages.values()
        )

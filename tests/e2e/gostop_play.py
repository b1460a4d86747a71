"""Go-Stop as members play it in the e2e tests (tests/e2e/test_gostop.py).

Reading the channel: the engine state of a table, and every position the bot saved with the
cards still hidden at the time (:class:`Saved`), which the tests check public messages
against. Acting like a member: a move as a member makes it, through the Hand menus, the
``/gostop`` commands or the table's Go and Stop buttons, and a whole game played that way."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage
from bot.i18n import language, t
from bot.text import gostop as render
from rules.engine import Action
from rules.gostop import Bomb, ChongtongChoice, Go, Play, State, Stop, TakeFlip
from rules.gostop import restore as restore_state
from rules.gostop.ai import choose_action
from rules.gostop.cards import CARDS, HwatuCard, Kind
from rules.gostop.events import Shook
from tests.bot.store.fakes import watch_writes
from tests.e2e.deckhand_tables import (
    answered_in_private,
    answered_with_private,
    code_block,
    open_hand,
    pick_in_menus,
    to_play,
    whose_turn,
)

if TYPE_CHECKING:
    from bot.client import DeckhandBot


# -- reading the channel --------------------------------------------------------------------


def game_state(bot: DeckhandBot, channel_id: int) -> State:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, State)
    return session.state


class Saved:
    """Every position the bot saved, by version, with the cards public by then though still
    in a hand (a shake shows three, rule 14), and the names and language of its table."""

    def __init__(self, bot: DeckhandBot, monkeypatch: pytest.MonkeyPatch) -> None:
        self.by_version: dict[int, dict[str, Any]] = {}
        self.shown_at: dict[int, frozenset[HwatuCard]] = {}
        self.names: list[str] = []
        self.locale = "en"
        self._bodies: dict[int, str] = {}
        shown: set[HwatuCard] = set()
        adapter = bot.sessions.games.get("gostop")
        table = adapter.table

        def drawing(view: Any, events: Any, names: Any, locale: str) -> Any:
            # Drawn before each save: the cards a shake showed are public from this version.
            for event in events:
                if isinstance(event, Shook):
                    shown.update(event.cards)
            return table(view, events, names, locale)

        def record(game: Any) -> None:
            if game.data.get("state"):
                self.by_version[game.version] = game.data["state"]
                self.shown_at[game.version] = frozenset(shown)
                self.names = [seat["name"] for seat in game.data["seats"]]
                self.locale = game.data["locale"]

        def finishing(channel_id: int) -> None:
            session = bot.sessions.get(channel_id)
            if session is not None and isinstance(session.state, State):
                self.by_version[session.version] = session.state.snapshot()
                self.shown_at[session.version] = frozenset(shown)

        monkeypatch.setattr(adapter, "table", drawing)
        watch_writes(bot.store, record, finishing)

    def hidden(self, version: int) -> set[HwatuCard]:
        """The cards in either hand or in the pile at ``version`` and not shown by a shake."""
        snapshot = self.by_version[version]
        indices = [*snapshot["hands"][0], *snapshot["hands"][1], *snapshot["pile"]]
        return {CARDS[i] for i in indices} - self.shown_at[version]

    def version_of(self, message: FakeMessage) -> int | None:
        """The saved position a public table shows: the newest whose spectator's view, drawn
        anew, is the table's code block (tables lose their buttons, so not from those)."""
        body = code_block(message.content)
        for version in sorted(self.by_version, reverse=True):
            if version not in self._bodies:
                view = restore_state(self.by_version[version]).view(None)
                self._bodies[version] = render.table_body(view, self.names, self.locale)
            if self._bodies[version] == body:
                return version
        return None

    def leaks(self, message: FakeMessage) -> list[str]:
        """What a public table shows that it must not: a table that is no saved position's
        spectator view, or the name of a card hidden when it was posted (a name two cards
        share, like ``5피``, only when both are hidden)."""
        version = self.version_of(message)
        if version is None:
            return ["a table that is not the spectator's view of a saved position"]
        hidden = self.hidden(version)
        found = []
        for lang in ("en", "ko"):
            by_name: dict[str, list[HwatuCard]] = {}
            for card in CARDS:
                by_name.setdefault(render.card_name(card, lang), []).append(card)
            for name, cards in by_name.items():
                named = re.search(rf"(?<![0-9]){re.escape(name)}", message.text)  # not 11광
                if named and all(card in hidden for card in cards):
                    found.append(name)
        return found

    def scan(self, fake: FakeDiscord) -> int:
        """Check every public table of the channel (lobby messages hold no code block); how
        many were checked."""
        tables = [m for m in fake.public_messages(fake.channel) if "```" in m.content]
        for message in tables:
            assert self.leaks(message) == [], message.text
        return len(tables)


# -- acting like a member -------------------------------------------------------------------


def move_text(action: Action) -> tuple[str, str | None]:
    """The ``/gostop`` command and its value for an action, as the autocomplete offers it."""
    if isinstance(action, Play):
        if action.target is not None:
            return "gostop play", f"{action.card.code}>{action.target.code}"
        return "gostop play", action.card.code + (" shake" if action.shake else "")
    if isinstance(action, Bomb):
        return "gostop play", f"bomb {action.month}"
    if isinstance(action, TakeFlip):
        return "gostop choose", action.target.code
    if isinstance(action, ChongtongChoice):
        return "gostop chongtong", "end" if action.end else "play"
    return ("gostop go" if isinstance(action, Go) else "gostop stop"), None


def menu_values(action: Action, state: State) -> list[str]:
    """What a member picks in the hand's menus for an action: the card, then its second step
    (a bomb is picked as one of its three cards)."""
    if isinstance(action, Play):
        if action.target is not None:
            return [action.card.code, action.target.code]
        return [action.card.code, "shake"] if action.shake else [action.card.code]
    if isinstance(action, Bomb):
        seat = state.current_seat
        assert seat is not None
        held = state.view(seat).hand or ()
        return [next(c.code for c in held if c.month == action.month), "bomb"]
    if isinstance(action, TakeFlip):
        return [action.target.code]
    assert isinstance(action, ChongtongChoice)
    return ["end" if action.end else "play"]


async def via_hand(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Action, state: State
) -> Any:
    """The table's Hand button, then its menu (and the second menu a card may ask), or the
    hand's Go / Stop buttons."""
    hand = await open_hand(fake, member, table, t("button.hand", language(fake.guild.locale)))
    if isinstance(action, Go | Stop):
        label = t("button.go" if isinstance(action, Go) else "button.stop", language(member.locale))
        return await fake.click(member, hand, label)
    return await pick_in_menus(fake, member, hand, menu_values(action, state))


async def via_command(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Action, state: State
) -> Any:
    """The ``/gostop`` command, its value taken from what the autocomplete offers."""
    command, value = move_text(action)
    if value is None:
        return await fake.slash(member, fake.channel, command)
    if command == "gostop chongtong":
        return await fake.slash(member, fake.channel, command, choice=value)
    offered = await fake.autocomplete(member, fake.channel, command, "card", "")
    assert value in [choice["value"] for choice in offered], (value, offered)
    return await fake.slash(member, fake.channel, command, card=value)


async def via_table_buttons(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Action, state: State
) -> Any:
    """Go and Stop on the public table; anything else through the Hand."""
    if isinstance(action, Go | Stop):
        key = "button.go" if isinstance(action, Go) else "button.stop"
        label = t(key, language(fake.guild.locale))
        return await fake.click(member, table, label)
    return await via_hand(fake, member, table, action, state)


Route = Callable[..., Any]
ROUTES: list[Route] = [via_hand, via_command, via_table_buttons]


def in_private(route: Route, action: Action) -> bool:
    """Whether the route makes the move from a private message (the hand's menus or its Go /
    Stop buttons), rather than by command or with the public table's Go and Stop."""
    return route is via_hand or (route is via_table_buttons and not isinstance(action, Go | Stop))


@dataclasses.dataclass
class Played:
    """What a game played through Discord went through."""

    moves: int = 0
    routes: set[str] = dataclasses.field(default_factory=set)
    followups: int = 0  # choices answered in the menu sent after the member's own move
    actions: list[Action] = dataclasses.field(default_factory=list)


async def play_through(
    fake: FakeDiscord,
    bot: DeckhandBot,
    members: list[FakeMember],
    policy: Callable[[State, int], Action],
    *,
    routes: list[Route] = ROUTES,
    limit: int = 200,
    restarted: bool = False,
) -> Played:
    """Play the channel's game to its end: each member's move by ``policy``, through the
    routes in turn; a choice the move leaves the same member (the flip's target, Go or Stop)
    is answered in the ephemeral menu that comes with it when there is one. A move made from a
    private message is answered in that message (the choice, else the hand); one made by
    command or with the table's buttons that leaves a choice, with the choice in a new
    private message; either way its table is posted in the channel. Any other move is
    answered with the public table."""
    by_id = {m.id: m for m in members}
    played = Played()
    state = game_state(bot, fake.channel.id)
    followup: Any = None
    for _ in range(limit):
        table = await to_play(fake, bot, fake.channel, restarted=restarted)
        if bot.sessions.get(fake.channel.id) is None:
            return played
        member_id = whose_turn(bot, fake.channel)
        assert member_id is not None
        member = by_id[member_id]
        seat = state.current_seat
        assert seat is not None
        action = as_offered(policy(state, seat), state, seat)
        played.actions.append(action)
        version = bot.sessions.get(fake.channel.id).version  # type: ignore[union-attr]
        if followup is not None:
            result = await answer_followup(fake, member, followup, action, state)
            played.followups += 1
            private = True  # the choice is a private message
        else:
            route = routes[played.moves % len(routes)]
            played.routes.add(route.__name__)
            result = await route(fake, member, table, action, state)
            private = in_private(route, action)
        assert result is not None
        # A move that leaves the member a choice (the flip's target, Go or Stop, another card
        # after a bonus card) is answered with that choice, for them alone.
        choice = not state.is_over and state.current_seat == seat
        if private:
            await answered_in_private(fake, result)
        elif choice:
            await answered_with_private(fake, result)
        else:
            assert not result.ephemeral, result.text
        session = bot.sessions.get(fake.channel.id)
        assert session is None or session.version > version
        played.moves += 1
        followup = None
        if choice:
            message = result.message
            assert message is not None and message.ephemeral and message.visible_to == member.id
            followup = message
    raise AssertionError("the game did not end")


async def answer_followup(
    fake: FakeDiscord, member: FakeMember, message: FakeMessage, action: Action, state: State
) -> Any:
    """Answer the choice sent after a move: its menu (the flip's target, a card after a bonus
    card) or its Go / Stop buttons."""
    if isinstance(action, Go | Stop):
        label = t("button.go" if isinstance(action, Go) else "button.stop", language(member.locale))
        return await fake.click(member, message, label)
    return await pick_in_menus(fake, member, message, menu_values(action, state))


def as_offered(action: Action, state: State, seat: int) -> Action:
    """The move as the menus and the autocomplete offer it: of two junk of a month, which
    play alike, only the first is listed."""
    if not isinstance(action, Play) or action.card.kind is not Kind.JUNK:
        return action
    hand = state.view(seat).hand or ()
    first = next(c for c in hand if c.month == action.card.month and c.kind is Kind.JUNK)
    return dataclasses.replace(action, card=first)


def ai(state: State, seat: int) -> Action:
    return choose_action(state.view(seat))

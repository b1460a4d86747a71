"""Go-Stop end to end: the real bot and cogs, driven by members through the fake Discord.

Members use everything a member can: ``/gostop start`` against the computer or a member,
Join, the table's **Hand** button and its menus (a card, then which of two floor cards, a
shake or a bomb), the menu sent after a move that leaves a choice (what the flip takes, Go or
Stop), the **Go** and **Stop** buttons, ``/gostop play`` with its autocomplete, ``/gostop
choose``, ``go``, ``stop`` and ``leave``, and **Deal again**. Besides the games reaching their
end, the tests check what nobody may see: every public table is the spectator's view drawn
anew (never a seat's), and no public message names a card that was in a hand or the pile at
the moment it was posted (taken from the engine snapshots the bot saved).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

import rules.rng
from bot.i18n import catalog, t
from bot.text import gostop as render
from rules.engine import Action
from rules.gostop import Bomb, ChongtongChoice, Go, GostopState, Phase, Play, Stop, TakeFlip, new
from rules.gostop import restore as restore_state
from rules.gostop.ai import choose_action
from rules.gostop.cards import CARDS, HwatuCard
from rules.gostop.state import GoCalled, Shook, Stopped
from tests.e2e.deckhand_tables import version_of, whose_turn
from tests.e2e.fakediscord import FakeChannel, FakeDiscord, FakeMember, FakeMessage
from tests.language import foreign_lines, message_lines

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

BLOCK = re.compile(r"```[a-z]*\n(.*?)\n```", re.DOTALL)


# -- reading the channel --------------------------------------------------------------------


def body_of(message: FakeMessage) -> str:
    """The table's code block."""
    found = BLOCK.findall(message.content)
    assert found, message.content
    return str(found[-1])


async def settled(fake: FakeDiscord, bot: DeckhandBot, channel: FakeChannel) -> FakeMessage:
    """The table of the session's current version once posted and a member is to move (the
    computer has played), or the final table once the game is over."""

    def ready() -> FakeMessage | None:
        session = bot.sessions.get(channel.id)
        live = [m for m in fake.public_messages(channel) if m.buttons]
        if len(live) != 1:
            return None
        if session is not None:
            if version_of(live[0]) != session.version or session.state is None:
                return None
            seat = session.state.current_seat
            if seat is not None and session.seats[seat].computer:
                return None  # the computer's move is on its way
        if session is None:
            finished = bot.sessions.finished.get(channel.id)
            if finished is None or version_of(live[0]) != finished.version:
                return None
        return live[0]

    return await fake.wait_for(ready)


def game_state(bot: DeckhandBot, channel_id: int) -> GostopState:
    session = bot.sessions.get(channel_id)
    assert session is not None and isinstance(session.state, GostopState)
    return session.state


class Saved:
    """Every position the bot saved, by version, and the names and language of its table."""

    def __init__(self, bot: DeckhandBot) -> None:
        self.by_version: dict[int, dict[str, Any]] = {}
        self.names: list[str] = []
        self.locale = "en"
        store = bot.store
        save, finish = store.save, store.finish

        async def saving(game: Any, *, expected_version: int) -> Any:
            if game.data.get("state"):
                self.by_version[game.version] = game.data["state"]
                self.names = [seat["name"] for seat in game.data["seats"]]
                self.locale = game.data["locale"]
            return await save(game, expected_version=expected_version)

        async def finishing(channel_id: int, **kwargs: Any) -> Any:
            session = bot.sessions.get(channel_id)
            if session is not None and isinstance(session.state, GostopState):
                self.by_version[session.version] = session.state.snapshot()
            return await finish(channel_id, **kwargs)

        store.save = saving  # type: ignore[method-assign]
        store.finish = finishing  # type: ignore[method-assign]

    def hidden(self, version: int) -> set[HwatuCard]:
        """The cards in either hand or in the pile at ``version``."""
        snapshot = self.by_version[version]
        indices = [*snapshot["hands"][0], *snapshot["hands"][1], *snapshot["pile"]]
        return {CARDS[i] for i in indices}

    def leaks(self, message: FakeMessage) -> list[str]:
        """What a public message shows that it must not: a table other than the spectator's
        view drawn anew, or the name of a card hidden when it was posted (a name two cards
        share, like ``5피``, only when both are hidden). Cards a shake showed are public."""
        version = version_of(message)
        assert version is not None, message.text
        snapshot = self.by_version[version]
        found = []
        view = restore_state(snapshot).view(None)
        if body_of(message) != render.table_body(view, self.names, self.locale):
            found.append("the table is not the spectator's view")
        hidden = self.hidden(version) - self.shown
        text = message.text
        for lang in ("en", "ko"):
            by_name: dict[str, list[HwatuCard]] = {}
            for card in CARDS:
                by_name.setdefault(render.card_name(card, lang), []).append(card)
            for name, cards in by_name.items():
                if name in text and all(card in hidden for card in cards):
                    found.append(name)
        return found

    shown: set[HwatuCard] = set()


# -- acting like a member -------------------------------------------------------------------


def menu_of(message: FakeMessage) -> dict[str, Any]:
    menus = [c for c in message.items() if c.get("type") == 3]
    assert len(menus) == 1, message.items()
    return menus[0]


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


def menu_values(action: Action, state: GostopState) -> list[str]:
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
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Action, state: GostopState
) -> Any:
    """The table's Hand button, then its menu (and the second menu a card may ask), or the
    hand's Go / Stop buttons."""
    hand = await fake.click(member, table, t("button.hand", fake_locale(fake)))
    assert hand.ephemeral and hand.message is not None, hand.text
    if isinstance(action, Go | Stop):
        label = t("button.go" if isinstance(action, Go) else "button.stop", _locale(member))
        return await fake.click(member, hand.message, label)
    return await pick_in_menus(fake, member, hand.message, menu_values(action, state))


async def pick_in_menus(
    fake: FakeDiscord, member: FakeMember, message: FakeMessage, values: list[str]
) -> Any:
    """Pick ``values`` in a menu and the menus that follow it; the last pick's result."""
    picked: Any = None
    for value in values:
        picked = await fake.select(member, message, menu_of(message)["custom_id"], [value])
        if value != values[-1]:
            assert picked.ephemeral and picked.message is not None, picked.text
            message = picked.message
    return picked


async def via_command(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Action, state: GostopState
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
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, action: Action, state: GostopState
) -> Any:
    """Go and Stop on the public table; anything else through the Hand."""
    if isinstance(action, Go | Stop):
        label = t("button.go" if isinstance(action, Go) else "button.stop", fake_locale(fake))
        return await fake.click(member, table, label)
    return await via_hand(fake, member, table, action, state)


def fake_locale(fake: FakeDiscord) -> str:
    return "ko" if str(fake.guild.locale).startswith("ko") else "en"


def _locale(member: FakeMember) -> str:
    return "ko" if str(member.locale).startswith("ko") else "en"


Route = Callable[..., Any]
ROUTES: list[Route] = [via_hand, via_command, via_table_buttons]


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
    policy: Callable[[GostopState, int], Action],
    *,
    routes: list[Route] = ROUTES,
    limit: int = 200,
) -> Played:
    """Play the channel's game to its end: each member's move by ``policy``, through the
    routes in turn; a choice the move leaves the same member (the flip's target, Go or Stop)
    is answered in the ephemeral menu that follows it when there is one."""
    by_id = {m.id: m for m in members}
    played = Played()
    state = game_state(bot, fake.channel.id)
    followup: Any = None
    for _ in range(limit):
        table = await settled(fake, bot, fake.channel)
        if bot.sessions.get(fake.channel.id) is None:
            return played
        member_id = whose_turn(bot, fake.channel)
        assert member_id is not None
        member = by_id[member_id]
        seat = state.current_seat
        assert seat is not None
        action = policy(state, seat)
        played.actions.append(action)
        version = bot.sessions.get(fake.channel.id).version  # type: ignore[union-attr]
        if followup is not None:
            result = await answer_followup(fake, member, followup, action, state)
            played.followups += 1
        else:
            route = routes[played.moves % len(routes)]
            played.routes.add(route.__name__)
            result = await route(fake, member, table, action, state)
        assert result is not None and not result.ephemeral, result.text
        session = bot.sessions.get(fake.channel.id)
        assert session is None or session.version > version
        played.moves += 1
        # A move that leaves the member a choice (the flip's target, Go or Stop, another card
        # after a bonus card) is followed by that choice, for them alone.
        followup = None
        if not state.is_over and state.current_seat == seat:
            [message] = await result.wait_followup(1)
            assert message.ephemeral and message.visible_to == member.id
            followup = message
    raise AssertionError("the game did not end")


async def answer_followup(
    fake: FakeDiscord, member: FakeMember, message: FakeMessage, action: Action, state: GostopState
) -> Any:
    """Answer the choice sent after a move: its menu (the flip's target, a card after a bonus
    card) or its Go / Stop buttons."""
    if isinstance(action, Go | Stop):
        label = t("button.go" if isinstance(action, Go) else "button.stop", _locale(member))
        return await fake.click(member, message, label)
    return await pick_in_menus(fake, member, message, menu_values(action, state))


def ai(state: GostopState, seat: int) -> Action:
    return choose_action(state.view(seat))


# -- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
async def bot(deckhand: Deckhand) -> Any:
    async with deckhand.run() as running:
        yield running


@pytest.fixture
def members(fake_discord: FakeDiscord) -> list[FakeMember]:
    return [
        fake_discord.add_member("alice"),
        fake_discord.add_member("민준", locale="ko"),
    ]


# -- the tests --------------------------------------------------------------------------------


async def test_a_member_against_the_computer_plays_to_the_end_and_no_hidden_card_is_public(
    fake_discord: FakeDiscord, bot: DeckhandBot, members: list[FakeMember]
) -> None:
    fake = fake_discord
    alice = members[0]
    saved = Saved(bot)
    opened = await fake.slash(alice, fake.channel, "gostop start", bots=1, seed=SEED)
    assert not opened.ephemeral, opened.text
    played = await play_through(fake, bot, [alice], ai)
    assert played.moves > 5
    final = await settled(fake, bot, fake.channel)
    assert final.button_labels == ["Deal again"]
    finished = bot.sessions.finished.get(fake.channel.id)
    assert finished is not None and isinstance(finished.state, GostopState)
    result = finished.state.result
    assert result is not None
    public = fake.public_messages(fake.channel)
    for message in public:
        if version_of(message) is None or version_of(message) not in saved.by_version:
            continue
        assert saved.leaks(message) == [], message.text
    stats = await bot.store.member_stats(fake.guild.id, alice.id)
    assert stats.games["gostop"]["played"] == 1


SEED = 11
NAGARI_SEED = 149  # both members calling Go whenever asked: nobody stops, a nagari
CHOICES_SEED = 9  # the deal after it: a two-target card, a flip's choice, a shake, a bomb


def always_go(state: GostopState, seat: int) -> Action:
    """The computer's move, but Go whenever Go or Stop is asked."""
    action = ai(state, seat)
    return Go() if isinstance(action, Stop) else action


def go_once() -> Callable[[GostopState, int], Action]:
    """The computer's move, but each seat's first Go / Stop is Go and the next Stop."""
    goes = [0, 0]

    def policy(state: GostopState, seat: int) -> Action:
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
    saved = Saved(bot)
    opened = await fake.slash(alice, fake.channel, "gostop start", seed=NAGARI_SEED)
    assert not opened.ephemeral and "1번 자리: alice" in opened.text, opened.text
    joined = await fake.click(minjun, opened.message or opened.messages[0], "참가")
    assert not joined.ephemeral, joined.text
    first = game_state(bot, fake.channel.id)
    dealer = first.dealer
    played = await play_through(fake, bot, members, always_go)
    assert any(isinstance(a, Go) for a in played.actions)
    nagari = await settled(fake, bot, fake.channel)
    assert "나가리! 아무도 스톱하지 못했어요." in nagari.text
    assert "다음 판은 ×2예요." in body_of(nagari)
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
    assert "판돈 ×2: 나가리 1번" in body_of(await settled(fake, bot, fake.channel))
    played = await play_through(fake, bot, members, go_once())
    kinds = {type(a).__name__ for a in played.actions}
    assert {"Bomb", "TakeFlip", "Go", "Stop"} <= kinds
    assert any(isinstance(a, Play) and a.target is not None for a in played.actions)
    assert any(isinstance(a, Play) and a.shake for a in played.actions)
    assert played.routes == {r.__name__ for r in ROUTES} and played.followups > 0
    final = await settled(fake, bot, fake.channel)
    log = final.text
    assert re.search(r"님 1고! \(\d+점\)", fake_text(fake)) and re.search(r"님 스톱! \(\d+점\)", log)
    sheet = body_of(final)
    assert "점수표:" in sheet and "나가리 1번" in sheet and "고 보너스 (1고)" in sheet

    for message in fake.public_messages(fake.channel):
        version = version_of(message)
        if version in saved.by_version:
            assert saved.leaks(message) == [], message.text


def fake_text(fake: FakeDiscord) -> str:
    """Every public message of the channel, oldest first."""
    return "\n".join(m.text for m in fake.public_messages(fake.channel))

"""The fake refuses what Discord refuses, judged by Discord's own published description.

Request bodies are validated against the vendored OpenAPI description (``bot/fakediscord/
openapi``), then against the rules Discord's documentation states in words
(``bot/fakediscord/limits.py``). These tests hold the validator to both, and the real bot
to the validator: its whole command tree syncs, globally and to a guild, with no refusal,
and a sync Discord refuses stops the bot with one line that names the command and field.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import pytest
from discord import Object, app_commands

from bot.app import SetupError, serve
from bot.client import DeckhandBot, SnowflakeMentions
from bot.fairness import Secret
from bot.fakediscord import FakeDiscord
from bot.fakediscord.limits import check_command_sync, check_message
from bot.fakediscord.spec import SPEC_ROUTES, check_body, readable_path, spec_commit
from bot.i18n import t
from bot.sessions import core
from bot.verify import replay
from cogs.common import respond

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
GUILD_SYNC = "PUT /applications/{app_id}/guilds/{guild_id}/commands"
GLOBAL_SYNC = "PUT /applications/{app_id}/commands"
CHANNEL_MESSAGE = "POST /channels/{channel_id}/messages"


def refusals(route: str, body: Any) -> list[str]:
    """What the validating fake would say of ``body`` on ``route``, as a test reads it."""
    found = check_command_sync(route, body) if route.startswith("PUT ") else check_body(route, body)
    return [f"{readable_path(path)}: {sentence}" for path, _code, sentence in found]


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(custom_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **extra}


def option(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "d", **extra}


def command(name: str = "play", **extra: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "d", **extra}


# -- the description ----------------------------------------------------------------------------


def test_the_description_is_vendored_with_its_source_commit() -> None:
    assert len(spec_commit()) == 40
    assert set(SPEC_ROUTES) >= {CALLBACK, GUILD_SYNC, GLOBAL_SYNC, CHANNEL_MESSAGE}


def test_a_refusal_names_the_field_and_the_rule() -> None:
    body = {
        "type": 4,
        "data": {"content": "x", "components": [row(button("a"), button("b" * 101))]},
    }
    assert refusals(CALLBACK, body) == [
        "data.components[0].components[1].custom_id: 101 characters, at most 100"
    ]


def test_a_53_bit_max_value_is_refused_as_discord_refused_the_seed_option() -> None:
    seed = {"type": 4, "name": "seed", "description": "d", "min_value": 0, "max_value": 2**53}
    sync = [command("onecard", options=[{**option("start", type=1), "options": [seed]}])]
    assert refusals(GUILD_SYNC, sync) == [
        "[0].options[0].options[0].max_value: 9007199254740992, at most 9007199254740991"
    ]
    seed["max_value"] = 2**53 - 1
    assert refusals(GUILD_SYNC, sync) == []


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"type": 8, "data": {"choices": [{"name": "", "value": "a"}]}}, "name: 0 characters"),
        ({"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": []}}, "title"),
        (  # a text input's placeholder is at most 100 characters
            {
                "type": 9,
                "data": {
                    "custom_id": "m",
                    "title": "t",
                    "components": [
                        row({"type": 4, "custom_id": "i", "style": 1, "placeholder": "p" * 101})
                    ],
                },
            },
            "placeholder: 101 characters, at most 100",
        ),
        (  # a Label's label is at most 45 characters
            {
                "type": 9,
                "data": {
                    "custom_id": "m",
                    "title": "t",
                    "components": [
                        {
                            "type": 18,
                            "label": "l" * 46,
                            "component": {"type": 4, "custom_id": "i", "style": 1},
                        }
                    ],
                },
            },
            "label: 46 characters, at most 45",
        ),
        (  # a select option needs a label and a value
            {
                "type": 4,
                "data": {"components": [row({"type": 3, "custom_id": "s", "options": [{}]})]},
            },
            "missing label, value",
        ),
    ],
)
def test_what_the_description_refuses_in_answers(body: dict[str, Any], said: str) -> None:
    found = refusals(CALLBACK, body)
    assert found and said in found[0], found


# -- what the documentation says in words ----------------------------------------------------


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"content": "x" * 2001}, "content: 2001 characters, at most 2000"),
        ({"content": "x", "flags": 1 << 1}, "flags"),
        (
            {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
            "mutually exclusive",
        ),
        ({"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]}, "6001"),
        ({"components": [row(button("a")) for _ in range(6)]}, "6 rows, at most 5"),
        (
            {
                "components": [
                    row(button("a"), {"type": 3, "custom_id": "s", "options": [{"label": "l"}]})
                ]
            },
            "a select fills its row",
        ),
        ({"components": [row(button("a"), button("a"))]}, "custom_id: used twice"),
        ({"components": [row({"type": 2, "style": 5, "label": "l"})]}, "needs a url"),
        (
            {"components": [row({"type": 2, "style": 5, "label": "l", "url": "https://x.y"})]},
            "",
        ),
        (
            {
                "components": [
                    row(
                        {
                            "type": 3,
                            "custom_id": "s",
                            "min_values": 2,
                            "max_values": 2,
                            "options": [{"label": "a", "value": "a"}],
                        }
                    )
                ]
            },
            "max_values: 2, more than its 1 options",
        ),
        ({}, "Cannot send an empty message"),
    ],
)
def test_what_the_documentation_refuses_in_messages(body: dict[str, Any], said: str) -> None:
    found = [f"{readable_path(p)}: {m}" for p, _c, m in check_message(body)]
    if said:
        assert any(said in line for line in found), found
    else:
        assert found == []


@pytest.mark.parametrize(
    ("sync", "said"),
    [
        ([command(options=[option("a"), option("b", required=True)])], "after optional"),
        (
            [
                command(
                    options=[option("a", autocomplete=True, choices=[{"name": "x", "value": "x"}])]
                )
            ],
            "with choices",
        ),
        ([command(options=[option("a", choices=[{"name": "x", "value": "v" * 101}])])], "101"),
        ([command(f"c{i}") for i in range(101)], "101 slash commands, at most 100"),
        ([command("caf\u0301e")], "is not allowed in a name"),  # a Latin combining accent
        ([command("\u0915\u093f")], ""),  # Devanagari ki: its vowel sign is allowed
        ([command("don't")], ""),
        ([command("Play")], "must be lower case"),
    ],
)
def test_what_the_documentation_refuses_in_commands(sync: list[dict[str, Any]], said: str) -> None:
    found = refusals(GUILD_SYNC, sync)
    if said:
        assert any(said in line for line in found), found
    else:
        assert found == []


def test_a_command_over_8000_characters_is_refused_counting_its_longest_localization() -> None:
    texts = {"description": "d" * 100, "description_localizations": {"ko": "가" * 100}}
    options = [{**option(f"o{i}"), **texts} for i in range(25)]
    groups = [{**option(f"s{i}", type=1), **texts, "options": options} for i in range(4)]
    assert refusals(GUILD_SYNC, [command(options=groups)]) == [
        "[0]: 10673 characters, at most 8000"
    ]


def test_mentions_go_out_as_strings_the_description_types_snowflakes_as() -> None:
    default = SnowflakeMentions(everyone=False, roles=False, users=True)
    merged = default.merge(SnowflakeMentions(users=[Object(id=42)]))
    payload = merged.to_dict()
    assert payload["users"] == ["42"]
    assert refusals(CHANNEL_MESSAGE, {"content": "<@42>", "allowed_mentions": payload}) == []
    refused = refusals(CHANNEL_MESSAGE, {"content": "<@42>", "allowed_mentions": {"users": [42]}})
    assert refused == ["allowed_mentions.users[0]: 42 is not of type string"]


# -- the real bot ---------------------------------------------------------------------------


@pytest.mark.parametrize("to_guild", [True, False])
async def test_every_command_syncs_through_the_validating_fake(
    deckhand: Deckhand, fake_discord: FakeDiscord, to_guild: bool
) -> None:
    overrides = {} if to_guild else {"dev_guild_id": None}
    async with deckhand.run(**overrides) as bot:
        synced = fake_discord.commands[fake_discord.guild.id if to_guild else None]
        assert {c["name"] for c in synced} >= {"onecard", "uno", "blackjack", "gostop", "game"}
        sent = [c.to_dict(bot.tree) for c in bot.tree.get_commands(guild=None)]
        assert refusals(GLOBAL_SYNC, json.loads(json.dumps(sent))) == []
    # the fixture fails on any refusal the fake recorded


async def test_a_refused_command_sync_stops_the_bot_with_one_line_naming_the_field(
    deckhand: Deckhand, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = DeckhandBot._sync_commands

    async def with_a_broken_command(self: DeckhandBot) -> None:
        @app_commands.command(name="broken", description="d")
        async def broken(interaction: Any, count: app_commands.Range[int, 0, 2**53]) -> None:
            return None

        self.tree.add_command(broken)
        await synced(self)

    monkeypatch.setattr(DeckhandBot, "_sync_commands", with_a_broken_command)
    settings = deckhand.settings(database_url="memory://", discord_api_url=fake_discord.base_url)
    with pytest.raises(SetupError) as stopped:
        await serve(settings)
    line = str(stopped.value)
    assert "\n" not in line
    assert "/broken" in line and "count" in line and "max_value" in line, line
    [refused] = fake_discord.take_violations()
    assert ".options[0].max_value: 9007199254740992, at most 9007199254740991" in str(refused)


async def test_a_follow_up_after_fifteen_minutes_is_refused_as_discord_refuses_it(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run():
        answered = await fake.slash(alice, fake.channel, "game status")
        inter = answered.interaction
        base = f"{fake.base_url}/api/v10/webhooks/{fake.application_id}/{inter.token}"
        async with aiohttp.ClientSession() as http:
            fresh = await http.post(base, json={"content": "still fresh", "flags": 64})
            assert fresh.status == 204
            inter.created -= 16 * 60
            late = await http.post(base, json={"content": "too late", "flags": 64})
            assert (late.status, (await late.json())["code"]) == (401, 50027)
            edited = await http.patch(f"{base}/messages/@original", json={"content": "late"})
            read = await http.get(f"{base}/messages/@original")
            deleted = await http.delete(f"{base}/messages/@original")
            assert (edited.status, read.status, deleted.status) == (401, 401, 401)
    refused = fake.take_violations()
    assert [v.kind for v in refused] == ["expired-token"] * 4
    assert "16.0 minutes" in refused[0].detail


# -- nothing cut blind ------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en-US", "ko"])
async def test_game_verify_of_ten_uno_seats_shows_every_seat_in_closed_blocks(
    deckhand: Deckhand, fake_discord: FakeDiscord, locale: str
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice", locale=locale)
    lang = locale[:2]
    _, expected = replay("uno", 77, "ab" * 16, 10, options=None, locale=lang)
    async with deckhand.run():
        checked = await fake.slash(
            alice, fake.channel, "game verify", game="uno", seed="77", salt="ab" * 16, players=10
        )
        await checked.wait_followup(1)
    shown = checked.messages
    assert len(shown) >= 2 and all(m.ephemeral for m in shown)
    assert all(m.text.count("```") == 2 and m.text.endswith("```") for m in shown)
    text = "\n".join(m.text for m in shown)
    for seat in expected:  # every seat's whole deal, the tenth too
        assert seat.replace("`", "'") in text


@pytest.mark.parametrize("secret", [Secret(2026, "5a17" * 8), Secret(11, "0f" * 16)])
async def test_a_final_table_after_a_computer_burst_keeps_the_fair_deal_reveal(
    deckhand: Deckhand, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch, secret: Secret
) -> None:
    """Ten seats of Uno, nine of them computers: the one member times out three times, a
    computer takes the seat, and the rest of the game is one burst of computer moves whose
    log is far longer than a message. The final table says how many earlier lines it left
    out, with the reveal under it. The secret is fixed, so the game is the same every run."""
    monkeypatch.setattr(core, "new_secret", lambda: secret)
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run(default_turn_seconds=0.2) as bot:
        opened = await fake.slash(alice, fake.channel, "uno start", players=10, bots=9)
        assert not opened.ephemeral, opened.text
        final = await fake.wait_for_message(
            fake.channel, lambda m: "Fair deal revealed" in m.text, within=60
        )
        assert bot.sessions.get(fake.channel.id) is None  # over
    assert "earlier lines not shown" in final.text
    assert final.text.count("```") == 2
    *_, block_end, reveal = final.text.split("\n")
    assert block_end == "```" and reveal.startswith("Fair deal revealed")  # read last
    assert len(final.text) <= 2000


async def test_an_answer_discord_refuses_is_an_error_naming_the_field_and_the_member_is_answered(
    deckhand: Deckhand,
    fake_discord: FakeDiscord,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A refusal too long for Discord (as the Rummikub Done refusal once was): Discord
    answers 400, the log says which route and field in one ERROR, and the member reads
    "something went wrong" instead of a silent "This interaction failed"."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    monkeypatch.setattr(respond, "refusal", lambda error, locale, game=None: "x" * 2001)
    caplog.set_level(logging.WARNING)
    async with deckhand.run():
        opened = await fake.slash(alice, fake.channel, "onecard start", players=2, seed=7)
        await fake.click(bob, opened.message or opened.messages[0], "Join")
        refused = await fake.slash(alice, fake.channel, "onecard play", card="♠A♠A")
        assert refused.ephemeral and refused.text == t("error.unexpected", "en")
    [violation] = fake.take_violations()
    assert "data.content: 2001 characters, at most 2000" in str(violation)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "Discord refused an answer" in errors[0]
    assert "POST /api/v10/interactions/" in errors[0] and "/…/callback" in errors[0]
    assert "content" in errors[0] and refused.interaction.token not in errors[0]


def test_flags_each_kind_of_answer_may_set() -> None:
    from bot.fakediscord.limits import DEFERRED_FLAGS, WEBHOOK_EDIT_FLAGS

    deferred = check_message({"flags": 1 << 2}, flags=DEFERRED_FLAGS, require_body=False)
    assert [path for path, _c, _m in deferred] == ["flags"]  # only EPHEMERAL on a deferral
    assert check_message({"flags": 1 << 6}, flags=DEFERRED_FLAGS, require_body=False) == []
    edit = check_message({"content": "x", "flags": 1 << 6}, flags=WEBHOOK_EDIT_FLAGS)
    assert [path for path, _c, _m in edit] == ["flags"]  # an edit cannot make it ephemeral


def test_a_refused_autocomplete_names_the_field_of_the_kind_of_choice_sent() -> None:
    too_many = {"type": 8, "data": {"choices": [{"name": "x", "value": "a"}] * 26}}
    assert refusals(CALLBACK, too_many) == ["data.choices: 26 items, at most 25"]
    empty = {"type": 8, "data": {"choices": [{"name": "", "value": "a"}]}}
    assert refusals(CALLBACK, empty) == ["data.choices[0].name: 0 characters, at least 1"]

"""``deckhand sandbox``: the page's API plays the real bot through the local Discord as each
member, shows each member only what Discord would, and the command starts and serves."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.fakediscord import FakeDiscord
from bot.games import GameCatalog
from bot.i18n import t
from bot.sandbox.run import MANAGER, MEMBERS, MODERATOR, populate
from bot.sandbox.server import Sandbox
from tests.e2e.conftest import Deckhand

STATIC = Path(__file__).parents[2] / "bot" / "sandbox" / "static"


@contextlib.asynccontextmanager
async def page(fake: FakeDiscord) -> AsyncIterator[TestClient[Any, Any]]:
    client = TestClient(TestServer(Sandbox(fake).app()))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()


async def get(client: TestClient[Any, Any], path: str) -> Any:
    response = await client.get(path)
    assert response.status == 200, await response.text()
    return await response.json()


async def post(client: TestClient[Any, Any], path: str, status: int = 200, **body: Any) -> Any:
    response = await client.post(path, json=body)
    assert response.status == status, await response.text()
    return await response.json()


def ids(server: dict[str, Any]) -> tuple[str, dict[str, str]]:
    members = {m["name"]: m["id"] for m in server["members"]}
    channel = next(c["id"] for c in server["channels"] if c["name"] == "games")
    return channel, members


async def test_the_page_and_its_files_are_served_from_the_package(
    fake_discord: FakeDiscord,
) -> None:
    async with page(fake_discord) as client:
        html = await (await client.get("/")).text()
        assert '<script type="module" src="/static/app.js">' in html
        for name in ("app.js", "render.js", "style.css"):
            response = await client.get(f"/static/{name}")
            assert response.status == 200 and await response.text() == (STATIC / name).read_text()
        assert (await client.get("/static/secret.py")).status == 404
        assert "http" not in html.replace("http-equiv", "")  # nothing fetched from the internet


async def test_members_play_through_the_page_and_see_only_what_discord_shows_them(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    fake = fake_discord
    populate(fake)
    async with deckhand.run(), page(fake) as client:
        server = await get(client, "/api/server")
        channel, members = ids(server)
        assert [m["name"] for m in server["members"]] == [name for name, _, _ in MEMBERS]
        assert [m["moderator"] for m in server["members"]] == [bool(r) for _, _, r in MEMBERS]
        assert [m["manager"] for m in server["members"]] == [r == MANAGER for _, _, r in MEMBERS]
        assert server["language"] == "en"
        synced = {c["name"] for c in server["commands"]}
        assert {*GameCatalog.discover().names(), "game"} <= synced

        started = await post(
            client,
            "/api/command",
            member=members["alice"],
            channel=channel,
            command="onecard start",
            options={"players": "3"},
        )
        assert started == {"type": 4}
        await post(
            client,
            "/api/command",
            member=members["bob"],
            channel=channel,
            command="onecard join",
            options={},
        )
        await post(
            client,
            "/api/command",
            member=members["지민"],
            channel=channel,
            command="onecard join",
            options={},
        )
        seen = (await get(client, f"/api/messages?channel={channel}&member={members['bob']}"))[
            "messages"
        ]
        table = seen[-1]
        assert table["bot"] and not table["ephemeral"] and "```ansi" in table["content"]
        assert seen[0]["used"] == {"member": "alice", "command": "onecard start"}
        hand_button = next(
            b for row in table["components"] for b in row["components"] if b["label"] == "Hand"
        )
        answer = await post(
            client,
            "/api/click",
            member=members["bob"],
            channel=channel,
            message=table["id"],
            custom_id=hand_button["custom_id"],
        )
        assert answer == {"type": 4}

        bob_sees = await get(client, f"/api/messages?channel={channel}&member={members['bob']}")
        alice_sees = await get(client, f"/api/messages?channel={channel}&member={members['alice']}")
        mine = [m for m in bob_sees["messages"] if m["ephemeral"]]
        assert len(mine) == 1 and "in your hand:" in mine[0]["content"]  # bob's hand, to bob alone
        assert not [m for m in alice_sees["messages"] if m["ephemeral"]]
        assert mine[0]["id"] not in {m["id"] for m in alice_sees["messages"]}


async def test_bad_requests_get_a_reason_and_change_nothing(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    fake = fake_discord
    populate(fake)
    async with deckhand.run(), page(fake) as client:
        channel, members = ids(await get(client, "/api/server"))
        before = len(fake.messages)
        cases = [
            ({"command": "onecard start", "options": {"players": "99"}}, "above 4"),
            ({"command": "onecard start", "options": {"players": "four"}}, "type a number"),
            ({"command": "onecard start", "options": {"colour": "red"}}, "no option 'colour'"),
            ({"command": "poker start", "options": {}}, "not a command"),
        ]
        for body, reason in cases:
            refused = await post(
                client, "/api/command", 400, member=members["alice"], channel=channel, **body
            )
            assert reason in refused["error"]
        nobody = await post(
            client,
            "/api/command",
            400,
            member="1",
            channel=channel,
            command="onecard start",
            options={},
        )
        assert nobody["error"] == "Choose a member of the server first."
        owner = await post(
            client,
            "/api/command",
            400,
            member=str(fake.owner.id),
            channel=channel,
            command="onecard start",
            options={},
        )
        assert owner["error"] == "Choose a member of the server first."
        gone = await post(
            client,
            "/api/click",
            400,
            member=members["bob"],
            channel=channel,
            message="123",
            custom_id="x",
        )
        assert gone["error"] == "That message is gone."
        assert len(fake.messages) == before


async def test_a_member_in_korean_gets_korean_answers_and_autocomplete_of_their_cards(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    fake = fake_discord
    populate(fake)
    async with deckhand.run(computer_delay_seconds=0.0), page(fake) as client:
        channel, members = ids(await get(client, "/api/server"))
        alice = members["alice"]
        assert await post(client, "/api/language", member=alice, language="ko") == {
            "language": "ko"
        }
        refused = await post(client, "/api/language", 400, member=alice, language="fr")
        assert "en or ko" in refused["error"]
        await post(
            client,
            "/api/command",
            member=alice,
            channel=channel,
            command="onecard start",
            options={"players": "2", "bots": "1", "seed": "7"},
        )
        await post(
            client,
            "/api/command",
            member=alice,
            channel=channel,
            command="onecard hand",
            options={},
        )
        seen = (await get(client, f"/api/messages?channel={channel}&member={alice}"))["messages"]
        assert "내 카드" in seen[-1]["content"] and seen[-1]["ephemeral"]
        offered = await post(
            client,
            "/api/autocomplete",
            member=alice,
            channel=channel,
            command="onecard play",
            option="card",
            typed="",
            options={},
        )
        assert all(set(c) == {"name", "value"} for c in offered["choices"])


async def seen_by(client: TestClient[Any, Any], channel: str, member: str) -> list[Any]:
    return list((await get(client, f"/api/messages?channel={channel}&member={member}"))["messages"])


async def slash(
    client: TestClient[Any, Any], member: str, channel: str, path: str, **options: str
) -> Any:
    """``/path option:value ...`` typed by ``member`` in ``channel``."""
    return await post(
        client, "/api/command", member=member, channel=channel, command=path, options=options
    )


async def test_the_server_language_switch_makes_the_next_public_table_korean(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    # Public text follows the server's language; each member's own answers follow theirs.
    fake = fake_discord
    populate(fake)
    async with deckhand.run() as bot, page(fake) as client:
        server = await get(client, "/api/server")
        channel, members = ids(server)
        other = next(c["id"] for c in server["channels"] if c["name"] == "more-games")
        alice, jimin = members["alice"], members["지민"]
        await slash(client, jimin, channel, "onecard start", players="2", seed="3")
        lobby = (await seen_by(client, channel, alice))[-1]
        english = t("lobby.seat_free", "en", n=2)
        assert english in lobby["content"] and not lobby["ephemeral"]  # an English server

        refused = await post(client, "/api/server-language", 400, language="fr")
        assert "en or ko" in refused["error"]
        assert fake.guild.locale == "en-US"
        changes = fake.changes
        switched = await post(client, "/api/server-language", language="ko")
        assert switched == {"language": "ko"}
        assert fake.changes > changes  # the page redraws
        server = await get(client, "/api/server")
        assert server["language"] == "ko" and fake.guild.locale == "ko"
        # alice stays English herself: the switch is the server's, not hers.
        assert next(m for m in server["members"] if m["id"] == alice)["language"] == "en"

        # The next table (a table keeps the language it was opened in) is Korean for all.
        await slash(client, alice, other, "onecard start", players="2", bots="1", seed="3")
        table = (await seen_by(client, other, alice))[-1]
        # The bot heard of it as from Discord (GUILD_UPDATE, before this interaction).
        guild = bot.get_guild(fake.guild.id)
        assert guild is not None and guild.preferred_locale == discord.Locale.korean
        assert not table["ephemeral"] and "```" in table["content"]
        assert "덱" in table["content"] and "Deck" not in table["content"], table["content"]
        buttons = {b.get("label"): b for row in table["components"] for b in row["components"]}
        assert t("button.hand", "ko") in buttons and t("button.hand", "en") not in buttons
        assert not [label for label in buttons if re.search("[A-Za-z]", label)], list(buttons)
        await post(
            client, "/api/click", member=alice, channel=other, message=table["id"],
            custom_id=buttons[t("button.hand", "ko")]["custom_id"],
        )  # fmt: skip
        mine = [m for m in await seen_by(client, other, alice) if m["ephemeral"]]
        assert "in your hand:" in mine[-1]["content"]  # her hand, in her own language
        assert (await seen_by(client, other, jimin))[-1]["id"] == table["id"]  # not to 지민


async def test_only_the_member_with_manage_server_changes_the_settings_and_moderators_end(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    fake = fake_discord
    populate(fake)
    async with deckhand.run(), page(fake) as client:
        channel, members = ids(await get(client, "/api/server"))
        roles = {name: role for name, _, role in MEMBERS}
        assert roles["dana"] == MANAGER and roles["mod"] == MODERATOR

        async def answer_to(name: str) -> str:
            return str((await seen_by(client, channel, members[name]))[-1]["content"])

        for name in ("alice", "mod"):  # Manage Messages is not enough
            await slash(client, members[name], channel, "game settings", turn_seconds="90")
            assert t("error.manage_server_only", "en") in await answer_to(name)
        await slash(client, members["dana"], channel, "game settings", turn_seconds="90")
        saved = (await seen_by(client, channel, members["dana"]))[-1]
        assert saved["ephemeral"] and t("settings.seconds", "en", seconds=90) in saved["content"]

        await slash(client, members["alice"], channel, "onecard start", players="2", bots="1")
        await slash(client, members["bob"], channel, "game end")
        assert t("error.moderator_only", "en") in await answer_to("bob")
        await slash(client, members["dana"], channel, "game end")
        ended = [m for m in await seen_by(client, channel, members["bob"]) if m["bot"]]
        assert ended[-1]["used"] == {"member": "dana", "command": "game end"}  # in public
        await slash(client, members["bob"], channel, "game status")
        assert t("status.none", "en") in await answer_to("bob")


async def test_a_button_that_opens_a_form_is_answered_through_the_modal_route(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    # Rummikub's Arrange: the form opens prefilled, its submission is answered privately.
    fake = fake_discord
    populate(fake)
    async with deckhand.run(computer_delay_seconds=0.0), page(fake) as client:
        channel, members = ids(await get(client, "/api/server"))
        alice, bob = members["alice"], members["bob"]
        unknown = await post(client, "/api/modal", 400, member=alice, interaction="42", values={})
        assert unknown["error"] == "That form is no longer open."
        options = {"players": "2", "bots": "1", "seed": "3"}
        await post(
            client,
            "/api/command",
            member=alice,
            channel=channel,
            command="rummikub start",
            options=options,
        )
        await post(
            client,
            "/api/command",
            member=alice,
            channel=channel,
            command="rummikub hand",
            options={},
        )
        seen = (await get(client, f"/api/messages?channel={channel}&member={alice}"))["messages"]
        view = seen[-1]
        assert view["ephemeral"]
        arrange = next(
            b
            for row in view["components"]
            for b in row["components"]
            if b.get("label") == "Arrange"
        )
        opened = await post(
            client,
            "/api/click",
            member=alice,
            channel=channel,
            message=view["id"],
            custom_id=arrange["custom_id"],
        )
        assert opened["type"] == 9 and len(opened["modal"]["title"]) <= 45
        [row] = opened["modal"]["components"]
        box = row.get("component") or row["components"][0]
        form = opened["modal"]["interaction"]
        stolen = await post(client, "/api/modal", 400, member=bob, interaction=form, values={})
        assert stolen["error"] == "That form is no longer open."  # only its member's
        values = {box["custom_id"]: box.get("value", "")}
        answered = await post(client, "/api/modal", member=alice, interaction=form, values=values)
        assert answered["type"] in (4, 7)
        again = await post(client, "/api/modal", 400, member=alice, interaction=form, values=values)
        assert again["error"] == "That form is no longer open."  # submitted once


async def test_the_page_hears_of_every_change(fake_discord: FakeDiscord) -> None:
    async with page(fake_discord) as client:
        response = await client.get("/api/events")
        assert response.headers["Content-Type"] == "text/event-stream"
        first = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 5)
        assert first == b"event: change\ndata: {}\n\n"
        fake_discord.notify()
        second = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 5)
        assert second == first
        response.close()


@pytest.mark.skipif(shutil.which("node") is None, reason="the page's script tests need Node.js")
def test_the_pages_text_rendering_and_command_reading() -> None:
    test = Path(__file__).parent / "sandbox_render.test.mjs"
    done = subprocess.run(
        ["node", "--test", str(test)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


async def test_deckhand_sandbox_starts_the_bot_and_serves_the_page(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DISCORD_TOKEN", None)  # no token needed
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "sandbox",
        "--port",
        "0",
        "--database-url",
        f"sqlite:///{tmp_path / 'sandbox.db'}",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
    )
    assert process.stdout is not None
    try:
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        found = re.search(rb"open (http://127\.0\.0\.1:\d+)", line)
        assert found, line
        url = found[1].decode()
        async with aiohttp.ClientSession() as session:
            for _ in range(200):  # the bot syncs its commands once it is connected
                async with session.get(f"{url}/api/server") as response:
                    server = await response.json()
                if server["commands"]:
                    break
                await asyncio.sleep(0.05)
            assert {"onecard", "blackjack"} <= {c["name"] for c in server["commands"]}
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 30)
    assert (tmp_path / "sandbox.db").exists()

"""The fake Discord proven with a small throwaway discord.py bot (tests/e2e/toy_bot.py).

Each test runs the real discord.py client against the fake: slash commands (with a
subcommand group), buttons, select menus, autocomplete, ephemeral replies, edits and
deletes, refusals of what Discord refuses, injected 429/500 answers and gateway resumes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.fakediscord import FakeDiscord, FakeUser, UsageError, running_client
from bot.fakediscord.spec import readable_path
from tests.e2e.toy_bot import OVERFLOWS, Toy


@pytest.fixture
async def toy(fake_discord: FakeDiscord) -> AsyncIterator[Toy]:
    bot = Toy(fake_discord.guild.id)
    async with running_client(bot, fake_discord):
        yield bot


async def test_slash_command_answers_in_channel_with_member_locale_and_permissions(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    alice = fake_discord.add_member("alice")
    mod = fake_discord.add_member("mod", locale="ko", moderator=True)
    result = await fake_discord.slash(alice, fake_discord.channel, "ping")
    assert result.response_type == 4
    assert result.message is not None and result.message.content == "pong"
    assert not result.ephemeral
    assert [m.content for m in fake_discord.public_messages(fake_discord.channel)] == ["pong"]
    await fake_discord.slash(mod, fake_discord.channel, "ping")
    assert toy.seen_locales == ["en-US", "ko"]
    assert toy.seen_permissions == [False, True]


async def test_role_user_channel_mentionable_number_and_boolean_options_resolve(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    alice = fake_discord.add_member("alice")
    bob = fake_discord.add_member("bob")
    dealers = await fake_discord.add_role("Dealers")
    await fake_discord.give_role(alice, dealers)
    result = await fake_discord.slash(
        alice,
        fake_discord.channel,
        "kinds",
        role=dealers,
        user=bob,
        channel=fake_discord.channel,
        mentionable=dealers,
        number=2.5,
        flag=False,
    )
    assert result.text.splitlines() == [
        f"role Dealers {dealers.id}",
        "user Member bob",
        "channel games",
        f"mentionable Role {dealers.id}",
        "number 2.5",
        "flag False",
        "my roles @everyone,Dealers",  # the role created after READY reached the bot
    ]
    outsider = FakeUser(fake_discord.ids.next(), "outsider")
    again = await fake_discord.slash(
        alice,
        fake_discord.channel,
        "kinds",
        role=dealers,
        user=outsider,
        channel=fake_discord.channel,
        mentionable=bob,
        number=3,
        flag=True,
    )
    assert again.text.splitlines()[1] == "user User outsider"  # not a member: only a user
    assert again.text.splitlines()[3] == f"mentionable Member {bob.id}"
    for wrong in ({"role": bob}, {"number": "3"}, {"flag": 1}, {"user": dealers}):
        with pytest.raises(UsageError):
            await fake_discord.slash(
                alice,
                fake_discord.channel,
                "kinds",
                **{
                    "role": dealers,
                    "user": bob,
                    "channel": fake_discord.channel,
                    "mentionable": bob,
                    "number": 1,
                    "flag": True,
                    **wrong,
                },
            )


async def test_subcommand_group_reply_is_ephemeral_to_its_member(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    result = await fake_discord.slash(alice, fake_discord.channel, "toy deck draw", count=2)
    assert result.ephemeral and result.text == "you drew 2 cards: ♠A"
    assert [m.text for m in fake_discord.ephemeral_messages(alice)] == [result.text]
    assert fake_discord.ephemeral_messages(bob) == []
    assert fake_discord.public_messages(fake_discord.channel) == []
    with pytest.raises(UsageError):
        await fake_discord.click(bob, result.messages[0], "anything")


async def test_slash_refuses_what_a_discord_client_would_not_send(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    alice = fake_discord.add_member("alice")
    with pytest.raises(UsageError):
        await fake_discord.slash(alice, fake_discord.channel, "toy deck draw", count=6)
    with pytest.raises(UsageError):
        await fake_discord.slash(alice, fake_discord.channel, "toy deck draw")
    with pytest.raises(UsageError):
        await fake_discord.slash(alice, fake_discord.channel, "nosuch")


async def test_button_click_updates_its_message(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    result = await fake_discord.slash(alice, fake_discord.channel, "counter")
    message = result.message
    assert message is not None and message.button_labels == ["Add (0)"]
    old = message.snapshot()
    click = await fake_discord.click(bob, message, "Add (0)")
    assert click.response_type == 7
    assert message.content == "count 1" and message.button_labels == ["Add (1)"]
    with pytest.raises(UsageError):
        await fake_discord.click(alice, message, "Add (0)")  # that button is gone now
    stale = await fake_discord.click(alice, old, "Add (0)", stale=True)
    assert stale.response_type == 7 and message.content == "count 1"


async def test_select_menu_and_autocomplete(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice = fake_discord.add_member("alice")
    menu = await fake_discord.slash(alice, fake_discord.channel, "pick")
    assert menu.message is not None
    picked = await fake_discord.select(alice, menu.message, "Choose fruit", ["apple", "cherry"])
    assert picked.ephemeral and picked.text == "picked apple, cherry"
    with pytest.raises(UsageError):
        await fake_discord.select(alice, menu.message, "toy:pick", ["kiwi"])
    choices = await fake_discord.autocomplete(
        alice, fake_discord.channel, "toy fruit", "name", "ap"
    )
    assert [c["value"] for c in choices] == ["apple", "apricot"]


async def test_channel_message_edit_delete_and_deferred_followup(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    alice = fake_discord.add_member("alice")
    result = await fake_discord.slash(alice, fake_discord.channel, "temp")
    assert result.response_type == 5
    assert result.message is not None and not result.message.loading
    assert result.ephemeral and result.text == "done"
    public = fake_discord.public_messages(fake_discord.channel)
    assert [(m.content, m.edits) for m in public] == [("final", 1)]


@pytest.mark.parametrize("kind", sorted(OVERFLOWS))
async def test_limit_violation_is_refused_with_discord_error_and_recorded(
    fake_discord: FakeDiscord, toy: Toy, kind: str
) -> None:
    alice = fake_discord.add_member("alice")
    result = await fake_discord.slash(alice, fake_discord.channel, "overflow", kind=kind)
    assert result.text == "refused"  # the bot recovered after the refusal
    assert [v.kind for v in result.refusals] == ["limit"]
    assert [e.code for e in toy.errors] == [50035]
    assert toy.errors[0].status == 400
    assert [v.kind for v in fake_discord.take_violations()] == ["limit"]


async def test_second_initial_response_is_refused(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice = fake_discord.add_member("alice")
    result = await fake_discord.slash(alice, fake_discord.channel, "ping")
    inter = result.interaction
    url = f"{fake_discord.base_url}/api/v10/interactions/{inter.id}/{inter.token}/callback"
    async with aiohttp.ClientSession() as http:
        reply = await http.post(url, json={"type": 4, "data": {"content": "again"}})
        assert reply.status == 400
        assert (await reply.json())["code"] == 40060
    assert [v.kind for v in fake_discord.take_violations()] == ["double-response"]
    assert result.refusals and result.refusals[0].kind == "double-response"


async def test_late_and_missing_responses_fail(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice = fake_discord.add_member("alice")
    fake_discord.deadline = 0.2
    toy.slow_seconds = 0.3
    late = await fake_discord.slash(alice, fake_discord.channel, "slow")
    await fake_discord.wait_for(lambda: toy.errors)
    assert [e.code for e in toy.errors] == [10062]
    assert "late-response" in [v.kind for v in late.refusals]
    ignored = await fake_discord.slash(alice, fake_discord.channel, "ignore")
    assert ignored.response_type is None
    assert [v.kind for v in ignored.refusals] == ["no-response"]
    kinds = sorted(v.kind for v in fake_discord.take_violations())
    assert kinds == ["late-response", "no-response"]


async def test_rate_limit_429_is_retried(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice = fake_discord.add_member("alice")
    failure = fake_discord.fail_next(429, "POST /channels/{channel_id}/messages", retry_after=0.01)
    await fake_discord.slash(alice, fake_discord.channel, "post")
    posted = await fake_discord.wait_for_message(
        fake_discord.channel, lambda m: m.content == "posted"
    )
    assert failure.hits == 1 and posted.content == "posted"


async def test_server_error_500_is_retried(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice = fake_discord.add_member("alice")
    failure = fake_discord.fail_next(500, "POST /interactions/{interaction_id}/{token}/callback")
    result = await fake_discord.slash(alice, fake_discord.channel, "ping")
    assert failure.hits == 1
    assert result.message is not None and result.message.content == "pong"


async def test_slow_answer_arrives_late_and_whole(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice = fake_discord.add_member("alice")
    slowdown = fake_discord.slow_next(0.3, "POST /channels/{channel_id}/messages")
    await fake_discord.slash(alice, fake_discord.channel, "post")
    asked = fake_discord.loop_time()
    posted = await fake_discord.wait_for_message(
        fake_discord.channel, lambda m: m.content == "posted"
    )
    assert slowdown.hits == 1 and slowdown.count == 0
    assert fake_discord.loop_time() - asked >= 0.25 and posted.content == "posted"
    # Only the named route and only ``count`` requests are slowed.
    before = fake_discord.loop_time()
    await fake_discord.slash(alice, fake_discord.channel, "ping")
    assert fake_discord.loop_time() - before < 0.25 and slowdown.hits == 1


@pytest.mark.parametrize("how", ["reconnect", "drop"])
async def test_gateway_resume_replays_missed_events(
    fake_discord: FakeDiscord, toy: Toy, how: str
) -> None:
    alice = fake_discord.add_member("alice")
    await fake_discord.reconnect_gateway(how=how)
    assert fake_discord.gateway.identifies == 1 and fake_discord.gateway.resumes == 1
    result = await fake_discord.slash(alice, fake_discord.channel, "ping")
    assert result.text == "pong"
    # An interaction sent while the link is down reaches the bot when it resumes.
    await fake_discord.gateway.drop(4000)
    during = await fake_discord.slash(alice, fake_discord.channel, "ping")
    assert during.text == "pong"
    assert fake_discord.gateway.resumes == 2 and fake_discord.gateway.identifies == 1


async def test_channel_send_limit_answers_429_and_discord_py_waits(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    fake.channel_send_limit = (2, 0.3)
    started = fake.loop_time()
    for _ in range(3):
        await fake.slash(alice, fake.channel, "post")
    await fake.wait_for(lambda: len(fake.public_messages(fake.channel)) == 3)
    # discord.py read the bucket's headers (Remaining 0) and waited out the window itself.
    assert fake.loop_time() - started >= 0.3
    assert fake.rate_limited == []
    # A client that does not wait is answered 429, with the headers discord.py reads.
    fake.limits.reset()
    url = f"{fake.base_url}/api/v10/channels/{fake.channel.id}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=auth) as http:
        answers = [await http.post(url, json={"content": f"{n}"}) for n in range(3)]
        assert [a.status for a in answers] == [200, 200, 429]
        assert answers[1].headers["X-RateLimit-Remaining"] == "0"
        body = await answers[2].json()
        assert body["global"] is False and 0 < body["retry_after"] <= 0.3
        assert answers[2].headers["X-RateLimit-Scope"] == "user"
    assert fake.rate_limited == [fake.channel.id]  # counted since the reset


async def test_the_global_limit_counts_every_route_but_the_interaction_endpoints(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    fake = fake_discord
    fake.limits.reset()
    fake.limits.global_per_second = 3
    alice = fake.add_member("alice")
    base = f"{fake.base_url}/api/v10"
    auth = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=auth) as http:
        answered = await fake.slash(alice, fake.channel, "ping")  # an interaction: free
        token = answered.interaction.token
        for n in range(5):  # follow-ups through the interaction's token: free too
            sent = await http.post(
                f"{base}/webhooks/{fake.application_id}/{token}", json={"content": f"{n}"}
            )
            assert sent.status == 204
        channel = f"{base}/channels/{fake.channel.id}"
        statuses = [(await http.get(channel)).status for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert fake.limits.global_429 == 1 and fake.limits.global_requests == 3


async def test_mentions_ping_only_what_allowed_mentions_lets_through(
    fake_discord: FakeDiscord, toy: Toy
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    loud = await fake_discord.slash(alice, fake_discord.channel, "mention", member=bob, quiet=False)
    quiet = await fake_discord.slash(alice, fake_discord.channel, "mention", member=bob, quiet=True)
    assert loud.message is not None and quiet.message is not None
    assert loud.text == quiet.text == f"hello {bob.mention}"
    assert loud.message.pinged == [bob.id]
    assert quiet.message.pinged == []


async def test_modal_is_shown_then_submitted(fake_discord: FakeDiscord, toy: Toy) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    shown = await fake_discord.slash(alice, fake_discord.channel, "note")
    assert shown.response_type == 9 and shown.messages == []
    with pytest.raises(UsageError):
        await fake_discord.submit_modal(bob, shown, {"toy:note": "not bob's"})
    with pytest.raises(UsageError):
        await fake_discord.submit_modal(alice, shown, {"toy:note": "x" * 21})
    submitted = await fake_discord.submit_modal(alice, shown, {"toy:note": "hello"})
    assert submitted.ephemeral and submitted.text == "noted: hello"


def _command(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "a command", "type": 1, **extra}


@pytest.mark.parametrize(
    ("commands", "where"),
    [
        ([_command("Ping")], "0.name"),  # upper case
        ([_command("ping pong")], "0.name"),  # a space
        ([_command("p" * 33)], "0.name"),
        ([_command("ping", name_localizations={"ko": "핑 퐁"})], "0.name_localizations.ko"),
        ([_command("ping", name_localizations={"fr": "Pong"})], "0.name_localizations.fr"),
        ([_command("ping", description="")], "0.description"),
        (
            [_command("ping", description_localizations={"ko": "d" * 101})],
            "0.description_localizations.ko",
        ),
        ([_command("ping"), _command("ping")], "1.name"),
        (  # two commands that read the same in Korean
            [
                _command("ping", name_localizations={"ko": "핑"}),
                _command("pong", name_localizations={"ko": "핑"}),
            ],
            "1.name_localizations.ko",
        ),
        (  # an option named like its sibling in Korean
            [
                _command(
                    "ping",
                    options=[
                        {
                            "type": 3,
                            "name": "a",
                            "description": "x",
                            "name_localizations": {"ko": "가"},
                        },
                        {
                            "type": 3,
                            "name": "b",
                            "description": "x",
                            "name_localizations": {"ko": "가"},
                        },
                    ],
                )
            ],
            "0.options.1.name_localizations.ko",
        ),
    ],
)
async def test_command_names_are_checked_like_discord_in_every_locale(
    fake_discord: FakeDiscord, toy: Toy, commands: list[dict[str, Any]], where: str
) -> None:
    url = (
        f"{fake_discord.base_url}/api/v10/applications/{fake_discord.application_id}"
        f"/guilds/{fake_discord.guild.id}/commands"
    )
    synced = fake_discord.commands[fake_discord.guild.id]
    async with aiohttp.ClientSession() as http:
        reply = await http.put(url, json=commands)
        assert reply.status == 400
        assert (await reply.json())["code"] == 50035
        good = [_command("ping", name_localizations={"ko": "핑", "hi": "पिंग"})]
        assert (await http.put(url, json=good)).status == 200
    (refused,) = fake_discord.take_violations()
    assert refused.kind == "limit" and f"{readable_path(where)}: " in refused.detail
    assert fake_discord.commands[fake_discord.guild.id] != synced

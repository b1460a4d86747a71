"""The fake Discord's interaction webhooks, driven straight over HTTP (and through
discord.py's own webhook client) without the Deckhand bot: the token's rate-limit bucket,
the channel's hidden limit on webhook messages, the invalid requests Discord counts, tokens
Discord drops early, the ``interaction_metadata`` and reply of every message an interaction
makes, public replies to messages other members cannot see, and the sandbox's reply header.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage, InteractionResult, running_client
from bot.fakediscord.model import Interaction
from bot.fakediscord.ratelimits import (
    WEBHOOK_CHANNEL_LIMIT,
    WEBHOOK_CHANNEL_RETRY_AFTER,
    WEBHOOK_TOKEN_LIMIT,
)
from bot.sandbox.server import Sandbox
from tests.e2e.toy_bot import Toy

COMMAND, COMPONENT = 2, 3
EPHEMERAL = 1 << 6
BUCKET_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset-After")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


class Clock:
    """The rate limits' clock, moved by hand (windows of a minute and ten minutes)."""

    def __init__(self, fake: FakeDiscord) -> None:
        # A whole second: a window's edge, reached by adding 60 or 600, is then exactly
        # where it is reached (the loop's time plus 60 minus 60 is not always itself).
        self.now = float(round(fake.loop_time()))
        fake.limits.clock = self

    def __call__(self) -> float:
        return self.now


def table(fake: FakeDiscord, *, member: FakeMember | None = None) -> FakeMessage:
    """A message of the bot with a button (ephemeral to ``member`` if given)."""
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    rows = [{"type": 1, "components": [button]}]
    message = fake.new_message(fake.channel, {"content": "Table 1\nline two", "components": rows})
    if member is not None:
        message.flags, message.visible_to = EPHEMERAL, member.id
    return message


async def answer(
    fake: FakeDiscord,
    http: aiohttp.ClientSession,
    member: FakeMember,
    response: dict[str, Any],
    *,
    on: FakeMessage | None = None,
    channel_name: str | None = None,
) -> Interaction:
    """A member's interaction (a command, or a click on ``on``) answered with ``response``
    through its callback, as a bot would."""
    channel = fake.channel
    if channel_name is not None:
        channel = next(c for c in fake.channels.values() if c.name == channel_name)
    if on is None:
        inter = fake._interaction(COMMAND, member, channel, {"id": "1", "name": "go", "type": 1})
    else:
        data = {"custom_id": "go", "component_type": 2}
        inter = fake._interaction(COMPONENT, member, channel, data, message=on)
    url = f"{fake.base_url}/api/v10/interactions/{inter.id}/{inter.token}/callback"
    reply = await http.post(url, json=response)
    assert reply.status == 200, await reply.text()
    assert not any(h in reply.headers for h in BUCKET_HEADERS)  # not in the webhook's bucket
    return inter


def hook(fake: FakeDiscord, inter: Interaction) -> str:
    return f"{fake.base_url}/api/v10/webhooks/{fake.application_id}/{inter.token}"


async def follow(
    http: aiohttp.ClientSession, fake: FakeDiscord, inter: Interaction, n: int = 0, flags: int = 0
) -> aiohttp.ClientResponse:
    return await http.post(
        hook(fake, inter) + "?wait=true", json={"content": f"follow-up {n}", "flags": flags}
    )


async def fill(
    fake: FakeDiscord, http: aiohttp.ClientSession, member: FakeMember, clock: Clock | None = None
) -> tuple[list[Interaction], aiohttp.ClientResponse]:
    """Follow-ups in the channel, four a token (no token's bucket runs out; half of them
    ephemeral: they count too, discord-api-docs#3763), a token a second on ``clock``, until
    the channel answers 429: the interactions used and that answer."""
    used: list[Interaction] = []
    while len(used) <= WEBHOOK_CHANNEL_LIMIT[0]:
        inter = await answer(fake, http, member, SAY)
        used.append(inter)
        for n in range(4):
            sent = await follow(http, fake, inter, n, flags=EPHEMERAL * (n % 2))
            if sent.status != 200:
                return used, sent
        if clock is not None:
            clock.now += 1.0
    raise AssertionError("the channel never answered 429")


SAY = {"type": 4, "data": {"content": "answer"}}
SAY_PRIVATELY = {"type": 4, "data": {"content": "answer", "flags": EPHEMERAL}}


# -- the token's bucket ---------------------------------------------------------------------


async def test_the_sixth_request_on_a_token_within_two_seconds_is_a_user_429(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    inter = await answer(fake, http, alice, SAY)  # its callback is not in the bucket
    base = hook(fake, inter)
    posted = await follow(http, fake, inter)
    followup = (await posted.json())["id"]
    answers = [
        posted,
        await http.get(f"{base}/messages/@original"),
        await http.patch(f"{base}/messages/{followup}", json={"content": "edited"}),
        await http.get(f"{base}/messages/{followup}"),
        await http.delete(f"{base}/messages/{followup}"),
    ]
    assert [a.status for a in answers] == [200, 200, 200, 200, 204]
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
    assert {a.headers["X-RateLimit-Limit"] for a in answers} == {str(WEBHOOK_TOKEN_LIMIT[0])}
    assert len({a.headers["X-RateLimit-Bucket"] for a in answers}) == 1
    assert all(0 < float(a.headers["X-RateLimit-Reset-After"]) <= 2.0 for a in answers)
    sixth = await http.patch(f"{base}/messages/@original", json={"content": "once more"})
    assert sixth.status == 429
    assert sixth.headers["X-RateLimit-Scope"] == "user"
    assert sixth.headers["X-RateLimit-Remaining"] == "0" and "X-RateLimit-Bucket" in sixth.headers
    assert sixth.headers["Via"] and int(sixth.headers["Retry-After"]) >= 1
    body = await sixth.json()
    assert body["global"] is False and 0 < body["retry_after"] <= 2.0 and body["message"]
    assert inter.original is not None and inter.original.content == "answer"  # not served
    # Another interaction's token has a bucket of its own.
    other = await answer(fake, http, alice, SAY)
    fresh = await follow(http, fake, other)
    assert fresh.status == 200 and fresh.headers["X-RateLimit-Remaining"] == "4"
    assert fake.limits.webhook_429 == {"token": 1}
    assert fake.limits.report()["webhook 429s (token)"] == 1
    assert fake.take_webhook_429s() == {"token": 1} and fake.limits.webhook_429 == {}


async def test_discord_py_waits_out_a_token_bucket_it_was_told_is_empty(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    inter = await answer(fake, http, fake.add_member("alice"), SAY)
    webhook = discord.Webhook.partial(fake.application_id, inter.token, session=http)
    started = fake.loop_time()
    for n in range(6):
        await webhook.send(f"follow-up {n}", wait=True)
    # The fifth answer said Remaining 0: discord.py slept out Reset-After, met no 429.
    assert fake.loop_time() - started >= 1.5
    assert len(inter.followups) == 6 and fake.limits.webhook_429 == {}


# -- the channel's webhook messages ---------------------------------------------------------


async def test_the_31st_webhook_message_in_a_channel_within_a_minute_is_a_shared_429(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    clock = Clock(fake)
    started = clock.now
    fake.add_channel("lounge")
    alice = fake.add_member("alice")
    # A deferral's first follow-up fills its "thinking" message: no new message, not counted.
    deferred = await answer(fake, http, alice, {"type": 5, "data": {"flags": EPHEMERAL}})
    filled = await follow(http, fake, deferred, flags=0)
    assert filled.status == 200 and deferred.original is not None
    assert deferred.original.ephemeral and not deferred.original.loading  # its flag was ignored
    (hidden,) = fake.take_violations()  # meant for the channel, seen by alice alone
    assert hidden.kind == "hidden-post" and hidden.interaction_id == deferred.id
    # Edits of a webhook's messages are not new messages either.
    for _ in range(4):
        url = f"{hook(fake, deferred)}/messages/@original"
        assert (await http.patch(url, json={"content": "edited"})).status == 200
    used, over = await fill(fake, http, alice, clock)
    posted = [m for inter in used for m in inter.followups]
    assert len(posted) == 30  # and the 31st:
    assert over.status == 429
    assert over.headers["X-RateLimit-Scope"] == "shared"
    assert over.headers["Retry-After"] == "40" and over.headers["Via"] == "1.1 google"
    body = await over.json()
    assert body == {
        "message": "The resource is being rate limited.",
        "retry_after": WEBHOOK_CHANNEL_RETRY_AFTER,
        "global": False,
    }
    assert isinstance(body["retry_after"], float)
    # The token's own bucket is shown as it stands: the refused request is not in it.
    last = used[-1]
    assert over.headers["X-RateLimit-Remaining"] == str(
        WEBHOOK_TOKEN_LIMIT[0] - len(last.followups)
    )
    assert fake.limits.webhook_429 == {"channel": 1}
    # Another channel has a count of its own.
    elsewhere = await answer(fake, http, alice, SAY, channel_name="lounge")
    assert (await follow(http, fake, elsewhere)).status == 200
    # A sliding minute: the first four messages leave it 60 s after they were posted.
    again = await answer(fake, http, alice, SAY)
    clock.now = started + WEBHOOK_CHANNEL_LIMIT[1] - 0.01
    assert (await follow(http, fake, again)).status == 429
    clock.now = started + WEBHOOK_CHANNEL_LIMIT[1]
    assert [(await follow(http, fake, again, n)).status for n in range(5)] == [200] * 4 + [429]
    assert fake.limits.report()["webhook 429s (channel)"] == 3
    assert fake.take_webhook_429s() == {"channel": 3}


async def test_webhook_limits_off_lifts_both(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    fake.webhook_limits = False
    inter = await answer(fake, http, fake.add_member("alice"), SAY)
    sent = [await follow(http, fake, inter, n) for n in range(WEBHOOK_CHANNEL_LIMIT[0] + 5)]
    assert {a.status for a in sent} == {200}
    assert not any(h in sent[0].headers for h in BUCKET_HEADERS)
    assert fake.limits.webhook_429 == {}
    fake.webhook_limits = True
    assert fake.limits.webhook_limits


# -- invalid requests -----------------------------------------------------------------------


async def test_invalid_requests_are_401_403_and_429_but_shared_ones(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    clock = Clock(fake)
    alice = fake.add_member("alice")
    inter = await answer(fake, http, alice, SAY)
    channel = f"{fake.base_url}/api/v10/channels/{fake.channel.id}"
    fake.fail_next(403, "GET /channels/{channel_id}")
    fake.fail_next(429, "GET /channels/{channel_id}")
    fake.fail_next(500, "GET /channels/{channel_id}")
    statuses = [(await http.get(channel)).status for _ in range(4)]
    assert statuses == [403, 429, 500, 200]
    assert (await http.get(f"{channel}/messages/1")).status == 404  # not an invalid request
    assert fake.limits.invalid_requests_in_window() == 2
    for n in range(WEBHOOK_TOKEN_LIMIT[0] + 1):  # the sixth: the token's 429 (scope user)
        await follow(http, fake, inter, n)
    assert fake.limits.invalid_requests_in_window() == 3
    inter.created -= 16 * 60  # the token's 15 minutes are over: 401
    clock.now += 3.0
    assert (await follow(http, fake, inter)).status == 401
    assert [v.kind for v in fake.take_violations()] == ["expired-token"]
    assert fake.limits.invalid_requests_in_window() == 4
    # The channel's shared 429 is "not counted against you".
    _, shared = await fill(fake, http, alice)
    assert shared.status == 429 and shared.headers["X-RateLimit-Scope"] == "shared"
    assert fake.limits.invalid_requests_in_window() == 4
    assert fake.limits.report()["invalid requests (peak per 10 min)"] == 4
    clock.now += 10 * 60
    assert fake.limits.invalid_requests_in_window() == 0 and fake.limits.invalid_requests_peak == 4
    fake.limits.reset()
    assert fake.limits.invalid_requests_peak == 0 and fake.limits.webhook_429 == {}
    report = fake.limits.report()
    assert report["webhook 429s (token)"] == report["webhook 429s (channel)"] == 0
    assert report["invalid requests (peak per 10 min)"] == 0


# -- tokens Discord drops early -------------------------------------------------------------


async def test_an_unknown_webhook_answers_10015_on_every_route_of_that_token_only(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    inter = await answer(fake, http, alice, SAY)
    followup = (await (await follow(http, fake, inter)).json())["id"]
    other = await answer(fake, http, alice, SAY)
    fake.unknown_webhook(InteractionResult(fake, inter))
    base = hook(fake, inter)
    answers = [
        await http.post(base, json={"content": "more"}),
        await http.get(f"{base}/messages/@original"),
        await http.patch(f"{base}/messages/{followup}", json={"content": "edited"}),
        await http.delete(f"{base}/messages/@original"),
    ]
    assert [a.status for a in answers] == [404] * 4
    for reply in answers:
        assert await reply.json() == {"code": 10015, "message": "Unknown Webhook"}
    assert inter.original is not None and not inter.original.deleted
    assert (await follow(http, fake, other)).status == 200  # other tokens live on
    # Every try after the first 404 breaks Discord's rule and is recorded.
    refused = fake.take_violations()
    assert [v.kind for v in refused] == ["dead-webhook"] * 3
    assert {v.interaction_id for v in refused} == {inter.id}
    # The callback is not a webhook route: a token dropped before it still answers there.
    early = fake._interaction(COMMAND, alice, fake.channel, {"id": "1", "name": "go", "type": 1})
    fake.unknown_webhook(early)
    url = f"{fake.base_url}/api/v10/interactions/{early.id}/{early.token}/callback"
    assert (await http.post(url, json=SAY)).status == 200
    assert (await follow(http, fake, early)).status == 404
    assert fake.take_violations() == []


# -- interaction_metadata and replies -------------------------------------------------------


def metadata(fake: FakeDiscord, inter: Interaction, **extra: Any) -> dict[str, Any]:
    return {
        "id": str(inter.id),
        "type": inter.kind,
        "user": inter.member.user.payload(),
        "authorizing_integration_owners": {"0": str(fake.guild.id)},
        **extra,
    }


async def test_a_slash_commands_answer_and_its_follow_up_carry_metadata_and_reply(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    inter = await answer(fake, http, fake.add_member("alice"), SAY)
    original = inter.original
    assert original is not None
    assert original.type == 20 and original.reply_to is None
    payload = original.payload()
    assert payload["interaction_metadata"] == metadata(fake, inter)
    assert "message_reference" not in payload
    webhook = discord.Webhook.partial(fake.application_id, inter.token, session=http)
    sent = await webhook.send("more", wait=True)  # discord.py parses it
    (followup,) = inter.followups
    assert followup.type == 19 and followup.reply_to == original.id
    assert followup.payload()["interaction_metadata"] == metadata(
        fake, inter, original_response_message_id=str(original.id)
    )
    assert sent.type is discord.MessageType.reply
    assert sent.reference is not None and sent.reference.message_id == original.id
    assert sent.interaction_metadata is not None
    assert sent.interaction_metadata.original_response_message_id == original.id
    assert sent.interaction_metadata.user.id == inter.member.id
    assert fake.hidden_replies == []


async def test_a_clicks_answer_replies_to_the_message_the_button_was_on(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    board = table(fake)
    said = await answer(fake, http, alice, SAY, on=board)
    assert said.original is not None
    assert said.original.type == 19 and said.original.reply_to == board.id
    assert said.original.payload()["message_reference"]["message_id"] == str(board.id)
    assert said.original.interaction_metadata == metadata(
        fake, said, interacted_message_id=str(board.id)
    )
    # A deferred update (6): the button's message is the original, its follow-ups reply to it.
    quiet = await answer(fake, http, alice, {"type": 6}, on=board)
    assert (await follow(http, fake, quiet)).status == 200
    (followup,) = quiet.followups
    assert followup.reply_to == board.id and followup.type == 19
    assert followup.interaction_metadata == metadata(
        fake,
        quiet,
        original_response_message_id=str(board.id),
        interacted_message_id=str(board.id),
    )


async def test_a_modal_submits_answer_names_the_interaction_that_opened_it(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    async with running_client(Toy(fake.guild.id), fake):
        shown = await fake.slash(alice, fake.channel, "note")
        submitted = await fake.submit_modal(alice, shown, {"toy:note": "hi"})
    answer_ = submitted.message
    assert answer_ is not None and answer_.reply_to is None and answer_.type == 20
    assert answer_.interaction_metadata == metadata(
        fake,
        submitted.interaction,
        triggering_interaction_metadata=metadata(fake, shown.interaction),
    )


# -- public replies to what other members cannot see ----------------------------------------


async def test_a_public_follow_up_of_a_private_answer_is_a_hidden_reply(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    inter = await answer(fake, http, fake.add_member("alice"), SAY_PRIVATELY)
    assert (await follow(http, fake, inter, flags=EPHEMERAL)).status == 200  # private: fine
    assert fake.hidden_replies == []
    assert (await follow(http, fake, inter)).status == 200
    public = inter.followups[-1]
    assert fake.hidden_replies == [public]
    (refused,) = fake.take_violations()
    assert refused.kind == "hidden-reply" and refused.interaction_id == inter.id
    assert refused.route == "POST /webhooks/{app_id}/{token}" and "ephemeral" in refused.detail


async def test_a_public_answer_to_a_click_on_a_private_message_is_a_hidden_reply(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    hand = table(fake, member=alice)
    privately = await answer(fake, http, alice, SAY_PRIVATELY, on=hand)
    assert fake.hidden_replies == []
    said = await answer(fake, http, alice, SAY, on=hand)
    assert fake.hidden_replies == [said.original]
    (refused,) = fake.take_violations()
    assert refused.kind == "hidden-reply" and refused.interaction_id == said.id
    assert refused.route == "POST /interactions/{interaction_id}/{token}/callback"
    assert privately.original is not None and privately.original.reply_to == hand.id


async def test_public_follow_ups_of_a_public_answer_hide_nothing_until_it_is_deleted(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    inter = await answer(fake, http, alice, SAY)
    for n in range(2):
        assert (await follow(http, fake, inter, n)).status == 200
    assert fake.hidden_replies == [] and fake.violations == []
    # A deferral keeps its ephemeral flag though its first follow-up is public...
    deferred = await answer(fake, http, alice, {"type": 5, "data": {"flags": EPHEMERAL}})
    assert (await follow(http, fake, deferred)).status == 200
    assert fake.hidden_replies == []
    assert [v.kind for v in fake.take_violations()] == ["hidden-post"]  # its member's alone
    # ... so the next public follow-up replies to a message only alice can see.
    assert (await follow(http, fake, deferred)).status == 200
    assert [v.kind for v in fake.take_violations()] == ["hidden-reply"]
    assert (await http.delete(f"{hook(fake, inter)}/messages/@original")).status == 204
    assert (await follow(http, fake, inter)).status == 200
    (refused,) = fake.take_violations()
    assert refused.kind == "hidden-reply" and "deleted" in refused.detail


# -- the sandbox draws the reply ------------------------------------------------------------


async def test_the_sandbox_draws_a_reply_header_as_each_member_sees_it(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    sandbox = Sandbox(fake)

    async def header(reader: FakeMember, message: FakeMessage) -> Any:
        seen = await sandbox.messages({"member": str(reader.id), "channel": str(fake.channel.id)})
        drawn = next(m for m in seen["messages"] if m["id"] == str(message.id))
        assert drawn["used"] is None  # a reply has its header, not "alice used /go"
        return drawn["reply"]

    board = table(fake)
    said = await answer(fake, http, alice, SAY, on=board)
    assert said.original is not None
    assert await header(bob, said.original) == {"author": "Deckhand", "text": "Table 1"}
    privately = await answer(fake, http, alice, SAY_PRIVATELY)
    await follow(http, fake, privately)
    public = privately.followups[-1]
    assert await header(alice, public) == {"author": "Deckhand", "text": "answer"}
    assert await header(bob, public) == {"unloaded": True}
    await http.delete(f"{hook(fake, privately)}/messages/@original")
    assert await header(alice, public) == {"deleted": True}
    assert await header(bob, said.original) == {"author": "Deckhand", "text": "Table 1"}
    assert [v.kind for v in fake.take_violations()] == ["hidden-reply"]

"""The fake's interaction endpoints: the one initial response an interaction gets (within
:data:`INTERACTION_DEADLINE`, of a type its kind allows), then follow-ups and the edits and
deletes of its messages through its token, which dies 15 minutes after the interaction.

A deferred response leaves a "thinking" message that the first follow-up or edit fills in;
ephemeral answers are visible to their member only. Every message an interaction makes
carries its ``interaction_metadata`` and the message it is drawn as replying to. A token's
webhook routes share its rate-limit bucket (:mod:`.ratelimits`), each new follow-up counts
in its channel's webhook messages, and a token Discord dropped early answers 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .limits import (
    DEFERRED_FLAGS,
    INTERACTION_FLAGS,
    TOKEN_SECONDS,
    WEBHOOK_EDIT_FLAGS,
    WEBHOOK_FLAGS,
    check_autocomplete_choices,
    check_message,
)
from .model import EPHEMERAL, LOADING, FakeMessage, Interaction
from .replies import error, json_response

if TYPE_CHECKING:
    from .rest import Rest

__all__ = ["INTERACTION_DEADLINE", "InteractionRoutes"]

INTERACTION_DEADLINE = 3.0


class InteractionRoutes:
    """Handlers of an interaction's callback and of its token's webhook routes
    (:class:`~.rest.Rest` routes to them)."""

    def __init__(self, rest: Rest) -> None:
        self.rest = rest
        self.discord = rest.discord

    async def callback(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        route = "POST /interactions/{interaction_id}/{token}/callback"
        inter = self.discord.interactions.get(int(p["interaction_id"]))
        if inter is None or inter.token != p["token"]:
            return error(404, 10062, "Unknown interaction")
        loop_time = self.discord.loop_time()
        if inter.response_type is not None:
            self.discord.violation(
                "double-response",
                "a second initial response was sent",
                route=route,
                interaction=inter,
            )
            return error(400, 40060, "Interaction has already been acknowledged.")
        if loop_time - inter.created > self.discord.deadline:
            late = loop_time - inter.created
            self.discord.violation(
                "late-response",
                f"initial response after {late:.2f} s (limit {self.discord.deadline:g} s)",
                route=route,
                interaction=inter,
            )
            return error(404, 10062, "Unknown interaction")
        body = body or {}
        rtype = int(body.get("type", 0))
        data: dict[str, Any] = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[inter.kind]
        if rtype not in allowed:
            self.discord.violation(
                "bad-response",
                f"response type {rtype} for interaction type {inter.kind}",
                route=route,
                interaction=inter,
            )
            return error(400, 50035, "Interaction response type is invalid for this interaction")
        message: FakeMessage | None = None
        if rtype == 4:
            errors = check_message(data, flags=INTERACTION_FLAGS)
            if errors:
                return self.rest.refuse(route, errors, interaction=inter, prefix="data")
            message = self.discord.new_message(inter.channel, data, interaction=inter)
            inter.original = message
        elif rtype == 5:
            errors = check_message(data, flags=DEFERRED_FLAGS, require_body=False)
            if errors:
                return self.rest.refuse(route, errors, interaction=inter, prefix="data")
            loading = {"flags": (int(data.get("flags", 0)) & EPHEMERAL) | LOADING}
            message = self.discord.new_message(inter.channel, loading, interaction=inter)
            inter.original = message
        elif rtype == 6 and "message" in inter.payload:
            # DEFERRED_UPDATE_MESSAGE: "ACK an interaction and edit the original message
            # later": the message the component is on is the response to edit (@original).
            inter.original = self.discord.messages.get(int(inter.payload["message"]["id"]))
        elif rtype == 7:
            target = self.discord.messages.get(int(inter.payload["message"]["id"]))
            if target is None or target.deleted:
                return error(404, 10008, "Unknown Message")
            merged = target.as_edited(data)
            errors = check_message(merged, flags=INTERACTION_FLAGS)
            if errors:
                return self.rest.refuse(route, errors, interaction=inter, prefix="data")
            self.discord.edit(target, merged)
            message = target
            inter.original = target
        elif rtype == 8:
            errors = check_autocomplete_choices(data.get("choices") or [])
            if errors:
                return self.rest.refuse(route, errors, interaction=inter, prefix="data")
        inter.response_type = rtype
        inter.responded_at = loop_time
        inter.response_data = data
        inter.responded.set()
        # A deferred message (5) is complete once filled in; a deferred update (6) once the
        # bot said something after it (a follow-up, an edit): what the member then sees.
        if rtype in (4, 7, 8, 9):
            inter.completed.set()
        if message is not None:
            if rtype == 7:
                await self.discord.announce_update(message)
            else:
                await self.discord.announce_create(message)
        reply: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.kind,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            reply["interaction"]["response_message_id"] = str(message.id)
            reply["resource"] = {"type": rtype, "message": message.payload()}
        return json_response(reply)

    def _webhook_interaction(self, p: dict[str, str]) -> Interaction | None:
        if int(p["app_id"]) != self.discord.application_id:
            return None
        return self.discord.by_token.get(p["token"])

    def _webhook(self, route: str, p: dict[str, str]) -> Interaction | web.Response:
        """The interaction whose token a webhook route names, or Discord's answer instead: 404
        Unknown Webhook for a token it does not know, 401 past its 15 minutes, 404 again for
        one it dropped early (:meth:`~.server.FakeDiscord.unknown_webhook`)."""
        inter = self._webhook_interaction(p)
        if inter is None:
            return error(404, 10015, "Unknown Webhook")
        expired = self._expired(route, inter)
        if expired is not None:
            return expired
        if inter.webhook_unknown:
            if inter.webhook_404s:
                # rate-limits.mdx:142: "If a webhook returns a 404 status you should not
                # attempt to use it again".
                self.discord.violation(
                    "dead-webhook",
                    f"the token was used again after {inter.webhook_404s} answer(s) of 404 "
                    "Unknown Webhook (Discord restricts repeated attempts)",
                    route=route,
                    interaction=inter,
                )
            inter.webhook_404s += 1
            return error(404, 10015, "Unknown Webhook")
        return inter

    def _expired(self, route: str, inter: Interaction) -> web.Response | None:
        """Discord's answer to a follow-up, edit or delete through an interaction's token
        more than 15 minutes after the interaction (limits.TOKEN_SECONDS), or ``None``."""
        age = self.discord.loop_time() - inter.created
        if age <= TOKEN_SECONDS:
            return None
        self.discord.violation(
            "expired-token",
            f"the interaction's token was used {age / 60:.1f} minutes after it (valid 15)",
            route=route,
            interaction=inter,
        )
        return error(401, 50027, "Invalid Webhook Token")

    async def followup(self, request: web.Request, p: dict[str, str], body: Any) -> web.Response:
        route = "POST /webhooks/{app_id}/{token}"
        inter = self._webhook(route, p)
        if isinstance(inter, web.Response):
            return inter
        if inter.response_type is None:
            return error(404, 10015, "Unknown Webhook")
        body = body or {}
        errors = check_message(body, flags=WEBHOOK_FLAGS)
        if errors:
            return self.rest.refuse(route, errors, interaction=inter)
        original = inter.original
        if original is not None and original.loading and not original.deleted:
            # Right after a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE "no new message will be
            # created, and the loading message will be edited instead. The ephemeral flag will
            # be ignored" (interactions/receiving-and-responding.mdx:479): the "thinking"
            # message keeps its flags, and no message is added to the channel's count.
            if original.ephemeral and not int(body.get("flags") or 0) & EPHEMERAL:
                # Meant for the channel, it lands in the member's private "thinking" message:
                # nobody else sees it (a bot's table or another member's mention lost there).
                self.discord.violation(
                    "hidden-post",
                    f"a public follow-up filled ephemeral deferral {original.id}: only its"
                    " member sees it (the ephemeral flag is ignored, receiving-and-responding"
                    ".mdx:479)",
                    route=route,
                    interaction=inter,
                )
            self.discord.edit(original, body)
            original.flags &= ~LOADING
            inter.completed.set()
            await self.discord.announce_update(original)
            return json_response(original.payload())
        limited = self.discord.limits.webhook_message(inter.channel.id, inter.token)
        if limited is not None:
            headers, refused = limited
            return json_response(refused, status=429, headers=headers)
        message = self.discord.new_message(inter.channel, body, interaction=inter, followup=True)
        inter.followups.append(message)
        inter.completed.set()
        await self.discord.announce_create(message)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload())
        return web.Response(status=204)

    def _webhook_message(self, inter: Interaction, message_id: str) -> FakeMessage | None:
        if message_id == "@original":
            message = inter.original
        else:
            message = self.discord.messages.get(int(message_id))
            if message is not None and message.interaction_id != inter.id:
                message = None
        if message is None or message.deleted:
            return None
        return message

    async def get_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        inter = self._webhook("GET /webhooks/{app_id}/{token}/messages/{message_id}", p)
        if isinstance(inter, web.Response):
            return inter
        message = self._webhook_message(inter, p["message_id"])
        if message is None:
            return error(404, 10008, "Unknown Message")
        return json_response(message.payload())

    async def edit_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        route = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
        inter = self._webhook(route, p)
        if isinstance(inter, web.Response):
            return inter
        message = self._webhook_message(inter, p["message_id"])
        if message is None:
            return error(404, 10008, "Unknown Message")
        was_loading = message.loading
        reply = await self.rest.apply_edit(
            route, message, body or {}, interaction=inter, flags=WEBHOOK_EDIT_FLAGS
        )
        if was_loading and reply.status == 200:
            message.flags &= ~LOADING
        if reply.status == 200:
            inter.completed.set()
        return reply

    async def delete_webhook_message(
        self, request: web.Request, p: dict[str, str], body: Any
    ) -> web.Response:
        inter = self._webhook("DELETE /webhooks/{app_id}/{token}/messages/{message_id}", p)
        if isinstance(inter, web.Response):
            return inter
        message = self._webhook_message(inter, p["message_id"])
        if message is None:
            return error(404, 10008, "Unknown Message")
        await self.discord.delete(message)
        inter.completed.set()
        return web.Response(status=204)

"""The gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, dispatch, RESUME.

Each identified connection gets a session. Events are numbered per session and kept, so a
client that reconnects with RESUME gets everything it missed (as Discord replays), and events
dispatched while it is away are buffered for the replay.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .model import to_json

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = ["Gateway", "GatewaySession"]

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

GUILD_MESSAGES = 1 << 9
# Events Discord only sends to a session that asked for their intent.
EVENT_INTENTS = {
    "MESSAGE_CREATE": GUILD_MESSAGES,
    "MESSAGE_UPDATE": GUILD_MESSAGES,
    "MESSAGE_DELETE": GUILD_MESSAGES,
}


@dataclass(eq=False)
class GatewaySession:
    """One IDENTIFY's session: the event log (for resume) and the live socket, if any."""

    session_id: str
    shard: tuple[int, int]
    intents: int
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    log: list[tuple[int, str]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    closed: bool = False  # ended by the client (clean close) or invalidated

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        async with self.lock:
            self.seq += 1
            frame = to_json({"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data})
            self.log.append((self.seq, frame))
            if len(self.log) > 2000:
                del self.log[:1000]
            if self.ws is not None and not self.ws.closed:
                try:
                    await self.ws.send_str(frame)
                except ConnectionError:
                    self.ws = None


class Gateway:
    """The websocket endpoint and its sessions; guild events go to the guild's shard."""

    def __init__(self, discord: FakeDiscord) -> None:
        self.discord = discord
        self.sessions: dict[str, GatewaySession] = {}
        self.by_shard: dict[int, GatewaySession] = {}
        self.resumes = 0
        self.identifies = 0

    def _notify(self) -> None:
        """Connections changed: wake the tests waiting on the fake."""
        self.discord.notify()

    def session_for_guild(self, guild_id: int) -> GatewaySession | None:
        for session in self.by_shard.values():
            shard_id, count = session.shard
            if (guild_id >> 22) % count == shard_id and not session.closed:
                return session
        return None

    async def dispatch_guild(self, guild_id: int, event: str, data: dict[str, Any]) -> bool:
        """Send a guild event to its shard's session (buffered if it is resuming)."""
        session = self.session_for_guild(guild_id)
        if session is None:
            return False
        needs = EVENT_INTENTS.get(event, 0)
        if needs and not session.intents & needs:
            return True  # Discord would not send it to this session
        await session.dispatch(event, data)
        return True

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.by_shard.values() if not s.closed]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(to_json({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}}))
        session: GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == OP_HEARTBEAT:
                    await ws.send_str(to_json({"op": OP_HEARTBEAT_ACK, "d": None}))
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, frame["d"])
                elif op == OP_RESUME:
                    session = await self._resume(ws, frame["d"])
                elif op == OP_REQUEST_MEMBERS:
                    await self._members_chunk(session, frame["d"])
        finally:
            if session is not None and session.ws is ws:
                session.ws = None
                if ws.close_code == 1000:
                    # A clean close from the client ends the session (discord.py's close()).
                    session.closed = True
                self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> GatewaySession:
        if data.get("token") != self.discord.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            raise ConnectionError("bad token")
        shard_id, count = data.get("shard") or (0, 1)
        old = self.by_shard.get(shard_id)
        if old is not None:
            old.closed = True
        session = GatewaySession(
            session_id=secrets.token_hex(16),
            shard=(shard_id, count),
            intents=int(data.get("intents", 0)),
            ws=ws,
        )
        self.sessions[session.session_id] = session
        self.by_shard[shard_id] = session
        self.identifies += 1
        guilds = [g for g in self.discord.guilds.values() if (g.id >> 22) % count == shard_id]
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.discord.bot_user.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "resume_gateway_url": self.discord.gateway_url,
            "application": {"id": str(self.discord.application_id), "flags": 0},
            "shard": [shard_id, count],
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "session_type": "normal",
        }
        await session.dispatch("READY", ready)
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload())
        self._notify()
        return session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or session.closed or data.get("token") != self.discord.token:
            await ws.send_str(to_json({"op": OP_INVALID_SESSION, "d": False}))
            return None
        async with session.lock:
            since = int(data.get("seq") or 0)
            for seq, frame in session.log:
                if seq > since:
                    await ws.send_str(frame)
            session.ws = ws
        self.resumes += 1
        await session.dispatch("RESUMED", {})
        self._notify()
        return session

    async def _members_chunk(self, session: GatewaySession | None, data: dict[str, Any]) -> None:
        if session is None:
            return
        guild = self.discord.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    async def send_reconnect(self) -> None:
        """Ask every live connection to reconnect (opcode 7); discord.py resumes."""
        for session in self.live_sessions():
            if session.ws is not None:
                await session.ws.send_str(to_json({"op": OP_RECONNECT, "d": None}))

    async def drop(self, code: int = 4000) -> None:
        """Close every live connection with ``code`` as Discord does on a gateway error."""
        for session in self.live_sessions():
            if session.ws is not None:
                ws, session.ws = session.ws, None
                await ws.close(code=code)

    async def close_all(self) -> None:
        for session in list(self.sessions.values()):
            session.closed = True
            if session.ws is not None:
                await session.ws.close(code=1001)

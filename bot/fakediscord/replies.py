"""How the fake answers over HTTP: JSON with the exact content type discord.py parses, and
Discord's error body (an HTTP status, a JSON error code and its message)."""

from __future__ import annotations

from aiohttp import web

from .model import to_json

__all__ = ["error", "json_response"]


def json_response(
    data: object, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py only parses JSON when the content type is exactly "application/json".
    return web.Response(
        body=to_json(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def error(status: int, code: int, message: str) -> web.Response:
    return json_response({"code": code, "message": message}, status=status)

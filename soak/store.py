"""The store read from outside the bot (SQLite or PostgreSQL, by the ``DATABASE_URL`` the bot
is given), and a PostgreSQL schema of a run's own, so a run never touches another's tables."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

import asyncpg  # type: ignore[import-untyped]

__all__ = ["drop_schema", "fresh_schema", "sqlite_path", "stored_games"]


def sqlite_path(url: str) -> str:
    """The file of a ``sqlite:///`` URL."""
    return url.removeprefix("sqlite:///").split("?")[0]


async def stored_games(url: str) -> dict[int, tuple[int, dict[str, Any]]]:
    """channel id -> (version, data) of every stored game."""
    if url.startswith("sqlite"):
        with contextlib.closing(sqlite3.connect(sqlite_path(url), timeout=30)) as db:
            found = db.execute("SELECT channel_id, version, data FROM active_games").fetchall()
        return {int(c): (int(v), json.loads(d)) for c, v, d in found}
    conn = await asyncpg.connect(url)
    try:
        records = await conn.fetch("SELECT channel_id, version, data FROM active_games")
    finally:
        await conn.close()
    return {
        int(r["channel_id"]): (
            int(r["version"]),
            r["data"] if isinstance(r["data"], dict) else json.loads(r["data"]),
        )
        for r in records
    }


async def fresh_schema(url: str, schema: str) -> str:
    """Create ``schema``; ``url`` with it as the search path."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}search_path={schema}"


async def drop_schema(url: str, schema: str) -> None:
    """Drop ``schema`` and everything in it (``url``: the server's, without the schema)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await conn.close()

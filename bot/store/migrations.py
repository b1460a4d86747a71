"""Schema migrations: plain numbered SQL files in ``bot/migrations/<dialect>/``.

A file is named ``NNNN_what_it_does.sql``. Each store applies, in number order, the files
its ``schema_migrations`` table does not list yet, in one transaction together with the
rows that record them and under a lock, so a crash half-way leaves the schema as it was
and two processes starting together apply each step once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["Migration", "migrations"]

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered step of a dialect's schema."""

    version: int
    name: str
    sql: str


def migrations(dialect: str) -> list[Migration]:
    """The dialect's migrations in order; refuses a misnamed file or a repeated number."""
    folder = resources.files("bot").joinpath("migrations", dialect)
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _NAME.match(entry.name)
        if match is None:
            raise RuntimeError(f"migration {dialect}/{entry.name} is not named NNNN_name.sql")
        version = int(match.group(1))
        if version in found:
            raise RuntimeError(f"two {dialect} migrations are numbered {version:04d}")
        found[version] = Migration(version, entry.name, entry.read_text(encoding="utf-8"))
    if not found:
        raise RuntimeError(f"no {dialect} migrations found")
    return [found[version] for version in sorted(found)]

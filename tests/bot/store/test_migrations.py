"""Migration files are numbered, ordered and present for every dialect."""

from __future__ import annotations

import pytest

from bot.store.migrations import migrations


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_migrations_are_numbered_from_one_without_gaps(dialect: str) -> None:
    steps = migrations(dialect)
    assert [step.version for step in steps] == list(range(1, len(steps) + 1))
    assert all(step.sql.strip() for step in steps)


def test_both_dialects_have_the_same_steps() -> None:
    assert [s.name for s in migrations("sqlite")] == [s.name for s in migrations("postgres")]


def test_both_dialects_create_the_same_tables() -> None:
    def tables(dialect: str) -> set[str]:
        return {
            line.split()[2]
            for step in migrations(dialect)
            for line in step.sql.splitlines()
            if line.startswith("CREATE TABLE")
        }

    assert (
        tables("sqlite")
        == tables("postgres")
        >= {
            "active_games",
            "finished_games",
            "seat_results",
            "guild_settings",
        }
    )


def test_an_unknown_dialect_is_an_error() -> None:
    with pytest.raises((RuntimeError, FileNotFoundError)):
        migrations("oracle")

"""``open_store`` chooses the store from DATABASE_URL's scheme."""

from __future__ import annotations

import pytest

from bot.store import UnsupportedDatabaseURL, open_store
from bot.store.memory import MemoryStore


def test_memory_scheme_gives_a_fresh_memory_store() -> None:
    first, second = open_store("memory://"), open_store("MEMORY://")
    assert isinstance(first, MemoryStore)
    assert isinstance(second, MemoryStore)
    assert first is not second


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("mysql://root:hunter2@db/deckhand", "mysql://"),
        ("data/deckhand.db", "no scheme"),
        ("", "no scheme"),
    ],
)
def test_unknown_scheme_is_refused_without_echoing_the_url(url: str, shown: str) -> None:
    with pytest.raises(UnsupportedDatabaseURL) as refused:
        open_store(url)
    message = str(refused.value)
    assert shown in message
    assert "hunter2" not in message
    assert "sqlite:///" in message

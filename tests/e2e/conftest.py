"""End-to-end fixtures: a fake Discord on 127.0.0.1 and bots connected to it.

``fake_discord`` fails the test at teardown if Discord would have refused anything the bot
sent (a limit exceeded, a second or late interaction response, an unanswered interaction).
A test that provokes a refusal on purpose takes it with ``fake_discord.take_violations()``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.fakediscord import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord with one guild and a ``games`` channel; no violations allowed."""
    async with FakeDiscord() as fake:
        yield fake
        fake.assert_no_violations()

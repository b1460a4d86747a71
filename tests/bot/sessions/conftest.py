"""Fixtures of the session tests: a registry on a memory store with a fake poster and clock."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.sessions.harness import Harness


@pytest.fixture
async def table() -> Any:
    made = Harness()
    yield made
    await made.registry.close()

"""ChannelTasks: one background task per channel."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.timers import ChannelTasks


async def test_replacing_cancels_the_old_task() -> None:
    tasks = ChannelTasks()
    started: list[str] = []
    cancelled: list[str] = []

    async def wait(name: str) -> None:
        started.append(name)
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.append(name)
            raise

    tasks.replace(1, wait("first"), "first")
    await asyncio.sleep(0)
    tasks.replace(1, wait("second"), "second")
    await asyncio.sleep(0)
    assert started == ["first", "second"] and cancelled == ["first"]
    assert tasks.running(1)
    await tasks.close()
    assert cancelled == ["first", "second"] and not tasks.running(1)


async def test_a_task_may_arm_its_own_successor() -> None:
    tasks = ChannelTasks()
    done: list[str] = []

    async def second() -> None:
        done.append("second")

    async def first() -> None:
        tasks.replace(1, second(), "second")
        await asyncio.sleep(0)
        done.append("first survived")

    tasks.replace(1, first(), "first")
    for _ in range(5):
        await asyncio.sleep(0)
    assert sorted(done) == ["first survived", "second"]
    await tasks.close()


async def test_a_failing_task_is_logged_and_forgotten(caplog: pytest.LogCaptureFixture) -> None:
    tasks = ChannelTasks()

    async def boom() -> None:
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR):
        tasks.replace(3, boom(), "boom")
        for _ in range(3):
            await asyncio.sleep(0)
    assert "background game task failed" in caplog.text
    assert not tasks.running(3)


async def test_a_task_cancelled_before_it_ran_is_not_reported_unawaited() -> None:
    tasks = ChannelTasks()

    async def never() -> None:
        raise AssertionError("must not run")

    tasks.replace(4, never(), "never")
    tasks.cancel(4)
    await asyncio.sleep(0)
    assert not tasks.running(4)
    await tasks.close()


async def test_a_task_rearming_its_channel_as_it_is_closed_starts_nothing() -> None:
    # A timer cancelled mid-write rolls back, and a rollback arms the channel's timer again.
    tasks = ChannelTasks()
    started: list[str] = []

    async def again() -> None:
        started.append("again")

    async def timer() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            tasks.replace(1, again(), "again")

    tasks.replace(1, timer(), "timer")
    await asyncio.sleep(0)
    await tasks.close()
    await asyncio.sleep(0)
    assert started == [] and not tasks.running(1) and len(tasks) == 0

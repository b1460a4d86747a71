"""One background task per channel: a turn timer or a burst of computer moves.

A channel never needs two: arming a new timer replaces the old one, and a task that arms its
own successor (a computer burst ending on a human's turn) is not cancelled by doing so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

__all__ = ["AlreadyReported", "ChannelTasks"]

log = logging.getLogger(__name__)


class AlreadyReported(Exception):
    """An error whose raiser has logged it and set its recovery going: a background task
    that meets it ends quietly instead of logging it again."""


class ChannelTasks:
    """Keeps at most one running task per channel id."""

    def __init__(self) -> None:
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._closed = False

    def __len__(self) -> int:
        """How many channels have a task (a timer or a computer burst) running."""
        return len(self._tasks)

    def replace(self, channel_id: int, work: Coroutine[Any, Any, None], name: str) -> None:
        """Cancel the channel's task (unless it is the caller) and start ``work`` instead.
        Once closed, nothing starts: a task cancelled by :meth:`close` that re-arms its
        channel on the way out (a rollback) would leave a task nobody stops."""
        self.cancel(channel_id)
        if self._closed:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(self._guarded(work), name=name)
        self._tasks[channel_id] = task
        task.add_done_callback(lambda done: self._forget(channel_id, done, work))

    def cancel(self, channel_id: int) -> None:
        """Stop the channel's task; a task cancelling its own slot just gives it up."""
        task = self._tasks.pop(channel_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def running(self, channel_id: int) -> bool:
        """Whether the channel has a live task."""
        task = self._tasks.get(channel_id)
        return task is not None and not task.done()

    async def close(self) -> None:
        """Cancel every task and wait for them to finish; start none from now on."""
        self._closed = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget(
        self, channel_id: int, done: asyncio.Task[None], work: Coroutine[Any, Any, None]
    ) -> None:
        # A task cancelled before it ran never started ``work``: close it so it is not
        # reported as "never awaited".
        work.close()
        if self._tasks.get(channel_id) is done:
            del self._tasks[channel_id]

    @staticmethod
    async def _guarded(work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except AlreadyReported:
            pass
        except Exception:
            log.exception("background game task failed")

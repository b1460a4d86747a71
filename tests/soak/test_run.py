"""A soak run's judgements (soak/run.py): what a kill excuses, and a button acknowledged
twice."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from soak.run import Soak

GAME_END = {"name": "game", "options": [{"name": "end", "type": 1}]}
GAME_STATUS = {"name": "game", "options": [{"name": "status", "type": 1}]}


def test_a_game_gone_from_the_store_is_excused_only_by_an_end_the_kill_cut_off() -> None:
    """Nothing stored for a shown game is a lost move, unless the kill caught in flight an
    interaction that may have ended it (here, or naming this channel), written but never
    announced. One answered in private counts as cut off: its table was to follow."""

    def interaction(
        channel: int,
        created: float,
        *,
        answered: bool,
        payload: Any = None,
        privately: bool = False,
        response_type: int | None = None,
    ) -> Any:
        done = asyncio.Event()
        if answered:
            done.set()
        original = SimpleNamespace(ephemeral=privately) if answered else None
        return SimpleNamespace(
            created=created,
            completed=done,
            channel=SimpleNamespace(id=channel),
            payload=payload or {},
            original=original,
            response_type=response_type,
        )

    def soak(*interactions: Any) -> Any:
        fake = SimpleNamespace(deadline=3.0, interactions=dict(enumerate(interactions)))
        return SimpleNamespace(fake=fake)

    killed_at = 100.0
    cases = {
        "an end here, cut off": (soak(interaction(5, 99.0, answered=False)), True),
        "an end here, answered": (soak(interaction(5, 99.0, answered=True)), False),
        "a move from a private message, answered there": (
            soak(interaction(5, 99.0, answered=True, privately=True, response_type=7)),
            True,
        ),
        "a moderator's /game end, answered in private": (
            soak(interaction(5, 99.0, answered=True, privately=True, payload={"data": GAME_END})),
            True,
        ),
        "a /game status, answered in private": (
            soak(
                interaction(5, 99.0, answered=True, privately=True, payload={"data": GAME_STATUS})
            ),
            False,
        ),
        "a look at a hand, answered in private": (
            soak(interaction(5, 99.0, answered=True, privately=True, response_type=4)),
            False,
        ),
        "another channel's move, answered in private": (
            soak(interaction(9, 99.0, answered=True, privately=True, response_type=7)),
            False,
        ),
        "an End button naming it": (
            soak(interaction(9, 99.5, answered=False, payload={"custom_id": "dh:list:5:3"})),
            True,
        ),
        "another channel's": (soak(interaction(9, 99.0, answered=False)), False),
        "long before the kill": (soak(interaction(5, 90.0, answered=False)), False),
    }
    for name, (run, excused) in cases.items():
        assert Soak.end_cut_by_kill(run, 5, killed_at) is excused, name


def test_one_button_acknowledged_in_public_twice_is_a_double_apply() -> None:
    """Counted over the clicks and picks the members sent (an interaction of type 3); a
    private answer, a slash command and /game list's End buttons (any member may press one
    of another channel's table) are not."""

    def sent(custom_id: str, *, kind: int = 3, ephemeral: bool = False) -> Any:
        payload = {"data": {"custom_id": custom_id}}
        inter = SimpleNamespace(kind=kind, payload=payload)
        return SimpleNamespace(interaction=inter, ephemeral=ephemeral, messages=["table"])

    run: Any = SimpleNamespace(
        sent=[
            sent("dh:5:7:hit"),
            sent("dh:5:7:hit"),
            sent("dh:5:8:hit"),
            sent("dh:5:9:hand", ephemeral=True),
            sent("dh:5:9:hand", ephemeral=True),
            sent("dh:6:3:end_listed"),
            sent("dh:6:3:end_listed"),
            sent("dh:5:9:take", kind=2),
            sent("dh:5:9:take", kind=2),
        ]
    )
    assert Soak.double_clicks(run) == ["dh:5:7:hit acknowledged 2 times"]

"""What a soak counts while it runs (:class:`Tally`) and its summary at the end, with the
counts that must be 0 (:data:`COUNTS`; what each means is in :mod:`soak`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from soak.run import Soak

__all__ = ["COUNTS", "Tally", "failed", "summary"]

COUNTS = (
    "moves lost",
    "double applies",
    "leaks",
    "limit violations",
    "unhandled errors",
    "games stuck",
    "refused yet written",
    "global 429s",
    "hidden replies",
    "tables stalled over 5 s",
)


@dataclass
class Tally:
    """What the soak counts."""

    interactions: int = 0
    acknowledged: int = 0  # interactions answered with a public table or notice
    refused: int = 0  # answered only to the member (a refusal, a hand)
    not_sent: int = 0  # the fake refused to send (a button gone, disabled): no interaction
    kills: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    moves_lost: list[str] = field(default_factory=list)
    double_applies: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)


def summary(run: Soak, seconds: float) -> dict[str, Any]:
    """The finished run's figures; the :data:`COUNTS` among them must be 0."""
    doubles = run.tally.double_applies + run.double_clicks()
    violations = run.violations()
    errors = run.errors()
    conflicts = run.conflicts()
    stalls = run.stalls()
    tally = run.tally
    options = run.options
    limits = run.fake.limits
    return {
        "minutes": options.minutes,
        "seconds": round(seconds, 1),
        "channels": options.channels,
        "seed": options.seed,
        "store": "postgresql" if options.database_url else "sqlite",
        "games": list(run.games),
        "interactions sent": tally.interactions,
        "acknowledged in public": tally.acknowledged,
        "answered privately": tally.refused,
        "public tables": run.witness.tables,
        "kills": tally.kills,
        "faults": dict(sorted(tally.faults.items())),
        "rate limits": "on" if options.rate_limits else "off",
        "requests": limits.report(),
        "requests by bucket": dict(limits.bucket_requests.most_common()),
        "moves lost": len(tally.moves_lost),
        "double applies": len(doubles),
        "leaks": len(tally.leaks),
        "limit violations": len(violations),
        "unhandled errors": len(errors),
        "games stuck": len(tally.stuck),
        "refused yet written": len(conflicts),
        "global 429s": limits.global_429,
        "hidden replies": len(run.fake.hidden_replies),
        "tables stalled over 5 s": len(stalls),
        "webhook 429s": dict(limits.webhook_429),
        "invalid requests (peak per 10 min)": limits.invalid_requests_peak,
        "429s by bucket": dict(Counter(f"{route} @ {major}" for route, major in limits.limited)),
        "not sent (button gone)": tally.not_sent,
        "unanswered because of a kill (excused)": run.excused_count,
        "private answers, most common": Counter(
            r.text.splitlines()[0][:60] if r.text else "(none)"
            for r in run.sent
            if r.ephemeral or not r.messages
        ).most_common(12),
        "log": str(run.bot.log_path),
        "details": {
            "moves lost": tally.moves_lost[:20],
            "double applies": doubles[:20],
            "leaks": tally.leaks[:20],
            "limit violations": violations[:20],
            "unhandled errors": errors[:20],
            "games stuck": tally.stuck,
            "refused yet written": conflicts[:20],
            "tables stalled over 5 s": stalls[:20],
        },
    }


def failed(figures: dict[str, Any]) -> list[str]:
    """The :data:`COUNTS` of a summary that are not 0."""
    return [name for name in COUNTS if figures[name]]

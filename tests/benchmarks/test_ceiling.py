"""The ceiling benchmark at a tiny size: seven tables on SQLite, both designs, a few seconds
(three with computers, Blackjack twice, whose House is no computer burst, and Crazy Eights).

No timing is asserted (the machine is shared): only the report's shape, and that the new
design's member moves and computer moves cost no counted request where today's cost some.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_tiny_ceiling_reports_both_designs(tmp_path: Path) -> None:
    out = tmp_path / "ceiling.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ceiling.py"), "--tables", "7",
         "--seconds", "4", "--warmup", "2", "--pace", "1", "--computer-delay", "0.2",
         "--deployments", "sqlite", "--check-schema", "--json", str(out)],
        capture_output=True, text=True, timeout=150, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "largest N held" in done.stdout
    data = json.loads(out.read_text())
    assert data["benchmark"] == "ceiling"
    assert set(data) >= {"results", "baselines", "ratios", "notes"}
    for entry in data["results"]:
        assert set(entry) == {"case", "metric", "value", "unit"}
    for entry in data["baselines"]:
        assert set(entry) == {"peer", "case", "metric", "value", "unit"}
        assert entry["peer"] == "today's design"
    assert set(data["ratios"]) == {"today's design"}
    assert any("load average" in note for note in data["notes"])
    new, today = (
        {m["metric"]: m["value"] for m in entries if m["case"].endswith(" 7 tables")}
        for entries in (data["results"], data["baselines"])
    )
    # Today's design strips every old table with the bot's token: it does cost. The new one
    # posts through interaction webhooks, but within their limits: a computers' burst past a
    # token's 5 requests per 2 s goes out with the bot's token, so it costs a little, never a
    # webhook 429.
    assert today["counted requests per member move"] > 0
    spent, spent_today = new["counted requests per second"], today["counted requests per second"]
    assert spent <= spent_today / 4, (spent, spent_today)
    steps = data["steps"]
    assert {s["design"] for s in steps} == {"today's design", "new design"}
    for step in steps:  # Discord would have taken every request (bodies checked too)
        assert step["member moves"] > 0
        assert (step["errors"], step["violations"]) == (0, 0), step
        assert step["webhook 429s"] == 0, step

"""Shared test set-up: paths to the shared data and a hypothesis profile for CI."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KOTD_SHARED", ROOT.parent / "shared"))

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def play(table: Any, *lines: str) -> Any:
    """Play action lines at a :class:`rules.table.Table` (text is the tests' edge)."""
    snapshot = table.snapshot
    for line in lines:
        snapshot = table.act(table.parse(line))
    return snapshot

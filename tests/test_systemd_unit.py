"""The systemd unit: hardened like a network service on a Pi should be, camera and GPIO
still reachable, and a start limit so a broken start does not loop forever."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import unit_settings

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "kotd.service"


def settings() -> dict[str, list[str]]:
    """Every ``Key=value`` of the unit (a key may repeat), section-qualified."""
    return unit_settings(UNIT.read_text(encoding="utf-8"))

def test_camera_and_gpio_stay_reachable() -> None:
    unit = settings()
    assert set(unit["Service.SupplementaryGroups"][0].split()) >= {"video", "gpio"}
    for hiding in ("PrivateDevices", "DevicePolicy", "PrivateUsers", "ProcSubset"):
        assert f"Service.{hiding}" not in unit, hiding
    assert unit["Service.ProtectSystem"] == ["strict"]
    assert unit["Service.StateDirectory"] == ["kotd"]  # the game file stays writable


def test_hardening_a_network_service_needs() -> None:
    unit = settings()
    assert "@system-service" in unit["Service.SystemCallFilter"]
    assert any(v.startswith("~") and "@privileged" in v
               for v in unit["Service.SystemCallFilter"])
    assert unit["Service.SystemCallErrorNumber"] == ["EPERM"]
    for key in ("ProtectKernelLogs", "NoNewPrivileges", "RestrictRealtime",
                "ProtectKernelTunables", "ProtectKernelModules", "LockPersonality"):
        assert unit[f"Service.{key}"] == ["yes"], key
    assert unit["Service.ProtectProc"] == ["invisible"]
    assert unit["Service.CapabilityBoundingSet"] == [""]
    assert re.fullmatch(r"\d+[KMG]", unit["Service.MemoryMax"][0])
    assert int(unit["Unit.StartLimitBurst"][0]) <= 10
    assert int(unit["Unit.StartLimitIntervalSec"][0]) >= 60


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_rates_the_exposure_low(tmp_path: Path) -> None:
    copy = tmp_path / "kotd.service"
    copy.write_bytes(UNIT.read_bytes())
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", str(copy)],
                          capture_output=True, text=True, timeout=60)
    match = re.search(r"Overall exposure level for kotd\.service: ([\d.]+)", done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) <= 2.0  # was 3.8 before the filter and the limits

"""The benchmark that weighs candidate HABA networks against the shipped ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "compare_haba_nets.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_the_shipped_networks_against_themselves_change_no_frame() -> None:
    """Each frame is read with both; the same networks give the same score, so no frame is
    listed as changed and every total reads ``n->n``."""
    out = _run("--pips", str(ROOT / "vision" / "models" / "haba_pips.onnx"), "tune:294:2")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines == [lines[-1]] and lines[-1].startswith("tune (2 frames): right ")
    totals = dict(part.split(" ") for part in lines[-1].split(": ", 1)[1].split(", "))
    assert set(totals) == {"right", "asks", "silent", "value", "color", "false"}
    assert all(a == b for a, b in (v.split("->") for v in totals.values()))
    assert int(totals["value"].split("->")[0]) > 0  # the frames' dice were read


def test_an_unknown_set_or_a_missing_network_is_a_clear_error() -> None:
    out = _run("tuning:0:1")
    assert out.returncode != 0
    assert "no set 'tuning'" in out.stderr and "tune" in out.stderr
    out = _run("tune:294")
    assert out.returncode != 0 and "give set:start:count" in out.stderr
    out = _run("--finder", "candidate-finder.onnx", "tune:294:1")
    assert out.returncode != 0 and "no network at candidate-finder.onnx" in out.stderr

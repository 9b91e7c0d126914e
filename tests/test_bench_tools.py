"""The benchmarks that weigh candidate HABA networks against the shipped ones, and one reader
against another frame by frame."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "compare_haba_nets.py"
SCORES = ROOT / "benchmarks" / "score_frames.py"


def _run(*args: str, script: Path = SCRIPT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *args], cwd=ROOT, capture_output=True,
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


def test_a_reader_scored_frame_by_frame_and_compared(tmp_path: Path) -> None:
    """``score_frames.py run`` saves each frame's score; ``diff`` of a run against itself
    lists no frame and totals ``n -> n``; a frame whose score differs is listed, and the
    totals follow it."""
    a = tmp_path / "a.json"
    out = _run("run", str(a), "tune:294:2", script=SCORES)
    assert out.returncode == 0, out.stderr
    scores = json.loads(a.read_text())
    assert sorted(scores) == ["tune:294", "tune:295"]
    assert all(s["value"] > 0 for s in scores.values())  # the frames' dice were read
    out = _run("diff", str(a), str(a), script=SCORES)
    assert out.returncode == 0, out.stderr
    (line,) = out.stdout.strip().splitlines()
    right = scores["tune:294"]["right"] + scores["tune:295"]["right"]
    assert line.startswith(f"tune (2 frames): right {right} -> {right}, asks ")
    b = tmp_path / "b.json"
    scores["tune:295"]["asks"] = 1 - scores["tune:295"]["asks"]
    b.write_text(json.dumps(scores))
    lines = _run("diff", str(a), str(b), script=SCORES).stdout.strip().splitlines()
    was = 1 - scores["tune:295"]["asks"]
    assert lines[0] == f"tune:295: asks {was}->{1 - was}" and len(lines) == 2


def test_runs_with_no_frame_in_common_are_a_clear_error(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"tune:1": {}}))
    b.write_text(json.dumps({"tune:2": {}}))
    out = _run("diff", str(a), str(b), script=SCORES)
    assert out.returncode != 0 and "share no frame" in out.stderr


def test_a_frame_zoomed_onto_its_dice_is_scored_at_their_new_size() -> None:
    """``bench_close.py`` cuts a tuning frame around its dice and scales it back up: tuning
    frame 3's dice, 142 pixels, come out three times as big (426), and are read right without
    asking; a frame whose dice spread over the tray is left out."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_close import close_frame

    got = close_frame(3, None)
    assert got is not None
    zoom, side, right, asks, silent = got
    assert 2.9 < zoom < 3.1 and 400 < side < 450
    assert right and not asks and not silent
    assert close_frame(0, None) is None  # dice over the whole tray: not zoomed 1.5 times

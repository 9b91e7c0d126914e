"""HABA dice reader figures: rendered HABA frames, speed.

Run: .venv/bin/python benchmarks/bench_vision.py [--frames 300] [--seed 7000]
Single-threaded OpenCV. Ordinary dice (real byler-dev photos, tomitomi crops, rendered
trays, their speed) are measured by ``benchmarks/bench_ordinary.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.reader import read_dice  # noqa: E402
from vision.render import random_scene, render_tray  # noqa: E402


def match_rendered(readings, truth) -> tuple[int, int, int, int, bool]:
    """(dice, value right, colour right, extra readings, frame fully right)."""
    used: set[int] = set()
    val = col = 0
    ok = True
    for t in truth:
        best = None
        for j, r in enumerate(readings):
            d = np.hypot(r.center[0] - t.center[0], r.center[1] - t.center[1])
            if j not in used and d < 0.5 * t.size:
                best = j
        if best is None:
            ok = False
            continue
        used.add(best)
        r = readings[best]
        val += r.value == t.value
        col += r.color == t.color
        ok &= r.value == t.value and r.color == t.color
    extra = len(readings) - len(used)
    return len(truth), val, col, extra, ok and extra == 0


def bench_rendered(frames: int, seed: int) -> dict[str, float]:
    dice = val = col = extra = full = 0
    for i in range(frames):
        rng = np.random.default_rng(seed + i)
        frame, truth = render_tray(random_scene(rng, level="mixed"), rng)
        n, v, c, e, ok = match_rendered(read_dice(frame), truth)
        dice, val, col, extra, full = dice + n, val + v, col + c, extra + e, full + ok
    return {"frames": frames, "dice": dice, "value": val / dice, "color": col / dice,
            "frames_right": full / frames, "extra": extra}


def bench_speed(frames: int = 60, seed: int = 90000) -> dict[str, float]:
    read_dice(np.zeros((960, 1280, 3), np.uint8))  # warm-up: first-call set-up in OpenCV
    times = []
    for i in range(frames):
        rng = np.random.default_rng(seed + i)
        frame, _ = render_tray(random_scene(rng, level="mixed"), rng)
        t = time.perf_counter()
        read_dice(frame)
        times.append((time.perf_counter() - t) * 1000)
    return {"median_ms": float(np.median(times)), "p95_ms": float(np.percentile(times, 95))}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--skip", nargs="*", default=[])
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if "rendered" not in args.skip:
        r = bench_rendered(args.frames, args.seed)
        print(f"rendered HABA frames: {r['frames']} frames, {r['dice']} dice: "
              f"value {100 * r['value']:.1f}%, colour {100 * r['color']:.1f}%, "
              f"frames fully right {100 * r['frames_right']:.1f}%, extra dice {r['extra']}")
    if "speed" not in args.skip:
        s = bench_speed()
        print(f"speed 1280x960 HABA, one thread: median {s['median_ms']:.1f} ms, "
              f"p95 {s['p95_ms']:.1f} ms")


if __name__ == "__main__":
    main()

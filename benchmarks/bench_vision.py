"""Dice reader figures: rendered HABA frames, real byler-dev photos, tomitomi crops, speed.

Run: .venv/bin/python benchmarks/bench_vision.py [--frames 300] [--seed 7000]
Single-threaded OpenCV. Shared data from $KOTD_SHARED or ../shared next to the repo.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.reader import read_dice  # noqa: E402
from vision.render import random_scene, render_tray  # noqa: E402

SHARED = Path(os.environ.get("KOTD_SHARED", ROOT.parent / "shared"))


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


def iou(a, b) -> float:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def match_byler(readings, labels) -> tuple[int, int, int, int]:
    """(labelled dice, labelled dice found with the right value, reported, reported matched).

    A reading matches a labelled die when its outline's box has IoU >= 0.5 with the label
    or its centre lies in the label's box; each label is matched at most once.
    """
    used: set[int] = set()
    right = matched = 0
    for r in readings:
        xs, ys = [p[0] for p in r.outline], [p[1] for p in r.outline]
        box = (min(xs), min(ys), max(xs), max(ys))
        best, score = None, 0.0
        for j, lab in enumerate(labels):
            if j in used:
                continue
            b = lab["box"]
            s = iou(box, b)
            inside = b[0] <= r.center[0] <= b[2] and b[1] <= r.center[1] <= b[3]
            if (s >= 0.5 or inside) and max(s, 0.01) > score:
                best, score = j, max(s, 0.01)
        if best is not None:
            used.add(best)
            matched += 1
            right += labels[best]["value"] == r.value
    return len(labels), right, len(readings), matched


def bench_byler() -> dict[str, dict[str, float]]:
    out = {}
    acc: dict[str, list[int]] = {"train": [0, 0, 0, 0], "test": [0, 0, 0, 0]}
    for js in sorted((SHARED / "data" / "byler-dev").glob("*.json")):
        meta = json.loads(js.read_text())
        frame = cv2.imread(str(js.with_name(meta["image"])))
        res = match_byler(read_dice(frame, "standard"), meta["dice"])
        a = acc[meta["author_split"]]
        for k in range(4):
            a[k] += res[k]
    acc["all"] = [acc["train"][k] + acc["test"][k] for k in range(4)]
    for split, (n, right, rep, matched) in acc.items():
        out[split] = {"dice": n, "recall": right / max(n, 1), "precision": matched / max(rep, 1),
                      "reported": rep}
    return out


def bench_tomitomi() -> dict[str, float]:
    """Value accuracy on the odd-numbered tomitomi crops (the even ones train the pip model):
    the reading nearest the crop centre must have the folder's value (no reading: wrong)."""
    n = right = 0
    for v in range(1, 7):
        for i, p in enumerate(sorted((SHARED / "data" / "tomitomi-crops" / str(v)).glob("*.png"))):
            if i % 2 == 0:
                continue
            frame = cv2.imread(str(p))
            h, w = frame.shape[:2]
            readings = read_dice(frame, "standard")
            n += 1
            if readings:
                got = min(readings, key=lambda r: np.hypot(r.center[0] - w / 2,
                                                           r.center[1] - h / 2)).value
                right += got == v
    return {"crops": n, "value": right / n}


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


def bench_speed_standard() -> dict[str, float]:
    """Ordinary dice: every byler-dev photo scaled up to 1280x960, read with the networks."""
    times = []
    for i, p in enumerate(sorted((SHARED / "data" / "byler-dev").glob("*.jpg"))):
        frame = cv2.resize(cv2.imread(str(p)), (1280, 960), interpolation=cv2.INTER_CUBIC)
        if i == 0:
            read_dice(frame, "standard")  # warm-up: loading the networks
        t = time.perf_counter()
        read_dice(frame, "standard")
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
    if "byler" not in args.skip:
        for split, b in bench_byler().items():
            print(f"byler-dev {split}: {b['dice']} dice: value recall {100 * b['recall']:.1f}%, "
                  f"precision {100 * b['precision']:.1f}% ({b['reported']} reported)")
    if "tomitomi" not in args.skip:
        t = bench_tomitomi()
        print(f"tomitomi crops (odd, held out): {t['crops']} crops: "
              f"value {100 * t['value']:.1f}%")
    if "speed" not in args.skip:
        s = bench_speed()
        print(f"speed 1280x960 HABA, one thread: median {s['median_ms']:.1f} ms, "
              f"p95 {s['p95_ms']:.1f} ms")
        s = bench_speed_standard()
        print(f"speed 1280x960 ordinary dice, one thread: median {s['median_ms']:.1f} ms, "
              f"p95 {s['p95_ms']:.1f} ms")


if __name__ == "__main__":
    main()

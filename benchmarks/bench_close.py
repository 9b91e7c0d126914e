"""The HABA reader on photos taken close: tuning frames zoomed in until their dice fill the
frame, scored by die size.

Run: .venv/bin/python benchmarks/bench_close.py [--start 0] [--frames 1500] [--no-count]

Each tuning frame (``haba_sets``, never the judging set) whose dice are all in view is cut
around its dice (half a die's margin) and scaled back to 1280×960, at most five times, so
that the dice come out up to several times the 30-160 pixels the renderer draws (and the
finder learnt); frames whose dice span more than two thirds of the frame are left out. Each
zoomed frame is read told how many dice were thrown (``--no-count``: at most the box's six,
as ``kotd read``) and scored as the judging set is (``vision.render.score``). Printed: frames,
right, asking and silently wrong per 50 pixels of the dice's median side, and each silently
wrong frame. Two worker processes.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import haba_sets  # noqa: E402

from vision.reader import read_dice  # noqa: E402
from vision.render.score import score_frame  # noqa: E402

MOST = 5.0
"""The most a frame is zoomed."""
LEAST = 1.5
"""Frames that cannot be zoomed this much (their dice spread over the tray) are left out."""
BIN = 50


def close_frame(i: int, at_most: int | None) -> tuple[float, float, bool, bool, bool] | None:
    """Tuning frame ``i`` zoomed onto its dice: (zoom, the dice's median side, right, asks,
    silent); None when a die is not in view or the dice do not fit zoomed :data:`LEAST`."""
    cv2.setNumThreads(1)
    img, truth, _ = haba_sets.frame("tune", i)
    if not truth or not all(t.visible for t in truth):
        return None
    h, w = img.shape[:2]
    xs = [x for t in truth for x, _ in t.outline]
    ys = [y for t in truth for _, y in t.outline]
    margin = 0.5 * max(t.size for t in truth)
    x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin
    zoom = min(w / (x1 - x0), h / (y1 - y0), MOST)
    if zoom < LEAST:
        return None
    cw, ch = w / zoom, h / zoom  # the window cut, inside the frame
    ox = min(max((x0 + x1 - cw) / 2, 0.0), w - cw)
    oy = min(max((y0 + y1 - ch) / 2, 0.0), h - ch)
    m = np.array([[zoom, 0, -ox * zoom], [0, zoom, -oy * zoom]], np.float32)
    view = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR)

    def moved(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] - ox) * zoom, (p[1] - oy) * zoom

    seen = [replace(t, center=moved(t.center), outline=tuple(moved(p) for p in t.outline),
                    size=t.size * zoom) for t in truth]
    readings = (read_dice(view, thrown=len(seen)) if at_most is None
                else read_dice(view, at_most=at_most))
    s = score_frame(readings, seen)
    return zoom, float(np.median([t.size for t in seen])), s.right, s.asks, s.silent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--frames", type=int, default=1500)
    parser.add_argument("--no-count", action="store_true",
                        help="not told the count: at most the box's six dice")
    args = parser.parse_args()
    at_most = 6 if args.no_count else None
    todo = range(args.start, args.start + args.frames)
    with ProcessPoolExecutor(2) as pool:
        done = list(pool.map(close_frame, todo, [at_most] * len(todo), chunksize=4))
    rows: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for i, got in zip(todo, done, strict=True):
        if got is None:
            continue
        zoom, side, right, asks, silent = got
        row = rows[int(side // BIN) * BIN]
        row[0] += 1
        row[1] += right
        row[2] += asks
        row[3] += silent
        if silent:
            print(f"silently wrong: tuning frame {i}, zoomed {zoom:.2f}, dice {side:.0f} px")
    print(f"tuning frames {args.start}-{args.start + args.frames - 1} zoomed onto their dice, "
          + ("at most six" if args.no_count else "told the count"))
    print("| dice (px) | frames | right | asking | silently wrong |")
    print("|---|---|---|---|---|")
    for low in sorted(rows):
        print(f"| {low}-{low + BIN} | " + " | ".join(str(k) for k in rows[low]) + " |")


if __name__ == "__main__":
    main()

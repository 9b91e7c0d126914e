"""This checkout's HABA reader frame by frame: each frame's score saved, two runs compared.

Run: .venv/bin/python benchmarks/score_frames.py run OUT.json tune:0:3300 print:0:100
         woven:0:200 steep:0:600 [--no-count]
     .venv/bin/python benchmarks/score_frames.py diff A.json B.json
A change to the reader is measured by ``run`` in a checkout without it and in one with it
(a git worktree; the rendered frames are cached per renderer outside the checkout,
``haba_sets.CACHE``, so every worktree reads the frames the first one drew), then
``diff``: each frame whose score changed, and per set the frames right, asking and silently
wrong before -> after.
Sources as ``compare_haba_nets.py``: ``set:start:count`` of ``haba_sets``, or a directory of
Mitsuba frames. The reader is told how many dice were thrown (``--no-count``: at most the
box's six, as ``kotd read``). Two worker processes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from compare_haba_nets import FIELDS, Job, jobs, source_frame  # noqa: E402

from rules.kotd.cards import load_box  # noqa: E402
from vision.reader import read_dice  # noqa: E402
from vision.render.score import score_frame  # noqa: E402

TOTALS = ("right", "asks", "silent")


def _score(job: Job, at_most: int | None) -> tuple[str, dict[str, int]]:
    cv2.setNumThreads(1)
    img, truth = source_frame(job)
    readings = (read_dice(img, thrown=len(truth)) if at_most is None
                else read_dice(img, at_most=at_most))
    s = score_frame(readings, truth)
    return f"{job[0]}:{job[1]}", {f: int(getattr(s, f)) for f in FIELDS}


def run(out: Path, sources: list[str], at_most: int | None) -> None:
    todo = [j for s in sources for j in jobs(s)]
    with ProcessPoolExecutor(2) as pool:
        scores = dict(pool.map(_score, todo, [at_most] * len(todo), chunksize=8))
    out.write_text(json.dumps(scores, indent=0))
    _totals([scores])


def _set(frame: str) -> str:
    return frame.rsplit(":", 1)[0]


def _totals(runs: list[dict[str, dict[str, int]]]) -> None:
    """Per set, the frames right, asking and silently wrong of each run (``a -> b``)."""
    sums: dict[str, list[dict[str, int]]] = defaultdict(lambda: [defaultdict(int)
                                                                 for _ in runs])
    for k, scores in enumerate(runs):
        for frame, s in scores.items():
            sums[_set(frame)][k]["frames"] += 1
            for f in TOTALS:
                sums[_set(frame)][k][f] += s[f]
    for name, each in sums.items():
        print(f"{name} ({each[0]['frames']} frames): " + ", ".join(
            f"{f} " + " -> ".join(str(e[f]) for e in each) for f in TOTALS))


def diff(a: Path, b: Path) -> None:
    before, after = (json.loads(p.read_text()) for p in (a, b))
    both = [f for f in before if f in after]
    if not both:
        raise SystemExit(f"{a} and {b} share no frame")
    for frame in both:
        x, y = before[frame], after[frame]
        if any(x[f] != y[f] for f in TOTALS):
            print(f"{frame}: " + ", ".join(f"{f} {x[f]}->{y[f]}" for f in FIELDS
                                           if x[f] != y[f]))
    _totals([{f: before[f] for f in both}, {f: after[f] for f in both}])


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="score every frame of the sources, saved to OUT")
    r.add_argument("out", type=Path)
    r.add_argument("sources", nargs="+", help="set:start:count, or a Mitsuba directory")
    r.add_argument("--no-count", action="store_true")
    d = sub.add_parser("diff", help="the frames whose score changed between two runs")
    d.add_argument("a", type=Path)
    d.add_argument("b", type=Path)
    args = parser.parse_args()
    if args.what == "run":
        run(args.out, args.sources, load_box().dice if args.no_count else None)
    else:
        diff(args.a, args.b)


if __name__ == "__main__":
    main()

"""Choose the side catch (:data:`vision.reader.SIDE_CATCH`) on tuning frames.

Run: .venv/bin/python benchmarks/sweep_side_catch.py tune:0:600 steep:0:200 table-tune:0:240
         [--silent-cost 20]

Each frame is read once by this checkout's reader (its networks in ``vision/models/``), told
how many dice were thrown, with no side catch; each sure reading keeps the pair network's
surest "the face beside it is the top, this one is not" (:func:`vision.reader.side_chances`).
Then every catch of :data:`CATCHES` is applied to the same readings and the frames are
scored: per set and in all, frames right, asking, silently wrong. The catch it names is the
one that costs least, a frame silently wrong costing ``--silent-cost`` frames asking (as
``tools/fit_haba_reader.py`` chooses its threshold). Refuses the judging sets.
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

import compare_haba_nets  # noqa: E402
import haba_sets  # noqa: E402

import vision.reader as reader  # noqa: E402
from vision.habanet import HabaNet  # noqa: E402
from vision.pairnet import PairNet  # noqa: E402
from vision.reading import DieReading  # noqa: E402
from vision.render.score import score_frame  # noqa: E402

CATCHES = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)
"""The catches tried (1.01: none)."""
JUDGING = frozenset({"stress", "table"})
_SIDES: list[float] = []


def _keep_sides(frame: np.ndarray, readings: list[DieReading], net: HabaNet,
                pair_net: PairNet) -> list[DieReading]:
    """The reader's side catch, which only notes each reading's side chance."""
    _SIDES[:] = reader.side_chances(frame, readings, net, pair_net)
    return readings


def _frame(job: tuple[str, int]) -> tuple[str, list[tuple[int, int, int]]]:
    """Set name and, per catch, the frame's (right, asks, silent)."""
    cv2.setNumThreads(1)
    reader.doubt_sides = _keep_sides  # type: ignore[assignment]  # in each worker
    img, truth, _ = haba_sets.frame(*job)
    _SIDES.clear()
    readings = reader.read_dice(img, thrown=len(truth))
    sides = list(_SIDES) or [0.0] * len(readings)
    out = []
    for catch in CATCHES:
        caught = [replace(r, confidence=min(r.confidence, reader.DOUBT)) if s >= catch else r
                  for r, s in zip(readings, sides, strict=True)]
        score = score_frame(caught, truth)
        out.append((int(score.right), int(score.asks), int(score.silent)))
    return job[0], out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sources", nargs="+", help="set:start:count of benchmarks/haba_sets.py")
    parser.add_argument("--silent-cost", type=float, default=20.0)
    args = parser.parse_args()
    jobs = [job for source in args.sources for job in compare_haba_nets.jobs(source)]
    if any(name in JUDGING or name not in haba_sets.SETS for name, _ in jobs):
        tuning = ", ".join(sorted(set(haba_sets.SETS) - JUDGING))
        raise SystemExit(f"give tuning sets only ({tuning}), as set:start:count")
    totals: dict[str, np.ndarray] = defaultdict(lambda: np.zeros((len(CATCHES), 3), int))
    with ProcessPoolExecutor(2) as pool:
        for name, out in pool.map(_frame, jobs, chunksize=8):
            totals[name] += np.array(out)
            totals["all"] += np.array(out)
    names = [n for n in totals if n != "all"] + ["all"]
    print("catch | " + " | ".join(f"{n}: right / asks / silent" for n in names))
    for k, catch in enumerate(CATCHES):
        print(f"{catch:.2f} | " + " | ".join(" / ".join(map(str, totals[n][k])) for n in names))
    cost = totals["all"][:, 1] + args.silent_cost * totals["all"][:, 2]
    best = int(np.argmin(cost))
    print(f"least cost (asks + {args.silent_cost:g} x silent): catch {CATCHES[best]:.2f}, "
          f"{totals['all'][best, 1]} asking, {totals['all'][best, 2]} silently wrong "
          f"(now {reader.SIDE_CATCH})")


if __name__ == "__main__":
    main()

"""The HABA reader on the simulated tray: what a newcomer's `make run` throws look like.

Run: .venv/bin/python benchmarks/bench_simtray.py [--throws 200] [--start 0]

Each throw is a landing of :func:`pi.simtray.haba_landing` (six random HABA dice lying still
on the simulated tray, 960×720, every die whole in view), drawn from seed ``10000 + k``, read
told six dice were thrown as the game tells it, and scored as the judging sets are
(:mod:`vision.render.score`). Printed: throws right, asking (and why the least sure die is
doubted), silently wrong. Two worker processes.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pi.simtray import haba_landing  # noqa: E402
from vision.doubt import default_model  # noqa: E402
from vision.reader import read_dice  # noqa: E402
from vision.render.score import score_frame  # noqa: E402

FIRST_SEED = 10_000


def _throw(k: int) -> tuple[bool, bool, bool, str]:
    """Throw ``k``: right, asking, silently wrong, and why its least sure die is doubted."""
    cv2.setNumThreads(1)
    frame, _, truth = haba_landing(np.random.default_rng(FIRST_SEED + k), 960, 720)
    readings = read_dice(frame, thrown=len(truth))
    s = score_frame(readings, truth)
    unsure = sorted((r for r in readings if not r.confident), key=lambda r: r.confidence)
    why = (unsure[0].why or "?") if unsure else ("too few dice" if s.asks else "")
    return s.right, s.asks, s.silent, why


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--throws", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    with ProcessPoolExecutor(2) as pool:
        done = list(pool.map(_throw, range(args.start, args.start + args.throws), chunksize=8))
    right, asks, silent = (sum(d[0] for d in done), sum(d[1] for d in done),
                           sum(d[2] for d in done))
    whys = Counter(d[3] for d in done if d[1])
    print(f"simulated tray, throws {args.start}-{args.start + args.throws - 1}, told six; "
          f"{default_model().fitted_by}")
    print(f"throws right {right} of {len(done)}, asking {asks} ({100 * asks / len(done):.1f}%: "
          + ", ".join(f"{w} {n}" for w, n in whys.most_common()) + f"), silently wrong {silent}")


if __name__ == "__main__":
    main()

"""The HABA reader's CPU time with and without the pair network, side by side.

Run: .venv/bin/python benchmarks/bench_pair_speed.py [--frames 400]
Reads the first judging frames (``haba_sets``, stress set; timing only) told how many dice
were thrown, once with the shipped pair network (:mod:`vision.pairnet`) and once without
(``read_dice(pair_net=False)``), alternating which goes first frame by frame in one
process, so that both meet the same load on a shared machine; prints the thread CPU time
per frame of each (median, p95, mean). Single-threaded OpenCV and networks.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from haba_sets import frames  # noqa: E402

from vision.reader import read_dice  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=400)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    times: dict[bool, list[float]] = {True: [], False: []}
    for k, (_, frame, truth, _) in enumerate(frames("stress", args.frames)):
        for with_pairs in (True, False) if k % 2 else (False, True):
            t = time.thread_time()
            read_dice(frame, thrown=len(truth), pair_net=None if with_pairs else False)
            times[with_pairs].append(time.thread_time() - t)
    for with_pairs, name in ((False, "without the pair network"), (True, "with it")):
        ms = np.array(times[with_pairs]) * 1000
        print(f"{name}: median {np.median(ms):.1f} ms, p95 {np.percentile(ms, 95):.1f} ms, "
              f"mean {ms.mean():.1f} ms ({len(ms)} frames)")


if __name__ == "__main__":
    main()

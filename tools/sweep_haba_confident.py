"""Choose where the HABA reader asks: how many tuning frames ask and are silently wrong for
each threshold of a die's chance (``vision.reading.HABA_CONFIDENT``).

    .venv/bin/python tools/sweep_haba_confident.py [--no-count] [--at 0.7 0.75 0.8 ...]
        [tune:0:600 steep:0:200 table-tune:0:240]

Reads every frame once with the shipped networks, then scores it with each threshold (a
reading below it is flagged for the table). Tuning sets only (``benchmarks/haba_sets.py``);
the judging sets ``stress`` and ``table`` are refused. The chosen threshold is the smallest
that leaves no fewer silently wrong frames than a stricter one would catch cheaply; it goes
into ``vision/reading.py`` with this command.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import haba_sets  # noqa: E402

from vision.reader import read_dice  # noqa: E402
from vision.render.score import score_frame  # noqa: E402

JUDGING = ("stress", "table")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("sources", nargs="*",
                        default=["tune:0:600", "steep:0:200", "table-tune:0:240"])
    parser.add_argument("--at", type=float, nargs="+",
                        default=[0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95])
    parser.add_argument("--no-count", action="store_true",
                        help="not told how many dice were thrown (at most six, as kotd read)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for source in args.sources:
        name, start, count = source.split(":")
        if name in JUDGING or name not in haba_sets.SETS:
            raise SystemExit(f"{name!r}: a tuning set of benchmarks/haba_sets.py, never "
                             "a judging set")
        tally = {t: [0, 0, 0] for t in args.at}
        for i in range(int(start), int(start) + int(count)):
            img, truth, _ = haba_sets.frame(name, i)
            readings = (read_dice(img, at_most=6) if args.no_count
                        else read_dice(img, thrown=len(truth)))
            for t in args.at:
                s = score_frame([replace(r, sure_at=t) for r in readings], truth)
                tally[t][0] += s.asks
                tally[t][1] += s.silent
                tally[t][2] += s.right and not s.asks
        print(f"{source}:")
        for t, (asks, silent, sure) in tally.items():
            print(f"  below {t:.2f} asks: {asks} frames ask, {silent} silently wrong, "
                  f"{sure} right without asking")


if __name__ == "__main__":
    main()

"""The dice's sizes the HABA finder sees well, measured on tuning frames, beside the sizes
its card says the reader looks closer below and from farther above.

    .venv/bin/python benchmarks/bench_haba_finder.py tune:0-119 table-tune:0-119

Each frame is scaled so that its dice span each of :data:`SIZES` finder pixels, and the
finder looks at the whole of it; a die whose top lies flat and whole in view is found when
a peak of at least :data:`vision.habanet.MIN_PEAK` lies within half a die of its centre. It
prints the finder's recall and its peaks on no die per size, and the run of sizes about the
best-seen one where at least ``--recall`` of the dice are found. After the finder is trained
again, this is what its card's ``zoom_below`` and ``far_above``
(``vision/models/haba_nets.toml``) are checked against. Tuning frames only.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from haba_sets import frame, tuning_frames  # noqa: E402

from vision.habanet import MIN_PEAK, HabaNet, default_net  # noqa: E402
from vision.netformat import haba_formats  # noqa: E402
from vision.render.scene import TruthDie  # noqa: E402

SIZES = (8, 10, 12, 14, 16, 18, 20, 22, 24, 27, 30, 34, 38, 43, 48, 55, 62, 70, 80)
"""The dice's sizes measured, in finder pixels (about an eighth apart)."""


@dataclass(frozen=True)
class AtSize:
    """What the finder did with dice of one size: dice found of dice shown, peaks on no die
    in how many frames."""

    found: int
    dice: int
    false: int
    frames: int

    @property
    def recall(self) -> float:
        return self.found / self.dice if self.dice else 0.0


def look_at(net: HabaNet, img: np.ndarray, truth: list[TruthDie], size: float
            ) -> tuple[int, int, int] | None:
    """Dice found, dice shown and peaks on no die in ``img`` scaled so that its dice span
    ``size`` finder pixels (None when that would enlarge the frame or make it tiny)."""
    flat = [t for t in truth if t.visible and not t.leaning]
    if not flat:
        return None
    scale = size / float(np.median([t.size for t in flat]))
    if scale > 1.0 or max(img.shape[:2]) * scale < 64:
        return None
    with net.one_frame(img):
        peaks = [f for f in net.look(img, scale) if f.found >= MIN_PEAK]
    used: set[int] = set()
    found = 0
    for t in flat:
        near = [k for k, f in enumerate(peaks) if math.dist(f.center, t.center) < 0.5 * t.size]
        found += bool(near)
        used.update(near)
    return found, len(flat), len(peaks) - len(used)


def measure(net: HabaNet, frames: list[tuple[str, int]]) -> dict[int, AtSize]:
    """The finder's figures per size of :data:`SIZES` over ``frames``."""
    sums = {s: np.zeros(4, int) for s in SIZES}
    for name, i in frames:
        img, truth, _ = frame(name, i)
        for size in SIZES:
            got = look_at(net, img, truth, size)
            if got is not None:
                sums[size] += (*got, 1)
    return {s: AtSize(*(int(x) for x in v)) for s, v in sums.items()}


def sees_well(at: dict[int, AtSize], recall: float) -> tuple[int, int] | None:
    """The run of sizes about the best-seen one where every size's recall is at least
    ``recall`` (its ends), or None when no size reaches it."""
    sizes = sorted(s for s in at if at[s].dice)
    if not sizes:
        return None
    best = max(sizes, key=lambda s: at[s].recall)
    if at[best].recall < recall:
        return None
    lo = hi = sizes.index(best)
    while lo > 0 and at[sizes[lo - 1]].recall >= recall:
        lo -= 1
    while hi < len(sizes) - 1 and at[sizes[hi + 1]].recall >= recall:
        hi += 1
    return sizes[lo], sizes[hi]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("frames", nargs="*", default=["tune:0-119", "table-tune:0-119"],
                        help="tuning frames, as set:first-last")
    parser.add_argument("--recall", type=float, nargs="+", default=[0.98, 0.99])
    args = parser.parse_args()
    cv2.setNumThreads(1)
    net = default_net()
    if net is None:
        raise SystemExit("the HABA networks are missing")
    at = measure(net, tuning_frames(args.frames))
    for size, a in sorted(at.items()):
        if a.dice:
            print(f"{size:3d} finder px: found {a.found} of {a.dice} dice ({a.recall:.2%}), "
                  f"{a.false / max(a.frames, 1):.2f} peaks on no die a frame")
    for recall in args.recall:
        run = sees_well(at, recall)
        print(f"recall at least {recall:g}: " + (f"from {run[0]} to {run[1]} finder px"
                                                 if run else "at no size"))
    card = haba_formats().finder
    print(f"the card: looks closer below {card.zoom_below:g} (to {card.zoom_side:g}), from "
          f"farther above {card.far_above:g} (to {card.far_side:g})")


if __name__ == "__main__":
    main()

"""Count the ordinary-dice reader's remaining mistakes on a photo part, by kind, per source.

Run: ``.venv/bin/python tools/dice_errors.py [--part tune]`` (a minute of one core). Error
analysis belongs on the ``tune`` parts; a ``judge`` part is read only to report.

Each labelled die falls in one kind (:func:`kind_of_die`), each reading on no die in one of
two, and each frame is counted silently wrong or not, as ``benchmarks/bench_ordinary.py``
counts it. A die is *missed by the finder* when no raw find of the finder (before merging
and the keep threshold) has its centre inside the die's box; *dropped* when one has, but
no reading is left on it; *one of two touching* when the reading that holds its centre was
matched to a neighbour (two dice read as one); *side in view* when it is misread and the
box is at least :data:`TALL` times as tall as it is wide (a tilted camera sees the front).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
from dice_data import PHOTO_SOURCES, SHARED, Photo, load_part, match

from vision.dicenet import DiceNet, FoundDie
from vision.reading import CONFIDENT

TALL = 1.15
"""A box this much taller than wide has a side of the die in view."""
KINDS = ("right, sure", "right, asked", "missed by the finder", "dropped", "one of two touching",
         "misread, sure", "misread, asked", "misread, side in view, sure",
         "misread, side in view, asked", "no die, sure", "no die, asked")


def _holds(box: np.ndarray | tuple[float, ...], point: tuple[float, float]) -> bool:
    return bool(box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3])


def _centre(box: np.ndarray | tuple[float, ...]) -> tuple[float, float]:
    return (float(box[0] + box[2]) / 2, float(box[1] + box[3]) / 2)


def kind_of_die(label: np.ndarray, value: int, read: FoundDie | None, raw: list[np.ndarray],
                readings: list[FoundDie]) -> str:
    """The kind (one of :data:`KINDS`) of the labelled die ``label`` (x0, y0, x1, y1) of
    ``value``, given the reading matched to it (None: none), the finder's raw boxes and
    every reading of the frame."""
    c = _centre(label)
    if read is None:
        if any(_holds(r.box, c) for r in readings):
            return "one of two touching"
        return "dropped" if any(_holds(b, c) for b in raw) else "missed by the finder"
    sure = "sure" if read.confidence >= CONFIDENT else "asked"
    if read.value == value:
        return f"right, {sure}"
    w, h = label[2] - label[0], label[3] - label[1]
    return f"misread, side in view, {sure}" if h >= TALL * w else f"misread, {sure}"


def analyse(net: DiceNet, photos: list[Photo]) -> tuple[Counter[str], int, int]:
    """The count of each kind over ``photos``, the frames silently wrong and the frames."""
    kinds: Counter[str] = Counter()
    silent = 0
    for ph in photos:
        readings = net.read(ph.image)
        raw = [np.asarray(b) for b, _ in net.find(ph.image)]
        labels = match(ph.boxes, [d.box for d in readings])
        by_label = {j: d for d, j in zip(readings, labels, strict=True) if j is not None}
        frame = [kind_of_die(ph.boxes[j], int(ph.values[j]), by_label.get(j), raw, readings)
                 for j in range(len(ph.boxes))]
        frame += ["no die, sure" if d.confidence >= CONFIDENT else "no die, asked"
                  for d, j in zip(readings, labels, strict=True) if j is None]
        kinds.update(frame)
        wrong = any(not k.startswith("right") for k in frame)
        silent += wrong and all(d.confidence >= CONFIDENT for d in readings)
    return kinds, silent, len(photos)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="tune", choices=("train", "tune", "judge"))
    parser.add_argument("--shared", type=Path, default=SHARED)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    net = DiceNet()
    print("| kind | " + " | ".join(PHOTO_SOURCES) + " |")
    print("|---" * (len(PHOTO_SOURCES) + 1) + "|")
    results = {s: analyse(net, load_part(s, args.part, args.shared)) for s in PHOTO_SOURCES}
    for kind in KINDS:
        print(f"| {kind} | " + " | ".join(str(results[s][0][kind]) for s in PHOTO_SOURCES)
              + " |")
    print("| frames silently wrong | " + " | ".join(
        f"{results[s][1]} of {results[s][2]}" for s in PHOTO_SOURCES) + " |")


if __name__ == "__main__":
    main()

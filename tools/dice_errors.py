"""Count the ordinary-dice reader's remaining mistakes on a photo part, by kind, per source.

Run: ``.venv/bin/python tools/dice_errors.py [--part tune] [--source NAME ...]`` (a minute
of one core). Error analysis belongs on the ``train`` and ``tune`` parts; a ``judge`` part is
read only to report.

Each labelled die falls in one kind (:func:`kind_of_die`), each reading on no die in one of
two, and each frame is counted silently wrong or not, as ``benchmarks/bench_ordinary.py``
counts it. A die is *missed by the finder* when no raw find of the finder (before merging
and the keep threshold) has its centre inside the die's box; *dropped* when one has, but
no reading is left on it; *one of two touching* when the reading that holds its centre was
matched to a neighbour (two dice read as one); *side in view* when it is misread and the
box is at least :data:`TALL` times as tall as it is wide (a tilted camera sees the front).

Two more splits say where to look: a right die asked about is asked for the one piece of
evidence that, made sure, would make it confident (:func:`asked_because`: the classical
pip count disagreeing, the pip reader, the finder; "several" when no one alone would); a
reading on no die lies on or beside a labelled die (a second reading of it, a box off the
die) or away from every die (carpet, tray, clutter: :func:`place_of`).
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from dice_data import PHOTO_SOURCES, SHARED, Photo, load_part, match

from vision.dicedecision import Decision, fitted
from vision.dicenet import DiceNet, FoundDie
from vision.reading import CONFIDENT

TALL = 1.15
"""A box this much taller than wide has a side of the die in view."""
KINDS = ("right, sure", "right, asked", "missed by the finder", "dropped", "one of two touching",
         "misread, sure", "misread, asked", "misread, side in view, sure",
         "misread, side in view, asked", "no die, sure", "no die, asked")
ASKED = ("pips disagree", "the pip reader", "the finder", "several")
"""Why a right reading is asked about (:func:`asked_because`)."""
PLACES = ("on or beside a die", "away from the dice")
"""Where a reading on no die lies (:func:`place_of`)."""
BESIDE = 1.0
"""A reading on no die whose centre is nearer a labelled die's centre than this many of
that die's sides is on or beside it."""


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


def asked_because(die: FoundDie, decision: Decision) -> str:
    """Why ``die``, a reading ``decision`` does not call confident, is asked about: the
    classical pip count disagrees (:data:`vision.dicenet.DOUBT` caps it), or the one piece
    of evidence that, were it sure (0.999), would make it confident: the pip reader's
    probability of the value, or the finder's of a die; "several" when neither alone would
    (one of :data:`ASKED`)."""
    if die.pips is not None and die.pips != die.value:
        return "pips disagree"
    if replace(die, read=0.999).confidence_by(decision) >= CONFIDENT:
        return "the pip reader"
    if replace(die, found=0.999, sure=die.sure / max(die.found, 1e-9) * 0.999
               ).confidence_by(decision) >= CONFIDENT:
        return "the finder"
    return "several"


def place_of(box: tuple[float, ...], labels: np.ndarray) -> str:
    """Where a reading on no die with ``box`` lies among the labelled boxes ``labels``
    (n, 4): on or beside one (its centre within :data:`BESIDE` sides of the die's centre),
    or away from them all (one of :data:`PLACES`)."""
    if len(labels):
        cx, cy = _centre(box)
        lx, ly = (labels[:, 0] + labels[:, 2]) / 2, (labels[:, 1] + labels[:, 3]) / 2
        sides = np.sqrt((labels[:, 2] - labels[:, 0]) * (labels[:, 3] - labels[:, 1]))
        if (np.hypot(lx - cx, ly - cy) < BESIDE * sides).any():
            return PLACES[0]
    return PLACES[1]


def analyse(net: DiceNet, photos: list[Photo]) -> tuple[Counter[str], int, int]:
    """The count of each kind over ``photos`` (and of each :data:`ASKED` reason and
    :data:`PLACES` place), the frames silently wrong and the frames."""
    kinds: Counter[str] = Counter()
    decision = fitted()
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
        kinds.update(f"asked: {asked_because(by_label[j], decision)}"
                     for j, k in enumerate(frame[:len(ph.boxes)]) if k == "right, asked")
        kinds.update(f"no die: {place_of(d.box, ph.boxes)}"
                     for d, j in zip(readings, labels, strict=True) if j is None)
        wrong = any(not k.startswith("right") for k in frame)
        silent += wrong and all(d.confidence >= CONFIDENT for d in readings)
    return kinds, silent, len(photos)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="tune", choices=("train", "tune", "judge"))
    parser.add_argument("--source", nargs="*", default=list(PHOTO_SOURCES),
                        choices=PHOTO_SOURCES)
    parser.add_argument("--shared", type=Path, default=SHARED)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    net = DiceNet()
    sources = args.source
    print("| kind | " + " | ".join(sources) + " |")
    print("|---" * (len(sources) + 1) + "|")
    results = {s: analyse(net, load_part(s, args.part, args.shared)) for s in sources}
    rows = [*KINDS, *(f"asked: {a}" for a in ASKED), *(f"no die: {p}" for p in PLACES)]
    for kind in rows:
        print(f"| {kind} | " + " | ".join(str(results[s][0][kind]) for s in sources) + " |")
    print("| frames silently wrong | " + " | ".join(
        f"{results[s][1]} of {results[s][2]}" for s in sources) + " |")


if __name__ == "__main__":
    main()

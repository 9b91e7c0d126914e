"""Synthetic HABA faces for the reader's tests: evidence built by hand, no frame rendered.

``face`` makes a :class:`vision.faces.Face` (a candidate face and its evidence) and ``seen``
a frame of them;
``MODEL`` is a reader model with weights of the signs the physics gives, so that tests of
behaviour do not change when the shipped model is fitted again.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from rules.dice import Color
from vision.choose import TERMS, Shape
from vision.consistency import Belief
from vision.doubt import ReaderModel
from vision.faces import Face, Neighbour, Seen
from vision.habanet import FoundFace
from vision.palette import Palette

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from haba_sets import HELD_OUT, frame, last_roll

COLORS = Palette.default().colors
MIDDLE = (640.0, 480.0)
MODEL = ReaderModel(np.array([1.0, 0.5, -2.0, 1.0, -1.0, -3.0, 1.0, 1.0, -2.0, 3.0, 1.0]),
                    Shape(clip=8.0, out_from_middle=4.0, side_shrink=0.75, changed_from=8.0),
                    0.7, 1.0)
"""Weights per :data:`vision.choose.TERMS`: a die's top is what the networks say, a face
off the dice's size, inward of its neighbour or lying as a side is less likely one, the box
is obeyed, a face whose place changed since the last roll is likelier one and a face lying
still where no die lay less likely, and a face is a die unless the evidence says not; the
shape's numbers are of the sizes the fit chooses among."""
assert len(MODEL.weights) == len(TERMS)


def belief(value: int, color: Color, sure: float = 0.95, color_sure: float = 0.98) -> Belief:
    """A face read as ``value`` and ``color`` this surely, the rest spread evenly."""
    values = np.full(6, (1 - sure) / 5)
    values[value - 1] = sure
    colors = np.full(len(COLORS), (1 - color_sure) / (len(COLORS) - 1))
    colors[COLORS.index(color)] = color_sure
    return Belief(values, colors)


def face(x: float, y: float = 100.0, value: int = 1, color: Color = Color.RED,
         is_die: float = 0.99, side: float = 60.0, found: float = 0.9,
         b: Belief | None = None) -> Face:
    """A face for the fitted model, without neighbours (:func:`seen` adds them)."""
    return Face(FoundFace((x, y), side, 0.0, found), 1.0 - is_die,
                b if b is not None else belief(value, color), np.zeros(2), "first")


def seen(faces: Sequence[Face], tops: dict[tuple[int, int], float] | None = None,
         middle: tuple[float, float] = MIDDLE) -> Seen:
    """A frame of ``faces``; ``tops[a, b]``: the pair network's chance that face *a* is the
    top and *b* not (both ways given for each pair asked; pairs not given are not asked)."""
    tops = tops or {}
    out = []
    for k, f in enumerate(faces):
        near = sorted({j for pair in tops for j in pair if k in pair and j != k})
        out.append(replace(
            f, neighbours=tuple(Neighbour(j, tops[k, j], tops[j, k]) for j in near)))
    return Seen(tuple(out), middle)




class FakeNets:
    """Stand-ins for the finder and pip reader (:class:`vision.habanet.HabaNet`) and the pair
    network, on a grey frame where each face is a square of its own grey level: the finder
    sees ``finds`` (down to each call's least peak), the pip reader reads a face by the grey
    at its crop's middle (``reads``: per face, P(not a die), P(1..6)), the pair network
    answers ``pair`` for every pair."""

    def __init__(self, finds: Sequence[FoundFace], reads: Sequence[Sequence[float]],
                 farther: Sequence[FoundFace] = (), closer: Sequence[FoundFace] = (),
                 pair: Sequence[float] = (0.0, 0.0, 1.0)) -> None:
        import cv2
        self.finds, self.farther, self.closer = list(finds), list(farther), list(closer)
        self.reads = {30 + 10 * k: np.array(r, np.float32) for k, r in enumerate(reads)}
        self.pair = np.array(pair, np.float32)
        self.asked: list[str] = []
        self.numbers: list[np.ndarray] = []
        """The numbers of the pairs the pair network was last asked about."""
        self.frame = np.full((960, 1280, 3), 10, np.uint8)
        for k, f in enumerate([*self.finds, *self.farther, *self.closer]):
            h = f.side / 2
            (x, y) = f.center
            cv2.rectangle(self.frame, (round(x - h / 3), round(y - h / 3)),
                          (round(x + h / 3), round(y + h / 3)), (30 + 10 * k,) * 3, -1)

    def find(self, frame: np.ndarray, min_peak: float = 0.3, dice: float | None = None
             ) -> list[FoundFace]:
        self.asked.append(f"find {min_peak}")
        return [f for f in self.finds if f.found >= min_peak]

    def find_farther(self, frame: np.ndarray) -> list[FoundFace]:
        self.asked.append("farther")
        return list(self.farther)

    def find_closer(self, frame: np.ndarray, side: float) -> list[FoundFace]:
        self.asked.append("closer")
        return list(self.closer)

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        none = np.array([1.0, 0, 0, 0, 0, 0, 0], np.float32)
        return np.array([self.reads.get(int(c[24, 24, 0]), none) for c in crops]
                        ).reshape(-1, 7)

    def chances(self, pairs: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        self.numbers = [numbers for _, numbers in pairs]
        return np.tile(self.pair, (len(pairs), 1))


__all__ = ["COLORS", "HELD_OUT", "MIDDLE", "MODEL", "FakeNets", "belief", "face", "frame",
           "last_roll", "seen"]

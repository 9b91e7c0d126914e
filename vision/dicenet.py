"""Ordinary dice (``--dice standard``) read by two small learned networks.

Ordinary dice come in every body colour, marbled or translucent, with pips of any colour
and sometimes a maker's logo on the one; they touch, lie on patterned trays and cast
shadows. Hand-set thresholds do not hold up on that, so two small networks trained on
real photos and renders do the work (``tools/train_dice_net.py`` makes them; the product
never needs PyTorch):

* the **finder** sees the frame scaled to its size on its longer side and gives, every
  stride pixels, the chance that a die's centre lies there and the die's box size. Peaks of
  that map are the dice. It was trained on dice of a range of sizes at that scale and looks
  a second time at a coarser scale, so the camera's height does not matter within a wide
  range (dice from about 25 pixels wide in a 1280 x 960 frame);
* the **pip reader** looks at each found die, cut from the full-size frame and scaled to its
  crop's size, and says "not a die" or its value 1-6. A crop it is unsure of is read in all
  four quarter turns and the readings averaged.

Both are ONNX files in ``vision/models/``, run by ONNX Runtime where it is installed and
by OpenCV's DNN module otherwise (:mod:`vision.onnxnet`: the same readings, ONNX Runtime
about twice as fast). The format each was trained with (the finder's size, stride, range of
dice and second look; the pip reader's crop and margin) is the network's own: it lives in
``vision/models/dice_nets.toml`` (:mod:`vision.netformat`), which the training tool rewrites
when it exports a network. The finder's size is 512 rather than 384 for the small gamer
dice of a phone photo of trays (25-45 px in 853 x 640: 11-20 px at 384): on the tune parts
the finder finds 94.0% of the rune55 dice at 512 against 90.2% at 448 and 87.2% at 384, the
other sources as many (``benchmarks/bench_ordinary.py --part tune --finder-size N`` compares
them read to the end), for about 8 ms more a frame on one core.

ONNX Runtime runs the pip reader's eight-bit copy (``dice_pips.int8.onnx``,
``tools/quantize_dice_nets.py``; :class:`DiceNet`): about 1.35 times as fast, its
probabilities within about 0.1 of the float reader's; OpenCV runs the float one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.dicedecision import EVIDENCE, Decision, Turning, evidence, fitted
from vision.netformat import dice_formats
from vision.onnxnet import OnnxNet
from vision.pipcount import count_pips
from vision.reading import CONFIDENT
from vision.turns import read_blob_in_turns

MODELS = Path(__file__).with_name("models")
FINDER_ONNX = MODELS / "dice_finder.onnx"
PIPS_ONNX = MODELS / "dice_pips.onnx"
MIN_PEAK = 0.4
"""A peak of the finder's map below this is not a die."""
DOUBT = 0.3
"""The highest confidence of a die whose classical pip count disagrees with the network."""


@dataclass(frozen=True)
class FoundDie:
    """One die as the networks see it, in frame pixels, with the classical count of its
    pips (:mod:`vision.pipcount`; None where that count has no opinion or was not made)
    and how far its size is from the frame's other dice (|log| of its side over their
    median side)."""

    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    value: int
    found: float  # the finder's confidence that a die is there, 0..1
    read: float  # the pip reader's calibrated probability of ``value``, 0..1
    sure: float  # found times the pip reader's probability that it is a die, 0..1
    pips: int | None = None
    odd_size: float = 0.0

    @property
    def center(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2

    @property
    def evidence(self) -> np.ndarray:
        """What the fitted decision weighs (:func:`vision.dicedecision.evidence`)."""
        return self._evidence(self.pips)

    def _evidence(self, pips: int | None) -> np.ndarray:
        return evidence(self.found, self.read, self.sure / max(self.found, 1e-9), pips,
                        self.value, self.odd_size)

    @property
    def confidence(self) -> float:
        """How likely the reading is right, 0..1, as the fitted decision says
        (:mod:`vision.dicedecision`), and at most :data:`DOUBT` where the classical count of
        the pips says another value (two ways of counting disagree: the table should
        look)."""
        return self.confidence_by(fitted())

    def confidence_by(self, decision: Decision) -> float:
        """:attr:`confidence` as ``decision`` says."""
        return self._confidence(decision, self.pips)

    def _confidence(self, decision: Decision, pips: int | None) -> float:
        """:meth:`confidence_by` had the classical count said ``pips`` (without copying the
        die)."""
        conf = decision.confidence(self._evidence(pips))
        return min(conf, DOUBT) if pips is not None and pips != self.value else conf

    def may_be_confident(self, decision: Decision) -> bool:
        """Whether ``decision`` could call this die's reading confident
        (:data:`vision.reading.CONFIDENT`) whatever the classical count of its pips says
        (no opinion, agreeing or not): where it could not, counting them changes no
        reading's "sure or ask" (only how unsure it is)."""
        # a count that disagrees caps the confidence at DOUBT, under CONFIDENT: only no
        # count or an agreeing one can make the die confident (the evidence made once; an
        # agreeing count differs from none only in its "pips agree" entry). Checked against
        # every count by tests/test_dicenet.py.
        none = self._evidence(None)
        if decision.confidence(none) >= CONFIDENT:
            return True
        none[EVIDENCE.index("pips agree")] = 1.0
        return decision.confidence(none) >= CONFIDENT


def crop_for_pips(frame: np.ndarray, box: np.ndarray | Sequence[float], angle: float = 0.0,
                  margin: float | None = None) -> np.ndarray:
    """The die in ``box`` (x0, y0, x1, y1), turned by ``angle`` degrees, as the pip reader's
    square BGR crop with its margin around it (its format in ``dice_nets.toml``, or
    ``margin`` times the die's side)."""
    fmt = dice_formats().pips
    crop = fmt.crop
    x0, y0, x1, y1 = (float(v) for v in box)
    side = np.sqrt(max(x1 - x0, 1.0) * max(y1 - y0, 1.0)) * (margin or fmt.margin)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    scale = crop / side
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale).astype(np.float64)
    m[:, 2] += np.array([crop / 2 - cx, crop / 2 - cy])
    src = frame
    if scale < 0.5:  # shrink a big die in steps so thin pips are not aliased away
        f = max(1, int(0.5 / scale))
        # only the part of the frame the crop can reach (its corners turned any way),
        # cut on multiples of f so it shrinks to the same pixels as the whole frame would
        reach = side * 0.75 + 2 * f
        h, w = frame.shape[:2]
        left = min(max(0, int((cx - reach) // f) * f), max(0, (w - f) // f * f))
        top = min(max(0, int((cy - reach) // f) * f), max(0, (h - f) // f * f))
        right = max(min(w, int(np.ceil((cx + reach) / f)) * f), left + f)
        bottom = max(min(h, int(np.ceil((cy + reach) / f)) * f), top + f)
        src = frame[top:bottom, left:right]
        if f > 1:  # (a resize by 1 would only copy the pixels)
            src = cv2.resize(src, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
        m[:, 2] += m[:, :2] @ np.array([left, top], np.float64)
        m[:, :2] *= f
    return cv2.warpAffine(src, m, (crop, crop), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _shrunk(image: np.ndarray, size: np.ndarray) -> np.ndarray:
    """``image`` scaled down to ``size`` (width, height; at least 16 pixels each)."""
    sw, sh = (max(16, round(float(v))) for v in size)
    return cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def _sides(boxes: np.ndarray) -> np.ndarray:
    """The side (geometric mean of width and height) of each box, (n, 4) -> (n,)."""
    out: np.ndarray = np.sqrt(np.maximum(boxes[:, 2] - boxes[:, 0], 0.0)
                              * np.maximum(boxes[:, 3] - boxes[:, 1], 0.0))
    return out


def _centres(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2


def _reaches(boxes: np.ndarray, margin: float) -> np.ndarray:
    """(n, n): [i, k] True when box k overlaps the square of ``margin`` times box i's side
    around box i's centre (a crop that wide would hold part of it)."""
    half = (margin * _sides(boxes) / 2)[:, None]
    cx, cy = (c[:, None] for c in _centres(boxes))
    out: np.ndarray = ((boxes[None, :, 0] < cx + half) & (boxes[None, :, 2] > cx - half)
                       & (boxes[None, :, 1] < cy + half) & (boxes[None, :, 3] > cy - half))
    return out


def _pips_of(boxes: np.ndarray) -> np.ndarray:
    """(n, n): [s, b] True when box s lies inside box b (its centre does) and is at most
    half its size (s is one of b's pips)."""
    side = _sides(boxes)
    cx, cy = (c[:, None] for c in _centres(boxes))
    out: np.ndarray = ((side[:, None] <= 0.5 * side[None, :])
                       & (boxes[None, :, 0] <= cx) & (cx <= boxes[None, :, 2])
                       & (boxes[None, :, 1] <= cy) & (cy <= boxes[None, :, 3]))
    return out


def _as_array(boxes: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    return np.array(boxes, np.float64).reshape(-1, 4)


def _merged(boxes: np.ndarray) -> list[int]:
    """Indices of ``boxes`` (surest first) kept when, in that order, a box is dropped
    whose centre lies closer than half its side to a kept one's, unless the kept one is
    one of its pips (:meth:`DiceNet.read`)."""
    cx, cy = _centres(boxes)
    close = (np.hypot(cx[:, None] - cx[None, :], cy[:, None] - cy[None, :])
             < 0.5 * _sides(boxes)[:, None]) & ~_pips_of(boxes).T  # [i, k]: k hides i
    kept: list[int] = []
    for i in range(len(boxes)):
        if not close[i, kept].any():
            kept.append(i)
    return kept


def _unnested(boxes: np.ndarray) -> list[int]:
    """Indices of ``boxes`` (surest first) kept when, in that order, a box is dropped
    that is one of a kept one's pips or has a kept one as its pip."""
    pip = _pips_of(boxes)
    nested = pip | pip.T
    kept: list[int] = []
    for i in range(len(boxes)):
        if not nested[i, kept].any():
            kept.append(i)
    return kept


class DiceNet:
    """The two networks, loaded once; safe to call from several threads. ``pips=None``
    loads the finder alone (training uses that to collect the finder's mistakes);
    ``runtime`` ("onnxruntime" or "opencv") chooses what runs them (:mod:`vision.onnxnet`:
    by default ONNX Runtime where it is installed).

    ``int8``: each network's eight-bit copy where one lies beside it (default: unless
    ``KOTD_INT8=0``; :class:`vision.onnxnet.OnnxNet`)."""

    def __init__(self, finder: Path = FINDER_ONNX, pips: Path | None = PIPS_ONNX,
                 runtime: str | None = None, int8: bool | None = None) -> None:
        self._finder = OnnxNet(finder, runtime, int8)
        self._pips = OnnxNet(pips, runtime, int8) if pips is not None else None
        self.runtime = self._finder.runtime

    def find(self, frame: np.ndarray) -> list[tuple[tuple[float, float, float, float], float]]:
        """(box, confidence) of every die the finder sees, in frame pixels (not yet merged).

        The die size is not assumed: the finder looks at two scales, the second for big
        dice (its finds there may also be clusters of small dice; :meth:`read` sorts it out).
        """
        fmt = dice_formats().finder
        h, w = frame.shape[:2]
        src = frame
        while max(src.shape[:2]) >= 2 * fmt.size:  # halve first: cheaper than one big step
            src = cv2.pyrDown(src)
        fine = _shrunk(src, fmt.size / max(h, w) * np.array([w, h], np.float64))
        coarse = _shrunk(fine, fmt.coarse * np.array(fine.shape[1::-1], np.float64))
        return (self._find_in(fine, w, h, 0.0)
                + self._find_in(coarse, w, h, fmt.big_die * fmt.coarse))

    def _find_in(self, small: np.ndarray, w: int, h: int, min_side: float
                 ) -> list[tuple[tuple[float, float, float, float], float]]:
        """Dice the finder sees in ``small``, the frame (``w`` x ``h``) scaled down."""
        fmt = dice_formats().finder
        sh, sw = small.shape[:2]
        scale = max(sw, sh) / max(w, h)
        pw, ph = -sw % fmt.pad, -sh % fmt.pad  # the network halves the size five times
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        out = self._finder(cv2.dnn.blobFromImage(small, 1 / fmt.pixel_max))[0]
        heat = _sigmoid(out[0])
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= MIN_PEAK)
        found = []
        for i, j in zip(*np.nonzero(peaks), strict=True):
            cx = (j + 0.5) * fmt.stride / scale
            cy = (i + 0.5) * fmt.stride / scale
            if cx >= w or cy >= h:
                continue  # in the padding
            bw, bh = np.exp(out[1, i, j]) / scale, np.exp(out[2, i, j]) / scale
            if np.sqrt(bw * bh) * scale < min_side:
                continue  # small for this look: the finer look has it
            found.append(((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2),
                          float(heat[i, j])))
        return found

    def read_pips(self, crops: list[np.ndarray], turning: Turning | None = None) -> np.ndarray:
        """Class probabilities (n, 7) of dice cut by :func:`crop_for_pips`: "not a die"
        and 1-6.

        Each crop is read as it lies; one the reader is not sure of (no class at
        ``turning``'s :attr:`~vision.dicedecision.Turning.sure`, by default 0.98) is read
        again in its other quarter turns (by default all three) and the readings are
        averaged (a die's value does not depend on how it lies).
        """
        if not crops:
            return np.zeros((0, 7), np.float32)
        turning = turning or Turning()
        return read_blob_in_turns(self._classify_blob, self._blob(crops), turning.sure,
                                  turning.turns)

    def look_wider(self, frame: np.ndarray, boxes: list[tuple[float, float, float, float]],
                   probs: np.ndarray, margin: float | None,
                   turning: Turning | None = None) -> np.ndarray:
        """``probs`` (:meth:`read_pips` of ``boxes``' crops) with each die the reader is not
        sure of and that no other find reaches within ``margin`` (the fitted decision's
        :attr:`~vision.dicedecision.Decision.wider`; None: no second look) read again in a
        crop of that margin (in four quarter turns), the two readings averaged.

        A die seen from a tilted camera close by shows a side whose pips crowd the usual
        crop; a wider look shows the top as one face. Where a neighbour is that close, its
        pips would crowd the wider crop instead: no second look.
        """
        if margin is None:
            return probs
        turning = turning or Turning()
        arr = _as_array(boxes)
        crowd = _reaches(arr, margin) & ~_pips_of(arr).T  # [i, k]: k crowds i's wide crop
        np.fill_diagonal(crowd, False)
        again = [int(i) for i in np.nonzero((probs.max(axis=1) < turning.sure)
                                            & ~crowd.any(axis=1))[0]]
        if not again:
            return probs
        wide = read_blob_in_turns(self._classify_blob, self._blob(
            [crop_for_pips(frame, boxes[i], margin=margin) for i in again]), 2.0,
            turning.wide_turns)
        out = probs.copy()
        out[again] = (probs[again] + wide) / 2
        return out

    @staticmethod
    def _blob(crops: list[np.ndarray]) -> np.ndarray:
        """The pip reader's input of ``crops``."""
        blob: np.ndarray = cv2.dnn.blobFromImages(crops, 1 / dice_formats().pips.pixel_max)
        return blob

    def _classify_blob(self, blob: np.ndarray) -> np.ndarray:
        if self._pips is None:
            raise RuntimeError("this DiceNet was made without a pip reader (finder only)")
        return _softmax(self._pips(blob).reshape(len(blob), 7))

    def look(self, frame: np.ndarray, wider: float | None,
             turning: Turning | None = None) -> list[Look]:
        """Every find as the networks see it, before the decision keeps any: :meth:`read`'s
        finds, near ones merged, read by the pip reader (unsure ones in turns as
        ``turning`` says: :meth:`read_pips`), and looked at again ``wider``
        (:meth:`look_wider`). A tool trying decisions reads a frame once per ``wider`` and
        ``turning``."""
        finds = sorted(self.find(frame), key=lambda f: -f[1])
        near = [finds[i] for i in _merged(_as_array([b for b, _ in finds]))]
        crops = [crop_for_pips(frame, box) for box, _ in near]
        probs = self.look_wider(frame, [b for b, _ in near], self.read_pips(crops, turning),
                                wider, turning)
        return [Look(box, conf, crop, p)
                for (box, conf), crop, p in zip(near, crops, probs, strict=True)]

    def read(self, frame: np.ndarray, decision: Decision | None = None) -> list[FoundDie]:
        """Every die found with its value.

        Of two finds closer than half a die, the finder's surer one is kept, unless the
        surer one is at most half the other's size (a die's middle pip, found surer than the
        die, must not hide it: both are read, and the rule below keeps the die). The pip
        reader then reads each; a find whose chance of being a die (:attr:`FoundDie.sure`)
        is under the fitted decision's :attr:`~vision.dicedecision.Decision.keep` is no die
        (``decision``: another than the fitted one, as the fitting tool tries them). Dice do
        not lie on dice: taken surest first, a find is dropped when it lies inside a surer
        one at least twice its size (it is one of that die's pips) or a surer find at most
        half its size lies inside it (it is a cluster of dice, seen from too far). Each die
        kept has its pips counted the classical way too (:func:`vision.pipcount.count_pips`)
        and its size compared with the others'.
        """
        decision = decision or fitted()
        return kept_dice(self.look(frame, decision.wider, decision.turning), decision.keep,
                         decision)


@dataclass(frozen=True)
class Look:
    """One find as the networks see it (:meth:`DiceNet.look`)."""

    box: tuple[float, float, float, float]
    found: float
    """The finder's chance that a die lies there."""
    crop: np.ndarray
    """The pip reader's crop of it."""
    probs: np.ndarray
    """The pip reader's chances: no die, then one to six pips."""


def kept_dice(looks: Sequence[Look], keep: float, counted: Decision | None = None,
              count: Callable[[np.ndarray], int | None] = count_pips) -> list[FoundDie]:
    """The dice among ``looks`` (:meth:`DiceNet.read`): each with a chance of being a die of
    at least ``keep``, none lying inside another, its size compared, its pips counted: all
    of them, or (``counted``) those that decision could call confident
    (:meth:`FoundDie.may_be_confident`; the others' ``pips`` are None, their "ask" the
    same). The fitting tool counts all: the decision is fitted on every count (``count``:
    :func:`~vision.pipcount.count_pips`, or the same remembered)."""
    dice = []
    for lk in looks:
        p = lk.probs
        value = int(np.argmax(p[1:])) + 1
        sure = lk.found * (1.0 - float(p[0]))
        if sure >= keep:
            x0, y0, x1, y1 = (float(v) for v in lk.box)
            dice.append((FoundDie((x0, y0, x1, y1), value, lk.found, float(p[value]), sure),
                         lk.crop))
    dice.sort(key=lambda d: -d[0].sure)
    boxes = _as_array([d.box for d, _ in dice])
    kept = _unnested(boxes)
    sides = _sides(boxes[kept])
    median = float(np.median(sides)) if kept else 1.0
    out = []
    for i, side in zip(kept, sides, strict=True):
        d, crop = dice[i]
        die = FoundDie(d.box, d.value, d.found, d.read, d.sure,
                       odd_size=abs(float(np.log(max(float(side), 1e-6) / median))))
        if counted is None or die.may_be_confident(counted):
            die = FoundDie(d.box, d.value, d.found, d.read, d.sure, count(crop), die.odd_size)
        out.append(die)
    return out


@lru_cache(maxsize=1)
def default_net() -> DiceNet | None:
    """The shipped networks, or None when they have not been trained."""
    if FINDER_ONNX.is_file() and PIPS_ONNX.is_file():
        return DiceNet()
    return None


__all__ = ["DiceNet", "FoundDie", "Look", "crop_for_pips", "default_net", "kept_dice"]

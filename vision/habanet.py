"""HABA dice found and read by two small networks trained on widened renders.

A HABA die is a square body of a known size with a saturated face (painted all over, or a
painted inset with a wooden border) and light pips in a die's layout: that is what the
networks look for, whatever the table, the light or the camera. Colour is *not* asked of
them (it is named against references inside the frame, :mod:`vision.facecolor`).

* the **finder** sees the frame scaled to its size on its longer side, each channel divided
  by its mean (so a coloured light or table shifts nothing), and gives on a grid of its
  stride: the chance that a top face's centre lies there, the
  centre's offset within the cell, the face's side (log pixels) and its turn (the square's
  angle, as cos 4θ and sin 4θ);
* each face's turn is then measured from its own edges on the full-size frame
  (:func:`face_turn`: the finder's guess is coarse on small dice);
* the **pip reader** looks at each found face cut from the full-size frame, turned upright
  and scaled to its crop's size (:func:`face_crop`), each channel divided by its mean, and
  says "not a die" or the value 1-6.

Both are ONNX files in ``vision/models/``, re-made by ``tools/train_haba_net.py``, and run
by ONNX Runtime where it is installed, else by OpenCV's DNN module (:mod:`vision.onnxnet`:
the same outputs either way); ONNX Runtime runs the pip reader's eight-bit copy
(``tools/quantize_haba_nets.py``: its answers within thousandths of the float one's; the
finder's copy let more frames be silently wrong and is not shipped). The format each was
trained with (the finder's size and stride, the pip reader's crop and margin, the channels'
offset) is the network's own: it lives in ``vision/models/haba_nets.toml``
(:mod:`vision.netformat`), which the training tool rewrites when it exports a network.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.netformat import FinderFormat, haba_formats
from vision.onnxnet import OnnxNet
from vision.turns import read_in_turns

MODELS = Path(__file__).with_name("models")
FINDER_ONNX = MODELS / "haba_finder.onnx"
PIPS_ONNX = MODELS / "haba_pips.onnx"
CROP = haba_formats().pips.crop
"""Side of the square crop the pip reader reads, as ``haba_nets.toml`` states it when this
module is first imported (:func:`face_crop` reads the card itself)."""
CROP_MARGIN = haba_formats().pips.margin
"""The crop is this many face sides wide, as ``haba_nets.toml`` states it (as :data:`CROP`)."""
MIN_PEAK = 0.3
"""A finder peak below this is not a die."""
TURN_WINDOW = 48
"""A face's turn is measured on a window this many pixels wide (:func:`face_turn`)."""
HINT_PEAK = 0.1
"""Weaker peaks are not dice but tell where to look again closer."""
ZOOM_BUDGET = 0.6
"""The second look costs at most this share of the first look's pixels."""
WHOLE_ZOOM = 0.6
"""The most a frame is scaled for the finder when small dice are looked for over the whole
frame (:meth:`HabaNet.find_closer`)."""
FAR_STEPS = (2.0, 4.0)
"""When the dice's size is not known, the look from farther shrinks the first look's scale by
each of these in turn (a die up to about 320, then 640 pixels in a 1280-pixel frame)."""
REREAD_BELOW = 0.98
"""A crop whose likeliest class is less sure than this is read again in its three other
quarter turns, and the four readings averaged: a face has no up, the pip reader was
trained on every turn, and its doubts differ from turn to turn (about one face a frame)."""


def normalise(img: np.ndarray, offset: float) -> np.ndarray:
    """Float32 image with each channel divided by its mean plus ``offset``, less one (a
    colour cast or a coloured table then changes little), as the networks see their input
    (each network's ``offset`` is in its format, :mod:`vision.netformat`)."""
    b, g, r, _ = cv2.mean(img)
    per_channel = np.array([[1 / (b + offset), 0, 0, -1], [0, 1 / (g + offset), 0, -1],
                            [0, 0, 1 / (r + offset), -1]], np.float32)
    out: np.ndarray = cv2.transform(img.astype(np.float32), per_channel)
    return out


@dataclass
class _Kept:
    """What one reading of ``frame`` by ``net`` keeps of it (:meth:`HabaNet.one_frame`)."""

    net: object
    frame: np.ndarray
    looks: dict[tuple[tuple[int, int, int, int] | None, float | None], list[FoundFace]] = field(
        default_factory=dict)
    """The finder's looks, by window and scale (:meth:`HabaNet._look`)."""
    turns: dict[tuple[tuple[float, float], float], float | None] = field(default_factory=dict)
    """Each face's turn, by centre and side (:func:`face_turn`)."""
    copies: dict[int, np.ndarray] = field(default_factory=dict)
    """The frame shrunk, by factor (:func:`shrunk`)."""
    wholes: dict[float, np.ndarray] = field(default_factory=dict)
    """The whole frame as the finder saw it, not padded, by scale (:meth:`HabaNet._look`)."""
    read: dict[FoundFace, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    """Each face's crop and reading (:func:`read_faces`)."""


_now = threading.local()
"""The :class:`_Kept` of the reading going on on this thread, if any."""


def _kept(frame: np.ndarray, net: object = None) -> _Kept:
    """What the reading going on keeps of ``frame`` (read by ``net``, when what is kept is the
    net's own); a throwaway when no reading of that frame (by that net) goes on."""
    now: _Kept | None = getattr(_now, "kept", None)
    if now is not None and now.frame is frame and (net is None or now.net is net):
        return now
    return _Kept(net, frame)


def shrunk(frame: np.ndarray, f: int) -> np.ndarray:
    """``frame`` scaled down ``f`` times (area averaging), as a big face is cut from it so
    that thin pips are not aliased away; made once per frame within
    :meth:`HabaNet.one_frame`."""
    copies = _kept(frame).copies
    if f not in copies:
        copies[f] = cv2.resize(frame, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
    return copies[f]


class Reads(Protocol):
    """What reads upright face crops: :class:`HabaNet` (or a stand-in)."""

    def read(self, crops: list[np.ndarray]) -> np.ndarray: ...


def read_faces(net: Reads, frame: np.ndarray, faces: list[FoundFace]
               ) -> tuple[list[np.ndarray], np.ndarray]:
    """Each face's crop (:func:`face_crop`) and its class probabilities (``net.read``);
    within :meth:`HabaNet.one_frame`, a face read before is not read again."""
    kept = _kept(frame, net).read
    new = [f for f in dict.fromkeys(faces) if f not in kept]
    if new:
        crops = [face_crop(frame, f.center, f.side, f.angle) for f in new]
        for f, c, p in zip(new, crops, net.read(crops), strict=True):
            kept[f] = (c, p)
    got = [kept[f] for f in faces]
    return [c for c, _ in got], np.array([p for _, p in got]).reshape(-1, 7)


def face_crop(frame: np.ndarray, center: tuple[float, float], side: float, angle: float,
              size: int | None = None, margin: float | None = None) -> np.ndarray:
    """The face at ``center`` (``side`` pixels, turned ``angle`` degrees), turned upright and
    scaled into a ``size`` square crop ``margin`` face sides wide (BGR, uint8); by default
    the pip reader's crop (its format in ``haba_nets.toml``)."""
    pips = haba_formats().pips
    size = pips.crop if size is None else size
    margin = pips.margin if margin is None else margin
    cx, cy = center
    scale = size / max(side * margin, 1.0)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), scale)
    m[:, 2] += np.array([size / 2 - cx, size / 2 - cy])
    return cut(frame, m, scale, (size, size))


def crop_of(frame: np.ndarray, face: FoundFace) -> np.ndarray:
    """``face``'s crop (:func:`face_crop`): within :meth:`HabaNet.one_frame`, the one cut to
    read it (:func:`read_faces`), when it was read."""
    kept = _kept(frame).read.get(face)
    return kept[0] if kept is not None else face_crop(frame, face.center, face.side, face.angle)


def cut(frame: np.ndarray, m: np.ndarray, scale: float, size: tuple[int, int]) -> np.ndarray:
    """The crop of ``size`` (width, height) that the affine map ``m`` (frame to crop pixels,
    scaling by ``scale``) cuts from ``frame``; a big face is cut from the frame shrunk in
    steps (:func:`shrunk`) so that thin pips are not aliased away."""
    src = frame
    f = int(0.5 / scale) if scale < 0.5 else 1
    if f > 1:
        src = shrunk(frame, f)
        m = m.copy()
        m[:, :2] *= f
    return cv2.warpAffine(src, m, size, flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def face_angle(outline: np.ndarray) -> float:
    """The turn (degrees, 0..90) of a face from its corners in order."""
    d = np.asarray(outline[1], np.float64) - np.asarray(outline[0], np.float64)
    return math.degrees(math.atan2(d[1], d[0])) % 90.0


def face_turn(frame: np.ndarray, center: tuple[float, float], side: float) -> float | None:
    """The turn (degrees, 0..90) of the square face at ``center``, from its own edges.

    Every edge of a square runs at its turn or a quarter-turn from it, so the gradients
    on a ring around the face (where its edges lie, outside the pips), each counted at four
    times its direction, add up along the turn. Measured on the full-size frame (a window
    scaled to :data:`TURN_WINDOW` pixels), this is far surer than the finder's guess on
    small dice. None when the window holds no edges at all.
    """
    cx, cy = center
    r = side * 0.75
    h, w = frame.shape[:2]
    x0, y0 = int(max(0.0, cx - r)), int(max(0.0, cy - r))
    x1, y1 = int(min(w, cx + r + 1)), int(min(h, cy + r + 1))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    f = TURN_WINDOW / max(y1 - y0, x1 - x0)
    win = cv2.resize(frame[y0:y1, x0:x1].astype(np.float32), None, fx=f, fy=f,
                     interpolation=cv2.INTER_AREA if f < 1.0 else cv2.INTER_CUBIC)
    gx = cv2.Scharr(win, cv2.CV_32F, 1, 0).reshape(-1, win.shape[2])
    gy = cv2.Scharr(win, cv2.CV_32F, 0, 1).reshape(-1, win.shape[2])
    power = gx * gx + gy * gy
    pick = np.arange(len(power)) * power.shape[1] + power.argmax(axis=1)  # the edge's channel
    gx, gy, power = gx.ravel()[pick], gy.ravel()[pick], power.ravel()[pick]
    ys, xs = np.divmod(np.arange(len(power), dtype=np.float32), np.float32(win.shape[1]))
    s = side * f
    ring = np.hypot(xs - (cx - x0) * f, ys - (cy - y0) * f) - 0.58 * s  # where edges lie
    near = np.exp(-ring * ring / (2 * (0.16 * s) ** 2))
    strength = np.sqrt(power)
    if float((strength * near).sum()) < 1e-3 * len(power):
        return None
    # each gradient g, of strength |g|, at four times its direction: |g| (g / |g|)^4
    c, d = gx * gx - gy * gy, 2 * gx * gy  # g^2
    weight = near / np.maximum(power * strength, 1e-30)
    z = complex(float((weight * (c * c - d * d)).sum()), float((weight * 2 * c * d).sum()))
    return math.degrees(math.atan2(z.imag, z.real)) / 4 % 90.0


def finder_input(frame: np.ndarray, scale: float | None = None,
                 fmt: FinderFormat | None = None) -> tuple[np.ndarray, float]:
    """The frame as the finder sees it (scaled to its size on its longer side, or by
    ``scale``; padded to a multiple of its pad) and its scale. ``fmt``: the finder's format
    (default: ``haba_nets.toml``'s)."""
    fmt = fmt or haba_formats().finder
    return _padded(scaled_for_finder(frame, scale, fmt=fmt), fmt.pad), (
        fmt.size / max(frame.shape[:2]) if scale is None else scale)


def scaled_for_finder(frame: np.ndarray, scale: float | None = None,
                      twice: np.ndarray | None = None, fmt: FinderFormat | None = None
                      ) -> np.ndarray:
    """The frame scaled as :func:`finder_input` scales it, not yet padded. ``twice``: the
    frame scaled by twice ``scale``, when at hand: halving it (area averaging, like the frame
    itself; the same to rounding) is cheaper than shrinking the frame."""
    fmt = fmt or haba_formats().finder
    h, w = frame.shape[:2]
    if scale is None:
        scale = fmt.size / max(h, w)
    sw, sh = max(fmt.pad, round(w * scale)), max(fmt.pad, round(h * scale))
    if twice is not None:
        out: np.ndarray = cv2.resize(twice, (sw, sh), interpolation=cv2.INTER_AREA)
    else:
        out = cv2.resize(frame, (sw, sh),
                         interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return out


def _padded(small: np.ndarray, pad: int) -> np.ndarray:
    """``small`` padded on the right and bottom to a multiple of ``pad`` (its edge
    repeated)."""
    pw, ph = -small.shape[1] % pad, -small.shape[0] % pad
    if pw or ph:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return small


@dataclass(frozen=True)
class FoundFace:
    """A top face as the finder sees it, in frame pixels."""

    center: tuple[float, float]
    side: float
    angle: float  # degrees, 0..90
    found: float  # 0..1


def _sigmoid(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-x))
    return out


class HabaNet:
    """The two networks, loaded once; safe to call from several threads."""

    def __init__(self, finder: Path = FINDER_ONNX, pips: Path = PIPS_ONNX,
                 use: str | None = None, int8: bool | None = None) -> None:
        """``use``: ``"onnxruntime"`` or ``"opencv"`` (default: :func:`vision.onnxnet.runtime`);
        ``int8``: each network's eight-bit copy where one lies beside it
        (:class:`vision.onnxnet.OnnxNet`). The networks' formats are ``haba_nets.toml``'s
        (:func:`vision.netformat.haba_formats`)."""
        self._finder = OnnxNet(finder, use, int8)
        self._pips = OnnxNet(pips, use, int8)
        self.runtime = self._finder.runtime
        """What runs the networks: ``"onnxruntime"`` or ``"opencv"``."""

    @contextmanager
    def one_frame(self, frame: np.ndarray) -> Iterator[None]:
        """Within, the finder's looks at ``frame`` (the whole of it or a window, at a scale),
        each face's turn and reading (:func:`read_faces`) and the frame's shrunk copies
        (:func:`shrunk`) are kept, on this thread: one reading that finds faces in a frame
        at two thresholds runs the finder once for each look, reads each face once and cuts
        every big face from one shrunk copy. Nothing is kept afterwards (a camera may fill
        the same array with the next frame)."""
        _now.kept = _Kept(self, frame)
        try:
            yield
        finally:
            _now.kept = None

    def look(self, frame: np.ndarray, scale: float) -> list[FoundFace]:
        """The finder's faces (down to :data:`HINT_PEAK`, not turned) in the whole of
        ``frame`` scaled by ``scale``: one look, as :meth:`find` takes them (what
        ``benchmarks/bench_haba_finder.py`` measures)."""
        return self._look(frame, None, scale)

    def _look(self, frame: np.ndarray, box: tuple[int, int, int, int] | None = None,
              scale: float | None = None) -> list[FoundFace]:
        """The finder's faces (down to :data:`HINT_PEAK`) in ``frame``, or in its window
        ``box`` (x0, y0, x1, y1 in frame pixels; the faces then in the window's), the image
        scaled by ``scale`` (default: to the finder's size)."""
        now = _kept(frame, self)
        kept = now.looks
        if (box, scale) in kept:
            return list(kept[box, scale])
        fmt = haba_formats().finder
        image = frame if box is None else frame[box[1]:box[3], box[0]:box[2]]
        used = fmt.size / max(image.shape[:2]) if scale is None else scale
        if box is None:  # the whole frame: kept, and halved for a look from farther
            small = now.wholes[used] = scaled_for_finder(frame, used, now.wholes.get(2 * used),
                                                         fmt)
            small = _padded(small, fmt.pad)
        else:
            small, _ = finder_input(image, used, fmt)
        out = self._finder(cv2.dnn.blobFromImage(normalise(small, fmt.offset)))[0]
        kept[box, scale] = decode(out, used, image.shape[1], image.shape[0], HINT_PEAK,
                                  fmt.stride)
        return list(kept[box, scale])

    def find(self, frame: np.ndarray, min_peak: float = MIN_PEAK, dice: float | None = None
             ) -> list[FoundFace]:
        """Every top face the finder sees (peaks of its map of at least ``min_peak``),
        surest first.

        The sizes of dice the finder sees best are its own (its format,
        :class:`vision.netformat.FinderFormat`). Big dice are looked at from farther: when the
        dice are wider than its ``far_above`` finder pixels (``dice``: their side in frame
        pixels, when known; else the median side of the faces the first look finds surely,
        :data:`MIN_PEAK`), the whole frame is scaled so that they span its ``far_side``.

        Small dice are looked at a second time, closer: when the faces found span fewer
        than its ``zoom_below`` finder pixels, the parts of the frame around them (around
        the weaker peaks of :data:`HINT_PEAK` when none is sure; one window per clump of
        dice, :func:`zoom_windows`) are scaled so that they span its ``zoom_side`` (two
        touching small dice are then two peaks, not one), within a budget of
        :data:`ZOOM_BUDGET` of the first look's pixels.
        """
        hints = self._look(frame)
        found = [f for f in hints if f.found >= min_peak]
        h, w = frame.shape[:2]
        fmt = haba_formats().finder
        scale = fmt.size / max(h, w)
        if dice is None:
            sure = [f.side for f in hints if f.found >= MIN_PEAK]
            dice = float(np.median(sure)) if sure else None
        if dice is not None and dice * scale > fmt.far_above:
            return self._farther(frame, fmt.far_side / dice, min_peak)
        if hints:
            side = float(np.median([f.side for f in found or hints]))
            if side * scale < fmt.zoom_below:
                boxes = zoom_windows([f.center for f in found or hints], 2 * side, w, h)
                area = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
                budget = ZOOM_BUDGET * fmt.size * fmt.size * min(h, w) / max(h, w)
                zoom = min(fmt.zoom_side / side, math.sqrt(budget / area))
                if zoom > 1.2 * scale:
                    found = [replace(f, center=(f.center[0] + x0, f.center[1] + y0))
                             for x0, y0, x1, y1 in boxes
                             for f in self._look(frame, (x0, y0, x1, y1), zoom)
                             if f.found >= min_peak]
                    found.sort(key=lambda f: -f.found)  # surest first across the windows
        return self._turned(frame, found)

    def find_closer(self, frame: np.ndarray, side: float) -> list[FoundFace]:
        """Every top face the finder sees surely (:data:`MIN_PEAK`) in the whole frame
        scaled so that faces of ``side`` pixels span the finder's ``zoom_side`` pixels (at most
        :data:`WHOLE_ZOOM`), surest first; none when the dice are not small
        (its ``zoom_below``). A small die on a busy table may give no peak at all at the first
        look's scale, so :meth:`find` looks at no window around it."""
        h, w = frame.shape[:2]
        fmt = haba_formats().finder
        scale = fmt.size / max(h, w)
        closer = min(fmt.zoom_side / side, WHOLE_ZOOM)
        if side * scale >= fmt.zoom_below or closer <= 1.2 * scale:
            return []
        return self._turned(frame, [f for f in self._look(frame, None, closer)
                                    if f.found >= MIN_PEAK])

    def find_farther(self, frame: np.ndarray) -> list[FoundFace]:
        """The top faces too big for the first look (the finder's ``far_above``) that it sees
        surely (:data:`MIN_PEAK`) in the whole frame looked at from farther, surest first: the
        first look's scale shrunk by each of :data:`FAR_STEPS` in turn, until one finds any.
        Empty when the dice are not that big. (When :meth:`find` sees big dice, it looks from
        farther itself; a die too big may show the first look only its pips, as little dice.)"""
        h, w = frame.shape[:2]
        fmt = haba_formats().finder
        scale = fmt.size / max(h, w)
        for step in FAR_STEPS:
            big = [f for f in self._farther(frame, scale / step, MIN_PEAK)
                   if f.side * scale > fmt.far_above]
            if big:
                return big
        return []

    def _farther(self, frame: np.ndarray, scale: float, min_peak: float) -> list[FoundFace]:
        """The finder's faces (peaks of at least ``min_peak``) in the whole frame scaled by
        ``scale``, turned (:meth:`_turned`), surest first."""
        return self._turned(frame, [f for f in self._look(frame, None, scale)
                                    if f.found >= min_peak])

    def _turned(self, frame: np.ndarray, found: list[FoundFace]) -> list[FoundFace]:
        """``found`` with each face's turn measured from its own edges (:func:`face_turn`;
        kept like the looks within :meth:`one_frame`)."""
        kept = _kept(frame).turns
        out = []
        for f in found:
            if (f.center, f.side) not in kept:
                kept[f.center, f.side] = face_turn(frame, f.center, f.side)
            turn = kept[f.center, f.side]
            out.append(f if turn is None else replace(f, angle=turn))
        return out

    def read(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities (n, 7) of upright face crops: "not a die" and 1-6; a crop
        read less surely than :data:`REREAD_BELOW` is the mean of its four quarter turns."""
        return read_in_turns(self._read_once, crops, REREAD_BELOW)

    def _read_once(self, crops: list[np.ndarray]) -> np.ndarray:
        if not crops:
            return np.zeros((0, 7), np.float32)
        offset = haba_formats().pips.offset
        logits = self._pips(cv2.dnn.blobFromImages([normalise(c, offset) for c in crops]))
        logits = logits.reshape(len(crops), 7)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        out: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return out


def zoom_windows(points: list[tuple[float, float]], margin: float, width: int, height: int
             ) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) around ``points``, ``margin`` pixels each way, inside the
    frame; boxes that overlap are one box, so dice lying far apart are looked at in small
    windows instead of one that spans the tray."""
    # whole pixels before merging: boxes apart as floats may touch once rounded out
    boxes = [(math.floor(max(0.0, x - margin)), math.floor(max(0.0, y - margin)),
              math.ceil(min(float(width), x + margin)), math.ceil(min(float(height), y + margin)))
             for x, y in points]
    windows: list[tuple[int, int, int, int]] = []  # never two that overlap
    for box in boxes:
        while (hit := next((w for w in windows if _overlap(w, box)), None)) is not None:
            windows.remove(hit)
            box = (min(box[0], hit[0]), min(box[1], hit[1]), max(box[2], hit[2]),
                   max(box[3], hit[3]))
        windows.append(box)
    return windows


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def decode(out: np.ndarray, scale: float, width: int, height: int,
           min_peak: float = MIN_PEAK, stride: int | None = None) -> list[FoundFace]:
    """The finder's map (6, h, w) as faces in frame pixels (peaks of at least
    ``min_peak``), surest first; ``stride``: the finder's (default: ``haba_nets.toml``'s)."""
    stride = haba_formats().finder.stride if stride is None else stride
    heat = _sigmoid(out[0])
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= min_peak)
    found = []
    for i, j in zip(*np.nonzero(peaks), strict=True):
        cx = (j + 0.5 + float(out[1, i, j])) * stride / scale
        cy = (i + 0.5 + float(out[2, i, j])) * stride / scale
        if not (0 <= cx < width and 0 <= cy < height):
            continue  # in the padding
        side = float(np.exp(out[3, i, j])) / scale
        angle = math.degrees(math.atan2(float(out[5, i, j]), float(out[4, i, j]))) / 4 % 90
        found.append(FoundFace((cx, cy), side, angle, float(heat[i, j])))
    found.sort(key=lambda f: -f.found)
    return found


@lru_cache(maxsize=1)
def default_net() -> HabaNet | None:
    """The shipped networks, or None when they have not been trained."""
    if FINDER_ONNX.is_file() and PIPS_ONNX.is_file():
        return HabaNet()
    return None


__all__ = ["CROP", "FoundFace", "HabaNet", "crop_of", "cut", "decode", "default_net", "face_angle",
           "face_crop", "face_turn", "finder_input", "normalise", "read_faces",
           "scaled_for_finder", "shrunk"]

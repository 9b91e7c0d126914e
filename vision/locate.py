"""Find the HABA dice in a frame: one rotated rectangle per die top face, before reading it.

The faces are strongly coloured and the tray is not (``find_faces``). After a white
balance, pixels of high chroma whose hue is near a palette hue are the faces. Adjacent
faces of a HABA die never share a colour, and the top face is lit more than the side
faces, so the brightest part of each single-colour region is a top face. (Ordinary dice,
of any colour, are found by the learned finder of :mod:`vision.dicenet`.)

No size is fixed in pixels: the die size is the median of the square candidates in the
frame, and candidates far from it are dropped; touching dice are split with the distance
transform using that size.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.dice import Color
from vision.palette import Palette

WORK_WIDTH = 640
"""Dice are located on a copy at most this wide (faster); pips are read at full size."""
MIN_CHROMA = 18.0
"""Lab chroma above which a pixel may be a face colour (the tray is below it)."""
MAX_HUE_GAP = 0.62
"""Radians a face pixel's hue may be from its palette hue (about 35 degrees)."""
TOP_FACE_LIGHT = 0.8
"""A top-face pixel is at least this fraction as light as its region's 60th percentile."""


@dataclass(frozen=True)
class Candidate:
    """A possible die top face: a rotated rectangle in full-frame pixels."""

    center: tuple[float, float]
    size: tuple[float, float]
    angle: float
    color: Color | None = None

    @property
    def side(self) -> float:
        return float(np.sqrt(self.size[0] * self.size[1]))

    def box(self) -> np.ndarray:
        return cv2.boxPoints((self.center, self.size, self.angle))


@dataclass
class WorkFrame:
    """The frame shrunk for locating, white-balanced, in float Lab.

    The balance is local: the tray is taken to be the pixels of low chroma, its colour is
    smoothed over a width of about a twelfth of the frame, and every pixel is divided by
    it. That evens out light gradients, soft shadows and a cast that varies across the
    tray, so a face in a shadow keeps its colour and lightness. With hardly any tray in
    view, a grey-world balance of the whole frame is used instead.
    """

    scale: float  # work pixels per frame pixel
    lab: np.ndarray
    gains: np.ndarray  # B, G, R multipliers of the grey-world balance
    gain_map: np.ndarray | None = None  # per-channel gains on a coarse grid

    @classmethod
    def of(cls, frame: np.ndarray) -> WorkFrame:
        h, w = frame.shape[:2]
        scale = min(1.0, WORK_WIDTH / w)
        small = frame if scale == 1.0 else cv2.resize(
            frame, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
        gains = balance_gains(small)
        sh, sw = small.shape[:2]
        k = 8
        tw, th = max(4, sw // k), max(4, sh // k)
        tiny8 = cv2.resize(small, (tw, th), interpolation=cv2.INTER_AREA)
        tiny = tiny8.astype(np.float32)
        tlab = to_lab(tiny8, gains)
        table = (np.hypot(tlab[..., 1], tlab[..., 2]) < 0.7 * MIN_CHROMA).astype(np.float32)
        sigma = max(tw, th) / 12.0
        wsum = cv2.GaussianBlur(table, (0, 0), sigma) + 1e-3
        bg = cv2.GaussianBlur(tiny * table[..., None], (0, 0), sigma) / wsum[..., None]
        if table.mean() < 0.2:  # hardly any tray visible: fall back to the global balance
            return cls(scale, to_lab(small, gains), gains)
        level = float(np.median(bg[table > 0]).mean()) if table.any() else 128.0
        gain_map = (level / np.maximum(bg, 8.0)).astype(np.float32)
        full = cv2.resize(gain_map, (sw, sh), interpolation=cv2.INTER_LINEAR)
        return cls(scale, to_lab(small, full), gains, gain_map)

    def gains_at(self, x: float, y: float) -> np.ndarray:
        """The balance gains at frame pixel (x, y)."""
        if self.gain_map is None:
            return self.gains
        th, tw = self.gain_map.shape[:2]
        sh, sw = self.lab.shape[:2]
        i = int(np.clip(y * self.scale * th / sh, 0, th - 1))
        j = int(np.clip(x * self.scale * tw / sw, 0, tw - 1))
        return self.gain_map[i, j]


def balance_gains(bgr: np.ndarray) -> np.ndarray:
    """Grey-world gains from the channel medians (assumes a roughly neutral tray)."""
    med = np.median(bgr[::4, ::4].reshape(-1, 3), axis=0).astype(np.float64) + 1.0
    return (med.mean() / med).astype(np.float32)


def to_lab(bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    f = bgr.astype(np.float32) * (gains / 255.0)
    np.clip(f, 0.0, 1.0, out=f)
    return cv2.cvtColor(f, cv2.COLOR_BGR2Lab)


def _fill(mask: np.ndarray) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(contours)



def _shape(contour: np.ndarray) -> tuple[tuple, float, float, float]:
    """minAreaRect, area, squareness (short/long side) and fill (area / rect area)."""
    hull = cv2.convexHull(contour)  # pips near the edge may notch the outline
    rect = cv2.minAreaRect(hull)
    (w, h) = rect[1]
    area = float(cv2.contourArea(hull))
    sq = min(w, h) / max(w, h, 1e-6)
    return rect, area, sq, area / max(w * h, 1e-6)


def _split(mask: np.ndarray, offset: tuple[int, int], side: float) -> list[tuple]:
    """Rects of the dice in a blob of touching dice (``side`` = die size, work pixels).

    The distance transform above 0.3 die sizes leaves one core per die where the dice
    are separated by a waist; a core that is a row of k dice (no waist) is cut into k.
    Each pixel of the blob then goes to the nearest die centre and each die's rect is the
    minimum rectangle of its pixels.
    """
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    t = 0.3 * side
    cores = (dist > t).astype(np.uint8)
    centres = []
    for c in _fill(cores):
        (cx, cy), (w, h), a = cv2.minAreaRect(c)
        if w * h < 0.02 * side * side:
            continue
        w, h = w + 2 * t, h + 2 * t
        k = max(1, round(max(w, h) / max(min(w, h), 1e-6)))
        axis = np.array([np.cos(np.radians(a)), np.sin(np.radians(a))])
        if h > w:
            axis = np.array([-axis[1], axis[0]])
        step = max(w, h) / k
        for i in range(k):
            off = (i - (k - 1) / 2) * step
            centres.append((cx + off * axis[0], cy + off * axis[1]))
    if not centres:
        return []
    ys, xs = np.nonzero(mask)
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    cen = np.array(centres, np.float32)
    owner = np.argmin(((pts[:, None, :] - cen[None, :, :]) ** 2).sum(axis=2), axis=1)
    rects = []
    for i in range(len(centres)):
        mine = pts[owner == i]
        if len(mine) < 0.3 * side * side:
            continue
        (cx, cy), (w, h), a = cv2.minAreaRect(mine)
        rects.append(((cx + offset[0], cy + offset[1]), (w + 1, h + 1), a))
    return rects


def die_side(rects: list[tuple], one_size: bool = True) -> float | None:
    """The die size: the median side of the square candidate rects.

    Small squares lying inside a bigger one (pips, a printed dot) are left out. With
    ``one_size`` (a set of equal dice, as HABA's) squares under 0.45 of the largest are
    specks and left out too; a block of 2 x 2 touching dice still leaves the single dice.
    """
    if not rects:
        return None
    sides = np.array([np.sqrt(r[1][0] * r[1][1]) for r in rects])
    centres = np.array([r[0] for r in rects])
    keep = []
    for i in range(len(rects)):
        d = np.hypot(*(centres - centres[i]).T)
        inside = (d < 0.5 * sides) & (sides > 1.5 * sides[i]) & (sides < 10 * sides[i])
        if not inside.any():
            keep.append(i)
    s = sides[keep]
    if one_size:
        s = s[s >= 0.45 * s.max()]
    return float(np.median(s))


def _select(rects: list[tuple[tuple, float, float, float]], colors: list[Color | None],
            scale: float, masks: list[tuple[np.ndarray, tuple[int, int]]],
            min_fill: float, min_square: float, sizes: tuple[float, float] = (0.7, 1.4)
            ) -> list[Candidate]:
    """Keep the die-shaped rects, splitting blobs of touching dice, in frame pixels."""
    weighted = colors and colors[0] is not None  # HABA: dice outvote specks
    side = die_side([r[0] for r in rects if r[2] > 0.8 and r[3] > 0.8], weighted)
    if side is None:
        side = die_side([(r[0][0], (np.sqrt(r[1]),) * 2, 0) for r in rects if r[2] > 0.5],
                        weighted)
    if side is None:
        return []
    lo, hi = sizes
    out = []
    for (rect, area, sq, fill), color, (m, off) in zip(rects, colors, masks, strict=True):
        size = np.sqrt(rect[1][0] * rect[1][1])
        if area > 7 * side * side:
            continue  # bigger than six touching dice: a card, a book, the tray
        if (area > 1.5 * side * side or sq < min_square) and fill > 0.5:
            parts = _split(m, off, side)
        elif sq > min_square and fill > min_fill and lo * side < size < hi * side:
            parts = [rect]
        else:
            continue
        for (cx, cy), (w, h), a in parts:
            s = np.sqrt(w * h)
            if not (lo * side < s < hi * side) or min(w, h) / max(w, h) < min_square:
                continue
            out.append(Candidate((cx / scale, cy / scale), (w / scale, h / scale), a, color))
    return out


def find_faces(work: WorkFrame, palette: Palette) -> list[Candidate]:
    """Top faces of HABA dice (see the module notes), each with its region's colour."""
    lab = work.lab
    L, a, b = cv2.split(lab)
    chroma = cv2.magnitude(a, b)
    colors = list(palette.centroids)
    # projection of (a, b) on each palette hue: the largest is the nearest hue, and the
    # hue is within MAX_HUE_GAP when the projection exceeds chroma * cos(MAX_HUE_GAP)
    proj = [cv2.addWeighted(a, float(np.cos(t)), b, float(np.sin(t)), 0.0)
            for t in palette.hue_angles().values()]
    best = proj[0]
    for p in proj[1:]:
        best = cv2.max(best, p)
    ok = (chroma > MIN_CHROMA) & (best > chroma * np.float32(np.cos(MAX_HUE_GAP)))
    min_area = 1e-4 * L.size
    rects, cols, masks = [], [], []
    for i, color in enumerate(colors):
        mask = (ok & (proj[i] >= best)).astype(np.uint8)
        for contour in _fill(mask):
            if cv2.contourArea(contour) < min_area:
                continue
            x, y, w, h = cv2.boundingRect(contour)
            region = np.zeros((h, w), np.uint8)
            cv2.drawContours(region, [contour - [x, y]], -1, 1, -1)
            inside = (region > 0) & (mask[y:y + h, x:x + w] > 0)
            light = L[y:y + h, x:x + w]
            vals = light[inside]
            ref = np.percentile(vals[::max(1, len(vals) // 4000)], 60)
            top = (inside & (light >= TOP_FACE_LIGHT * ref)).astype(np.uint8)
            parts = _fill(top)
            if not parts:
                continue
            biggest = max(cv2.contourArea(p) for p in parts)
            for p in parts:
                if cv2.contourArea(p) < max(0.2 * biggest, min_area):
                    continue
                filled = np.zeros((h, w), np.uint8)
                cv2.drawContours(filled, [p], -1, 1, -1)
                rect, area, sq, fill = _shape(p + np.array([x, y], np.int32))
                rects.append((rect, area, sq, fill))
                cols.append(color)
                masks.append((filled, (x, y)))
    # a top face is parallel to the image: square even near the edge (side faces are not)
    return _select(rects, cols, work.scale, masks, 0.72, 0.85)


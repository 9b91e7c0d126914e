"""Count the pips on one located HABA die top face.

The face is warped to a small square (``CROP`` pixels a side) whatever its size in the
frame, so every threshold below is a fraction of the face. Pips are the pixels whose Lab
colour is far from the face's median colour (cream on a coloured face), grouped into
blobs of about a pip's size; their layout is compared with the six standard layouts to
score the reading.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.locate import Candidate

CROP = 48
"""Side of the warped face in pixels."""
PIP_SPACING = 0.27
"""Distance of the outer pips from the face centre, as a fraction of the side."""
PIP_AREA = np.pi * (0.085 * CROP) ** 2
"""Expected area of one pip in the crop."""

LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([(0, 0)]),
    2: np.array([(-1, -1), (1, 1)]),
    3: np.array([(-1, -1), (0, 0), (1, 1)]),
    4: np.array([(-1, -1), (1, -1), (-1, 1), (1, 1)]),
    5: np.array([(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]),
    6: np.array([(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]),
}
"""Pip positions in units of the spacing."""


@dataclass(frozen=True)
class PipCount:
    value: int | None  # None: not 1-6 pip-like blobs
    fit: float  # 0..1: how well the blobs sit on the standard layout
    pip_mask: np.ndarray  # pixels taken as pips (crop coordinates)


def face_crop(frame: np.ndarray, cand: Candidate, grow: float = 1.0) -> np.ndarray:
    """The candidate's face warped to ``CROP x CROP`` pixels."""
    (cx, cy), (w, h), a = cand.center, cand.size, cand.angle
    src = cv2.boxPoints(((cx, cy), (w * grow, h * grow), a)).astype(np.float32)
    dst = np.array([(0, CROP), (0, 0), (CROP, 0), (CROP, CROP)], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(frame, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def layout_fit(points: np.ndarray, value: int) -> float:
    """1 when the pip centres (in spacing units) sit on the layout of ``value``, to 0."""
    best = np.inf
    for rot in (np.eye(2), np.array([[0, -1], [1, 0]])):
        tpl = LAYOUTS[value] @ rot.T
        d = np.linalg.norm(points[:, None, :] - tpl[None, :, :], axis=2)
        err = max(d.min(axis=1).max(), d.min(axis=0).max())
        best = min(best, err)
    return float(np.clip(1.0 - best / 0.7, 0.0, 1.0))


def count_pips(crop_lab: np.ndarray) -> PipCount:
    """Count pips on a warped face in float Lab (see the module notes).

    Blobs must be roughly round; a blob twice as long as wide and twice a pip's area is
    two merged pips.
    """
    n = CROP
    m = round(0.08 * n)
    inner = crop_lab[m:n - m, m:n - m].reshape(-1, 3)
    face = np.median(inner, axis=0)
    d = crop_lab - face
    dist = np.sqrt((d * d).sum(axis=2))
    border = np.zeros((n, n), bool)
    border[m:n - m, m:n - m] = True
    high = float(np.percentile(dist[border], 99))
    mask = np.zeros((n, n), np.uint8)
    if high < 15.0:
        return PipCount(None, 0.0, mask)
    thr = max(12.0, 0.45 * high)
    mask[(dist > thr) & border] = 1
    count, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    spots = []
    blobs = []
    for i in range(1, count):
        _, _, bw, bh, area = stats[i]
        round_ = area >= 0.4 * bw * bh and max(bw, bh) <= 2.5 * min(bw, bh)
        if 0.2 * PIP_AREA <= area <= 4.0 * PIP_AREA and round_:
            blobs.append(i)
        else:
            mask[labels == i] = 0
    if blobs:
        typical = float(np.median([stats[i, cv2.CC_STAT_AREA] for i in blobs]))
        for i in blobs:
            _, _, bw, bh, area = stats[i]
            if len(blobs) >= 3 and area > 1.7 * typical and max(bw, bh) > 1.6 * min(bw, bh):
                # two pips run together: split along the long side
                ys, xs = np.nonzero(labels == i)
                pts = np.stack([xs, ys], 1).astype(np.float32)
                _, _, centres = cv2.kmeans(pts, 2, None, (cv2.TERM_CRITERIA_EPS, 10, 0.1),
                                           1, cv2.KMEANS_PP_CENTERS)
                spots.extend(centres)
            else:
                spots.append(cents[i])
    if not 1 <= len(spots) <= 6:
        return PipCount(None, 0.0, mask)
    pts = (np.array(spots) - n / 2.0) / (PIP_SPACING * n)
    return PipCount(len(spots), layout_fit(pts, len(spots)), mask)

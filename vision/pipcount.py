"""A classical count of an ordinary die's pips: the second opinion on the pip network.

The die's crop (:func:`vision.dicenet.crop_for_pips`, the die in the middle) is compared
with its body colour, the median of its middle. The top face is the filled outline of the
body-coloured region there (the table, a neighbour and a tilted die's darker side faces
lie outside it); pixels inside it far from the body colour in Lab are pip candidates (pips
of any colour, lighter or darker than the body). Roundish blobs of about one size count.
The count is only given when the blobs sit like the pips of a die face: pairwise distances
in the proportions of the standard layout (whatever the die's turn and size), centred
on the face, and each within a pip's radius of its spot under the affine map of the layout
that fits them best (a face seen at any slant; a leaning die's top pips and a side's beside
them can space like a face's, not lie like one). Otherwise the count is "no opinion"
(None): marbling, glare or low contrast make blobs a classical counter cannot tell from
pips, and then it keeps quiet rather than disagree.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import cv2
import numpy as np

from vision.render import PIP_SPOTS

_PROFILES = {
    n: np.sort([np.hypot(a[0] - b[0], a[1] - b[1])
                for a, b in itertools.combinations(spots, 2)])
    for n, spots in PIP_SPOTS.items() if n >= 3
}
"""Sorted pairwise distances of each layout of three or more pips (in pip spacings)."""
MIN_CONTRAST = 25.0
"""Pips must differ from the body by at least this Lab distance."""
MAX_ASPECT = 1.3
"""The top face's outline is about square: no longer than this times its width."""
MAX_LAYOUT_ERROR = 0.12
"""Largest deviation of the blobs' distance proportions from the layout's (relative)."""


def _layout_error(points: np.ndarray) -> float:
    """How far ``points`` (n, 2) are from the pips of a face of ``n`` (0: exactly)."""
    n = len(points)
    if n <= 2:  # one pip or two: checked by their place on the face (count_pips)
        return 0.0
    i, j = _pairs(n)
    gap = points[i] - points[j]
    d = np.sort(np.hypot(gap[:, 0], gap[:, 1]))
    t = _PROFILES[n]
    scale = float(np.dot(d, t) / np.dot(t, t))
    if scale <= 0:
        return np.inf  # the blobs lie on one spot
    return float(np.abs(d / scale - t).max() / t.max())


def _median(values: np.ndarray) -> np.ndarray:
    """The median of each column of ``values`` (m x 3, uint8) as float32: the number
    :func:`numpy.median` gives of them as float32, found in the uint8 values (the mean
    of two middle integers is exact)."""
    m = len(values)
    part = np.partition(values.T, [(m - 1) // 2, m // 2], axis=1).astype(np.float32)
    out: np.ndarray = (part[:, (m - 1) // 2] + part[:, m // 2]) / np.float32(2)
    return out


def _off_spots(points: np.ndarray) -> float:
    """How far (in pixels) ``points`` (n, 2) lie from the pips of a face of ``n`` seen from
    any side: the face is flat, so its pips are an affine image of the layout's spots
    (turned, leaning away, seen at a slant), each pip on one spot; this is the largest
    distance of a point from its spot under the affine map of the spots, each point given
    to a spot, that fits them best (the least squares map, the assignment whose worst
    point is nearest). The distance proportions (:func:`_layout_error`) cannot tell a face's
    pips from a few that only space alike: three pips on the top face's diagonal and two
    on a side face beside it can have a five's distances, but not a five's shape."""
    n = len(points)
    if n <= 2:  # one pip or two: checked by their place on the face (count_pips)
        return 0.0
    orders, rest = _affine_residual(n)
    off = (rest @ points[orders].transpose(1, 0, 2).reshape(n, -1)).reshape(n, -1, 2)
    return float(np.sqrt(np.einsum("ikd,ikd->ki", off, off).max(axis=1).min()))


@lru_cache(maxsize=8)
def _affine_residual(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The orders of ``n`` points (the spot each takes) that a face of ``n`` can tell
    apart, and the matrix that maps points (n, 2) given in the spots' order to their
    offsets from the affine image of the spots that fits them best (least squares). Two
    orders that an affine map of the spots onto themselves (a turn or mirror of the face)
    takes into each other fit alike: only one of each such set is kept."""
    spots = np.hstack([np.array(PIP_SPOTS[n], np.float64), np.ones((n, 1))])
    rest = np.eye(n) - spots @ np.linalg.pinv(spots)
    every = list(itertools.permutations(range(n)))
    same = [g for g in every if np.abs(rest @ spots[list(g), :2]).max() < 1e-9]
    kept, seen = [], set()
    for order in every:
        if order not in seen:
            kept.append(order)
            for g in same:  # the point on spot j goes on spot g[j]: the same fit
                moved = [0] * n
                for j, i in enumerate(order):
                    moved[g[j]] = i
                seen.add(tuple(moved))
    return np.array(kept), rest


@lru_cache(maxsize=8)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The two indices of every pair of ``n`` points, in :func:`itertools.combinations`'
    order."""
    i, j = np.array(list(itertools.combinations(range(n), 2))).T
    return i, j


@lru_cache(maxsize=4)
def _rings(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(middle, core) of an ``n`` x ``n`` crop: the flat indices (row-major, the order a
    mask picks them in) of its pixels within 0.3 of its side from the centre, and the mask
    of those within 0.15."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) - (n - 1) / 2
    r = np.hypot(xx, yy) / n
    return np.flatnonzero(r < 0.3), r < 0.15


_SQUARE = np.ones((3, 3), np.uint8)


def _face(near: np.ndarray, core: np.ndarray) -> np.ndarray | None:
    """The top face (1, else 0): the filled outline of the body-coloured region in the crop's
    middle (``near``: pixels of about the body's colour; ``core``: the middle), or None when
    there is none."""
    near = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_CLOSE, _SQUARE)
    count, labels = cv2.connectedComponents(near, connectivity=8)
    middle = labels[core & (near > 0)]
    if count < 2 or middle.size == 0:
        return None
    region = (labels == np.bincount(middle).argmax()).astype(np.uint8)
    outline, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(np.concatenate(outline))  # the region's hull is its outline's
    (_, _), (w, h), _ = cv2.minAreaRect(hull)
    if max(w, h) > MAX_ASPECT * max(min(w, h), 1.0):
        return None  # not a square: a side face runs into the top one (a leaning die)
    face = np.zeros(near.shape, np.uint8)
    cv2.fillConvexPoly(face, hull, 1)
    out: np.ndarray = cv2.erode(face, _SQUARE)
    return out


def count_pips(crop: np.ndarray) -> int | None:
    """The number of pips on the top face of the die in ``crop`` (a square BGR crop with
    the die in the middle), or None when the pips cannot be told for sure."""
    n = crop.shape[0]
    middle, core = _rings(n)
    lab8 = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    body = _median(lab8.reshape(-1, 3)[middle])
    diff = lab8.astype(np.float32) - body
    dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    # the threshold from the middle (body and pips; the table shows only at the rim)
    thr, _ = cv2.threshold(np.clip(dist.ravel()[middle], 0, 255).astype(np.uint8)
                           .reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(float(thr), MIN_CONTRAST)
    face = _face(dist <= 0.5 * thr, core)
    if face is None:
        return None
    size, centre = _size_and_centre(face)
    if size < 0.2 * n * n:
        return None
    mask = ((dist > thr) & (face > 0)).astype(np.uint8)
    _, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    side = np.sqrt(size)
    min_area, max_area = 0.006 * side**2, 0.09 * side**2  # a pip: 9-34% of the face across
    bw, bh, area = (stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT],
                    stats[1:, cv2.CC_STAT_AREA])
    pip_like = ((min_area <= area) & (area <= max_area) & (area >= 0.5 * bw * bh)
                & (np.maximum(bw, bh) <= 1.5 * np.minimum(bw, bh)))
    pips = np.nonzero(pip_like)[0] + 1
    if not 1 <= len(pips) <= 6:
        return None
    areas = stats[pips, cv2.CC_STAT_AREA]
    typical = _median_of(areas)
    other = ~pip_like
    if ((area[other] >= 0.5 * typical)
            & (np.minimum(bw[other], bh[other]) >= 0.5 * np.sqrt(typical))).any():
        return None  # a blob of pip size that is no pip (marbling, merged pips): no opinion
    # (thinner ones are edges: the die's bevel, a sliver of side face)
    if areas.max() > 2.0 * areas.min() and len(pips) > 1:
        return None
    pts = cents[pips] - centre
    if np.hypot(*pts.mean(axis=0)) > 0.18 * side:
        return None  # the pips are not centred on the face
    if len(pips) == 1 and np.hypot(*pts[0]) > 0.07 * side:
        return None  # a one's pip lies in the very middle
    if len(pips) == 2:  # opposite corners, nothing between them (a three's middle pip)
        mid = np.round(cents[pips].mean(axis=0)).astype(int)
        if (np.hypot(*(pts[0] - pts[1])) < 0.45 * side
                or dist[mid[1] - 1:mid[1] + 2, mid[0] - 1:mid[0] + 2].max() > 0.5 * thr):
            return None
    if _layout_error(pts) > MAX_LAYOUT_ERROR:
        return None
    if _off_spots(pts) > np.sqrt(typical / np.pi):
        return None  # a pip lies off its spot by more than a pip's radius: not one face's
    return len(pips)


def _size_and_centre(mask: np.ndarray) -> tuple[float, tuple[float, float]]:
    """The number of set pixels of ``mask`` (uint8, 0 or 1) and their mean x and y: the
    numbers NumPy gives of its nonzero pixels' indices (sums of whole numbers, exact in a
    double, divided by the count), from its moments; an empty mask's centre is (0, 0)."""
    m = cv2.moments(mask, binaryImage=True)
    size = m["m00"]
    return size, (m["m10"] / size, m["m01"] / size) if size else (0.0, 0.0)


def _median_of(values: np.ndarray) -> float:
    """:func:`numpy.median` of a few whole numbers (the middle one, or the mean of the two
    middle ones: exact in a double), without its overhead."""
    s = sorted(int(v) for v in values)
    m = len(s)
    return float(s[m // 2]) if m % 2 else (s[m // 2 - 1] + s[m // 2]) / 2


__all__ = ["count_pips"]

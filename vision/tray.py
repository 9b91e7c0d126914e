"""The tray: where dice may lie, marked once at calibration.

A :class:`Tray` is the tray's four corners in the pixels of the camera's frame, in order
around it (clockwise on the picture, starting top left), and the size of the frame they
were marked on. When the tray is known the reader reads the frame told where the camera
stands (:func:`read_in_tray`): the tray's corners, a rectangle on the table, give the
camera's tilt and so its nadir (:meth:`Tray.nadir`), the point straight below it, towards
which a die's side shows, and where a die may lie (:meth:`Tray.holds`): the reader
chooses only among faces that stand in the tray (:meth:`Tray.foot`: a top's centre moved
down to the table, towards the nadir), so a printed die on a card beside the tray is never
a die, nor takes a die's place, and a die at the far wall, whose top a camera at an angle
sees beyond the tray's floor, is read.
Without a tray, nothing of this runs.

The frame is not rectified for reading: the reader's networks learnt dice as a camera sees
them, and read a rectified desk-arm frame much worse (``docs/log/2026-11-29-issue-44.md``,
twelfth session); the motion check and the colour calibration look at the rectified tray
(:meth:`Tray.rectify`).

The corners come from four taps on the page's live view, from the command line
(``kotd calibrate --tray x1,y1,...``), or from :func:`find_tray`, which looks for the tray's
edge and offers a suggestion for people to confirm. Corners that outline no tray (not
four, outside the frame, crossing, not convex, too small) are a :class:`TrayError`.
Where the tray is kept is not decided here: callers hand the path (the data directory).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from rules.errors import TrayError
from vision.reading import DieReading, Holds

Point = tuple[float, float]
TRAY_FILE = "tray.json"
"""The tray's file in the data directory the caller hands down."""
SMALLEST = 0.02
"""A tray covers at least this share of the frame (a smaller quad is a slip of a finger)."""
FOCAL = 0.9
"""The camera's focal length in frame widths when the tray's corners cannot tell it
(:meth:`Tray.focal`): the Raspberry Pi camera modules' standard lenses (0.74-1.05)."""
FOCAL_RANGE = (0.5, 3.5)
"""The focal lengths (frame widths) a camera over a tray may have: from a wide phone lens to
a long one; a tray's corners that imply another were tapped too roughly to tell."""
MOST_TILT = 40.0
"""The largest tilt from straight down (degrees) the page accepts without advice: the reader
was trained and judged up to a desk arm's 35°; further over, dice hide each other."""


def _ordered(points: Sequence[Point]) -> tuple[Point, ...]:
    """The same cycle of corners, turned to run clockwise on the picture (y down) and to
    start at the corner nearest the picture's top left."""
    pts = list(points)
    area2 = sum(pts[i][0] * pts[i - 3][1] - pts[i - 3][0] * pts[i][1] for i in range(4))
    if area2 < 0:  # counter-clockwise on the picture: reverse the cycle
        pts = pts[::-1]
    first = min(range(4), key=lambda i: pts[i][0] + pts[i][1])
    return tuple(pts[first:] + pts[:first])


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    d1, d2 = _cross(r, s, p), _cross(r, s, q)
    d3, d4 = _cross(p, q, r), _cross(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


def _check(points: Sequence[Point], width: int, height: int) -> None:
    """Refuse corners that outline no tray in a ``width`` x ``height`` frame."""
    if len(points) != 4:
        raise TrayError("corners", "a tray has four corners, not {count}: tap its four "
                        "corners in order around it", count=len(points))
    for x, y in points:
        if not (0 <= x <= width and 0 <= y <= height):
            raise TrayError("outside", "the corner ({x:.0f}, {y:.0f}) lies outside the "
                            "picture ({width} x {height})", x=float(x), y=float(y),
                            width=width, height=height)
    a, b, c, d = points
    if _segments_cross(a, b, c, d) or _segments_cross(b, c, d, a):
        raise TrayError("crossing", "the tray's sides cross: give its corners in order "
                        "around it, not across")
    turns = [_cross(points[i - 1], points[i], points[(i + 1) % 4]) for i in range(4)]
    if not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        raise TrayError("concave", "these four corners do not outline a tray (one lies "
                        "inside the others or on a line with two of them)")
    if abs(sum(turns)) / 4 < SMALLEST * width * height:  # sum of turns = 4 x area
        raise TrayError("small", "the tray marked is too small: its corners are where the "
                        "tray's floor meets its walls")


@dataclass(frozen=True, slots=True)
class Tray:
    """The tray's corners in pixels of a ``width`` x ``height`` frame, clockwise from the
    top left. Make one with :meth:`mark` (checked), never by hand."""

    corners: tuple[Point, Point, Point, Point]
    width: int
    height: int

    @classmethod
    def mark(cls, points: Sequence[Sequence[float]], width: int, height: int) -> Tray:
        """The tray with these corners (in order around it, either way round), checked."""
        try:
            pts = [(float(x), float(y)) for x, y in points]
        except (TypeError, ValueError):
            raise TrayError("points", "a corner is two numbers, x and y in pixels of the "
                            "picture") from None
        _check(pts, width, height)
        a, b, c, d = _ordered(pts)
        return cls((a, b, c, d), int(width), int(height))

    @classmethod
    def parse(cls, text: str, width: int, height: int) -> Tray:
        """``"x1,y1,x2,y2,x3,y3,x4,y4"`` (pixels of the frame) as a tray."""
        try:
            numbers = [float(t) for t in text.replace(";", ",").split(",") if t.strip()]
        except ValueError:
            raise TrayError("syntax", "{text!r}: give the tray's corners as x1,y1,x2,y2,"
                            "x3,y3,x4,y4 in pixels", text=text) from None
        if len(numbers) % 2:
            raise TrayError("syntax", "{text!r}: give the tray's corners as x1,y1,x2,y2,"
                            "x3,y3,x4,y4 in pixels", text=text)
        return cls.mark(list(zip(numbers[::2], numbers[1::2], strict=True)), width, height)

    # ---- geometry ----------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        """The rectified tray's width and height: its sides' mean lengths, opposite pairs."""
        a, b, c, d = (np.array(p) for p in self.corners)
        w = (np.linalg.norm(b - a) + np.linalg.norm(c - d)) / 2
        h = (np.linalg.norm(d - a) + np.linalg.norm(c - b)) / 2
        return max(1, round(float(w))), max(1, round(float(h)))

    def homography(self) -> np.ndarray:
        """Frame pixels to the rectified tray's pixels."""
        w, h = self.size
        src = np.array(self.corners, np.float32)
        dst = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
        matrix: np.ndarray = cv2.getPerspectiveTransform(src, dst)
        return matrix

    def contains(self, point: Sequence[float]) -> bool:
        """True when ``point`` (frame pixels) lies in the tray or on its edge."""
        contour = np.array(self.corners, np.float32).reshape(-1, 1, 2)
        return bool(cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])),
                                         False) >= 0)

    def focal(self, telling_tilt: float | None = None) -> float | None:
        """The camera's focal length in frame widths, as the tray's corners imply it (the
        principal point the frame's middle): the tray is a rectangle, so the points where
        its opposite sides meet in the picture lie in directions at right angles. None when
        the picture cannot tell (a pair of sides parallel in it: the camera tilted along a
        side, or not at all), tells a length outside :data:`FOCAL_RANGE`, or a tilt under
        ``telling_tilt`` degrees (default: the fitted
        :attr:`vision.doubt.ReaderModel.telling_tilt`; less tilted, the points where the
        tray's sides meet lie so far out that a tapping error of a few pixels moves the
        length a lot)."""
        a, b, c, d = (np.array([x, y, 1.0]) for x, y in self.corners)
        first = np.cross(np.cross(a, b), np.cross(d, c))
        second = np.cross(np.cross(a, d), np.cross(b, c))
        middle = np.array([self.width / 2, self.height / 2])
        apart = first[:2] - middle * first[2], second[:2] - middle * second[2]
        scale = float(np.linalg.norm(apart[0]) * np.linalg.norm(apart[1]))
        depth = float(first[2] * second[2])
        if scale <= 0 or abs(depth) * self.width ** 2 < 1e-6 * scale:
            return None
        f2 = -float(apart[0] @ apart[1]) / depth
        lo, hi = FOCAL_RANGE
        if not (lo * self.width) ** 2 < f2 < (hi * self.width) ** 2:
            return None
        focal = math.sqrt(f2) / self.width
        if telling_tilt is None:
            from vision.doubt import default_model  # the fitted tray, loaded when used

            telling_tilt = default_model().telling_tilt
        return focal if self.tilt(focal) >= telling_tilt else None

    def _focal(self, focal: float | None) -> float:
        """``focal`` when given, else the corners' (:meth:`focal`), else :data:`FOCAL`."""
        return focal or self.focal() or FOCAL

    def _down(self, focal: float) -> tuple[np.ndarray, np.ndarray]:
        """The camera's matrix (focal length ``focal`` frame widths, principal point the
        frame's middle) and the table's unit normal in the camera's frame, pointing down
        into the table. The tray is a rectangle on the table: its corners' homography gives
        the directions of its two sides as the camera sees them, and the normal is their
        cross product."""
        f = focal * self.width
        square = np.array([(0, 0), (1, 0), (1, 1), (0, 1)], np.float32)
        h = cv2.getPerspectiveTransform(square, np.array(self.corners, np.float32))
        k = np.array([[f, 0.0, self.width / 2], [0.0, f, self.height / 2], [0.0, 0.0, 1.0]])
        k_inv = np.linalg.inv(k)
        across, along = k_inv @ h[:, 0], k_inv @ h[:, 1]
        normal = np.cross(across / np.linalg.norm(across), along / np.linalg.norm(along))
        return k, normal / np.linalg.norm(normal) * np.sign(normal[2])

    def tilt(self, focal: float | None = None) -> float:
        """How far the camera looks from straight down at the table, in degrees (``focal``
        as :meth:`nadir` takes it)."""
        _, down = self._down(self._focal(focal))
        return math.degrees(math.acos(min(1.0, abs(float(down[2])))))

    def _below(self, focal: float) -> np.ndarray:
        """The nadir in homogeneous frame pixels: the camera's matrix times the table's
        normal (:meth:`_down`)."""
        k, down = self._down(focal)
        below: np.ndarray = k @ down
        return below

    def nadir(self, focal: float | None = None) -> Point:
        """The point straight below the camera, in frame pixels: where the picture's
        vertical lines meet (``focal``: the camera's focal length in frame widths; None: as
        the corners tell it, else :data:`FOCAL`). Under a camera looking straight down it is
        the middle of the frame; it lies ``focal`` × tan(tilt) from it, under a desk arm's
        30° below the frame. Its direction from the middle does not depend on the focal
        length, its distance does."""
        return _pixel(self._below(self._focal(focal)))

    def foot(self, point: Sequence[float], size: float, focal: float | None = None) -> Point:
        """Where a die's top seen at ``point`` (frame pixels), ``size`` pixels across, stands
        on the table: its centre moved towards the nadir by the die's height. (The top lies
        one die edge above the table; seen ``size`` pixels across at ``f`` pixels' focal
        length, that edge is ``size / f`` of its depth.)"""
        focal = self._focal(focal)
        return _moved_down(point, size / (focal * self.width), self._below(focal))

    def _out_by(self, focal: float | None) -> Callable[[Point, float], float]:
        """How far outside the tray a die's top seen at a point (frame pixels), so many
        pixels across, stands (:meth:`foot`), in its own sizes (less than 0 inside); the
        camera worked out once."""
        focal = self._focal(focal)
        below, f = self._below(focal), focal * self.width
        contour = np.array(self.corners, np.float32).reshape(-1, 1, 2)

        def out_by(point: Point, size: float) -> float:
            return float(-cv2.pointPolygonTest(contour, _moved_down(point, size / f, below),
                                               True) / size)
        return out_by

    def beyond(self, readings: Sequence[DieReading], focal: float | None = None
               ) -> list[float]:
        """How far outside the tray each of ``readings`` stands (:meth:`foot`), in its own
        sizes (less than 0 inside)."""
        out_by = self._out_by(focal)
        return [out_by(r.center, r.size) for r in readings]

    def holds(self, outside: float, focal: float | None = None) -> Holds:
        """Where a die may lie: whether a die's top seen at a point (frame pixels), so many
        pixels across, stands (:meth:`foot`) at most ``outside`` of its size outside the
        tray. The reader chooses only among faces there (:func:`read_in_tray`)."""
        out_by = self._out_by(focal)
        return lambda point, size: out_by(point, size) <= outside

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The tray as seen from straight above: an upright picture of :attr:`size`."""
        picture: np.ndarray = cv2.warpPerspective(frame, self.homography(), self.size,
                                                  flags=cv2.INTER_LINEAR)
        return picture

    def fitted(self, width: int, height: int) -> Tray:
        """The same tray in a frame of another size (the camera's mode changed)."""
        if (width, height) == (self.width, self.height):
            return self
        sx, sy = width / self.width, height / self.height
        a, b, c, d = ((x * sx, y * sy) for x, y in self.corners)
        return replace(self, corners=(a, b, c, d), width=width, height=height)

    # ---- at the edges --------------------------------------------------------------

    def fractions(self) -> tuple[Point, ...]:
        """The corners as fractions of the picture (for the page)."""
        return tuple((round(x / self.width, 4), round(y / self.height, 4))
                     for x, y in self.corners)

    def to_json(self) -> dict[str, object]:
        return {"corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
                "width": self.width, "height": self.height}

    @classmethod
    def from_json(cls, data: object) -> Tray:
        """A tray from :meth:`to_json` (checked again: a file may be edited)."""
        try:
            assert isinstance(data, dict)
            return cls.mark(data["corners"], int(data["width"]), int(data["height"]))
        except (AssertionError, KeyError, TypeError, ValueError, IndexError):
            raise TrayError("file", "the tray file is damaged: mark the tray again") from None

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Tray:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            raise TrayError("file", "the tray file is damaged: mark the tray again") from None
        return cls.from_json(data)


def _pixel(point: np.ndarray) -> Point:
    """A homogeneous point as frame pixels."""
    x, y, w = point
    return float(x / w), float(y / w)


def _moved_down(point: Sequence[float], rise: float, below: np.ndarray) -> Point:
    """``point`` moved towards the nadir (``below``, homogeneous) by ``rise`` of its depth:
    a top seen at ``point`` one die edge above the table, that edge ``rise`` of its depth."""
    return _pixel(np.array([point[0], point[1], 1.0]) + rise * below)


def read_in_tray(read: Callable[[np.ndarray, Point, Holds], Sequence[DieReading]],
                 frame: np.ndarray, tray: Tray, outside: float | None = None,
                 focal: float | None = None) -> list[DieReading]:
    """The dice ``read(frame, nadir, holds)`` finds, told the camera's nadir
    (:meth:`Tray.nadir`) and where a die may lie (:meth:`Tray.holds`: at most ``outside`` of
    its size outside the tray; default: the reader's fitted
    :attr:`vision.doubt.ReaderModel.outside`). The reader chooses only among faces there
    (:func:`vision.reader.read_dice`'s ``holds``), so a die printed on a card beside the
    tray never stands in for a die in it."""
    if outside is None:
        from vision.doubt import default_model  # the reader's model, loaded when reading

        outside = default_model().outside
    height, width = frame.shape[:2]
    fitted = tray.fitted(width, height)
    focal = fitted._focal(focal)
    return list(read(frame, fitted.nadir(focal), fitted.holds(outside, focal)))


def find_tray(frame: np.ndarray) -> Tray | None:
    """A suggestion for the tray: the largest convex four-cornered outline in the frame's
    edges that covers more than a fifth of it (None when there is none). People confirm it."""
    height, width = frame.shape[:2]
    scale = 640 / max(width, height)
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else frame
    scale = min(scale, 1.0)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    best: tuple[float, np.ndarray] | None = None
    for contour in contours:
        hull = cv2.convexHull(contour)
        quad = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
        area = cv2.contourArea(quad)
        if len(quad) == 4 and area > 0.2 * grey.size and area < 0.97 * grey.size \
                and (best is None or area > best[0]):
            best = (area, quad.reshape(4, 2) / scale)
    if best is None:
        return None
    corners = [(float(np.clip(x, 0, width)), float(np.clip(y, 0, height))) for x, y in best[1]]
    try:
        return Tray.mark(corners, width, height)
    except TrayError:
        return None

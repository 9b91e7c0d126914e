"""The tray: where dice may lie, marked once at calibration.

A :class:`Tray` is the tray's four corners in the pixels of the camera's frame, in order
around it (clockwise on the picture, starting top left), and the size of the frame they
were marked on. When the tray is known the reader reads only the tray (:func:`read_in_tray`):
the frame is rectified first (a homography from the four corners to an upright rectangle
of the tray's aspect, so a camera at an angle sees the tray as from above), the dice are
read there, and their centres and outlines are mapped back to frame pixels. A reading
whose centre lies outside the tray is dropped: a printed die on a card beside the tray is
never a die. Without a tray, nothing of this runs.

The corners come from four taps on the page's live view, from the command line
(``kotd calibrate --tray x1,y1,...``), or from :func:`find_tray`, which looks for the tray's
edge and offers a suggestion for people to confirm. Corners that outline no tray (not
four, outside the frame, crossing, not convex, too small) are a :class:`TrayError`.
Where the tray is kept is not decided here: callers hand the path (the data directory).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from rules.errors import TrayError
from vision.reading import DieReading

Point = tuple[float, float]
TRAY_FILE = "tray.json"
"""The tray's file in the data directory the caller hands down."""
SMALLEST = 0.02
"""A tray covers at least this share of the frame (a smaller quad is a slip of a finger)."""


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

    def rectify(self, frame: np.ndarray) -> np.ndarray:
        """The tray as seen from straight above: an upright picture of :attr:`size`."""
        picture: np.ndarray = cv2.warpPerspective(frame, self.homography(), self.size,
                                                  flags=cv2.INTER_LINEAR)
        return picture

    def rectify_points(self, points: np.ndarray) -> np.ndarray:
        """(n, 2) frame pixels to rectified pixels."""
        return _transform(points, self.homography())

    def unrectify(self, points: np.ndarray) -> np.ndarray:
        """(n, 2) rectified pixels back to frame pixels."""
        return _transform(points, np.linalg.inv(self.homography()))

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


def _transform(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    out: np.ndarray = cv2.perspectiveTransform(pts, matrix).reshape(-1, 2)
    return out


def _back(r: DieReading, tray: Tray) -> DieReading:
    """A reading of the rectified tray in frame pixels: centre, outline and size."""
    cx, cy = r.center
    half = r.size / 2
    square = np.array([(cx - half, cy - half), (cx + half, cy - half),
                       (cx + half, cy + half), (cx - half, cy + half)])
    parts: list[np.ndarray] = [np.array([r.center]), square]
    if r.outline:
        parts.append(np.array(r.outline))
    mapped = tray.unrectify(np.vstack(parts))
    center, corners, outline = mapped[0], mapped[1:5], mapped[5:]
    size = float(np.sqrt(abs(cv2.contourArea(corners.astype(np.float32)))))
    return replace(r, center=(float(center[0]), float(center[1])),
                   outline=tuple((float(x), float(y)) for x, y in outline), size=size)


def read_in_tray(read: Callable[[np.ndarray], Sequence[DieReading]], frame: np.ndarray,
                 tray: Tray) -> list[DieReading]:
    """The dice ``read`` finds in the rectified tray of ``frame``, in frame pixels; a
    reading whose centre lies outside the tray is dropped."""
    height, width = frame.shape[:2]
    fitted = tray.fitted(width, height)
    tw, th = fitted.size
    return [_back(r, fitted) for r in read(fitted.rectify(frame))
            if 0 <= r.center[0] <= tw and 0 <= r.center[1] <= th]


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

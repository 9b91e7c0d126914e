"""Render trays of ordinary dice with known truth: teaching material and a simulated tray.

Ordinary dice come in every look a bag of dice holds: white, black, dark grey or brown
bodies, coloured ones, marbled swirls, translucent plastic that shows the table (and the
pips of the far faces) through it; pips painted or engraved, white, black, red, gold or
coloured, some of low contrast; edges rounded; a big pip on the one. They lie flat or lean
on another die (then the top face is tilted and a side face shows its pips), near the
frame's edge a camera sees their sides, and a crowded tray has ten or fifteen of them
touching.

Public face: :func:`ordinary_tray` (a scene of N ordinary dice -> frame + truth), built
from :func:`random_ordinary_scene` and :func:`render_ordinary`. Everything is
deterministic given the ``numpy.random.Generator`` passed in.

Geometry: each die is a cube turned about the vertical (``yaw``) and then leaned by
``tilt`` degrees about a level axis. The camera looks straight down from
``camera_height`` die sizes above the frame centre (``inf``: no perspective), so a point
``z`` above the table appears at ``c + (p - c) * H / (H - z)`` as in :mod:`vision.render`.
The value of a die is that of the face pointing most nearly up. Frames are drawn at twice
the size and shrunk, so small dice keep round pips.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.render import PIP_SPOTS

BODY_KINDS = ("solid", "marbled", "translucent")
PIP_STYLES = ("painted", "engraved")

# (body BGR, pip colours that makers pair with it), a die's colour is jittered around it
LOOKS: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]], ...] = (
    ((235, 236, 238), ((20, 20, 20), (30, 30, 190), (150, 60, 20))),  # white
    ((200, 230, 245), ((20, 20, 20), (30, 30, 170))),  # ivory
    ((28, 28, 30), ((235, 235, 235), (40, 40, 200), (60, 170, 210))),  # black
    ((60, 62, 66), ((40, 40, 190), (230, 230, 230), (50, 150, 200))),  # dark grey
    ((35, 55, 85), ((40, 40, 180), (200, 220, 235), (60, 150, 200))),  # brown
    ((40, 40, 190), ((235, 235, 235), (60, 210, 235), (20, 20, 20))),  # red
    ((40, 25, 120), ((230, 230, 230), (60, 190, 230))),  # dark red
    ((170, 80, 25), ((235, 235, 235), (40, 40, 200))),  # blue
    ((90, 30, 20), ((220, 220, 220), (40, 40, 200), (60, 180, 220))),  # dark blue
    ((60, 150, 40), ((235, 235, 235), (20, 20, 20), (60, 210, 235))),  # green
    ((40, 200, 230), ((20, 20, 20), (40, 40, 190))),  # yellow
    ((130, 40, 110), ((235, 235, 235), (60, 190, 230))),  # purple
    ((40, 130, 230), ((235, 235, 235), (20, 20, 20))),  # orange
)
TABLES = ((222, 224, 224), (200, 202, 200), (235, 235, 232), (170, 182, 190), (120, 122, 124),
          (60, 90, 140), (40, 90, 40), (50, 52, 56), (90, 60, 40))
"""Tray and table colours (BGR): white or grey plastic (the commonest), wood, green felt,
dark cloth."""

_TEX = 96
"""Side of a face's texture in pixels (warped onto the face)."""


@dataclass(frozen=True)
class DieLook:
    """How one die looks: its body (``solid``, ``marbled`` or ``translucent``), pips
    (``painted`` or ``engraved``), how round its edges are (fraction of the side)."""

    body_bgr: tuple[int, int, int]
    pip_bgr: tuple[int, int, int]
    kind: str = "solid"
    vein_bgr: tuple[int, int, int] = (255, 255, 255)  # marbling's second colour
    opacity: float = 1.0  # translucent bodies show what lies beneath
    pip_style: str = "painted"
    pip_radius: float = 0.09  # of the side
    pip_spacing: float = 0.27  # of the side
    big_one: bool = False  # the one is a big pip (a maker's habit)
    rounding: float = 0.12
    far_pips: float = 0.25  # translucent: how strongly the far faces' pips show through
    far_shift: tuple[float, float] = (0.04, 0.05)  # ... and how far off (of the side)
    veined: bool = False  # translucent with marbled swirls in it too (a gamer's die)


PLAIN = DieLook((235, 236, 238), (20, 20, 20))
"""The commonest ordinary die: white body, black pips (e.g. for a simulated tray)."""
LIGHT_TRAY = TABLES[0]
"""A light plastic tray."""


@dataclass(frozen=True)
class OrdinaryDie:
    """One die: top value, table position (px), turn (deg), lean (deg) toward ``lean_dir``."""

    value: int
    x: float
    y: float
    look: DieLook
    yaw: float = 0.0
    tilt: float = 0.0
    lean_dir: float = 0.0
    lift: float = 0.0  # in die sizes: the lower edge's height (a die leaning on another)


@dataclass(frozen=True)
class OrdinaryScene:
    """Ordinary dice of side ``die_size`` px on a table of one colour."""

    dice: tuple[OrdinaryDie, ...]
    die_size: float = 60.0
    width: int = 1280
    height: int = 960
    camera_height: float = math.inf
    table_bgr: tuple[int, int, int] = (222, 224, 224)
    light: tuple[float, float, float] = (-0.3, -0.4, 1.0)  # direction toward the light
    shadows: float = 0.5  # 0..1 darkness of the soft shadows
    noise: float = 2.0  # sensor noise sigma in grey levels


@dataclass(frozen=True)
class OrdinaryTruth:
    """Where a rendered die appears and what it shows: its top face's centre and corners,
    the box around all of the die that can be seen, the side of its top face in pixels."""

    value: int
    center: tuple[float, float]
    outline: tuple[tuple[float, float], ...]
    box: tuple[float, float, float, float]
    size: float
    tilted: bool
    visible: bool = True  # the whole die lies inside the frame


def _faces(value: int) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """(value, normal, u, w) of the six faces in die coordinates; top (+z) shows ``value``,
    opposite faces add up to seven."""
    a, b = [v for v in range(1, 7) if v not in (value, 7 - value)][:2]
    ex, ey, ez = np.eye(3)
    return [(value, ez, ex, ey), (7 - value, -ez, ex, -ey),
            (a, ex, ey, ez), (7 - a, -ex, -ey, ez), (b, ey, -ex, ez), (7 - b, -ey, ex, ez)]


def _rotation(die: OrdinaryDie) -> np.ndarray:
    y = math.radians(die.yaw)
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    t, d = math.radians(die.tilt), math.radians(die.lean_dir)
    axis = np.array([-math.sin(d), math.cos(d), 0.0])  # level, across the lean
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    lean = np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)  # Rodrigues
    turned: np.ndarray = lean @ rz
    return turned


def _marbling(rng: np.random.Generator) -> np.ndarray:
    """0..1 veins of a marbled body, ``_TEX`` square."""
    n = [cv2.resize(rng.normal(0, 1, (g, g)).astype(np.float32), (_TEX, _TEX),
                    interpolation=cv2.INTER_CUBIC) for g in (3, 6)]
    swirl = np.abs(np.sin(rng.uniform(3, 7) * n[0] + 2.0 * n[1]))
    return np.clip(1.0 - swirl / rng.uniform(0.25, 0.6), 0, 1).astype(np.float32)


def _face_texture(look: DieLook, value: int, rng: np.random.Generator
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A face as BGR float (``_TEX`` square) and its alpha (rounded corners; translucent
    bodies let the table through between the pips)."""
    t = _TEX
    body = np.empty((t, t, 3), np.float32)
    body[:] = look.body_bgr
    if look.kind == "marbled" or look.veined:
        v = _marbling(rng)[..., None]
        body = body * (1 - 0.8 * v) + np.array(look.vein_bgr, np.float32) * 0.8 * v
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float32) / (t - 1) * 2 - 1
    edge = np.maximum(np.abs(xx), np.abs(yy))
    body *= (1.0 - 0.25 * np.clip((edge - 0.8) / 0.2, 0, 1) ** 2)[..., None]  # bevel
    alpha = np.full((t, t), look.opacity, np.float32)
    r = look.rounding * 2
    corner = np.hypot(np.maximum(np.abs(xx) - (1 - r), 0), np.maximum(np.abs(yy) - (1 - r), 0))
    alpha[corner > r] = 0.0
    if look.kind == "translucent":  # the far faces' pips, seen through the body
        f, (dx, dy) = look.far_pips, look.far_shift
        for px, py in PIP_SPOTS[7 - value]:
            c = (round((0.5 + look.pip_spacing * px * 0.8 + dx) * t),
                 round((0.5 + look.pip_spacing * py * 0.8 + dy) * t))
            cv2.circle(body, c, round(look.pip_radius * t * 0.8),
                       tuple((1 - f) * b + f * p for b, p in zip(look.body_bgr, look.pip_bgr,
                                                                strict=True)), -1, cv2.LINE_AA)
    k = int(rng.integers(4))  # 2, 3 and 6 lie either way round
    for px, py in PIP_SPOTS[value]:
        px, py = [(px, py), (-py, px), (-px, -py), (py, -px)][k]
        at = np.array([0.5 + look.pip_spacing * px, 0.5 + look.pip_spacing * py]) * t
        rad = look.pip_radius * t * (1.7 if value == 1 and look.big_one else 1.0)
        pip = np.array(look.pip_bgr, np.float32)
        if look.pip_style == "engraved":  # a hollow: its upper rim shades the pip
            cv2.circle(body, tuple(np.round(at * 16).astype(int)), round(rad * 16),
                       tuple(0.4 * np.array(look.body_bgr) + 0.2 * pip), -1, cv2.LINE_AA, 4)
            at = at + rad * 0.15
            rad *= 0.85
        cv2.circle(body, tuple(np.round(at * 16).astype(int)), round(rad * 16),
                   tuple(float(v) for v in pip), -1, cv2.LINE_AA, 4)
        cv2.circle(alpha, tuple(np.round(at * 16).astype(int)), round(rad * 16), 1.0, -1,
                   cv2.LINE_AA, 4)
    return body, alpha


class _Camera:
    def __init__(self, scene: OrdinaryScene, zoom: float) -> None:
        self.zoom = zoom
        self.c = np.array([scene.width, scene.height], np.float64) / 2 * zoom
        self.h = scene.camera_height * scene.die_size * zoom

    def __call__(self, p: np.ndarray) -> np.ndarray:
        """Frame pixels of points (n, 3) given in table pixels (x, y, height)."""
        xy = p[:, :2] * self.zoom
        if math.isinf(self.h):
            return xy
        return self.c + (xy - self.c) * (self.h / (self.h - p[:, 2:3] * self.zoom))

    def eye(self, p: np.ndarray) -> np.ndarray:
        """Direction from ``p`` (table pixels) toward the camera."""
        if math.isinf(self.h):
            return np.array([0.0, 0.0, 1.0])
        return np.array([*(self.c / self.zoom - p[:2]), self.h / self.zoom - p[2]])


def _composite(img: np.ndarray, tex: np.ndarray, alpha: np.ndarray, quad: np.ndarray,
               shade: float) -> None:
    """Warp a face texture onto ``quad`` (4 frame points, texture corner order) in ``img``."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    src = np.array([(0, 0), (_TEX, 0), (_TEX, _TEX), (0, _TEX)], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    face = cv2.warpPerspective(tex * shade, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + face * a


def _draw_die(img: np.ndarray, die: OrdinaryDie, scene: OrdinaryScene, cam: _Camera,
              rng: np.random.Generator) -> OrdinaryTruth:
    s = scene.die_size
    rot = _rotation(die)
    half = s / 2
    # resting height: the lowest corner touches the table (or the die it leans on)
    corners = np.array([(i, j, k) for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)]) * half
    zc = -float((corners @ rot.T)[:, 2].min()) + die.lift * s
    centre = np.array([die.x, die.y, zc])
    light = np.array(scene.light) / np.linalg.norm(scene.light)
    drawn: list[np.ndarray] = []
    top = None
    for value, n, u, w in _faces(die.value):
        nw, uw, ww = rot @ n, rot @ u, rot @ w
        mid = centre + nw * half
        pts3 = np.array([mid + (-uw - ww) * half, mid + (uw - ww) * half,
                         mid + (uw + ww) * half, mid + (-uw + ww) * half])
        quad = cam(pts3)
        if value == die.value:
            top = quad / cam.zoom
        if float(np.dot(nw, cam.eye(mid))) <= 1e-6:
            continue  # faces away from the camera
        tex, alpha = _face_texture(die.look, value, rng)
        shade = 0.45 + 0.55 * max(0.0, float(np.dot(nw, light)))
        _composite(img, tex, alpha, quad, shade)
        drawn.append(quad / cam.zoom)
    assert top is not None
    allpts = np.concatenate(drawn) if drawn else top
    box = (*allpts.min(axis=0), *allpts.max(axis=0))
    inside = box[0] >= 0 and box[1] >= 0 and box[2] < scene.width and box[3] < scene.height
    tc = top.mean(axis=0)
    return OrdinaryTruth(die.value, (float(tc[0]), float(tc[1])),
                         tuple((float(x), float(y)) for x, y in top),
                         tuple(float(v) for v in box),  # type: ignore[arg-type]
                         float(np.linalg.norm(top[1] - top[0])), die.tilt > 1.0, bool(inside))


def _table(scene: OrdinaryScene, zoom: float, rng: np.random.Generator) -> np.ndarray:
    h, w = round(scene.height * zoom), round(scene.width * zoom)
    img = np.empty((h, w, 3), np.float32)
    img[:] = scene.table_bgr
    blotch = cv2.resize(rng.normal(0, 1, (max(2, h // 96), max(2, w // 96))).astype(np.float32),
                        (w, h), interpolation=cv2.INTER_CUBIC)
    img *= (1.0 + 0.03 * blotch)[..., None]
    if rng.random() < 0.3:  # wood grain or cloth weave
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, math.pi)
        g = np.sin((xx * math.cos(a) + yy * math.sin(a)) / rng.uniform(3, 12) * zoom + 3 * blotch)
        img *= (1.0 + rng.uniform(0.02, 0.08) * g)[..., None]
    return img


def render_ordinary(scene: OrdinaryScene, rng: np.random.Generator
                    ) -> tuple[np.ndarray, list[OrdinaryTruth]]:
    """Render ``scene``: a ``height x width x 3`` uint8 BGR frame and the truth per die
    (in the order of ``scene.dice``; every die whose top face's centre is in the frame)."""
    zoom = 2.0
    cam = _Camera(scene, zoom)
    img = _table(scene, zoom, rng)
    s = scene.die_size
    if scene.shadows > 0:
        shadow: np.ndarray = np.zeros(img.shape[:2], np.float32)
        lx, ly, lz = scene.light
        off = -np.array([lx, ly]) / lz * 0.6 * s
        for d in scene.dice:
            foot = (np.array([d.x, d.y]) + off) * zoom
            cv2.circle(shadow, tuple(np.round(foot).astype(int)), round(0.6 * s * zoom), 1.0, -1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 0.2 * s * zoom)
        img *= (1.0 - 0.5 * scene.shadows * shadow)[..., None]
    # painter's order: lower dice first; farther from the camera's foot first
    order = sorted(range(len(scene.dice)), key=lambda i: (
        scene.dice[i].lift + scene.dice[i].tilt / 90,
        -math.hypot(scene.dice[i].x - scene.width / 2, scene.dice[i].y - scene.height / 2)))
    truth: dict[int, OrdinaryTruth] = {}
    for i in order:
        truth[i] = _draw_die(img, scene.dice[i], scene, cam, rng)
    frame = cv2.resize(img, (scene.width, scene.height), interpolation=cv2.INTER_AREA)
    if scene.noise > 0:
        frame += np.asarray(rng.normal(0, scene.noise, frame.shape), np.float32)
    out = np.clip(frame, 0, 255).astype(np.uint8)
    return out, [t for i in range(len(scene.dice)) if 0 <= (t := truth[i]).center[0] <
                 scene.width and 0 <= t.center[1] < scene.height]


SMOKY_BODIES = ((45, 45, 48), (62, 64, 68), (30, 30, 32), (70, 60, 55), (90, 45, 30))
"""Smoked translucent bodies (BGR): grey, dark grey, black, brownish, dark blue."""
SMOKY_PIPS = ((45, 45, 190), (60, 55, 170), (40, 40, 140), (70, 80, 200), (50, 60, 160))
"""Their pips: reds, dull to bright (the commonest casino-style dark die)."""


def _bgr(values: Sequence[float] | np.ndarray) -> tuple[int, int, int]:
    """Three colour values as a BGR triple of ints."""
    b, g, r = (int(v) for v in values)
    return b, g, r


def smoky_look(rng: np.random.Generator) -> DieLook:
    """A smoked translucent die with red pips, the kind a camera reads worst: a dark
    body, pips of low contrast, close together and big, and the far faces' pips showing
    through almost as strongly as the top face's."""
    body = np.clip(np.array(SMOKY_BODIES[int(rng.integers(len(SMOKY_BODIES)))])
                   * rng.uniform(0.8, 1.2) + rng.normal(0, 6, 3), 0, 255)
    pip = np.array(SMOKY_PIPS[int(rng.integers(len(SMOKY_PIPS)))], np.float64)
    pip = np.clip(pip * rng.uniform(0.75, 1.15) + rng.normal(0, 8, 3), 0, 255)
    if rng.random() < 0.4:  # dull paint
        pip = pip + rng.uniform(0.1, 0.4) * (body - pip)
    return DieLook(
        body_bgr=_bgr(body),
        pip_bgr=_bgr(pip),
        kind="translucent" if rng.random() < 0.75 else "solid",
        opacity=float(rng.uniform(0.7, 0.95)),
        pip_style=PIP_STYLES[int(rng.random() < 0.5)],
        pip_radius=float(rng.uniform(0.085, 0.12)), pip_spacing=float(rng.uniform(0.22, 0.28)),
        rounding=float(rng.uniform(0.04, 0.16)), far_pips=float(rng.uniform(0.2, 0.6)),
        far_shift=(float(rng.uniform(-0.08, 0.08)), float(rng.uniform(-0.08, 0.08))))


GAMER_PIPS = ((235, 235, 235), (60, 190, 230), (80, 170, 200), (20, 20, 20))
"""Pips of gamer dice: white, gold, dull gold, black."""


def see_through_look(rng: np.random.Generator) -> DieLook:
    """A gamer's see-through die: a translucent body of any colour, often with swirls in
    it, light or gold pips, and the far faces' pips showing through strongly and well off
    the top face's (a tilted view looks through the die at an angle)."""
    body, _ = LOOKS[int(rng.integers(len(LOOKS)))]
    jit = np.clip(np.array(body) * rng.uniform(0.7, 1.15) + rng.normal(0, 12, 3), 0, 255)
    pip = np.array(GAMER_PIPS[int(rng.integers(len(GAMER_PIPS)))], np.float64)
    pip = np.clip(pip * rng.uniform(0.8, 1.1) + rng.normal(0, 8, 3), 0, 255)
    vein = np.clip(jit + rng.choice([-1, 1]) * rng.uniform(50, 140) + rng.normal(0, 30, 3),
                   0, 255)
    return DieLook(
        body_bgr=_bgr(jit),
        pip_bgr=_bgr(pip),
        kind="translucent", vein_bgr=_bgr(vein),
        opacity=float(rng.uniform(0.5, 0.85)), veined=bool(rng.random() < 0.5),
        pip_style=PIP_STYLES[int(rng.random() < 0.4)],
        pip_radius=float(rng.uniform(0.07, 0.12)), pip_spacing=float(rng.uniform(0.22, 0.29)),
        big_one=bool(rng.random() < 0.3), rounding=float(rng.uniform(0.06, 0.2)),
        far_pips=float(rng.uniform(0.25, 0.65)),
        far_shift=(float(rng.uniform(-0.12, 0.12)), float(rng.uniform(-0.12, 0.12))))


def random_look(rng: np.random.Generator, smoky: float = 0.0, see_through: float = 0.0
                ) -> DieLook:
    """A die from a mixed bag: any body (a third marbled or translucent), any pips; with
    chance ``smoky`` a :func:`smoky_look`, with chance ``see_through`` a
    :func:`see_through_look` (training asks for more of those)."""
    if smoky and rng.random() < smoky:
        return smoky_look(rng)
    if see_through and rng.random() < see_through:
        return see_through_look(rng)
    body, pips = LOOKS[int(rng.integers(len(LOOKS)))]
    jit = np.clip(np.array(body) * rng.uniform(0.8, 1.15) + rng.normal(0, 10, 3), 0, 255)
    pip = np.array(pips[int(rng.integers(len(pips)))], np.float64)
    if rng.random() < 0.25:  # worn or low-contrast paint: pips drift toward the body
        pip = pip + rng.uniform(0.2, 0.55) * (jit - pip)
    r = rng.random()
    kind = "marbled" if r < 0.2 else "translucent" if r < 0.32 else "solid"
    vein = np.clip(jit + rng.choice([-1, 1]) * rng.uniform(50, 140) + rng.normal(0, 30, 3),
                   0, 255)
    return DieLook(
        body_bgr=_bgr(jit),
        pip_bgr=_bgr(np.clip(pip, 0, 255)),
        kind=kind, vein_bgr=_bgr(vein),
        opacity=float(rng.uniform(0.55, 0.85)) if kind == "translucent" else 1.0,
        pip_style=PIP_STYLES[int(rng.random() < 0.4)],
        pip_radius=float(rng.uniform(0.07, 0.11)), pip_spacing=float(rng.uniform(0.24, 0.29)),
        big_one=bool(rng.random() < 0.2), rounding=float(rng.uniform(0.04, 0.2)))


def random_ordinary_scene(rng: np.random.Generator, n_dice: int = 6, width: int = 1280,
                          height: int = 960, die_size: float | None = None,
                          crowded: float = 0.4, tilted: float = 0.12,
                          same_look: bool = False, look: DieLook | None = None,
                          table: tuple[int, int, int] | None = None, smoky: float = 0.0,
                          see_through: float = 0.0) -> OrdinaryScene:
    """A settled tray of ``n_dice`` ordinary dice from a mixed bag, or all of one random
    look (``same_look``), or all looking like ``look``; on a random table or ``table``.

    ``crowded`` is the chance that a die is put against one already placed (clusters of
    touching dice), ``tilted`` that it leans on its neighbour (tilted top face, a side
    showing); the camera is overhead (a third of trays) or 8-40 die sizes up. ``smoky``:
    the chance of each look being a :func:`smoky_look`, ``see_through`` a
    :func:`see_through_look` (none by default).
    """
    s = die_size or float(rng.uniform(25, 90)) * width / 1280
    cam = math.inf if rng.random() < 0.33 else float(rng.uniform(8, 40))
    shared = random_look(rng, smoky, see_through)
    same_look = same_look or look is not None
    look = look or shared
    margin = 0.9 * s  # the whole die inside the frame, its sides too (seen from the camera)
    if not math.isinf(cam):
        margin += 1.2 * max(width, height) / 2 / (cam - 1.3)
    dice: list[OrdinaryDie] = []
    tries = 0
    while len(dice) < n_dice and tries < 50 * n_dice:
        tries += 1
        yaw = float(rng.uniform(0, 90))
        lean = tilt = lift = 0.0
        if dice and rng.random() < crowded:
            other = dice[int(rng.integers(len(dice)))]
            a = rng.uniform(0, 2 * math.pi)
            gap = s * float(rng.uniform(1.02, 1.3))
            x, y = other.x + gap * math.cos(a), other.y + gap * math.sin(a)
            if rng.random() < tilted / max(crowded, 1e-6):  # leaning on ``other``
                tilt = float(rng.uniform(8, 35))
                lean = math.degrees(a) + 180
                lift = float(rng.uniform(0, 0.3))
            min_d = 1.0 * s
        else:
            x, y = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
            min_d = 1.45 * s
        if not (margin <= x <= width - margin and margin <= y <= height - margin):
            continue
        if any(math.hypot(x - d.x, y - d.y) < min_d for d in dice):
            continue
        dice.append(OrdinaryDie(int(rng.integers(1, 7)), float(x), float(y),
                                look if same_look else random_look(rng, smoky, see_through),
                                yaw, tilt, lean, lift))
    light = (float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.6, 0.6)), 1.0)
    if table is None:
        table = TABLES[int(rng.integers(len(TABLES)))]
    return OrdinaryScene(tuple(dice), s, width, height, cam, table, light,
                         float(rng.uniform(0.2, 0.8)), float(rng.uniform(1.0, 5.0)))


def ordinary_tray(rng: np.random.Generator, n_dice: int = 6, width: int = 1280,
                  height: int = 960, **scene: Any
                  ) -> tuple[np.ndarray, list[OrdinaryTruth]]:
    """A frame of ``n_dice`` ordinary dice settled in a tray and the truth for each die
    (what the simulated tray shows for a game played with ordinary dice). Keyword
    arguments go to :func:`random_ordinary_scene` (``die_size``, ``crowded``, ...)."""
    return render_ordinary(random_ordinary_scene(rng, n_dice, width, height, **scene), rng)


def judged_trays(trays: int, seed: int
                 ) -> Iterator[tuple[np.ndarray, list[OrdinaryTruth], str]]:
    """The rendered trays ordinary dice are judged on beside the photos
    (``benchmarks/bench_ordinary.py``, and ``tools/fit_dice_decision.py`` at other seeds):
    each frame, its truth and its family. ``trays`` trays of 6-12 dice, 1280 x 960, three in
    ten dice leaning on another (``mixed``), then half as many of small smoked dice, 28-45
    px in 640 x 480 (``smoky``)."""
    for i in range(trays):
        rng = np.random.default_rng(seed + i)
        yield (*ordinary_tray(rng, int(rng.integers(6, 13)), 1280, 960,
                              die_size=float(rng.uniform(60, 110)), tilted=0.3), "mixed")
    for i in range(trays // 2):
        rng = np.random.default_rng(seed + 1000 + i)
        yield (*ordinary_tray(rng, int(rng.integers(6, 13)), 640, 480,
                              die_size=float(rng.uniform(28, 45)), tilted=0.0, smoky=1.0),
               "smoky")


__all__ = ["LIGHT_TRAY", "PLAIN", "DieLook", "OrdinaryDie", "OrdinaryScene", "OrdinaryTruth",
           "judged_trays", "ordinary_tray", "random_look", "random_ordinary_scene",
           "render_ordinary", "see_through_look", "smoky_look"]

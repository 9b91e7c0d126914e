"""Random tray scenes, grouped into named families of conditions.

Each frame draws one family on each axis (:data:`AXES`): the table, the light, how the dice
lie, their size in the frame, and how the dice are made. Within a family everything else is
random: paint and pip colours, wood tone, camera height, tilt and lens, blur, noise, JPEG,
distractors. A benchmark can therefore tune on some families and report on others it
never saw (:func:`random_conditions` with ``exclude``), and keep a table per family.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.dice import Color
from vision.render.camera import Projector
from vision.render.draw import die_corners, render_tray
from vision.render.scene import (
    BGR,
    CREAM,
    PAINT,
    Camera,
    DieLook,
    DieSpec,
    Distractor,
    Light,
    Table,
    TrayScene,
)

AXES: dict[str, tuple[str, ...]] = {
    "table": ("neutral", "wood-light", "wood-orange", "wood-dark", "felt-green", "felt-blue",
              "felt-red", "felt-black", "card", "cloth", "tray", "stone"),
    "light": ("daylight", "warm", "cool", "dim", "glare"),
    "spacing": ("apart", "touching", "cluster", "leaning"),
    "size": ("small", "medium", "large"),
    "dice": ("solid", "inset"),
}
"""The condition families, per axis: the world the reader is judged on."""

TRAINING_ONLY: dict[str, tuple[str, ...]] = {"table": ("print", "woven")}
"""Families drawn only for training, never judged: printed oilcloths and play mats (checks,
patchwork, spots, blossoms), so the networks learn that a die-sized shape of ink is no die;
woven gingham and tartan cloths (squares of a die's size and colour between light ones, the
threads of a twill weave)."""

SIZES = {"small": (30.0, 60.0), "medium": (60.0, 100.0), "large": (100.0, 160.0)}
"""Die edge in pixels of a 1280-wide frame, per size family."""

_TABLE_BGR: dict[str, tuple[BGR, ...]] = {
    "neutral": ((200, 200, 198), (170, 182, 190), (120, 122, 124), (215, 222, 226),
                (80, 84, 86), (236, 238, 240)),
    "wood-light": ((170, 205, 230), (150, 190, 222), (185, 215, 235)),
    "wood-orange": ((80, 150, 215), (60, 130, 200), (95, 160, 210)),
    "wood-dark": ((45, 65, 95), (60, 90, 150), (50, 80, 120)),
    "felt-green": ((40, 110, 35), (50, 130, 60), (30, 90, 30)),
    "felt-blue": ((120, 55, 20), (140, 80, 30), (100, 40, 25)),
    "felt-red": ((35, 35, 140), (45, 40, 170), (40, 30, 110)),
    "felt-black": ((28, 28, 30), (40, 38, 36), (22, 24, 28)),
    "card": ((150, 220, 240), (200, 190, 240), (235, 210, 180), (180, 225, 190),
             (120, 180, 240)),
}
_CLOTH_BGR: tuple[BGR, ...] = ((40, 40, 160), (160, 80, 30), (50, 140, 60), (210, 220, 225),
                               (40, 160, 220), (120, 60, 120), (30, 30, 30), (170, 170, 170))
_PRINT_GROUND: tuple[BGR, ...] = ((225, 235, 240), (200, 230, 245), (235, 220, 200),
                                  (190, 225, 205), (40, 45, 170), (45, 120, 40), (140, 70, 25),
                                  (60, 60, 64))
_STONE_BGR: tuple[tuple[BGR, BGR], ...] = (((190, 192, 195), (120, 122, 125)),
                                           ((175, 195, 210), (110, 130, 150)),
                                           ((60, 62, 66), (190, 190, 190)),
                                           ((225, 228, 230), (140, 145, 150)),
                                           ((120, 135, 150), (50, 55, 60)))
_FLORAL_GROUND: tuple[BGR, ...] = ((235, 238, 240), (200, 230, 245), (60, 60, 64), (230, 215, 200),
                                  (120, 60, 30))
_SKIN: tuple[BGR, ...] = ((120, 150, 205), (90, 125, 180), (60, 85, 130), (150, 180, 225))


@dataclass(frozen=True)
class Conditions:
    """One family on each axis of :data:`AXES`."""

    table: str = "neutral"
    light: str = "daylight"
    spacing: str = "apart"
    size: str = "medium"
    dice: str = "solid"

    def families(self) -> tuple[tuple[str, str], ...]:
        return tuple((axis, getattr(self, axis)) for axis in AXES)


def random_conditions(rng: np.random.Generator,
                      exclude: dict[str, tuple[str, ...]] | None = None,
                      extra: dict[str, tuple[str, ...]] | None = None) -> Conditions:
    """A family on each axis, uniformly among those of :data:`AXES` not in ``exclude`` and
    those in ``extra`` (e.g. :data:`TRAINING_ONLY`)."""
    picked = {}
    for axis, options in AXES.items():
        allowed = [o for o in options + (extra or {}).get(axis, ())
                   if o not in (exclude or {}).get(axis, ())]
        picked[axis] = str(allowed[int(rng.integers(len(allowed)))])
    return Conditions(**picked)


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _jitter_paint(rng: np.random.Generator, strong: bool) -> dict[Color, BGR]:
    """Paint colours of one box: each hue moved a little, saturation and brightness varied."""
    out: dict[Color, BGR] = {}
    hue_room = {Color.RED: 7, Color.GREEN: 12, Color.BLUE: 9}
    for color, bgr in PAINT.items():
        pixel = np.array([[bgr]], np.uint8)
        hsv = cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0].astype(np.float64)
        k = 1.0 if strong else 0.4
        hsv[0] = (hsv[0] + rng.uniform(-1, 1) * hue_room[color] * k) % 180
        hsv[1] = np.clip(hsv[1] * rng.uniform(0.7 if strong else 0.9, 1.1), 60, 255)
        hsv[2] = np.clip(hsv[2] * rng.uniform(0.72 if strong else 0.9, 1.15), 60, 255)
        back = cv2.cvtColor(np.array([[hsv]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
        out[color] = (float(back[0]), float(back[1]), float(back[2]))
    return out


def _look(rng: np.random.Generator, family: str, glare: bool) -> DieLook:
    inset = family == "inset"
    t = _u(rng, 0, 1)
    pip = tuple(c * (1 - t) + w * t for c, w in zip(CREAM, (236, 242, 244), strict=True))
    wood_t = _u(rng, 0, 1)
    wood = tuple(a * (1 - wood_t) + b * wood_t
                 for a, b in zip((110, 165, 205), (180, 212, 234), strict=True))
    return DieLook(
        style=family,
        paint=_jitter_paint(rng, True),
        pip_bgr=pip,  # type: ignore[arg-type]
        wood_bgr=wood,  # type: ignore[arg-type]
        border=_u(rng, 0.06, 0.12) if inset else 0.0,
        grain=_u(rng, 0.2, 1.0) if inset else _u(rng, 0.0, 0.5),
        wear=_u(rng, 0.0, 0.5) if rng.random() < 0.4 else 0.0,
        engraved=bool(rng.random() < 0.3),
        gloss=_u(rng, 0.3, 0.8) if glare else (_u(rng, 0, 0.5) if rng.random() < 0.4 else 0.0),
        pip_radius=_u(rng, 0.075, 0.095),
        pip_spacing=_u(rng, 0.25, 0.285),
        bevel=_u(rng, 0.03, 0.1),
        wood_edges=bool(rng.random() < 0.3),
    )


def _light(rng: np.random.Generator, family: str) -> tuple[Light, dict[str, float]]:
    """The light of a family, and camera settings it implies (white balance, exposure...)."""
    az = _u(rng, 0, 360)
    grad = _u(rng, 0.0, 0.4) if rng.random() < 0.5 else 0.0
    cam: dict[str, float] = {"white_balance": _u(rng, 0.85, 1.0), "exposure": _u(rng, 0.85, 1.1)}
    if family == "daylight":
        light = Light(az, _u(rng, 55, 90), _u(rng, 0.5, 0.75), _u(rng, 5000, 6500),
                      _u(rng, -0.1, 0.1), _u(rng, 0.15, 0.35), _u(rng, 0.3, 0.9), grad,
                      _u(rng, 0, 360))
    elif family == "warm":
        light = Light(az, _u(rng, 30, 65), _u(rng, 0.3, 0.55), _u(rng, 2700, 3300),
                      _u(rng, -0.1, 0.2), _u(rng, 0.35, 0.6), _u(rng, 0.03, 0.2),
                      _u(rng, 0.1, 0.5), _u(rng, 0, 360),
                      hotspot=_u(rng, 0.1, 0.5) if rng.random() < 0.4 else 0.0,
                      hotspot_at=(_u(rng, 0.1, 0.9), _u(rng, 0.1, 0.9)))
        cam = {"white_balance": _u(rng, 0.4, 0.85), "exposure": _u(rng, 0.8, 1.1)}
    elif family == "cool":
        light = Light(az, _u(rng, 45, 90), _u(rng, 0.45, 0.7), _u(rng, 6000, 8000),
                      _u(rng, -0.6, 0.6), _u(rng, 0.2, 0.4), _u(rng, 0.2, 0.6), grad,
                      _u(rng, 0, 360))
        cam = {"white_balance": _u(rng, 0.4, 0.9), "exposure": _u(rng, 0.85, 1.1),
               "cast": 0.1}
    elif family == "dim":
        light = Light(az, _u(rng, 40, 90), _u(rng, 0.4, 0.7), _u(rng, 3000, 5500),
                      _u(rng, -0.2, 0.2), _u(rng, 0.2, 0.5), _u(rng, 0.1, 0.6), grad,
                      _u(rng, 0, 360), arm_shadow=_u(rng, 0.3, 0.7) if rng.random() < 0.3 else 0.0)
        cam = {"white_balance": _u(rng, 0.6, 1.0), "exposure": _u(rng, 0.45, 0.7),
               "noise": _u(rng, 5, 10)}
    elif family == "lamp":  # one warm desk lamp, low and near: hard shadows, a falloff
        light = Light(az, _u(rng, 25, 50), _u(rng, 0.2, 0.35), _u(rng, 2700, 3500),
                      _u(rng, -0.1, 0.2), _u(rng, 0.55, 0.8), _u(rng, 0.02, 0.1),
                      _u(rng, 0.2, 0.6), az + 180.0,
                      hotspot=_u(rng, 0.2, 0.6) if rng.random() < 0.5 else 0.0,
                      hotspot_at=(_u(rng, 0.1, 0.9), _u(rng, 0.1, 0.9)))
        cam = {"white_balance": _u(rng, 0.3, 0.75), "exposure": _u(rng, 0.8, 1.15)}
    elif family == "glare":
        light = Light(az, _u(rng, 45, 85), _u(rng, 0.5, 0.7), _u(rng, 4000, 6000),
                      _u(rng, -0.1, 0.1), _u(rng, 0.2, 0.4), _u(rng, 0.1, 0.5), grad,
                      _u(rng, 0, 360), hotspot=_u(rng, 0.4, 0.9),
                      hotspot_at=(_u(rng, 0.15, 0.85), _u(rng, 0.15, 0.85)))
        cam = {"white_balance": _u(rng, 0.8, 1.0), "exposure": _u(rng, 1.0, 1.3)}
    else:
        raise ValueError(f"unknown light family {family!r}")
    return light, cam


def _table(rng: np.random.Generator, family: str) -> Table:
    angle = _u(rng, 0, 180)
    if family == "cloth":
        i, j = rng.choice(len(_CLOTH_BGR), 2, replace=False)
        return Table("cloth", _CLOTH_BGR[int(i)], _CLOTH_BGR[int(j)], _u(rng, 0.6, 2.0), angle)
    if family in ("print", "woven"):
        ground = _PRINT_GROUND[int(rng.integers(len(_PRINT_GROUND)))]
        return Table(family, ground, (0, 0, 0), 1.0, angle)
    if family == "floral":
        return Table("floral", _FLORAL_GROUND[int(rng.integers(len(_FLORAL_GROUND)))],
                     (0, 0, 0), _u(rng, 0.8, 1.3), angle)
    if family == "stone":
        top, vein = _STONE_BGR[int(rng.integers(len(_STONE_BGR)))]
        return Table("stone", top, vein, 1.0, angle, gloss=_u(rng, 0, 0.5))
    if family == "tray":
        floor = _TABLE_BGR[str(rng.choice(["felt-green", "felt-blue", "felt-black", "felt-red"]))]
        wood = _TABLE_BGR[str(rng.choice(["wood-light", "wood-orange"]))]
        return Table("tray", wood[int(rng.integers(len(wood)))],
                     floor[int(rng.integers(len(floor)))], 1.0, angle, wall=_u(rng, 0.5, 1.4))
    kind = family.split("-")[0] if family != "neutral" else "plain"
    options = _TABLE_BGR[family]
    b, g, r = (float(np.clip(v * rng.uniform(0.92, 1.08), 0, 255))
               for v in options[int(rng.integers(len(options)))])
    return Table(kind, (b, g, r), (0, 0, 0), _u(rng, 0.7, 1.5), angle,
                 gloss=_u(rng, 0, 0.5) if kind == "wood" else 0.0)


ANY_LENS = (1000.0, 4000.0)
"""Focal lengths (pixels of a 1280-wide frame) the camera is drawn with unless told its lens:
from a phone's wide lens to a long one far above the tray."""
PI_LENS = (950.0, 1350.0)
"""The focal lengths of the Raspberry Pi camera modules' standard lenses (pixels of a
1280-wide frame): Camera Module 3's 66° and Module 2's 62° across a 16:9 frame, narrower
where a 4:3 frame is cut from a 16:9 sensor. Near such a lens a die's side shows much more
than under a long one: at a desk arm's tilt, the far dice's sides as big as their tops."""


def _camera(rng: np.random.Generator, s: float, width: int, extra: dict[str, float],
            tilt: tuple[float, float] | None = None,
            lens: tuple[float, float] = ANY_LENS) -> Camera:
    focal = _u(rng, *lens) * width / 1280
    cast = extra.get("cast", 0.04)
    return Camera(
        height=float(np.clip(focal / s, 8, 120)),
        tilt=(0.0 if rng.random() < 0.4 else _u(rng, 0, 20)) if tilt is None else _u(rng, *tilt),
        tilt_dir=_u(rng, 0, 360),
        distortion=_u(rng, -0.12, 0.03) if rng.random() < 0.5 else 0.0,
        white_balance=extra["white_balance"],
        cast=tuple(float(v) for v in rng.uniform(1 - cast, 1 + cast, 3)),  # type: ignore[arg-type]
        exposure=extra["exposure"],
        vignette=_u(rng, 0, 0.4),
        defocus=_u(rng, 0.004, 0.03) if rng.random() < 0.5 else 0.0,
        noise=extra.get("noise", _u(rng, 1.5, 5.0)),
        jpeg_quality=int(rng.integers(40, 96)) if rng.random() < 0.7 else None,
    )


def _footprint(die: DieSpec, s: float) -> np.ndarray:
    pts = die_corners(die, s)
    return cv2.convexHull(pts[:, :2].astype(np.float32)).reshape(-1, 2)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area)


def _touching(other: DieSpec, angle: float, direction: float, s: float, overlap: float
              ) -> tuple[float, float]:
    """Where a die turned by ``angle`` lies when pushed against ``other`` from ``direction``."""
    ux, uy = math.cos(math.radians(direction)), math.sin(math.radians(direction))
    fixed = _footprint(other, s)
    lo, hi = 0.4 * s, 1.6 * s
    for _ in range(18):
        mid = (lo + hi) / 2
        probe = DieSpec(1, "A", other.x + ux * mid, other.y + uy * mid, angle)
        if _overlap(fixed, _footprint(probe, s)) > 1e-3 * s * s:
            lo = mid
        else:
            hi = mid
    d = hi - overlap * s
    return other.x + ux * d, other.y + uy * d


def _in_frame(die: DieSpec, s: float, proj: Projector, width: int, height: int) -> bool:
    pts = proj.distort(proj.project(die_corners(die, s)))
    return bool(np.all((pts >= 2) & (pts < [width - 2, height - 2])))


def _blocked(objs: Sequence[Distractor], s: float) -> list[tuple[float, float, float]]:
    """Where no die may lie (x, y, radius): beside the objects dice do not go under."""
    return [(o.x, o.y, (6.5 * o.scale if o.kind == "pencil" else 1.4 * o.scale) * s)
            for o in objs if o.kind not in ("card", "hand")]


def _place(rng: np.random.Generator, spacing: str, n_dice: int, s: float, proj: Projector,
           width: int, height: int, inside: tuple[float, float, float, float] | None,
           blocked: list[tuple[float, float, float]], steep: bool = False) -> list[DieSpec]:
    pairs = ["A", "A", "B", "B", "C", "C"]
    dice: list[DieSpec] = []
    prints: list[np.ndarray] = []
    clumps = 1 if rng.random() < 0.5 else 2
    tries = 0
    while len(dice) < n_dice and tries < 3000:
        tries += 1
        angle = _u(rng, 0, 90)
        touch = {"apart": 0.0, "touching": 0.6, "cluster": 1.0, "leaning": 0.6}[spacing]
        if spacing == "cluster" and len(dice) < clumps:
            touch = 0.0
        if dice and rng.random() < touch:
            other = dice[int(rng.integers(len(dice)))]
            x, y = _touching(other, angle, _u(rng, 0, 360), s, _u(rng, -0.02, 0.04))
            limit = 0.06 * s * s
        else:
            u, v = rng.uniform([0.05 * width, 0.05 * height], [0.95 * width, 0.95 * height])
            x, y = proj.to_table(np.array([[u, v]]))[0]
            if any(math.hypot(x - d.x, y - d.y) < 1.7 * s for d in dice):
                continue
            limit = 0.0
        die = DieSpec(int(rng.integers(1, 7)), pairs[len(dice) % 6], float(x), float(y), angle)
        fp = _footprint(die, s)
        if any(_overlap(fp, p) > limit + 1e-3 * s * s for p in prints):
            continue
        if inside is not None:
            x0, y0, x1, y1 = inside
            if fp[:, 0].min() < x0 or fp[:, 0].max() > x1 or fp[:, 1].min() < y0 \
                    or fp[:, 1].max() > y1:
                continue
        if any(math.hypot(x - bx, y - by) < r for bx, by, r in blocked):
            continue
        if not _in_frame(die, s, proj, width, height):
            continue
        dice.append(die)
        prints.append(fp)
    if spacing == "leaning" and dice:
        dice = _lean_some(rng, dice, s, inside, steep)
    return dice


def _lean_some(rng: np.random.Generator, dice: list[DieSpec], s: float,
               inside: tuple[float, float, float, float] | None, steep: bool = False
               ) -> list[DieSpec]:
    """Tip one or two dice against a neighbour (or the tray wall), either way a die comes to
    rest there: *leaning* on it (tipped towards it, 12-32°, its side on the neighbour's top
    edge: the top face lies nearer the neighbour than the face tipped up behind it) or
    *propped* on it (its near side lifted onto the neighbour's edge, tipped away, 15-40°:
    the face tipped up towards the neighbour lies nearer it than the top). ``steep``: propped
    28-40° (three times in five), leaning 22-32°, so that a tilted camera sees the top at a
    slant of 40° or more (the pair network's training frames, :mod:`vision.pairnet`)."""
    propped, away, towards = (0.6, (28, 40), (22, 32)) if steep else (0.5, (15, 40), (12, 32))
    out = list(dice)
    for _ in range(int(rng.integers(1, 3))):
        i = int(rng.integers(len(out)))
        d = out[i]
        near = [o for j, o in enumerate(out)
                if j != i and math.hypot(o.x - d.x, o.y - d.y) < 1.6 * s]
        if near:
            o = near[0]
            direction = math.degrees(math.atan2(o.y - d.y, o.x - d.x))
        elif inside is not None:
            x0, y0, x1, y1 = inside
            gaps = [(d.x - x0, 180.0), (x1 - d.x, 0.0), (d.y - y0, 270.0), (y1 - d.y, 90.0)]
            direction = min(gaps)[1]
        else:
            continue
        if rng.random() < propped:  # propped: tipped away from what holds it
            out[i] = replace(d, lean=_u(rng, *away), lean_dir=direction + 180.0, lift=0.005)
        else:
            out[i] = replace(d, lean=_u(rng, *towards), lean_dir=direction, lift=0.005)
    return out


def _distractors(rng: np.random.Generator, count: int, s: float, proj: Projector, width: int,
                 height: int, hand: bool) -> tuple[Distractor, ...]:
    out = []
    for _ in range(count):
        kind = str(rng.choice(["coin", "pencil", "card", "token"]))
        if kind == "card":  # a card lying at the frame edge, mostly outside
            side = int(rng.integers(4))
            u = [rng.uniform(0, width), width + s * 1.2, rng.uniform(0, width), -s * 1.2][side]
            v = [-s * 1.8, rng.uniform(0, height), height + s * 1.8, rng.uniform(0, height)][side]
            x, y = proj.to_table(np.array([[u, v]]))[0]
            bgr = tuple(float(c) for c in rng.choice(
                [(40, 200, 230), (40, 80, 130), (170, 90, 30), (60, 150, 50), (140, 60, 120)]))
            out.append(Distractor("card", float(x), float(y), _u(rng, -20, 20) + 90.0 * (side % 2),
                                  1.0, bgr))  # type: ignore[arg-type]
            continue
        u, v = rng.uniform([0, 0], [width, height])
        x, y = proj.to_table(np.array([[u, v]]))[0]
        if kind == "token":
            bgr = tuple(float(c) for c in rng.choice(
                [(40, 60, 190), (60, 140, 50), (170, 90, 30), (60, 190, 230), (150, 190, 220)]))
        elif kind == "pencil":
            bgr = (30, 200, 230) if rng.random() < 0.6 else (60, 140, 50)
        else:
            bgr = (170, 175, 180) if rng.random() < 0.6 else (60, 130, 190)
        out.append(Distractor(kind, float(x), float(y), _u(rng, 0, 180), _u(rng, 0.8, 1.2),
                              bgr))  # type: ignore[arg-type]
    if hand:
        side = int(rng.integers(4))
        inward = [90.0, 180.0, 270.0, 0.0][side]
        u = [rng.uniform(0.2, 0.8) * width, width - 0.5 * s, rng.uniform(0.2, 0.8) * width,
             0.5 * s][side]
        v = [0.5 * s, rng.uniform(0.2, 0.8) * height, height - 0.5 * s,
             rng.uniform(0.2, 0.8) * height][side]
        x, y = proj.to_table(np.array([[u, v]]))[0]
        skin = _SKIN[int(rng.integers(len(_SKIN)))]
        out.append(Distractor("hand", float(x), float(y), inward + _u(rng, -30, 30),
                              _u(rng, 0.8, 1.3), skin))
    return tuple(out)


def scene_for(rng: np.random.Generator, cond: Conditions, n_dice: int = 6, width: int = 1280,
              height: int = 960, distractors: int | None = None, hand: float = 0.08,
              steep: bool = False, tilt: tuple[float, float] | None = None,
              lens: tuple[float, float] = ANY_LENS) -> TrayScene:
    """A settled random scene of ``n_dice`` HABA dice (two of each pair) in ``cond``;
    ``steep``: leaning dice lean steeply (:func:`_lean_some`); ``tilt``: the camera's tilt
    drawn between these degrees (a desk arm), else 0-20° or none; ``lens``: the range its
    focal length is drawn from (:data:`ANY_LENS`, :data:`PI_LENS`)."""
    lo, hi = SIZES[cond.size]
    s = _u(rng, lo, hi) * width / 1280
    light, extra = _light(rng, cond.light)
    look = _look(rng, cond.dice, cond.light == "glare")
    table = _table(rng, cond.table)
    camera = _camera(rng, s, width, extra, tilt, lens)
    scene = TrayScene((), s, width, height, look, table, light, camera)
    proj = Projector(scene)
    inside = None
    if table.kind == "tray":
        m = _u(rng, 0.03, 0.1)
        corners = proj.to_table(np.array([(m * width, m * height), ((1 - m) * width,
                                                                   (1 - m) * height)]))
        x0, y0 = corners.min(axis=0)
        x1, y1 = corners.max(axis=0)
        inside = (float(x0), float(y0), float(x1), float(y1))
        table = replace(table, tray=inside)
    count = int(rng.integers(0, 4)) if distractors is None else distractors
    objs = _distractors(rng, count, s, proj, width, height, bool(rng.random() < hand))
    dice = _place(rng, cond.spacing, n_dice, s, proj, width, height, inside,
                  _blocked(objs, s), steep)
    return replace(scene, dice=tuple(dice), table=table, distractors=objs,
                   family=cond.families())


CLEAN = Conditions("neutral", "daylight", "apart", "medium", "solid")


def random_scene(rng: np.random.Generator, n_dice: int = 6, width: int = 1280,
                 height: int = 960, level: str = "mixed", touching: float = 0.3,
                 distractors: int | None = None) -> TrayScene:
    """A settled random scene of ``n_dice`` HABA dice.

    ``level``: ``clean`` (a neutral table in daylight, no distractors: the simulated tray),
    ``mixed`` (any family on every axis) or ``hard`` (any family, and blur, glare, tilt and
    JPEG always on). ``touching`` is the chance that the dice touch (clean level).
    """
    if level == "clean":
        cond = replace(CLEAN, spacing="touching" if rng.random() < touching else "apart",
                       size=str(rng.choice(["medium", "large"])))
        scene = scene_for(rng, cond, n_dice, width, height,
                          0 if distractors is None else distractors, hand=0.0)
        return replace(scene, look=replace(scene.look, paint=_jitter_paint(rng, False), wear=0.0),
                       camera=replace(scene.camera, distortion=0.0, defocus=0.0,
                                      white_balance=1.0, jpeg_quality=None, noise=2.0),
                       light=replace(scene.light, gradient=0.0))
    cond = random_conditions(rng)
    scene = scene_for(rng, cond, n_dice, width, height, distractors)
    if level == "hard":
        scene = replace(scene, camera=replace(
            scene.camera, defocus=max(scene.camera.defocus, 0.015),
            tilt=max(scene.camera.tilt, 10.0), jpeg_quality=int(rng.integers(40, 70))),
            light=replace(scene.light, hotspot=max(scene.light.hotspot, 0.3)))
    return scene


def relaid(rng: np.random.Generator, scene: TrayScene, spacing: str = "apart") -> TrayScene:
    """``scene`` with its dice thrown again: as many dice laid out anew (``spacing``, as
    :data:`AXES` names it) on the same table, under the same light and camera, clear of what
    lies beside them; their values drawn anew. Fewer when the table has no room for them."""
    dice = _place(rng, spacing, len(scene.dice), scene.die_size, Projector(scene),
                  scene.width, scene.height, scene.table.tray,
                  _blocked(scene.distractors, scene.die_size))
    return replace(scene, dice=tuple(dice))


def render_motion(rng: np.random.Generator, width: int = 1280, height: int = 960
                  ) -> tuple[np.ndarray, TrayScene]:
    """A frame of dice in motion: tumbling in the air, motion-blurred, some partly outside
    the frame, often with a hand over the tray. For roll-detection tests (no reliable truth)."""
    scene = random_scene(rng, width=width, height=height, level="clean", touching=0.0,
                         distractors=0)
    s = scene.die_size
    dice = []
    for d in scene.dice:
        x = d.x
        if rng.random() < 0.3:  # partly out of the frame
            x = float(rng.choice([-0.2 * s, width + 0.2 * s]))
        dice.append(replace(d, x=x, lift=_u(rng, 0, 2),
                            tumble=(_u(rng, 0, 360), _u(rng, 0, 360), _u(rng, 0, 360))))
    objs: tuple[Distractor, ...] = ()
    if rng.random() < 0.7:
        objs = (Distractor("hand", _u(rng, 0, width), _u(rng, 0, height), _u(rng, 0, 360),
                           _u(rng, 0.8, 1.4), (120, 150, 205)),)
    moving = replace(scene, dice=tuple(dice), distractors=objs,
                     camera=replace(scene.camera, height=25.0,
                                    motion_blur=_u(rng, 0.3, 1.5)))
    frame, _ = render_tray(moving, rng)
    return frame, moving

"""Render HABA-style dice trays with known truth: test data now, the simulated tray later.

A :class:`TrayScene` lists the dice (value, HABA pair, position on the table, rotation,
lift) and the nuisances of a real table (light gradient, soft shadows, colour cast, blur,
sensor noise, JPEG, distractor objects, camera height and so perspective). ``render_tray``
turns it into a BGR frame and the truth for every die. Everything is deterministic given
the ``numpy.random.Generator`` passed in.

Geometry: table coordinates are pixels of the frame at table level; the camera looks
straight down from ``camera_height`` die sizes above the table at the frame centre, so a
point ``z`` above the table appears at ``c + (p - c) * H / (H - z)``. Near the frame edge
the dice therefore show side faces, as on a real table. Light comes mainly from above:
top faces are lit fully, side faces less.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from rules.dice import HABA_LAYOUTS, Color

# Typical HABA paint colours (BGR), varied per die by the scene generator.
FACE_BGR: dict[Color, tuple[int, int, int]] = {
    Color.RED: (48, 42, 196),
    Color.GREEN: (64, 150, 46),
    Color.BLUE: (176, 92, 28),
}
PIP_BGR = (178, 222, 238)  # cream
TABLES_BGR = ((200, 200, 198), (170, 182, 190), (120, 122, 124), (215, 222, 226), (80, 84, 86))

PIP_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Pip positions on a face in units of the pip spacing (x right, y down)."""
PIP_SPACING = 0.27  # of the face side
PIP_RADIUS = 0.085  # of the face side


@dataclass(frozen=True)
class DieSpec:
    """One die: top value, HABA pair, table position (px), rotation (deg), lift (die sizes)."""

    value: int
    pair: str
    x: float
    y: float
    angle: float = 0.0
    lift: float = 0.0
    face_bgr: dict[Color, tuple[int, int, int]] | None = None

    @property
    def color(self) -> Color:
        return HABA_LAYOUTS[self.pair][self.value]


@dataclass(frozen=True)
class Distractor:
    """Something that is not a die: ``coin``, ``pencil``, ``card`` or ``hand``."""

    kind: str
    x: float
    y: float
    angle: float = 0.0
    scale: float = 1.0  # relative to the die size
    bgr: tuple[int, int, int] = (180, 180, 180)


@dataclass(frozen=True)
class Nuisances:
    """What a real table does to the picture. Neutral values mean a clean frame."""

    gradient: float = 0.0  # 0..1: darkening at the dim side of a linear light gradient
    gradient_angle: float = 0.0
    die_shadows: float = 0.0  # 0..1 darkness of each die's soft shadow
    big_shadow: float = 0.0  # 0..1 darkness of a soft shadow (an arm) across the tray
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R gains
    blur: float = 0.0  # Gaussian sigma in die sizes
    motion_blur: float = 0.0  # length in die sizes
    noise: float = 0.0  # sensor noise sigma in grey levels
    jpeg_quality: int | None = None


@dataclass(frozen=True)
class TrayScene:
    """A frame to render: the dice, the objects beside them and the nuisances."""

    dice: tuple[DieSpec, ...]
    die_size: float = 70.0  # px: the top face side at the frame centre
    width: int = 1280
    height: int = 960
    camera_height: float = math.inf  # in die sizes; inf = no perspective
    table_bgr: tuple[int, int, int] = (200, 200, 198)
    distractors: tuple[Distractor, ...] = ()
    nuisances: Nuisances = field(default_factory=Nuisances)


@dataclass(frozen=True)
class TruthDie:
    """Where a rendered die's top face appears and what it shows."""

    value: int
    color: Color
    center: tuple[float, float]
    outline: tuple[tuple[float, float], ...]
    size: float
    visible: bool = True  # the whole top face lies inside the frame


def _neighbours(value: int) -> list[int]:
    """The four side faces in cyclic order (opposites two apart)."""
    a, b = [v for v in range(1, 7) if v not in (value, 7 - value)][:2]
    return [a, b, 7 - a, 7 - b]


class _Projector:
    def __init__(self, scene: TrayScene) -> None:
        self.c = np.array([scene.width / 2.0, scene.height / 2.0])
        self.h = scene.camera_height * scene.die_size

    def __call__(self, pts: np.ndarray, z: np.ndarray | float) -> np.ndarray:
        if math.isinf(self.h):
            return pts.astype(np.float64)
        k = self.h / (self.h - np.asarray(z, dtype=np.float64))
        return self.c + (pts - self.c) * np.reshape(k, (-1, 1))


def _poly(img: np.ndarray, pts: np.ndarray, bgr: tuple[float, ...]) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], bgr, cv2.LINE_AA, shift=4)


def _scaled(bgr: tuple[int, int, int], k: float) -> tuple[float, float, float]:
    return tuple(min(255.0, c * k) for c in bgr)  # type: ignore[return-value]


def _draw_die(img: np.ndarray, shadow: np.ndarray | None, die: DieSpec, scene: TrayScene,
              proj: _Projector) -> TruthDie:
    s = scene.die_size
    colors = die.face_bgr or FACE_BGR
    layout = HABA_LAYOUTS[die.pair]
    t = math.radians(die.angle)
    ux, uy = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    centre = np.array([die.x, die.y])
    corners = np.array([centre + (sx * ux + sy * uy) * s / 2
                        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    z0, z1 = die.lift * s, (die.lift + 1.0) * s
    if shadow is not None:  # shadow pass only: soft shadow offset down-right
        _poly(shadow, corners + s * 0.12, (1.0,))
        return None  # type: ignore[return-value]
    # side faces, back to front, then the top
    top = proj(corners, z1)
    base = proj(corners, z0)
    sides = []
    for k, v in enumerate(_neighbours(die.value)):
        a, b = k, (k + 1) % 4
        mid = (corners[a] + corners[b]) / 2
        normal = mid - centre
        facing = float(np.dot(normal, proj.c - mid)) if not math.isinf(proj.h) else -1.0
        sides.append((facing, a, b, v, normal))
    for facing, a, b, v, normal in sorted(sides, key=lambda f: f[0]):
        if facing <= 0:
            continue
        light = 0.55 + 0.2 * float(np.dot(normal / np.linalg.norm(normal), [-0.7, -0.7]))
        quad = np.array([base[a], base[b], top[b], top[a]])
        _poly(img, quad, _scaled(colors[layout[v]], light))
        # pips on the side face: (u along the edge, w up the face)
        for px, py in PIP_SPOTS[v]:
            ang = np.linspace(0, 2 * math.pi, 12, endpoint=False)
            u = 0.5 + PIP_SPACING * px + PIP_RADIUS * np.cos(ang)
            w = 0.5 + PIP_SPACING * py + PIP_RADIUS * np.sin(ang)
            p3 = corners[a] + np.outer(u, corners[b] - corners[a])
            _poly(img, proj(p3, z0 + w * s), _scaled(PIP_BGR, light))
    face = colors[die.color]
    _poly(img, top, _scaled(face, 0.62))  # rounded edge: darker rim
    tc = top.mean(axis=0)
    _poly(img, tc + (top - tc) * 0.92, face)
    k = (top[1] - top[0])
    side_px = float(np.linalg.norm(k))
    ex, ey = k / side_px, (top[3] - top[0]) / np.linalg.norm(top[3] - top[0])
    for px, py in PIP_SPOTS[die.value]:
        p = tc + (px * ex + py * ey) * PIP_SPACING * side_px
        cv2.circle(img, tuple(np.round(p * 16).astype(int)), round(PIP_RADIUS * side_px * 16),
                   PIP_BGR, -1, cv2.LINE_AA, shift=4)
    h, w = img.shape[:2]
    visible = bool(np.all((top >= 0) & (top < [w, h])))
    return TruthDie(die.value, die.color, (float(tc[0]), float(tc[1])),
                    tuple((float(x), float(y)) for x, y in top), side_px, visible)


def _draw_distractor(img: np.ndarray, shadow: np.ndarray, d: Distractor, s: float,
                     rng: np.random.Generator) -> None:
    c = np.array([d.x, d.y])
    t = math.radians(d.angle)
    ux, uy = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    if d.kind == "coin":
        r = 0.75 * s * d.scale
        ci = tuple(np.round(c * 16).astype(int))
        cv2.circle(shadow, tuple(np.round((c + 0.08 * s) * 16).astype(int)), round(r * 16),
                   1.0, -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, ci, round(r * 16), d.bgr, -1, cv2.LINE_AA, shift=4)
        cv2.circle(img, ci, round(r * 0.85 * 16), _scaled(d.bgr, 0.8), max(1, round(s / 30)),
                   cv2.LINE_AA, shift=4)
        cv2.circle(img, tuple(np.round((c - 0.3 * r) * 16).astype(int)), round(r * 0.3 * 16),
                   _scaled(d.bgr, 1.25), -1, cv2.LINE_AA, shift=4)
    elif d.kind == "pencil":
        half_l, half_w = 4.0 * s * d.scale, 0.22 * s
        body = np.array([c - ux * half_l - uy * half_w, c + ux * half_l - uy * half_w,
                         c + ux * half_l + uy * half_w, c - ux * half_l + uy * half_w])
        _poly(shadow, body + 0.08 * s, (1.0,))
        _poly(img, body, d.bgr)
        _poly(img, np.array([c - uy * half_w * 0.3 - ux * half_l,
                             c + uy * half_w * 0.3 - ux * half_l,
                             c + uy * half_w * 0.3 + ux * half_l,
                             c - uy * half_w * 0.3 + ux * half_l]), _scaled(d.bgr, 1.15))
        tip = np.array([c + ux * half_l - uy * half_w, c + ux * (half_l + 0.9 * s),
                        c + ux * half_l + uy * half_w])
        _poly(img, tip, (120, 170, 205))
        _poly(img, c + ux * (half_l + 0.6 * s) + (tip - tip[1]) * 0.33 + 0.0, (60, 60, 60))
    elif d.kind == "card":
        half = np.array([1.9, 2.8]) * s * d.scale
        pts = np.array([c + (sx * half[0]) * ux + (sy * half[1]) * uy
                        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        _poly(shadow, pts + 0.05 * s, (1.0,))
        _poly(img, pts, (228, 234, 236))
        inner = c + (pts - c) * 0.86
        _poly(img, inner, d.bgr)
        for _ in range(6):  # printed art: circles and blobs of other colours
            du, dv = rng.uniform(-0.7, 0.7, 2)
            p = c + du * half[0] * ux + dv * half[1] * uy
            col = tuple(int(v) for v in rng.integers(30, 240, 3))
            cv2.circle(img, tuple(np.round(p * 16).astype(int)),
                       round(rng.uniform(0.08, 0.4) * s * 16), col, -1, cv2.LINE_AA, shift=4)
    elif d.kind == "hand":
        r = 1.6 * s * d.scale
        _poly(shadow, cv2.ellipse2Poly((int(c[0] + 0.3 * s), int(c[1] + 0.3 * s)),
                                       (int(r * 1.3), int(r)), int(d.angle), 0, 360, 10)
              .astype(np.float64), (1.0,))
        cv2.ellipse(img, (int(c[0]), int(c[1])), (int(r * 1.3), int(r)), d.angle, 0, 360,
                    d.bgr, -1, cv2.LINE_AA)
        for k in range(4):  # fingers
            a = t + (k - 1.5) * 0.35
            tip = c + np.array([math.cos(a), math.sin(a)]) * r * 2.2
            cv2.line(img, (int(c[0]), int(c[1])), (int(tip[0]), int(tip[1])), d.bgr,
                     max(2, int(0.5 * r)), cv2.LINE_AA)
    else:
        raise ValueError(f"unknown distractor {d.kind!r}")


def render_tray(scene: TrayScene, rng: np.random.Generator) -> tuple[np.ndarray, list[TruthDie]]:
    """Render ``scene``: a ``height x width x 3`` uint8 BGR frame and the truth per die.

    The truth lists every die whose top face is at least partly in the frame, in the order
    of ``scene.dice``; ``visible`` is False for a die cut by the frame edge.
    """
    w, h, s, n = scene.width, scene.height, scene.die_size, scene.nuisances
    img = np.empty((h, w, 3), np.float32)
    img[:] = scene.table_bgr
    # low-frequency table texture (a little mottling) plus fine grain
    small = rng.normal(0, 1, (max(2, h // 64), max(2, w // 64), 1)).astype(np.float32)
    img *= 1.0 + 0.025 * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[..., None]
    shadow = np.zeros((h, w), np.float32)
    dshadow = np.zeros((h, w), np.float32)
    proj = _Projector(scene)
    for d in scene.distractors:
        if d.kind == "card":
            _draw_distractor(img, shadow, d, s, rng)
    # painter's order: lower dice first, and among them the ones farther from the point
    # under the camera (their visible side faces are hidden by the nearer dice's tops)
    order = sorted(scene.dice, key=lambda d: (d.lift, -math.hypot(d.x - w / 2, d.y - h / 2)))
    if n.die_shadows > 0:  # soft shadows fall on the table before the dice are drawn
        for d in order:
            _draw_die(img, dshadow, d, scene, proj)
        soft = cv2.GaussianBlur(dshadow, (0, 0), 0.15 * s)
        img *= (1.0 - n.die_shadows * 0.5 * np.clip(soft, 0, 1))[..., None]
    truth_by_id = {}
    for d in order:
        truth_by_id[id(d)] = _draw_die(img, None, d, scene, proj)
    for d in scene.distractors:
        if d.kind != "card":
            _draw_distractor(img, shadow, d, s, rng)
    if n.big_shadow > 0:
        arm = np.zeros((h, w), np.float32)
        p = rng.uniform([0, 0], [w, h])
        cv2.ellipse(arm, (int(p[0]), int(p[1])), (int(rng.uniform(3, 6) * s), int(1.4 * s)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        arm = cv2.GaussianBlur(arm, (0, 0), 0.9 * s)
        img *= (1.0 - n.big_shadow * 0.55 * arm)[..., None]
    if n.gradient > 0:
        ga = math.radians(n.gradient_angle)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        proj_g = (xx - w / 2) * math.cos(ga) + (yy - h / 2) * math.sin(ga)
        proj_g /= max(1.0, float(np.abs(proj_g).max()))
        img *= (1.0 - n.gradient * 0.5 * (1.0 + proj_g))[..., None]
    img *= np.array(n.cast, np.float32)
    if n.motion_blur > 0:
        ln = max(3, int(n.motion_blur * s) | 1)
        k = np.zeros((ln, ln), np.float32)
        k[ln // 2, :] = 1.0 / ln
        rot = cv2.getRotationMatrix2D((ln / 2 - 0.5, ln / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        k = cv2.warpAffine(k, rot, (ln, ln))
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
    if n.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), n.blur * s)
    if n.noise > 0:
        img += rng.normal(0, n.noise, img.shape).astype(np.float32)
    frame = np.clip(img, 0, 255).astype(np.uint8)
    if n.jpeg_quality is not None:
        _, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(n.jpeg_quality)])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = []
    for d in scene.dice:
        t = truth_by_id[id(d)]
        cx, cy = t.center
        if 0 <= cx < w and 0 <= cy < h:
            truth.append(t)
    return frame, truth


def _jitter_colors(rng: np.random.Generator) -> dict[Color, tuple[int, int, int]]:
    out = {}
    for c, bgr in FACE_BGR.items():
        k = rng.uniform(0.85, 1.12)
        out[c] = tuple(int(np.clip(v * k + rng.normal(0, 6), 0, 255)) for v in bgr)
    return out  # type: ignore[return-value]


def random_nuisances(rng: np.random.Generator, level: str = "mixed") -> Nuisances:
    """Nuisances for a frame: ``clean``, ``mixed`` (each nuisance on about half the frames)
    or ``hard`` (all of them, strong)."""
    if level == "clean":
        return Nuisances(noise=2.0)
    hard = level == "hard"

    def on(p: float = 0.5) -> bool:
        return hard or rng.random() < p

    return Nuisances(
        gradient=float(rng.uniform(0.1, 0.5)) if on() else 0.0,
        gradient_angle=float(rng.uniform(0, 360)),
        die_shadows=float(rng.uniform(0.3, 0.8)) if on(0.7) else 0.0,
        big_shadow=float(rng.uniform(0.3, 0.7)) if on(0.3) else 0.0,
        cast=tuple(float(v) for v in rng.uniform(0.82, 1.18, 3)) if on() else (1.0, 1.0, 1.0),
        blur=float(rng.uniform(0.005, 0.03)) if on() else 0.0,
        noise=float(rng.uniform(1.5, 6.0)),
        jpeg_quality=int(rng.integers(40, 95)) if on() else None,
    )


def random_distractors(rng: np.random.Generator, s: float, width: int, height: int,
                       count: int) -> tuple[Distractor, ...]:
    out = []
    for _ in range(count):
        kind = str(rng.choice(["coin", "pencil", "card"]))
        if kind == "card":  # a card lying at the frame edge, mostly outside
            side = int(rng.integers(4))
            x = [rng.uniform(0, width), width + s * 1.2, rng.uniform(0, width), -s * 1.2][side]
            y = [-s * 1.8, rng.uniform(0, height), height + s * 1.8, rng.uniform(0, height)][side]
            bgr = tuple(int(v) for v in rng.choice(
                [(40, 200, 230), (40, 80, 130), (170, 90, 30), (60, 150, 50), (140, 60, 120)]))
            out.append(Distractor("card", float(x), float(y), float(rng.uniform(-20, 20)) +
                                  90.0 * (side % 2), 1.0, bgr))
        else:
            bgr = ((30, 200, 230) if kind == "pencil" else (170, 175, 180))
            if rng.random() < 0.4:
                bgr = tuple(int(v) for v in rng.choice(
                    [(40, 60, 190), (60, 140, 50), (170, 90, 30), (60, 130, 190)]))
            out.append(Distractor(kind, float(rng.uniform(0, width)),
                                  float(rng.uniform(0, height)), float(rng.uniform(0, 180)),
                                  float(rng.uniform(0.8, 1.2)), bgr))
    return tuple(out)


def random_scene(rng: np.random.Generator, n_dice: int = 6, width: int = 1280,
                 height: int = 960, level: str = "mixed", touching: float = 0.3,
                 distractors: int | None = None) -> TrayScene:
    """A settled random scene of ``n_dice`` HABA dice (two of each pair, repeating).

    Die size, camera height, rotation, touching dice (a probability per die) and the
    nuisances are random; all dice lie flat and entirely inside the frame.
    """
    s = float(rng.uniform(45, 110)) * width / 1280
    cam = math.inf if level == "clean" or rng.random() < 0.25 else float(rng.uniform(16, 40))
    if distractors is None:
        distractors = 0 if level == "clean" else int(rng.integers(0, 3))
    colors = _jitter_colors(rng)
    pairs = ["A", "A", "B", "B", "C", "C"]
    objs = random_distractors(rng, s, width, height, distractors)
    blocked = [(o.x, o.y, (6.5 * o.scale if o.kind == "pencil" else 1.3) * s) for o in objs
               if o.kind != "card"]
    dice: list[DieSpec] = []
    margin = 1.1 * s
    if not math.isinf(cam):  # keep the top faces inside the frame
        margin = 1.1 * s + 0.6 * s * max(width, height) / 2 / (cam * s) * 1.2
    tries = 0
    while len(dice) < n_dice and tries < 2000:
        tries += 1
        angle = float(rng.uniform(0, 90))
        if dice and rng.random() < touching:
            other = dice[int(rng.integers(len(dice)))]
            t = math.radians(other.angle + 90 * int(rng.integers(4)))
            gap = s * float(rng.uniform(1.0, 1.06))
            x, y = other.x + gap * math.cos(t), other.y + gap * math.sin(t)
            angle = other.angle + float(rng.uniform(-4, 4))
            min_d = s * 0.99
        else:
            x, y = rng.uniform(margin, width - margin), rng.uniform(margin, height - margin)
            min_d = s * 1.5
        if not (margin <= x <= width - margin and margin <= y <= height - margin):
            continue
        if any(math.hypot(x - d.x, y - d.y) < min_d for d in dice):
            continue
        if any(math.hypot(x - d.x, y - d.y) < 1.45 * s and abs(((d.angle - angle) % 90) - 45) < 38
               for d in dice):
            continue  # touching but not aligned would overlap
        if any(math.hypot(x - bx, y - by) < r for bx, by, r in blocked):
            continue
        value = int(rng.integers(1, 7))
        dice.append(DieSpec(value, pairs[len(dice) % 6], float(x), float(y), angle,
                            face_bgr=colors))
    table = tuple(int(v) for v in TABLES_BGR[int(rng.integers(len(TABLES_BGR)))])
    return TrayScene(tuple(dice), s, width, height, cam, table, objs, random_nuisances(rng, level))


def render_motion(rng: np.random.Generator, width: int = 1280, height: int = 960
                  ) -> tuple[np.ndarray, TrayScene]:
    """A frame of dice in motion: lifted, motion-blurred, some partly outside the frame,
    often with a hand over the tray. For roll-detection tests (no reliable truth)."""
    scene = random_scene(rng, width=width, height=height, touching=0.0, distractors=0)
    s = scene.die_size
    dice = []
    for d in scene.dice:
        x, y = d.x, d.y
        if rng.random() < 0.3:  # partly out of the frame
            x = float(rng.choice([-0.2 * s, width + 0.2 * s]))
        dice.append(replace(d, x=x, y=y, lift=float(rng.uniform(0, 2)),
                            angle=float(rng.uniform(0, 360))))
    objs: tuple[Distractor, ...] = ()
    if rng.random() < 0.7:
        objs = (Distractor("hand", float(rng.uniform(0, width)), float(rng.uniform(0, height)),
                           float(rng.uniform(0, 360)), float(rng.uniform(0.8, 1.4)),
                           (120, 150, 205)),)
    moving = replace(scene, dice=tuple(dice), distractors=objs, camera_height=25.0,
                     nuisances=replace(scene.nuisances, motion_blur=float(rng.uniform(0.3, 1.5))))
    frame, _ = render_tray(moving, rng)
    return frame, moving

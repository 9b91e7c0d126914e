"""A physically based check set of HABA dice frames, rendered with Mitsuba 3.

Run: .venv/bin/python tools/render_pbr.py --frames N --start S --out .cache/pbr-set
(needs the ``pbr`` extra: ``pip install -e '.[pbr]'``; only the ``scalar_rgb`` variant is used,
on one thread: run it under ``nice``, one process at a time).

This is an honest check of the reader, never a set to tune it on, and it shares nothing with
our own renderer (``vision.render`` is not imported): the scene, the geometry, the textures, the
camera and the truth are all made here. A frame is made from its seed alone (``frame-SSSSSS.png``
and ``frame-SSSSSS.json``, 1280x960):

* six wooden HABA dice (edge 1.6 cm): rounded cubes (edge radius 5-12% of the edge) built as
  one mesh per face with its own texture (the face's paint, or a painted inset with a light
  wooden border; cream pips in the standard layout, flat or engraved with a darker rim), a
  varnished-wood BSDF (rough plastic: diffuse paint under a rough dielectric coat). Opposite
  faces sum to seven; the face colours follow the die's pair (``rules.dice.HABA_LAYOUTS``),
  two dice of each pair.
* the dice lie flat, apart, touching (gap 0-1 mm), in a cluster of 3-4 touching dice, or one
  leans 20-40 degrees against a neighbour: one bottom edge on the table, the lifted bottom
  edge against the neighbour's side (with two equal cubes tilted 20-40 degrees that is where
  they touch: the lifted edge is only 0.34-0.64 of an edge high).
* tables: varnished wood, felt, a printed or woven cloth, cardboard, a wooden tray with walls;
  sometimes a playing card and coins beside the dice.
* ``--at-table``: a real table instead (:data:`AT_TABLE`): the five face-up citizen cards in a
  row beside the dice, each with 1-5 dice printed on it in the dice's own paint (never dice),
  a desk-arm camera tilted 28-35 degrees, a warm lamp. No hands (nothing here models one).
* ``--last-roll``: each frame's last roll too (``frame-SSSSSS-last.png`` and ``.json``): the
  same table, cards, clutter, light and camera, the dice of the roll before lying elsewhere (a
  quarter of them where they lie now, kept), drawn with the same random numbers but for the
  dice; the reader is handed it as the roll detector hands the last roll's picture.
* one or two area lights (rectangles or spheres) of 2700-6500 K and a dim constant sky; a
  perspective camera 35-100 cm above the table, tilted 0-20 degrees, sometimes a thin lens a
  little out of focus; then auto exposure, part white balance, vignetting, sensor noise,
  sRGB, JPEG (quality 50-95) decoded again and stored as PNG.

The truth (JSON) names, per die, the value and colour on top, the top face's centre and
corners projected with the sensor's own transform and field of view, its mean edge in pixels,
``visible`` (the four corners in the frame and no point of the top covered, found by casting
rays from the camera) and ``leaning``; and the frame's family on every axis.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.dice import HABA_LAYOUTS, HABA_LOOK, Color  # noqa: E402

WIDTH, HEIGHT = 1280, 960
EDGE = 1.6  # cm: everything is in centimetres
HALF = EDGE / 2
KEPT = 0.25
"""The share of a last roll's dice kept where they lie (:func:`last_roll`)."""
SPP = 16
MAX_DEPTH = 4
FACE_RES = 256
TABLE_RES = 2048

AXES: dict[str, tuple[str, ...]] = {
    "table": ("wood-light", "wood-orange", "wood-dark", "felt-green", "felt-blue", "felt-red",
              "felt-black", "cloth", "card", "tray"),
    "light": ("soft", "hard", "two", "dim"),
    "colour": ("warm", "neutral", "cool"),
    "spacing": ("apart", "touching", "cluster", "leaning"),
    "size": ("small", "medium", "large"),
    "dice": ("solid", "inset"),
    "pips": ("flat", "engraved"),
    "camera": ("top", "tilted", "defocus"),
    "clutter": ("none", "card", "coins"),
}
"""The families a frame draws one of, per axis (each uniformly)."""

AT_TABLE = {"camera": "desk-arm", "colour": "warm", "clutter": "citizens"}
"""A real table's families (``--at-table``), in place of what the frame drew on those axes."""
CARD_CM = (5.9, 9.2)
"""A citizen card's edges, cm."""

SIZES = {"small": (30.0, 60.0), "medium": (60.0, 100.0), "large": (100.0, 160.0)}
"""Die edge in pixels at the middle of the frame, per size family."""

KELVIN = {"warm": (2700.0, 3500.0), "neutral": (3500.0, 5000.0), "cool": (5000.0, 6500.0)}

# the canonical die: the value on the face whose outward normal is each local axis
CANONICAL = {(0, 0, 1): 1, (0, 0, -1): 6, (1, 0, 0): 2, (-1, 0, 0): 5, (0, 1, 0): 3, (0, -1, 0): 4}

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (-1, 1), (1, -1), (1, 1)], 5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
        6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)]}
"""Pip centres in units of the pip offset from the face centre (standard layout)."""


# ----------------------------------------------------------------------------- colour

def srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.power(c, 1 / 2.4) - 0.055)


def hex_linear(text: str) -> np.ndarray:
    text = text.lstrip("#")
    return srgb_to_linear(np.array([int(text[i:i + 2], 16) / 255 for i in (0, 2, 4)]))


def _lobe(lam: np.ndarray, mu: float, s1: float, s2: float) -> np.ndarray:
    s = np.where(lam < mu, s1, s2)
    return np.exp(-0.5 * ((lam - mu) / s) ** 2)


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """Linear sRGB of a black body at ``kelvin``, luminance 1: Planck's law through the CIE
    1931 observer (Wyman, Sloan and Shirley's multi-lobe fit), then XYZ to linear sRGB."""
    lam = np.arange(380.0, 781.0, 5.0)
    m = lam * 1e-9
    planck = 1.0 / (m ** 5 * (np.exp(1.438777e-2 / (m * kelvin)) - 1.0))
    x = (1.056 * _lobe(lam, 599.8, 37.9, 31.0) + 0.362 * _lobe(lam, 442.0, 16.0, 26.7)
         - 0.065 * _lobe(lam, 501.1, 20.4, 26.2))
    y = 0.821 * _lobe(lam, 568.8, 46.9, 40.5) + 0.286 * _lobe(lam, 530.9, 16.3, 31.1)
    z = 1.217 * _lobe(lam, 437.0, 11.8, 36.0) + 0.681 * _lobe(lam, 459.0, 26.0, 13.8)
    xyz = np.array([np.sum(planck * x), np.sum(planck * y), np.sum(planck * z)])
    xyz /= xyz[1]
    to_rgb = np.array([[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415],
                       [0.0557, -0.2040, 1.0570]])
    rgb = np.clip(to_rgb @ xyz, 0.0, None)
    return np.asarray(rgb / luminance(rgb))


def luminance(rgb: np.ndarray) -> Any:
    return rgb[..., 0] * 0.2126 + rgb[..., 1] * 0.7152 + rgb[..., 2] * 0.0722


def dice_colours() -> tuple[dict[Color, np.ndarray], np.ndarray]:
    """The paint (per colour) and pip colours of HABA's dice, linear RGB (``HABA_LOOK``)."""
    return ({c: hex_linear(v) for c, v in HABA_LOOK.paint.items()},
            hex_linear(HABA_LOOK.pips))


# ----------------------------------------------------------------------------- noise, textures

def fbm(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[float, float],
        octaves: int = 4, gain: float = 0.5) -> np.ndarray:
    """Fractal value noise (about unit spread): ``cells`` = noise cells along (rows, columns)
    at the coarsest octave, each octave twice as fine."""
    h, w = shape
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    cy, cx = cells
    for _ in range(octaves):
        gh = int(min(max(2, round(cy) + 1), h))
        gw = int(min(max(2, round(cx) + 1), w))
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= gain
        cy, cx = cy * 2, cx * 2
    return out / total


def rotate_crop(img: np.ndarray, angle: float, size: int) -> np.ndarray:
    """``img`` (square, larger than ``size``) turned by ``angle`` degrees, its middle cropped."""
    n = img.shape[0]
    m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    out = cv2.warpAffine(img, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    a = (n - size) // 2
    return out[a:a + size, a:a + size]


def wood(rng: np.random.Generator, res: int, size_cm: float, base: np.ndarray, *,
         planks: bool, contrast: float = 1.0) -> np.ndarray:
    """Varnished wood, linear RGB (res x res over size_cm): annual rings and fibres along a
    random direction, boards of slightly different tone with dark seams."""
    n = int(res * 1.45) + 2
    cm = size_cm / res
    yy = (np.arange(n, dtype=np.float32) * cm)[:, None] * np.ones((1, n), np.float32)
    ring = rng.uniform(0.25, 0.9)
    warp = fbm(rng, (n, n), (n * cm / 10, n * cm / 40), 3)
    phase = yy / ring + 2.2 * warp + 0.4 * fbm(rng, (n, n), (n * cm / 3, n * cm / 12), 3)
    rings = (0.5 + 0.5 * np.sin(2 * np.pi * phase)) ** 3
    fibres = fbm(rng, (n, n), (min(n * cm / 0.06, n / 2), n * cm / 4), 3, 0.6)
    tone = np.ones((n, n), np.float32)
    seam = np.zeros((n, n), np.float32)
    if planks:
        board = rng.uniform(7.0, 18.0)
        k = np.floor(yy / board).astype(int)
        shades = rng.uniform(0.82, 1.18, size=k.max() + 1).astype(np.float32)
        tone = shades[k]
        frac = (yy / board) - k
        width = 0.07 / board
        seam = np.clip(1.0 - np.minimum(frac, 1 - frac) / max(width, 1e-4), 0, 1)
    shade = (1 - 0.28 * contrast * rings) * (1 + 0.10 * contrast * fibres) * tone
    shade *= 1 - 0.6 * seam
    img = base[None, None, :].astype(np.float32) * shade[..., None]
    # wood darkens toward orange-brown in its late rings
    img[..., 2] *= 1 - 0.15 * contrast * rings
    img = rotate_crop(img, float(rng.uniform(0, 180)), res)
    return np.clip(img, 0.0, 0.95)


def felt(rng: np.random.Generator, res: int, size_cm: float, base: np.ndarray) -> np.ndarray:
    """Felt: fine fibre noise and a few lighter and darker specks around ``base``."""
    c = size_cm
    fine = fbm(rng, (res, res), (min(c / 0.08, res / 2),) * 2, 2, 0.7)
    mid = fbm(rng, (res, res), (c / 2.5, c / 2.5), 3)
    specks = rng.standard_normal((res, res)).astype(np.float32)
    soft = np.asarray(cv2.GaussianBlur(specks, (0, 0), 0.7))
    shade = 1 + 0.08 * fine + 0.05 * mid + 0.10 * soft
    img: np.ndarray = np.clip(base[None, None, :] * shade[..., None], 0.0, 0.9)
    return img.astype(np.float32)


def cardboard(rng: np.random.Generator, res: int, size_cm: float, base: np.ndarray
              ) -> np.ndarray:
    c = size_cm
    fibres = fbm(rng, (res, res), (min(c / 0.1, res / 2), min(c / 0.5, res / 2)), 3, 0.6)
    fibres = rotate_crop(np.pad(fibres, res // 4, mode="reflect"), float(rng.uniform(0, 180)),
                         res)
    blotch = fbm(rng, (res, res), (c / 6, c / 6), 3)
    specks = (rng.random((res, res)) < 0.002).astype(np.float32)
    dots = np.asarray(cv2.GaussianBlur(specks, (0, 0), 0.8)) * 4
    shade = 1 + 0.05 * fibres + 0.05 * blotch - 0.3 * np.clip(dots, 0, 1)
    img: np.ndarray = np.clip(base[None, None, :] * shade[..., None], 0, 0.9)
    return img.astype(np.float32)


def _palette(rng: np.random.Generator, k: int) -> list[np.ndarray]:
    """``k`` cloth colours: hues anywhere (red, green and blue included), some pale."""
    out = []
    for _ in range(k):
        hue = rng.uniform(0, 180)
        sat = rng.uniform(40, 230)
        val = rng.uniform(90, 250)
        hsv = np.array([[[hue, sat, val]]]).astype(np.uint8)
        bgr = np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR))[0, 0][::-1] / 255.0
        out.append(srgb_to_linear(bgr))
    return out


def cloth(rng: np.random.Generator, res: int, size_cm: float) -> tuple[np.ndarray, str]:
    """A printed or woven tablecloth: gingham, stripes, dots, flowers or plaid, with weave."""
    kind = str(rng.choice(["gingham", "stripes", "dots", "flowers", "plaid"]))
    cm = size_cm / res
    yy, xx = np.mgrid[0:res, 0:res].astype(np.float32) * cm
    cols = _palette(rng, 3)
    white = srgb_to_linear(np.array([0.93, 0.92, 0.88]) * rng.uniform(0.85, 1.0))
    img = np.empty((res, res, 3), np.float32)
    img[:] = white if rng.random() < 0.6 else cols[2]
    if kind in ("gingham", "plaid"):
        p = rng.uniform(0.6, 3.0)
        bx = ((xx / p) % 2) < 1
        by = ((yy / p) % 2) < 1
        c = cols[0]
        img[bx | by] = 0.5 * img[bx | by] + 0.5 * c
        img[bx & by] = c
        if kind == "plaid":
            q = p * rng.uniform(2.5, 5.0)
            line = (np.abs((xx % q) - q / 2) < 0.08) | (np.abs((yy % q) - q / 2) < 0.08)
            img[line] = cols[1]
    elif kind == "stripes":
        p = rng.uniform(0.5, 4.0)
        frac = rng.uniform(0.2, 0.6)
        s = ((yy / p) % 1) < frac
        img[s] = cols[0]
        t = ((yy / p + 0.5) % 1) < frac * 0.3
        img[t] = cols[1]
    elif kind == "dots":
        p = rng.uniform(1.2, 4.0)
        rad = p * rng.uniform(0.12, 0.32)
        sx = (np.floor(yy / p) % 2) * p / 2
        d = np.hypot(((xx + sx) % p) - p / 2, (yy % p) - p / 2)
        img[d < rad] = cols[0]
    else:  # flowers: scattered blossoms and leaves
        count = int(size_cm * size_cm / rng.uniform(4, 20))
        canvas = (img * 255).astype(np.float32)
        scale = res / size_cm
        for _ in range(count):
            x, y = rng.uniform(0, res), rng.uniform(0, res)
            r = rng.uniform(0.3, 1.6) * scale
            c = cols[int(rng.integers(0, 2))] * 255
            petals = int(rng.integers(4, 7))
            for k in range(petals):
                a = 2 * np.pi * k / petals + rng.uniform(0, 1)
                cx, cy = x + 0.6 * r * np.cos(a), y + 0.6 * r * np.sin(a)
                cv2.ellipse(canvas, (int(cx), int(cy)), (max(1, int(r * 0.5)),
                            max(1, int(r * 0.3))), float(np.degrees(a)), 0, 360,
                            tuple(float(v) for v in c), -1, cv2.LINE_AA)
            cv2.circle(canvas, (int(x), int(y)), max(1, int(r * 0.25)),
                       tuple(float(v) for v in cols[1] * 255), -1, cv2.LINE_AA)
        img = (canvas / 255).astype(np.float32)
    # weave / print texture
    weave = fbm(rng, (res, res), (min(size_cm / 0.1, res / 2),) * 2, 2, 0.7)
    img *= (1 + 0.07 * weave + 0.04 * fbm(rng, (res, res), (size_cm / 4,) * 2, 2))[..., None]
    img = rotate_crop(np.pad(img, ((res // 4,) * 2, (res // 4,) * 2, (0, 0)), mode="reflect"),
                      float(rng.uniform(-25, 25)), res)
    return np.clip(img, 0.0, 0.9).astype(np.float32), kind


def _blobs(rng: np.random.Generator, canvas: np.ndarray, cols: list[np.ndarray], count: int,
           axes: tuple[float, float]) -> None:
    """``count`` filled ellipses of the colours ``cols`` (0-1, drawn at 0-255) anywhere on
    ``canvas``, their half-axes within ``axes`` pixels: a card's picture."""
    h, w = canvas.shape[:2]
    for _ in range(count):
        c = tuple(float(v) for v in cols[int(rng.integers(0, len(cols)))] * 255)
        cv2.ellipse(canvas, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(*axes)), int(rng.uniform(*axes))),
                    float(rng.uniform(0, 180)), 0, 360, c, -1, cv2.LINE_AA)


def playing_card(rng: np.random.Generator) -> np.ndarray:
    """A printed card face (illustrated, with a white border and a title), 320x448."""
    h, w = 448, 320
    img = np.ones((h, w, 3), np.float32) * 0.85
    cols = _palette(rng, 4)
    inner = np.zeros((h - 40, w - 40, 3), np.float32)
    g = np.linspace(0, 1, h - 40, dtype=np.float32)[:, None, None]
    inner[:] = cols[0] * (1 - g) + cols[1] * g
    canvas = (inner * 255).copy()
    _blobs(rng, canvas, cols, int(rng.integers(4, 12)), (8, 80))
    cv2.rectangle(canvas, (10, 10), (w - 50, 50), (235, 225, 200), -1)
    for k in range(3):
        cv2.line(canvas, (20, 22 + 10 * k), (int(rng.uniform(80, w - 60)), 22 + 10 * k),
                 (30, 30, 30), 3)
    img[20:h - 20, 20:w - 20] = canvas / 255
    return np.asarray(np.clip(img, 0, 0.9))


def citizen_card(rng: np.random.Generator, look: DiceLook) -> np.ndarray:
    """A citizen card's face, linear RGB, 480x748: a cream border, a figure, a title band and,
    below, the requirement's 1-5 dice printed in the dice's own paint with light pips."""
    h, w = 748, 480
    img = np.ones((h, w, 3), np.float32) * srgb_to_linear(np.array([0.86, 0.82, 0.72]))
    cols = _palette(rng, 4)
    art = (np.ones((430, w - 60, 3), np.float32) * cols[0] * 255).copy()
    _blobs(rng, art, cols, int(rng.integers(5, 14)), (10, 110))
    img[30:460, 30:w - 30] = art / 255
    cv2.rectangle(img, (30, 470), (w - 30, 520), (0.55, 0.45, 0.3), -1)
    for k in range(2):
        cv2.line(img, (50, 488 + 16 * k), (int(rng.uniform(150, w - 60)), 488 + 16 * k),
                 (0.05, 0.05, 0.05), 4)
    count = int(rng.integers(1, 6))
    side = int(rng.uniform(0.17, 0.24) * w)
    gap = max((w - 60 - count * side) // (count + 1), 4)
    colours = list(look.paint)
    for k in range(count):
        x0, y0 = 30 + gap + k * (side + gap), 560 + int(rng.uniform(0, 130 - side // 2))
        printed = look.paint[colours[int(rng.integers(0, len(colours)))]]
        cv2.rectangle(img, (x0, y0), (x0 + side, y0 + side), tuple(float(v) for v in printed),
                      -1, cv2.LINE_AA)
        for gx, gy in PIPS[int(rng.integers(1, 7))]:
            at = (int(x0 + side * (0.5 + 0.27 * gx)), int(y0 + side * (0.5 + 0.27 * gy)))
            cv2.circle(img, at, max(int(side * 0.09), 2), (0.85, 0.83, 0.78), -1, cv2.LINE_AA)
    return np.asarray(np.clip(img, 0, 0.9), np.float32)


def citizen_row(rng: np.random.Generator, dice: list[DiePose]
                ) -> list[tuple[np.ndarray, float]]:
    """Where the five citizen cards lie: a row beside the dice, 0.3-2 cm clear of them (no
    card under a die), the row along a random direction; each card's centre and turn."""
    ang = rng.uniform(0, 2 * math.pi)
    along, out = np.array([math.cos(ang), math.sin(ang)]), np.array([-math.sin(ang), math.cos(ang)])
    pts = np.concatenate([d.box_corners(HALF)[:, :2] for d in dice])
    reach = float((pts @ out).max()) + rng.uniform(0.3, 2.0) + CARD_CM[1] / 2
    middle = float((pts @ along).mean()) + rng.uniform(-CARD_CM[0], CARD_CM[0])
    spacing = CARD_CM[0] + rng.uniform(0.3, 1.0)
    return [(along * (middle + (k - 2) * spacing) + out * reach, ang) for k in range(5)]


def smoothstep(e0: float, e1: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3 - 2 * t)


@dataclass
class DiceLook:
    """How the frame's set of dice is made (all six alike, each a little different)."""

    style: str  # solid | inset
    engraved: bool
    paint: dict[Color, np.ndarray]
    pip: np.ndarray
    border: np.ndarray  # the light wood around an inset
    border_frac: float
    pip_diam: float  # fraction of the edge
    pip_offset: float  # fraction of the edge from the face centre
    radius: float  # edge rounding, cm
    alpha: float  # GGX roughness of the varnish
    specular: float
    grain: float


def face_texture(rng: np.random.Generator, look: DiceLook, value: int, colour: Color,
                 res: int = FACE_RES) -> np.ndarray:
    """One face: paint (or a painted inset in a wooden border) with its pips, linear RGB."""
    v, u = (np.mgrid[0:res, 0:res].astype(np.float32) + 0.5) / res
    px = 1.0 / res
    grain = fbm(rng, (res, res), (res / 6, 3), 3, 0.6)
    grain = grain if rng.random() < 0.5 else grain.T
    paint = look.paint[colour] * rng.uniform(0.93, 1.07)
    img = np.empty((res, res, 3), np.float32)
    img[:] = paint
    img *= (1 + 0.5 * look.grain * grain)[..., None]
    if look.style == "inset":
        b = look.border_frac
        rr = 0.06
        dx = np.maximum(np.abs(u - 0.5) - (0.5 - b - rr), 0)
        dy = np.maximum(np.abs(v - 0.5) - (0.5 - b - rr), 0)
        inside = smoothstep(rr + px, rr - px, np.hypot(dx, dy))
        wood_col = look.border[None, None, :] * (1 + 1.6 * look.grain * grain)[..., None]
        img = img * inside[..., None] + wood_col * (1 - inside[..., None])
    pip = look.pip * rng.uniform(0.95, 1.03)
    radius = look.pip_diam / 2
    for gx, gy in PIPS[value]:
        cx = 0.5 + gx * look.pip_offset + rng.normal(0, 0.004)
        cy = 0.5 + gy * look.pip_offset + rng.normal(0, 0.004)
        r = radius * rng.uniform(0.96, 1.04)
        d = np.hypot(u - cx, v - cy)
        if look.engraved:
            rim = smoothstep(r + 0.16 * r + px, r + 0.16 * r - px, d)
            img *= (1 - 0.55 * rim)[..., None]
            inner = smoothstep(r - 0.05 * r + px, r - 0.05 * r - px, d)
            shade = 1 - 0.25 * smoothstep(0.55 * r, r, d)
            img = img * (1 - inner[..., None]) + (pip * shade[..., None]) * inner[..., None]
        else:
            m = smoothstep(r + px, r - px, d)
            img = img * (1 - m[..., None]) + pip * m[..., None]
    return np.clip(img, 0.0, 0.95).astype(np.float32)


# ----------------------------------------------------------------------------- geometry

def rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def cube_rotations() -> list[np.ndarray]:
    """The 24 rotations of a cube (signed permutation matrices of determinant 1)."""
    out = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for signs in np.ndindex(2, 2, 2):
            m = np.zeros((3, 3))
            for row, col in enumerate(perm):
                m[row, col] = 1 if signs[row] == 0 else -1
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


ROTATIONS = cube_rotations()

FACE_ROT = {(0, 0, 1): np.eye(3), (0, 0, -1): rot_x(math.pi), (1, 0, 0): rot_y(math.pi / 2),
            (-1, 0, 0): rot_y(-math.pi / 2), (0, 1, 0): rot_x(-math.pi / 2),
            (0, -1, 0): rot_x(math.pi / 2)}
"""Rotations taking the +z face to each face of the die."""


def face_mesh(radius: float, band: int = 6, middle: int = 6
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The +z face of a rounded cube (half-edge HALF, edge radius ``radius``): its flat
    square and its half of the rounded edges and corners around it. Positions, normals,
    UVs (the face's square, 0..1) and triangles. Six such faces make the closed die."""
    q = HALF - radius
    s = np.concatenate([np.linspace(-HALF, -q, band + 1), np.linspace(-q, q, middle + 1)[1:-1],
                        np.linspace(q, HALF, band + 1)])
    n = len(s)
    gx, gy = np.meshgrid(s, s, indexing="ij")
    p = np.stack([gx, gy, np.full_like(gx, HALF)], axis=-1).reshape(-1, 3)
    inner = np.clip(p, -q, q)
    d = p - inner
    norm = d / np.linalg.norm(d, axis=1, keepdims=True)
    pos = inner + radius * norm
    uv = np.stack([(p[:, 0] + HALF) / EDGE, (p[:, 1] + HALF) / EDGE], axis=1)
    i, j = np.meshgrid(np.arange(n - 1), np.arange(n - 1), indexing="ij")
    v00 = (i * n + j).ravel()
    v10 = ((i + 1) * n + j).ravel()
    v11 = ((i + 1) * n + j + 1).ravel()
    v01 = (i * n + j + 1).ravel()
    tris = np.concatenate([np.stack([v00, v10, v11], 1), np.stack([v00, v11, v01], 1)])
    return pos, norm, uv, tris


@dataclass
class DiePose:
    """A die in the world: centre (cm), rotation (local to world), pair, leaning."""

    centre: np.ndarray
    rot: np.ndarray
    pair: str
    leaning: bool = False
    lean_deg: float = 0.0
    yaw: float = 0.0

    def top(self) -> tuple[tuple[int, int, int], int]:
        """The local axis of the face on top and its value."""
        up = self.rot.T @ np.array([0.0, 0.0, 1.0])
        k = int(np.argmax(np.abs(up)))
        axis = [0, 0, 0]
        axis[k] = 1 if up[k] > 0 else -1
        key = (axis[0], axis[1], axis[2])
        return key, CANONICAL[key]

    def top_corners(self) -> np.ndarray:
        """The top face's four corners (the full square of the face, in order), world cm."""
        axis, _ = self.top()
        m = self.rot @ FACE_ROT[axis]
        local = np.array([[-HALF, -HALF, HALF], [HALF, -HALF, HALF], [HALF, HALF, HALF],
                          [-HALF, HALF, HALF]])
        return np.asarray(self.centre + local @ m.T)

    def top_points(self, radius: float, k: int = 5) -> np.ndarray:
        """Points on the flat part of the top face (to test what covers it)."""
        axis, _ = self.top()
        m = self.rot @ FACE_ROT[axis]
        g = np.linspace(-0.9 * (HALF - radius), 0.9 * (HALF - radius), k)
        gx, gy = np.meshgrid(g, g)
        local = np.stack([gx.ravel(), gy.ravel(), np.full(gx.size, HALF)], 1)
        return np.asarray(self.centre + local @ m.T)

    def box_corners(self, half: float) -> np.ndarray:
        c = np.array([[x, y, z] for x in (-half, half) for y in (-half, half)
                      for z in (-half, half)])
        return np.asarray(self.centre + c @ self.rot.T)


def box_edge_points(centre: np.ndarray, rot: np.ndarray, half: float, n: int = 24
                    ) -> np.ndarray:
    t = np.linspace(-half, half, n)
    pts = []
    for axis in range(3):
        for a in (-half, half):
            for b in (-half, half):
                p = np.zeros((n, 3))
                p[:, axis] = t
                others = [k for k in range(3) if k != axis]
                p[:, others[0]] = a
                p[:, others[1]] = b
                pts.append(p)
    return np.asarray(centre + np.concatenate(pts) @ rot.T)


def point_box_distance(pts: np.ndarray, centre: np.ndarray, rot: np.ndarray, half: float
                       ) -> np.ndarray:
    local = (pts - centre) @ rot
    d = np.maximum(np.abs(local) - half, 0.0)
    return np.asarray(np.linalg.norm(d, axis=1))


def die_gap(a: DiePose, b: DiePose, radius: float) -> float:
    """The gap (cm) between two rounded dice: the inner boxes' distance less twice the
    rounding (found on points along the boxes' edges: closer than 0.1 mm; 0 when they cut)."""
    q = HALF - radius
    d1 = point_box_distance(box_edge_points(a.centre, a.rot, q), b.centre, b.rot, q).min()
    d2 = point_box_distance(box_edge_points(b.centre, b.rot, q), a.centre, a.rot, q).min()
    d = min(d1, d2)
    return float(d - 2 * radius) if d > 0 else -1.0


def flat_pose(rng: np.random.Generator, x: float, y: float, yaw: float, pair: str) -> DiePose:
    o = ROTATIONS[int(rng.integers(0, 24))]
    return DiePose(np.array([x, y, HALF]), rot_z(yaw) @ o, pair, yaw=yaw)


# ----------------------------------------------------------------------------- camera

@dataclass
class Camera:
    origin: np.ndarray
    target: np.ndarray
    up: np.ndarray
    fov_x: float  # degrees
    aperture: float = 0.0  # thin-lens radius, cm (0: pinhole)
    focus: float = 0.0

    def basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        fwd = self.target - self.origin
        fwd = fwd / np.linalg.norm(fwd)
        left = np.cross(self.up, fwd)
        left = left / np.linalg.norm(left)
        return left, np.cross(fwd, left), fwd

    def to_world(self) -> np.ndarray:
        left, up, fwd = self.basis()
        m = np.eye(4)
        m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = left, up, fwd, self.origin
        return m


def project(points: np.ndarray, to_world: np.ndarray, fov_x: float) -> np.ndarray:
    """World points (N,3) to pixel coordinates (N,2; pixel centres at .5) of the
    perspective sensor with camera-to-world ``to_world`` (its columns: left, up, forward,
    origin, as Mitsuba's look_at makes them) and horizontal field of view ``fov_x``."""
    inv = np.linalg.inv(to_world)
    p = np.c_[points, np.ones(len(points))] @ inv.T
    f = (WIDTH / 2) / math.tan(math.radians(fov_x) / 2)
    u = WIDTH / 2 - f * p[:, 0] / p[:, 2]
    v = HEIGHT / 2 - f * p[:, 1] / p[:, 2]
    return np.stack([u, v], axis=1)


def unproject_to_plane(uv: np.ndarray, cam: Camera, z: float) -> np.ndarray:
    left, up, fwd = cam.basis()
    f = (WIDTH / 2) / math.tan(math.radians(cam.fov_x) / 2)
    out = []
    for u, v in uv:
        d = fwd + left * (WIDTH / 2 - u) / f + up * (HEIGHT / 2 - v) / f
        t = (z - cam.origin[2]) / d[2]
        out.append(cam.origin + t * d)
    return np.array(out)


# ----------------------------------------------------------------------------- the frame

@dataclass
class Frame:
    seed: int
    family: dict[str, str]
    camera: Camera
    dice: list[DiePose]
    look: DiceLook
    die_px: float
    notes: dict[str, Any] = field(default_factory=dict)


def in_frame(pose: DiePose, cam: Camera, margin: float = 3.0) -> bool:
    uv = project(pose.box_corners(HALF), cam.to_world(), cam.fov_x)
    return bool(np.all(uv[:, 0] > margin) and np.all(uv[:, 0] < WIDTH - margin)
                and np.all(uv[:, 1] > margin) and np.all(uv[:, 1] < HEIGHT - margin))


def touching_pose(rng: np.random.Generator, a: DiePose, pair: str, radius: float,
                  gap: float, edge_to_edge: bool) -> DiePose:
    """A flat die touching ``a`` with a gap of ``gap`` cm: side to side (nearly parallel,
    shifted along the side) or at any angle (then a corner or edge meets a side)."""
    if edge_to_edge:
        side = a.yaw + int(rng.integers(0, 4)) * math.pi / 2
        yaw = side + math.radians(rng.uniform(-4, 4))
        shift = rng.uniform(-0.7, 0.7) * EDGE
        direction = np.array([math.cos(side), math.sin(side), 0.0])
        along = np.array([-math.sin(side), math.cos(side), 0.0]) * shift
    else:
        yaw = rng.uniform(0, 2 * math.pi)
        ang = rng.uniform(0, 2 * math.pi)
        direction = np.array([math.cos(ang), math.sin(ang), 0.0])
        along = np.zeros(3)
    b = flat_pose(rng, 0, 0, yaw, pair)
    lo, hi = 0.0, 3.0 * EDGE
    for _ in range(30):
        mid = (lo + hi) / 2
        b.centre = a.centre + along + mid * direction
        if die_gap(a, b, radius) < gap:
            lo = mid
        else:
            hi = mid
    b.centre = a.centre + along + hi * direction
    return b


def leaning_pose(rng: np.random.Generator, n: DiePose, pair: str, radius: float
                 ) -> DiePose:
    """A die tilted 20-40 degrees with one bottom edge on the table, its lifted bottom edge
    resting against a side of ``n`` (its top tips away from ``n``)."""
    q = HALF - radius
    phi = math.radians(rng.uniform(20, 40))
    side = n.yaw + int(rng.integers(0, 4)) * math.pi / 2
    gap = rng.uniform(0.0, 0.03)
    frame = rot_z(side)  # x: away from n, through the chosen side; y: along it
    u = np.array([-math.cos(phi), 0, math.sin(phi)])  # pivot -> lifted edge
    w = np.array([math.sin(phi), 0, math.cos(phi)])  # the tilted top's normal
    y_off = rng.uniform(-0.35, 0.35) * EDGE
    xp = q + 2 * radius + gap + 2 * q * math.cos(phi)
    pivot = np.array([xp, y_off, radius])
    centre_local = pivot + q * (u + w)
    local_rot = np.stack([-u, np.array([0.0, 1.0, 0.0]), w], axis=1)
    o = ROTATIONS[int(rng.integers(0, 24))]
    centre = n.centre * np.array([1, 1, 0]) + frame @ centre_local
    pose = DiePose(centre, frame @ local_rot @ o, pair, leaning=True,
                   lean_deg=math.degrees(phi), yaw=side)
    return pose


def place_dice(rng: np.random.Generator, spacing: str, cam: Camera, radius: float
               ) -> list[DiePose] | None:
    """Six dice (two of each pair) lying in view without cutting one another."""
    pairs = ["A", "A", "B", "B", "C", "C"]
    rng.shuffle(pairs)
    corners = unproject_to_plane(np.array([[60, 60], [WIDTH - 60, 60], [WIDTH - 60, HEIGHT - 60],
                                           [60, HEIGHT - 60]]), cam, HALF)
    lo, hi = corners[:, :2].min(0), corners[:, :2].max(0)
    frac = rng.uniform(0.45, 1.0)
    span = (hi - lo) * frac
    start = lo + rng.random(2) * (hi - lo - span)
    region = (start, start + span)

    def random_flat(pair: str) -> DiePose:
        x, y = region[0] + rng.random(2) * (region[1] - region[0])
        return flat_pose(rng, float(x), float(y), float(rng.uniform(0, 2 * math.pi)), pair)

    def fits(p: DiePose, placed: list[DiePose], min_gap: float) -> bool:
        return in_frame(p, cam) and all(die_gap(p, o, radius) >= min_gap for o in placed)

    placed: list[DiePose] = []
    loose_gap = 0.5 * EDGE if spacing == "apart" else 0.25 * EDGE
    if spacing in ("touching", "cluster"):
        groups = ([int(rng.integers(3, 5))] if spacing == "cluster"
                  else [2] * int(rng.integers(1, 3)))
        for size in groups:
            for _ in range(50):
                seed_die = random_flat(pairs[len(placed)])
                if fits(seed_die, placed, loose_gap):
                    break
            else:
                return None
            group = [seed_die]
            for _ in range(size - 1):
                for _ in range(50):
                    a = group[int(rng.integers(0, len(group)))]
                    b = touching_pose(rng, a, pairs[len(placed) + len(group)], radius,
                                      float(rng.uniform(0.0, 0.1)), rng.random() < 0.5)
                    if (in_frame(b, cam)
                            and all(die_gap(b, o, radius) >= 0.0 for o in group if o is not a)
                            and all(die_gap(b, o, radius) >= loose_gap for o in placed)):
                        group.append(b)
                        break
                else:
                    return None
            placed.extend(group)
    elif spacing == "leaning":
        for _ in range(80):
            n = random_flat(pairs[0])
            lean = leaning_pose(rng, n, pairs[1], radius)
            if in_frame(n, cam) and in_frame(lean, cam) and die_gap(lean, n, radius) > -0.5:
                placed = [n, lean]
                break
        else:
            return None
    while len(placed) < 6:
        for _ in range(200):
            p = random_flat(pairs[len(placed)])
            if fits(p, placed, loose_gap):
                placed.append(p)
                break
        else:
            return None
    return placed


def make_camera(rng: np.random.Generator, family: dict[str, str]) -> tuple[Camera, float]:
    height = rng.uniform(35.0, 100.0)
    tilt = math.radians(rng.uniform(0, 4) if family["camera"] == "top"
                        else rng.uniform(28, 35) if family["camera"] == "desk-arm"
                        else rng.uniform(4, 20))
    az = rng.uniform(0, 2 * math.pi)
    dist = height / math.cos(tilt)
    target = np.array([rng.uniform(-3, 3), rng.uniform(-3, 3), 0.0])
    origin = target + dist * np.array([math.sin(tilt) * math.cos(az),
                                       math.sin(tilt) * math.sin(az), math.cos(tilt)])
    roll = rng.uniform(0, 2 * math.pi)
    up = np.array([math.cos(roll), math.sin(roll), 0.0])
    die_px = rng.uniform(*SIZES[family["size"]])
    f = die_px * (dist - HALF) / EDGE
    fov = math.degrees(2 * math.atan((WIDTH / 2) / f))
    cam = Camera(origin, target, up, fov)
    if family["camera"] == "defocus":
        # a blur circle of about 1-3 px at the dice: focus a little off the table
        cam.focus = float(dist * rng.uniform(0.9, 1.1))
        blur_px = rng.uniform(1.0, 3.0)
        # circle of confusion (px) ~ f * aperture * |1/focus - 1/dist| * ... solved for aperture
        cam.aperture = float(blur_px / (f * abs(1 / cam.focus - 1 / dist) + 1e-9) / 2)
        cam.aperture = min(cam.aperture, 1.5)
    return cam, die_px


def make_look(rng: np.random.Generator, family: dict[str, str]) -> DiceLook:
    paint, pip = dice_colours()
    gain = rng.uniform(0.85, 1.15)
    jitter = {c: np.clip(p * gain * (1 + rng.normal(0, 0.06, 3)), 0.005, 0.9)
              for c, p in paint.items()}
    white = np.array([0.9, 0.88, 0.84])
    pip_col = np.clip(pip + rng.uniform(0, 0.6) * (white - pip), 0, 0.92)
    border = srgb_to_linear(np.array([0.88, 0.76, 0.58]) * rng.uniform(0.85, 1.05))
    return DiceLook(style=family["dice"], engraved=family["pips"] == "engraved", paint=jitter,
                    pip=pip_col, border=border, border_frac=float(rng.uniform(0.06, 0.12)),
                    pip_diam=float(rng.uniform(0.17, 0.20)),
                    pip_offset=float(rng.uniform(0.25, 0.28)),
                    radius=float(EDGE * rng.uniform(0.05, 0.12)),
                    alpha=float(rng.uniform(0.12, 0.45)), specular=float(rng.uniform(0.15, 0.6)),
                    grain=float(rng.uniform(0.02, 0.08)))


def choose_family(rng: np.random.Generator) -> dict[str, str]:
    return {axis: str(rng.choice(names)) for axis, names in AXES.items()}


def plan_frame(seed: int, at_table: bool = False) -> Frame:
    rng = np.random.default_rng(seed)
    family = choose_family(rng) | (AT_TABLE if at_table else {})
    look = make_look(rng, family)
    for _ in range(40):
        cam, die_px = make_camera(rng, family)
        dice = place_dice(rng, family["spacing"], cam, look.radius)
        if dice is not None:
            return Frame(seed, family, cam, dice, look, die_px)
    raise RuntimeError(f"frame {seed}: no placement found")


# ----------------------------------------------------------------------------- Mitsuba scene

def _mi() -> Any:
    import drjit as dr
    import mitsuba as mi

    mi.set_variant("scalar_rgb")
    dr.set_thread_count(1)
    return mi


def transform(mi: Any, m: np.ndarray) -> Any:
    return mi.ScalarTransform4f(np.asarray(m, dtype=np.float64).tolist())


def trs(t: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = r @ np.diag(s)
    m[:3, 3] = t
    return m


def bitmap(mi: Any, img: np.ndarray) -> dict[str, Any]:
    return {"type": "bitmap", "bitmap": mi.Bitmap(np.ascontiguousarray(img, np.float32)),
            "filter_type": "bilinear", "wrap_mode": "clamp"}


def varnish(mi: Any, tex: np.ndarray, alpha: float, specular: float) -> dict[str, Any]:
    return {"type": "roughplastic", "distribution": "ggx", "alpha": alpha, "int_ior": 1.5,
            "specular_reflectance": specular, "diffuse_reflectance": bitmap(mi, tex)}


def mesh(mi: Any, name: str, pos: np.ndarray, nrm: np.ndarray, uv: np.ndarray,
         tris: np.ndarray, bsdf: dict[str, Any]) -> Any:
    props = mi.Properties()
    props["bsdf"] = mi.load_dict(bsdf)
    m = mi.Mesh(name, len(pos), len(tris), props=props, has_vertex_normals=True,
                has_vertex_texcoords=True)
    p = mi.traverse(m)
    p["vertex_positions"] = pos.astype(np.float32).ravel()
    p["vertex_normals"] = nrm.astype(np.float32).ravel()
    p["vertex_texcoords"] = uv.astype(np.float32).ravel()
    p["faces"] = tris.astype(np.uint32).ravel()
    p.update()
    return m


def table_texture(rng: np.random.Generator, kind: str, size_cm: float
                  ) -> tuple[np.ndarray, dict[str, Any], str]:
    """The table's texture, its BSDF settings and what it is."""
    res = TABLE_RES
    if kind.startswith("wood") or kind == "tray":
        base = {"wood-light": (0.92, 0.78, 0.58), "wood-orange": (0.85, 0.52, 0.26),
                "wood-dark": (0.42, 0.27, 0.16), "tray": (0.88, 0.72, 0.50)}[kind]
        base_lin = srgb_to_linear(np.array(base) * rng.uniform(0.88, 1.06))
        tex = wood(rng, res, size_cm, base_lin, planks=kind != "tray",
                   contrast=rng.uniform(0.6, 1.3))
        return tex, {"varnish": True, "alpha": float(rng.uniform(0.12, 0.4)),
                     "specular": float(rng.uniform(0.3, 0.9))}, kind
    if kind.startswith("felt"):
        base = {"felt-green": (0.10, 0.42, 0.20), "felt-blue": (0.10, 0.22, 0.50),
                "felt-red": (0.55, 0.10, 0.12), "felt-black": (0.09, 0.09, 0.10)}[kind]
        jit = np.array(base) * rng.uniform(0.8, 1.15, 3)
        return felt(rng, res, size_cm, srgb_to_linear(jit)), {"varnish": False}, kind
    if kind == "card":
        tints = [(0.62, 0.62, 0.62), (0.45, 0.45, 0.46), (0.72, 0.70, 0.66), (0.70, 0.58, 0.42),
                 (0.60, 0.68, 0.76), (0.78, 0.64, 0.66), (0.30, 0.30, 0.32)]
        base = tints[int(rng.integers(0, len(tints)))]
        return (cardboard(rng, res, size_cm, srgb_to_linear(np.array(base)
                                                            * rng.uniform(0.9, 1.1))),
                {"varnish": False}, "card")
    tex, pattern = cloth(rng, res, size_cm)
    return tex, {"varnish": False}, f"cloth-{pattern}"


def out_of_view(pos: np.ndarray, extent: float, cam: Camera) -> bool:
    """Whether a lamp at ``pos`` (``extent`` cm across at most) lies outside the camera's view
    or behind it (above the camera, its back to the lamp)."""
    left, up, fwd = cam.basis()
    g = np.linspace(-extent / 2, extent / 2, 5)
    pts = np.array([pos + a * left + b * up + c * fwd for a in g for b in g for c in g])
    depth = (pts - cam.origin) @ fwd
    if np.all(depth < 1.0):
        return True
    uv = project(pts[depth >= 1.0], cam.to_world(), cam.fov_x)
    inside = ((uv[:, 0] > -50) & (uv[:, 0] < WIDTH + 50) & (uv[:, 1] > -50)
              & (uv[:, 1] < HEIGHT + 50))
    return not bool(np.any(inside))


def lamp_rotation(pos: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """A rectangular lamp at ``pos`` facing ``centre`` (its local z toward it)."""
    look = np.array(centre) - pos
    fwd = look / np.linalg.norm(look)
    upv = np.cross(fwd, [1.0, 0.0, 0.0])
    left = np.cross(upv, fwd)
    left /= np.linalg.norm(left)
    upv = np.cross(fwd, left)
    return np.stack([left, upv, fwd], axis=1)


def lamp_seen(cam: Camera, pos: np.ndarray, centre: np.ndarray, sx: float, sy: float,
              sphere: bool) -> bool:
    """Whether the camera sees a lamp (a sphere of diameter ``sx`` at ``pos``, or a
    ``sx`` x ``sy`` rectangle there facing ``centre``), or is inside it: rays through the
    frame's border (every 8 px) and a 40 px grid, and the lamp's outline projected."""
    left, up, fwd = cam.basis()
    f = (WIDTH / 2) / math.tan(math.radians(cam.fov_x) / 2)
    us, vs = np.arange(-20.0, WIDTH + 21, 8), np.arange(-20.0, HEIGHT + 21, 8)
    gu, gv = np.meshgrid(np.arange(0.0, WIDTH + 1, 40), np.arange(0.0, HEIGHT + 1, 40))
    uv = np.concatenate([np.stack([us, np.full_like(us, -20.0)], 1),
                         np.stack([us, np.full_like(us, HEIGHT + 20.0)], 1),
                         np.stack([np.full_like(vs, -20.0), vs], 1),
                         np.stack([np.full_like(vs, WIDTH + 20.0), vs], 1),
                         np.stack([gu.ravel(), gv.ravel()], 1)])
    d = (fwd[None, :] + left[None, :] * ((WIDTH / 2 - uv[:, :1]) / f)
         + up[None, :] * ((HEIGHT / 2 - uv[:, 1:]) / f))
    o = cam.origin
    if sphere:
        r = sx / 2
        oc = o - pos
        if float(np.linalg.norm(oc)) <= r:
            return True
        b = d @ oc
        c = float(oc @ oc) - r * r
        a = np.einsum("ij,ij->i", d, d)
        disc = b * b - a * c
        if np.any((disc >= 0) & (-b + np.sqrt(np.maximum(disc, 0)) > 0)):
            return True
        outline = pos[None, :]
    else:
        rot = lamp_rotation(pos, centre)
        n = rot[:, 2]
        denom = d @ n
        with np.errstate(divide="ignore", invalid="ignore"):
            t = ((pos - o) @ n) / denom
        hit = o[None, :] + t[:, None] * d
        rel = (hit - pos) @ rot
        if np.any((t > 0) & (np.abs(rel[:, 0]) <= sx / 2) & (np.abs(rel[:, 1]) <= sy / 2)):
            return True
        g = np.linspace(-0.5, 0.5, 9)
        outline = np.array([pos + a * sx * rot[:, 0] + b * sy * rot[:, 1]
                            for a in g for b in g])
    depth = (outline - o) @ fwd
    if np.any(depth > 0):
        p = project(outline[depth > 0], cam.to_world(), cam.fov_x)
        return bool(np.any((p[:, 0] > -20) & (p[:, 0] < WIDTH + 20) & (p[:, 1] > -20)
                           & (p[:, 1] < HEIGHT + 20)))
    return False


def light_setup(rng: np.random.Generator, family: dict[str, str], centre: np.ndarray,
                cam: Camera, spare: np.random.Generator
                ) -> tuple[list[dict[str, Any]], np.ndarray, dict[str, Any]]:
    """Area lights (rectangles or spheres) and their white; notes for the truth."""
    lo, hi = KELVIN[family["colour"]]
    lights = []
    notes: list[dict[str, Any]] = []
    count = 2 if family["light"] == "two" else 1
    whites = []
    for k in range(count):
        kelvin = rng.uniform(lo, hi) if k == 0 else rng.uniform(2700, 6500)
        rgb = kelvin_rgb(kelvin)
        hard = family["light"] == "hard" or (family["light"] != "soft" and rng.random() < 0.4)
        sphere = rng.random() < 0.4
        extent = (2.5 if hard else 25.0) if sphere else (6.0 if hard else 80.0)
        for _ in range(200):  # a lamp the camera does not see (nor looks through)
            height = rng.uniform(40, 150)
            off = rng.uniform(0, 0.8) * height
            ang = rng.uniform(0, 2 * math.pi)
            pos = centre + np.array([off * math.cos(ang), off * math.sin(ang), height])
            if out_of_view(pos, extent, cam):
                break
        irradiance = 1.0 if k == 0 else rng.uniform(0.25, 0.8)
        if sphere:
            r = rng.uniform(0.5, 2.5) if hard else rng.uniform(8, 25)
            sx = sy = 2 * r
        else:
            sx, sy = ((rng.uniform(1, 6), rng.uniform(1, 6)) if hard
                      else (rng.uniform(25, 80), rng.uniform(25, 80)))
        # the screen above looks at a coarse grid around the lamp, which a narrow view can
        # slip through: cast the camera's rays at the lamp itself, and while they meet it,
        # hang it elsewhere (drawn from a stream of its own, so that frames whose lamp was
        # out of view stay as they were)
        moved = 0
        while lamp_seen(cam, pos, centre, sx, sy, sphere):
            moved += 1
            height = spare.uniform(40, 150)
            off = spare.uniform(0, 0.8) * height
            ang = spare.uniform(0, 2 * math.pi)
            pos = centre + np.array([off * math.cos(ang), off * math.sin(ang), height])
        dist = float(np.linalg.norm(pos - centre))
        if sphere:
            radiance = irradiance * dist ** 2 / (math.pi * r * r)
            lights.append({"type": "sphere", "center": pos.tolist(), "radius": r,
                           "emitter": {"type": "area", "radiance": {
                               "type": "rgb", "value": (rgb * radiance).tolist()}}})
            size = 2 * r
        else:
            cos_t = height / dist
            radiance = irradiance * dist ** 2 / (sx * sy * cos_t)
            lights.append({"type": "rectangle", "to_world": trs(pos, lamp_rotation(pos, centre),
                                                                np.array([sx / 2, sy / 2, 1])),
                           "emitter": {"type": "area", "radiance": {
                               "type": "rgb", "value": (rgb * radiance).tolist()}}})
            size = max(sx, sy)
        whites.append(rgb * irradiance)
        notes.append({"kelvin": round(kelvin), "shape": "sphere" if sphere else "rectangle",
                      "size_cm": round(size, 1), "height_cm": round(height, 1),
                      "hard": bool(hard), "moved_out_of_view": moved})
    white = np.sum(whites, axis=0)
    irradiance_total = float(luminance(white))
    white /= irradiance_total
    return lights, white, {"lights": notes, "irradiance": irradiance_total}


def build_scene(mi: Any, frame: Frame, rng: np.random.Generator, tray_margin: float,
                laid_by: list[DiePose] | None = None
                ) -> tuple[Any, list[list[Any]], dict[str, Any], np.ndarray]:
    """The Mitsuba scene of ``frame``; the face meshes per die; notes; the lights' white.
    ``laid_by``: the dice the tray, the clutter and the cards were laid out around (default:
    the frame's own), so that the last roll's picture shows the same table."""
    fam = frame.family
    around = frame.dice if laid_by is None else laid_by
    look = frame.look
    cam = frame.camera
    scene: dict[str, Any] = {"type": "scene",
                             "integrator": {"type": "path", "max_depth": MAX_DEPTH}}
    to_world = cam.to_world()
    sensor: dict[str, Any] = {
        "type": "thinlens" if cam.aperture > 0 else "perspective",
        "fov": cam.fov_x, "fov_axis": "x", "to_world": transform(mi, to_world),
        "near_clip": 1.0, "far_clip": 1000.0,
        "sampler": {"type": "independent", "sample_count": SPP},
        "film": {"type": "hdrfilm", "width": WIDTH, "height": HEIGHT,
                 "pixel_format": "rgb", "rfilter": {"type": "gaussian"}}}
    if cam.aperture > 0:
        sensor["aperture_radius"] = cam.aperture
        sensor["focus_distance"] = cam.focus
    scene["sensor"] = sensor
    notes: dict[str, Any] = {}

    # the table: the view's footprint on it, a little larger
    foot = unproject_to_plane(np.array([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]]),
                              cam, 0.0)
    centre = foot.mean(0)
    size = float(np.max(np.abs(foot[:, :2] - centre[:2])) * 2 * 1.15)
    tex, settings, kind = table_texture(rng, fam["table"], size)
    notes["table"] = kind
    table_bsdf = (varnish(mi, tex, settings["alpha"], settings["specular"])
                  if settings["varnish"] else {"type": "diffuse", "reflectance": bitmap(mi, tex)})
    if fam["table"] == "tray":
        pts = np.concatenate([d.box_corners(HALF)[:, :2] for d in around])
        lo, hi = pts.min(0) - tray_margin, pts.max(0) + tray_margin
        wall_h = rng.uniform(2.0, 4.0)
        thick = rng.uniform(0.8, 1.3)
        mid = (lo + hi) / 2
        half = (hi - lo) / 2
        # the tray's floor (its own wood), the table under it, and four walls
        scene["tray_floor"] = {"type": "rectangle",
                               "to_world": transform(mi, trs(np.r_[mid, 0.0], np.eye(3),
                                                             np.r_[half, 1.0])),
                               "bsdf": table_bsdf}
        u = rng.uniform(0.2, 0.6)
        under = felt(rng, 512, size, srgb_to_linear(np.array([u, u * 0.95, u * 0.9])))
        scene["table"] = {"type": "rectangle",
                          "to_world": transform(mi, trs(np.r_[centre[:2], -0.6], np.eye(3),
                                                        np.array([size, size, 1.0]))),
                          "bsdf": {"type": "diffuse", "reflectance": bitmap(mi, under)}}
        wall_tex = wood(rng, 512, 30.0, srgb_to_linear(np.array([0.85, 0.68, 0.47])),
                        planks=False)
        wall_bsdf = varnish(mi, wall_tex, 0.3, 0.5)
        walls = [((mid[0], hi[1] + thick / 2), (half[0] + thick, thick / 2)),
                 ((mid[0], lo[1] - thick / 2), (half[0] + thick, thick / 2)),
                 ((hi[0] + thick / 2, mid[1]), (thick / 2, half[1])),
                 ((lo[0] - thick / 2, mid[1]), (thick / 2, half[1]))]
        for k, ((x, y), (hx, hy)) in enumerate(walls):
            scene[f"wall{k}"] = {"type": "cube", "bsdf": wall_bsdf,
                                 "to_world": transform(mi, trs(
                                     np.array([x, y, (wall_h - 0.6) / 2]), np.eye(3),
                                     np.array([hx, hy, (wall_h + 0.6) / 2])))}
        notes["tray"] = {"margin_cm": round(tray_margin, 1), "wall_cm": round(wall_h, 1)}
    else:
        scene["table"] = {"type": "rectangle",
                          "to_world": transform(mi, trs(np.r_[centre[:2], 0.0], np.eye(3),
                                                        np.array([size / 2, size / 2, 1.0]))),
                          "bsdf": table_bsdf}

    # clutter beside the dice
    hulls = [d.box_corners(HALF)[:, :2] for d in around]

    def clear(pt: np.ndarray, reach: float) -> bool:
        return all(np.min(np.linalg.norm(h - pt, axis=1)) > reach + 0.4 and
                   np.linalg.norm(h.mean(0) - pt) > reach + 1.3 for h in hulls)

    area_lo, area_hi = foot[:, :2].min(0), foot[:, :2].max(0)
    if fam["clutter"] == "card":
        for _ in range(100):
            c = area_lo + rng.random(2) * (area_hi - area_lo)
            ang = rng.uniform(0, math.pi)
            if clear(c, 5.5):
                scene["card_top"] = {"type": "rectangle", "bsdf": varnish(
                    mi, playing_card(rng), 0.25, 0.5), "to_world": transform(mi, trs(
                        np.r_[c, 0.031], rot_z(ang), np.array([3.15, 4.4, 1.0])))}
                scene["card_body"] = {"type": "cube", "bsdf": {"type": "diffuse", "reflectance":
                                                               {"type": "rgb",
                                                                "value": [0.7, 0.7, 0.68]}},
                                      "to_world": transform(mi, trs(np.r_[c, 0.015], rot_z(ang),
                                                                    np.array([3.15, 4.4, 0.015])))}
                notes["card"] = [round(float(v), 1) for v in c]
                break
    elif fam["clutter"] == "citizens":
        cards = citizen_row(rng, around)
        half = np.array([CARD_CM[0] / 2, CARD_CM[1] / 2])
        for k, (c, ang) in enumerate(cards):
            turn = rot_z(ang + math.radians(rng.uniform(-2, 2)))
            scene[f"citizen{k}"] = {"type": "rectangle", "bsdf": varnish(
                mi, citizen_card(rng, look), 0.3, 0.4),
                "to_world": transform(mi, trs(
                    np.r_[c, 0.031], turn, np.r_[half, 1.0]))}
        notes["citizens"] = [[round(float(v), 1) for v in c] for c, _ in cards]
    elif fam["clutter"] == "coins":
        placed = 0
        for _ in range(200):
            if placed >= int(rng.integers(1, 4)):
                break
            c = area_lo + rng.random(2) * (area_hi - area_lo)
            r = rng.uniform(0.8, 1.3)
            if not clear(c, r):
                continue
            t = rng.uniform(0.15, 0.23)
            metal = str(rng.choice(["Cu", "Au", "Al", "Ag"]))
            bsdf = {"type": "roughconductor", "material": metal,
                    "alpha": float(rng.uniform(0.15, 0.4))}
            scene[f"coin{placed}"] = {"type": "cylinder", "p0": [*c, 0.0], "p1": [*c, t],
                                      "radius": r, "bsdf": bsdf}
            scene[f"coin{placed}_cap"] = {"type": "disk", "bsdf": bsdf, "to_world": transform(
                mi, trs(np.r_[c, t], np.eye(3), np.array([r, r, 1.0])))}
            placed += 1
        notes["coins"] = placed

    # the dice
    pos0, nrm0, uv0, tris = face_mesh(look.radius)
    meshes: list[list[Any]] = []
    for k, die in enumerate(frame.dice):
        faces = []
        layout = HABA_LAYOUTS[die.pair]
        for axis, value in CANONICAL.items():
            m = die.rot @ FACE_ROT[axis]
            pos = die.centre + pos0 @ m.T
            nrm = nrm0 @ m.T
            tex = face_texture(rng, look, value, layout[value])
            faces.append(mesh(mi, f"die{k}_{value}", pos, nrm, uv0, tris,
                              varnish(mi, tex, look.alpha * rng.uniform(0.9, 1.1),
                                      look.specular)))
            scene[f"die{k}_{value}"] = faces[-1]
        meshes.append(faces)

    lights, white, light_notes = light_setup(rng, fam, np.r_[centre[:2], 0.0], cam,
                                             np.random.default_rng([frame.seed, 3]))
    notes.update(light_notes)
    for k, light in enumerate(lights):
        if "to_world" in light:
            light["to_world"] = transform(mi, light["to_world"])
        scene[f"light{k}"] = light
    sky = rng.uniform(0.02, 0.08) / math.pi
    sky_rgb = kelvin_rgb(rng.uniform(5500, 8000)) * sky
    scene["sky"] = {"type": "constant", "radiance": {"type": "rgb", "value": sky_rgb.tolist()}}
    notes["irradiance"] += math.pi * sky
    return mi.load_dict(scene), meshes, notes, white


def covered(mi: Any, scene: Any, cam_origin: np.ndarray, pts: np.ndarray) -> int:
    """How many of ``pts`` (on a die's top) something else hides from the camera."""
    hidden = 0
    for p in pts:
        d = p - cam_origin
        dist = float(np.linalg.norm(d))
        ray = mi.Ray3f(mi.ScalarPoint3f(*cam_origin.tolist()),
                       mi.ScalarVector3f(*(d / dist).tolist()))
        si = scene.ray_intersect(ray)
        if si.is_valid() and float(si.t) < dist - 0.01:
            hidden += 1
    return hidden


def finish(rng: np.random.Generator, hdr: np.ndarray, white: np.ndarray, irradiance: float,
           family: dict[str, str]) -> tuple[np.ndarray, dict[str, Any]]:
    """The camera's processing: exposure, white balance, vignette, noise, sRGB, JPEG."""
    img = np.nan_to_num(hdr.astype(np.float64), nan=0.0, posinf=0.0)
    wb = rng.uniform(0.5, 1.0)
    img /= (white ** wb)[None, None, :]
    img /= luminance(white ** wb)
    dim = family["light"] == "dim"
    ev = rng.uniform(-1.3, -0.4) if dim else rng.uniform(-0.5, 0.5)
    lum = luminance(img)
    # half average metering (a dark table brightens the frame), half the light's own level
    # (a white card stays white): an albedo a lit by irradiance E gives a * E / pi
    metered = 0.18 / max(float(np.mean(lum)), 1e-6)
    incident = math.pi / irradiance
    gain = math.sqrt(metered * incident) * 2 ** ev
    gain = min(gain, 1.3 / max(float(np.percentile(lum, 99.9)), 1e-6))
    img *= gain
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH]
    rr = np.hypot(xx - WIDTH / 2, yy - HEIGHT / 2) / np.hypot(WIDTH / 2, HEIGHT / 2)
    vig = rng.uniform(0.0, 0.3)
    img *= (1 - vig * rr ** 2)[..., None]
    iso = rng.uniform(3, 8) if dim else rng.uniform(0.7, 2.5)
    shot = 0.0008 * iso
    read = 0.0015 * iso
    sigma = np.sqrt(shot * np.clip(img, 0, None) + read ** 2)
    noise = rng.standard_normal(img.shape) * sigma
    # demosaicked noise is a little blotchy
    blotchy = np.asarray(cv2.GaussianBlur(noise.astype(np.float32), (0, 0), 0.6)) * 1.6
    img = img + blotchy
    out = (linear_to_srgb(img) * 255 + 0.5).astype(np.uint8)
    bgr = np.ascontiguousarray(out[..., ::-1])
    quality = int(rng.integers(50, 96))
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert decoded is not None
    return np.asarray(decoded), {"exposure_ev": round(ev, 2), "white_balance": round(wb, 2),
                 "iso": round(iso, 2), "jpeg_quality": quality, "vignette": round(vig, 2)}


def last_roll(frame: Frame) -> Frame:
    """``frame`` as the roll before it left the table: the dice thrown before lay elsewhere
    (laid out anew, apart), each with a chance of :data:`KEPT` lying where it lies now
    (kept from that roll) when it stays clear of the others; at least one was thrown."""
    rng = np.random.default_rng([frame.seed, 4])
    for _ in range(40):
        placed = place_dice(rng, "apart", frame.camera, frame.look.radius)
        if placed is not None:
            break
    else:
        raise RuntimeError(f"frame {frame.seed}: no placement found for its last roll")
    dice = list(placed)
    for k, die in enumerate(frame.dice):
        others = dice[:k] + dice[k + 1:]
        if rng.random() < KEPT and all(die_gap(die, o, frame.look.radius) >= 0.25 * EDGE
                                       for o in others):
            dice[k] = die
    if all(d is f for d, f in zip(dice, frame.dice, strict=True)):
        dice[-1] = placed[-1]  # a roll throws at least one die
    return replace(frame, dice=dice)


def render_frame(seed: int, spp: int = SPP, at_table: bool = False, last: bool = False
                 ) -> tuple[np.ndarray, dict[str, Any]]:
    """Frame ``seed``'s picture and truth; ``last``: its last roll's (:func:`last_roll`)."""
    mi = _mi()
    now = plan_frame(seed, at_table)
    frame = last_roll(now) if last else now
    t0 = time.perf_counter()
    tray_margin = float(np.random.default_rng([seed, 1]).uniform(1.0, 4.0))
    for _attempt in range(5):
        rng = np.random.default_rng([seed, 2])
        scene, _meshes, notes, white = build_scene(mi, frame, rng, tray_margin, now.dice)
        hidden = [covered(mi, scene, frame.camera.origin, d.top_points(frame.look.radius))
                  for d in frame.dice]
        # a flat die hidden by the tray's wall: move the walls out (the dice stay)
        if frame.family["table"] != "tray" or all(
                h == 0 for h, d in zip(hidden, frame.dice, strict=True) if not d.leaning):
            break
        tray_margin += 3.0
    sensor = scene.sensors()[0]
    params = mi.traverse(sensor)
    to_world = np.array(sensor.world_transform().matrix, dtype=np.float64)
    fov_x = float(params["x_fov"][0] if hasattr(params["x_fov"], "__len__")
                  else params["x_fov"])
    hdr = np.array(mi.render(scene, spp=spp, seed=seed))
    t1 = time.perf_counter()
    bgr, camera_notes = finish(rng, hdr, white, notes["irradiance"], frame.family)
    dice = []
    for die, h in zip(frame.dice, hidden, strict=True):
        _axis, value = die.top()
        colour = HABA_LAYOUTS[die.pair][value]
        corners = project(die.top_corners(), to_world, fov_x)
        centre = project(die.top_corners().mean(0, keepdims=True), to_world, fov_x)[0]
        edges = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
        inside = bool(np.all((corners >= 0) & (corners <= [WIDTH, HEIGHT])))
        dice.append({"value": value, "color": colour.value, "pair": die.pair,
                     "center": [round(float(v), 2) for v in centre],
                     "outline": [[round(float(x), 2), round(float(y), 2)] for x, y in corners],
                     "size": round(float(edges.mean()), 2),
                     "visible": inside and h == 0, "covered_points": h,
                     "leaning": die.leaning, "lean_deg": round(die.lean_deg, 1),
                     "world_cm": [round(float(v), 3) for v in die.centre]})
    cam = frame.camera
    truth = {
        "seed": seed, "width": WIDTH, "height": HEIGHT, "family": frame.family,
        "dice": dice,
        "camera": {"origin": [round(float(v), 2) for v in cam.origin],
                   "target": [round(float(v), 2) for v in cam.target],
                   "fov_x": round(fov_x, 3), "height_cm": round(float(cam.origin[2]), 1),
                   "aperture_cm": round(cam.aperture, 3), "focus_cm": round(cam.focus, 1),
                   "die_px": round(frame.die_px, 1), **camera_notes},
        "look": {"style": frame.look.style, "engraved": frame.look.engraved,
                 "radius_frac": round(frame.look.radius / EDGE, 3),
                 "border_frac": round(frame.look.border_frac, 3),
                 "pip_diam_frac": round(frame.look.pip_diam, 3),
                 "roughness": round(frame.look.alpha, 3)},
        "scene": notes,
        "render": {"spp": spp, "max_depth": MAX_DEPTH, "seconds": round(t1 - t0, 1),
                   "renderer": "mitsuba 3 scalar_rgb path"},
    }
    return bgr, truth


def draw_outlines(bgr: np.ndarray, truth: dict[str, Any]) -> np.ndarray:
    out = bgr.copy()
    for d in truth["dice"]:
        pts = np.array(d["outline"], np.float32).reshape(-1, 1, 2)
        colour = (0, 255, 255) if d["visible"] else (0, 0, 255)
        cv2.polylines(out, [np.round(pts).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        x, y = d["center"]
        cv2.circle(out, (round(x), round(y)), 2, colour, -1)
        cv2.putText(out, f"{d['value']}{d['color'][0]}{'L' if d['leaning'] else ''}",
                    (round(x) + 6, round(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", type=Path, default=ROOT / ".cache/pbr-set")
    parser.add_argument("--spp", type=int, default=SPP)
    parser.add_argument("--force", action="store_true", help="render frames already there too")
    parser.add_argument("--table", choices=AXES["table"], default=None,
                        help="only the seeds (from --start on) whose frame is on this table; "
                             "--frames of them")
    parser.add_argument("--at-table", action="store_true",
                        help="a real table: citizen cards beside the dice, a desk-arm camera, "
                             "a warm lamp (AT_TABLE)")
    parser.add_argument("--last-roll", action="store_true",
                        help="also each frame's last roll (frame-SSSSSS-last.png/.json): the "
                             "same table, the dice thrown before lying elsewhere, some kept")
    parser.add_argument("--outlines", action="store_true",
                        help="also write each frame with its truth drawn on it (outlines/)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    seeds = list(range(args.start, args.start + args.frames))
    if args.table is not None:
        seeds = []
        seed = args.start
        while len(seeds) < args.frames:
            if plan_frame(seed, args.at_table).family["table"] == args.table:
                seeds.append(seed)
            seed += 1
    todo = [(seed, False) for seed in seeds] + [(seed, True) for seed in seeds
                                                 if args.last_roll]
    for seed, last in todo:
        png = args.out / f"frame-{seed:06d}{'-last' if last else ''}.png"
        js = png.with_suffix(".json")
        if png.exists() and js.exists() and not args.force:
            continue
        t = time.perf_counter()
        bgr, truth = render_frame(seed, args.spp, args.at_table, last)
        truth["render"]["total_seconds"] = round(time.perf_counter() - t, 1)
        cv2.imwrite(str(png), bgr)
        js.write_text(json.dumps(truth, indent=1))
        if args.outlines:
            (args.out / "outlines").mkdir(exist_ok=True)
            cv2.imwrite(str(args.out / "outlines" / png.name), draw_outlines(bgr, truth))
        print(f"frame {seed}: {truth['render']['total_seconds']} s "
              f"(render {truth['render']['seconds']} s) {truth['family']}", flush=True)


if __name__ == "__main__":
    main()

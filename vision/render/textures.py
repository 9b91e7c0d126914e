"""Surfaces for the renderer: table textures (wood, felt, card, cloth, print, stone, floral),
die faces and the citizen cards of the box.

Every texture is an albedo image (BGR, float32, 0..255 for a white lit at full strength);
light and camera come later. Everything is deterministic given the random generator.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.render.scene import BGR, DieLook, Table

PIP_SPOTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Pip positions on a face in units of the pip spacing (x right, y down)."""


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """Zero-mean, unit-ish noise with features about ``cell`` pixels wide."""
    h, w = shape
    gh, gw = max(2, int(h / max(cell, 1.0)) + 2), max(2, int(w / max(cell, 1.0)) + 2)
    small = rng.normal(0.0, 1.0, (gh, gw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def soft_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of ``sigma`` pixels, done on a shrunk copy when ``sigma`` is large."""
    if sigma <= 4.0:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    h, w = img.shape[:2]
    k = sigma / 3.0
    small = cv2.resize(img, (max(2, round(w / k)), max(2, round(h / k))),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 3.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def gauss_noise(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Standard normal float32 noise, fast (OpenCV's generator, seeded from ``rng``)."""
    cv2.setRNGSeed(int(rng.integers(2**31 - 1)))
    out = np.empty(shape, np.float32)
    cv2.randn(out, np.zeros(1), np.ones(1))
    return out


def _fine(rng: np.random.Generator, shape: tuple[int, int], sigma: float = 0.8) -> np.ndarray:
    return cv2.GaussianBlur(gauss_noise(rng, shape), (0, 0), sigma) * 2.0


def _rotated_coords(shape: tuple[int, int], angle: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    t = math.radians(angle)
    u = xs * math.cos(t) + ys * math.sin(t)
    v = -xs * math.sin(t) + ys * math.cos(t)
    return u, v


def _tint(base: BGR, shape: tuple[int, int]) -> np.ndarray:
    return np.full((*shape, 3), base, np.float32)


def table_texture(table: Table, shape: tuple[int, int], die: float,
                  rng: np.random.Generator) -> np.ndarray:
    """The table's albedo on a canvas of ``shape`` table pixels (``die`` pixels a die edge)."""
    kind = table.kind if table.kind != "tray" else "plain"
    img = _tint(table.bgr, shape)
    mottle = smooth_noise(rng, shape, 1.5 * die)
    if kind == "plain":
        img *= (1.0 + 0.025 * mottle + 0.012 * _fine(rng, shape))[..., None]
    elif kind == "felt":
        fibres = _fine(rng, shape, 0.7)
        img *= (1.0 + 0.05 * mottle + 0.07 * fibres)[..., None]
    elif kind == "card":
        img *= (1.0 + 0.015 * mottle + 0.02 * _fine(rng, shape, 1.0))[..., None]
    elif kind == "wood":
        img = _wood(table, shape, die, rng)
    elif kind == "cloth":
        img = _cloth(table, shape, die, rng)
    elif kind == "print":
        img = _print(table, shape, die, rng)
    elif kind == "woven":
        img = _woven(table, shape, die, rng)
    elif kind == "stone":
        img = _stone(table, shape, die, rng)
    elif kind == "floral":
        img = _floral(table, shape, die, rng)
    else:
        raise ValueError(f"unknown table kind {table.kind!r}")
    return img


def _wood(table: Table, shape: tuple[int, int], die: float,
          rng: np.random.Generator) -> np.ndarray:
    _, v = _rotated_coords(shape, table.angle)
    period = die * table.scale * float(rng.uniform(0.25, 0.6))
    warp = (smooth_noise(rng, shape, 3.0 * die) * 0.9
            + smooth_noise(rng, shape, 1.2 * die) * 0.05)
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (v / period + warp))
    rings = rings ** 3
    # fine streaks across the grain: 1-D noise in v, stretched along u
    n = max(16, int(np.abs(v).max()) + 4)
    line = cv2.GaussianBlur(rng.normal(0, 1, (1, 2 * n)).astype(np.float32), (0, 0), 1.2)[0]
    streak = line[np.clip((v + n).astype(np.int32), 0, 2 * n - 1)]
    plank = die * float(rng.uniform(3.0, 7.0))
    seam = np.abs(((v + plank * 0.3) % plank) - plank / 2) > plank / 2 - 1.2
    dark = np.array(table.bgr, np.float32) * np.array([0.55, 0.62, 0.72], np.float32)
    t = (0.55 * rings + 0.08 * streak)[..., None]
    img = np.array(table.bgr, np.float32) * (1 - t) + dark * t
    img *= (1.0 + 0.04 * smooth_noise(rng, shape, 2 * die))[..., None]
    img[seam] *= 0.55
    out: np.ndarray = img.astype(np.float32)
    return out


def _cloth(table: Table, shape: tuple[int, int], die: float,
           rng: np.random.Generator) -> np.ndarray:
    u, v = _rotated_coords(shape, table.angle)
    a = np.array(table.bgr, np.float32)
    b = np.array(table.second_bgr, np.float32)
    pattern = int(rng.integers(3))
    period = die * table.scale * float(rng.uniform(0.6, 1.6))
    if pattern == 0:  # plaid: stripes both ways
        su = ((u % period) < 0.35 * period).astype(np.float32)
        sv = ((v % period) < 0.35 * period).astype(np.float32)
        t = np.clip(0.55 * su + 0.55 * sv, 0, 1)
    elif pattern == 1:  # stripes one way
        t = ((u % period) < 0.5 * period).astype(np.float32)
    else:  # dots / flowers of the second colour
        t = np.zeros(shape, np.float32)
        count = int(shape[0] * shape[1] / (period * period) * 0.8)
        for _ in range(count):
            c = (int(rng.uniform(0, shape[1])), int(rng.uniform(0, shape[0])))
            cv2.circle(t, c, max(2, int(period * rng.uniform(0.12, 0.3))), 1.0, -1, cv2.LINE_AA)
    t = cv2.GaussianBlur(t, (0, 0), 0.8)[..., None]
    img = a * (1 - t) + b * t
    weave = (((np.floor(u / 2.0) + np.floor(v / 2.0)) % 2) - 0.5).astype(np.float32)
    img *= (1.0 + 0.10 * weave + 0.03 * smooth_noise(rng, shape, die))[..., None]
    return img.astype(np.float32)


PRINT_BGR: tuple[BGR, ...] = ((35, 40, 190), (40, 150, 50), (170, 90, 30), (40, 200, 235),
                              (235, 238, 240), (25, 25, 28), (150, 90, 200), (60, 120, 220),
                              (160, 160, 60), (110, 60, 40), (200, 170, 230), (80, 160, 140))
"""Inks of printed tablecloths and play mats: saturated (red, green, blue among them), light
and dark."""


def _inks(rng: np.random.Generator) -> list[np.ndarray]:
    """Three different inks of :data:`PRINT_BGR`."""
    return [np.array(PRINT_BGR[int(k)], np.float32)
            for k in rng.choice(len(PRINT_BGR), 3, replace=False)]


def _specks(img: np.ndarray, rng: np.random.Generator, count: int, die: float,
            radius: tuple[float, float], bgr: BGR) -> None:
    """``count`` round specks of ``bgr`` anywhere on ``img``, each of a radius between
    ``radius`` times ``die`` (a die's edge in pixels)."""
    h, w = img.shape[:2]
    for _ in range(count):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        cv2.circle(img, c, max(1, int(die * float(rng.uniform(*radius)))), bgr, -1,
                   cv2.LINE_AA)


def _print(table: Table, shape: tuple[int, int], die: float,
           rng: np.random.Generator) -> np.ndarray:
    """A printed oilcloth or play mat: checks, patchwork, spots or blossoms in several inks on
    a ground of ``table.bgr``; shapes about a die's size and colour, some with light specks."""
    h, w = shape
    ground = np.array(table.bgr, np.float32)
    inks = _inks(rng)
    img: np.ndarray = np.empty((h, w, 3), np.float32)
    img[:] = ground
    pattern = int(rng.integers(4))
    size = die * float(rng.uniform(0.5, 1.6))
    if pattern == 0:  # checks, turned by the table's angle
        u, v = _rotated_coords(shape, table.angle)
        cells = (np.floor(u / size) + np.floor(v / size)) % 2 == 1
        img[cells] = inks[0]
    elif pattern == 1:  # patchwork: squares and oblongs, each turned its own way
        count = int(h * w / (size * size) * 0.5)
        for _ in range(count):
            c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
            wh = (size * float(rng.uniform(0.6, 1.4)), size * float(rng.uniform(0.6, 1.4)))
            box = cv2.boxPoints((c, wh, float(rng.uniform(0, 90)))).astype(np.int32)
            ink = inks[int(rng.integers(3))] * float(rng.uniform(0.85, 1.1))
            cv2.fillConvexPoly(img, box, ink.tolist(), cv2.LINE_AA)
    elif pattern == 2:  # blossoms: soft blobs of ink
        blob = smooth_noise(rng, shape, size * 0.8)
        img[blob > 0.6] = inks[0]
        img[blob < -0.8] = inks[1]
    else:  # spots in rows, like a polka-dot cloth
        u, v = _rotated_coords(shape, table.angle)
        r = size * float(rng.uniform(0.15, 0.35))
        du = (u % size) - size / 2
        dv = (v % size) - size / 2
        img[du * du + dv * dv < r * r] = inks[0]
    if rng.random() < 0.5:  # light specks, a pip's size, scattered over the print
        count = int(h * w / (die * die) * float(rng.uniform(0.5, 3.0)))
        speck = PRINT_BGR[4] if rng.random() < 0.7 else tuple(inks[2].tolist())
        _specks(img, rng, count, die, (0.05, 0.1), speck)
    soft: np.ndarray = cv2.GaussianBlur(img, (0, 0), 0.7)
    grain = 1.0 + 0.03 * smooth_noise(rng, shape, die) + 0.02 * _fine(rng, shape)
    return (soft * grain[..., None]).astype(np.float32)


FLORAL_PETALS: tuple[BGR, ...] = ((180, 100, 40), (200, 140, 80), (150, 80, 200), (235, 238, 240),
                                  (60, 60, 190), (170, 120, 230))
"""Petals of a flowered tablecloth: blues (a HABA blue among them), pink, white, red."""
FLORAL_HEARTS: tuple[BGR, ...] = ((40, 200, 235), (60, 215, 240), (200, 225, 235))
"""Flower hearts: yellow, or cream (a pip's colour)."""


def _floral(table: Table, shape: tuple[int, int], die: float,
            rng: np.random.Generator) -> np.ndarray:
    """A flowered tablecloth: five-petalled flowers about a die's size in one or two petal
    colours, each with a round heart of a pip's size, and green leaves, on the ground
    ``table.bgr``: a blue flower with a yellow heart is the ``1`` of a blue die to a
    careless eye."""
    h, w = shape
    img = _tint(table.bgr, shape)
    petals = [FLORAL_PETALS[int(k)] for k in rng.choice(len(FLORAL_PETALS), 2, replace=False)]
    heart = FLORAL_HEARTS[int(rng.integers(len(FLORAL_HEARTS)))]
    size = die * float(rng.uniform(0.6, 1.3)) * table.scale
    count = int(h * w / (size * size) * float(rng.uniform(0.15, 0.45)))
    for _ in range(count):
        c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        r = size * float(rng.uniform(0.35, 0.55))
        if rng.random() < 0.4:  # a leaf
            axes = (max(2, int(r * 0.9)), max(1, int(r * 0.35)))
            cv2.ellipse(img, (int(c[0]), int(c[1])), axes, float(rng.uniform(0, 180)), 0, 360,
                        (50, 120, 60), -1, cv2.LINE_AA)
            continue
        petal = petals[int(rng.integers(len(petals)))]
        turn = float(rng.uniform(0, 2 * math.pi))
        for k in range(5):
            a = turn + k * 2 * math.pi / 5
            p = c + 0.55 * r * np.array([math.cos(a), math.sin(a)])
            cv2.circle(img, (int(p[0]), int(p[1])), max(1, int(0.5 * r)), petal, -1,
                       cv2.LINE_AA)
        cv2.circle(img, (int(c[0]), int(c[1])), max(1, int(0.3 * r)), heart, -1, cv2.LINE_AA)
    soft: np.ndarray = cv2.GaussianBlur(img, (0, 0), 0.7)
    weave = 1.0 + 0.03 * smooth_noise(rng, shape, die) + 0.03 * _fine(rng, shape)
    return (soft * weave[..., None]).astype(np.float32)


def _woven(table: Table, shape: tuple[int, int], die: float,
           rng: np.random.Generator) -> np.ndarray:
    """A woven tablecloth, gingham or tartan, in inks of :data:`PRINT_BGR`, white and the
    ground ``table.bgr``; the weave's threads show, and sometimes crumbs of a pip's size."""
    ground = np.array(table.bgr, np.float32)
    inks = _inks(rng)
    woven = _gingham if rng.random() < 0.5 else _tartan
    img = woven(shape, die, ground, inks, table.angle, rng)
    if rng.random() < 0.3:  # crumbs
        h, w = shape
        count = int(h * w / (die * die) * float(rng.uniform(0.2, 1.0)))
        _specks(img, rng, count, die, (0.04, 0.09), PRINT_BGR[4])
    grain = 1.0 + 0.04 * smooth_noise(rng, shape, die) + 0.03 * _fine(rng, shape)
    return (img * grain[..., None]).astype(np.float32)


def _threads(shape: tuple[int, int], die: float, angle: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cloth coordinates (``u`` along the warp, ``v`` along the weft, in table pixels) and a
    twill mask: where a warp thread lies on top (a thread about a fortieth of a die wide, two
    over and two under, stepping one thread a row, so the weave shows fine diagonals)."""
    u, v = _rotated_coords(shape, angle)
    thread = max(1.0, die / 40.0)
    twill = ((np.floor(u / thread) + np.floor(v / thread)) % 4) < 2
    return u, v, twill


def _gingham(shape: tuple[int, int], die: float, ground: np.ndarray, inks: list[np.ndarray],
             angle: float, rng: np.random.Generator) -> np.ndarray:
    """A woven gingham: bands of one ink crossing both ways on a ground (white or cream most
    often); where bands cross the ink is full, where a band crosses the ground it is half,
    so squares of a die's size in a die's colour sit between light ones."""
    u, v, twill = _threads(shape, die, angle)
    period = die * float(rng.uniform(0.35, 1.8))
    base = np.array(PRINT_BGR[4], np.float32) * float(rng.uniform(0.85, 1.0)) \
        if rng.random() < 0.6 else ground
    ink = inks[0]
    warp = ((u / period) % 2) < 1
    weft = ((v / period) % 2) < 1
    # a warp thread on top shows the warp's colour, a weft thread the weft's
    on_top = np.where(twill, warp, weft)
    img: np.ndarray = np.where(on_top[..., None], ink, base).astype(np.float32)
    return cv2.GaussianBlur(img, (0, 0), 0.6)


def _tartan(shape: tuple[int, int], die: float, ground: np.ndarray, inks: list[np.ndarray],
            angle: float, rng: np.random.Generator) -> np.ndarray:
    """A woven tartan (plaid): one sett of 3-6 stripes of several inks and widths (from a
    fine line to nearly a die), the same in warp and weft, twill woven (each point shows its
    warp or weft thread's colour)."""
    u, v, twill = _threads(shape, die, angle)
    colours = [ground, *inks, np.array(PRINT_BGR[4], np.float32)]
    widths, tones = [], []
    for _ in range(int(rng.integers(3, 7))):
        widths.append(die * float(rng.choice([0.06, 0.2, 0.5, 0.9])) * float(rng.uniform(0.7, 1.3)))
        tones.append(colours[int(rng.integers(len(colours)))])
    edges = np.cumsum(widths)
    sett = float(edges[-1])
    palette = np.array(tones, np.float32)
    warp = palette[np.searchsorted(edges, u % sett, side="right").clip(0, len(tones) - 1)]
    weft = palette[np.searchsorted(edges, v % sett, side="right").clip(0, len(tones) - 1)]
    img: np.ndarray = np.where(twill[..., None], warp, weft).astype(np.float32)
    return cv2.GaussianBlur(img, (0, 0), 0.6)


def _stone(table: Table, shape: tuple[int, int], die: float,
           rng: np.random.Generator) -> np.ndarray:
    """A stone or terrazzo table top: a ground of ``table.bgr`` with veins, speckles of
    several tones from pip-sized to a die's third, and (terrazzo) coloured chips."""
    h, w = shape
    img: np.ndarray = np.empty((h, w, 3), np.float32)
    img[:] = np.array(table.bgr, np.float32)
    img *= (1.0 + 0.06 * smooth_noise(rng, shape, 2 * die))[..., None]
    if rng.random() < 0.5:  # marble veins: thin lines where a warped field crosses zero
        field = smooth_noise(rng, shape, 4 * die) + 0.3 * smooth_noise(rng, shape, die)
        vein = np.exp(-np.square(field / 0.04))
        tone = np.array(table.second_bgr, np.float32)
        img = img * (1 - 0.8 * vein[..., None]) + tone * (0.8 * vein[..., None])
    tones = [np.array(table.second_bgr, np.float32), np.full(3, 235.0, np.float32),
             np.full(3, 30.0, np.float32), np.array((60, 80, 150), np.float32)]
    count = int(h * w / (die * die) * float(rng.uniform(4, 16)))
    chips = rng.random() < 0.4
    for _ in range(count):
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        r = die * float(rng.uniform(0.03, 0.16 if chips else 0.09))
        tone = tones[int(rng.integers(len(tones)))] * float(rng.uniform(0.8, 1.1))
        if chips:  # a broken chip: a small irregular polygon
            k = int(rng.integers(4, 7))
            a = np.sort(rng.uniform(0, 2 * np.pi, k))
            rr = r * rng.uniform(0.6, 1.3, k)
            pts = np.stack([c[0] + rr * np.cos(a), c[1] + rr * np.sin(a)], 1).astype(np.int32)
            cv2.fillPoly(img, [pts], tone.tolist(), cv2.LINE_AA)
        else:
            cv2.circle(img, (int(c[0]), int(c[1])), max(1, int(r)), tone.tolist(), -1,
                       cv2.LINE_AA)
    soft: np.ndarray = cv2.GaussianBlur(img, (0, 0), 0.6)
    return (soft * (1.0 + 0.02 * _fine(rng, shape))[..., None]).astype(np.float32)


def face_texture(value: int, paint: BGR, look: DieLook, size: int, turn: int,
                 rng: np.random.Generator) -> np.ndarray:
    """A die face (``size`` pixels square): paint or inset, grain, wear, bevel and pips.

    ``turn`` quarter-turns the pip layout (the 2, 3 and 6 have a direction).
    """
    n = size
    ys, xs = (np.mgrid[0:n, 0:n].astype(np.float32) + 0.5) / n
    edge = np.minimum(np.minimum(xs, 1 - xs), np.minimum(ys, 1 - ys))
    wood = np.array(look.wood_bgr, np.float32)
    col = np.array(paint, np.float32)
    if look.style == "inset":
        # painted square with slightly rounded corners, anti-aliased
        b = look.border
        dx = np.maximum(np.abs(xs - 0.5) - (0.5 - b - 0.04), 0)
        dy = np.maximum(np.abs(ys - 0.5) - (0.5 - b - 0.04), 0)
        dist = np.sqrt(dx * dx + dy * dy) - 0.04
        painted = np.clip(0.5 - dist * n, 0, 1)
    else:
        painted = np.ones((n, n), np.float32)
    if look.wood_edges:  # the rounded edge is bare wood
        painted = painted * np.clip((edge - look.bevel * 0.9) / 0.02, 0, 1)
    if look.wear > 0:
        blot = smooth_noise(rng, (n, n), 0.12 * n)
        worn = np.clip((look.wear * 0.18 - edge) / 0.04 + 0.6 * blot - 0.3, 0, 1)
        painted = painted * (1 - worn * (0.6 + 0.4 * look.wear))
    img = wood * (1 - painted[..., None]) + col * painted[..., None]
    if look.grain > 0:
        t = rng.uniform(0, np.pi)
        period = rng.uniform(0.05, 0.12)
        warp = smooth_noise(rng, (n, n), 0.4 * n) * 0.6
        g = np.sin(2 * np.pi * ((xs * np.cos(t) + ys * np.sin(t)) / period + warp)) ** 2
        strength = look.grain * (0.2 - 0.14 * painted)
        img *= (1 - strength * g)[..., None]
    # bevel: the rounded edge turns away from the light
    bevel = np.clip(edge / max(look.bevel, 1e-3), 0, 1)
    img *= (0.72 + 0.28 * np.sqrt(bevel))[..., None]
    # pips
    spots = np.array(PIP_SPOTS[value], np.float32)
    for _ in range(turn % 4):
        spots = np.stack([-spots[:, 1], spots[:, 0]], axis=1)
    r = look.pip_radius * n
    pip = np.array(look.pip_bgr, np.float32)
    sh = 4
    for px, py in spots:
        c = (0.5 + look.pip_spacing * px) * n, (0.5 + look.pip_spacing * py) * n
        ci = (round(c[0] * (1 << sh)), round(c[1] * (1 << sh)))
        if look.engraved:  # a hollow: the rim on the light's side is in shadow
            rim = np.zeros((n, n), np.float32)
            cv2.circle(rim, ci, round(r * 1.08 * (1 << sh)), 1.0, -1, cv2.LINE_AA, sh)
            img *= (1 - 0.45 * rim)[..., None]
            ci = (ci[0] + round(0.12 * r * (1 << sh)), ci[1] + round(0.12 * r * (1 << sh)))
        mask = np.zeros((n, n), np.float32)
        cv2.circle(mask, ci, round(r * (1 << sh)), 1.0, -1, cv2.LINE_AA, sh)
        shade = 0.85 if look.engraved else 1.0
        img = img * (1 - mask[..., None]) + (pip * shade) * mask[..., None]
    out: np.ndarray = img.astype(np.float32)
    return out


CARD_EDGES = (3.7, 5.75)
"""A citizen card's width and height in die edges (59 x 92 mm beside a 16 mm die)."""
CARD_GROUNDS: tuple[BGR, ...] = ((120, 170, 215), (150, 200, 160), (200, 160, 120),
                                 (160, 150, 200), (110, 190, 230), (190, 200, 205))
"""The grounds of the cards' pictures: the villages' tints, muted."""
PRINTED_DICE: tuple[BGR, ...] = ((48, 42, 196), (64, 150, 46), (176, 92, 28), (240, 242, 244),
                                 (150, 150, 150), (120, 170, 210))
"""The faces of the dice printed on a card: the three paints, white (any colour), grey and
wood."""


def _printed_die(img: np.ndarray, c: tuple[float, float], side: float, value: int,
                 face: BGR, rng: np.random.Generator) -> None:
    """A die printed on a card: a flat rounded square with pips, sometimes outlined."""
    half = side / 2
    x0, y0, x1, y1 = (round(v) for v in (c[0] - half, c[1] - half, c[0] + half,
                                              c[1] + half))
    radius = max(1, int(side * float(rng.uniform(0.08, 0.2))))
    square = np.zeros(img.shape[:2], np.uint8)
    cv2.rectangle(square, (x0 + radius, y0), (x1 - radius, y1), 1, -1)
    cv2.rectangle(square, (x0, y0 + radius), (x1, y1 - radius), 1, -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius),
                   (x0 + radius, y1 - radius), (x1 - radius, y1 - radius)):
        cv2.circle(square, (cx, cy), radius, 1, -1)
    if rng.random() < 0.5:  # a drop shadow printed beside it
        off = max(1, int(0.06 * side))
        shadow = np.roll(np.roll(square, off, 0), off, 1) > 0
        dark = shadow & (square == 0)
        img[dark] = (img[dark] * 0.6).astype(np.uint8)
    img[square > 0] = face
    if rng.random() < 0.6:
        cv2.rectangle(img, (x0, y0), (x1, y1), (40, 40, 40), max(1, int(side / 25)), cv2.LINE_AA)
    light = sum(face) > 600
    pip: BGR = (30, 30, 30) if light else ((230, 236, 240) if rng.random() < 0.6
                                            else (178, 222, 238))
    spacing = side * float(rng.uniform(0.24, 0.29))
    turn = int(rng.integers(2))
    for px, py in PIP_SPOTS[value]:
        if turn:
            px, py = -py, px
        cv2.circle(img, (int(c[0] + px * spacing), int(c[1] + py * spacing)),
                   max(1, int(side * float(rng.uniform(0.075, 0.1)))), pip, -1, cv2.LINE_AA)


def citizen_texture(edge: float, rng: np.random.Generator) -> np.ndarray:
    """A citizen card as printed (``edge`` texture pixels a die edge): a light border, a
    picture of the citizen on a tinted ground, the name, the points and, at the foot, its
    requirement as 1-5 printed dice (a flat face with pips, about a die's size), sometimes
    with a count or a sum beside them. None of it is a die."""
    w, h = int(CARD_EDGES[0] * edge), int(CARD_EDGES[1] * edge)
    img = np.full((h, w, 3), (232, 236, 238), np.uint8)  # drawn in 8 bits: OpenCV's text
    m = int(0.12 * edge)
    ground = np.array(CARD_GROUNDS[int(rng.integers(len(CARD_GROUNDS)))], np.float32)
    img[m:h - m, m:w - m] = np.clip(ground * float(rng.uniform(0.85, 1.1)), 0, 255)
    pic = img[m:int(0.62 * h), m:w - m]  # the picture: a figure among shapes
    ph, pw = pic.shape[:2]
    for _ in range(int(rng.integers(4, 9))):
        col = tuple(float(v) for v in rng.integers(30, 230, 3))
        cv2.ellipse(pic, (int(rng.uniform(0, pw)), int(rng.uniform(0, ph))),
                    (int(rng.uniform(0.1, 0.5) * pw), int(rng.uniform(0.05, 0.3) * ph)),
                    float(rng.uniform(0, 180)), 0, 360, col, -1, cv2.LINE_AA)
    body = tuple(float(v) for v in rng.integers(30, 220, 3))
    cv2.ellipse(pic, (pw // 2, int(0.8 * ph)), (int(0.3 * pw), int(0.35 * ph)), 0, 180, 360,
                body, -1, cv2.LINE_AA)
    cv2.circle(pic, (pw // 2, int(0.38 * ph)), int(0.17 * pw), (120, 160, 215), -1,
               cv2.LINE_AA)
    letters = "ABCDEFGHIKLMNOPRSTUWZ"
    name = "".join(letters[int(k)] for k in rng.integers(len(letters), size=int(rng.integers(4,
                                                                                          10))))
    cv2.rectangle(img, (m, int(0.62 * h)), (w - m, int(0.7 * h)), (225, 232, 236), -1)
    cv2.putText(img, name, (int(0.2 * w), int(0.685 * h)), cv2.FONT_HERSHEY_SIMPLEX,
                0.012 * edge, (40, 40, 40), max(1, int(edge / 30)), cv2.LINE_AA)
    cv2.circle(img, (int(0.82 * w), int(0.1 * h)), int(0.28 * edge), (60, 200, 235), -1,
               cv2.LINE_AA)
    cv2.putText(img, str(int(rng.integers(1, 10))), (int(0.77 * w), int(0.125 * h)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.014 * edge, (30, 30, 30), max(1, int(edge / 25)),
                cv2.LINE_AA)
    count = int(rng.integers(1, 6))
    side = edge * float(rng.uniform(0.5, min(0.95, 3.0 / (count * 1.15))))
    gap = side * float(rng.uniform(0.1, 0.3))
    row = count * side + (count - 1) * gap
    label = rng.random() < 0.35  # "3x" or "≥ 28" printed beside the dice
    x = (w - row - (0.8 * edge if label else 0)) / 2 + side / 2
    y = h * float(rng.uniform(0.8, 0.86))
    same = rng.random() < 0.5
    face = PRINTED_DICE[int(rng.integers(len(PRINTED_DICE)))]
    value = int(rng.integers(1, 7))
    for _ in range(count):
        if not same:
            face = PRINTED_DICE[int(rng.integers(len(PRINTED_DICE)))]
            value = int(rng.integers(1, 7))
        _printed_die(img, (x, y), side, value, face, rng)
        x += side + gap
    if label:
        text = f"{int(rng.integers(2, 6))}x" if rng.random() < 0.5 else str(int(rng.integers(
            5, 31)))
        cv2.putText(img, text, (int(x - side / 2 + 0.1 * edge), int(y + 0.2 * edge)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.012 * edge, (30, 30, 30),
                    max(1, int(edge / 30)), cv2.LINE_AA)
    grain = 1.0 + 0.02 * smooth_noise(rng, (h, w), edge) + 0.015 * _fine(rng, (h, w))
    soft = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 0.6)
    return np.clip(soft * grain[..., None], 0, 255).astype(np.float32)

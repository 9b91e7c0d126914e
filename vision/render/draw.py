"""``render_tray``: draw a :class:`TrayScene` as a camera would see it, with the truth.

Order of work, as light and a camera make a picture: the table (texture, tray walls), the
shadows the lamp casts, the flat things lying on it, the dice (each visible face of each
cube, textured, shaded by its angle to the lamp, farthest die first), what is held above
the tray (a hand, a pencil), then the room's light (gradient, an arm's shadow, a glare,
colour temperature) and last the camera (lens distortion, defocus, vignetting, white
balance, exposure, noise, JPEG).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from rules.dice import HABA_LAYOUTS
from vision.render.camera import Projector
from vision.render.scene import BGR, DieSpec, Distractor, Light, TrayScene, TruthDie
from vision.render.textures import (
    CARD_EDGES,
    citizen_texture,
    face_texture,
    gauss_noise,
    smooth_noise,
    soft_blur,
    table_texture,
)

MAX_CANVAS = 1_300_000
"""Table canvas pixels at most (a tilted camera sees far across the table)."""

# a cube of edge 1 standing on z = 0: corners, and faces as (corner indices, normal)
_CUBE = np.array([(x, y, z) for z in (0.0, 1.0) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
_FACES = {  # corner order gives the texture's (0,0), (1,0), (1,1), (0,1)
    "top": ((4, 5, 7, 6), (0.0, 0.0, 1.0)),
    "bottom": ((2, 3, 1, 0), (0.0, 0.0, -1.0)),
    "+x": ((5, 1, 3, 7), (1.0, 0.0, 0.0)),
    "-x": ((6, 2, 0, 4), (-1.0, 0.0, 0.0)),
    "+y": ((7, 3, 2, 6), (0.0, 1.0, 0.0)),
    "-y": ((4, 0, 1, 5), (0.0, -1.0, 0.0)),
}


def _side_values(value: int) -> dict[str, int]:
    a, b = [v for v in range(1, 7) if v not in (value, 7 - value)][:2]
    return {"top": value, "bottom": 7 - value, "+x": a, "+y": b, "-x": 7 - a, "-y": 7 - b}


def _rot_z(deg: float) -> np.ndarray:
    t = math.radians(deg)
    return np.array([[math.cos(t), -math.sin(t), 0], [math.sin(t), math.cos(t), 0], [0, 0, 1]])


def _rot_axis(axis: np.ndarray, deg: float) -> np.ndarray:
    rot, _ = cv2.Rodrigues(np.asarray(axis, np.float64) * math.radians(deg))
    return rot


def die_rotation(die: DieSpec) -> np.ndarray:
    """The rotation of ``die``'s unit cube: turned, tumbled (motion frames), then leant."""
    rot = _rot_z(die.angle)
    if die.tumble is not None:
        a, b, c = die.tumble
        rot = rot @ _rot_axis(np.array([1.0, 0, 0]), a) @ _rot_axis(np.array([0, 1.0, 0]), b) \
            @ _rot_z(c)
    if die.lean:
        d = math.radians(die.lean_dir)
        rot = _rot_axis(np.array([-math.sin(d), math.cos(d), 0.0]), die.lean) @ rot
    return rot


def die_corners(die: DieSpec, size: float) -> np.ndarray:
    """The 8 world corners of the die (table px)."""
    rot = die_rotation(die)
    pts = (_CUBE - [0, 0, 0.5]) @ rot.T * size
    out: np.ndarray = pts + np.array([die.x, die.y, die.lift * size - pts[:, 2].min()])
    return out


def _light_vector(light: Light) -> np.ndarray:
    az, el = math.radians(light.azimuth), math.radians(light.elevation)
    return np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])


def kelvin_bgr(kelvin: float, tint: float = 0.0) -> np.ndarray:
    """B, G, R of a light of this colour temperature, green = 1 (Tanner Helland's fit)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = (99.4708025861 * math.log(t) - 161.1195681661 if t <= 66
         else 288.1221695283 * (t - 60) ** -0.0755148492)
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10)
                               - 305.0447927307)
    out = np.array([b, g, r], np.float64) / g
    out[1] *= 1.0 + 0.12 * tint
    return out.astype(np.float32)


class _Canvas:
    """The frame being drawn (float BGR) and which die drew each pixel last."""

    def __init__(self, scene: TrayScene) -> None:
        self.img = np.zeros((scene.height, scene.width, 3), np.float32)
        self.owner = np.full((scene.height, scene.width), -1, np.int16)

    def paste(self, texture: np.ndarray, quad: np.ndarray, owner: int | None = None,
              shade: float = 1.0) -> None:
        """Warp ``texture`` onto the frame polygon ``quad`` (its 4 corners, clockwise from the
        texture's top left)."""
        h, w = self.img.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return
        th, tw = texture.shape[:2]
        src = np.array([(0, 0), (tw, 0), (tw, th), (0, th)], np.float32)
        dst = (quad - [x0, y0]).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        size = (x1 - x0, y1 - y0)
        tex = cv2.warpPerspective(texture * shade, m, size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        alpha = cv2.warpPerspective(np.ones((th, tw), np.float32), m, size,
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        # a face seen almost edge-on warps to a sliver whose few pixels can come out NaN:
        # nothing of it shows there
        cv2.patchNaNs(tex, 0.0)
        cv2.patchNaNs(alpha, 0.0)
        roi = self.img[y0:y1, x0:x1]
        roi *= (1.0 - alpha)[..., None]
        roi += tex
        if owner is not None:
            self.owner[y0:y1, x0:x1][alpha > 0.5] = owner


def _table(canvas: _Canvas, scene: TrayScene, proj: Projector, rng: np.random.Generator
           ) -> None:
    w, h, s = scene.width, scene.height, scene.die_size
    corners = proj.to_table(np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64))
    lo = corners.min(axis=0) - 0.5 * s
    hi = corners.max(axis=0) + 0.5 * s
    span = hi - lo
    q = min(1.0, math.sqrt(MAX_CANVAS / max(span[0] * span[1], 1.0)))
    shape = (max(8, int(span[1] * q)), max(8, int(span[0] * q)))
    table = scene.table
    tex = table_texture(table, shape, s * q, rng)
    if table.kind == "tray" and table.tray is not None:
        from dataclasses import replace

        floor = table_texture(replace(table, kind="felt", bgr=table.second_bgr), shape, s * q,
                              rng)
        x0, y0, x1, y1 = table.tray
        ys, xs = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
        xs, ys = xs / q + lo[0], ys / q + lo[1]
        inside = (xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)
        tex[inside] = floor[inside]
    to_canvas = np.array([[1 / q, 0, lo[0]], [0, 1 / q, lo[1]], [0, 0, 1.0]])
    m = proj.table_to_image @ to_canvas
    canvas.img[:] = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR,
                                        borderMode=cv2.BORDER_REFLECT)


def _walls(canvas: _Canvas, scene: TrayScene, proj: Projector, light: np.ndarray) -> None:
    table = scene.table
    if table.kind != "tray" or table.tray is None or table.wall <= 0:
        return
    x0, y0, x1, y1 = table.tray
    top = table.wall * scene.die_size
    wood = np.array(table.bgr, np.float32) * 0.85
    tex = np.empty((8, 8, 3), np.float32)
    tex[:] = wood
    walls = [((x0, y0), (x1, y0), (0, 1)), ((x1, y0), (x1, y1), (-1, 0)),
             ((x1, y1), (x0, y1), (0, -1)), ((x0, y1), (x0, y0), (1, 0))]
    eye = proj.eye
    for (ax, ay), (bx, by), (nx, ny) in walls:
        quad3 = np.array([(ax, ay, top), (bx, by, top), (bx, by, 0.0), (ax, ay, 0.0)])
        normal = np.array([nx, ny, 0.0])
        if np.dot(normal, eye - quad3.mean(axis=0)) <= 0:
            continue
        shade = 0.5 + 0.5 * max(0.0, float(np.dot(normal, light)))
        canvas.paste(tex, proj.project(quad3), shade=shade)


def _shadows(canvas: _Canvas, scene: TrayScene, proj: Projector, light_vec: np.ndarray,
             solids: list[np.ndarray]) -> None:
    """Lamp shadows and contact shadows of the dice (and held objects) on the table."""
    h, w = canvas.img.shape[:2]
    s = scene.die_size
    light = scene.light
    hard = np.zeros((h, w), np.float32)
    contact = np.zeros((h, w), np.float32)
    lz = max(light_vec[2], 0.2)
    for pts in solids:
        flat = pts[:, :2] - pts[:, 2:3] * light_vec[:2] / lz
        shadow = proj.project(np.column_stack([flat, np.zeros(len(flat))]))
        hull = cv2.convexHull(shadow.astype(np.float32))
        cv2.fillPoly(hard, [np.round(hull * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        low = pts[pts[:, 2] < 0.15 * s]
        if len(low) >= 3:
            foot = proj.project(np.column_stack([low[:, :2], np.zeros(len(low))]))
            hull = cv2.convexHull(foot.astype(np.float32))
            cv2.fillPoly(contact, [np.round(hull * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    if hard.any():
        hard = soft_blur(hard, max(0.6, light.softness * s))
        canvas.img *= (1.0 - light.shadow * np.clip(hard, 0, 1))[..., None]
    if contact.any():
        contact = soft_blur(contact, max(0.6, 0.12 * s))
        canvas.img *= (1.0 - 0.3 * np.clip(contact, 0, 1))[..., None]


def _draw_die(canvas: _Canvas, index: int, die: DieSpec, scene: TrayScene, proj: Projector,
              light_vec: np.ndarray, rng: np.random.Generator) -> TruthDie:
    s = scene.die_size
    look = scene.look
    layout = HABA_LAYOUTS[die.pair]
    rot = die_rotation(die)
    corners = die_corners(die, s)
    values = _side_values(die.value)
    eye = proj.eye
    light = scene.light
    sin_el = max(math.sin(math.radians(light.elevation)), 0.3)
    top_name, top_z = "top", -2.0
    for name, (idx, normal) in _FACES.items():
        n = rot @ np.array(normal)
        if n[2] > top_z:
            top_name, top_z = name, float(n[2])
        quad3 = corners[list(idx)]
        if np.dot(n, eye - quad3.mean(axis=0)) <= 0:
            continue
        quad = proj.project(quad3)
        edge = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
        if edge < 1.0:
            continue
        size = int(np.clip(edge * 1.5, 24, 256))
        value = values[name]
        tex = face_texture(value, look.paint[layout[value]], look, size, int(rng.integers(4)),
                           rng)
        diffuse = max(0.0, float(np.dot(n, light_vec)))
        shade = min(1.4, light.ambient + (1 - light.ambient) * diffuse / sin_el)
        if look.gloss > 0:
            view = eye - quad3.mean(axis=0)
            half = light_vec + view / np.linalg.norm(view)
            spec = look.gloss * max(0.0, float(np.dot(n, half / np.linalg.norm(half)))) ** 30
            if spec > 0.02:
                ys, xs = (np.mgrid[0:size, 0:size].astype(np.float32) + 0.5) / size
                cx, cy = rng.uniform(0.25, 0.75, 2)
                blob = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * 0.07 ** 2))
                tex = tex + (spec * 150.0 * blob)[..., None] / shade
        canvas.paste(tex, quad, owner=index, shade=shade)
    idx, _ = _FACES[top_name]
    top = proj.project(corners[list(idx)])
    return TruthDie(values[top_name], layout[values[top_name]], (0.0, 0.0), tuple(map(tuple, top)),
                    0.0, True, top_z < math.cos(math.radians(8)))


def _disc(img: np.ndarray, c: np.ndarray, r: float, bgr: BGR) -> None:
    cv2.circle(img, tuple(int(v) for v in np.round(c * 16)), max(1, round(r * 16)), bgr, -1,
               cv2.LINE_AA, shift=4)


def _poly(img: np.ndarray, pts: np.ndarray, bgr: BGR | tuple[float]) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], bgr, cv2.LINE_AA, shift=4)


def _draw_thing(canvas: _Canvas, d: Distractor, scene: TrayScene, proj: Projector,
                rng: np.random.Generator) -> None:
    img = canvas.img
    c = proj.project(np.array([[d.x, d.y, 0.0]]))[0]
    s = scene.die_size * proj.scale_at(d.x, d.y)
    t = math.radians(d.angle)
    ux, uy = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    if d.kind in ("coin", "token"):
        r = (0.75 if d.kind == "coin" else 0.5) * s * d.scale
        _disc(img, c, r, d.bgr)
        if d.kind == "coin":
            cv2.circle(img, tuple(int(v) for v in np.round(c * 16)), round(r * 0.85 * 16),
                       tuple(v * 0.8 for v in d.bgr), max(1, round(s / 30)), cv2.LINE_AA, 4)
            b, g, r_ = (min(255.0, v * 1.25) for v in d.bgr)
            _disc(img, c - 0.3 * r, 0.3 * r, (b, g, r_))
    elif d.kind == "pencil":
        half_l, half_w = 4.0 * s * d.scale, 0.22 * s
        body = np.array([c - ux * half_l - uy * half_w, c + ux * half_l - uy * half_w,
                         c + ux * half_l + uy * half_w, c - ux * half_l + uy * half_w])
        _poly(img, body, d.bgr)
        tip = np.array([c + ux * half_l - uy * half_w, c + ux * (half_l + 0.9 * s),
                        c + ux * half_l + uy * half_w])
        _poly(img, tip, (120, 170, 205))
        _poly(img, c + ux * (half_l + 0.6 * s) + (tip - tip[1]) * 0.33, (60, 60, 60))
        canvas.owner[_mask_of(img.shape[:2], body)] = -2
    elif d.kind == "card":
        half = np.array([1.9, 2.8]) * s * d.scale
        pts = np.array([c + (sx * half[0]) * ux + (sy * half[1]) * uy
                        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        _poly(img, pts, (228, 234, 236))
        _poly(img, c + (pts - c) * 0.86, d.bgr)
        for _ in range(6):  # printed art: circles and blobs of other colours
            du, dv = rng.uniform(-0.7, 0.7, 2)
            p = c + du * half[0] * ux + dv * half[1] * uy
            col = tuple(float(v) for v in rng.integers(30, 240, 3))
            _disc(img, p, float(rng.uniform(0.08, 0.4)) * s, col)  # type: ignore[arg-type]
    elif d.kind == "citizen":  # a citizen card of the box, its requirement's dice printed
        half = np.array(CARD_EDGES) / 2 * scene.die_size * d.scale
        tu = np.array([math.cos(t), math.sin(t)])
        tv = np.array([-math.sin(t), math.cos(t)])
        corners = np.array([[d.x, d.y] + sx * half[0] * tu + sy * half[1] * tv
                            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        quad = proj.project(np.column_stack([corners, np.zeros(4)]))
        edge = float(np.clip(s * 1.2, 24, 96))
        canvas.paste(citizen_texture(edge, rng), quad)
    elif d.kind == "hand":  # an arm reaching in from outside the frame
        r = 1.6 * s * d.scale
        palm = c
        arm_dir = -ux
        far = palm + arm_dir * 20 * s
        arm = np.array([palm + uy * r * 0.8, far + uy * r * 0.9, far - uy * r * 0.9,
                        palm - uy * r * 0.8])
        mask = np.zeros(img.shape[:2], np.float32)
        _poly(mask, arm, (1.0,))
        cv2.ellipse(mask, tuple(int(v) for v in palm), (int(r * 1.2), int(r)), d.angle, 0, 360,
                    1.0, -1, cv2.LINE_AA)
        for k in range(4):
            a = t + (k - 1.5) * 0.3
            tip = palm + np.array([math.cos(a), math.sin(a)]) * r * 2.1
            cv2.line(mask, tuple(int(v) for v in palm), tuple(int(v) for v in tip), 1.0,
                     max(2, int(0.45 * r)), cv2.LINE_AA)
        shade = 1.0 + 0.08 * smooth_noise(rng, mask.shape, s)
        skin = np.array(d.bgr, np.float32)
        img *= (1 - mask)[..., None]
        img += (mask * shade)[..., None] * skin
        canvas.owner[mask > 0.5] = -2
    else:
        raise ValueError(f"unknown distractor {d.kind!r}")


def _mask_of(shape: tuple[int, int], pts: np.ndarray) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    cv2.fillPoly(m, [np.round(pts).astype(np.int32)], 1)
    return m > 0


def _axes(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel x as a row and y as a column (they broadcast to the frame)."""
    return (np.arange(w, dtype=np.float32)[None, :], np.arange(h, dtype=np.float32)[:, None])


def _room_light(img: np.ndarray, scene: TrayScene, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    light, s = scene.light, scene.die_size
    if light.arm_shadow > 0:
        arm = np.zeros((h, w), np.float32)
        p = rng.uniform([0, 0], [w, h])
        cv2.ellipse(arm, (int(p[0]), int(p[1])), (int(rng.uniform(3, 6) * s), int(1.4 * s)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        arm = soft_blur(arm, 0.9 * s)
        img *= (1.0 - light.arm_shadow * 0.55 * arm)[..., None]
    if light.gradient > 0:
        ga = math.radians(light.gradient_angle)
        xx, yy = _axes(w, h)
        g = (xx - w / 2) * math.cos(ga) + (yy - h / 2) * math.sin(ga)
        g /= max(1.0, float(np.abs(g).max()))
        img *= (1.0 - light.gradient * 0.5 * (1.0 + g))[..., None]
    if light.hotspot > 0:
        xx, yy = _axes(w, h)
        cx, cy = light.hotspot_at[0] * w, light.hotspot_at[1] * h
        r = float(rng.uniform(1.5, 4.0)) * s
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        img += (light.hotspot * 120.0 * spot)[..., None]
    img *= kelvin_bgr(light.kelvin, light.tint)
    return img


def _camera(img: np.ndarray, scene: TrayScene, proj: Projector, rng: np.random.Generator
            ) -> np.ndarray:
    cam, s = scene.camera, scene.die_size
    h, w = img.shape[:2]
    maps = proj.distortion_maps()
    if maps is not None:
        img = np.asarray(cv2.remap(img, maps[0], maps[1], cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REFLECT))
    if cam.motion_blur > 0:
        ln = max(3, int(cam.motion_blur * s) | 1)
        line = np.zeros((ln, ln), np.float32)
        line[ln // 2, :] = 1.0 / ln
        rot = cv2.getRotationMatrix2D((ln / 2 - 0.5, ln / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        k = np.asarray(cv2.warpAffine(line, rot, (ln, ln)), np.float32)
        k /= max(float(k.sum()), 1e-6)
        img = np.asarray(cv2.filter2D(img, -1, k))
    if cam.defocus > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.defocus * s)
    if cam.vignette > 0:
        xx, yy = _axes(w, h)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (w * w / 4 + h * h / 4)
        img *= (1.0 - cam.vignette * r2)[..., None]
    wb = kelvin_bgr(scene.light.kelvin, scene.light.tint) ** cam.white_balance
    img *= (np.array(cam.cast, np.float32) * cam.exposure / wb).astype(np.float32)
    if cam.noise > 0:  # read noise plus shot noise that grows with the signal
        sigma = np.maximum(img, 0.0) * 0.015 + cam.noise
        img = np.asarray(cv2.add(img, cv2.multiply(gauss_noise(rng, img.shape), sigma)))
    frame: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    if cam.jpeg_quality is not None:
        _, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(cam.jpeg_quality)])
        frame = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return frame


def render_tray(scene: TrayScene, rng: np.random.Generator) -> tuple[np.ndarray, list[TruthDie]]:
    """Render ``scene``: a ``height x width x 3`` uint8 BGR frame and the truth per die.

    The truth lists every die whose top face centre is in the frame, in the order of
    ``scene.dice``; ``visible`` is False for a die cut by the frame edge or mostly hidden
    (under a hand, another die).
    """
    proj = Projector(scene)
    canvas = _Canvas(scene)
    light_vec = _light_vector(scene.light)
    _table(canvas, scene, proj, rng)
    _walls(canvas, scene, proj, light_vec)
    solids = [die_corners(d, scene.die_size) for d in scene.dice]
    _shadows(canvas, scene, proj, light_vec, solids)
    for d in scene.distractors:
        if d.kind in ("card", "citizen", "coin", "token"):
            _draw_thing(canvas, d, scene, proj, rng)
    eye = proj.eye
    order = sorted(range(len(scene.dice)), key=lambda i: (
        scene.dice[i].lift, -float(np.linalg.norm(solids[i].mean(axis=0) - eye))))
    drawn: dict[int, TruthDie] = {}
    for i in order:
        drawn[i] = _draw_die(canvas, i, scene.dice[i], scene, proj, light_vec, rng)
    for d in scene.distractors:
        if d.kind in ("pencil", "hand"):
            _draw_thing(canvas, d, scene, proj, rng)
    h, w = canvas.img.shape[:2]
    truth = []
    for i in range(len(scene.dice)):
        t = drawn[i]
        top = np.array(t.outline)
        seen = _visible_share(canvas.owner, top, i)
        outline = proj.distort(top)
        centre = outline.mean(axis=0)
        size = float(np.mean([np.linalg.norm(outline[k] - outline[(k + 1) % 4])
                              for k in range(4)]))
        inside = bool(np.all((outline >= 0) & (outline < [w, h])))
        if 0 <= centre[0] < w and 0 <= centre[1] < h:
            truth.append(TruthDie(t.value, t.color, (float(centre[0]), float(centre[1])),
                                  tuple((float(x), float(y)) for x, y in outline), size,
                                  inside and seen > 0.9, t.leaning))
    img = _room_light(canvas.img, scene, rng)
    return _camera(img, scene, proj, rng), truth


def _visible_share(owner: np.ndarray, quad: np.ndarray, index: int) -> float:
    h, w = owner.shape
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int) + 1, 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [np.round(quad - [x0, y0]).astype(np.int32)], 1)
    area = int(m.sum())
    if area == 0:
        return 0.0
    return float((owner[y0:y1, x0:x1][m > 0] == index).sum()) / area

"""Frames at a real table, as families play: the tray among the game's own things.

:func:`table_scene` draws a tray scene of :mod:`vision.render.generate` and adds, on axes of
their own (:data:`AT_TABLE`): the five face-up citizen cards in a row beside the dice or
partly under them (each with its requirement's dice printed on it: never dice), a hand
reaching in or lying over the dice, a camera on a desk arm tilted 28-35°, and frames from
640x480 to 1920x1080; chosen, not drawn, the lens of the Raspberry Pi camera (:data:`LENSES`).
It also draws the families only a real table has (:data:`TABLE_FAMILIES`): one warm desk lamp
and a flowered tablecloth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from vision.render.camera import Projector
from vision.render.draw import die_corners
from vision.render.generate import _SKIN, ANY_LENS, PI_LENS, random_conditions, scene_for
from vision.render.scene import Distractor, TrayScene
from vision.render.textures import CARD_EDGES

AT_TABLE: dict[str, tuple[tuple[str, float], ...]] = {
    "citizens": (("none", 0.5), ("beside", 0.3), ("over", 0.2)),
    "hand": (("none", 0.72), ("reaching", 0.12), ("covering", 0.16)),
    "camera": (("bridge", 0.6), ("desk-arm", 0.4)),
    "frame": (("640x480", 0.25), ("1280x960", 0.5), ("1920x1080", 0.25)),
}
"""The real table's axes: each family with its share of frames."""
TABLE_FAMILIES: dict[str, tuple[tuple[str, float], ...]] = {
    "table": (("floral", 0.2),), "light": (("lamp", 0.4),)}
"""Families only the real table draws, with their share of its frames: ``floral`` (a
flowered cloth, blue petals with yellow hearts among them) and ``lamp`` (one warm desk lamp,
2700-3500 K, the white balance only partly corrected, hard shadows)."""
LENSES = {"any": ANY_LENS, "pi": PI_LENS}
"""The camera's lens: ``any`` as the tray's frames draw it (every set before the lens was an
axis), ``pi`` a Raspberry Pi camera module's own. Never drawn at random (the sets drawn before
stay as drawn): a set or a training family chooses it (``force={"lens": "pi"}``)."""
DESK_ARM_TILT = (28.0, 35.0)
"""A camera on a desk arm looks at the tray this many degrees from straight down."""
CARDS_IN_ROW = 5


@dataclass(frozen=True)
class AtTable:
    """One family on each axis of :data:`AT_TABLE`."""

    citizens: str = "none"
    hand: str = "none"
    camera: str = "bridge"
    frame: str = "1280x960"
    lens: str = "any"
    """A key of :data:`LENSES`."""

    def families(self) -> tuple[tuple[str, str], ...]:
        """Its family on each axis (the lens only when chosen: a frame drawn before the lens
        was an axis names the same families)."""
        lens = (("lens", self.lens),) if self.lens != "any" else ()
        return tuple((axis, getattr(self, axis)) for axis in AT_TABLE) + lens

    @property
    def size(self) -> tuple[int, int]:
        """The frame's width and height in pixels."""
        w, h = self.frame.split("x")
        return int(w), int(h)


def _pick(rng: np.random.Generator, options: tuple[tuple[str, float], ...]) -> str:
    names = [n for n, _ in options]
    shares = np.array([p for _, p in options])
    return names[int(rng.choice(len(names), p=shares / shares.sum()))]


def random_at_table(rng: np.random.Generator, frames: tuple[str, ...] | None = None
                    ) -> AtTable:
    """A family on each axis of :data:`AT_TABLE` by its share; ``frames`` limits the frame
    sizes (training frames must all scale to one finder input)."""
    picked = {axis: _pick(rng, tuple((n, p) for n, p in options
                                     if axis != "frame" or frames is None or n in frames))
              for axis, options in AT_TABLE.items()}
    return AtTable(**picked)


def _edge(scene: TrayScene, side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A frame edge as image points: a point on it, the direction along it, the inward
    normal (0 top, 1 right, 2 bottom, 3 left)."""
    w, h = scene.width, scene.height
    start = np.array([(0, 0), (w, 0), (w, h), (0, h)][side], float)
    along = np.array([(1, 0), (0, 1), (-1, 0), (0, -1)][side], float)
    inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][side], float)
    return start, along, inward


def _citizens(rng: np.random.Generator, scene: TrayScene, where: str) -> list[Distractor]:
    """The row of face-up citizen cards along one frame edge: ``beside`` the dice (the row
    reaches no die) or ``over`` (the row reaches under some dice)."""
    proj = Projector(scene)
    side = int(rng.integers(4))
    start, along, inward = _edge(scene, side)
    span = scene.width if side % 2 == 0 else scene.height
    centre = start + along * span / 2
    s_img = scene.die_size * proj.scale_at(*proj.to_table(centre[None])[0])
    card_w, card_h = CARD_EDGES[0] * s_img, CARD_EDGES[1] * s_img
    dice_at = [proj.project(die_corners(d, scene.die_size))[:, :2] for d in scene.dice]
    nearest = min((float(np.min((pts - start) @ inward)) for pts in dice_at),
                  default=6 * s_img)
    if where == "beside":
        depth = min(nearest - 0.3 * s_img, float(rng.uniform(1.5, 4.5)) * s_img)
    else:
        depth = max(nearest + float(rng.uniform(0.5, 2.0)) * s_img, 2.0 * s_img)
    gap = float(rng.uniform(0.15, 0.6)) * s_img
    offset = float(rng.uniform(-card_w, card_w))
    out = []
    for k in range(CARDS_IN_ROW):
        shift = (k - (CARDS_IN_ROW - 1) / 2) * (card_w + gap) + offset
        at = start + along * (span / 2 + shift) + inward * (depth - card_h / 2)
        ahead = at + along * s_img
        x, y = proj.to_table(at[None])[0]
        ax, ay = proj.to_table(ahead[None])[0]
        angle = math.degrees(math.atan2(ay - y, ax - x)) + float(rng.uniform(-6, 6))
        out.append(Distractor("citizen", float(x), float(y), angle,
                              float(rng.uniform(0.97, 1.03))))
    return out


def _hand_over(rng: np.random.Generator, scene: TrayScene) -> Distractor | None:
    """A hand reaching in from the nearest frame edge over one die: from the fingertips
    just touching it to the palm on it."""
    if not scene.dice:
        return None
    proj = Projector(scene)
    die = scene.dice[int(rng.integers(len(scene.dice)))]
    p = proj.project(np.array([[die.x, die.y, 0.0]]))[0][:2]
    w, h = scene.width, scene.height
    gaps = [(p[1], 90.0), (w - p[0], 180.0), (h - p[1], 270.0), (p[0], 0.0)]
    inward = min(gaps)[1] + float(rng.uniform(-25, 25))
    scale = float(rng.uniform(0.8, 1.2))
    r = 1.6 * scene.die_size * proj.scale_at(die.x, die.y) * scale
    t = math.radians(inward)
    palm = p - np.array([math.cos(t), math.sin(t)]) * r * float(rng.uniform(0.3, 2.2))
    x, y = proj.to_table(palm[None])[0]
    return Distractor("hand", float(x), float(y), inward, scale,
                      _SKIN[int(rng.integers(len(_SKIN)))])


def _table_families(rng: np.random.Generator, exclude: dict[str, tuple[str, ...]] | None
                    ) -> dict[str, str]:
    out = {}
    for axis, options in TABLE_FAMILIES.items():
        for name, share in options:
            if rng.random() < share and name not in (exclude or {}).get(axis, ()):
                out[axis] = name
    return out


def table_scene(rng: np.random.Generator, exclude: dict[str, tuple[str, ...]] | None = None,
                n_dice: int = 6, frames: tuple[str, ...] | None = None,
                at: AtTable | None = None, force: dict[str, str] | None = None
                ) -> TrayScene:
    """A settled scene at a real table: families of :data:`vision.render.AXES` (less
    ``exclude``) and of :data:`TABLE_FAMILIES`, and the real table's own (:data:`AT_TABLE`,
    or ``at``), with ``force``'s family on its axis; its ``family`` names them all."""
    at = at or random_at_table(rng, frames)
    mine = {axis: name for axis, name in (force or {}).items() if axis in (*AT_TABLE, "lens")}
    at = replace(at, **mine)
    cond = random_conditions(rng, exclude)  # drawn first: the judging sets stay as drawn
    families = _table_families(rng, exclude) | {
        axis: name for axis, name in (force or {}).items() if axis not in mine}
    cond = replace(cond, **families)
    w, h = at.size
    scene = scene_for(rng, cond, n_dice, w, h, hand=1.0 if at.hand == "reaching" else 0.0,
                      tilt=DESK_ARM_TILT if at.camera == "desk-arm" else None,
                      lens=LENSES[at.lens])
    things = list(scene.distractors)
    if at.citizens != "none":
        things = _citizens(rng, scene, at.citizens) + things
    if at.hand == "covering":
        hand = _hand_over(rng, scene)
        things += [hand] if hand is not None else []
    return replace(scene, distractors=tuple(things), family=cond.families() + at.families())

"""The face-colour palette: what each HABA face colour looks like *relative to its pips*.

Each colour is a chroma (:func:`vision.facecolor.face_chroma`: log paint/pip per channel,
brightness removed), so one palette holds under any lamp, white balance and table. Colours
are told apart by the chroma's *direction* (its hue): blur, glare and a pip seen smaller
than it is all make a face look paler, never of another hue; a face too pale to show a
hue at all is not forced into one (its chances stay even). The
palette of painted dice comes from their description (:class:`rules.dice.DiceLook`: the
paint and pips, the colour names and their number), which whoever composes the table hands
down from the game (:meth:`Palette.of_look`); :meth:`Palette.default` is HABA's own dice.
``kotd calibrate`` measures the real dice under the table's camera and makes it better,
never a must.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from rules.dice import HABA_LOOK, Color, DiceLook
from vision.facecolor import chroma_of

SPREAD = 0.3
"""How far (radians of hue) a face's measured hue typically lies from its colour's."""
PALE = 0.35
"""Chroma below which a face shows its hue only weakly (its chances are evened out)."""
_PLANE = np.array([[1.0, -1.0, 0.0], [1.0, 1.0, -2.0]]) / np.array([[np.sqrt(2)], [np.sqrt(6)]])


def hue(chroma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(angle in radians, strength) of chromas (..., 3) in the plane where they lie."""
    xy = np.asarray(chroma, np.float64) @ _PLANE.T
    return np.arctan2(xy[..., 1], xy[..., 0]), np.hypot(xy[..., 0], xy[..., 1])


class OutdatedPalette(ValueError):
    """A palette file written by an older kotd, which measured colours another way."""


@dataclass(frozen=True)
class Palette:
    """The chroma of each face colour, and how widely faces spread around it."""

    chroma: Mapping[Color, tuple[float, float, float]]
    spread: float = SPREAD

    @classmethod
    def default(cls) -> Palette:
        """The palette of HABA's dice as they come (:data:`rules.dice.HABA_LOOK`)."""
        return _haba_palette()

    @classmethod
    def of_look(cls, look: DiceLook) -> Palette:
        """The palette of dice that look so (paint and pips under white light)."""
        return cls.of_paint({c: bgr(v) for c, v in look.paint.items()}, bgr(look.pips))

    @classmethod
    def of_paint(cls, paint: Mapping[Color, tuple[float, float, float]],
                 pips: tuple[float, float, float]) -> Palette:
        """The palette of faces of this paint (B, G, R under white light) with these pips."""
        return cls({c: tuple(float(x) for x in chroma_of(p, pips))  # type: ignore[misc]
                    for c, p in paint.items()})

    @property
    def colors(self) -> tuple[Color, ...]:
        return tuple(self.chroma)

    def centroids(self) -> np.ndarray:
        return np.array([self.chroma[c] for c in self.colors], np.float64)

    def probabilities(self, chroma: np.ndarray) -> np.ndarray:
        """(n, k) chance of each palette colour for n measured chromas (k colours): a von
        Mises weighing of the hue, evened out for pale faces."""
        angle, strength = hue(np.atleast_2d(np.asarray(chroma, np.float64)))
        centre, _ = hue(self.centroids())
        weight = np.minimum(1.0, strength / PALE)[:, None] ** 2
        logp = weight * np.cos(angle[:, None] - centre[None, :]) / self.spread ** 2
        logp -= logp.max(axis=1, keepdims=True)
        p = np.exp(logp)
        out: np.ndarray = p / p.sum(axis=1, keepdims=True)
        return out

    def classify(self, chroma: np.ndarray) -> tuple[Color, float]:
        """The most likely colour of one chroma and its probability."""
        p = self.probabilities(chroma)[0]
        k = int(np.argmax(p))
        return self.colors[k], float(p[k])

    def to_json(self) -> dict[str, object]:
        return {"version": 2, "spread": round(self.spread, 4),
                "chroma": {c.value: [round(float(x), 4) for x in v]
                           for c, v in self.chroma.items()}}

    @classmethod
    def from_json(cls, data: object) -> Palette:
        if not isinstance(data, dict):
            raise ValueError("not a palette (expected a JSON object)")
        if data.get("version") != 2:
            raise OutdatedPalette("made by an older kotd (colours were measured "
                                  "differently); run 'kotd calibrate' again or delete it")
        raw = data.get("chroma")
        if not isinstance(raw, dict) or set(raw) != {c.value for c in Color}:
            raise ValueError("needs a chroma for red, green and blue")
        chroma = {}
        for name, v in raw.items():
            if not (isinstance(v, list) and len(v) == 3
                    and all(isinstance(x, int | float) for x in v)):
                raise ValueError(f"colour {name!r} needs three numbers")
            chroma[Color(name)] = (float(v[0]), float(v[1]), float(v[2]))
        spread = data.get("spread", SPREAD)
        if not isinstance(spread, int | float) or not 0.01 <= spread <= 2:
            raise ValueError("spread must be a number from 0.01 to 2 (radians)")
        return cls(chroma, float(spread))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Palette:
        """The palette in ``path``; ValueError naming the file when it is not one."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"{path}: not a palette file ({err})") from None
        try:
            return cls.from_json(data)
        except ValueError as err:
            raise type(err)(f"{path}: {err}") from None


PALETTE_FILE = "palette.json"
"""The palette's file name in the data directory (the directory is the config's to decide:
:func:`pi.config.default_data_dir`)."""


def bgr(hex_colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as (B, G, R)."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return float(b), float(g), float(r)


@cache
def _haba_palette() -> Palette:
    return Palette.of_look(HABA_LOOK)


def calibrated(faces: list[tuple[Color, np.ndarray]], base: Palette | None = None) -> Palette:
    """A palette from measured faces (colour, chroma): each colour's median chroma, and the
    spread they show (never tighter than a quarter of the default, so one frame does not
    make the palette brittle). Every colour must be among them."""
    base = base or Palette.default()
    groups: dict[Color, list[np.ndarray]] = {c: [] for c in base.colors}
    for color, chroma in faces:
        groups[color].append(np.asarray(chroma, np.float64))
    missing = [c.value for c, g in groups.items() if not g]
    if missing:
        raise ValueError(f"no die showing {', '.join(missing)}; lay the dice so that every "
                         "colour faces up")
    middle = {c: np.median(np.array(g), axis=0) for c, g in groups.items()}
    gaps = [abs(float(np.angle(np.exp(1j * (hue(x)[0] - hue(middle[c])[0])))))
            for c, g in groups.items() for x in g]
    spread = max(0.25 * SPREAD, min(SPREAD, 2.0 * float(np.median(gaps)) + 0.05))
    return Palette({c: (float(m[0]), float(m[1]), float(m[2])) for c, m in middle.items()},
                   spread)

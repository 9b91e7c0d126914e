"""The face-colour palette: one Lab centroid per HABA face colour, calibrated per table.

Centroids are measured after the reader's white balance (grey-world on the tray), in
OpenCV's float Lab (L 0..100, a and b about -128..127), so a palette taken under one lamp
keeps working when the light dims; a new lamp or a new set of dice needs ``kotd calibrate``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rules.dice import Color

DEFAULT_CENTROIDS: dict[Color, tuple[float, float, float]] = {
    Color.RED: (44.0, 62.0, 42.0),
    Color.GREEN: (55.0, -48.0, 42.0),
    Color.BLUE: (40.0, 12.0, -55.0),
}
"""Typical painted red, green and blue faces under white light (Lab)."""


@dataclass(frozen=True)
class Palette:
    """Lab centroids of the face colours."""

    centroids: dict[Color, tuple[float, float, float]]

    @classmethod
    def default(cls) -> Palette:
        return cls(dict(DEFAULT_CENTROIDS))

    def hue_angles(self) -> dict[Color, float]:
        """Hue angle (radians) of each centroid in the a-b plane."""
        return {c: float(np.arctan2(lab[2], lab[1])) for c, lab in self.centroids.items()}

    def classify(self, lab: tuple[float, float, float] | np.ndarray) -> tuple[Color, float]:
        """The nearest colour to ``lab`` and a margin 0..1 (0: halfway to the runner-up).

        Distance is in the a-b plane with lightness down-weighted, because shading on a
        face changes L far more than hue.
        """
        v = np.asarray(lab, dtype=np.float64)
        dist = []
        for c, cen in self.centroids.items():
            d = v - np.asarray(cen)
            dist.append((float(np.hypot(np.hypot(d[1], d[2]), 0.3 * d[0])), c))
        dist.sort(key=lambda t: t[0])
        (d1, c1), (d2, _) = dist[0], dist[1]
        margin = 1.0 - d1 / max(d2, 1e-6)
        return c1, margin

    def to_json(self) -> dict[str, object]:
        return {"version": 1,
                "centroids_lab": {c.value: [round(x, 2) for x in lab]
                                  for c, lab in self.centroids.items()}}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Palette:
        raw = data.get("centroids_lab")
        if not isinstance(raw, dict) or {k for k in raw} != {c.value for c in Color}:
            raise ValueError("palette needs centroids_lab for red, green and blue")
        cents = {}
        for name, lab in raw.items():
            if not (isinstance(lab, list) and len(lab) == 3):
                raise ValueError(f"palette colour {name!r} needs three Lab numbers")
            cents[Color(name)] = (float(lab[0]), float(lab[1]), float(lab[2]))
        return cls(cents)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Palette:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}: not a palette file ({err.msg})") from None
        try:
            return cls.from_json(data)
        except ValueError as err:
            raise ValueError(f"{path}: {err}") from None


PALETTE_FILE = "palette.json"
"""The palette's file name in the data directory (the directory is the config's to decide:
:func:`pi.config.default_data_dir`)."""

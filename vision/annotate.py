"""Draw what the reader saw: each die's outline, value and colour, for a human to check."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.reading import DieReading

_BGR = {"red": (0, 0, 255), "green": (0, 200, 0), "blue": (255, 80, 0), None: (0, 255, 255)}


def annotate(frame: np.ndarray, readings: Sequence[DieReading], labels: bool = True
             ) -> np.ndarray:
    """A copy of ``frame`` with outlines (a thin line when not confident) and, with
    ``labels``, ``value+colour letter confidence`` above each die (``kotd read --annotate``,
    for whoever tunes the reader); the page's camera view draws no labels: it numbers the
    dice in its own words over the picture."""
    out = frame.copy()
    for r in readings:
        key = r.color.value if r.color else None
        col = _BGR[key]
        pts = np.round(np.array(r.outline)).astype(np.int32)
        thick = max(2, round(r.size / 25)) if r.confident else 1
        cv2.polylines(out, [pts], True, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.polylines(out, [pts], True, col, thick, cv2.LINE_AA)
        if not labels:
            continue
        label = f"{r.value}{r.color.letter if r.color else ''} {r.confidence:.2f}"
        if not r.confident:
            label += "?"
        scale = max(0.4, r.size / 70)
        x = int(min(p[0] for p in r.outline))
        y = int(min(p[1] for p in r.outline)) - 4
        cv2.putText(out, label, (x, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0),
                    3, cv2.LINE_AA)
        cv2.putText(out, label, (x, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, scale, col, 1,
                    cv2.LINE_AA)
    return out

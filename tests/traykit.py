"""A rendered dice tray with a die beside it, for the tray tests (vision and command line)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from vision.tray import Tray

W, H = 1280, 960
"""The rendered frame's size."""


def tray_scene(seed: int, tilt: float) -> tuple[Any, list[Any], Any, Tray]:
    """A rendered tray seen with the camera tilted ``tilt`` degrees: five of the box's dice
    in it, the sixth beside it (so that, the tray not marked, the reader reads all six);
    (the frame, the truth of the dice inside, of the die beside, the tray)."""
    from vision.render import Conditions, DieSpec, render_tray, scene_for
    from vision.render.camera import Projector

    rng = np.random.default_rng(seed)
    scene = scene_for(rng, Conditions(table="tray"), distractors=0, hand=0.0)
    scene = replace(scene, camera=replace(scene.camera, distortion=0.0, tilt=tilt,
                                          height=max(scene.camera.height, 20.0)))
    proj = Projector(scene)
    frame_box = np.array([(0.28 * W, 0.22 * H), (0.85 * W, 0.22 * H),
                          (0.85 * W, 0.8 * H), (0.28 * W, 0.8 * H)])
    x0, y0 = proj.to_table(frame_box).min(axis=0)
    x1, y1 = proj.to_table(frame_box).max(axis=0)
    s = scene.die_size
    spots = [(x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy)
             for fy in (0.28, 0.72) for fx in (0.2, 0.5, 0.8)][:5]
    dice = [DieSpec(int(rng.integers(1, 7)), "AABBC"[i], x, y, float(rng.uniform(0, 90)))
            for i, (x, y) in enumerate(spots)]
    beside = DieSpec(int(rng.integers(1, 7)), "C", x0 - 1.6 * s, (y0 + y1) / 2,
                     float(rng.uniform(0, 90)))
    scene = replace(scene, dice=(*dice, beside),
                    table=replace(scene.table, tray=(float(x0), float(y0), float(x1),
                                                     float(y1))))
    frame, truth = render_tray(scene, rng)
    corners = Projector(scene).project(np.array([(x0, y0, 0), (x1, y0, 0), (x1, y1, 0),
                                                 (x0, y1, 0)]))
    tray = Tray.mark([tuple(c) for c in corners], W, H)
    return frame, truth[:5], truth[5], tray

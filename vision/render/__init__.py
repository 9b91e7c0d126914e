"""Render HABA dice trays with known truth: test data, training data and the simulated tray.

A :class:`TrayScene` (:mod:`vision.render.scene`) lists the dice, the table, the light, the
camera and the objects beside the dice; :func:`render_tray` (:mod:`vision.render.draw`)
turns it into a BGR frame and the truth for every die; :mod:`vision.render.generate` makes
random scenes in named families of conditions.
"""

from vision.render.draw import kelvin_bgr, render_tray
from vision.render.generate import (
    AXES,
    TRAINING_ONLY,
    Conditions,
    random_conditions,
    random_scene,
    relaid,
    render_motion,
    scene_for,
)
from vision.render.scene import (
    Camera,
    DieLook,
    DieSpec,
    Distractor,
    Light,
    Table,
    TrayScene,
    TruthDie,
)
from vision.render.textures import PIP_SPOTS

__all__ = ["AXES", "PIP_SPOTS", "TRAINING_ONLY", "Camera", "Conditions", "DieLook", "DieSpec",
           "Distractor", "Light", "Table", "TrayScene", "TruthDie", "kelvin_bgr",
           "random_conditions", "random_scene", "relaid", "render_motion", "render_tray",
           "scene_for"]

"""Calibration from the page: the eye measures a palette from the dice under the camera,
saves it into the data dir and reads with it; over the API only with the table's token."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from webkit import TOKEN, FakeEye, new_app, new_table

from pi.config import Config
from pi.serve import DiceReader
from rules.dice import Color
from rules.errors import KotdError


def test_the_reader_learns_the_colours_from_a_tray_of_dice(tmp_path: Path) -> None:
    from vision.render import random_scene, render_tray

    rng = np.random.default_rng(7)
    scene = random_scene(rng, level="clean")  # laid out as calibration asks: every colour up
    scene = replace(scene, dice=tuple(replace(d, value=1 + i // 3, pair="ABC"[i % 3])
                                      for i, d in enumerate(scene.dice)))
    frame, truth = render_tray(scene, rng)
    assert {t.color for t in truth} == set(Color)
    reader = DiceReader(Config(data_dir=tmp_path), None)
    reader.calibrate(frame)
    path = Config(data_dir=tmp_path).palette_path
    assert path.is_file() and reader.palette is not None
    assert len(reader(frame)) == 6  # it reads the same tray with the learned colours


def test_a_tray_without_dice_is_refused_in_one_line(tmp_path: Path) -> None:
    reader = DiceReader(Config(data_dir=tmp_path), None)
    with pytest.raises(KotdError, match="calibration failed"):
        reader.calibrate(np.zeros((480, 640, 3), np.uint8))
    assert not Config(data_dir=tmp_path).palette_path.exists() and reader.palette is None


class CalibratingEye(FakeEye):
    def __init__(self) -> None:
        super().__init__()
        self.calibrated = 0

    def calibrate(self) -> None:
        self.calibrated += 1


def test_calibrate_over_the_api(tmp_path: Path) -> None:
    eye = CalibratingEye()
    client = new_app(new_table(tmp_path), eye).test_client()
    assert client.post("/api/calibrate").status_code == 403 and eye.calibrated == 0
    assert client.post("/api/calibrate", headers={"X-Table-Token": TOKEN}).status_code == 200
    assert eye.calibrated == 1
    plain = new_app(new_table(tmp_path / "b"), FakeEye()).test_client()
    assert plain.post("/api/calibrate", headers={"X-Table-Token": TOKEN}).status_code == 404

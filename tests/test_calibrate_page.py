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


# ---- the tray, marked at calibration (vision/tray.py) -----------------------------------

CORNERS = [[0.1, 0.1], [0.9, 0.12], [0.88, 0.9], [0.12, 0.88]]


def _eye_over_the_sim(data_dir: Path):  # -> (eye, table)
    from pi.detector import RollDetector
    from pi.eye import Eye
    from pi.serve import make_reader
    from pi.simtray import SimulatedTray

    table = new_table(data_dir)
    reader = make_reader(Config(data_dir=data_dir))
    eye = Eye(SimulatedTray(seed=5), RollDetector(reader), table)
    eye.tray_keeper = reader
    return eye, table


def test_the_tray_is_kept_in_the_data_dir_survives_a_restart_and_can_be_cleared(
        tmp_path: Path) -> None:
    from pi.config import tray_in
    from pi.serve import make_reader

    eye, table = _eye_over_the_sim(tmp_path)
    with pytest.raises(KotdError, match="no camera picture yet"):
        eye.mark_tray(CORNERS)
    eye.step()
    eye.mark_tray(CORNERS)
    assert tray_in(tmp_path).is_file()
    assert table.snapshot.eye.tray == ((0.1, 0.1), (0.9, 0.12), (0.88, 0.9), (0.12, 0.88))
    again = make_reader(Config(data_dir=tmp_path))  # the assistant started again
    assert again.tray is not None and again.tray.corners[1] == pytest.approx((864, 86.4))
    for bad, code in ((CORNERS[:3], "tray.corners"),
                      ([CORNERS[0], CORNERS[1], CORNERS[3], CORNERS[2]], "tray.crossing"),
                      ([*CORNERS[:3], [1.4, 0.5]], "tray.outside"),
                      ([[0, "a"], *CORNERS[1:]], "usage.tray_body")):
        with pytest.raises(KotdError) as caught:
            eye.mark_tray(bad)
        assert caught.value.code == code
    assert make_reader(Config(data_dir=tmp_path)).tray == again.tray  # a refusal loses nothing
    eye.clear_tray()
    assert not tray_in(tmp_path).exists() and table.snapshot.eye.tray == ()
    assert make_reader(Config(data_dir=tmp_path)).tray is None


def test_a_damaged_tray_file_reads_the_whole_picture(tmp_path: Path) -> None:
    from pi.config import tray_in
    from pi.serve import make_reader

    tray_in(tmp_path).write_text("{not json")
    assert make_reader(Config(data_dir=tmp_path)).tray is None


def test_the_tray_over_the_api_in_english_and_german(tmp_path: Path) -> None:
    eye, table = _eye_over_the_sim(tmp_path)
    eye.step()
    from web import create_app

    client = create_app(table, eye, TOKEN).test_client()
    token = {"X-Table-Token": TOKEN}
    assert client.post("/api/tray", json={"corners": CORNERS}).status_code == 403
    marked = client.post("/api/tray", json={"corners": CORNERS}, headers=token)
    assert marked.status_code == 200
    # a nearly rectangular tray: the camera looks about straight down at it
    assert marked.get_json()["tilt"] < 10 and marked.get_json()["too_tilted"] is False
    leaning = client.post("/api/tray", json={"corners": [[0.3, 0.1], [0.7, 0.1], [0.95, 0.9],
                                                       [0.05, 0.9]]}, headers=token)
    assert leaning.get_json()["tilt"] > 40 and leaning.get_json()["too_tilted"] is True
    assert client.post("/api/tray", json={"corners": CORNERS}, headers=token).status_code == 200
    assert client.get("/api/state").get_json()["eye"]["tray"] == CORNERS
    bad = client.post("/api/tray?lang=de", json={"corners": CORNERS[:3]}, headers=token)
    assert bad.status_code == 400 and bad.get_json()["code"] == "tray.corners"
    assert "vier Ecken, nicht 3" in bad.get_json()["error"]
    crossing = client.post("/api/tray", json={"corners": [CORNERS[0], CORNERS[2],
                                                           CORNERS[1], CORNERS[3]]},
                           headers=token)
    assert crossing.status_code == 400 and "cross" in crossing.get_json()["error"]
    assert client.post("/api/tray", json={"corners": "x"}, headers=token).status_code == 400
    assert client.post("/api/tray", data="x", headers=token).status_code == 400
    assert client.get("/api/state").get_json()["eye"]["tray"] == CORNERS  # nothing lost
    found = client.post("/api/tray/suggest", headers=token)
    assert found.status_code in (200, 400)  # the simulated tray is a plain table: maybe none
    assert client.delete("/api/tray", headers=token).status_code == 200
    assert client.get("/api/state").get_json()["eye"]["tray"] == []

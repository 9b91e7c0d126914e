"""``kotd calibrate --tray/--find-tray/--clear-tray`` and ``kotd read --tray``: the tray
from the command line, kept in the data dir; bad corners are one line, exit status 2."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import pytest
from traykit import tray_scene  # the rendered tray with a die beside it

from pi.cli import main
from vision.tray import Tray


@pytest.fixture(scope="module")
def beside(tmp_path_factory: pytest.TempPathFactory):  # -> (image, die beside, tray)
    frame, _, die, tray = tray_scene(2, 28.0)  # the camera tilted 28 degrees
    path = tmp_path_factory.mktemp("img") / "frame.png"
    cv2.imwrite(str(path), frame)
    return path, die, tray


def _corners(tray: Tray) -> str:
    return ",".join(f"{x:.1f},{y:.1f}" for x, y in tray.corners)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KOTD_DATA_DIR", str(tmp_path))  # the config's rule hands it down
    return tmp_path


def test_the_tray_is_marked_kept_and_forgotten(beside, tmp_path: Path, capsys) -> None:
    image, _, tray = beside
    data: list[str] = []
    assert main(["calibrate", str(image), "--tray", _corners(tray), *data]) == 0
    kept = Tray.load(tmp_path / "tray.json")
    assert all(math.dist(a, b) < 0.2 for a, b in zip(kept.corners, tray.corners, strict=True))
    assert "tray written to" in capsys.readouterr().out
    assert main(["calibrate", "--clear-tray", *data]) == 0
    assert not (tmp_path / "tray.json").exists()


@pytest.mark.parametrize(("corners", "words"), [
    ("100,100,500,120,520,400", "four corners, not 3"),
    ("100,100,500,120,90,380,520,400", "cross"),
    ("100,100,500,120,520,400,9000,380", "outside the picture"),
    ("a,b", "x1,y1,x2,y2"),
])
def test_bad_corners_are_one_line(beside, tmp_path: Path, capsys, corners: str,
                                  words: str) -> None:
    image, _, _ = beside
    status = main(["calibrate", str(image), "--tray", corners])
    err = capsys.readouterr().err.strip()
    assert status == 2 and words in err and "\n" not in err
    assert not (tmp_path / "tray.json").exists()


def test_the_tray_found_is_offered_to_confirm(tmp_path: Path, capsys) -> None:
    import numpy as np

    from vision.render import Conditions, render_tray, scene_for

    rng = np.random.default_rng(21)
    frame, _ = render_tray(scene_for(rng, Conditions(table="tray"), distractors=0,
                                     hand=0.0), rng)
    image = tmp_path / "tray.png"
    cv2.imwrite(str(image), frame)
    data: list[str] = []
    assert main(["calibrate", str(image), "--find-tray", *data]) == 0
    out = capsys.readouterr().out
    assert "--tray" in out and not (tmp_path / "tray.json").exists()  # only offered
    command = out.strip().splitlines()[-1].split()
    assert main([*command[1:], *data]) == 0  # confirmed as printed
    assert Tray.load(tmp_path / "tray.json").width == frame.shape[1]
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    assert main(["calibrate", str(blank), "--find-tray", *data]) == 2
    assert "no tray found" in capsys.readouterr().err


def test_read_with_the_tray_leaves_the_die_beside_it_out(beside, capsys) -> None:
    image, die, tray = beside
    assert main(["read", "--json", str(image)]) == 0
    plain = json.loads(capsys.readouterr().out)["dice"]
    assert main(["read", "--json", "--tray", _corners(tray), str(image)]) == 0
    inside = json.loads(capsys.readouterr().out)["dice"]
    assert any(math.dist(d["center"], die.center) < die.size / 2 for d in plain)
    assert not any(math.dist(d["center"], die.center) < die.size for d in inside)
    assert main(["read", "--json", "--thrown", "5", "--tray", _corners(tray), str(image)]) == 0
    told = json.loads(capsys.readouterr().out)
    assert len(told["dice"]) == 5 and told["not_seen"] == 0  # it took no die's place
    assert not any(math.dist(d["center"], die.center) < die.size for d in told["dice"])

"""``kotd read`` / ``kotd calibrate`` and the palette file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from pi.cli import main
from rules.dice import Color
from vision.calibrate import calibrate
from vision.facecolor import chroma_of
from vision.palette import Palette
from vision.reader import read_dice
from vision.render import Camera, random_scene, render_tray


@pytest.fixture(scope="module")
def tray(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    rng = np.random.default_rng(77)
    frame, truth = render_tray(random_scene(rng, level="clean"), rng)
    path = tmp_path_factory.mktemp("img") / "tray.png"
    cv2.imwrite(str(path), frame)
    return path, truth


def test_read_json_one_line_per_image(tray, capsys, tmp_path) -> None:
    path, truth = tray
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    status = main(["read", "--json", "--palette", str(_palette(tmp_path)), str(path),
                   str(tmp_path / "missing.jpg"), str(bad), str(path)])
    out, err = capsys.readouterr()
    assert status == 2
    lines = out.strip().splitlines()
    assert len(lines) == 2
    obj = json.loads(lines[0])
    assert obj["image"] == str(path)
    got = sorted((d["value"], d["color"]) for d in obj["dice"])
    assert got == sorted((t.value, t.color.value) for t in truth)
    assert set(obj["dice"][0]) >= {"value", "color", "center", "outline", "confidence"}
    errs = err.strip().splitlines()
    assert len(errs) == 2 and all(e.startswith("kotd: error: ") for e in errs)
    assert "missing.jpg" in errs[0] and "bad.png" in errs[1]


def _palette(tmp_path: Path) -> Path:
    p = tmp_path / "palette.json"
    Palette.default().save(p)
    return p


def test_read_table_standard_and_annotate(tray, capsys, tmp_path) -> None:
    path, truth = tray
    status = main(["read", str(path), "--annotate", str(tmp_path / "ann")])
    out, _ = capsys.readouterr()
    assert status == 0
    assert f"{len(truth)} dice" in out
    written = cv2.imread(str(tmp_path / "ann" / "tray.annotated.png"))
    original = cv2.imread(str(path))
    assert written is not None and written.shape == original.shape
    assert (np.abs(written.astype(int) - original).sum(axis=2) > 60).sum() > 500
    main(["read", "--json", "--dice", "standard", str(path)])
    obj = json.loads(capsys.readouterr()[0])
    assert obj["dice"] and all(d["color"] is None for d in obj["dice"])


def test_calibration_under_a_colour_cast(tmp_path, capsys, monkeypatch) -> None:
    """Odd paint under a strong cast: calibration measures that paint, and reads with it."""
    rng = np.random.default_rng(5)
    scene = random_scene(rng, level="clean", touching=0.0)  # every colour up, as asked
    scene = replace(scene, dice=tuple(replace(d, value=1 + i // 3, pair="ABC"[i % 3])
                                      for i, d in enumerate(scene.dice)))
    odd = {Color.RED: (40.0, 70.0, 215.0), Color.GREEN: (110.0, 160.0, 40.0),
           Color.BLUE: (150.0, 70.0, 60.0)}
    cast = Camera(cast=(1.15, 0.95, 0.85), noise=2.0, height=40.0)
    scene = replace(scene, look=replace(scene.look, paint=odd), camera=cast)
    frame, truth = render_tray(scene, np.random.default_rng(1))
    palette = calibrate(frame)
    assert set(palette.colors) == set(Color)
    default = Palette.default()
    for color, paint in odd.items():  # the measured chroma is nearer the real paint's
        real = chroma_of(paint, scene.look.pip_bgr)
        assert np.linalg.norm(np.array(palette.chroma[color]) - real) < \
            np.linalg.norm(np.array(default.chroma[color]) - real)
    want = sorted((t.value, t.color) for t in truth)
    assert sorted((r.value, r.color) for r in read_dice(frame, palette=palette)) == want
    # a second frame of the same dice and light, other values
    scene2 = random_scene(np.random.default_rng(6), level="clean", touching=0.0)
    scene2 = replace(scene2, look=replace(scene2.look, paint=odd), camera=cast)
    frame2, truth2 = render_tray(scene2, np.random.default_rng(2))
    got = sorted((r.value, r.color) for r in read_dice(frame2, palette=palette))
    assert got == sorted((t.value, t.color) for t in truth2)
    # through the CLI, into $KOTD_DATA_DIR
    img = tmp_path / "cal.png"
    cv2.imwrite(str(img), frame)
    monkeypatch.setenv("KOTD_DATA_DIR", str(tmp_path / "data"))
    assert main(["calibrate", str(img)]) == 0
    assert Palette.load(tmp_path / "data" / "palette.json") is not None
    assert main(["calibrate", str(tmp_path / "nope.png")]) == 2
    assert "kotd: error:" in capsys.readouterr()[1]


def test_read_told_how_many_were_thrown(capsys, tmp_path, monkeypatch) -> None:
    """``--thrown`` and ``--at-most`` reach the reader as the count told and the most dice
    in view; by default the reader is told at most the box's six dice. A count that is not
    one is refused with a clear message, and so is a count for ordinary dice (their reader
    reads every die in view: a count would be ignored)."""
    import vision.reader

    asked: list[tuple[int | None, int | None]] = []

    def reader(frame, kind="haba", palette=None, thrown=None, at_most=None, **_):
        asked.append((thrown, at_most))
        return []

    monkeypatch.setattr(vision.reader, "read_dice", reader)
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 90, np.uint8))
    for extra in (["--at-most", "30"], ["--thrown", "6"], []):
        assert main(["read", "--json", *extra, str(path)]) == 0
        out = json.loads(capsys.readouterr()[0])
        assert out["dice"] == [] and out.get("not_seen") == (6 if "--thrown" in extra else None)
    assert main(["read", "--thrown", "6", str(path)]) == 0  # told six, none seen: it says so
    assert "0 dice; 6 of the 6 thrown not seen: covered, or outside the picture?" in \
        capsys.readouterr()[0]
    assert main(["read", str(path)]) == 0  # not told: nothing is missing
    assert "not seen" not in capsys.readouterr()[0]
    assert asked == [(None, 30), (6, None), (None, 6), (6, None), (None, 6)]
    for flag in ("--thrown", "--at-most"):
        for bad in ("six", "0"):
            with pytest.raises(SystemExit) as stop:
                main(["read", flag, bad, str(path)])
            assert stop.value.code == 2
            assert "is not a number of dice (1 to 30)" in capsys.readouterr()[1]
    with pytest.raises(SystemExit):  # one or the other
        main(["read", "--thrown", "6", "--at-most", "6", str(path)])
    assert "not allowed with" in capsys.readouterr()[1]
    for flag in ("--thrown", "--at-most"):  # ordinary dice are read as many as lie there
        assert main(["read", "--dice", "standard", flag, "6", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and f"kotd: error: {flag} is for HABA dice" in err


def test_read_says_why_a_die_is_to_check(capsys, tmp_path, monkeypatch) -> None:
    """A die the reader doubts is marked in the table with the reason, in words; the JSON
    carries the reason's code."""
    import vision.reader
    from rules.dice import Color
    from vision.reading import DieReading

    dice = [DieReading(3, Color.RED, (10.0, 10.0), (), 0.9, 20.0, 0.7),
            DieReading(5, Color.BLUE, (60.0, 10.0), (), 0.3, 20.0, 0.7, "side"),
            DieReading(2, Color.GREEN, (110.0, 10.0), (), 0.3, 20.0, 0.7)]
    monkeypatch.setattr(vision.reader, "read_dice", lambda *a, **k: dice)
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 90, np.uint8))
    assert main(["read", str(path)]) == 0
    lines = capsys.readouterr()[0].splitlines()
    assert lines[2].endswith("0.90") and lines[3].endswith("(check: maybe a leaning die's side)")
    assert lines[4].endswith("(check: unsure)")
    assert main(["read", "--json", str(path)]) == 0
    got = json.loads(capsys.readouterr()[0])["dice"]
    assert [d["why"] for d in got] == [None, "side", None]


def test_the_camera_view_draws_outlines_without_the_tuners_labels() -> None:
    """The page's picture outlines each die (the page numbers them in words); the labels with
    value, colour letter and confidence are for ``kotd read --annotate`` only."""
    import numpy as np

    from rules.dice import Color
    from vision.annotate import annotate
    from vision.reading import DieReading

    frame = np.full((200, 300, 3), 255, np.uint8)
    die = DieReading(5, Color.BLUE, (150.0, 120.0),
                     ((120.0, 90.0), (180.0, 90.0), (180.0, 150.0), (120.0, 150.0)), 0.99, 60.0,
                     sure_at=0.7)
    plain = annotate(frame, [die], labels=False)
    labelled = annotate(frame, [die])
    above = (slice(0, 86), slice(110, 300))  # where the label is written, above the outline
    assert (plain[above] == 255).all()
    assert (labelled[above] != 255).any()
    assert (plain[90:151, 118:123] != 255).any()  # the outline is drawn either way

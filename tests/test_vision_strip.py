"""The set-aside strip: which dice the camera counts as set aside, on real photos.

The byler-dev photos are real trays of ordinary dice with every die's box labelled. Laying
a strip over each photo (its bottom third, say), the labels say which dice lie in it; the
reader's dice must fall on the same side of the line as the labelled die they were read
from, and a die on the line must be called doubtful rather than guessed.
"""

from __future__ import annotations

import json

import cv2
import pytest

from tests.conftest import SHARED
from vision.reader import read_dice
from vision.reading import DieReading
from vision.strip import AsideStrip, StripError

BYLER = SHARED / "data" / "byler-dev"


def _iou(a, b) -> float:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x1 - x0) * max(0.0, y1 - y0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def _reading(value: int, x: float, y: float, size: float = 40) -> DieReading:
    h = size / 2
    return DieReading(value, None, (x, y), ((x - h, y - h), (x + h, y - h), (x + h, y + h),
                                             (x - h, y + h)), 0.9, size)


@pytest.fixture(scope="module")
def byler_reads():
    """Every fourth byler-dev photo (39): its labels and what the reader found (read once)."""
    if not BYLER.is_dir():
        pytest.skip("needs ../shared/data/byler-dev")
    out = []
    for label_file in sorted(BYLER.glob("*.json"))[::4]:
        labels = json.loads(label_file.read_text())
        frame = cv2.imread(str(BYLER / labels["image"]))
        out.append((labels, frame.shape[1], frame.shape[0], read_dice(frame, "standard")))
    return out


@pytest.mark.parametrize("strip", ["bottom:0.4", "left:0.45", "top:0.4", "right:0.45"])
def test_real_photos_split_like_their_labels(byler_reads, strip):
    s = AsideStrip.parse(strip)
    matched = aside_dice = doubtful_dice = 0
    for labels, w, h, readings in byler_reads:
        split = s.split(readings, w, h)
        aside_ids = {id(r) for r in split.aside}
        doubtful = {id(r) for r in split.doubtful}
        for r in split.active + split.aside:
            xs = [p[0] for p in r.outline]
            ys = [p[1] for p in r.outline]
            box = (min(xs), min(ys), max(xs), max(ys))
            best = max(labels["dice"], key=lambda d: _iou(box, d["box"]))
            if _iou(box, best["box"]) < 0.5:
                continue  # not a labelled die (the reader's rare false find)
            bx0, by0, bx1, by1 = best["box"]
            truth = s.holds(((bx0 + bx1) / 2, (by0 + by1) / 2), w, h)
            if id(r) in doubtful:
                doubtful_dice += 1
            else:
                assert (id(r) in aside_ids) == truth, (labels["image"], r.center)
            matched += 1
            aside_dice += truth
    assert matched > 250 and 40 < aside_dice < matched - 40  # 277 matched, 55-114 aside
    assert doubtful_dice < matched / 5


def test_dice_on_the_line_are_doubtful():
    s = AsideStrip("bottom", 0.25)  # the line is at y = 300 in a 400-high frame
    readings = [_reading(3, 100, 100), _reading(4, 100, 290), _reading(5, 100, 315),
                _reading(6, 100, 380)]
    split = s.split(readings, 400, 400)
    assert [r.value for r in split.active] == [3, 4]
    assert [r.value for r in split.aside] == [5, 6]
    assert [r.value for r in split.doubtful] == [4, 5]


def test_strip_settings():
    assert str(AsideStrip.parse("Left:0.3")) == "left:0.3"
    assert AsideStrip.parse("top").fraction == 0.25
    assert AsideStrip("right", 0.2).line(100, 50) == ((80, 0), (80, 49))
    for bad, why in (("middle:0.2", "side is one of"), ("bottom:0.9", "0.05-0.5"),
                     ("bottom:x", "SIDE:FRACTION")):
        with pytest.raises(StripError, match=why):
            AsideStrip.parse(bad)

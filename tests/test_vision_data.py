"""The reader on real photos: byler-dev (ordinary dice) and tomitomi crops (values)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import pytest

from tests.conftest import SHARED

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
BYLER = SHARED / "data" / "byler-dev"
TOMI = SHARED / "data" / "tomitomi-crops"


@pytest.mark.skipif(not BYLER.is_dir(), reason="shared byler-dev data not present")
def test_byler_test_split_floor() -> None:
    from bench_vision import match_byler

    from vision.reader import read_dice

    n = right = rep = matched = 0
    for js in sorted(BYLER.glob("*.json")):
        meta = json.loads(js.read_text())
        if meta["author_split"] != "test":
            continue
        frame = cv2.imread(str(js.with_name(meta["image"])))
        a, b, c, d = match_byler(read_dice(frame, "standard"), meta["dice"])
        n, right, rep, matched = n + a, right + b, rep + c, matched + d
    # Floors a little under the measured figures in BENCHMARKS.md (below the 95% target).
    assert right / n >= 0.62, right / n
    assert matched / max(rep, 1) >= 0.95, matched / rep


@pytest.mark.skipif(not TOMI.is_dir(), reason="shared tomitomi crops not present")
def test_tomitomi_crops_values() -> None:
    from vision.reader import read_dice

    n = right = 0
    for v in range(1, 7):
        for p in sorted((TOMI / str(v)).glob("*.png"))[1::10]:  # odd: not trained on
            readings = read_dice(cv2.imread(str(p)), "standard")
            n += 1
            right += bool(readings) and max(readings, key=lambda r: r.size).value == v
    assert right / n >= 0.75, right / n

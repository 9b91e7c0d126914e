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
def test_byler_dev_values_and_precision() -> None:
    from bench_vision import match_byler

    from vision.reader import read_dice

    counts = {"train": [0, 0, 0, 0], "test": [0, 0, 0, 0]}
    for js in sorted(BYLER.glob("*.json")):
        meta = json.loads(js.read_text())
        frame = cv2.imread(str(js.with_name(meta["image"])))
        found = match_byler(read_dice(frame, "standard"), meta["dice"])
        counts[meta["author_split"]] = [a + b for a, b in
                                        zip(counts[meta["author_split"]], found, strict=True)]
    n, right, rep, matched = (a + b for a, b in zip(*counts.values(), strict=True))
    # the targets on all of byler-dev: 95% of dice right, 95% precision
    assert right / n >= 0.95 and matched / rep >= 0.95, (right / n, matched / rep)
    # the held-out split (never trained on): a little under its measured 93.5% / 100%
    n, right, rep, matched = counts["test"]
    assert right / n >= 0.92 and matched / rep >= 0.98, (right / n, matched / rep)


@pytest.mark.skipif(not TOMI.is_dir(), reason="shared tomitomi crops not present")
def test_tomitomi_crops_values() -> None:
    from vision.reader import read_dice

    n = right = 0
    for v in range(1, 7):
        for p in sorted((TOMI / str(v)).glob("*.png"))[1::10]:  # odd: not trained on
            readings = read_dice(cv2.imread(str(p)), "standard")
            n += 1
            right += bool(readings) and max(readings, key=lambda r: r.size).value == v
    assert right / n >= 0.93, right / n  # measured 97.7% on all the odd crops

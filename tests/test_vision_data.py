"""The reader on real photos: byler-dev (ordinary dice) and tomitomi crops (values)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import pytest

from tests.conftest import SHARED

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / d) for d in ("benchmarks", "tools")]
BYLER = SHARED / "data" / "byler-dev"
TOMI = SHARED / "data" / "tomitomi-crops"
# measured on the judge part (the authors' held-out split), as labelled: value 92.6%,
# readings on no die 0%, photos fully right 69.4%, silently wrong 2.8% (1 photo; with
# the labels a person reads otherwise, 0), right dice flagged 22.6% (2026-11-28, the reader
# taught the photos' train parts, its decision fitted on the tune parts; before: 95.3%, 0,
# 75.0%, 11.1%, 4.9%: docs/log/2026-11-28-issue-45.md)
VALUE, FALSE, PHOTOS_RIGHT, SILENT, FLAGGED = 0.92, 0.01, 0.65, 0.03, 0.25


@pytest.mark.skipif(not BYLER.is_dir(), reason="shared byler-dev data not present")
def test_byler_dev_held_out_photos() -> None:
    """The judge part (never trained or tuned on), as benchmarks/bench_ordinary.py measures
    it: floors a little under the figures measured (above)."""
    from bench_ordinary import sheet, summary
    from dice_data import load_part

    s = summary([sheet(p) for p in load_part("byler-dev", "judge")])
    assert s["value"] >= VALUE and s["false"] <= FALSE, s
    assert s["photos_right"] >= PHOTOS_RIGHT and s["silent"] <= SILENT, s
    assert s["flagged"] <= FLAGGED, s


@pytest.mark.skipif(not TOMI.is_dir(), reason="shared tomitomi crops not present")
def test_tomitomi_crops_values() -> None:
    from vision.reader import read_dice

    n = right = 0
    for v in range(1, 7):
        for p in sorted((TOMI / str(v)).glob("*.png"))[1::20]:  # odd: not trained on
            readings = read_dice(cv2.imread(str(p)), "standard")
            n += 1
            right += bool(readings) and max(readings, key=lambda r: r.size).value == v
    # measured 97.7% on all the odd crops, 100% on these 60 (2026-11-29); the judge part's
    # crops are benchmarks/bench_ordinary.py's (make bench)
    assert n >= 60 and right / n >= 0.93, (n, right / n)

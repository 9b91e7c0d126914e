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
# readings on no die 0.46%, photos fully right 66.7%, silently wrong 5.6% (2 photos, each a
# label a person reads otherwise, dice_data.ERRATA, read as the die shows it; with those
# labels corrected, 0), right dice flagged 17.6% (2026-11-29, unsure dice turned in quarter
# turns 1 and 3; all four turns before: 93.5%, 0.46%, 72.2%, 2.8% (1; 0), 23.9%:
# docs/log/2026-11-29-issue-45.md)
VALUE, FALSE, PHOTOS_RIGHT, SILENT, FLAGGED = 0.92, 0.01, 0.65, 0.03, 0.25


@pytest.mark.skipif(not BYLER.is_dir(), reason="shared byler-dev data not present")
def test_byler_dev_held_out_photos() -> None:
    """The judge part (never trained or tuned on), as benchmarks/bench_ordinary.py measures
    it: floors a little under the figures measured (above); silently wrong photos counted
    with the labels of :data:`dice_data.ERRATA` corrected."""
    from bench_ordinary import as_read, sheet, summary
    from dice_data import load_part

    sheets = [sheet(p) for p in load_part("byler-dev", "judge")]
    s = summary(sheets)
    assert s["value"] >= VALUE and s["false"] <= FALSE, s
    assert s["photos_right"] >= PHOTOS_RIGHT and s["flagged"] <= FLAGGED, s
    # silently wrong as the photos show (a label error read right is not silence)
    shown = summary(as_read(sheets))
    assert shown["silent"] <= SILENT, shown


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

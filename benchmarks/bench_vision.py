"""HABA dice reader figures: the frozen stress set, per family of conditions, and speed.

Run: .venv/bin/python benchmarks/bench_vision.py [--frames 1100] [--workers 2]
Single-threaded OpenCV. This is ``benchmarks/bench_haba.py --set stress`` (the frames,
their held-out families and the tables are described there). Ordinary dice (real
byler-dev photos, tomitomi crops, rendered trays, their speed) are measured by
``benchmarks/bench_ordinary.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_haba

if __name__ == "__main__":
    sys.argv[1:1] = ["--set", "stress"]
    bench_haba.main()

"""How long the advisor takes for a full face-up row of five cards with 2 rolls left.

Run: ``.venv/bin/python benchmarks/bench_advisor.py``. Prints, for the example row of the
issue and for random rows and rolls (seeded):

* cold: every memoised table forgotten first (``advisor.clear_cache()``), so the whole
  dynamic programme runs (the box is already loaded and NumPy imported);
* warm: the same advice again (tables memoised), as the page sees it within a game.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Sequence

from rules.dice import HABA_LAYOUTS, Die, Roll
from rules.kotd import advisor
from rules.kotd.cards import Box, Card, load_box


def timed(row: Sequence[Card], roll: Roll, rolls_left: int, box: Box, cold: bool) -> float:
    if cold:
        advisor.clear_cache()
    start = time.perf_counter()
    advisor.advise(row, roll, rolls_left, box=box)
    return time.perf_counter() - start


def main() -> None:
    box = load_box()
    example = [box.citizen(i) for i in
               ("dwarf-3x1", "orc-3", "elf-4", "gnome-3green", "fairy-2r2g")]
    roll = Roll.parse("4r 4g 4b 1r 2g 6b")
    timed(example, roll, 2, box, cold=True)  # first call: imports, allocator warm-up
    cold = [timed(example, roll, 2, box, cold=True) for _ in range(7)]
    warm = [timed(example, roll, 2, box, cold=False) for _ in range(7)]
    print(f"example row, 2 rolls left: cold {statistics.median(cold) * 1e3:.1f} ms "
          f"(max {max(cold) * 1e3:.1f}), warm {statistics.median(warm) * 1e3:.2f} ms")

    rng = random.Random(1)
    pairs = ["A", "A", "B", "B", "C", "C"]
    cold_random = []
    for _ in range(20):
        row = rng.sample(box.citizens, 5)
        dice = tuple(Die(v, HABA_LAYOUTS[p][v]) for p in pairs for v in [rng.randint(1, 6)])
        # best of 3 per case: the machine's 2 cores are shared, so single runs get preempted
        cold_random.append(min(timed(row, Roll(dice), 2, box, cold=True) for _ in range(3)))
    print(f"20 random rows and HABA rolls, 2 rolls left, cold (best of 3 each): median "
          f"{statistics.median(cold_random) * 1e3:.1f} ms, max {max(cold_random) * 1e3:.1f} ms")
    cold3 = [timed(example, roll, 3, box, cold=True) for _ in range(5)]
    print(f"example row, 3 rolls left (elf), cold: {statistics.median(cold3) * 1e3:.1f} ms")
    unread = Roll.parse("4 4 4 1 2 6")
    slow = min(timed(example, unread, 2, box, cold=True) for _ in range(3))
    print(f"example row, six dice without colour, 2 rolls left, cold: {slow * 1e3:.0f} ms")
    print(f"load average while measuring: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

"""How long the rules engine takes to judge a whole face-up row for one roll.

Run: ``.venv/bin/python benchmarks/bench_check.py`` (or ``make bench``). Prints the time per
roll for a row of five cards, through the same function ``kotd check`` uses.
"""

from __future__ import annotations

import random
import time

from rules.dice import Color, Die, Roll
from rules.kotd.cards import load_box
from rules.kotd.check import check_roll


def main() -> None:
    box = load_box()
    rng = random.Random(1)
    rows = [rng.sample(box.citizens, 5) for _ in range(50)]
    rolls = [
        Roll(tuple(Die(rng.randint(1, 6), rng.choice(list(Color))) for _ in range(6)))
        for _ in range(400)
    ]
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for row in rows:
            for roll in rolls:
                check_roll(roll, row)
        best = min(best, (time.perf_counter() - start) / (len(rows) * len(rolls)))
    print(f"kotd check, row of 5 cards: {best * 1e6:.1f} µs per roll "
          f"(best of 5 runs x {len(rows) * len(rolls)} rolls)")
    start = time.perf_counter()
    for roll in rolls:
        check_roll(roll, list(box.citizens))
    per = (time.perf_counter() - start) / len(rolls)
    print(f"kotd check, whole deck of {len(box.citizens)} citizens: {per * 1e6:.1f} µs per roll")


if __name__ == "__main__":
    main()

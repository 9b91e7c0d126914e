"""How long the board game's check of one face-up row takes: met, stars, and the fewest
jokers for every card the roll does not meet (:func:`rules.board.check.check_row`).

Run: ``.venv/bin/python benchmarks/bench_board.py [--rows 2000]``. Each position is a
roll of the box's six HABA dice, a row of five random cards (one per deck: the merchant
a ladder of three stars, the others one kind each, one card in ten a combination of two kinds)
and a random hand (``--concrete`` concrete jokers at most, ``--supers`` super jokers at
most). Prints p50, p99 and the slowest row in milliseconds (wall clock, and CPU time: on
a shared machine the wall clock also counts time other jobs took), for single kinds and
for rows with combinations, warm (one process, rows one after the other, as the table checks after
each throw) and the first row cold. Target: p99 ≤ 50 ms per row.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from rules.board import conditions as c
from rules.board.check import Hand, check_row
from rules.dice import HABA_LAYOUTS, Die

BOX = ("A", "A", "B", "B", "C", "C")


def random_kind(rng: random.Random) -> c.Condition:
    colour = rng.choice(c.COLOURS)
    kinds: list[Callable[[], c.Condition]] = [
        lambda: c.Colours(tuple((col, rng.randint(1, 3)) for col in
                                rng.sample(c.COLOURS, rng.randint(1, 2)))),
        lambda: c.Pips(tuple(Die(rng.randint(1, 6), rng.choice((None, *c.COLOURS)))
                             for _ in range(rng.randint(1, 4)))),
        lambda: c.Groups(tuple(rng.choice(((2,), (3,), (4,), (2, 2), (3, 2), (2, 2, 2))))),
        lambda: c.SumAtLeast(rng.randint(18, 30)),
        lambda: c.ColourSumAtLeast(((colour, rng.randint(6, 14)),)),
        lambda: c.ColourSumsDescending(tuple(rng.sample(c.COLOURS, 3))),
        lambda: c.Straight(rng.randint(3, 6)),
    ]
    return rng.choice(kinds)()


def merchant(rng: random.Random) -> c.Condition:
    """A merchant's ladder: each star asks for the dice of the one before and more (the
    card's row of dice up to each star)."""
    col = rng.choice("rgb")
    n = rng.randint(2, 4)
    pips = [f"{rng.randint(1, 6)}{rng.choice(['', 'r', 'g', 'b'])}" for _ in range(n + 2)]
    total = rng.randint(15, 22)
    return c.parse(rng.choice([
        "straight 4 | straight 5 | straight 6",
        f"colours {n}{col} | colours {n + 1}{col} | colours {n + 2}{col}",
        " | ".join("pips " + " ".join(pips[:i]) for i in (n, n + 1, n + 2)),
        f"groups {n} | groups {n + 1} | groups {n + 2}",
        f"sum {total} | sum {total + 5} | sum {total + 10}",
    ]))


def random_card(deck: int, rng: random.Random, combos: bool) -> c.Condition:
    if deck == 1:
        return merchant(rng)
    if combos and rng.random() < 0.1:
        while True:
            try:
                return c.AllOf((random_kind(rng), random_kind(rng)))
            except c.ConditionError:  # pragma: no cover - retry an impossible mix
                continue
    return random_kind(rng)


def position(rng: random.Random, concrete: int, supers: int,
             combos: bool) -> tuple[dict[str, c.Condition], tuple[Die, ...], Hand]:
    dice = tuple(Die(v, HABA_LAYOUTS[p][v]) for p in BOX for v in [rng.randint(1, 6)])
    row = {str(d): random_card(d, rng, combos) for d in range(1, 6)}
    jokers = [Die(rng.randint(1, 6), rng.choice(c.COLOURS))
              for _ in range(rng.randint(0, concrete))]
    if jokers and rng.random() < 0.5:  # pairs are what players collect
        jokers += jokers[: rng.randint(1, len(jokers))]
    hand = Hand(tuple((f"card {i}", d) for i, d in enumerate(jokers[:concrete])),
                rng.randint(0, supers))
    return row, dice, hand


def run(rows: int, concrete: int, supers: int, combos: bool,
        seed: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each row's check."""
    rng = random.Random(seed)
    wall, cpu = [], []
    for _ in range(rows):
        row, dice, hand = position(rng, concrete, supers, combos)
        start, start_cpu = time.perf_counter(), time.process_time()
        check_row(row, dice, hand)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return wall, cpu


def report(name: str, times: tuple[list[float], list[float]]) -> None:
    for clock, ms in zip(("wall", "cpu"), times, strict=True):
        ordered = sorted(ms)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        print(f"{name:<30} {clock:<4} rows {len(ms):>5}  p50 {statistics.median(ms):7.2f} ms  "
              f"p99 {p99:7.2f} ms  max {ordered[-1]:7.2f} ms  first (cold) {ms[0]:7.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--concrete", type=int, default=8, help="most concrete jokers in a hand")
    ap.add_argument("--supers", type=int, default=4, help="most super jokers in a hand")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    report("single kinds", run(args.rows, args.concrete, args.supers, False, args.seed))
    report("one card in ten a combination", run(args.rows, args.concrete, args.supers, True,
                                                args.seed + 1))
    print("target: p99 <= 50 ms per row")


if __name__ == "__main__":
    main()

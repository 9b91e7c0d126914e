"""How long the Um Krone und Kragen reach solver takes for a player with eight court cards.

Run: ``.venv/bin/python benchmarks/bench_reach.py [--games 300]``. Prints figures for

* **played hands**: simple bots play whole games (seeded; throw, set aside the most
  common number, buy the highest card the result pays); every time a player with eight
  court cards has just thrown, the reach of that throw is timed (all dice active, every
  card unused, every card they may buy wanted: the heaviest moment of a turn);
* **stress**: eight cards drawn only from those the solver plans with (no Bauer,
  Hofnarr …), three to seven dice thrown: harder than play produces.

Each position is solved once, in one process, one after the other, as the table does
after each throw (the solver's move tables stay warm between positions); ``cold`` is the
first position after every table was dropped.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter

from rules.dice import Die, Roll
from rules.ukuk import reach as reach_module
from rules.ukuk.actions import Bid, Buy, Pass, Rolled, SetAside
from rules.ukuk.court import Court, load_court
from rules.ukuk.game import GameState, apply, new_game

Position = tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]]


def bot_turn(s: GameState, rng: random.Random) -> tuple[GameState, tuple[int, ...]]:
    """Play one turn; return the state after it and the first throw."""
    first: tuple[int, ...] = ()
    while not s.dice.done:
        n = s.dice.hand + len(s.dice.active)
        values = tuple(rng.randint(1, 6) for _ in range(n))
        first = first or values
        s = apply(s, Rolled(Roll(tuple(Die(v) for v in values))))
        have = Counter(s.dice.aside)
        best = max(set(values), key=lambda v: (values.count(v) + have[v], v))
        s = apply(s, SetAside(tuple(v for v in values if v == best)))
    if s.final:
        return apply(s, Bid()), first
    options = s.affordable()
    if options:
        rows = {r: i for i, r in enumerate(("0", "I", "II", "III", "IV", "V"))}
        card = max(options, key=lambda c: (rows[c.row], rng.random()))
        return apply(s, Buy(card.id)), first
    return apply(s, Pass()), first


def played_positions(court: Court, games: int, seed: int = 1) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        s = new_game([f"P{i}" for i in range(rng.randint(2, 5))], court)
        for _turn in range(60):
            if s.over:
                break
            player = s.current
            owned = s.owned[player]
            wanted = tuple(c.id for c in s.buyable())
            s, first = bot_turn(s, rng)
            if len(owned) == 8 and not s.final:
                out.append((first, owned, wanted))
    return out


def stress_positions(court: Court, n: int, seed: int = 2) -> list[Position]:
    rng = random.Random(seed)
    planned = sorted(c.id for c in court if c.ability.deterministic and c.id != court.queen)
    out = []
    for _ in range(n):
        cards = tuple(rng.sample(planned, 8))
        dice = tuple(rng.randint(1, 6) for _ in range(rng.randint(3, 7)))
        wanted = tuple(c.id for c in court if c.id not in cards and c.id != court.queen)
        out.append((dice, cards, wanted))
    return out


def solve(court: Court, position: Position) -> tuple[float, float]:
    """Wall time and CPU time of one reach (CPU time is what this process got of a core:
    on a shared machine the wall time also counts waiting for one)."""
    dice, cards, wanted = position
    unused = {c: court.card(c).ability for c in cards}
    costs = {c: court.card(c).cost for c in wanted}
    reach_module.forget_answers()  # time the search, not the memo of whole answers
    start, cpu = time.perf_counter(), time.process_time()
    reach_module.reach(dice, (), unused, costs)
    return time.perf_counter() - start, time.process_time() - cpu


def report(label: str, times: list[tuple[float, float]]) -> None:
    print(f"{label}: {len(times)} positions")
    for kind, column in (("wall", 0), ("cpu", 1)):
        ms = sorted(t[column] * 1e3 for t in times)
        q = statistics.quantiles(ms, n=100)
        over = sum(1 for t in ms if t > 50)
        print(f"  {kind}: median {statistics.median(ms):.1f} ms, p90 {q[89]:.1f} ms, "
              f"p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms, "
              f"over 50 ms: {over} ({100 * over / len(ms):.1f} %)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--stress", type=int, default=200)
    args = parser.parse_args()
    court = load_court()
    played = played_positions(court, args.games)
    stress = stress_positions(court, args.stress)
    reach_module.clear_caches()
    wall, cpu = solve(court, played[0])
    print(f"cold (first position, every table dropped): {wall * 1e3:.1f} ms wall, "
          f"{cpu * 1e3:.1f} ms cpu")
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    report("played hands with 8 court cards, first throw", [solve(court, p) for p in played])
    report("stress: 8 planned cards, 3-7 dice", [solve(court, p) for p in stress])


if __name__ == "__main__":
    main()

"""Shared pieces of the Um Krone und Kragen tests: the game worked out by hand, an oracle of
the court's costs written from the rulebook's words, and a brute force that meets the
game's refusals.

The scripted game (``GAME``): Ann and Ben both buy Hofnarr, Scharlatan (the Hofnarr goes
back to court), Bauer, Handwerker, Wachmann and Dienstmagd. Ann buys the König with seven
2s and gets the Königin: her first bid is 7 × 2. In the final round Ben throws first and
bids 7 × 3. Then either Ann fails (``ANN_FAILS``: the King goes to Ben) or she equals with
the Königin's die (``ANN_EQUALS``: she keeps it).
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace

from rules.errors import KotdError
from rules.ukuk.actions import parse_action
from rules.ukuk.court import load_court
from rules.ukuk.game import GameState, TurnDice, apply, new_game

COURT = load_court()

GAME = """
players Ann Ben
# round 1: Ann, Ben
roll 2 4 6
aside 2 4 6
buy hofnarr
roll 1 5 5
aside 1 5 5
buy hofnarr
# round 2: Ben starts (he was last), Ann
roll 3 4 4
aside 4 4
roll 2
aside 2
buy scharlatan
roll 5 5 6
aside 5 5 6
buy scharlatan
# round 3: Ann, Ben; four dice each now
roll 6 6 1 2
aside 6 6
roll 3 3
aside 3 3
buy bauer
roll 4 4 5 1
aside 4 4 1 5
buy bauer
# round 4: Ben, Ann; five dice each
roll 6 6 5 2 1
aside 6 6 5
roll 4 1
aside 4
roll 3
aside 3
buy handwerker
roll 6 5 4 3 1
aside 6 5 4
roll 2 6
aside 6 2
buy handwerker
# round 5: Ann, Ben
roll 4 4 4 1 2
aside 4 4 4 1 2
buy wachmann
roll 2 2 2 3 5
aside 2 2 2
roll 6 6
aside 6 6
buy wachmann
# round 6: Ben, Ann
roll 1 3 5 5 2
aside 1 3 5 5
roll 3
aside 3
use handwerker
aside 1
buy dienstmagd
roll 1 1 3 5 5
aside 1 1 3 5 5
buy dienstmagd
# round 7: Ann buys the King with seven 2s, Ben buys a Hofnarr again
roll 2 2 2 2 2
aside 2 2 2 2 2
use wachmann
use handwerker
use dienstmagd 1 -> 2
aside 2 2
buy koenig
roll 6 1 2 3 4
aside 6 1 2 3 4
buy hofnarr
# final round: Ben first, the owner Ann last
roll 3 3 3 3 3
aside 3 3 3 3 3
use wachmann
use dienstmagd 2 -> 3
use handwerker
use hofnarr 1 -> 3
aside 3 3
bid
"""

ANN_FAILS = """
roll 6 6 1 2 4
aside 6 6 1 2 4
bid
"""

ANN_EQUALS = """
roll 3 3 3 3 3
aside 3 3 3 3 3
use koenigin -> 3
use wachmann
use dienstmagd 2 -> 3
aside 3 3
bid
"""


def lines(text: str) -> list[str]:
    """The action lines of a script, without comments and blank lines."""
    return [ln.split("#")[0].strip() for ln in text.splitlines() if ln.split("#")[0].strip()]


# ---- the costs, from the rulebook's words --------------------------------------------------

def _kind(c: Counter[int], n: int) -> bool:
    return any(c[v] >= n for v in range(1, 7))


def _two_groups(c: Counter[int], a: int, b: int) -> bool:
    """A group of a and a group of b equal dice, possibly of one number."""
    for x in range(1, 7):
        for y in range(1, 7):
            if x == y and c[x] >= a + b:
                return True
            if x != y and c[x] >= a and c[y] >= b:
                return True
    return False


_PAIR_NUMBERS = tuple(Counter([x, x, y, y, z, z]) for x, y, z
                      in itertools.combinations_with_replacement(range(1, 7), 3))
"""The dice each choice of three pairs' numbers needs (a number may be chosen twice)."""


def _three_pairs(c: Counter[int]) -> bool:
    return any(all(c[v] >= n for v, n in need.items()) for need in _PAIR_NUMBERS)


ORACLE: dict[str, Callable[[tuple[int, ...], Counter[int]], bool]] = {
    # whether the dice (and their counts) pay for each court card
    "hofnarr": lambda d, c: sum(d) > 0,
    "scharlatan": lambda d, c: sum(d) > 0,
    "bauer": lambda d, c: _kind(c, 2),
    "dienstmagd": lambda d, c: all(v % 2 == 1 for v in d),
    "philosoph": lambda d, c: all(v % 2 == 0 for v in d),
    "handwerker": lambda d, c: sum(d) >= 15,
    "wachmann": lambda d, c: _kind(c, 3),
    "jaeger": lambda d, c: _kind(c, 4),
    "haendler": lambda d, c: sum(d) >= 20,
    "astronom": lambda d, c: _two_groups(c, 2, 2),
    "hofdame": lambda d, c: _two_groups(c, 3, 2),
    "pfandleiher": lambda d, c: sum(d) >= 30,
    "ritter": lambda d, c: _kind(c, 5),
    "zauberer": lambda d, c: {1, 2, 3, 4, 5} <= set(d) or {2, 3, 4, 5, 6} <= set(d),
    "alchemist": lambda d, c: set(d) == {1, 2, 3, 4, 5, 6},
    "bischof": lambda d, c: _three_pairs(c),
    "edelmann": lambda d, c: _two_groups(c, 3, 3),
    "feldherr": lambda d, c: _kind(c, 6),
    "koenigin": lambda d, c: False,
    "koenig": lambda d, c: _kind(c, 7),
}


def every_result(max_dice: int = 12) -> Iterator[tuple[int, ...]]:
    """Every multiset of 1 to ``max_dice`` dice, as sorted tuples."""
    for n in range(1, max_dice + 1):
        yield from itertools.combinations_with_replacement(range(1, 7), n)


# ---- the refusals a brute force meets ------------------------------------------------------

DICE = [  # (active, aside): what can lie on the table mid-turn
    ((), (2, 4)), ((1,), ()), ((1, 3, 5), ()), ((6, 6), (3,)), ((2, 3, 5), (4, 4)),
    ((1, 1, 6), (2,)), ((5, 5, 5, 5), ()),
]
BEFORE = ["", "1", "3", "5", "6", "1 1", "1 3", "3 5", "5 6", "1 3 5", "1 1 6"]
AFTER = ["", "-> 1", "-> 2", "-> 4", "-> 6", "-> 2 2", "-> 3 3", "-> 4 5", "-> 1 2 3",
         "-> 3 3 3"]


def tried_lines() -> list[str]:
    """Every action line the brute force tries."""
    cards = [c.id for c in COURT]
    out = [f"use {c} {b} {a}".strip() for c in cards for b in BEFORE for a in AFTER]
    out += [f"buy {c}" for c in cards]
    out += ["roll " + " ".join(["3"] * n) for n in range(1, 8)]
    out += [f"aside {v}" for v in "1356"] + ["aside 1 1", "pass", "bid", "fix 1 5",
                                            "fix 9 5", "fix 1 5r", "roll 1r 2 3", "players A B"]
    return out


def states() -> list[GameState]:
    """Turns in progress for Ann, who owns every court card (or none), in every phase."""
    start = new_game(["Ann", "Ben"], COURT)
    every = tuple(c.id for c in COURT if c.id != "scharlatan")
    found = []
    for owned, final, over in itertools.product((every, ()), (False, True), (False, True)):
        s = replace(start, owned=(owned, ()), final=final, over=over)
        found.append(s)  # nothing thrown yet
        found.append(replace(s, dice=TurnDice(3, active=(2,))))  # a die brought in
        for active, aside in DICE if (owned, final, over) == (every, False, False) else DICE[:2]:
            for since in (False, True):
                found.append(replace(s, dice=TurnDice(0, active, aside, throws=1,
                                                      aside_since_throw=since)))
    # every card used already; the Hofnarr's copies all gone; Ann owns a Hofnarr only
    found.append(replace(start, dice=TurnDice(0, (1, 3, 5), throws=1, used=every),
                         owned=(every, ())))
    found.append(replace(start, left=tuple(0 for _ in COURT),
                         dice=TurnDice(0, (), (3, 3), throws=1)))
    return found


@functools.cache
def refusals() -> tuple[KotdError, ...]:
    """Every refusal the brute force meets, the ones from a new game's players too (worked
    out once per test process: two test modules ask)."""
    met: list[KotdError] = []
    parsed = []
    for line in tried_lines():
        try:
            parsed.append(parse_action(line))
        except KotdError as err:
            met.append(err)
    for state in states():
        for action in parsed:
            try:
                apply(state, action)
            except KotdError as err:
                met.append(err)
    for players in (["Ann"], ["A", "B", "C", "D", "E", "F"], ["Ann", "ann"]):
        try:
            new_game(players, COURT)
        except KotdError as err:
            met.append(err)
    return tuple(met)

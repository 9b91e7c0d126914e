"""The advisor's odds against independent oracles.

* brute force: a plain recursive enumeration over every keep and every reroll outcome,
  judging final rolls with ``Requirement.evaluate`` (small cases);
* Monte Carlo: the advisor's own strategy played with seeded dice (full six-dice cases);
  the exact figure must lie in the 99.9 % confidence interval of the sample mean;
* hand-checked values from a fresh turn of three rolls, worked out by simple Markov chains;
* properties (hypothesis): probabilities in [0, 1], 1 when already met, monotone in rolls.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi.cli import main
from rules.dice import HABA_LAYOUTS, Color, Die, Roll, haba_pair
from rules.errors import KotdError
from rules.kotd import advisor
from rules.kotd.advisor import Scoring, advise, card_worth, fresh_turn_odds, requirement_odds
from rules.kotd.cards import load_box
from rules.kotd.requirements import (
    ColorCount,
    Colors,
    Groups,
    Parity,
    Requirement,
    Run,
    SameColor,
    SumAtLeast,
    SumAtMost,
    Value,
)

BOX = load_box()


def row_of(*ids: str):
    return [BOX.citizen(i) for i in ids]


# --- the oracle ---------------------------------------------------------------------


def faces(die: Die) -> list[Die]:
    """What a reroll of ``die`` lands on, each equally likely (see the advisor's model)."""
    pair = haba_pair(die)
    if pair is not None:
        return [Die(v, HABA_LAYOUTS[pair][v]) for v in range(1, 7)]
    return [Die(v, c) for v in range(1, 7) for c in Color]  # pooled: 1/18 each


def brute_force(final, dice: tuple[Die, ...], rolls_left: int) -> dict[tuple[int, ...], float]:
    """Value of every keep (indices kept) by plain enumeration; ``final(dice)`` scores.

    Every state the turn can reach, and every outcome of every keep from each, are
    enumerated once for the start and the rolls left (:func:`turn_tree`, shared by every
    requirement and row judged from that start); a state with ``left`` rolls left is worth
    its best keep's mean over that keep's outcomes, worth with ``left - 1``."""
    n = len(dice)
    if rolls_left == 0:
        return {tuple(range(n)): final(dice)}
    states, outcomes = turn_tree(dice, rolls_left)
    worth = np.array([final(state) for state in states], dtype=float)  # no rolls left
    for _ in range(1, rolls_left):  # worth with one roll more left
        # only states a turn can stand in with a roll left have outcomes listed; any
        # other's worth is NaN here, so a mistake would show in every figure after it
        worth = np.array([
            max(worth[outcomes[i, kept]].mean() for kept in keeps(n))
            if (i, keeps(n)[0]) in outcomes else np.nan
            for i in range(len(states))])
    return {kept: float(worth[outcomes[0, kept]].mean()) for kept in keeps(n)}


@cache
def turn_tree(start: tuple[Die, ...], rolls_left: int
              ) -> tuple[list[tuple[Die, ...]], dict[tuple[int, tuple[int, ...]], np.ndarray]]:
    """Every state a turn from ``start`` can reach (``start`` first), and for each state
    with a roll left and each keep, every way the reroll lands (each equally likely: every
    face of every rerolled die, :func:`faces`) as indices of those states."""
    index = {start: 0}
    states = [start]
    outcomes: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
    frontier = [start]
    for _ in range(rolls_left):
        reached = []
        for state in frontier:
            for kept in keeps(len(start)):
                rolled = [i for i in range(len(state)) if i not in kept]
                landed = []
                for outcome in product(*(faces(state[i]) for i in rolled)):
                    new = list(state)
                    for i, die in zip(rolled, outcome, strict=True):
                        new[i] = die
                    key = tuple(new)
                    if key not in index:
                        index[key] = len(states)
                        states.append(key)
                        reached.append(key)
                    landed.append(index[key])
                outcomes[index[state], kept] = np.array(landed)
        frontier = reached
    return states, outcomes


@cache
def keeps(n: int) -> list[tuple[int, ...]]:
    return [tuple(i for i in range(n) if m >> i & 1) for m in range(1 << n)]


def meets(req: Requirement):
    return lambda dice: float(req.evaluate(Roll(dice)).satisfied)


def dice(text: str) -> tuple[Die, ...]:
    return Roll.parse(text, None).dice


SMALL_REQUIREMENTS = [
    Value(1, 2),
    Run(3),
    Groups((2,)),
    Groups((3,)),
    Parity("even", 3),
    SumAtMost(7),
    SumAtLeast(14),
    ColorCount(Color.RED, 2),
    SameColor(3),
    Colors(((Color.RED, 1), (Color.GREEN, 1))),
]


@pytest.mark.parametrize("req", SMALL_REQUIREMENTS, ids=lambda r: r.describe())
@pytest.mark.parametrize("text", ["1r 4g 6b", "2g 3b 3r"])
@pytest.mark.parametrize("rolls_left", [0, 1, 2])
def test_card_odds_match_brute_force_three_dice(req, text, rolls_left):
    start = dice(text)
    oracle = brute_force(meets(req), start, rolls_left)
    p, keep = requirement_odds(req, Roll(start), rolls_left)
    assert p == pytest.approx(max(oracle.values()), abs=1e-12)
    assert oracle[keep] == pytest.approx(p, abs=1e-12)  # the advised keep achieves it


@pytest.mark.parametrize("req", [Value(3, 2), ColorCount(Color.BLUE, 2), SameColor(2)],
                         ids=lambda r: r.describe())
def test_card_odds_match_brute_force_pooled_dice(req):
    start = dice("3 5 1")  # no colours: rerolls use the pooled layout
    oracle = brute_force(meets(req), start, 1)
    p, keep = requirement_odds(req, Roll(start), 1)
    assert p == pytest.approx(max(oracle.values()), abs=1e-12)
    assert oracle[keep] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("card_id", ["orc-3+2", "fairy-3r2b", "elf-5"])
def test_card_odds_match_brute_force_six_dice_one_roll(card_id):
    req = BOX.citizen(card_id).requirement
    start = dice("4r 4g 2r 1b 5g 6g")
    scores: dict[tuple, float] = {}

    def final(ds):
        key = tuple(sorted((d.value, d.color or "") for d in ds))
        if key not in scores:
            scores[key] = float(req.evaluate(Roll(ds)).satisfied)
        return scores[key]

    oracle = brute_force(final, start, 1)
    p, keep = requirement_odds(req, Roll(start), 1)
    assert p == pytest.approx(max(oracle.values()), abs=1e-12)
    assert oracle[keep] == pytest.approx(p, abs=1e-12)


def points_of(row, scoring=None):
    worths = [card_worth(row, s, BOX, scoring) for s in range(1, len(row) + 1)]
    penalty = advisor.expected_penalty(BOX, scoring)

    def final(ds):
        roll = Roll(ds)
        got = [w for c, w in zip(row, worths, strict=True)
               if c.requirement.evaluate(roll).satisfied]
        return max(got) if got else penalty

    return final


# Cards a three-dice roll can meet, mixing value and colour requirements.
SMALL_ROW = ("dwarf-3x1", "orc-3", "hypnotist", "gnome-3green", "dwarf-3x4")


@pytest.mark.parametrize(("text", "rolls_left"),
                         [("1r 1g 4g", 2), ("4r 3g 4b", 1), ("6g 6b 5r", 2), ("1 4 4", 1),
                          ("1 4g 4b", 2)])
def test_expected_points_match_brute_force(text, rolls_left):
    row = row_of(*SMALL_ROW)
    start = dice(text)
    oracle = brute_force(points_of(row), start, rolls_left)
    a = advise(row, Roll(start), rolls_left, box=BOX)
    assert a.expected_points == pytest.approx(max(oracle.values()), abs=1e-9)
    assert oracle[a.keep] == pytest.approx(a.expected_points, abs=1e-9)


# --- Monte Carlo on full cases ------------------------------------------------------


def play(rng: random.Random, start: Roll, rolls_left: int, choose) -> Roll:
    """Play out a turn: ``choose(roll, left)`` names the dice to keep; the rest are rerolled."""
    roll = start
    for left in range(rolls_left, 0, -1):
        kept = choose(roll, left)
        if len(kept) == len(roll):
            break
        roll = Roll(tuple(d if i in kept else rng.choice(faces(d)) for i, d in enumerate(roll)))
    return roll


def within_ci(exact: float, samples: list[float]) -> None:
    n = len(samples)
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = 3.29 * math.sqrt(max(var, 1e-12) / n)  # 99.9 % two-sided
    assert abs(mean - exact) <= half, (exact, mean, half)


@pytest.mark.parametrize(("card_id", "text"), [
    ("orc-3+2", "4r 4g 2r 1b 5g 6g"),
    ("elf-6", "1g 2r 2g 4r 5b 6b"),
    ("gnome-5red", "5r 4b 2r 3g 1r 6g"),
    ("fairy-2r3g", "1 2 3 4 5 6"),
])
def test_card_odds_match_monte_carlo(card_id, text):
    req = BOX.citizen(card_id).requirement
    start = Roll.parse(text)
    exact, _ = requirement_odds(req, start, 2)
    rng = random.Random(7)

    @cache  # a function of (roll, rolls left): the same turns, a third of the time
    def choose(roll, left):
        if req.evaluate(roll).satisfied:
            return tuple(range(len(roll)))
        return requirement_odds(req, roll, left)[1]

    samples = [float(req.evaluate(play(rng, start, 2, choose)).satisfied) for _ in range(1500)]
    within_ci(exact, samples)

    # A plain strategy (keep the engine's near-miss witness) does no better than the optimum.
    def witness(roll, left):
        return req.evaluate(roll).witness

    plain = [float(req.evaluate(play(rng, start, 2, witness)).satisfied) for _ in range(1500)]
    half = 3.29 * math.sqrt(0.25 / len(plain))
    assert sum(plain) / len(plain) <= exact + half


@pytest.mark.parametrize("text", ["4r 4g 3b 1r 2g 6b", "4 4g 3 1r 2 6b"])
def test_expected_points_match_monte_carlo(text):
    row = row_of("dwarf-3x1", "orc-3", "elf-4", "gnome-3green", "fairy-2r2g")
    start = Roll.parse(text)  # the second has unread dice: the pooled layout
    a = advise(row, start, 2, box=BOX)
    final = points_of(row)
    rng = random.Random(11)

    @cache  # a function of (roll, rolls left): the same turns, a third of the time
    def choose(roll, left):
        return advise(row, roll, left, box=BOX).keep

    samples = [final(play(rng, start, 2, choose).dice) for _ in range(600)]
    within_ci(a.expected_points, samples)


# --- hand-checked values from a fresh turn of three rolls ---------------------------


def n_of_a_kind_chain(n: int, rolls: int = 3) -> Fraction:
    """P(n of a kind with six dice in ``rolls`` rolls), keeping the largest group.

    State: size m of the group kept (one value). Each roll rerolls the 6 - m other dice;
    the new largest group is max(m + rerolled dice showing the kept value, largest group
    among the other rerolled values). Keeping only the largest group is optimal for
    "n of a kind" (a second pair only competes for the same rerolls), and keeping one die
    of six different values is the same as keeping none (relabel the values). Transition
    counts are enumerated over the 6^(6-m) outcomes.
    """

    def step(m: int) -> dict[int, Fraction]:
        out: Counter[int] = Counter()
        rolled = 6 - m
        for outcome in product(range(1, 7), repeat=rolled):
            c = Counter(outcome)
            same = m + c[1] if m else 0  # the kept value is 1 (by symmetry)
            other = max((k for v, k in c.items() if v != 1 or not m), default=0)
            out[max(same, other)] += 1
        return {k: Fraction(v, 6**rolled) for k, v in out.items()}

    dist = {0: Fraction(1)}
    for _ in range(rolls):
        new: Counter[int] = Counter()
        for m, p in dist.items():
            if m >= n:
                new[m] += p
                continue
            for m2, q in step(m).items():
                new[m2] += p * q
        dist = new
    return sum((p for m, p in dist.items() if m >= n), Fraction(0))


def run_of_six_chain(rolls: int = 3) -> Fraction:
    """P(1-2-3-4-5-6 in ``rolls`` rolls): keep one die of each value seen.

    State: k distinct values kept. Rerolling the other 6 - k dice adds j new values with
    probability (ways 6 - k dice show exactly j given missing values) / 6^(6 - k), where
    ways = C(6-k, j) * surjections... counted here by enumerating the outcomes. Keeping
    every distinct value is optimal (a duplicate is never needed, a value never lost).
    """
    dist = {0: Fraction(1)}
    for _ in range(rolls):
        new: Counter[int] = Counter()
        for k, p in dist.items():
            rolled = 6 - k
            if rolled == 0:
                new[k] += p
                continue
            missing = set(range(1, rolled + 1))  # any rolled-size set, by symmetry
            counts = Counter(len(missing & set(o)) for o in product(range(1, 7), repeat=rolled))
            for j, c in counts.items():
                new[k + j] += p * Fraction(c, 6**rolled)
        dist = new
    return dist.get(6, Fraction(0))


def test_fresh_turn_run_of_six():
    expected = run_of_six_chain()
    assert float(expected) == pytest.approx(0.196829, abs=1e-6)
    # First roll alone: 6!/6^6 = 0.0154; three rolls about 0.197.
    assert float(run_of_six_chain(1)) == pytest.approx(720 / 6**6)
    assert fresh_turn_odds(Run(6), rolls=3) == pytest.approx(float(expected), abs=1e-12)
    assert fresh_turn_odds(Run(6), rolls=1) == pytest.approx(720 / 6**6, abs=1e-12)


@pytest.mark.parametrize(("n", "figure"), [(3, 0.888713), (4, 0.501069), (5, 0.157223)])
def test_fresh_turn_n_of_a_kind(n, figure):
    expected = float(n_of_a_kind_chain(n))
    assert expected == pytest.approx(figure, abs=1e-6)
    assert fresh_turn_odds(Groups((n,)), rolls=3) == pytest.approx(expected, abs=1e-12)


def test_fresh_turn_three_of_a_kind_one_roll_by_counting():
    # Six dice with no group of three: 2+2+2, 2+2+1+1, 2+1+1+1+1, 1x6 patterns.
    no_triple = 20 * 90 + 15 * 6 * 180 + 6 * 5 * 360 + 720
    assert fresh_turn_odds(Groups((3,)), rolls=1) == pytest.approx(1 - no_triple / 6**6)


def test_fresh_turn_colour_binomial():
    # Three rolls, keep every blue: each die is blue by the end with 1 - (2/3)^3 = 19/27,
    # independently, so P(6 blue) = (19/27)^6.
    assert fresh_turn_odds(ColorCount(Color.BLUE, 6), 3) == pytest.approx((19 / 27) ** 6)


# --- properties ---------------------------------------------------------------------

die_st = st.builds(
    lambda v, pair: Die(v, HABA_LAYOUTS[pair][v] if pair else None),
    st.integers(1, 6), st.sampled_from(["A", "B", "C", None]),
)
roll_st = st.lists(die_st, min_size=6, max_size=6).map(lambda ds: Roll(tuple(ds)))


@given(roll_st, st.sampled_from(BOX.citizens))
def test_properties(roll, card):
    req = card.requirement
    odds = [requirement_odds(req, roll, r)[0] for r in range(3)]
    for p in odds:
        assert -1e-12 <= p <= 1 + 1e-12
    if req.evaluate(roll).satisfied:
        assert odds == pytest.approx([1.0, 1.0, 1.0])
    else:
        assert odds[0] == 0.0
    assert odds[0] <= odds[1] + 1e-12 <= odds[2] + 2e-12


@settings(max_examples=30)
@given(roll_st)
def test_advice_is_consistent(roll):
    row = row_of("dwarf-3x1", "orc-3", "elf-4", "gnome-3green", "fairy-2r2g")
    a = advise(row, roll, 1, box=BOX)
    json.dumps(a.to_dict())
    assert a.expected_points is not None and not a.notes
    assert a.expected_points >= a.stop_points - 1e-9
    assert a.stop == (len(a.keep) == 6)
    assert advise(row, roll, 0, box=BOX).expected_points == pytest.approx(a.stop_points)
    for c in a.cards:
        assert 0 <= c.probability <= 1 + 1e-12
        kept = roll.subset(c.keep)
        if c.satisfied_now:
            assert BOX.citizen(c.id).requirement.evaluate(kept).satisfied


# --- scoring ------------------------------------------------------------------------


def test_card_worth():
    row = row_of("elf-4", "dwarf-3x1", "hypnotist", "orc-3", "fairy-2r2g")
    assert [card_worth(row, s, BOX) for s in range(1, 6)] == [3, 6, 1 + 2 + 2, 4, 3]
    assert card_worth(row, 5, BOX, Scoring(fairies=2)) == 5 + 2
    tops = Scoring(village_tops=(4, None, 2, 3, 0))
    assert [card_worth(row, s, BOX, tops) for s in range(1, 6)] == [5, 4, 1 + 2 + 3, 5, 1]
    dragons = row_of("dragon-28", "orc-3", "elf-4", "orc-4", "hypnotist")
    assert card_worth(dragons, 1, BOX) == 4  # given to the leader: 4 off their lead
    assert card_worth(dragons, 1, BOX, Scoring(dragon_gift=False)) == 0
    assert card_worth(dragons, 5, BOX) == 1  # rightmost hypnotist: no bonus card
    assert advisor.expected_penalty(BOX) == -2.0
    assert advisor.expected_penalty(BOX, Scoring(penalty=-3)) == -3.0


def test_no_rolls_left_means_stop():
    row = row_of("orc-3", "gnome-3green")
    a = advise(row, Roll.parse("4r 4g 4b 1r 2g 6b"), 0, box=BOX)
    assert a.stop and a.keep == tuple(range(6))
    assert a.expected_points == a.stop_points == 2  # orc in the city's slot: no village
    assert [c.probability for c in a.cards] == [1.0, 0.0]


def test_rolls_left_checked():
    with pytest.raises(KotdError, match="0-3"):
        requirement_odds(Run(4), Roll.parse("1 2 3 4 5 6"), 4)


# --- the command ----------------------------------------------------------------------

ROW = "dwarf-3x1,orc-3,elf-4,gnome-3green,fairy-2r2g"


def test_cli_human(capsys):
    assert main(["advise", "--row", ROW, "--dice", "4r 4g 4b 1r 2g 6b", "--rolls-left", "2"]) == 0
    out = capsys.readouterr().out
    assert "dwarf-3x1" in out and "%" in out and "most points" in out


def test_cli_json(capsys):
    assert main(["advise", "--row", ROW, "--dice", "4r 4g 4b 1r 2g 6b", "--rolls-left", "2",
                 "--json", "--penalty", "-2", "--fairies", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in data["cards"]] == ROW.split(",")
    assert data["penalty"] == -2
    assert data["cards"][4]["worth"] == 3 + 2  # second fairy: 4 - 1, plus the village


def test_cli_warns_of_a_roll_the_haba_dice_cannot_show(capsys):
    # 1g, 2r and 3b all lie on HABA pair A, which has two dice
    assert main(["advise", "--row", "orc-3", "--dice", "1g 2r 3b 4r 5g 6b",
                 "--rolls-left", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "pair A" in json.loads(out)["warning"]
    assert err.startswith("kotd: warning: ") and err.count("\n") == 1
    assert main(["advise", "--row", "orc-3", "--dice", "1g 2r 3r 4r 5b 6r",
                 "--rolls-left", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["warning"] is None and err == ""


def test_cli_villages_and_dragon_gift(capsys):
    assert main(["advise", "--row", "dragon-25,orc-3", "--dice", "6r 6g 6b 5r 5g 1b",
                 "--rolls-left", "0", "--villages", "2,0", "--dragon-gift", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["worth"] for c in data["cards"]] == [2, 2]
    assert data["best"]["stop"] and data["best"]["expected_points"] == 2


@pytest.mark.parametrize(("args", "message"), [
    (["--row", "dwarf-9x9", "--dice", "1 2 3 4 5 6", "--rolls-left", "1"], "unknown card"),
    (["--row", "orc-3", "--dice", "1 2 3 4 5 9", "--rolls-left", "1"], "die 6"),
    (["--row", "orc-3", "--dice", "1 2 3 4 5 6", "--rolls-left", "5"], "0-3"),
    (["--row", "city-2", "--dice", "1 2 3 4 5 6", "--rolls-left", "1"], "not a citizen"),
    (["--row", "orc-3,elf-4", "--dice", "1 2 3 4 5 6", "--rolls-left", "1",
      "--villages", "2,x"], "--villages"),
    (["--row", "orc-3,elf-4", "--dice", "1 2 3 4 5 6", "--rolls-left", "1",
      "--villages", "2"], "one number per slot"),
    (["--row", "orc-3", "--dice", "1 2 3 4 5 6", "--rolls-left", "1", "--penalty", "2"],
     "--penalty"),
    (["--row", "orc-3", "--dice", "1 2 3 4 5 6", "--rolls-left", "1", "--penalty", "nan"],
     "--penalty"),
    (["--row", "orc-3,orc-3", "--dice", "1 2 3 4 5 6", "--rolls-left", "1"], "twice"),
    (["--row", "orc-3,elf-4", "--dice", "1 2 3 4 5 6", "--rolls-left", "1",
      "--villages", "2,9"], "no village card is worth 9"),
])
def test_cli_errors(capsys, args, message):
    assert main(["advise", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1

"""The board game's dice conditions: every kind exact against brute force over every roll
of the box's six HABA dice, their text and JSON forms, and the rulebook's examples."""

from __future__ import annotations

import random

import pytest
from board_oracle import COMBOS, SINGLE, every_bag, every_roll, oracle, stars
from hypothesis import given
from hypothesis import strategies as st

from rules.board import conditions as c
from rules.board.conditions import ConditionError, from_json, parse
from rules.dice import Roll

BAGS = every_bag()

def test_every_roll_of_the_box_is_46656_rolls_of_colours_that_fit_the_layout():
    rolls = list(every_roll())
    assert len(rolls) == 6 ** 6 and len(BAGS) < len(rolls)
    assert all(sum(d.color is colour for d in r) <= 6 for r in rolls for colour in c.COLOURS)


@pytest.mark.parametrize("text", SINGLE)
def test_each_kind_is_exact_on_every_roll_of_the_box(text):
    cond = parse(text)
    for bag in BAGS:
        witness = cond.witness(bag)
        assert (witness is not None) == oracle(cond, bag), (text, bag)
        if witness is not None and cond.consumes:  # the witness dice alone meet it
            assert oracle(cond, [bag[i] for i in witness]), (text, bag, witness)


@pytest.mark.parametrize("text", COMBOS)
def test_combinations_count_a_die_once_and_sums_every_die(text):
    cond = parse(text)
    rng = random.Random(text)
    for bag in rng.sample(BAGS, 400):
        witness = cond.witness(bag)
        assert (witness is not None) == oracle(cond, bag), (text, bag)


def test_a_die_counts_once_across_the_parts_of_one_card():
    two_sixes = parse("pips 6 + pips 6")
    assert not two_sixes.meets(Roll.parse("6r 1g 2b 3r 4g 5b").dice)
    assert two_sixes.meets(Roll.parse("6r 6g 2b 3r 4g 5b").dice)
    red_and_six = parse("colours 3r + pips 6")
    assert not red_and_six.meets(Roll.parse("6r 5r 2r 1g 1b 2g").dice)  # the red 6 once
    assert red_and_six.meets(Roll.parse("6r 5r 2r 1r 1b 2g").dice)
    assert parse("pips 5r + sum 20").meets(Roll.parse("5r 5r 5r 5r 1g 1b").dice)


def test_red_sum_above_blue_above_green_as_the_rulebook_says():
    cond = from_json({"colour_sums_descending": ["r", "b", "g"]})
    assert cond.meets(Roll.parse("6r 4r 2r 2b 3b 1g").dice)  # 12 > 5 > 1
    assert cond.meets(Roll.parse("6r 5r 1r 3b 2b 1b").dice)  # 12 > 6 > 0
    assert not cond.meets(Roll.parse("6r 6r 6b 6b 4g 1g").dice)  # 12 = 12 > 5


def test_the_merchants_run_gives_one_two_or_three_stars():
    run = parse("straight 4 | straight 5 | straight 6")
    assert run.stars(Roll.parse("1r 2g 3b 5r 5g 5b").dice) == 0
    assert run.stars(Roll.parse("1r 2g 3b 4r 6g 6b").dice) == 1
    assert run.stars(Roll.parse("2r 3g 4b 5r 6g 6b").dice) == 2
    assert run.stars(Roll.parse("6r 5g 4b 3r 2g 1b").dice) == 3
    for bag in BAGS:
        assert run.stars(bag) == stars(run, bag)


def test_nelli_meets_the_merchant_with_five_red_dice_for_two_stars():
    red = parse("colours 4r | colours 5r | colours 6r")
    nelli = Roll.parse("2r 5r 3r 1r 6r 4g").dice
    assert red.stars(nelli) == 2
    assert red.stars((*nelli, c.die("2r"))) == 3


@pytest.mark.parametrize("text", [*SINGLE, *COMBOS, "straight 4 | straight 5 | straight 6",
                                  "colours 2r + pips 6 | groups 3 | sum 30"])
def test_text_and_json_forms_read_back_the_same(text):
    cond = parse(text)
    assert parse(cond.words()) == cond
    assert from_json(cond.to_json()) == cond
    assert from_json(text) == cond
    assert cond.describe("en") and cond.describe("de")


def test_the_issues_json_forms():
    assert from_json({"colours": {"r": 2, "b": 1}}) == parse("colours 2r 1b")
    assert from_json({"pips": ["6", "3r"]}) == parse("pips 3r 6")
    assert from_json({"groups": [3, 2]}) == parse("groups 2 3")
    assert from_json({"sum_at_least": 25}) == parse("sum 25")
    assert from_json({"colour_sum_at_least": {"r": 12}}) == parse("sum r 12")
    assert from_json({"colour_sums_descending": ["r", "b", "g"]}) == parse("sums r > b > g")
    assert from_json({"straight": 4}) == parse("straight 4")


@pytest.mark.parametrize(("data", "says"), [
    ({"rainbow": 3}, "unknown condition kind 'rainbow'"),
    ({"pips": ["7r"]}, "'7r' is no die"),
    ({"pips": ["6x"]}, "colour must be r, g or b"),
    ({"colours": {"r": -1}}, "not -1"),
    ({"groups": [0]}, "not 0"),
    ({"straight": 7}, "2-6, not 7"),
    ({"sum_at_least": "lots"}, "not 'lots'"),
    ({"colour_sums_descending": ["r", "r"]}, "two or three different colours"),
    ({"straight": 4, "pips": ["6"]}, "a condition is one kind"),
    ({"stars": [{"straight": 4}]}, "two or three tiers"),
    ("straight", "straight needs numbers"),
    ("colours 2 red", "should be a number and a colour"),
])
def test_bad_conditions_name_the_problem(data, says):
    with pytest.raises(ConditionError) as err:
        from_json(data)
    assert says in str(err.value)


DICE = st.builds(c.Die, st.integers(1, 6), st.sampled_from(c.COLOURS))


@given(st.sampled_from(SINGLE + COMBOS), st.lists(DICE, min_size=1, max_size=9))
def test_any_bag_of_up_to_nine_dice_agrees_with_the_oracle(text, dice):
    """Jokers add dice: the kinds hold for rolls longer than the box's six."""
    cond = parse(text)
    assert cond.meets(dice) == oracle(cond, dice)


def test_each_kind_draws_the_dice_the_card_shows():
    assert parse("colours 2r 1b").picture() == ("?r", "?r", "?b")
    assert parse("pips 6 3r").picture() == ("3r", "6")
    assert parse("groups 3 2").picture() == ("A", "A", "A", "B", "B")
    assert parse("straight 4 | straight 5 | straight 6").picture() == ("+",) * 6
    assert parse("colours 2r + pips 6").picture() == ("?r", "?r", "6")
    assert parse("sum 25").picture() == parse("sums r b g").picture() == ()

"""The reach solver against a brute-force search, and every plan replayed through the game.

The brute force knows nothing of the solver's reductions: it tries every order of card
uses, with any die set aside at any moment, and keeps the fewest uses that reach each
card. The solver must find exactly the same cards with exactly as many uses, and each of
its plans, played as actions, must let the player buy the card.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ukuk.actions import parse_action
from rules.ukuk.costs import Beats, Groups, SumAtLeast, counts_of
from rules.ukuk.court import load_court
from rules.ukuk.game import GameState, TurnDice, apply, new_game
from rules.ukuk.reach import _kinds, _uses_for_kind, _uses_for_sum, reach

COURT = load_court()
PLANNED = sorted(c.id for c in COURT if c.ability.deterministic and c.id != "koenigin")
TARGETS = {c.id: c.cost for c in COURT if c.cost.dice_cost}


def brute_force(active, aside, cards, targets):
    """Fewest uses per target over every order of uses and set-aside steps (0-1 BFS: the
    positions leave the queue in order of their uses, so the first that meets a target
    has its fewest; the search ends when every target has one, or no position is left)."""
    start = (tuple(sorted(active)), tuple(sorted(aside)), frozenset(cards))
    dist = {start: 0}
    queue = deque([(0, start)])
    done: set = set()
    best: dict[str, int] = {}
    while queue and len(best) < len(targets):  # positions leave in order of their uses
        d, state = queue.popleft()
        if state in done:  # left already, with as few uses or fewer
            continue
        done.add(state)
        act, side, unused = state
        dice = tuple(sorted(act + side))
        for cid, cost in targets.items():  # a card reached in fewer uses is not asked again
            if cid not in best and _met(cost, dice):
                best[cid] = d
        for v in set(act):  # set one die aside: free
            rest = list(act)
            rest.remove(v)
            nxt = (tuple(rest), tuple(sorted((*side, v))), unused)
            if dist.get(nxt, 99) > d:
                dist[nxt] = d
                queue.appendleft((d, nxt))
        for cid in unused:
            for after in _uses(cid, act, side):
                nxt = (after, side, unused - {cid})
                if dist.get(nxt, 99) > d + 1:
                    dist[nxt] = d + 1
                    queue.append((d + 1, nxt))
    return best


@cache
def _met(cost, dice: tuple[int, ...]) -> bool:
    """Does the cost take these dice (asked once for each cost and dice, not once for
    each position that holds them)."""
    return cost.met(counts_of(dice))


@cache
def _uses(cid: str, active: tuple[int, ...], aside: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The active dice after each use of ``cid``'s ability the dice allow, sorted (its
    ``moves``, asked once for each card and dice)."""
    out = []
    for before, after in COURT.card(cid).ability.moves(counts_of(active), counts_of(aside)):
        rest = list(active)
        for v in before:
            rest.remove(v)
        out.append(tuple(sorted(rest + list(after))))
    return out


def playing(active, aside, cards) -> GameState:
    """Ann's turn after a throw: she owns ``cards``; the dice lie as given."""
    s = new_game(["Ann", "Ben"])
    left = list(s.left)
    for cid in cards:
        left[[c.id for c in COURT].index(cid)] -= 1
    s = replace(s, owned=(tuple(cards), ()), left=tuple(left))
    return replace(s, dice=TurnDice(0, tuple(active), tuple(aside), 1, True))


def replay(state: GameState, plan) -> GameState:
    for step in plan.steps:
        state = apply(state, parse_action(step.action))
    if state.dice.active:
        state = apply(state, parse_action("aside " + " ".join(map(str, state.dice.active))))
    return apply(state, parse_action(f"buy {plan.card}"))


def check_position(active, aside, cards, bid=None):
    wanted = {cid: cost for cid, cost in TARGETS.items() if cid not in cards}
    if bid is not None:
        wanted["bid"] = bid
    plans = reach(active, aside, {c: COURT.card(c).ability for c in cards}, wanted)
    expected = brute_force(active, aside, cards, wanted)
    assert {cid: p.uses for cid, p in plans.items()} == expected
    for plan in plans.values():
        if plan.card in ("scharlatan", "bid"):
            continue  # needs a Hofnarr of one's own; the dice part is what is checked
        s = replay(playing(active, aside, cards), plan)
        assert plan.card in s.owned[0]


@settings(max_examples=80, deadline=None)
@given(active=st.lists(st.integers(1, 6), min_size=1, max_size=4),
       aside=st.lists(st.integers(1, 6), max_size=3),
       cards=st.lists(st.sampled_from(PLANNED), max_size=4, unique=True),
       bid=st.none() | st.builds(Beats, st.integers(1, 6), st.integers(1, 6), st.booleans()))
def test_reach_equals_brute_force_and_its_plans_buy_the_card(active, aside, cards, bid):
    check_position(active, aside, cards, bid)


@pytest.mark.parametrize("active, aside, cards", [
    ((1, 3, 3, 6), (), ("handwerker", "edelmann", "astronom")),  # the rulebook's example
    ((5, 3, 1), (), ("philosoph", "alchemist", "zauberer")),
    ((2, 2, 6), (4,), ("astronom", "hofdame", "dienstmagd", "wachmann")),
    ((6, 6, 6), (), ("hofdame", "edelmann", "dienstmagd")),
    ((1,), (5, 5), ("astronom", "bischof", "ritter")),
    ((4, 4, 4, 2, 1), (), ("jaeger", "ritter", "bischof", "hofdame", "edelmann")),
    # six cards, the deepest layer expanded first under each limit; the Feldherr and
    # the König are out of reach, and the search gives up after six uses, not later
    ((3, 2, 2, 5), (), ("hofdame", "pfandleiher", "bischof", "wachmann", "ritter",
                        "alchemist")),
])
def test_hand_picked_positions(active, aside, cards):
    check_position(active, aside, cards)


def test_the_rulebook_example_needs_three_uses_and_an_astronom_copy():
    court = COURT
    cards = ("bauer", "handwerker", "edelmann", "astronom")
    plans = reach((1, 3, 3, 6), (), {c: court.card(c).ability for c in cards},
                  {"ritter": court.card("ritter").cost})
    plan = plans["ritter"]
    assert plan.uses == 3
    actions = [s.action for s in plan.steps]
    assert actions[0] == "use handwerker -> 1"  # bringing a die in comes first
    assert "use edelmann 1 1 -> 3 3" in actions
    assert actions.index("aside 3") + 1 == actions.index("use astronom 6 -> 3")
    s = replay(playing((1, 3, 3, 6), (), cards), plan)
    assert s.owned[0][-1] == "ritter"


def test_luck_is_not_planned():
    plans = reach((1, 2, 3), (), {"hofnarr": COURT.card("hofnarr").ability,
                                  "haendler": COURT.card("haendler").ability},
                  {"wachmann": COURT.card("wachmann").cost})
    assert plans == {}


def test_what_the_dice_already_pay_needs_no_step():
    plans = reach((2, 2), (2,), {}, {"wachmann": COURT.card("wachmann").cost,
                                     "jaeger": COURT.card("jaeger").cost})
    assert list(plans) == ["wachmann"] and plans["wachmann"].steps == ()


def test_the_queen_is_never_a_target():
    assert reach((6,) * 7, (), {}, {"koenigin": COURT.card("koenigin").cost}) == {}


def test_beating_a_bid():
    assert Beats(3, 4).met(counts_of([5, 5, 5])) and not Beats(3, 4).met(counts_of([4, 4, 4]))
    assert Beats(3, 4, ties=True).met(counts_of([4, 4, 4, 1]))
    assert Beats(3, 6).met(counts_of([1, 1, 1, 1])) and not Beats(3, 6).met(counts_of([6, 6]))


def test_a_pip_move_turns_an_even_number_of_dice_to_the_other_parity():
    """The Alchemist moves pips between three dice and keeps their sum: three odd dice
    never become three even ones, two can; the bound knows it and the brute force agrees."""
    for active, even in (((1, 3, 5), False), ((1, 3, 4), True)):
        check_position(active, (), ["alchemist"])
        plans = reach(active, (), {"alchemist": COURT.card("alchemist").ability},
                      {"philosoph": COURT.card("philosoph").cost})
        assert ("philosoph" in plans) is even


@settings(max_examples=150, deadline=None)
@given(active=st.lists(st.integers(1, 6), min_size=1, max_size=5),
       aside=st.lists(st.integers(1, 6), max_size=2),
       cards=st.lists(st.sampled_from(PLANNED), max_size=4, unique=True),
       n=st.integers(2, 7))
def test_the_bound_on_uses_for_equal_dice_never_overestimates(active, aside, cards, n):
    """The search waits with a position while its depth plus this bound exceeds a limit;
    a bound above the true fewest uses would hide the shortest plan."""
    check_the_bound(active, aside, cards, n)


RAISING = ["alchemist", "philosoph", "dienstmagd", "hofdame", "edelmann", "astronom",
           "handwerker", "wachmann", "jaeger", "pfandleiher", "ritter", "bischof"]


@settings(max_examples=150, deadline=None)
@given(active=st.lists(st.integers(1, 6), min_size=2, max_size=5),
       aside=st.lists(st.integers(1, 6), max_size=2),
       cards=st.lists(st.sampled_from(RAISING), min_size=2, max_size=4, unique=True),
       n=st.integers(3, 7))
def test_the_bound_never_overestimates_with_pip_moves_and_raises(active, aside, cards, n):
    """The same, drawn from the cards whose counting is subtle: pip moves (both sides of
    a number), raising cards (dice they lift, the Dienstmagd's die) and dice brought in."""
    check_the_bound(active, aside, cards, n)


def check_the_bound(active, aside, cards, n):
    """The bound for n equal dice is at most the brute force's fewest uses, and says
    never only where the brute force finds no way."""
    target = {"kind": Groups((n,))}
    fewest = brute_force(active, aside, cards, target).get("kind")
    bound = _uses_for_kind(counts_of(active), counts_of(aside),
                           _kinds(tuple(COURT.card(c).ability for c in sorted(cards))), n)
    if bound is None:
        assert fewest is None
    elif fewest is not None:
        assert bound <= fewest


def test_a_pip_move_may_turn_dice_to_a_number_a_raising_card_lifts():
    """2 5 5 -> 4 4 4 with the Alchemist, then the Edelmann lifts the three 4s: seven
    sixes in three uses. A pip move cannot turn all its dice to a 6, but it can turn
    them all to a 4; the bound must count that (it once said four uses)."""
    active, aside = (2, 5, 5, 6), (6, 6)
    cards = ["alchemist", "bischof", "edelmann", "pfandleiher"]
    assert brute_force(active, aside, cards, {"kind": Groups((7,))}) == {"kind": 3}
    kinds = _kinds(tuple(COURT.card(c).ability for c in cards))
    bound = _uses_for_kind(counts_of(active), counts_of(aside), kinds, 7)
    assert bound is not None and bound <= 3
    plans = reach(active, aside, {c: COURT.card(c).ability for c in cards},
                  {"koenig": COURT.card("koenig").cost})
    assert plans["koenig"].uses == 3


@settings(max_examples=150, deadline=None)
@given(active=st.lists(st.integers(1, 6), min_size=1, max_size=5),
       aside=st.lists(st.integers(1, 6), max_size=2),
       cards=st.lists(st.sampled_from(PLANNED), max_size=4, unique=True),
       at_least=st.integers(10, 36))
def test_the_bound_on_uses_for_a_sum_never_overestimates(active, aside, cards, at_least):
    """The search waits with a position by this bound too when a sum card is wanted (the
    Pfandleiher's 30); it must never be above the brute force's fewest uses, and say
    never only where the brute force finds no way."""
    fewest = brute_force(active, aside, cards, {"sum": SumAtLeast(at_least)}).get("sum")
    bound = _uses_for_sum(counts_of(active), counts_of(aside),
                          tuple(COURT.card(c).ability for c in sorted(cards)), at_least)
    if bound is None:
        assert fewest is None
    elif fewest is not None:
        assert bound <= fewest

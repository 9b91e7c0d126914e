"""Um Krone und Kragen: each ability's rule, and its move list for the reach solver.

The solver plans with ``moves``; the game judges with ``check``. On small dice the two
must describe exactly the same uses, found here by trying every possible use.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.ukuk.abilities import after_use
from rules.ukuk.costs import counts_of
from rules.ukuk.court import load_court

COURT = load_court()
PLANNED = [c for c in COURT if c.ability.deterministic]


def sub_multisets(values):
    out = set()
    for n in range(len(values) + 1):
        out.update(itertools.combinations(sorted(values), n))
    return out


def every_use(active, with_new: bool):
    """Every (before, after) a player could type: before from the active dice."""
    for before in sub_multisets(active):
        sizes = [len(before)] + ([1] if with_new and not before else [])
        for size in sizes:
            for after in itertools.combinations_with_replacement(range(1, 7), size):
                if size:
                    yield before, after


def legal(card, before, after, active, aside) -> bool:
    try:
        card.ability.check(card.label("de"), before, after, active, aside)
    except RuleError:
        return False
    return True


dice = st.lists(st.integers(1, 6), min_size=0, max_size=4)


@given(active=dice, aside=st.lists(st.integers(1, 6), max_size=2))
def test_moves_are_exactly_the_legal_uses(active, aside):
    for card in PLANNED:
        generated = {(tuple(sorted(b)), tuple(sorted(a)))
                     for b, a in card.ability.moves(counts_of(active), counts_of(aside))}
        checked = {(b, a) for b, a in every_use(active, with_new=True)
                   if legal(card, b, a, active, aside)}
        assert generated == checked, card.id


@pytest.mark.parametrize("card, before, after, reason", [
    ("dienstmagd", (5,), (7,), "cannot raise a 5 to 7: no die goes above 6"),
    ("dienstmagd", (1,), (6,), "adds 1, 2 or 3 to a die, so 1 cannot become 6"),
    ("dienstmagd", (2, 3), (3, 4), "raises one active die, not 2"),
    ("hofdame", (6,), (7,), "cannot raise a 6: 6 \\+ 1 is more than 6"),
    ("edelmann", (5, 1), (7, 3), "cannot raise a 5"),
    ("edelmann", (1, 1), (3, 2), "adds exactly 2 to each die"),
    ("philosoph", (5, 1), (4, 3), "keeps the sum"),
    ("philosoph", (5, 1), (1, 5), "changes nothing"),
    ("philosoph", (5, 1, 1), (3, 3, 1), "exactly 2 active dice"),
    ("alchemist", (6, 2), (4, 4), "exactly 3 active dice"),
    ("astronom", (6,), (3,), "number of a set-aside die \\(4\\), not 3"),
    ("zauberer", (6,), (6,), "changes nothing"),
    ("handwerker", (), (2,), "shows 1, not 2"),
    ("hofnarr", (3, 4), (1, 1), "throws one active die again, not 2"),
    ("bauer", (), (), "not used during a turn"),
    ("koenig", (), (), "no ability"),
    ("zauberer", (2,), (5,), "no active die showing 2"),
])
def test_refusals_name_the_rule(card, before, after, reason):
    active, aside = (5, 1, 6, 1, 3), (4,)
    with pytest.raises(RuleError, match=reason):
        c = COURT.card(card)
        c.ability.check(c.label("de"), before, after, active, aside)


def test_astronom_with_nothing_set_aside():
    c = COURT.card("astronom")
    with pytest.raises(RuleError, match="none is set aside yet"):
        c.ability.check("Astronom", (6,), (3,), (6, 3), ())


def test_complete_fills_in_what_the_rule_decides():
    assert COURT.card("hofdame").ability.complete((2, 3), None) == ((2, 3), (3, 4))
    assert COURT.card("edelmann").ability.complete((1, 1), None) == ((1, 1), (3, 3))
    assert COURT.card("handwerker").ability.complete((), None) == ((), (1,))
    assert COURT.card("koenigin").ability.complete((5,), None) == ((), (5,))
    with pytest.raises(RuleError, match="say what the dice show afterwards"):
        COURT.card("hofnarr").ability.complete((3,), None)


def test_after_use_keeps_places_and_adds_new_dice_last():
    assert after_use((5, 3, 1), (5, 1), (3, 3)) == (3, 3, 3)
    assert after_use((1, 3, 3, 6), (), (1,)) == (1, 3, 3, 6, 1)
    assert after_use((4, 2), (2,), (6,)) == (4, 6)

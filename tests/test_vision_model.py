"""The fitted reader's decision layer on synthetic faces: each term of a choice's
log-probability, the choices weighed, and the one doubt rule (``vision.choose``,
``vision.doubt``). No frame is rendered and no fitted number is pinned: the tests use
``habakit.MODEL``, weights of the signs the physics gives."""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest
from habakit import COLORS, MODEL, belief, face, seen
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import Color
from vision.choose import (
    POOL,
    TERMS,
    chances,
    choices,
    inward,
    lies_as_side,
    side_faces,
    terms,
    weigh,
)
from vision.consistency import Belief, layout_chances, obeying
from vision.doubt import MODEL_TOML, ReaderModel, decide, default_model
from vision.faces import apart, one_place
from vision.habanet import FoundFace
from vision.palette import Palette

PALETTE = Palette.default()
SHAPE = MODEL.shape
CLIP = SHAPE.clip
T = {name: k for k, name in enumerate(TERMS)}


def _layouts(s):
    return [layout_chances(f.belief, COLORS) for f in s.faces]


def _read(s, count: int | None, told: bool, model: ReaderModel = MODEL):
    return decide(s, weigh(s, count, told, COLORS, SHAPE), model, PALETTE)


def _every(s, count: int, model: ReaderModel = MODEL):
    """Read told ``count`` dice, every chosen face read (none dropped as unlikely a die)."""
    return decide(s, weigh(s, count, True, COLORS, SHAPE), model, PALETTE, leave_out=False)


def _row(x: float, n: int, gap: float = 200.0) -> list:
    """``n`` sure faces in a row, two of each layout (A: red 2, B: red 3, C: red 1...)."""
    dice = [(2, Color.RED), (5, Color.RED), (3, Color.RED), (4, Color.RED), (1, Color.RED),
            (6, Color.RED)]
    return [face(x + gap * k, value=v, color=c, b=belief(v, c, 0.999, 0.999))
            for k, (v, c) in enumerate(dice[:n])]


_spots = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2), st.floats(0.05, 0.99)),
                  min_size=0, max_size=12)


@settings(max_examples=80, deadline=None)
@given(_spots, st.integers(0, 7), st.booleans())
def test_every_choice_is_one_die_per_place_within_the_count(spots, count: int, told: bool
                                                           ) -> None:
    """Brute force over every set of pooled faces: the choices are exactly those with no two
    faces in one place, of at most ``count`` (told or not: any die may be hidden), fewest
    faces first and each length in the order of ``itertools.combinations``; faces beyond the
    POOL most die-like are never chosen. ``weigh`` keeps which faces each choice holds."""
    faces = [face(100.0 + 25.0 * x, 100.0 + 25.0 * y, is_die=d) for x, y, d in spots]
    s = seen(faces)
    got = list(choices(s, count))
    w = weigh(s, count, told, COLORS, SHAPE)
    assert tuple(got) == w.choices
    held = np.zeros((len(got), len(faces)), dtype=bool)
    for row, c in enumerate(got):
        held[row, list(c)] = True
    assert np.array_equal(w.membership(len(faces)), held)
    pooled = sorted(sorted(range(len(faces)), key=lambda k: 1 - faces[k].is_die)[:POOL])
    most = min(count, len(pooled))
    expected = [c for n in range(most + 1) for c in combinations(pooled, n)
                if not any(one_place(faces[a].found, faces[b].found)
                           for a, b in combinations(c, 2))]
    assert got == expected


def test_the_pip_reader_and_finder_terms_are_log_odds_of_the_faces_chosen() -> None:
    s = seen([face(100, is_die=0.9, found=0.5), face(400, is_die=0.2, found=0.8)])
    row = terms(s, (0, 1), True, _layouts(s), SHAPE)
    assert row[T["pips"]] == pytest.approx(math.log(9) + math.log(0.25))
    assert row[T["finder"]] == pytest.approx(math.log(4))
    assert row[T["dice_told"]] == 2 and row[T["dice_free"]] == 0
    sure = seen([face(100, is_die=1.0)])
    assert terms(sure, (0,), False, _layouts(sure), SHAPE)[T["pips"]] == CLIP


def test_the_size_term_is_nought_for_dice_of_one_size_and_grows_with_the_odd_one() -> None:
    even = seen([face(100), face(300), face(500)])
    odd = seen([face(100), face(300), face(500, side=36.0)])
    assert terms(even, (0, 1, 2), True, _layouts(even), SHAPE)[T["size"]] == 0
    assert terms(odd, (0, 1, 2), True, _layouts(odd), SHAPE)[T["size"]] == pytest.approx(
        math.log(0.6) ** 2)


@given(st.floats(0.01, 0.99), st.floats(0, 1), st.floats(-300, 300), st.floats(-300, 300))
def test_the_pair_and_inward_terms_change_sign_with_the_face_kept(
        top: float, rest: float, mx: float, my: float) -> None:
    """Of two faces beside each other, keeping one and leaving out the other scores the log
    of the pair network's chance of that, and how much further inward the kept one lies;
    the two ways differ by the network's log-odds, and the inward term changes sign.
    Keeping both or neither scores the network's "neither or both"."""
    under = (1 - top) * rest
    s = seen([face(600, 480), face(650, 470)], {(0, 1): top, (1, 0): under},
             middle=(640 + mx, 480 + my))
    a, b = terms(s, (0,), True, _layouts(s), SHAPE), terms(s, (1,), True, _layouts(s), SHAPE)
    assert a[T["inward"]] == pytest.approx(-b[T["inward"]], abs=1e-9)
    assert a[T["pair"]] == pytest.approx(max(math.log(top), -CLIP))
    assert b[T["pair"]] == pytest.approx(max(math.log(max(under, 1e-12)), -CLIP))
    for chosen in ((0, 1), ()):
        both = terms(s, chosen, True, _layouts(s), SHAPE)
        assert both[T["pair"]] == pytest.approx(max(math.log(max(1 - top - under, 1e-12)),
                                                    -CLIP))
        assert both[T["inward"]] == 0


def test_the_inward_term_marks_the_face_towards_the_middle() -> None:
    """Far out on the right, of two faces side by side the left one lies towards the middle:
    keeping it scores a positive ``inward`` term (a die's side shows towards the middle)."""
    s = seen([face(1100, 480), face(1160, 480)], {(0, 1): 0.5, (1, 0): 0.5})
    assert terms(s, (0,), True, _layouts(s), SHAPE)[T["inward"]] > 1.5


def test_a_face_lying_as_another_s_side_is_marked() -> None:
    top, side = face(300, side=60.0), face(335, side=40.0)
    assert lies_as_side(side, top, SHAPE) and not lies_as_side(top, side, SHAPE)
    s = seen([top, side])
    assert list(side_faces(s, SHAPE)) == [0, 1]
    far_off = replace(SHAPE, side_shrink=0.5)  # a side this close and small lies nowhere
    assert not lies_as_side(side, top, far_off) and list(side_faces(s, far_off)) == [0, 0]
    assert terms(s, (1,), True, _layouts(s), SHAPE)[T["side"]] == 1
    assert terms(s, (0,), True, _layouts(s), SHAPE)[T["side"]] == 0


def test_the_last_roll_s_terms_count_the_chosen_faces_moved_and_lying_still() -> None:
    """A face whose place changed since the last roll counts as ``moved``, unless a face lies
    beside it (a die's top and side both changed); one whose place did not, where no die of
    that roll lay, as ``still``; a die kept where it lay, and any face without the last
    roll's picture, as neither."""
    edge = SHAPE.changed_from
    faces = [replace(face(100 + 200 * k), change=c, kept=kept)
             for k, (c, kept) in enumerate([(edge + 9, False), (edge, False), (edge - 1, False),
                                            (edge - 1, True), (None, False)])]
    s = seen(faces)
    row = {k: terms(s, (k,), True, _layouts(s), SHAPE) for k in range(5)}
    assert [row[k][T["moved"]] for k in range(5)] == [1, 1, 0, 0, 0]
    assert [row[k][T["still"]] for k in range(5)] == [0, 0, 1, 0, 0]
    both = terms(s, (0, 2), True, _layouts(s), SHAPE)
    assert both[T["moved"]] == 1 and both[T["still"]] == 1
    top, side = (replace(face(300 + 40 * k), change=edge + 9) for k in range(2))
    pair = seen([top, side], {(0, 1): 0.5, (1, 0): 0.3})
    assert [terms(pair, (k,), True, _layouts(pair), SHAPE)[T["moved"]] for k in (0, 1)] == [0, 0]


def test_told_the_count_a_face_lying_still_is_not_taken_for_a_covered_die() -> None:
    """Told six and shown five dice thrown and a sixth face the pip reader doubts is a die:
    where it lay as it lay in the last roll's picture (a die printed on a card) it is not
    read as the sixth die, and the table is asked; where something moved in it is read.
    However sure the pip reader, a face lying still never makes the reading likelier."""
    five = [replace(f, change=40.0) for f in _row(100, 5)]
    doubted = face(1300, value=6, color=Color.RED, is_die=0.2)
    still, moved = (_read(seen([*five, replace(doubted, change=c)]), 6, True)
                    for c in (2.0, 40.0))
    assert len(still.dice) == 5 and still.chance < MODEL.threshold
    assert len(moved.dice) == 6 and moved.chance >= MODEL.threshold
    for is_die in (0.2, 0.5, 0.9, 0.99):
        printed = face(1300, value=6, color=Color.RED, is_die=is_die)
        lying, thrown = (_every(seen([*five, replace(printed, change=c)]), 6)
                         for c in (2.0, 40.0))
        assert lying.chance <= thrown.chance


@pytest.mark.parametrize(("values", "obeys"), [((2, 6), True), ((2, 6, 1), False)])
def test_the_box_term_rules_out_three_dice_of_one_layout(values: tuple[int, ...],
                                                         obeys: bool) -> None:
    """Red 2, green 6 and green 1 are all layout A's: two dice of it obey the box, three
    never do."""
    colors = {2: Color.RED, 6: Color.GREEN, 1: Color.GREEN}
    s = seen([face(100 + 200 * k, value=v, color=colors[v], b=belief(v, colors[v], 1.0, 1.0))
              for k, v in enumerate(values)])
    box = terms(s, tuple(range(len(values))), True, _layouts(s), SHAPE)[T["box"]]
    assert (box == pytest.approx(0, abs=1e-9)) == obeys
    assert obeys or box == -2 * CLIP


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=len(TERMS), max_size=len(TERMS)),
       st.lists(st.floats(0.05, 0.99), min_size=1, max_size=7), st.integers(1, 6))
def test_chances_are_a_distribution_ordered_by_the_weighed_terms(weights, dies, count) -> None:
    s = seen([face(100 + 150 * k, is_die=d) for k, d in enumerate(dies)])
    w = weigh(s, count, True, COLORS, SHAPE)
    p = chances(w, np.array(weights))
    assert p.sum() == pytest.approx(1) and (p >= 0).all()
    logp = w.terms @ np.array(weights)
    assert p[int(np.argmax(logp))] == pytest.approx(p.max())  # ties may break either way
    assert np.all(np.diff(p[np.argsort(logp)]) >= -1e-12)  # ordered as the weighed terms


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(COLORS), st.floats(0.3, 1.0),
                          st.floats(0.3, 1.0), st.floats(0.05, 0.99)), min_size=1, max_size=7),
       st.floats(0.05, 0.95), st.integers(1, 6), st.booleans())
def test_the_table_is_asked_exactly_when_the_reading_is_less_likely_than_the_threshold(
        spec, threshold: float, count: int, told: bool) -> None:
    """The one doubt rule: some die is marked unsure if and only if the reading's
    probability is below the threshold (told the count: or fewer dice are read than were
    thrown); no die is surer than its own evidence allows and none less sure than the
    reading."""
    faces = [face(100 + 150 * k, is_die=d, b=belief(v, c, vs, cs))
             for k, (v, c, vs, cs, d) in enumerate(spec)]
    reading = _read(seen(faces), count, told, replace(MODEL, threshold=threshold))
    unsure = any(not d.confident for d in reading.dice)
    if told:
        assert not unsure or reading.chance < threshold
        if reading.chance < threshold:
            assert unsure or len(reading.dice) < count
    else:
        assert unsure == (reading.chance < threshold and bool(reading.dice))
    assert all((d.why is None) == d.confident for d in reading.dice)  # each unsure says why
    for d in reading.dice:
        assert d.confidence >= min(reading.chance, threshold) - 1e-9 or not d.confident
        assert d.confidence <= 1


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 0.99), st.floats(0.0, 2.0), st.floats(0.05, 0.95))
def test_a_face_feared_to_be_a_side_lowers_the_reading_and_is_the_die_marked(
        under: float, side_doubt: float, threshold: float) -> None:
    """Two sure dice far apart, and beside the first a face no die, the pair network fearing
    (``under``) that this face is a die's top and the first its side: read told two dice
    (every chosen face read, none dropped), the reading's probability is the one without the
    side doubt times (1 - under) to the power of the side doubt; below the threshold, the
    table is asked, the feared die the least sure."""
    faces = [face(300, value=3), face(900, value=4, color=Color.BLUE),
             face(355, value=6, is_die=0.01)]
    s = seen(faces, {(0, 2): 0.0, (2, 0): under})
    model = replace(MODEL, threshold=threshold, side_doubt=side_doubt)
    plain, feared = _every(s, 2, replace(model, side_doubt=0.0)), _every(s, 2, model)
    assert [d.center for d in feared.dice] == [d.center for d in plain.dice]
    assert feared.chance == pytest.approx(plain.chance * (1 - under) ** side_doubt)
    unsure = [d.center for d in feared.dice if not d.confident]
    assert bool(unsure) == (feared.chance < threshold)
    assert all((d.why is None) == d.confident for d in feared.dice)
    if unsure and (1 - under) ** side_doubt < 0.5:
        least = min(feared.dice, key=lambda d: d.confidence)
        assert least.center == faces[0].found.center and least.why == "side"


def test_a_die_s_side_is_never_read_as_its_top() -> None:
    """A die's top and, beside it, a smaller face where its side shows, the pip reader
    taking both for dice and the pair network calling the top the top: told one die or
    not, the top is read, surely."""
    top = face(900, 480, value=3, color=Color.RED, b=belief(3, Color.RED, 0.999, 0.999))
    side = face(870, 480, value=5, color=Color.GREEN, side=42.0, is_die=0.95)
    s = seen([top, side], {(0, 1): 0.9, (1, 0): 0.05})
    for count, told in ((1, True), (6, False)):
        reading = _read(s, count, told)
        assert [d.center for d in reading.dice] == [top.found.center]
        assert reading.dice[0].confident


def test_a_leaning_die_s_two_faces_alike_ask() -> None:
    """Two faces of one leaning die, as big and as die-like as each other, the pair network
    torn, near the middle of the frame: whichever is read, the table is asked."""
    s = seen([face(610, 480, value=3), face(670, 480, value=5, color=Color.GREEN)],
             {(0, 1): 0.45, (1, 0): 0.45})
    reading = _read(s, 1, True)
    assert len(reading.dice) == 1 and not reading.dice[0].confident
    assert reading.dice[0].why in ("die", "side")  # which face is the top is in doubt


def test_a_face_torn_between_two_values_asks_and_is_the_die_marked() -> None:
    """A red 3 or 5 beside a sure red 2: the box allows both (layouts B and A), so the
    table is asked about that die and no other. Beside two dice of layout A, a red 5 would
    be a third: the box reads it a 3, surely."""
    torn = Belief(np.array([0.0, 0.0, 0.5, 0.0, 0.5, 0.0]), belief(3, Color.RED).color)
    faces = [*_row(100, 1), face(900, b=torn)]
    reading = _read(seen(faces), 2, True)
    unsure = [d for d in reading.dice if not d.confident]
    assert [d.center for d in unsure] == [faces[1].found.center]
    assert unsure[0].why == "value"
    settled = _read(seen([*_row(100, 2), face(900, b=torn)]), 3, True)
    assert all(d.confident for d in settled.dice)
    assert [d.value for d in settled.dice if d.center == (900, 100.0)] == [3]


def test_the_box_settles_a_face_torn_between_two_colours() -> None:
    """Two sure dice of layout A (red 2, green 6) and a 1 torn between green (layout A:
    a third die of it) and red (layout C): the box reads it red, surely."""
    a2 = face(100, value=2, color=Color.RED, b=belief(2, Color.RED, 0.999, 0.999))
    a6 = face(300, value=6, color=Color.GREEN, b=belief(6, Color.GREEN, 0.999, 0.999))
    colors = np.array([0.5 if c in (Color.GREEN, Color.RED) else 0.0 for c in COLORS])
    torn = face(500, b=Belief(belief(1, Color.RED, 0.999).value, colors))
    reading = _read(seen([a2, a6, torn]), 3, True)
    third = [d for d in reading.dice if d.center == torn.found.center]
    assert third[0].color is Color.RED and all(d.confident for d in reading.dice)


def test_told_the_count_a_faint_die_is_read_not_told_it_is_left_out() -> None:
    """Five sure dice and a sixth face the pip reader calls a die only at 0.1: told six were
    thrown, the count takes it (six dice read); not told, five are read."""
    faces = [*_row(100, 5), face(1100, value=6, is_die=0.1)]
    s = seen(faces)
    assert len(_read(s, 6, True).dice) == 6
    assert len(_read(s, 6, False).dice) == 5


def test_told_the_count_a_face_unlikely_a_die_is_not_taken_for_the_missing_one() -> None:
    """Five sure dice and a sixth face the pip reader calls a die at 0.025 (a finger over a
    hidden die, a die printed on a citizen card), alone in its place: told six, the likeliest
    choice takes it, but a die there is less likely than the threshold: five dice are read,
    and the table is asked whether one is covered; not told, five are read."""
    faces = [*_row(100, 5), face(1100, value=6, is_die=0.025)]
    s = seen(faces)
    weighed = weigh(s, 6, True, COLORS, SHAPE)
    assert 5 in weighed.choices[int(np.argmax(chances(weighed, MODEL.weights)))]
    for told in (True, False):
        reading = _read(s, 6, told)
        assert [d.center for d in reading.dice] == [f.found.center for f in faces[:5]]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(COLORS), st.floats(0.05, 0.99)),
                min_size=1, max_size=7), st.floats(0.05, 0.95), st.integers(1, 6))
def test_told_the_count_exactly_the_faces_where_a_die_is_unlikely_are_dropped(
        spec, threshold: float, count: int) -> None:
    """Told the count, the reading is the one read again to check doubtful dice gives
    (``leave_out=False``), without the chosen faces where the chance of a die (the face or
    one beside it chosen, summed over the choices) is below the threshold; and when one is
    dropped, the reading is unsure (the table asks). Faces 70 px apart are beside each
    other."""
    s = seen([face(100 + 70 * k, is_die=d, b=belief(v, c, 0.9, 0.95))
              for k, (v, c, d) in enumerate(spec)],
             {(a, a + 1): 0.3 for a in range(len(spec) - 1)}
             | {(a + 1, a): 0.3 for a in range(len(spec) - 1)})
    model = replace(MODEL, threshold=threshold)
    weighed = weigh(s, count, True, COLORS, SHAPE)
    told = decide(s, weighed, model, PALETTE)
    whole = decide(s, weighed, model, PALETTE, leave_out=False)
    p = chances(weighed, model.weights)
    there = {k: sum(q for c, q in zip(weighed.choices, p, strict=True)
                    if {k - 1, k, k + 1} & set(c)) for k in whole.chosen}
    kept = [n for n, k in enumerate(whole.chosen) if there[k] >= threshold]
    assert told.chosen == tuple(whole.chosen[n] for n in kept)
    assert told.dice == tuple(whole.dice[n] for n in kept)
    assert told.chance == whole.chance
    if len(kept) < len(whole.chosen):
        assert told.chance < threshold


def test_nothing_to_choose_reads_no_dice() -> None:
    reading = _read(seen([]), 6, True)
    assert reading.dice == () and reading.chance == 1.0


def test_apart_keeps_the_surer_of_two_finds_in_one_place() -> None:
    sure, faint = FoundFace((100, 100), 60, 0, 0.9), FoundFace((120, 100), 60, 0, 0.4)
    far = FoundFace((200, 100), 60, 0, 0.3)
    assert apart([faint, far, sure]) == [sure, far]
    assert apart([faint], [sure]) == []


def test_the_model_file_reads_back_what_it_wrote_and_names_its_fit() -> None:
    model = replace(MODEL, fitted_by="tools/fit_haba_reader.py tune:0-9", date="2026-11-28",
                    side_doubt=0.7, outside=0.45, telling_tilt=12.5,
                    tray_fitted_by="tools/fit_haba_reader.py tune:0-9 --tray-only",
                    kept_below=8.0, kept_fitted_by="tools/fit_haba_reader.py tune:0-9 --kept-only")
    back = ReaderModel.from_toml(model.to_toml())
    assert np.allclose(back.weights, model.weights) and back.threshold == model.threshold
    assert back.side_doubt == model.side_doubt and back.temperature == model.temperature
    assert back.fitted_by == model.fitted_by and back.date == model.date
    assert back.shape == model.shape
    assert back.outside == model.outside and back.tray_fitted_by == model.tray_fitted_by
    assert back.telling_tilt == model.telling_tilt
    assert back.kept_below == model.kept_below and back.kept_fitted_by == model.kept_fitted_by
    shipped = default_model()
    for fit in (shipped.fitted_by, shipped.tray_fitted_by, shipped.kept_fitted_by):
        assert fit.startswith("tools/fit_haba_reader.py ") and shipped.date
        assert "stress:" not in fit and "table:" not in fit and "lens:" not in fit
    assert 0 < shipped.threshold <= 1 and shipped.side_doubt >= 0
    assert 0 <= shipped.outside < 2  # a die's foot, not the whole frame
    assert 0 <= shipped.telling_tilt <= 30
    assert MODEL_TOML.is_file()
    with pytest.raises(ValueError, match="fit it again"):
        ReaderModel.from_toml('threshold = 0.5\ntemperature = 1.0\n[weights]\npips = 1.0\n')
    whole = model.to_toml()
    with pytest.raises(ValueError, match="side_doubt"):
        ReaderModel.from_toml(whole.replace("side_doubt", "#"))
    with pytest.raises(ValueError, match=r"shape\.side_shrink"):
        ReaderModel.from_toml(whole.replace("side_shrink", "#"))
    without_tray = whole[:whole.index("[tray]")]
    with pytest.raises(ValueError, match=r"tray\.outside"):
        ReaderModel.from_toml(without_tray)
    assert ReaderModel.from_toml(without_tray, tray=False, kept=False).outside == math.inf
    without_kept = whole[:whole.index("[kept]")]
    with pytest.raises(ValueError, match=r"kept\.below"):
        ReaderModel.from_toml(without_kept)
    assert ReaderModel.from_toml(without_kept, kept=False).kept_below == 0  # none kept
    assert 0 < shipped.kept_below < 20
    with pytest.raises(ValueError, match=r"tray\.telling_tilt"):
        ReaderModel.from_toml(whole.replace("telling_tilt", "#"))


def _as_side(f, top) -> bool:
    """Whether face ``f`` lies as the side of ``top``: beside it but not in its place, smaller
    than ``side_shrink`` of it and closer than that many of its sides."""
    gap, reach = math.dist(f.found.center, top.found.center), SHAPE.side_shrink * top.found.side
    return not one_place(f.found, top.found) and f.found.side < reach and gap < reach


def _one_by_one(s, chosen, told: bool, layouts) -> np.ndarray:
    """The terms of one choice, worked out face by face and pair by pair as
    :mod:`vision.choose`'s docstring states them: the oracle of the terms of all choices."""
    def logit(p: float) -> float:
        p = min(max(p, 1e-6), 1 - 1e-6)
        return max(-CLIP, min(CLIP, math.log(p / (1 - p))))
    faces = [s.faces[k] for k in chosen]
    sides = [f.found.side for f in faces]
    median = float(np.median(sides)) if sides else 1.0
    pair = side_in = 0.0
    for k, f in enumerate(s.faces):
        for n in f.neighbours:
            if n.index < k:
                continue
            mine, theirs = k in chosen, n.index in chosen
            answer = n.top if mine and not theirs else n.under if theirs and not mine \
                else 1.0 - n.top - n.under
            pair += max(math.log(max(answer, 1e-12)), -CLIP)
            if mine != theirs:
                kept, out = (f, s.faces[n.index]) if mine else (s.faces[n.index], f)
                side_in += (inward(kept, out, s.middle, SHAPE)
                            - inward(out, kept, s.middle, SHAPE))
    box = obeying([layouts[k] for k in chosen])
    return np.array([
        sum(logit(f.is_die) for f in faces), sum(logit(f.found.found) for f in faces),
        sum(math.log(x / median) ** 2 for x in sides), pair, side_in,
        sum(any(_as_side(f, g) for g in s.faces if g is not f) for f in faces),
        max(math.log(max(box, 1e-12)), -2 * CLIP),
        sum(f.change is not None and f.change >= SHAPE.changed_from and not f.neighbours
            for f in faces),
        sum(f.change is not None and f.change < SHAPE.changed_from and not f.kept
            for f in faces),
        len(faces) if told else 0.0, 0.0 if told else len(faces)])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(COLORS), st.floats(0.3, 1.0),
                          st.floats(0.05, 0.99), st.floats(20, 60), st.floats(0.0, 0.6),
                          st.floats(0.0, 0.4), st.none() | st.floats(0.0, 30.0),
                          st.booleans()), min_size=0, max_size=8),
       st.integers(1, 6), st.booleans())
def test_every_choice_is_weighed_as_its_terms_say(spec, count: int, told: bool) -> None:
    """``weigh`` works out all choices at once; each row equals the terms of its choice
    worked out one by one (the oracle), and :func:`terms` of it, for faces of any size, each
    asked of the pair network with the next, with or without the last roll's picture."""
    faces = [replace(face(100 + 45 * k, y=100 + 7 * k, is_die=d, side=side,
                          b=belief(v, c, vs, 0.9)), change=change, kept=kept)
             for k, (v, c, vs, d, side, _, _, change, kept) in enumerate(spec)]
    tops = {}
    for k, (*_, top, under, _, _) in enumerate(spec[:-1]):
        tops[k, k + 1], tops[k + 1, k] = top, under
    s = seen(faces, tops)
    w = weigh(s, count, told, COLORS, SHAPE)
    assert w.choices == tuple(choices(s, count))
    assert len(w.terms) == len(w.choices)
    # every row at once (half pytest.approx's tolerances: atol + rtol·|x| is then within
    # its max(rel·|x|, abs)); the faces' layout chances worked out once, not per choice
    rows = np.array(w.terms, dtype=float).reshape(len(w.choices), -1)
    layouts = _layouts(s)
    np.testing.assert_allclose(
        rows, [_one_by_one(s, chosen, told, layouts) for chosen in w.choices],
        rtol=5e-10, atol=5e-10, equal_nan=False)
    np.testing.assert_allclose(
        rows, [terms(s, chosen, told, layouts, SHAPE) for chosen in w.choices],
        rtol=5e-13, atol=5e-13, equal_nan=False)

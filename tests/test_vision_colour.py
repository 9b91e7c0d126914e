"""Face colour against in-frame references, the palette, and the box's physics."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.dice import HABA_LAYOUTS, Color
from rules.errors import DataError
from rules.kotd.cards import load_box, parse_box
from vision.consistency import (
    KEEP,
    MAX_OPTIONS,
    Belief,
    agreement,
    layout_chances,
    obeying,
    obeying_each,
    one_die,
    read_together,
)
from vision.facecolor import chroma_of, face_chroma
from vision.palette import Palette, bgr, calibrated

COLORS = (Color.RED, Color.GREEN, Color.BLUE)
BOX = load_box()
BOX_PAINT = {Color(k): bgr(v) for k, v in BOX.paint.items()}
BOX_PIPS = bgr(BOX.pips or "#ffffff")


def _face(paint: tuple[float, float, float], pip: tuple[float, float, float], value: int = 5,
          side: int = 37, crop: int = 48) -> np.ndarray:
    """A flat upright face crop: paint all over, pips of ``value`` in the standard places."""
    img = np.empty((crop, crop, 3), np.float32)
    img[:] = paint
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    ys, xs = np.mgrid[0:crop, 0:crop]
    for px, py in spots:
        cx, cy = crop / 2 + 0.27 * side * px, crop / 2 + 0.27 * side * py
        img[(xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2 <= (0.085 * side) ** 2] = pip
    return img


@settings(max_examples=60, deadline=None)
@given(st.tuples(*[st.floats(0.35, 1.6)] * 3), st.integers(1, 6), st.sampled_from(COLORS))
@example((1.0, 1.0, 0.359375), 1, Color.BLUE)
def test_chroma_does_not_see_the_light(gains, value, color) -> None:
    """Any lamp colour or white balance (a gain per channel) leaves the chroma alone, but
    for what the logarithm's guard against dark channels (log(x + 2)) itself moves it:
    ``chroma_of`` of the lit colours against the plain ones (a channel lit at a third of a
    dark paint moves it by up to 0.07; hypothesis found such a lamp)."""
    paint, pip = BOX_PAINT[color], BOX_PIPS
    lit_paint = tuple(p * g for p, g in zip(paint, gains, strict=True))
    lit_pip = tuple(p * g for p, g in zip(pip, gains, strict=True))
    plain = face_chroma(np.clip(_face(paint, pip, value), 0, 255).astype(np.uint8), 37)[0]
    lit = _face(lit_paint, lit_pip, value)
    seen = face_chroma(np.clip(lit, 0, 255).astype(np.uint8), 37)[0]
    guard = np.abs(chroma_of(lit_paint, lit_pip) - chroma_of(paint, pip)).max()
    unclipped = max(g * c for g, c in zip(gains, pip, strict=True)) < 255
    if unclipped:
        assert np.abs(seen - plain).max() < 0.06 + guard
    assert Palette.default().classify(seen)[0] is color or not unclipped


def test_default_palette_is_the_box_paint() -> None:
    """The colours come from the box's data file, not from the reader's code."""
    palette = Palette.default()
    assert set(palette.colors) == set(BOX_PAINT) == set(Color)
    for color, paint in BOX_PAINT.items():
        got, p = palette.classify(chroma_of(paint, BOX_PIPS))
        assert got is color and p > 0.95
    assert abs(sum(palette.chroma[Color.RED])) < 1e-9  # brightness taken out
    assert bgr("#c42a30") == (48.0, 42.0, 196.0)


def test_box_data_refuses_dice_colours_the_cards_do_not_use() -> None:
    import tomllib
    from importlib import resources

    base = tomllib.loads(resources.files("rules.kotd").joinpath(
        "data/king-of-the-dice.toml").read_text(encoding="utf-8"))
    for dice, why in [({"paint": {"red": "#ff0000", "yellow": "#ffff00"}}, "the cards use"),
                      ({"paint": {"red": "red", "green": "#00ff00", "blue": "#0000ff"}},
                       "#rrggbb"),
                      ({"pips": "#fff"}, "#rrggbb"), ("red", "must be a table")]:
        with pytest.raises(DataError, match=why):
            parse_box({**base, "dice": dice}, "box.toml")


def test_palette_file_round_trip_and_refusals(tmp_path) -> None:
    p = calibrated([(c, chroma_of(paint, BOX_PIPS) + 0.01) for c, paint in BOX_PAINT.items()])
    p.save(tmp_path / "x" / "p.json")
    back = Palette.load(tmp_path / "x" / "p.json")
    assert back.colors == p.colors and back.spread == pytest.approx(p.spread, abs=1e-4)
    for bad, why in [('{"version": 1, "centroids_lab": {}}', "older kotd"),
                     ('{"version": 2, "chroma": {"red": [1, 2, 3]}}', "red, green and blue"),
                     ("not json", "not a palette"), ("[1, 2]", "not a palette")]:
        (tmp_path / "bad.json").write_text(bad)
        with pytest.raises(ValueError, match=why):
            Palette.load(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="no die showing blue"):
        calibrated([(Color.RED, np.zeros(3)), (Color.GREEN, np.ones(3))])
    assert json.loads((tmp_path / "x" / "p.json").read_text())["version"] == 2


def _brute(beliefs: list[Belief]) -> tuple[tuple[tuple[int, Color], ...], list[float], float]:
    """Every reading of every die, the box's rule checked directly (no pair thrice): the
    likeliest, each die's chance of its reading there, and that reading's chance. A reading
    that gives a die a face and colour of no chance has no chance: those are left out (the
    same likeliest, as readings keep their order, and the same sums)."""
    pair = {(v, c): n for n, lay in HABA_LAYOUTS.items() for v, c in lay.items()}
    options = [(v, c) for v in range(1, 7) for c in COLORS]
    table = np.array([[b.value[v - 1] * b.color[COLORS.index(c)] for v, c in options]
                      for b in beliefs])
    readings = list(itertools.product(*[np.flatnonzero(row).tolist() for row in table]))
    ok = [all([pair[options[k]] for k in r].count(pair[options[k]]) <= 2 for k in r)
          for r in readings]
    idx = np.array(readings)
    w = np.prod(table[np.arange(len(beliefs)), idx], axis=1) * np.array(ok)
    best = idx[int(np.argmax(w))]
    total = max(float(w.sum()), 1e-300)  # 0 when no reading obeys the box
    chances = [float(w[idx[:, i] == best[i]].sum() / total) for i in range(len(beliefs))]
    return tuple(options[k] for k in best), chances, float(w.max() / total)


def _belief(draw_v: list[float], draw_c: list[float]) -> Belief:
    v = np.array(draw_v) + 1e-3
    c = np.array(draw_c) + 1e-3
    return Belief(v / v.sum(), c / c.sum())


beliefs = st.builds(_belief, st.lists(st.floats(0, 1), min_size=6, max_size=6),
                    st.lists(st.floats(0, 1), min_size=3, max_size=3))


@settings(max_examples=40, deadline=None)
@given(st.lists(beliefs, min_size=1, max_size=3))
def test_reading_together_agrees_with_brute_force(dice: list[Belief]) -> None:
    """Small cases against every reading: the same best reading, and the same chances (each
    die's and the reading's as a whole) whenever the search weighs every option of every
    die (it keeps a die's likeliest few)."""
    best, chances, whole = _brute(dice)
    got, chance = read_together(dice, COLORS)
    got_best = tuple((d.value, d.color) for d in got)
    brute_w = math.prod(b.value[v - 1] * b.color[COLORS.index(c)]
                        for b, (v, c) in zip(dice, best, strict=True))
    got_w = math.prod(b.value[v - 1] * b.color[COLORS.index(c)]
                      for b, (v, c) in zip(dice, got_best, strict=True))
    exhaustive = all(
        (np.outer(b.value, b.color) >= KEEP * np.outer(b.value, b.color).max()).sum()
        <= MAX_OPTIONS for b in dice)
    pairs = [next(n for n, lay in HABA_LAYOUTS.items() if lay[v] is c) for v, c in got_best]
    assert all(pairs.count(p) <= 2 for p in pairs)
    if exhaustive:
        assert got_w == pytest.approx(brute_w, rel=1e-9)
    if got_best == best and exhaustive:
        for d, want in zip(got, chances, strict=True):
            assert d.chance == pytest.approx(want, abs=0.02)
        assert chance == pytest.approx(whole, abs=0.02)


@settings(max_examples=40, deadline=None)
@given(st.lists(beliefs, min_size=1, max_size=3))
def test_agreement_is_the_chance_the_dice_obey_the_box(dice: list[Belief]) -> None:
    """Against every reading of up to three dice: ``agreement`` is the summed chance of the
    readings with no layout more than twice (exactly, when the search weighs every option
    of every die; it keeps a die's likeliest few)."""
    options = [(v, c) for v in range(1, 7) for c in COLORS]
    pair = {(v, c): n for n, lay in HABA_LAYOUTS.items() for v, c in lay.items()}
    total = 0.0
    for reading in itertools.product(options, repeat=len(dice)):
        names = [pair[o] for o in reading]
        if all(names.count(n) <= 2 for n in names):
            total += math.prod(b.value[v - 1] * b.color[COLORS.index(c)]
                               for b, (v, c) in zip(dice, reading, strict=True))
    got = agreement(dice, COLORS)
    assert 0.0 <= got <= total + 1e-9
    if all((np.outer(b.value, b.color) >= KEEP * np.outer(b.value, b.color).max()).sum()
           <= MAX_OPTIONS for b in dice):
        assert got == pytest.approx(total, rel=1e-9)


def _sparse(values: dict[int, float], colours: dict[int, float]) -> Belief:
    v, c = np.zeros(6), np.zeros(3)
    for k, p in values.items():
        v[k] = p
    for k, p in colours.items():
        c[k] = p
    return Belief(v / v.sum(), c / c.sum())


sparse_beliefs = st.builds(
    _sparse, st.dictionaries(st.integers(0, 5), st.floats(0.05, 1), min_size=1, max_size=2),
    st.dictionaries(st.integers(0, 2), st.floats(0.05, 1), min_size=1, max_size=2))


@settings(max_examples=60, deadline=None)
@given(st.lists(sparse_beliefs, min_size=1, max_size=4))
def test_a_reading_and_its_chance_against_every_reading(dice: list[Belief]) -> None:
    """Dice each torn between at most two values and two colours (every option weighed): the
    reading is a likeliest one that obeys the box, and its chance as a whole and each die's
    are those of every reading of all dice, exactly."""
    best, chances, whole = _brute(dice)
    got, chance = read_together(dice, COLORS)
    if whole == 0:  # no reading obeys the box: each die is read on its own
        return
    weight = [math.prod(b.value[v - 1] * b.color[COLORS.index(c)]
                        for b, (v, c) in zip(dice, reading, strict=True))
              for reading in (best, tuple((d.value, d.color) for d in got))]
    assert weight[1] == pytest.approx(weight[0], rel=1e-9)
    assert chance == pytest.approx(whole, rel=1e-9)
    if tuple((d.value, d.color) for d in got) == best:
        for d, want in zip(got, chances, strict=True):
            assert d.chance == pytest.approx(want, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(sparse_beliefs, min_size=0, max_size=7))
def test_agreement_of_up_to_seven_dice_against_every_reading(dice: list[Belief]) -> None:
    """Dice each torn between at most two values and two colours (so every option of every
    die is weighed): ``agreement``, summed die by die over how many dice each layout shows,
    is the summed chance of every reading of all dice with no layout more than twice; 1 for
    no dice, 0 for more dice than the box holds."""
    pair = {(v, c): n for n, lay in HABA_LAYOUTS.items() for v, c in lay.items()}
    options = [[((v + 1, COLORS[k]), float(b.value[v] * b.color[k])) for v in range(6)
                for k in range(3) if b.value[v] * b.color[k] > 0] for b in dice]
    total = 0.0
    for reading in itertools.product(*options):
        names = [pair[o] for o, _ in reading]
        if all(names.count(n) <= 2 for n in names):
            total += math.prod(p for _, p in reading)
    assert agreement(dice, COLORS) == pytest.approx(total, rel=1e-9, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(sparse_beliefs, min_size=1, max_size=8), st.data())
def test_obeying_each_choice_is_obeying_its_dice(dice: list[Belief], data) -> None:
    """``obeying_each`` (all choices at once, grouped by length) equals ``obeying`` of each
    choice's dice on their own (which the tests above check against every reading)."""
    chances = [layout_chances(b, COLORS) for b in dice]
    picks = st.lists(st.integers(0, len(dice) - 1), max_size=len(dice), unique=True)
    chosen = [tuple(sorted(c)) for c in data.draw(st.lists(picks, max_size=12))]
    got = obeying_each(chosen, chances)
    assert len(got) == len(chosen)
    for c, g in zip(chosen, got, strict=True):
        assert g == pytest.approx(obeying([chances[k] for k in c]), rel=1e-9, abs=1e-12)


def _one_die_faces() -> set[tuple[tuple[int, Color], tuple[int, Color]]]:
    """Every pair of faces some die of the box shows at once, from the cube itself: a die of
    a layout carries each value in that layout's colour, and shows two faces together
    unless they are opposite (values adding up to 7) or the same face."""
    return {((a, lay[a]), (b, lay[b])) for lay in HABA_LAYOUTS.values()
            for a in range(1, 7) for b in range(1, 7) if a != b and a + b != 7}


@settings(max_examples=60, deadline=None)
@given(beliefs, beliefs)
def test_one_die_is_the_chance_two_faces_show_on_one_die(a: Belief, b: Belief) -> None:
    """Against the cube: ``one_die`` is the summed chance of the readings of the two faces
    that one die of the box can show together, and does not depend on which face is first."""
    pairs = _one_die_faces()
    want = sum(a.value[va - 1] * a.color[COLORS.index(ca)]
               * b.value[vb - 1] * b.color[COLORS.index(cb)]
               for (va, ca), (vb, cb) in pairs)
    assert one_die(a, b, COLORS) == pytest.approx(want, rel=1e-9, abs=1e-12)
    assert one_die(b, a, COLORS) == pytest.approx(want, rel=1e-9, abs=1e-12)


def test_two_faces_of_one_die_differ_in_colour_and_share_its_layout() -> None:
    """Surely read faces: a die never shows two faces of one colour (only opposite faces
    share one), nor faces of two layouts."""
    def sure(value: int, color: Color) -> Belief:
        return Belief(np.eye(6)[value - 1], np.eye(3)[COLORS.index(color)])
    pairs = _one_die_faces()
    for (va, ca), (vb, cb) in itertools.product(
            itertools.product(range(1, 7), COLORS), repeat=2):
        got = one_die(sure(va, ca), sure(vb, cb), COLORS)
        assert got == (1.0 if ((va, ca), (vb, cb)) in pairs else 0.0)
        if got:
            assert ca is not cb
    assert len(pairs) == 3 * 6 * 4  # each face of each layout beside four others


def test_three_sure_dice_on_one_layout_do_not_agree() -> None:
    """Three dice surely read as pair A's 2 (red): no box holds that."""
    sure = Belief(np.eye(6)[1], np.eye(3)[0])
    assert agreement([sure, sure], COLORS) == pytest.approx(1.0)
    assert agreement([sure, sure, sure], COLORS) == 0.0


def test_three_dice_on_one_layout_are_impossible() -> None:
    """Three dice read as pair A's colours: the least sure one must move to another pair."""
    sure = Belief(np.eye(6)[1], np.array([0.98, 0.01, 0.01]))  # 2, red: pair A
    shaky = Belief(np.eye(6)[1], np.array([0.55, 0.001, 0.449]))  # 2: red (A) or blue (C)
    got, _ = read_together([sure, sure, shaky], COLORS)
    assert [(d.value, d.color) for d in got] == [(2, Color.RED), (2, Color.RED), (2, Color.BLUE)]
    assert got[2].chance > 0.9 and got[0].chance > 0.95


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(COLORS), st.floats(0.02, 1.0))
def test_a_paler_face_keeps_its_hue_and_a_grey_one_is_not_forced(color, paler) -> None:
    """Blur and glare make a face paler: it never becomes another colour, and a face with
    hardly any colour left gets even chances instead of a confident wrong name."""
    palette = Palette.default()
    c = np.array(palette.chroma[color]) * paler
    p = palette.probabilities(c)[0]
    assert palette.colors[int(np.argmax(p))] is color or paler < 0.05
    if paler * np.linalg.norm(palette.chroma[color]) < 0.08:
        assert p.max() < 0.6

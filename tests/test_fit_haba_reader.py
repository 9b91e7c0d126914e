"""The HABA reader's fit (``tools/fit_haba_reader.py``) on synthetic choices, where the
right answer is known: the weights come back, the shape that explains the truth is chosen,
the threshold asks least for what it costs; and the measure of the sizes the finder sees
well (``benchmarks/bench_haba_finder.py``)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from habakit import COLORS, MODEL, face, seen
from hypothesis import example, given, settings
from hypothesis import strategies as st

from vision.choose import TERMS, Weighed, choices

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / d) for d in ("benchmarks", "tools")]
from bench_haba_finder import SIZES, AtSize, sees_well  # noqa: E402
from fit_haba_reader import Case, fit_shape, fit_threshold, fit_weights, loss  # noqa: E402
from haba_sets import JUDGING, tuning_frames  # noqa: E402


def test_the_weights_that_made_the_choices_come_back() -> None:
    """Frames whose true choice is drawn from a conditional logit with known weights: the fit
    finds those weights again (up to the ridge's pull and the draw's noise)."""
    rng = np.random.default_rng(7)
    truth = np.resize([1.5, -1.0, 0.5, 0.0, 2.0, -0.5, 1.0, 0.8, -1.2, 0.3], len(TERMS))
    weighed, picked = [], []
    for _ in range(1500):
        terms = rng.normal(size=(6, len(TERMS)))
        p = np.exp(terms @ truth)
        weighed.append(Weighed(tuple((k,) for k in range(6)), terms, True))
        picked.append(int(rng.choice(6, p=p / p.sum())))
    weights, fit = fit_weights(weighed, list(picked))
    assert np.abs(weights - truth).max() < 0.25
    worse, _ = fit_weights(weighed, [int(rng.integers(6)) for _ in picked])
    assert fit < 0 and not np.allclose(worse, weights, atol=0.5)


def test_frames_whose_true_choice_is_unknown_are_left_out() -> None:
    w = Weighed(((0,), (1,)), np.eye(2, len(TERMS)), True)
    weights, fit = fit_weights([w, w], [None, None])
    assert np.allclose(weights, 0) and fit == 0


def test_the_side_shrink_that_tells_a_die_s_side_from_its_top_is_chosen() -> None:
    """Each frame: a die's top and, 40 pixels off, a face 0.8 of its size that the networks
    take for a die just as surely: its side. Only the ``side`` term can tell them apart, and
    only with a side shrink above 0.8; the fit chooses one and weighs a side against being
    a die."""
    cases, truths = [], []
    for k in range(60):
        top, side = face(300 + k, side=60.0), face(340 + k, side=48.0)
        s = seen([side, top] if k % 2 else [top, side])
        cases.append(Case(s, [], 1, True))
        truths.append(list(choices(s, 1)).index((k % 2,)))
    shape, weights, weighed = fit_shape(cases, truths, COLORS)
    assert shape.side_shrink > 0.8
    assert weights[TERMS.index("side")] < -1
    assert len(weighed) == len(cases)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.booleans(), st.booleans()), min_size=1,
                max_size=30), st.floats(0.5, 50))
@example([(0.0, True, False), (5e-324, True, True)], 2.0)  # no number between the two
def test_the_threshold_asks_least_for_what_a_silent_frame_costs(rows, cost: float) -> None:
    """Brute force over every threshold that could matter: none costs less than the fit's."""
    chosen = fit_threshold(rows, cost)
    every = [0.0, 1.0, *(c for c, _, _ in rows), *(min(c + 1e-6, 1.0) for c, _, _ in rows)]
    assert loss(rows, chosen, cost) <= min(loss(rows, t, cost) for t in every) + 1e-9


def test_the_kit_s_model_has_a_shape_the_fit_can_choose() -> None:
    from fit_haba_reader import SHAPES
    for name, values in SHAPES.items():
        assert min(values) <= getattr(MODEL.shape, name) <= max(values)


def test_the_fit_takes_tuning_frames_and_refuses_a_judging_set() -> None:
    assert tuning_frames(["tune:3-5", "steep:7"]) == [("tune", 3), ("tune", 4), ("tune", 5),
                                                       ("steep", 7)]
    for name in JUDGING:
        with pytest.raises(SystemExit, match="tuning sets only"):
            tuning_frames([f"{name}:0-9"])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100)), min_size=len(SIZES),
                max_size=len(SIZES)), st.floats(0.5, 1.0))
def test_the_finder_sees_well_the_longest_run_about_its_best_size(counts, recall: float
                                                                  ) -> None:
    """Brute force over every run of measured sizes: the sizes the finder sees well are the
    widest run about its best-seen size where every size is found at least ``recall`` of the
    time; none when no size reaches it."""
    at = {s: AtSize(min(f, d), d, 0, 1) for s, (f, d) in zip(SIZES, counts, strict=True)}
    shown = [s for s in SIZES if at[s].dice]
    got = sees_well(at, recall)
    if not shown or max(at[s].recall for s in shown) < recall:
        assert got is None
        return
    best = max(shown, key=lambda s: at[s].recall)
    k = shown.index(best)
    runs = [(shown[a], shown[b]) for a in range(k + 1) for b in range(k, len(shown))
            if all(at[s].recall >= recall for s in shown[a:b + 1])]
    assert got == max(runs, key=lambda r: shown.index(r[1]) - shown.index(r[0]))


def test_the_tray_margin_keeps_every_die_read_and_drops_a_printed_die_beside_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A desk-arm camera (30°) over dice lying tight against the walls of a tray marked around
    them: the fitted margin is the farthest a die's reading stands outside the tray, rounded
    up to 0.05 (so no die read is dropped), and a die printed on a card beside the tray,
    read when the count is not told, stands further out."""
    import fit_haba_reader
    from fit_haba_reader import fit_outside, weighed_at
    from haba_sets import tray_around

    from rules.dice import Color
    from vision.palette import Palette
    from vision.reading import DieReading
    from vision.render import Conditions, scene_for
    from vision.render.camera import Projector
    from vision.render.scene import TruthDie

    scene = scene_for(np.random.default_rng(4), Conditions(table="tray"), distractors=0,
                      hand=0.0, tilt=(30.0, 30.0), lens=(1100.0, 1100.0))
    scene = replace(scene, camera=replace(scene.camera, distortion=0.0))
    project, edge = Projector(scene), scene.die_size
    tops = project.project(np.array([(d.x, d.y, edge) for d in scene.dice]))
    sizes = [project.scale_at(d.x, d.y, edge) * edge for d in scene.dice]
    truth = [TruthDie(d.value, Color.RED, (float(x), float(y)), (), size)
             for d, (x, y), size in zip(scene.dice, tops, sizes, strict=True)]
    beside = max(d.x for d in scene.dice) + 3 * edge, scene.dice[0].y
    (px, py), = project.project(np.array([(*beside, 0.0)]))
    dice = [face(t.center[0], t.center[1], value=t.value, side=t.size) for t in truth]
    printed = face(float(px), float(py), value=6, side=sizes[0])
    cases = [Case(seen(dice), truth, len(truth), True, ("table-tune", 0)),
             Case(seen([*dice, printed]), truth, 8, False, ("table-tune", 0))]
    monkeypatch.setattr(fit_haba_reader, "scene", lambda name, i: scene)
    model = replace(MODEL, telling_tilt=10.0)
    outside = fit_outside(cases, weighed_at(cases, MODEL.shape, COLORS), model,
                          Palette.default())
    tray = tray_around(scene, 0)
    assert tray is not None
    focal = tray.focal(model.telling_tilt)
    assert focal is not None  # the corners tell the camera at 30°
    far = max(tray.beyond([DieReading(t.value, None, t.center, (), 0.9, t.size)
                           for t in truth], focal))
    assert far <= outside < far + 0.05 + 1e-9 and round(outside / 0.05, 6).is_integer()
    assert tray.beyond([DieReading(6, None, (float(px), float(py)), (), 0.9, sizes[0])],
                       focal)[0] > outside
    assert "1 of 1 readings on no die stand further out" in capsys.readouterr().out


@pytest.mark.parametrize(("lens", "trusted"), [(3200.0, True), (1152.0, False)])
def test_the_corners_are_trusted_for_the_focal_length_where_they_tell_it_better(
        monkeypatch: pytest.MonkeyPatch, lens: float, trusted: bool) -> None:
    """Cameras tilted 20° over the table: with a long lens (2.5 frame widths) the tapped
    corners tell the focal length far better than the Pi lens's usual one, and the fitted
    telling tilt trusts them at 20°; with exactly the usual lens (0.9 widths) the taps only
    add error, and the fit trusts the usual one there."""
    import fit_haba_reader
    from fit_haba_reader import TILTS, fit_telling_tilt

    from vision.render import Conditions, scene_for

    scenes = []
    for seed in range(12):
        scene = scene_for(np.random.default_rng(seed), Conditions(table="tray"), distractors=0,
                          hand=0.0, tilt=(20.0, 20.0), lens=(lens, lens))
        scenes.append(replace(scene, camera=replace(scene.camera, distortion=0.0)))
    monkeypatch.setattr(fit_haba_reader, "scene", lambda name, i: scenes[i])
    tilt = fit_telling_tilt([("table-tune", i) for i in range(len(scenes))])
    assert tilt in TILTS
    assert (tilt <= 20.0) == trusted


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 30.0), max_size=20), st.lists(st.floats(0.0, 30.0), max_size=20))
def test_the_kept_level_takes_no_thrown_die_for_kept_and_is_the_highest_that_does(
        kept: list[float], thrown: list[float]) -> None:
    """Below the fitted level no die thrown onto a die's place counts as kept, and the next
    level tried would let one through (or none is higher)."""
    from fit_haba_reader import KEPT_LEVELS, kept_level

    level = kept_level(kept, thrown)
    assert all(c >= level for c in thrown)
    assert level in (0.0, *KEPT_LEVELS)
    higher = [k for k in KEPT_LEVELS if k > level]
    assert not higher or any(c < higher[0] for c in thrown)
    assert kept_level(kept, []) == max(KEPT_LEVELS)  # nothing thrown there: the highest

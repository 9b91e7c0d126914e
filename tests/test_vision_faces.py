"""Finding (``vision.faces.see``) with stand-in networks: which looks are taken, which finds
become candidate faces, and the evidence each carries. No frame is rendered; the networks
are ``habakit.FakeNets``."""

from __future__ import annotations

import numpy as np
import pytest
from habakit import FakeNets

from rules.dice import Color
from vision.faces import see
from vision.habanet import FoundFace
from vision.palette import Palette
from vision.reader import doubt_sides, side_chances
from vision.reading import DieReading

PALETTE = Palette.default()
DIE = [0.01, 0.0, 0.0, 0.99, 0.0, 0.0, 0.0]  # surely a die, a 3
NO_DIE = [0.95, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0]


def _f(x: float, found: float = 0.9, side: float = 60.0, y: float = 300.0) -> FoundFace:
    return FoundFace((x, y), side, 0.0, found)


def test_finds_in_one_place_are_one_face_and_faint_peaks_are_candidates() -> None:
    nets = FakeNets([_f(200), _f(215, 0.5), _f(600, 0.15)], [DIE, DIE, NO_DIE])
    s = see(nets.frame, nets, PALETTE, None, None, 1.0)  # type: ignore[arg-type]
    assert [(f.found.center[0], f.look) for f in s.faces] == [(200, "first"), (600, "faint")]
    assert s.faces[0].not_die == pytest.approx(0.01)
    assert int(np.argmax(s.faces[0].belief.value)) + 1 == 3
    assert s.faces[1].is_die == pytest.approx(0.05)
    assert s.middle == (640.0, 480.0)


@pytest.mark.parametrize(("count", "looks"), [(None, False), (1, False), (3, True)])
def test_the_frame_is_looked_at_farther_and_closer_only_when_the_count_wants_more(
        count: int | None, looks: bool) -> None:
    nets = FakeNets([_f(200)], [DIE, DIE, DIE], farther=[_f(700, side=200.0)],
                    closer=[_f(1000, side=30.0)])
    s = see(nets.frame, nets, PALETTE, count, None, 1.0)  # type: ignore[arg-type]
    assert ("farther" in nets.asked) == looks and ("closer" in nets.asked) == looks
    assert [f.look for f in s.faces] == (["first", "farther", "closer"] if looks
                                         else ["first"])


def test_faces_beside_each_other_carry_the_pair_network_s_answers_and_side_relations() -> None:
    nets = FakeNets([_f(600), _f(640, side=40.0), _f(1000)], [DIE, DIE, DIE],
                    pair=(0.8, 0.1, 0.1))
    s = see(nets.frame, nets, PALETTE, None, nets, 1.0)  # type: ignore[arg-type]
    big, small, far = s.faces
    assert [n.index for n in big.neighbours] == [1] and far.neighbours == ()
    # asked in both orders and averaged: (0.8 + 0.1) / 2 each way
    assert big.neighbours[0].top == pytest.approx(0.45)
    assert big.neighbours[0].under == pytest.approx(0.45)
    assert small.side_of == (0,) and big.side_of == ()


def test_a_sure_reading_the_pair_network_calls_a_side_is_put_in_doubt() -> None:
    """The hand-set rules' side catch: a sure reading beside a finder peak that the pair
    network calls the top, the reading not, is put in doubt; called "neither", it stays."""
    for pair, doubted in (((0.0, 0.95, 0.05), True), ((0.0, 0.05, 0.95), False)):
        nets = FakeNets([_f(600), _f(660, 0.15)], [DIE, NO_DIE], pair=pair)
        sure = DieReading(3, Color.RED, (600.0, 300.0), (), 0.95, 60.0, 0.7)
        out = doubt_sides(nets.frame, [sure], nets, nets)  # type: ignore[arg-type]
        assert out[0].confident is not doubted


def test_the_side_catch_doubts_exactly_from_its_threshold() -> None:
    """A sure reading is doubted when the pair network's "the other face is the top" reaches
    the catch, and only then (the threshold ``benchmarks/sweep_side_catch.py`` chooses)."""
    nets = FakeNets([_f(600), _f(660, 0.15)], [DIE, NO_DIE], pair=(0.3, 0.5, 0.2))
    sure = DieReading(3, Color.RED, (600.0, 300.0), (), 0.95, 60.0, 0.7)
    side = side_chances(nets.frame, [sure], nets, nets)  # type: ignore[arg-type]
    assert side == [pytest.approx(0.5)]
    for catch in (0.3, 0.5, 0.51, 0.9):
        out = doubt_sides(nets.frame, [sure], nets, nets, catch)  # type: ignore[arg-type]
        assert out[0].confident is (catch > 0.5)

"""Finding (``vision.faces.see``) with stand-in networks: which looks are taken, which finds
become candidate faces, and the evidence each carries. No frame is rendered; the networks
are ``habakit.FakeNets``."""

from __future__ import annotations

import numpy as np
import pytest
from habakit import FakeNets

from vision.faces import asked_again, see
from vision.habanet import FoundFace
from vision.palette import Palette

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


def test_faces_beside_each_other_carry_the_pair_network_s_answers() -> None:
    nets = FakeNets([_f(600), _f(640, side=40.0), _f(1000)], [DIE, DIE, DIE],
                    pair=(0.8, 0.1, 0.1))
    s = see(nets.frame, nets, PALETTE, None, nets, 1.0)  # type: ignore[arg-type]
    big, _, far = s.faces
    assert [n.index for n in big.neighbours] == [1] and far.neighbours == ()
    # asked in both orders and averaged: (0.8 + 0.1) / 2 each way
    assert big.neighbours[0].top == pytest.approx(0.45)
    assert big.neighbours[0].under == pytest.approx(0.45)


def test_told_the_camera_s_nadir_the_pair_network_measures_from_it_not_the_middle() -> None:
    """A die's side shows towards the point below the camera: the pair's numbers (how far
    out each face lies, where the pair lies) are measured from the nadir when it is told,
    and asking again with another nadir keeps the faces."""
    nets = FakeNets([_f(600, y=480.0), _f(660, y=480.0)], [DIE, DIE], pair=(0.8, 0.1, 0.1))
    middle = see(nets.frame, nets, PALETTE, None, nets, 1.0)  # type: ignore[arg-type]
    from_middle = [n.copy() for n in nets.numbers]
    below = (630.0, 2400.0)  # far below the frame, straight under the pair
    told = see(nets.frame, nets, PALETTE, None, nets, 1.0, below)  # type: ignore[arg-type]
    assert told.middle == below and middle.middle == (640.0, 480.0)
    # the pair lies across the line to the nadir: neither face further out along it
    assert all(abs(n[7]) < 1e-6 for n in nets.numbers)
    assert any(abs(n[7]) > 0.1 for n in from_middle)
    again = asked_again(nets.frame, middle, nets, 1.0, below)  # type: ignore[arg-type]
    assert again.middle == below
    assert [(f.found, f.neighbours) for f in again.faces] == [
        (f.found, f.neighbours) for f in told.faces]


def test_faces_from_farther_are_weighed_beside_the_first_look_s_in_their_place() -> None:
    """Dice too big for the first look show it their pips as little faces; told three dice
    and seeing fewer die-like faces, the faces from farther in the same places are kept as
    candidates too (the choice weighs both), not dropped as already seen."""
    nets = FakeNets([_f(600, side=40.0)], [NO_DIE, DIE], farther=[_f(610, side=200.0)])
    s = see(nets.frame, nets, PALETTE, 3, None, 1.0)  # type: ignore[arg-type]
    assert [(f.look, f.found.side) for f in s.faces] == [("first", 40.0), ("farther", 200.0)]


def test_told_more_dice_a_face_with_a_faint_peak_in_its_place_is_also_two_touching_dice(
        ) -> None:
    """Told three dice and seeing two die-like faces, a face with a faint peak beside it (two
    touching dice of one colour the finder saw as one) is also read as two faces of the
    dice's size, side by side on the line through both peaks; not told, it is not."""
    finds = [_f(300), _f(600), _f(620, 0.2)]
    for count, splits in ((3, 2), (None, 0), (2, 0)):
        nets = FakeNets(finds, [DIE, DIE, DIE])
        s = see(nets.frame, nets, PALETTE, count, None, 1.0)  # type: ignore[arg-type]
        split = [f.found for f in s.faces if f.look == "split"]
        assert len(split) == splits
        if splits:
            assert sorted(f.center[0] for f in split) == pytest.approx([580.0, 640.0])
            assert all(f.side == 60.0 and f.center[1] == 300.0 for f in split)


def test_faces_where_no_die_may_lie_are_not_read_nor_counted() -> None:
    """Told where a die may lie (the marked tray), the faces elsewhere (a die printed on a
    card beside the tray) are not candidates: not read, and not counted as dice, so the frame
    is looked at farther and closer for the dice the count still wants, and only the faces
    there are kept."""
    finds = [_f(200), _f(1000), _f(1100)]  # one in the tray, two printed beside it
    in_tray = lambda point, side: point[0] < 640  # noqa: E731
    nets = FakeNets(finds, [DIE, DIE, DIE], farther=[_f(300, side=200.0)],
                    closer=[_f(400, side=30.0), _f(1200, side=30.0)])
    s = see(nets.frame, nets, PALETTE, 3, None, 1.0, holds=in_tray)  # type: ignore[arg-type]
    assert [(f.found.center[0], f.look) for f in s.faces] == [
        (200, "first"), (300, "farther"), (400, "closer")]
    assert "farther" in nets.asked  # the two beside the tray did not make up the count
    anywhere = see(nets.frame, nets, PALETTE, 3, None, 1.0)  # type: ignore[arg-type]
    assert [f.found.center[0] for f in anywhere.faces] == [200, 1000, 1100]

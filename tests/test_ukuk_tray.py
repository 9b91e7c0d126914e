"""The simulated tray throws the dice of Um Krone und Kragen: as many as the turn has, the
set-aside ones in the strip (or out of view), ordinary dice drawn by vision.render_standard."""

from __future__ import annotations

import pytest

from pi.simtray import OrdinaryThrow, SimulatedTray
from rules.dice import Roll
from vision.strip import AsideStrip

pytest.importorskip("vision.render_standard", reason="the ordinary-dice renderer (issue 16)")


class Clock:
    t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("strip", [None, AsideStrip("bottom", 0.25), AsideStrip("left", 0.3)])
def test_the_tray_draws_the_turns_dice_where_they_belong(strip):
    clock = Clock()
    tray = SimulatedTray(seed=3, clock=clock)
    tray.ordinary = lambda: OrdinaryThrow(4, (2, 6, 6), strip)
    tray.open()
    tray.throw(Roll.parse("1 5 5 3", None))
    clock.t += 5
    frame = tray.read()
    assert tray.dice is not None and sorted(tray.dice.values) == [1, 3, 5, 5]
    h, w = frame.shape[:2]
    in_strip = sorted(v for v, c in tray.truth if strip is not None and strip.holds(c, w, h))
    in_play = sorted(v for v, c in tray.truth if strip is None or not strip.holds(c, w, h))
    assert in_play == [1, 3, 5, 5]
    assert in_strip == ([] if strip is None else [2, 6, 6])


def test_haba_dice_when_the_game_reads_colours():
    clock = Clock()
    tray = SimulatedTray(seed=3, clock=clock)
    tray.ordinary = lambda: None
    tray.open()
    tray.throw()
    clock.t += 5
    tray.read()
    assert tray.dice is not None and len(tray.dice) == 6
    assert all(d.color is not None for d in tray.dice)

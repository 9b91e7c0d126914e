"""Roll detection over the simulated tray: motion, settling, stable readings, no bogus rolls."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from conftest import play
from hypothesis import given, settings
from hypothesis import strategies as st

from pi.detector import RollDetector, Throw, keep_kept, pictures_apart
from pi.eye import Eye
from pi.simtray import SimulatedTray
from rules.dice import Roll
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table
from vision.lastroll import LastRoll, last_roll
from vision.reader import read_dice
from vision.reading import DieReading
from vision.strip import AsideStrip


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t

    def tick(self, seconds: float = 0.125) -> None:
        self.t += seconds


def run_frames(tray: SimulatedTray, detector: RollDetector, clock: Clock, seconds: float):
    throws = []
    for _ in range(int(seconds / 0.125)):
        throw = detector.feed(tray.read(), clock())
        if throw is not None:
            throws.append((clock(), throw))
        clock.tick()
    return throws


@pytest.fixture
def sim():
    clock = Clock()
    tray = SimulatedTray(seed=4, clock=clock)
    tray.open()
    detector = RollDetector(lambda f, n, last: read_dice(f, thrown=n, last=last),
                            settle_seconds=0.5, stable_reads=2)
    return tray, detector, clock


def test_dice_lying_still_at_start_are_not_a_roll(sim) -> None:
    tray, detector, clock = sim
    assert run_frames(tray, detector, clock, 2.0) == []
    assert detector.sight.seeing == "waiting"


def test_the_simulated_tray_holds_one_box_of_dice(sim) -> None:
    tray, _, _ = sim
    with pytest.raises(ValueError, match="pair B, which has only two dice"):
        tray.throw("4r 4g 4b 1r 2g 6b")   # 4r, 2g and 6b are all of pair B


def test_a_throw_settles_into_exactly_one_roll_of_the_thrown_dice(sim) -> None:
    tray, detector, clock = sim
    run_frames(tray, detector, clock, 0.5)
    tray.throw("4r 4g 4b 1r 2g 5r")
    throws = run_frames(tray, detector, clock, 3.0)
    assert len(throws) == 1
    at, throw = throws[0]
    assert Counter(throw.roll) == Counter(Roll.parse("4r 4g 4b 1r 2g 5r"))
    # read within a second of the dice stopping
    assert tray.settled_at is not None and 0 < at - tray.settled_at <= 1.0
    assert detector.sight.seeing == "settled"


def test_frames_in_motion_give_no_roll_and_say_so(sim) -> None:
    tray, detector, clock = sim
    tray.roll_seconds = 5.0   # a long tumble, or a hand in the tray
    detector.feed(tray.read(), clock())
    clock.tick()
    tray.throw()
    seen = set()
    for _ in range(30):
        assert detector.feed(tray.read(), clock()) is None
        seen.add(detector.sight.seeing)
        clock.tick()
    assert seen == {"moving"}


def fake_reading(value: int, x: float) -> DieReading:
    return DieReading(value, None, (x, 50.0), (), 0.9, 20.0)


def test_fewer_dice_than_a_roll_needs_give_no_roll() -> None:
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    five = [fake_reading(v, 30.0 * v) for v in range(1, 6)]
    detector = RollDetector(lambda _f, _n, _l: five, settle_seconds=0.2, stable_reads=2)
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)          # motion
    for t in (0.4, 0.5, 0.6, 0.7):
        assert detector.feed(frames[1], t) is None
    assert detector.sight.seeing == "too few dice"
    assert detector.sight.message == ("I see 5 dice; a roll needs 6: is one covered or "
                                      "outside the picture? If not, read again")
    assert detector.sight.dice_wanted == 6


def test_asked_to_read_again_the_dice_the_reader_doubts_are_read_and_checked() -> None:
    """Told six, the reader leaves out a die it doubts is there, and the table waits for
    six; the players, seeing it in plain view, ask to read again: the dice are read with the
    doubtful one, marked, and the roll comes for the table to check."""
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    five = [fake_reading(v, 20.0 * v) for v in range(1, 6)]
    six = [*five, replace(fake_reading(6, 120.0), confidence=0.3, why="die")]
    asked: list[int | None] = []

    def doubtful(_f: np.ndarray, n: int | None, _l: object) -> list[DieReading]:
        asked.append(n)
        return six

    detector = RollDetector(lambda _f, _n, _l: five, settle_seconds=0.2, stable_reads=2,
                            read_doubtful=doubtful)
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)
    for t in (0.4, 0.5, 0.6):
        assert detector.feed(frames[1], t) is None
    assert detector.sight.seeing == "too few dice" and asked == []
    detector.request_reread()
    throws = [detector.feed(frames[1], t) for t in (0.7, 0.8)]
    throw = next(t for t in throws if t is not None)
    assert asked and set(asked) == {6}
    assert len(throw.readings) == 6 and throw.unsure == (6,) and throw.why == ((6, "die"),)
    assert detector.feed(frames[1], 0.9) is None  # read once: no second roll of the same dice


def test_readings_that_disagree_are_not_a_roll_until_they_agree() -> None:
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    answers = iter([
        [fake_reading(v, 30.0 * v) for v in (1, 2, 3, 4, 5, 6)],
        [fake_reading(v, 30.0 * v) for v in (1, 2, 3, 4, 5, 5)],   # a wobbling die
        [fake_reading(v, 30.0 * v) for v in (1, 2, 3, 4, 5, 5)],
    ])
    detector = RollDetector(lambda _f, _n, _l: next(answers), settle_seconds=0.2, stable_reads=2)
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)
    assert detector.feed(frames[1], 0.4) is None
    assert detector.feed(frames[1], 0.5) is None
    throw = detector.feed(frames[1], 0.6)
    assert throw is not None and throw.roll.values == (1, 2, 3, 4, 5, 5)


def test_eye_puts_the_roll_in_the_game_and_survives_the_camera_going_away(sim) -> None:
    tray, detector, clock = sim
    referee = Table(EventStore(None), game_pack("kotd"))
    play(referee, "players Ann Ben", "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    eye = Eye(tray, detector, referee, clock=clock)

    def steps(seconds: float) -> None:
        for _ in range(int(seconds / 0.125)):
            eye.step()
            clock.tick()

    steps(0.5)
    tray.throw("4r 4g 4b 1r 2g 5r")
    steps(2.5)
    assert referee.state.rolls_used == 1
    assert Counter(referee.state.roll) == Counter(Roll.parse("4r 4g 4b 1r 2g 5r"))
    assert referee.state.claimable_slots() == (2, 5)
    before = referee.record
    tray.unplug()
    eye.step()
    assert eye.status().camera == "lost" and "the game is kept" in eye.status().message
    assert referee.snapshot.eye == eye.status()  # reported to the table
    assert referee.record == before
    eye.step()                                  # tries to open again, still away
    tray.plug()
    steps(0.5)
    assert eye.status().camera == "simulated"
    tray.throw("1r 1g 1b 2r 2g 3g")
    steps(2.5)
    assert referee.state.rolls_used == 2 and referee.state.roll.total == 10
    assert eye.annotated_jpeg()[:2] == b"\xff\xd8"


def test_a_hand_over_the_tray_that_moves_no_die_is_not_a_new_roll() -> None:
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    dice = [fake_reading(v, 30.0 * v) for v in (1, 2, 3, 4, 5, 6)]
    detector = RollDetector(lambda _f, _n, _l: dice, settle_seconds=0.2, stable_reads=1)
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)
    assert detector.feed(frames[1], 0.4) is not None       # the throw
    detector.feed(frames[0], 0.5)                          # a hand passes over
    detector.feed(frames[1], 0.6)
    assert detector.feed(frames[1], 0.9) is None
    assert detector.sight.message == "same dice in the same places: no new roll"
    dice[0] = fake_reading(1, 200.0)                       # one die thrown again: same face
    detector.feed(frames[0], 1.0)
    detector.feed(frames[1], 1.1)
    assert detector.feed(frames[1], 1.4) is not None


def test_a_kept_die_read_otherwise_is_marked_for_the_table() -> None:
    """A die that lies where it lay and looks as it looked is the same die: read the same
    it stays sure, read otherwise one reading is wrong and it is marked; a die that was
    thrown again is read afresh."""
    rng = np.random.default_rng(3)
    before = rng.integers(0, 255, (240, 400, 3), dtype=np.uint8)
    dice = [fake_reading(v, 60.0 * v) for v in (1, 2, 3, 4, 5, 6)]
    now = before.copy()
    x, y = round(dice[4].center[0]), round(dice[4].center[1])
    now[y - 20:y + 20, x - 20:x + 20] = 0  # die 5 was picked up and thrown again
    later = [replace(d, value=6, confidence=0.8) if d.value in (2, 5) else d for d in dice]
    got = keep_kept(later, now, dice, last_roll(before, dice))
    assert [g.value for g in got] == [1, 6, 3, 4, 6, 6]
    assert [g.confident for g in got] == [True, False, True, True, True, True]
    assert got[1].why == "kept" and got[0].confidence == 0.9 and got[4].confidence == 0.8
    assert keep_kept(later, now, [], None) == later  # no roll before: nothing is kept
    moved = rng.integers(0, 255, before.shape, dtype=np.uint8)
    assert [g.confident for g in keep_kept(later, moved, dice, last_roll(before, dice))
            ] == [True] * 6
    detector = RollDetector(lambda _f, _n, _l: dice, settle_seconds=0.2, stable_reads=1)
    detector.feed(before, 0.0)
    detector.feed(now, 0.1)
    assert detector.feed(now, 0.4) is not None
    detector.read = lambda _f, _n, _l: later  # the same tray read again by the button: as it is now
    detector.request_reread()
    throw = detector.feed(now, 0.5)
    assert throw is not None and throw.reread
    assert [r.value for r in throw.readings] == [1, 6, 3, 4, 6, 6]
    assert all(r.confident for r in throw.readings)


def test_the_sight_says_why_the_camera_doubts_each_unsure_die() -> None:
    """A settled throw with dice the reader doubts: the sight names them in the page's order,
    each with the reader's reason where it gave one."""
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    dice = [fake_reading(v, 30.0 * v) for v in (1, 2, 3, 4, 5, 6)]
    dice[1] = replace(dice[1], confidence=0.2, why="side")
    dice[4] = replace(dice[4], confidence=0.2)  # no reason given
    detector = RollDetector(lambda _f, _n, _l: dice, settle_seconds=0.2, stable_reads=1)
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)
    assert detector.feed(frames[1], 0.4) is not None
    assert detector.sight.unsure == (2, 5) and detector.sight.why == ((2, "side"),)


def test_a_die_on_the_edge_of_the_set_aside_strip_is_checked_by_the_table() -> None:
    """With a set-aside strip along the bottom quarter, a die in play whose centre lies on
    the strip's edge is doubtful: the throw the table gets asks about it ("strip"), as the
    live view marks it, besides the dice the reader doubts; the dice wholly in the strip are
    set aside."""
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    dice = [replace(fake_reading(v, 20.0 * v), center=(20.0 * v, y))
            for v, y in ((1, 30.0), (2, 30.0), (3, 86.0), (4, 30.0), (5, 112.0), (6, 30.0))]
    dice[0] = replace(dice[0], confidence=0.2, why="value")
    detector = RollDetector(lambda _f, _n, _l: dice, settle_seconds=0.2, stable_reads=1,
                            strip=lambda: AsideStrip("bottom", 0.25))
    detector.feed(frames[0], 0.0)
    detector.feed(frames[1], 0.1)
    throw = detector.feed(frames[1], 0.4)
    assert throw is not None and throw.aside is not None and len(throw.aside.dice) == 1
    on_edge = [i for i, r in enumerate(throw.readings, start=1) if r.value == 3]
    assert throw.unsure == tuple(sorted([1, *on_edge]))
    assert set(throw.why) == {(1, "value"), (on_edge[0], "strip")}
    assert (detector.sight.unsure, detector.sight.why) == (throw.unsure, throw.why)


def test_the_roll_comes_as_soon_as_the_tray_has_been_still_for_the_settle_time() -> None:
    """The dice are read while the tray settles: at 10 frames a second the roll is there at
    the first frame ``settle_seconds`` after the last motion, not a frame or two later."""
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 200)]
    reads: list[float] = []
    clock = [0.0]
    dice = [fake_reading(v, 30.0 * v) for v in (1, 2, 3, 4, 5, 6)]

    def read(_f: np.ndarray, _n: int | None, _l: object) -> list[DieReading]:
        reads.append(clock[0])
        return dice

    detector = RollDetector(read, settle_seconds=0.4, stable_reads=2)
    got = []
    for i in range(12):
        clock[0] = round(0.1 * i, 1)
        throw = detector.feed(frames[0 if i == 0 else 1], clock[0])
        if throw is not None:
            got.append(clock[0])
    assert got == [0.5]                    # motion at 0.1, still from then on
    assert reads == [0.2, 0.3]             # read while settling, then no more


DRIFT = 12
"""Grey levels a drifting picture changes by per frame: less than MOTION_LEVEL."""


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.05, 0.1, 0.125, 0.2, 0.3]),
                          st.sampled_from(["same", "same", "jump", "drift", "drift"])),
                min_size=1, max_size=40),
       st.sampled_from([0.2, 0.3, 0.4]), st.integers(1, 3))
def test_no_roll_is_taken_from_moving_dice(steps: list[tuple[float, str]], settle: float,
                                            stable: int) -> None:
    """Whatever the frames do, a roll comes only after ``settle_seconds`` without motion,
    from readings of the picture as it is now (within MOTION_LEVEL), never of one before
    the last motion. The fake reader tells the frame it read by the dice's size, a
    thousandth of a pixel per grey level (not by their confidence: a die kept where it lay,
    its picture unchanged but for the exposure, is as sure as the surer of its two
    readings)."""
    from pi.detector import MOTION_LEVEL, SLACK

    level, now = 100, 0.0
    last_jump = 0.0

    def read(frame: np.ndarray, _n: int | None, _l: object) -> list[DieReading]:
        g = int(frame[0, 0, 0])
        return [DieReading(v, None, (30.0 * v + 12 * (g % 3), 50.0), (), g / 255,
                           20.0 + g / 1000) for v in (1, 2, 3, 4, 5, 6)]

    detector = RollDetector(read, settle_seconds=settle, stable_reads=stable)
    detector.feed(np.full((120, 160, 3), level, np.uint8), now)
    for dt, kind in steps:
        now += dt
        before = level
        if kind == "jump":
            level = 40 if level > 120 else 200
        elif kind == "drift":
            level = level + DRIFT if level + DRIFT <= 235 else 30
        if abs(level - before) > MOTION_LEVEL:
            last_jump = now
        throw = detector.feed(np.full((120, 160, 3), level, np.uint8), now)
        if throw is not None:
            assert now - last_jump >= settle - SLACK
            seen = {round((r.size - 20.0) * 1000) for r in throw.readings}
            assert len(seen) == 1 and abs(seen.pop() - level) <= MOTION_LEVEL


def test_with_a_marked_tray_only_motion_in_the_tray_counts() -> None:
    """A hand at the cards beside the marked tray does not hold the roll back; a hand in
    the tray does."""
    from vision.tray import Tray

    tray = Tray.mark([(0, 0), (80, 0), (80, 120), (0, 120)], 160, 120)  # the left half
    rng = np.random.default_rng(0)
    still = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
    dice = [fake_reading(v, 10.0 * v) for v in (1, 2, 3, 4, 5, 6)]

    def beside(i: int) -> np.ndarray:  # the right half changes at every frame
        frame = still.copy()
        frame[:, 80:] = rng.integers(0, 255, (120, 80, 3), dtype=np.uint8)
        return frame

    detector = RollDetector(lambda _f, _n, _l: dice, settle_seconds=0.3, stable_reads=2,
                            tray=lambda: tray)
    detector.feed(np.zeros_like(still), 0.0)
    got = [round(0.1 * i, 1) for i in range(1, 10)
           if detector.feed(beside(i), round(0.1 * i, 1)) is not None]
    assert got == [0.4]  # moved into the picture at 0.1, still in the tray from then on
    detector = RollDetector(lambda _f, _n, _l: dice, settle_seconds=0.3, stable_reads=2,
                            tray=lambda: Tray.mark([(80, 0), (160, 0), (160, 120), (80, 120)],
                                                   160, 120))
    detector.feed(np.zeros_like(still), 0.0)
    assert all(detector.feed(beside(i), 0.1 * i) is None for i in range(1, 10))
    assert detector.sight.seeing == "moving"


def test_the_reader_is_handed_the_last_roll_s_picture_unless_the_camera_moved() -> None:
    """From the second throw on, the reader is handed the picture the last roll was read from
    and where its dice lay (what changed since tells a thrown die from one printed on a
    card); not before the first roll, not after the camera was away, and not when the
    picture differs from the last roll's over half of it (the camera was moved)."""
    handed: list[object] = []
    spot = [0]

    def tray(level: int = 90) -> np.ndarray:
        img = np.full((120, 160, 3), level, np.uint8)
        img[20:40, 10 + 30 * spot[0]:30 + 30 * spot[0]] = 230  # the dice lie elsewhere
        return img

    def read(_f: np.ndarray, _n: int | None, last: object) -> list[DieReading]:
        handed.append(last)
        return [DieReading(v, None, (10.0 + 20.0 * v, 30.0 + 20.0 * spot[0]), (), 0.9, 15.0)
                for v in (1, 2, 3, 4, 5, 6)]

    detector = RollDetector(read, settle_seconds=0.2, stable_reads=1)
    clock = [0.0]

    def throw(where: int, level: int = 90) -> tuple[np.ndarray, Throw]:
        spot[0] = where
        picture, got = tray(level), None
        for frame in [np.zeros_like(tray()), picture, picture, picture, picture]:
            clock[0] += 0.1
            got = got or detector.feed(frame, clock[0])
        assert got is not None
        return picture, got

    first, roll = throw(0)
    assert handed and all(h is None for h in handed)
    handed.clear()
    throw(3)
    assert handed and all(isinstance(h, LastRoll) and h.frame is first for h in handed)
    assert handed[0].dice == tuple((r.center[0], r.center[1], r.size) for r in roll.readings)
    handed.clear()
    detector.reset()  # the camera was away
    throw(1)
    assert handed and all(h is None for h in handed)
    handed.clear()
    throw(2, level=200)  # the same tray under another light, or another camera
    assert handed and all(h is None for h in handed)


def test_the_simulated_tray_keeps_its_table_so_a_throw_is_read_against_the_last() -> None:
    """Like a tray under a fixed camera, the simulated tray keeps its table, light and camera
    from throw to throw and only the dice land elsewhere: from the second throw on the
    reader is handed the last roll's picture, and reads the thrown dice."""
    clock = Clock()
    tray = SimulatedTray(seed=6, clock=clock)
    tray.open()
    handed: list[LastRoll | None] = []

    def read(frame: np.ndarray, n: int | None, last: LastRoll | None) -> list[DieReading]:
        handed.append(last)
        return read_dice(frame, thrown=n, last=last)

    detector = RollDetector(read, settle_seconds=0.5, stable_reads=2)
    run_frames(tray, detector, clock, 0.5)
    pictures = []
    for dice in ("4r 4g 4b 1r 2g 5r", "1r 1g 1b 2r 2g 3g"):
        handed.clear()
        tray.throw(dice)
        throws = run_frames(tray, detector, clock, 3.0)
        assert [Counter(t.roll) for _, t in throws] == [Counter(Roll.parse(dice))]
        pictures.append(tray.read())
    assert handed and all(isinstance(h, LastRoll) for h in handed)
    assert not pictures_apart(pictures[0], pictures[1])
    assert np.abs(pictures[0].astype(int) - pictures[1]).mean() > 1  # the dice moved


def test_before_the_first_roll_the_tray_s_still_picture_stands_in_for_the_last_roll() -> None:
    """With no roll yet (or after the camera was away), the reader is handed the last still
    picture of the tray before the throw, read once, with the dice it showed; not when the
    throw's picture differs from it over half of it."""
    calls: list[tuple[int, int | None, LastRoll | None]] = []

    def tray(where: int, level: int = 90) -> np.ndarray:
        img = np.full((120, 160, 3), level, np.uint8)
        img[20:40, 10 + 30 * where:30 + 30 * where] = 230
        return img

    pictures = [tray(0), tray(3), tray(1)]

    def read(frame: np.ndarray, n: int | None, last: LastRoll | None) -> list[DieReading]:
        k = next(k for k, p in enumerate(pictures) if np.array_equal(p, frame))
        calls.append((k, n, last))
        return [DieReading(v, None, (10.0 + 20.0 * v, 30.0 + 20.0 * k), (), 0.9, 15.0)
                for v in (1, 2, 3, 4, 5, 6)]

    detector = RollDetector(read, settle_seconds=0.2, stable_reads=1)
    t = 0.0
    for k in (0, 0, 1, 1, 1, 1):  # the tray still, then the dice land elsewhere
        t += 0.1
        detector.feed(pictures[k], t)
    before = [c for c in calls if c[0] == 0]
    assert [c[1:] for c in before] == [(None, None)]  # the still tray, read once
    handed = [c[2] for c in calls if c[0] == 1]
    assert handed and all(h is handed[0] for h in handed)
    assert handed[0] is not None and handed[0].frame is pictures[0]
    assert handed[0].dice == tuple((10.0 + 20.0 * v, 30.0, 15.0) for v in range(1, 7))
    calls.clear()
    detector.reset()  # the camera was away: the tray's still picture stands in again
    for k in (1, 1, 2, 2, 2, 2):
        t += 0.1
        detector.feed(pictures[k], t)
    assert [c[:2] for c in calls if c[2] is None and c[0] == 1] == [(1, None)]
    assert all(c[2] is not None and c[2].frame is pictures[1] for c in calls if c[0] == 2)
    calls.clear()
    detector.reset()
    for k, level in ((2, 90), (2, 90), (0, 200), (0, 200)):  # another light: not compared
        pictures[0] = tray(0, level)
        t += 0.1
        detector.feed(pictures[k] if k == 2 else pictures[0], t)
    assert calls and all(c[2] is None for c in calls)

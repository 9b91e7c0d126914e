"""Fault injection on the camera: a source that stops delivering, and sources that fail
with exceptions other than ``CameraError``.

The eye runs its real threads (reader and watchdog) over fake sources with the face of
:class:`pi.sources.FrameSource` (this machine has no camera); the table is real. No frame
for ``stall_seconds`` (two at the table; :data:`STALL` here, so the stalls take less of the
suite's time) is "camera stalled" on the page and the LED, and the camera is opened again;
any failure of a source is a camera problem with a status and a log line at most once a
minute (not ten tracebacks a second).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import numpy as np
import pytest
from conftest import play

from pi.detector import RollDetector
from pi.eye import Eye
from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table

FRAME = np.full((120, 160, 3), 90, np.uint8)
STALL = 1.0
"""The tests' stall (the table's is ``pi.eye.STALL_SECONDS``, 2 s): still twenty frame
periods at 20 fps, so a loaded machine does not stall the camera before the test does."""


class StallingSource:
    """Frames until ``stall`` is set; then ``read`` blocks until ``release`` is set (a
    camera whose driver hangs). Opening it again clears the stall when ``heals``."""

    name = "stalling"

    def __init__(self, heals: bool = True) -> None:
        self.stall = threading.Event()
        self.release = threading.Event()
        self.heals = heals
        self.opened = 0
        self.closed = 0

    def open(self) -> None:
        self.opened += 1
        if self.heals and self.opened > 1:
            self.stall.clear()

    def read(self) -> np.ndarray:
        if self.stall.is_set():
            self.release.wait(30)
        return FRAME.copy()

    def close(self) -> None:
        self.closed += 1


class FailingSource:
    """A source whose ``read`` (or ``open``) raises what ``failure`` makes."""

    name = "failing"

    def __init__(self, failure: Callable[[], Exception], in_open: bool = False) -> None:
        self.failure = failure
        self.in_open = in_open
        self.reads = 0

    def open(self) -> None:
        if self.in_open:
            raise self.failure()

    def read(self) -> np.ndarray:
        self.reads += 1
        raise self.failure()

    def close(self) -> None:
        pass


class NothingSource(FailingSource):
    """A source that hands back no picture at all."""

    def __init__(self) -> None:
        super().__init__(lambda: RuntimeError("unused"))

    def read(self) -> np.ndarray:  # type: ignore[override]
        self.reads += 1
        return None  # type: ignore[return-value]


def running_eye(source, fps: float = 20.0) -> tuple[Eye, Table]:
    table = Table(EventStore(None), game_pack("kotd"))
    play(table, "players Ann Ben", "row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    table.shown = []  # type: ignore[attr-defined]  # every camera state the page was sent
    table.subscribe(lambda snapshot: table.shown.append(snapshot.eye))  # type: ignore
    detector = RollDetector(lambda _f, _n, _l: [], settle_seconds=0.3, stable_reads=2)
    eye = Eye(source, detector, table, fps=fps, stall_seconds=STALL)
    eye.start()
    return eye, table


def until(predicate, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_frames_that_stop_coming_are_a_stalled_camera_opened_again() -> None:
    source = StallingSource()
    eye, table = running_eye(source)
    try:
        until(lambda: table.snapshot.eye.camera == "ok", 3, "the camera to start")
        before = table.record
        source.stall.set()
        stalled_at = time.monotonic()
        said = table.shown  # type: ignore[attr-defined]
        until(lambda: any(e.camera == "stalled" for e in said), STALL + 2,
              "the page to be told 'stalled'")
        assert time.monotonic() - stalled_at >= STALL - 0.3
        stalled = next(e for e in said if e.camera == "stalled")
        assert "no picture" in stalled.message
        assert table.record == before  # the game is kept
        # opened again: the new reader gets frames while the old one is still stuck
        until(lambda: said[-1].camera == "ok", 4, "the camera back after reopening")
        assert source.opened >= 2 and source.closed >= 1
    finally:
        source.release.set()
        eye.stop()


def test_a_camera_that_stays_stuck_stays_stalled_without_piling_up_threads() -> None:
    source = StallingSource(heals=False)
    eye, table = running_eye(source)
    try:
        until(lambda: table.snapshot.eye.camera == "ok", 3, "the camera to start")
        base = threading.active_count()
        source.stall.set()
        until(lambda: table.snapshot.eye.camera == "stalled", STALL + 2, "stalled")
        shown = len(table.shown)  # type: ignore[attr-defined]
        time.sleep(4 * STALL + 1)
        assert table.snapshot.eye.camera == "stalled"  # never "ok" while no frame comes
        assert all(e.camera == "stalled" for e in table.shown[shown:])  # type: ignore
        assert threading.active_count() <= base + 3  # a few stuck readers, not one per try
    finally:
        source.release.set()
        eye.stop()


def test_the_status_led_blinks_while_the_camera_is_stalled(tmp_path) -> None:
    from gpiozero.pins.mock import MockFactory

    from pi.config import Config
    from pi.serve import Assistant

    source = StallingSource(heals=False)
    factory = MockFactory()
    config = Config(data_dir=tmp_path, source="sim", host="127.0.0.1", port=0, token="t",
                    fps=20.0, pin_factory="mock")
    assistant = Assistant(config, source=source, pin_factory=factory)
    assistant.eye.stall_seconds = STALL
    assistant.eye.start()
    try:
        until(lambda: assistant.panel.status_led.is_lit and
              assistant.panel.status_led._blink_thread is None, 3, "the LED on")
        source.stall.set()
        until(lambda: assistant.panel.status_led._blink_thread is not None,
              STALL + 2, "the LED to blink")
    finally:
        source.release.set()
        assistant.stop()
        factory.reset()


@pytest.mark.parametrize("failure", [
    lambda: ValueError("cannot decode the picture"),      # what OpenCV says of a bad frame
    lambda: OSError(5, "Input/output error"),              # a driver's own error
    lambda: RuntimeError("libcamera: dequeue timeout"),
])
def test_any_failure_of_a_source_is_a_camera_problem_said_once(failure, caplog) -> None:
    source = FailingSource(failure)
    caplog.set_level(logging.INFO, logger="pi.eye")
    eye, table = running_eye(source, fps=60.0)  # the fastest a camera is set to: 20 tries
    try:                                          # in a third of a second
        until(lambda: source.reads >= 20, 5, "the eye to keep trying")
        until(lambda: table.snapshot.eye.camera == "lost", 5, "the table told")  # its thread
        snapshot = table.snapshot
        assert str(failure()) in snapshot.eye.message or \
            type(failure()).__name__ in snapshot.eye.message
        assert "the game is kept" in snapshot.eye.message
    finally:
        eye.stop()
    camera_lines = [r for r in caplog.records if r.name == "pi.eye"]
    assert 1 <= len(camera_lines) <= 2, [r.getMessage() for r in camera_lines]
    assert not any(r.exc_info for r in camera_lines)  # a line, not a traceback


def test_a_source_that_fails_to_open_with_its_own_exception_is_retried() -> None:
    source = FailingSource(lambda: PermissionError("/dev/video0: permission denied"),
                           in_open=True)
    eye, table = running_eye(source)
    try:
        until(lambda: table.snapshot.eye.camera == "lost", 3, "lost")
        assert "permission denied" in table.snapshot.eye.message
        assert eye._thread is not None and eye._thread.is_alive()
    finally:
        eye.stop()


def test_a_source_that_hands_back_no_picture_is_a_camera_problem() -> None:
    source = NothingSource()
    eye, table = running_eye(source)
    try:
        until(lambda: table.snapshot.eye.camera == "lost", 3, "lost")
        assert "no picture" in table.snapshot.eye.message
    finally:
        eye.stop()


def test_a_stop_waits_for_every_reader_and_says_when_one_is_still_stuck() -> None:
    """A stop waits for the abandoned readers too (a thread left inside a camera driver or
    OpenCV when Python exits may abort it), within its time, and says whether all ended."""
    source = StallingSource(heals=True)
    eye, table = running_eye(source)
    until(lambda: table.snapshot.eye.camera == "ok", 3, "the camera to start")
    source.stall.set()
    said = table.shown  # type: ignore[attr-defined]
    until(lambda: any(e.camera == "stalled" for e in said), STALL + 2, "stalled")
    until(lambda: said[-1].camera == "ok", 4, "the camera back after reopening")
    stuck = [t for t in threading.enumerate() if t.name == "kotd-eye-reader"]
    assert len(stuck) >= 2  # the abandoned reader, still in read(), and its successor
    assert eye.stop(wait=0.5) is False  # the abandoned one is still blocked
    source.release.set()
    assert eye.stop(wait=5) is True
    assert not any(t.is_alive() for t in stuck)

"""``kotd doctor``: each check with fakes (camera, mock pins, temp data dir), then for real
against a running assistant over HTTP."""

from __future__ import annotations

import socket
import threading
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from pi import checks
from pi.checks import Finding
from pi.cli import main
from pi.config import Config, Pins
from pi.doctor import connected_screens, report
from pi.panel_check import walk_panel
from pi.sources import CameraError
from pi.wiring import wires
from rules.store import DB_NAME, EventStore
from vision.palette import Palette
from vision.tray import Tray


class FakeCamera:
    """A frame source with the Pi camera's face and its ``info``."""

    name = "picamera"

    def __init__(self, fail: str | None = None, info: dict[str, str] | None = None) -> None:
        self.fail = fail
        self.info = info if info is not None else {
            "model": "imx708", "exposure": "locked at 9000 µs, gain 1.50",
            "white balance": "locked at red 1.90, blue 1.60",
            "focus": "locked at 2.00 dioptres (50 cm, found by autofocus at start)"}
        self.closed = False

    def open(self) -> None:
        if self.fail:
            raise CameraError(self.fail)

    def read(self) -> np.ndarray:
        return np.zeros((960, 1280, 3), np.uint8)

    def close(self) -> None:
        self.closed = True


def test_camera_mode_and_locks_are_reported() -> None:
    cam = FakeCamera()
    found = checks.camera(cam, on_pi=True)
    assert [f.status for f in found] == ["ok", "ok", "ok", "ok"]
    assert found[0].text == "picamera imx708 gives 1280x960 frames"
    assert {f.topic for f in found[1:]} == {"exposure", "white balance", "focus"}
    assert cam.closed
    webcam = FakeCamera(info={})
    webcam.name = "opencv:0"
    assert [f.status for f in checks.camera(webcam, on_pi=False)][1:] == ["info"] * 3
    unlocked = FakeCamera(info={"focus": "continuous autofocus"})
    assert checks.camera(unlocked, on_pi=True)[-1].status == "warn"


def test_a_missing_camera_fails_in_one_line_and_the_sim_is_named() -> None:
    (f,) = checks.camera(FakeCamera(fail="Pi camera could not start: no cameras"), on_pi=True)
    assert f.status == "fail" and "no cameras" in f.text
    sim = FakeCamera()
    sim.name = "sim"
    assert checks.camera(sim, on_pi=True)[0].status == "warn"
    assert checks.camera(sim, on_pi=False)[0].status == "info"


def test_pins_free_busy_and_clashing() -> None:
    factory = MockFactory()
    try:
        cfg = Config()
        (f,) = checks.pins_free(cfg, factory)
        assert f.status == "ok" and "all 15 panel pins" in f.text
        held = LED(cfg.pins.penalty, pin_factory=factory)
        (f,) = checks.pins_free(cfg, factory)
        assert f.status == "info" and "1 pins are in use" in f.text
        held.close()
    finally:
        factory.reset()
    assert checks.pin_clashes(Config(), spi_on=True, serial_console=False) == []
    old = Config(pins=Pins(slots=(23, 24, 25, 8, 7)))
    (f,) = checks.pin_clashes(old, spi_on=True, serial_console=False)
    assert f.status == "warn" and len(f.more) == 4  # 24, 25, 8 and 7 are SPI screens' pins
    (f,) = checks.pin_clashes(Config(), spi_on=False, serial_console=True)
    assert "serial console" in f.text and len(f.more) == 2


def test_panel_walk_presses_buttons_and_sees_leds() -> None:
    factory = MockFactory()
    pins = Pins()
    asked: list[int] = []

    def say(text: str) -> None:  # the person presses the button they were asked for
        wire = next(w for w in wires(pins) if w.is_button
                    and w.device.removeprefix("button: ") in text)
        factory.pin(wire.bcm).drive_low()

    def ask(question: str) -> bool:  # they see the LED only if it is really on
        wire = next(w for w in wires(pins) if not w.is_button
                    and w.device.removeprefix("LED: ") in question)
        asked.append(wire.bcm)
        return factory.pin(wire.bcm).state == 1

    try:
        found = walk_panel(pins, factory, ask, say, wait_seconds=1)
    finally:
        factory.reset()
    assert len(found) == 15 and all(f.status == "ok" for f in found), found
    assert asked == [*pins.rolls, *pins.slots, pins.penalty, pins.status]


def test_panel_walk_names_the_header_pin_of_what_does_not_work() -> None:
    factory = MockFactory()
    try:
        found = walk_panel(Pins(), factory, ask=lambda q: "slot 3" not in q,
                           say=lambda text: None, wait_seconds=0.05)
    finally:
        factory.reset()
    fails = [f.text for f in found if f.status == "fail"]
    assert len(fails) == 5  # four buttons never pressed, one LED not seen
    assert "header pin 29" in fails[0] and "claim" in fails[0]
    assert any("slot 3" in t and "header pin 38" in t for t in fails)


def test_palette_disk_and_game_file(tmp_path: Path) -> None:
    assert checks.palette(tmp_path, None).status == "warn"
    assert checks.palette(tmp_path, tmp_path / "nope.json").status == "fail"
    (tmp_path / "palette.json").write_text("{not json")
    assert checks.palette(tmp_path, None).status == "fail"
    Palette.default().save(tmp_path / "palette.json")
    assert checks.palette(tmp_path, None).status == "ok"

    assert checks.tray(tmp_path).status == "info"  # not marked: the whole picture is read
    (tmp_path / "tray.json").write_text("{not json")
    assert checks.tray(tmp_path).status == "fail"
    Tray.mark([(100, 100), (1180, 110), (1170, 860), (110, 850)], 1280, 960).save(
        tmp_path / "tray.json")
    straight = checks.tray(tmp_path)
    assert straight.status == "ok" and "from straight down" in straight.text
    Tray.mark([(400, 100), (880, 100), (1220, 860), (60, 860)], 1280, 960).save(
        tmp_path / "tray.json")
    assert checks.tray(tmp_path).status == "warn"  # the camera hangs far over to one side

    class Usage:
        def __init__(self, free: float) -> None:
            self.free = free

    assert checks.disk(tmp_path, lambda p: Usage(50e6)).status == "fail"
    assert checks.disk(tmp_path, lambda p: Usage(500e6)).status == "warn"
    assert checks.disk(tmp_path, lambda p: Usage(5e9)).text.startswith("5.0 GB free")
    assert checks.disk(tmp_path).status in ("ok", "warn", "fail")  # the real disk answers

    assert checks.game_file(tmp_path).status == "info"
    store = EventStore.in_dir(tmp_path)
    store.new_game("Ann Ben")
    f = checks.game_file(tmp_path)   # read-only while the store still has it open
    store.close()
    assert f.status == "ok" and f.text.startswith("1 games in")
    (tmp_path / DB_NAME).write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    assert checks.game_file(tmp_path).status == "fail"


def test_clock_network_and_reachability() -> None:
    floor = datetime(2026, 1, 1, tzinfo=UTC)
    assert checks.clock(datetime(1970, 1, 1, tzinfo=UTC), floor, None).status == "warn"
    assert checks.clock(datetime(2026, 6, 1, tzinfo=UTC), floor, False).status == "info"
    assert "synchronised" in checks.clock(datetime(2026, 6, 1, tzinfo=UTC), floor, True).text
    assert checks.network([], "0.0.0.0").status == "fail"
    assert checks.network(["192.168.1.20"], "127.0.0.1").status == "warn"
    assert checks.network(["192.168.1.20"], "0.0.0.0").text == "LAN address 192.168.1.20"
    link = checks.phone_link(["http://192.168.1.20:8000/?token=t"], "known")
    assert link.more[0] == "  open on a phone: http://192.168.1.20:8000/?token=t"
    assert len(link.more) > 15  # the QR code follows
    assert checks.phone_link(["http://x/"], "unreadable").status == "info"
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        from pi.doctor import can_connect

        assert checks.reachable(["127.0.0.1"], port, True, can_connect).status == "ok"
    assert checks.reachable(["127.0.0.1"], port, True, can_connect).status == "fail"
    assert checks.reachable(["127.0.0.1"], port, False, can_connect).status == "info"


def test_screens_found_in_sysfs(tmp_path: Path) -> None:
    for name, status in (("card1-HDMI-A-1", "connected"), ("card1-HDMI-A-2", "disconnected"),
                         ("card0-DSI-1", "connected")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "status").write_text(status + "\n")
    assert connected_screens(tmp_path, tmp_path / "fb1") == ["DSI-1", "HDMI-A-1"]
    (tmp_path / "fb1").touch()
    assert connected_screens(tmp_path, tmp_path / "fb1")[-1] == "SPI screen (fb1)"
    assert checks.screens([], None).status == "info"
    assert "kotd-kiosk" in checks.screens(["DSI-1"], True).text


def test_report_fails_only_on_failures() -> None:
    lines, status = report([Finding("ok", "a", "fine"), Finding("warn", "b", "hm", ("x",))])
    assert status == 0 and lines[-1].startswith("0 problems, 1 warning")
    lines, status = report([Finding("fail", "a", "broken")])
    assert status == 1 and "FAIL" in lines[0]


def test_doctor_against_a_running_assistant(tmp_path: Path, capsys) -> None:
    from conftest import wait_for
    from servekit import TOKEN

    from pi.serve import Assistant
    from pi.simtray import SimulatedTray

    config = Config(data_dir=tmp_path, source="sim", host="127.0.0.1", port=0, token=TOKEN,
                    pin_factory="mock")  # (port 0: any free one, read back once it listens)
    factory = MockFactory()
    assistant = Assistant(config, source=SimulatedTray(seed=1), pin_factory=factory)
    assistant.start()
    port = assistant.port
    try:
        (tmp_path / "config.toml").write_text(f'port = {port}\nhost = "127.0.0.1"\n'
                                              f'token = "{TOKEN}"\n')
        wait_for(lambda: assistant.table.snapshot.eye.camera == "simulated",
                 what="the simulated tray")
        status = main(["doctor", "--data-dir", str(tmp_path), "--pins", "mock"])
    finally:
        assistant.stop()
        factory.reset()
    out = capsys.readouterr().out
    assert f"the assistant answers on port {port}: no game yet, camera simulated" in out
    assert "uses the simulated tray" in out
    assert "the pins belong to the running assistant" in out
    assert f"http://127.0.0.1:{port}/?token={TOKEN}" in out
    assert "listens on 127.0.0.1 only" in out       # phones could not reach this one
    assert status == 0, out


def test_doctor_with_a_broken_config_says_so(tmp_path: Path, capsys) -> None:
    (tmp_path / "config.toml").write_text("port = 'eight'\n")
    assert main(["doctor", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "port" in err


@pytest.fixture(autouse=True)
def _no_threads_left():
    before = threading.active_count()
    yield
    assert threading.active_count() <= before + 2


def test_the_running_assistant_reports_what_its_camera_locked(tmp_path: Path) -> None:
    from conftest import wait_for
    from webkit import TOKEN

    from pi.doctor import fetch_state
    from pi.serve import Assistant

    config = Config(data_dir=tmp_path, host="127.0.0.1", port=0, token=TOKEN,
                    pin_factory="mock", source="picamera")
    factory = MockFactory()
    assistant = Assistant(config, source=FakeCamera(), pin_factory=factory)
    assistant.start()
    port = assistant.port
    try:
        state = wait_for(lambda: (s := fetch_state(port)) and s["eye"]["camera"] == "ok" and s,
                         what="the camera's report")
    finally:
        assistant.stop()
        factory.reset()
    assert state["eye"]["camera_info"]["model"] == "imx708"
    found = checks.camera_of_service(state)
    assert [f.status for f in found] == ["ok"] * 4
    assert found[0].text == "the running assistant says the camera is ok: picamera imx708"
    assert found[3].text.startswith("locked at 2.00 dioptres")
    webcam = {"eye": {"camera": "ok", "source": "opencv:0", "camera_info": {}}}
    assert [f.status for f in checks.camera_of_service(webcam)] == ["ok", "info", "info", "info"]
    assert checks.camera_of_service({"eye": {"camera": "lost"}})[0].status == "fail"


def test_a_game_file_kept_aside_and_a_service_that_cannot_save(tmp_path: Path) -> None:
    assert checks.set_aside(tmp_path) is None
    (tmp_path / DB_NAME).write_bytes(b"this is no database" * 50)
    EventStore.in_dir(tmp_path).close()  # the store keeps the damaged file aside
    found = checks.set_aside(tmp_path)
    assert found is not None and found.status == "warn"
    kept = [p.name for p in tmp_path.glob(f"{DB_NAME}.damaged-*")]
    assert len(kept) == 1 and kept[0] in found.text and "1 damaged" in found.text
    assert checks.saving(None) is None
    assert checks.saving({"storage": {"ok": True, "message": ""}}) is None
    full = checks.saving({"storage": {"ok": False, "message": "the game cannot be saved: "
                                      "the card is full (make room on it)"}})
    assert full is not None and full.status == "fail" and "full" in full.text

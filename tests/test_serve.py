"""``kotd serve`` end to end: simulated tray, mock pins, the real page server over HTTP."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from conftest import KOTD, TAKEN, free_port, on_a_free_port, wait_for
from gpiozero.pins.mock import MockFactory
from servekit import Client, press

from pi.config import Config, Pins
from pi.serve import Assistant
from pi.simtray import SimulatedTray
from rules.dice import Roll


def test_a_throw_becomes_a_roll_lights_the_slots_and_a_button_claims(assistant) -> None:
    a, tray, factory, client = assistant
    client.act("players Ann Ben")
    client.act("row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    time.sleep(0.3)
    tray.throw("4r 4g 4b 1r 2g 5r")
    state = wait_for(lambda: (s := client.get("/api/state"))["rolls_used"] == 1 and s,
                     what="the roll in the game")
    assert Counter(Roll.parse(state["dice"]["text"])) == Counter(Roll.parse("4r 4g 4b 1r 2g 5r"))
    assert state["claimable"] == [2, 5]
    pins = Pins()
    wait_for(lambda: a.panel.slot_leds[1].is_lit, what="the slot LEDs")
    assert [led.is_lit for led in a.panel.slot_leds] == [False, True, False, False, True]
    assert [bool(led.is_lit) for led in a.panel.roll_leds] == [True, False, False, False]
    press(factory, pins.claim)                     # slot 2 selected (orc-3)
    press(factory, pins.confirm)
    state = wait_for(lambda: (s := client.get("/api/state"))["phase"] == "draw" and s,
                     what="the claim")
    assert state["players"][0]["kingdom"] == ["orc-3"]


def test_the_camera_goes_away_mid_game_and_comes_back_nothing_lost(assistant, tmp_path) -> None:
    a, tray, _, client = assistant
    client.act("players Ann Ben")
    client.act("row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
    time.sleep(0.3)
    tray.throw("1r 1g 1b 2r 2g 3g")
    wait_for(lambda: client.get("/api/state")["rolls_used"] == 1, what="first roll")
    before = client.get("/api/state")
    tray.unplug()
    wait_for(lambda: a.eye.status().camera == "lost", what="camera lost")
    # the status LED blinks (the eye says "lost" first, then tells the table and the panel)
    wait_for(lambda: a.panel.status_led._blink_thread is not None, what="the LED to blink")
    client.act("claim 1")                                   # the game goes on by hand
    client.act("draw orc-4")
    tray.plug()
    wait_for(lambda: a.eye.status().camera == "simulated", seconds=10, what="camera back")
    tray.throw("6r 6g 6b 5r 5g 4g")
    state = wait_for(lambda: (s := client.get("/api/state"))["rolls_used"] == 1
                     and s["current_player"] == "Ben" and s, what="Ben's roll")
    assert state["dice"]["dice"] and before["players"][0]["name"] == "Ann"
    assert state["players"][0]["kingdom"] == ["dwarf-3x1"]
    a.stop()
    again = Assistant(a.config, source=SimulatedTray(seed=1), pin_factory=MockFactory())
    try:
        assert again.table.record == a.table.record   # restart: the same game
        assert again.table.version > a.table.version  # versions keep rising
    finally:
        again.panel.close()
        again.store.close()


def _serving(tmp_path: Path) -> tuple[subprocess.Popen[str], int, list[str]]:
    """``kotd serve`` on the simulated tray, and the two lines it printed once it listens: a
    port another test's server took between :func:`conftest.free_port` and the bind is given
    up for another (:func:`conftest.on_a_free_port`)."""
    env = dict(os.environ, KOTD_DATA_DIR=str(tmp_path))

    def start(port: int) -> tuple[subprocess.Popen[str], int, list[str]] | None:
        proc = subprocess.Popen([KOTD, "serve", "--source", "sim", "--port", str(port),
                                 "--host", "127.0.0.1", "--pins", "mock"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(2)]
        if lines[1]:
            return proc, port, lines
        err = proc.communicate(timeout=10)[1]
        assert TAKEN in err, err
        return None

    return on_a_free_port(start)


def test_kotd_serve_starts_on_the_simulated_tray_and_prints_its_address(tmp_path) -> None:
    proc, port, lines = _serving(tmp_path)
    try:
        assert "sim frames" in lines[0]
        token = (tmp_path / "token").read_text().strip()
        assert lines[1].strip() == f"open on a phone: http://127.0.0.1:{port}/?token={token}"
        client = Client(port, token)
        state = wait_for(lambda: _try(client.get, "/api/state"), what="the page server")
        assert "phase" in state or state.get("game") is None
        with pytest.raises(urllib.error.HTTPError) as err:
            Client(port, "wrong").act("players Ann Ben")
        assert err.value.code == 403
        # a game over HTTP: the simulated tray is thrown, the dice settle, the roll is read
        client.act("players Ann Ben")
        client.act("row dwarf-3x1 orc-3 elf-4 gnome-3green fairy-2r2g")
        _post(client, "/api/throw")
        # the tray's throw is random, and the table settles what the camera is unsure of as
        # players would: told "is one covered or outside the picture?" (none is), they ask
        # it to read again; a roll held for a die to check, they confirm
        state = wait_for(lambda: _roll_or_question(client), seconds=20,
                         what="the thrown dice to become a roll, or a question")
        if state["eye"]["seeing"] in MISSING and state["held"] is None:
            _post(client, "/api/reread")
            state = wait_for(lambda: _roll_or_question(client, missing=()), seconds=20,
                             what="the dice read again to become a roll, or one to check")
        if state["rolls_used"] == 0:
            assert state["held"]["why"] == "check" and state["held"]["unsure"], state["held"]
            _post(client, "/api/held", {"confirm": True})
            state = wait_for(lambda: (s := client.get("/api/state"))["rolls_used"] == 1 and s,
                             what="the checked roll to count")
            assert state["held"] is None
        assert len(state["dice"]["dice"]) == 6 and state["actions"][-1].startswith("roll ")
        assert state["claimable"] == [slot for slot in range(1, 6)
                                      if state["row"][slot - 1]["card"]["satisfied"]]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
    assert proc.returncode == 0


MISSING = ("too few dice", "no dice")
"""What the camera says when it reads fewer dice than were thrown: the table is asked
whether one is covered, and reads again when none is."""


def _roll_or_question(client: Client, missing: tuple[str, ...] = MISSING) -> dict | None:
    """The state once a throw has become a roll, a roll held to check, or (``missing``) a
    reading of fewer dice than thrown; else None."""
    s = client.get("/api/state")
    done = s["rolls_used"] == 1 or s["held"] is not None or s["eye"]["seeing"] in missing
    return s if done else None


def _post(client: Client, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(client.base + path,
                                 data=b"" if body is None else json.dumps(body).encode(),
                                 method="POST", headers={"X-Table-Token": client.token or "",
                                                         "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.parametrize(("flags", "message"), [
    (["--palette", "/nonexistent/palette.json"], "palette file /nonexistent/palette.json does "
                                                 "not exist"),
    (["--pins", "lgpio"], "GPIO pins (lgpio)"),
])
def test_serve_refuses_what_it_cannot_use_in_one_line(tmp_path, flags, message) -> None:
    out = subprocess.run([KOTD, "serve", "--source", "sim", "--port", str(free_port()), *flags,
                          "--data-dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("kotd: cannot start: ") and message in out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def _try(fn, *args):
    try:
        return fn(*args)
    except (urllib.error.URLError, ConnectionError):
        return None


def test_an_outdated_palette_in_the_data_dir_is_passed_over_one_named_is_refused(
        tmp_path, caplog) -> None:
    """Calibration is an option: a palette an older kotd left in the data dir is set aside
    with a warning (the box's colours are used); one the config names must be usable."""
    from pi.serve import StartError, make_reader

    old = tmp_path / "palette.json"
    old.write_text('{"version": 1, "centroids_lab": {"red": [44, 62, 42]}}')
    with caplog.at_level("WARNING"):
        read = make_reader(Config(data_dir=tmp_path))
    assert "older kotd" in caplog.text and callable(read)
    with pytest.raises(StartError, match="older kotd"):
        make_reader(Config(data_dir=tmp_path, palette=old))

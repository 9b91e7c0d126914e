"""The assistant (``pi.serve.Assistant``) in the test process: a simulated tray, mock pins,
a client of its page API and a button press. ``conftest``'s ``assistant`` fixture is one
started on the test's folder."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from pi.config import Config
from pi.serve import Assistant
from pi.simtray import SimulatedTray

TOKEN = "table-secret"


class Client:
    """The page API of an assistant on this machine, with the table's token."""

    def __init__(self, port: int, token: str | None = TOKEN) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.token = token

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.loads(r.read())

    def act(self, action: str) -> dict:
        req = urllib.request.Request(
            self.base + "/api/action", data=json.dumps({"action": action}).encode(),
            headers={"Content-Type": "application/json", "X-Table-Token": self.token or ""},
            method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())


def press(factory: MockFactory, pin: int) -> None:
    """A press of the button on ``pin`` (mock pins)."""
    factory.pin(pin).drive_low()
    time.sleep(0.08)
    factory.pin(pin).drive_high()
    time.sleep(0.08)


@contextlib.contextmanager
def running_assistant(data_dir: Path) -> Iterator[tuple[Assistant, SimulatedTray, MockFactory,
                                                         Client]]:
    """The assistant on ``data_dir`` (a simulated tray that settles fast, mock pins),
    started; with the tray, the pins and a client of its page."""
    config = Config(data_dir=data_dir, source="sim", host="127.0.0.1", port=0,  # (any free one)
                    token=TOKEN, settle_seconds=0.3, fps=10.0, pin_factory="mock")
    tray = SimulatedTray(seed=9, roll_seconds=0.5)
    factory = MockFactory()
    a = Assistant(config, source=tray, pin_factory=factory)
    a.start()
    try:
        yield a, tray, factory, Client(a.port)
    finally:
        a.stop()
        factory.reset()

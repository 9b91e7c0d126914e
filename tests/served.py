"""``kotd serve`` as a real process for fault-injection tests: start it on a data dir,
talk to it over HTTP, stop it and read what it logged. Its camera is a still picture of an
empty tray (``--source replay``): these tests throw no dice, and the simulated tray would
draw a tray of dice at every start (about 0.2 s of CPU, and a stop waits for it).

Also the faults a Pi's SD card has: a small full disk (tmpfs) and a card the kernel turns
read-only (ext4 on a loop device, ``errors=remount-ro``, an injected file-system error).
Those need root (CI and this machine run as root); without it their tests are skipped with
the reason.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.games import game_pack
from rules.store import EventStore
from rules.table import Table

KOTD = str(Path(sys.executable).with_name("kotd"))
TOKEN = "fault-token"
STARTED = " frames, game file "
"""What ``kotd serve`` prints once its page listens on its port (``pi/cli/serve.py``: the
line after :meth:`pi.serve.Assistant.start`)."""
DB = "kotd.sqlite3"
"""The game file's name in the served data folder."""
CONFIG = "storage_check_seconds = 0.25\n"
"""The tests' ``kotd serve`` looks after its game file every quarter second (the table:
every 2 s), so a test waits less for the table to notice what it did to the file."""


@functools.cache
def still_tray() -> Path:
    """A folder holding one picture of an empty green tray (made once per process)."""
    import cv2
    import numpy as np

    folder = Path(tempfile.mkdtemp(prefix="kotd-still-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    cv2.imwrite(str(folder / "tray.png"), np.full((240, 320, 3), (60, 110, 40), np.uint8))
    return folder


class Served:
    """One ``kotd serve --source replay:STILL --pins mock`` on ``data_dir`` (STILL: the
    :func:`still_tray`); ``stop()`` returns its exit status and what it wrote on standard
    error (the log)."""

    def __init__(self, data_dir: Path, *args: str, wait: float = 30.0) -> None:
        from conftest import on_a_free_port

        self.data_dir = data_dir
        # the log lives apart from the data dir: that one may be on a full or broken disk
        handle, name = tempfile.mkstemp(prefix="kotd-serve-", suffix=".log")
        os.close(handle)
        self._log = Path(name)
        self._said = self._log.with_suffix(".out")  # standard output: the page's address
        self._config = self._log.with_suffix(".toml")
        self._config.write_text(CONFIG)
        self._text: str | None = None  # the log, once stopped (its file is gone then)
        on_a_free_port(lambda port: self._start(port, data_dir, args, wait))

    def _start(self, port: int, data_dir: Path, args: tuple[str, ...], wait: float
               ) -> Served | None:
        """This ``kotd serve`` started on ``port`` and answering (itself); None when another
        test's server took the port first (:func:`conftest.on_a_free_port`)."""
        from conftest import TAKEN

        self.port = port
        self.base = f"http://127.0.0.1:{self.port}"
        self._log_file = self._log.open("w")
        with self._said.open("w") as out:
            self.proc = subprocess.Popen(
                [KOTD, "serve", "--config", str(self._config), "--source",
                 f"replay:{still_tray()}", "--pins",
                 "mock", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir",
                 str(data_dir), "--token", TOKEN, *args],
                stdout=out, stderr=self._log_file, text=True)
        if self._listening(wait):
            return self
        if self.proc.poll() is None:
            self.stop()
            raise AssertionError("kotd serve did not answer in time")
        if TAKEN in self.log():
            return None
        raise AssertionError(f"kotd serve ended at start: {self.log()}")

    def _listening(self, wait: float) -> bool:
        """Whether this ``kotd serve`` said it listens (its own port, not one another test's
        server took between :func:`conftest.free_port` and the bind) and its page answers;
        False when it ended first (the log tells why) or did not within ``wait`` seconds."""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                self._log_file.close()
                return False
            if STARTED in self._said.read_text(errors="replace"):
                with contextlib.suppress(OSError):
                    status, _ = self.get("/api/state")
                    if status == 200:
                        return True
            time.sleep(0.1)
        return False

    def log(self) -> str:
        if self._log_file.closed:
            return self._log.read_text(errors="replace") if self._text is None else self._text
        self._log_file.flush()
        return self._log.read_text(errors="replace")

    def request(self, method: str, path: str, body: Any = None,
                token: str | None = TOKEN) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Table-Token"] = token
        req = urllib.request.Request(self.base + path, data=data, headers=headers,
                                     method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"{}")

    def get(self, path: str) -> tuple[int, dict]:
        return self.request("GET", path)

    def state(self) -> dict:
        status, body = self.get("/api/state")
        assert status == 200, body
        return body

    def act(self, line: str, **extra: Any) -> tuple[int, dict]:
        return self.request("POST", "/api/action", {"action": line, **extra})

    def stop(self) -> tuple[int, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if not self._log_file.closed:
            self._log_file.close()
            self._text = self._log.read_text(errors="replace")
            self._log.unlink(missing_ok=True)
            self._said.unlink(missing_ok=True)
            self._config.unlink(missing_ok=True)
        return self.proc.returncode, self._text

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_for(predicate, seconds: float = 10.0, what: str = "condition") -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def no_traceback(log: str) -> None:
    assert "Traceback" not in log, log


# ---- a failing SD card -------------------------------------------------------------------

needs_root = pytest.mark.skipif(os.geteuid() != 0,
                                reason="mounting a small or failing disk needs root")


def _run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, capture_output=True, timeout=30)


@contextlib.contextmanager
def small_disk(where: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``where`` (a disk that fills up)."""
    where.mkdir(parents=True, exist_ok=True)
    try:
        _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where))
    except (subprocess.CalledProcessError, FileNotFoundError) as err:
        pytest.skip(f"cannot mount a tmpfs here: {err}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte with one file; returns it (delete it to free)."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:
        with contextlib.suppress(OSError):
            while True:
                out.write(b"\0" * 4096)
        with contextlib.suppress(OSError):
            while True:
                out.write(b"\0")
    return filler


@contextlib.contextmanager
def failing_card(where: Path, size_mb: int = 16) -> Iterator[tuple[Path, str]]:
    """An ext4 file system on a loop device, mounted at ``where`` with
    ``errors=remount-ro``; yields (mount point, device name). :func:`break_card` then
    makes the kernel turn it read-only, as it does with a worn SD card."""
    image = where.parent / f"{where.name}.img"
    where.mkdir(parents=True, exist_ok=True)
    with image.open("wb") as out:
        out.truncate(size_mb << 20)
    try:
        _run("mkfs.ext4", "-q", "-F", str(image))
        _run("mount", "-o", "loop,errors=remount-ro", str(image), str(where))
    except (subprocess.CalledProcessError, FileNotFoundError) as err:
        pytest.skip(f"cannot mount an ext4 loop device here: {err}")
    try:
        device = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(where)],
                                capture_output=True, text=True, check=True).stdout.strip()
        yield where, Path(device).name
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)
        image.unlink(missing_ok=True)


def break_card(device: str) -> None:
    """An ext4 error on ``device``: the kernel remounts it read-only at once."""
    trigger = Path(f"/sys/fs/ext4/{device}/trigger_fs_error")
    if not trigger.exists():
        pytest.skip("this kernel cannot inject an ext4 error")
    trigger.write_text("kotd fault test\n")


def stored(server: Served) -> list[str]:
    """The game the running server holds (its history, as the page reads it)."""
    status, body = server.get("/api/history")
    assert status == 200, body
    return [event["action"] for event in body["events"]]


def resumed(data: Path) -> list[str]:
    """The game a table opened on a stopped server's game file resumes (its history)."""
    store = EventStore(data / DB)
    try:
        return [str(event.action) for event in Table(store, game_pack("kotd")).history()]
    finally:
        store.close()

"""What ``kotd doctor`` checks, one pure function per fact about the table.

Every check takes what it looks at as arguments (a config, the running assistant's state,
a frame source, a pin factory, a clock, a disk) and returns :class:`Finding` s in plain
words, so tests can hand it mock pins, a fake camera and a temporary data directory.
``pi.doctor`` gathers the real things and prints the findings.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pi.config import SCREEN_PINS, Config
from pi.wiring import wires

Status = Literal["ok", "warn", "fail", "info"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of the doctor's report, with extra lines (a QR code, advice) below it."""

    status: Status
    topic: str
    text: str
    more: tuple[str, ...] = ()


def service(state: dict[str, Any] | None, port: int) -> Finding:
    """Whether the assistant answers on this machine (``state`` is its /api/state or None)."""
    if state is None:
        return Finding("info", "service", f"the assistant is not answering on port {port} "
                       "(start it: sudo systemctl start kotd)")
    eye = state.get("eye", {})
    camera = eye.get("camera", "?")
    game = "no game yet" if state.get("game_id") is None else f"game {state['game_id']}"
    return Finding("ok", "service", f"the assistant answers on port {port}: {game}, "
                   f"camera {camera}" + (f" ({eye['message']})" if eye.get("message") else ""))


def camera_of_service(state: dict[str, Any]) -> list[Finding]:
    """The camera as the running assistant reports it, with what it locked at opening."""
    eye = state.get("eye", {})
    camera = eye.get("camera", "?")
    if camera == "simulated":
        return [Finding("info", "camera", "the running assistant uses the simulated tray "
                        "(source = \"sim\", or no camera was found)")]
    info: dict[str, str] = eye.get("camera_info") or {}
    found = [Finding("ok" if camera == "ok" else "fail", "camera",
                     f"the running assistant says the camera is {camera}" + (
                         f": {eye.get('source', '')} {info.get('model', '')} "
                         f"{info.get('mode', '')}".rstrip() if info else ""))]
    found += _locks(info, str(eye.get("source", "?")))
    return found


def _locks(info: dict[str, str], name: str) -> list[Finding]:
    found = []
    for key in ("exposure", "white balance", "focus"):
        value = info.get(key)
        if value is None:
            found.append(Finding("info", key, f"not controlled by {name} (a webcam keeps its "
                                 "own settings: keep the light steady)"))
        else:
            found.append(Finding("ok" if "locked" in value or "fixed" in value else "warn",
                                 key, value))
    return found


def camera(source: Any, on_pi: bool) -> list[Finding]:
    """Open ``source``, take one frame, and say what it is and what is locked."""
    from pi.sources import CameraError

    name = getattr(source, "name", "?")
    if name == "sim":
        return [Finding("warn" if on_pi else "info", "camera",
                        "no camera: the simulated tray stands in" + (
                            " (is the ribbon in? see hardware.md, 'The camera')" if on_pi
                            else ""))]
    try:
        source.open()
        frame = source.read()
    except CameraError as err:
        return [Finding("fail", "camera", f"{name}: {err}")]
    finally:
        with contextlib.suppress(Exception):  # closing a camera that never opened
            source.close()
    h, w = frame.shape[:2]
    info: dict[str, str] = dict(getattr(source, "info", {}) or {})
    found = [Finding("ok", "camera", f"{name} {info.get('model', '')} gives {w}x{h} "
                     f"frames".replace("  ", " "))]
    found += _locks(info, name)
    if min(w, h) < 480:
        found.append(Finding("warn", "camera", f"{w}x{h} is small: dice may be too few pixels"))
    return found


def pins_free(config: Config, factory: Any) -> list[Finding]:
    """Claim every panel pin once with ``factory`` and let it go again."""
    from gpiozero import LED, Button
    from gpiozero.exc import GPIOPinInUse, GPIOZeroError

    busy, broken = [], []
    for wire in wires(config.pins):
        try:
            device = (Button(wire.bcm, pin_factory=factory) if wire.is_button
                      else LED(wire.bcm, pin_factory=factory))
        except GPIOPinInUse:
            busy.append(wire)
            continue
        except (GPIOZeroError, OSError, RuntimeError, ValueError) as err:
            broken.append(f"GPIO {wire.bcm} ({wire.device}): {err}")
            continue
        device.close()
    if broken:
        return [Finding("fail", "GPIO", f"{len(broken)} pins cannot be used", tuple(broken))]
    if busy:
        return [Finding("info", "GPIO", f"{len(busy)} pins are in use (by the running "
                        "assistant); to test the panel: sudo systemctl stop kotd; "
                        "sudo kotd doctor --panel")]
    return [Finding("ok", "GPIO", f"all {len(wires(config.pins))} panel pins are free "
                    "(press-and-see test: kotd doctor --panel)")]


def pin_clashes(config: Config, spi_on: bool, serial_console: bool) -> list[Finding]:
    """Pins shared with an SPI screen (when SPI is on) or with the serial console."""
    found = []
    spi = [w for w in wires(config.pins) if w.bcm in SCREEN_PINS]
    if spi and spi_on:
        found.append(Finding("warn", "GPIO", "SPI is on and the panel uses pins SPI screens "
                             "use", tuple(f"GPIO {w.bcm} ({w.device}): {SCREEN_PINS[w.bcm]}"
                                          for w in spi)))
    uart = [w for w in wires(config.pins) if w.bcm in (14, 15)]
    if uart and serial_console:
        found.append(Finding("warn", "GPIO", "the serial console is on and shares GPIO 14/15 "
                             "with the panel: turn it off (sudo raspi-config → Interface "
                             "Options → Serial Port → no login shell)",
                             tuple(f"GPIO {w.bcm}: {w.device}" for w in uart)))
    return found


def palette(data_dir: Path, configured: Path | None) -> Finding:
    from vision.palette import Palette

    path = configured or data_dir / "palette.json"
    if not path.exists():
        if configured is not None:
            return Finding("fail", "palette", f"{path} (named in the config) does not exist")
        return Finding("warn", "palette", "no calibrated colours yet: the default ones are used "
                       "(calibrate once under your lamp: hardware.md, 'Calibrating')")
    try:
        Palette.load(path)
    except (OSError, ValueError) as err:
        return Finding("fail", "palette", f"{path}: {err} (run kotd calibrate again)")
    when = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%d")
    return Finding("ok", "palette", f"calibrated colours from {when} ({path})")


def tray(data_dir: Path) -> Finding:
    """The tray marked at calibration, if any, and how far the camera looks from straight
    down at it (beyond :data:`vision.tray.MOST_TILT` the reader was not made for)."""
    from pi.config import tray_in
    from rules.errors import TrayError
    from vision.tray import MOST_TILT, Tray

    path = tray_in(data_dir)
    if not path.exists():
        return Finding("info", "tray", "not marked: the whole picture is read (mark it on the "
                       "page's camera view when cards lie beside it or the camera hangs at an "
                       "angle)")
    try:
        tilt = Tray.load(path).tilt()
    except (OSError, TrayError) as err:
        return Finding("fail", "tray", f"{path}: {err}")
    if tilt > MOST_TILT:
        return Finding("warn", "tray", f"marked; the camera looks at it {tilt:.0f}° from "
                       "straight down: dice hide each other at that angle, hang it more "
                       "steeply over the tray")
    return Finding("ok", "tray", f"marked; the camera looks at it {tilt:.0f}° from straight "
                   "down")


def disk(data_dir: Path, usage: Callable[[Path], Any] = shutil.disk_usage) -> Finding:
    """Free space where the game file lives: below 100 MB games may stop being saved."""
    where = data_dir if data_dir.exists() else data_dir.parent
    try:
        free = usage(where).free
    except OSError as err:
        return Finding("fail", "disk", f"{where}: {err.strerror}")
    mb = free / 1e6
    text = f"{mb / 1000:.1f} GB free" if mb >= 1000 else f"{mb:.0f} MB free"
    if mb < 100:
        return Finding("fail", "disk", f"only {text} for the game file: make room")
    if mb < 1000:
        return Finding("warn", "disk", f"{text}: enough for now, but the card is nearly full")
    return Finding("ok", "disk", f"{text} for the game file")


def game_file(data_dir: Path) -> Finding:
    """The game file opens read-only and passes SQLite's quick check."""
    from rules.store import DB_NAME, not_a_file

    path = data_dir / DB_NAME
    odd = not_a_file(path)  # a folder, a pipe (never opened: it would wait), a device
    if odd:
        return Finding("fail", "game file", odd)
    if not path.exists():
        return Finding("info", "game file", f"none yet ({path} is made by the first game)")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            result = db.execute("PRAGMA quick_check").fetchone()[0]
            games = db.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as err:
        return Finding("fail", "game file", f"{path}: {err}")
    if result != "ok":
        return Finding("fail", "game file", f"{path} is damaged: {result}")
    size = path.stat().st_size / 1e6
    return Finding("ok", "game file", f"{games} games in {path} ({size:.1f} MB); "
                   "back it up with: sudo kotd backup")


def damage(path: Path, most: int = 3) -> str:
    """What SQLite's quick check says of a file kept aside, in at most ``most`` lines."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            lines = [str(row[0]) for row in db.execute("PRAGMA quick_check(20)")]
        finally:
            db.close()
    except sqlite3.Error as err:
        return str(err)
    text = "; ".join(lines[:most])
    return text + (f" (and {len(lines) - most} more)" if len(lines) > most else "")


def set_aside(data_dir: Path) -> Finding | None:
    """Game files kept aside because they were damaged (``kotd.sqlite3.damaged-...``):
    the games in them are not lost, but they are not played on; None if there are none."""
    from rules.store import DB_NAME, SET_ASIDE

    kept = sorted(p for p in data_dir.glob(f"{DB_NAME}{SET_ASIDE}*")
                  if not p.name.endswith(("-wal", "-shm")))
    if not kept:
        return None
    return Finding("warn", "game file", f"{len(kept)} damaged game file(s) kept aside: "
                   + ", ".join(p.name for p in kept), (
                       *(f"{p.name}: {damage(p)}" for p in kept[-3:]),
                       "a new game file was started in their place; the card may be failing "
                       "(replace it soon)",
                       "to look at one: kotd restore FILE (with the assistant stopped) after "
                       "a backup; to forget it: delete it"))


def saving(state: dict[str, Any] | None) -> Finding | None:
    """What the running assistant says about saving the game (None if not running or
    nothing to say)."""
    storage = (state or {}).get("storage") or {}
    if not storage:
        return None
    if not storage.get("ok", True):
        return Finding("fail", "saving", storage.get("message") or "the game is not saved",
                       ("free space on the card, or replace a card that turned read-only; "
                        "saving resumes by itself",))
    if storage.get("message"):
        return Finding("info", "saving", storage["message"])
    return None


def clock(now: datetime, floor: datetime, synced: bool | None) -> Finding:
    """The clock is after ``floor`` (when this software was made) and, ideally, synced."""
    if now < floor:
        return Finding("warn", "clock", f"the clock says {now:%Y-%m-%d %H:%M}, before this "
                       f"software was installed ({floor:%Y-%m-%d}): game dates will be wrong",
                       ("a Pi 4 has no battery clock: connect to the internet once, add a "
                        "clock module (I2C), or: sudo date -s '2025-06-01 20:00'",))
    if synced is False:
        return Finding("info", "clock", f"{now:%Y-%m-%d %H:%M} UTC, not synchronised with "
                       "the internet (fine at a table without Wi-Fi)")
    return Finding("ok", "clock", f"{now:%Y-%m-%d %H:%M} UTC" + (
        ", synchronised" if synced else ""))


def network(lan: Sequence[str], host: str) -> Finding:
    if host not in ("0.0.0.0", "::", ""):
        return Finding("warn", "network", f"the assistant listens on {host} only: phones "
                       "need host = \"0.0.0.0\" in config.toml")
    if not lan:
        return Finding("fail", "network", "the Pi has no network address: join Wi-Fi "
                       "(sudo nmtui) or make a hotspot (hardware.md, 'Networks')")
    return Finding("ok", "network", f"LAN address {', '.join(lan)}")


def phone_link(urls: Sequence[str], token: Literal["known", "missing", "unreadable"]
               ) -> Finding:
    """The link phones open (with the table's token) and its QR code."""
    from pi.lan import phone_lines

    if token == "unreadable":
        return Finding("info", "phone link", "the table's token is not readable by this user: "
                       "sudo kotd doctor shows the full link", tuple(phone_lines(urls, qr=False)))
    if token == "missing":
        return Finding("info", "phone link", "no token yet: the assistant makes one at its "
                       "first start", tuple(phone_lines(urls, qr=False)))
    return Finding("ok", "phone link", "phones on the same Wi-Fi open:",
                   tuple(phone_lines(urls)))


def reachable(lan: Sequence[str], port: int, running: bool,
              connect: Callable[[str, int], bool]) -> Finding:
    """The page answers on the LAN addresses (what a phone on the same network opens)."""
    if not running:
        return Finding("info", "port", "not checked: the assistant is not running")
    if not lan:
        return Finding("fail", "port", "no LAN address to reach")
    bad = [ip for ip in lan if not connect(ip, port)]
    if bad:
        return Finding("fail", "port", f"port {port} does not answer on {', '.join(bad)}: "
                       "a firewall, or host set to 127.0.0.1 in config.toml?")
    return Finding("ok", "port", f"port {port} answers on {', '.join(lan)}", (
        "a phone on the same network reaches it, unless the Wi-Fi isolates its clients "
        "(guest networks): then use the Pi's hotspot (hardware.md, 'Networks')",))


def stack(modules: Sequence[Any], on_pi: bool) -> Finding:
    """OpenCV and NumPy: the system's on the Pi (a pip wheel breaks picamera2)."""
    text = ", ".join(m.describe() for m in modules if m.name in ("cv2", "numpy", "picamera2"))
    wheels = [m.name for m in modules if m.name in ("cv2", "numpy") and m.in_venv]
    missing = [m.name for m in modules if m.name in ("cv2", "numpy") and m.version is None]
    if missing:
        return Finding("fail", "python", f"{', '.join(missing)} does not import: run "
                       "pi/install.sh again")
    if on_pi and wheels:
        return Finding("fail", "python", f"{text}: pip wheels break picamera2; run "
                       "pi/install.sh again")
    return Finding("ok", "python", text)


def screens(connected: Sequence[str], kiosk_enabled: bool | None) -> Finding:
    if not connected:
        return Finding("info", "screen", "no screen on the Pi (phones show the table)")
    kiosk = {True: "the table page runs full screen on it (kotd-kiosk)",
             False: "the kiosk is not installed (sudo pi/install.sh --kiosk)",
             None: ""}[kiosk_enabled]
    return Finding("ok", "screen", f"{', '.join(connected)} connected" +
                   (f": {kiosk}" if kiosk else ""))

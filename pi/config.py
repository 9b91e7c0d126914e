"""One small typed configuration, loaded once at start.

Read from a TOML file (``--config FILE``, else ``$KOTD_CONFIG``, else ``config.toml`` in the
data directory if present), then overridden by command-line flags. Every mistake is
reported as one line naming the file and the key. Defaults are documented in hardware.md.

Example ``config.toml``::

    game = "kotd"                # the game a new table plays (kotd | ukuk); the table may
                                 # switch ('game ukuk' on the page) and keeps its choice
    strip = "none"               # ukuk: where set-aside dice lie: none (out of view) | bottom:0.25
    source = "picamera"          # auto | sim | picamera | opencv[:INDEX] | replay:PATH
    dice = "haba"                # haba | standard
    port = 8000
    [pins]                       # BCM numbers
    claim = 5
    rolls = [17, 27, 22, 10]
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

from rules.errors import DataError, UsageError
from rules.games import GAMES
from rules.inputs import read_text

MAX_CONFIG_BYTES = 64 * 1024
"""A config file is a few lines: at most 64 KiB is read (``--config /dev/zero``)."""


class ConfigError(DataError):
    """A configuration mistake; the message is one line naming the file and key."""

    family = "config"


def _bad(message: str) -> ConfigError:
    return ConfigError("broken", "{message}", message=message)


SCREEN_PINS: dict[int, str] = {
    7: "SPI0 CE1 (touch controller of SPI screens)",
    8: "SPI0 CE0 (SPI screens)",
    9: "SPI0 MISO",
    10: "SPI0 MOSI (SPI screens)",
    11: "SPI0 SCLK (SPI screens)",
    17: "touch interrupt of Waveshare-type SPI screens",
    18: "backlight of Adafruit PiTFT-type SPI screens",
    24: "data/command of Waveshare-type SPI screens",
    25: "reset or data/command of SPI screens",
}
"""GPIO pins that common SPI screens take; the default panel pins avoid them all."""
RESERVED_PINS: dict[int, str] = {
    0: "HAT ID EEPROM", 1: "HAT ID EEPROM", 2: "I2C SDA (clock module, touch)",
    3: "I2C SCL (clock module, touch)",
}
"""Pins the default panel leaves free for the HAT EEPROM and an I2C clock module."""


@dataclass(frozen=True, slots=True)
class Pins:
    """BCM pin numbers of the table panel (the wiring diagram in hardware.md is made from these).

    Each field's ``doc`` names the device as the wiring diagram shows it ("button: ..." or
    "LED: ..."); ``python -m pi.wiring --write hardware.md`` redraws the diagram.

    The defaults keep clear of :data:`SCREEN_PINS`, so an SPI screen and the panel can share
    the Pi, and of I2C (a clock module) and the HAT ID pins. That leaves no free pin: a new
    device takes GPIO 18 first (only PiTFT-type screens use it, for the backlight) and goes
    into :meth:`all`; the wiring diagram picks it up from its field and ``doc``.
    """

    claim: int = field(default=5, metadata={"doc": "button: claim / next slot"})
    confirm: int = field(default=6, metadata={"doc": "button: confirm"})
    undo: int = field(default=13, metadata={"doc": "button: undo"})
    reread: int = field(default=19, metadata={"doc": "button: re-read the dice"})
    rolls: tuple[int, ...] = field(default=(4, 27, 22, 23), metadata={
        "doc": "LED: roll {n} used", "last": "LED: roll 4 (elf; blinks while available)"})
    slots: tuple[int, ...] = field(default=(12, 16, 20, 21, 26), metadata={
        "doc": "LED: slot {n} claimable"})
    penalty: int = field(default=14, metadata={"doc": "LED: penalty (nothing claimable)"})
    status: int = field(default=15, metadata={
        "doc": "LED: status (on = reading, blinking = camera problem)"})
    check: int | None = field(default=None, metadata={
        "doc": "LED: check the dice (a die the camera is unsure of)"})
    """Optional: every free pin is taken by the default panel, a screen, I2C or the HAT ID;
    e.g. ``check = 18`` on a Pi without a PiTFT-type screen. Without it the status LED
    flickers while a roll waits to be checked."""

    def all(self) -> list[int]:
        return [self.claim, self.confirm, self.undo, self.reread, *self.rolls, *self.slots,
                self.penalty, self.status, *([] if self.check is None else [self.check])]


@dataclass(frozen=True, slots=True)
class Config:
    """Everything ``kotd serve`` is told; the data directory is decided here, once."""

    data_dir: Path = field(default_factory=lambda: default_data_dir())
    game: str = "kotd"
    source: str = "auto"
    dice: str = "haba"
    strip: str = "none"
    host: str = "0.0.0.0"
    port: int = 8000
    threads: int = 64  # 54 live phones and 10 for pages and actions (web.server)
    token: str | None = None
    palette: Path | None = None
    settle_seconds: float = 0.4
    stable_reads: int = 2
    fps: float = 10.0
    storage_check_seconds: float = 2.0  # how often the game file is looked after
    pin_factory: str = "auto"      # auto | mock | lgpio | rpigpio | pigpio
    focus_cm: float | None = None  # Camera Module 3: lens-to-tray distance; None = autofocus once
    pins: Pins = field(default_factory=Pins)

    @property
    def palette_path(self) -> Path:
        """The colour palette: the one named, else the one calibrated into the data dir."""
        return self.palette or palette_in(self.data_dir)


def tray_in(data_dir: Path) -> Path:
    """Where calibration keeps the tray's corners in a data directory."""
    from vision.tray import TRAY_FILE

    return data_dir / TRAY_FILE


def palette_in(data_dir: Path) -> Path:
    """Where ``kotd calibrate`` keeps the palette in a data directory."""
    return data_dir / "palette.json"


SOURCES = ("auto", "sim", "picamera", "opencv", "replay")


def default_data_dir() -> Path:
    """``$KOTD_DATA_DIR``, systemd's ``$STATE_DIRECTORY``, else the user's data dir."""
    env = os.environ.get("KOTD_DATA_DIR") or os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    return Path(platformdirs.user_data_dir("kotd", appauthor=False))


def _check(cfg: Config, where: str) -> Config:
    if cfg.game not in GAMES:
        raise _bad(f"{where}: game {cfg.game!r} is not one of {', '.join(GAMES)}")
    kind = cfg.source.split(":", 1)[0]
    if kind not in SOURCES:
        raise _bad(f"{where}: source {cfg.source!r} is not one of "
                          "auto, sim, picamera, opencv[:INDEX], replay:PATH")
    if kind == "replay" and ":" not in cfg.source:
        raise _bad(f"{where}: source replay needs a path: replay:PATH")
    if kind == "opencv" and ":" in cfg.source and not cfg.source.split(":", 1)[1].isdigit():
        raise _bad(f"{where}: source opencv:INDEX needs a camera number, e.g. opencv:0")
    if cfg.strip != "none":
        from vision.strip import AsideStrip, StripError

        try:
            AsideStrip.parse(cfg.strip)
        except StripError as err:
            raise _bad(f"{where}: strip: {err} (or \"none\")") from None
    if cfg.dice not in ("haba", "standard"):
        raise _bad(f"{where}: dice must be 'haba' or 'standard', not {cfg.dice!r}")
    if not _host_ok(cfg.host):
        raise _bad(f"{where}: host {cfg.host!r} is not an address of this machine's kind "
                   "(e.g. 0.0.0.0 for every address, 127.0.0.1 for this machine only)")
    if not 0 < cfg.port < 65536:
        raise _bad(f"{where}: port must be 1-65535, not {cfg.port}")
    if cfg.threads < 4:
        raise _bad(f"{where}: threads must be at least 4 (one per phone plus spare)")
    if not 0.05 <= cfg.settle_seconds <= 5:
        raise _bad(f"{where}: settle_seconds must be 0.05-5")
    if not 1 <= cfg.stable_reads <= 10:
        raise _bad(f"{where}: stable_reads must be 1-10")
    if cfg.focus_cm is not None and (isinstance(cfg.focus_cm, bool) or not isinstance(
            cfg.focus_cm, int | float) or not 10 <= cfg.focus_cm <= 300):
        raise _bad(f"{where}: focus_cm must be the lens-to-tray distance in cm, 10-300")
    if not 0.5 <= cfg.fps <= 60:
        raise _bad(f"{where}: fps must be 0.5-60")
    if not 0.1 <= cfg.storage_check_seconds <= 60:
        raise _bad(f"{where}: storage_check_seconds must be 0.1-60")
    pins = cfg.pins
    if len(pins.slots) != 5 or not 3 <= len(pins.rolls) <= 4:
        raise _bad(f"{where}: pins.slots needs 5 pins and pins.rolls 3 or 4")
    used = pins.all()
    bad = [p for p in used if not 0 <= p <= 27]
    if bad:
        raise _bad(f"{where}: pin {bad[0]} is not a BCM GPIO number (0-27)")
    twice = sorted({p for p in used if used.count(p) > 1})
    if twice:
        raise _bad(f"{where}: pin {twice[0]} is used twice in [pins]")
    return cfg


def _host_ok(host: str) -> bool:
    """Whether ``host`` can be listened on at all: an IPv4 or IPv6 address, or a host name
    of letters, digits, dots and hyphens (999.1.1.1 is neither)."""
    import ipaddress
    import re

    if host == "":  # every address, as 0.0.0.0
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        labels = host.rstrip(".").split(".")
        return (0 < len(host) <= 253 and not all(label.isdigit() for label in labels)
                and all(re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", label)
                        for label in labels))
    return True


def _typed(name: str, value: Any, default: Any, where: str) -> Any:
    if name in ("data_dir", "palette"):
        if not isinstance(value, str):
            raise _bad(f"{where}: {name} must be a path string")
        return Path(value).expanduser()
    if isinstance(default, bool) or default is None:
        if name == "token" and not isinstance(value, str):
            raise _bad(f"{where}: token must be a string")
        return value
    if isinstance(default, float) and isinstance(value, int | float) \
            and not isinstance(value, bool):
        return float(value)
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise _bad(f"{where}: {name} must be a list of pin numbers")
        return tuple(value)
    if not isinstance(value, type(default)) or isinstance(value, bool):
        raise _bad(f"{where}: {name} must be a {type(default).__name__}, "
                          f"not {value!r}")
    return value


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """The configuration from ``path`` (or the default places) with ``overrides`` on top."""
    base = Config()
    data: dict[str, Any] = {}
    where = "defaults"
    if path is None:
        path = os.environ.get("KOTD_CONFIG")
        if path is None:
            data_dir = overrides.get("data_dir") or base.data_dir
            candidate = Path(data_dir) / "config.toml"
            path = candidate if candidate.exists() else None
    if path is not None:
        where = str(path)
        try:  # at most MAX_CONFIG_BYTES, UTF-8, never a pipe (rules.inputs)
            data = tomllib.loads(read_text(path, MAX_CONFIG_BYTES, "the config"))
        except OSError as err:
            raise _bad(f"{where}: cannot read the config: {err.strerror or err}") from None
        except UsageError as err:  # too large, not UTF-8 (a binary file), a pipe
            raise _bad(str(err)) from None
        except tomllib.TOMLDecodeError as err:
            raise _bad(f"{where}: not valid TOML: {err}") from None
    known = {f.name: getattr(base, f.name) for f in fields(Config)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise _bad(f"{where}: unknown key {key!r} (known: {', '.join(known)})")
        if key == "pins":
            values["pins"] = _pins(value, f"{where}: [pins]")
        else:
            values[key] = _typed(key, value, known[key], f"{where}: {key}")
    cfg = replace(base, **values)
    flags = {k: v for k, v in overrides.items() if v is not None}
    if "data_dir" in flags:
        flags["data_dir"] = Path(flags["data_dir"])
    if "palette" in flags:
        flags["palette"] = Path(flags["palette"])
    return _check(replace(cfg, **flags), where if not flags else f"{where} + flags")


def _pins(value: Any, where: str) -> Pins:
    if not isinstance(value, dict):
        raise _bad(f"{where}: must be a table of name = pin")
    base = Pins()
    known = {f.name: getattr(base, f.name) for f in fields(Pins)}
    out: dict[str, Any] = {}
    for key, v in value.items():
        if key not in known:
            raise _bad(f"{where}: unknown pin {key!r} (known: {', '.join(known)})")
        if known[key] is None:  # an optional pin
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 27:
                raise _bad(f"{where} {key}: must be a GPIO pin number 0-27, not {v!r}")
            out[key] = v
            continue
        out[key] = _typed(key, v, known[key], f"{where} {key}")
    return replace(base, **out)

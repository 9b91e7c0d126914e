"""``kotd doctor``: is this table ready to play? One command, plain words.

Checks the assistant (running or not), the camera and what it locks, the GPIO pins, the
colour palette, the marked tray and the camera's tilt, the game file, disk space, the
clock, the screen, the Python stack, the LAN address with the phone link and its QR code,
and whether the page answers from the network. ``--panel`` walks through every button and
LED with the person at the table. The checks themselves are in :mod:`pi.checks` (pure,
tested with fakes); this module only gathers the real machine's facts and prints. Exit
status 1 when something fails.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pi import checks
from pi.checks import Finding
from pi.config import Config, ConfigError, load_config

MARK = {"ok": "ok  ", "warn": "warn", "fail": "FAIL", "info": "  - "}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check the camera, pins, network and files; explain")
    p.add_argument("--config", metavar="FILE", help="config file (TOML)")
    p.add_argument("--data-dir", metavar="DIR", help="the assistant's data directory")
    p.add_argument("--pins", dest="pin_factory", help="gpiozero pin factory: auto | mock | lgpio")
    p.add_argument("--quick", action="store_true",
                   help="do not open the camera (what pi/install.sh runs)")
    p.add_argument("--panel", action="store_true",
                   help="press each button and look at each LED (the assistant stopped)")
    p.set_defaults(handler=cmd_doctor)


def fetch_state(port: int, timeout: float = 2.0) -> dict[str, Any] | None:
    """The running assistant's /api/state on this machine, or None if nothing answers."""
    import urllib.request  # here, not with the module: every kotd command imports it

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state",
                                    timeout=timeout) as r:
            state = json.loads(r.read())
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def can_connect(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


def read_token(config: Config) -> tuple[str | None, Literal["known", "missing", "unreadable"]]:
    """The table's token if this user may read it (never makes one)."""
    if config.token:
        return config.token, "known"
    from rules.errors import UsageError
    from rules.inputs import read_text

    path = config.data_dir / "token"
    try:  # at most 4 KiB, never a pipe (it would wait for a writer forever)
        token = read_text(path, 4096).strip()
    except FileNotFoundError:
        return None, "missing"
    except (OSError, UsageError):
        return None, "unreadable"
    return (token, "known") if token else (None, "missing")


def ntp_synced() -> bool | None:
    try:
        out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                             capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    value = out.stdout.strip()
    return {"yes": True, "no": False}.get(value)


def software_date() -> datetime:
    """When this copy was installed: the newest of its own files."""
    return datetime.fromtimestamp(max(p.stat().st_mtime for p in Path(__file__).parent.glob(
        "*.py")), UTC)


def serial_console() -> bool:
    for path in (Path("/boot/firmware/cmdline.txt"), Path("/boot/cmdline.txt")):
        try:
            text = path.read_text()
        except OSError:
            continue
        return any(c in text for c in ("console=serial0", "console=ttyAMA0", "console=ttyS0"))
    return False


def connected_screens(drm: Path = Path("/sys/class/drm"), fb1: Path = Path("/dev/fb1")
                      ) -> list[str]:
    """Connected screens: HDMI/DSI/DPI connectors that report 'connected', an SPI fb1."""
    found = []
    for status in sorted(drm.glob("card*-*/status")):
        try:
            if status.read_text().strip() == "connected":
                found.append(status.parent.name.split("-", 1)[1])
        except OSError:
            continue
    if fb1.exists():
        found.append("SPI screen (fb1)")
    return found


def kiosk_enabled() -> bool | None:
    try:
        out = subprocess.run(["systemctl", "is-enabled", "kotd-kiosk.service"],
                             capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() == "enabled"


def gather(config: Config, quick: bool) -> list[Finding]:
    """Every check, with the real machine's facts."""
    from pi.lan import lan_addresses, page_urls
    from pi.panel import make_pin_factory, on_raspberry_pi
    from pi.stack import module

    on_pi = on_raspberry_pi()
    state = fetch_state(config.port)
    found = [checks.service(state, config.port)]
    if state is not None:
        found += checks.camera_of_service(state)
    elif quick:
        found.append(Finding("info", "camera", "not opened (--quick)"))
    else:
        from pi.sources import CameraError, make_source

        try:
            source = make_source(config.source, focus_cm=config.focus_cm)
        except CameraError as err:
            found.append(Finding("fail", "camera", str(err)))
        else:
            found += checks.camera(source, on_pi)
    if state is None:
        try:
            found += checks.pins_free(config, make_pin_factory(config.pin_factory))
        except (ImportError, ValueError) as err:
            found.append(Finding("fail", "GPIO", f"pin factory {config.pin_factory}: {err}"))
    else:
        found.append(Finding("info", "GPIO", "the pins belong to the running assistant "
                             "(panel test: sudo systemctl stop kotd; sudo kotd doctor --panel)"))
    found += checks.pin_clashes(config, Path("/dev/spidev0.0").exists(), serial_console())
    found.append(checks.palette(config.data_dir, config.palette))
    found.append(checks.tray(config.data_dir))
    found.append(checks.game_file(config.data_dir))
    found += [f for f in (checks.set_aside(config.data_dir), checks.saving(state)) if f]
    found.append(checks.disk(config.data_dir))
    found.append(checks.clock(datetime.now(UTC), software_date(), ntp_synced()))
    found.append(checks.screens(connected_screens(), kiosk_enabled() if on_pi else None))
    found.append(checks.stack([module(n) for n in ("cv2", "numpy", "picamera2")], on_pi))
    lan = lan_addresses()
    found.append(checks.network(lan, config.host))
    token, known = read_token(config)
    found.append(checks.phone_link(page_urls(config.host, config.port, token, lan=lan), known))
    hosts = lan if config.host in ("0.0.0.0", "::", "") else [config.host]
    found.append(checks.reachable(hosts, config.port, state is not None, can_connect))
    return found


def report(findings: list[Finding]) -> tuple[list[str], int]:
    """The printed lines and the exit status (1 if anything failed)."""
    width = max(len(f.topic) for f in findings)
    lines = []
    for f in findings:
        lines.append(f"  {MARK[f.status]}  {f.topic:<{width}}  {f.text}")
        lines += [f"        {' ' * width}  {m}" for m in f.more]
    fails = sum(f.status == "fail" for f in findings)
    warns = sum(f.status == "warn" for f in findings)
    if fails or warns:
        lines.append(f"{fails} problem{'s' * (fails != 1)}, {warns} warning"
                     f"{'s' * (warns != 1)}: see the lines marked FAIL and warn above")
    else:
        lines.append("all good: the table is ready")
    return lines, 1 if fails else 0


def _ask(question: str) -> bool:
    answer = input(f"  {question} [Y/n] ").strip().lower()
    return answer in ("", "y", "yes", "j", "ja")


def cmd_doctor(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, data_dir=args.data_dir, pin_factory=args.pin_factory)
    except ConfigError as err:
        print(f"kotd doctor: FAIL config: {err}", file=sys.stderr)
        return 1
    print(f"kotd doctor: the table assistant on {socket.gethostname()} "
          f"(data in {config.data_dir})", flush=True)
    if args.panel:
        from pi.panel import make_pin_factory
        from pi.panel_check import walk_panel

        if fetch_state(config.port) is not None:
            print("  the assistant is running and holds the pins: "
                  "sudo systemctl stop kotd first", file=sys.stderr)
            return 1
        findings = walk_panel(config.pins, make_pin_factory(config.pin_factory), _ask,
                              lambda text: print(f"  {text}", flush=True))
    else:
        findings = gather(config, args.quick)
    lines, status = report(findings)
    print("\n".join(lines), flush=True)
    return status

"""``kotd kiosk``: the table page full screen on the Pi's own screen.

Run by ``kotd-kiosk.service`` inside ``cage`` (a one-window Wayland compositor) as its own
user (``kotd-kiosk``, never the one that owns the game file): systemd hands it the table's
token and config as credentials (``$CREDENTIALS_DIRECTORY/token`` and ``/config``) and a
cache directory of its own (``$CACHE_DIRECTORY``) for Chromium's profile. It waits until the
assistant answers, then replaces itself with Chromium in kiosk mode on the table page. A
touch screen can act like a phone, and the page's QR button shows the join code for the
phones at the table. Run by hand, it reads the data directory as any command does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rules.errors import UsageError

BROWSERS = ("chromium-browser", "chromium")
"""Raspberry Pi OS calls its Chromium ``chromium-browser``, Debian ``chromium``."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("kiosk", help="show the table page full screen (kotd-kiosk.service)")
    p.add_argument("--config", metavar="FILE", help="config file (TOML)")
    p.add_argument("--data-dir", metavar="DIR", help="the assistant's data directory")
    p.add_argument("--browser", help="the browser to start (default: Chromium)")
    p.add_argument("--print", action="store_true", dest="dry_run",
                   help="print the browser command instead of starting it")
    p.set_defaults(handler=cmd_kiosk)


def kiosk_url(port: int, token: str | None) -> str:
    """The table page on this machine, with the token so a touch screen can act, in kiosk
    mode (the join QR code stays in a corner)."""
    return f"http://127.0.0.1:{port}/?kiosk=1" + (f"&token={token}" if token else "")


def find_browser(which: Callable[[str], str | None] = shutil.which) -> str:
    for name in BROWSERS:
        path = which(name)
        if path:
            return path
    raise UsageError("no Chromium here: sudo apt install chromium-browser (or chromium), "
                   "or run pi/install.sh --kiosk")


def browser_command(browser: str, url: str, profile: Path) -> list[str]:
    """Chromium full screen on ``url``: no bars, no first-run or crash dialogs, no keyring."""
    return [browser, "--kiosk", url, "--noerrdialogs", "--disable-infobars", "--no-first-run",
            "--disable-session-crashed-bubble", "--disable-features=Translate",
            "--check-for-update-interval=31536000", "--password-store=basic",
            "--ozone-platform-hint=auto", "--start-fullscreen", f"--user-data-dir={profile}"]


def wait_for_assistant(port: int, fetch: Callable[[int], object | None],
                       sleep: Callable[[float], None] = time.sleep,
                       say: Callable[[str], None] = print, tries: int | None = None) -> None:
    """Poll the assistant until it answers (forever unless ``tries`` is given)."""
    n = 0
    while fetch(port) is None:
        if n % 30 == 0:
            say(f"kotd kiosk: waiting for the assistant on port {port}")
        n += 1
        if tries is not None and n >= tries:
            raise UsageError(f"the assistant does not answer on port {port}")
        sleep(1.0)


def credential(name: str) -> Path | None:
    """A credential systemd handed this service (``LoadCredential=``), or None."""
    folder = os.environ.get("CREDENTIALS_DIRECTORY")
    path = Path(folder) / name if folder else None
    return path if path is not None and path.is_file() else None


def profile_dir(data_dir: Path) -> Path:
    """Chromium's profile: the service's cache directory, else the data directory's."""
    cache = os.environ.get("CACHE_DIRECTORY")
    return Path(cache.split(":")[0]) / "browser" if cache else data_dir / "kiosk-browser"


def cmd_kiosk(args: argparse.Namespace) -> int:
    from pi.config import load_config
    from pi.doctor import fetch_state, read_token
    from rules.inputs import read_text

    config = load_config(args.config or credential("config"), data_dir=args.data_dir)
    browser = args.browser or find_browser()
    if not args.dry_run:
        wait_for_assistant(config.port, fetch_state, say=lambda t: print(t, flush=True))
    handed = credential("token")
    token = config.token or (read_text(handed, 4096).strip() if handed
                             else read_token(config)[0])
    command = browser_command(browser, kiosk_url(config.port, token or None),
                              profile_dir(config.data_dir))
    if args.dry_run:
        print(" ".join(command))
        return 0
    sys.stdout.flush()
    os.execvp(command[0], command)
    return 0  # pragma: no cover - execvp does not return

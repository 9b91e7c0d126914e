"""``kotd serve``: one process with the camera thread, the game, the panel and the page.

:class:`Assistant` wires the parts together in the one direction data flows:
frame source -> eye (roll detector + dice reader) -> referee (the game) -> panel LEDs and
the phone page. Buttons and phones send actions back into the referee, the only place
the game changes. The page is served by waitress (a production WSGI server).
"""

from __future__ import annotations

import argparse
import logging
import secrets
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from pi.config import Config, ConfigError, load_config

log = logging.getLogger("kotd")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the table assistant (camera, game, panel, page)")
    p.add_argument("--config", metavar="FILE", help="config file (TOML)")
    p.add_argument("--source", help="auto | sim | picamera | opencv[:N] | replay:PATH")
    p.add_argument("--dice", choices=["haba", "standard"], help="which dice are in the tray")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument("--data-dir", metavar="DIR", help="where the game file and palette live")
    p.add_argument("--token", help="the table's token for actions (default: kept in DIR)")
    p.add_argument("--pins", dest="pin_factory", help="gpiozero pin factory: auto | mock | lgpio")
    p.add_argument("--palette", metavar="FILE", help="colour palette from 'kotd calibrate'")
    p.set_defaults(handler=cmd_serve)


def table_token(config: Config) -> str:
    """The token phones need to act: from the config, else kept in the data dir."""
    if config.token:
        return config.token
    path = config.data_dir / "token"
    try:
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token
    except OSError:
        pass
    token = secrets.token_urlsafe(12)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(token + "\n", encoding="utf-8")
    path.chmod(0o600)
    return token


class StartError(Exception):
    """Something the assistant needs at start is missing or wrong (one line for the user)."""


def make_reader(config: Config):
    """The dice reader for the tray: HABA or standard dice, with the calibrated palette.

    A palette named in the config must exist and be readable; without one, the palette
    calibrated into the data dir is used, else the default colours.
    """
    from vision.palette import Palette, default_palette_path
    from vision.reader import read_dice

    palette_path = Path(config.palette or config.data_dir / "palette.json")
    if config.palette is not None and not palette_path.is_file():
        raise StartError(f"palette file {palette_path} does not exist (run 'kotd calibrate')")
    if not palette_path.exists() and config.palette is None:
        palette_path = default_palette_path()
    try:
        palette = Palette.load(palette_path) if palette_path.exists() else None
    except (OSError, ValueError) as err:
        raise StartError(f"palette file {palette_path}: {err}") from None
    if palette is not None:
        log.info("colour palette from %s", palette_path)

    def read(frame):
        return read_dice(frame, kind=config.dice, palette=palette)

    return read


class Assistant:
    """Everything ``kotd serve`` runs, built from a config; start() and stop()."""

    def __init__(self, config: Config, source: Any = None, pin_factory: Any = None) -> None:
        from pi.detector import RollDetector
        from pi.eye import Eye
        from pi.panel import Panel, make_pin_factory
        from pi.sources import make_source
        from rules.advisor import advise_table
        from rules.referee import Referee
        from rules.store import EventStore
        from rules.view import table_view
        from web import create_app

        self.config = config
        self.store = EventStore.in_dir(config.data_dir)
        self.referee = Referee(self.store)
        if source is None:
            source = make_source(config.source, focus_cm=config.focus_cm)
        self.source = source
        detector = RollDetector(make_reader(config), dice=self.referee.box.dice,
                                settle_seconds=config.settle_seconds,
                                stable_reads=config.stable_reads)
        self.eye = Eye(self.source, detector, self.referee, fps=config.fps)
        from gpiozero.exc import GPIOZeroError

        try:
            factory = pin_factory if pin_factory is not None else make_pin_factory(
                config.pin_factory)
            self.panel = Panel(config.pins, self.referee.act, self.eye.reread, factory)
        except (ImportError, ValueError, GPIOZeroError) as err:
            raise StartError(f"GPIO pins ({config.pin_factory}): {err}") from None
        self.token = table_token(config)
        self.app = create_app(self.referee, self.eye, self.token,
                              advisor=lambda record: advise_table(record.state))
        self._table_view = table_view
        self.referee.subscribe(lambda _record: self.refresh_panel())
        self.eye.subscribe(self.refresh_panel)
        self.server: Any = None
        self._server_thread: threading.Thread | None = None
        self.refresh_panel()

    def refresh_panel(self) -> None:
        record = self.referee.record
        view = self._table_view(record) if record is not None else None
        self.panel.show(view, camera_ok=self.eye.camera == "ok")

    @property
    def port(self) -> int:
        return self.server.port if self.server else self.config.port

    def start(self) -> None:
        from web.server import make_server

        self.server = make_server(self.app, host=self.config.host, port=self.config.port,
                                  threads=self.config.threads)
        self.app.config["PUBLIC_URL"] = self.public_url  # what the QR code points at
        self.eye.start()
        self._server_thread = threading.Thread(target=self.server.run, name="kotd-web",
                                               daemon=True)
        self._server_thread.start()

    def stop(self) -> None:
        self.eye.stop()
        if self.server is not None:
            self.server.close()
        self.panel.close()
        self.store.close()

    def addresses(self) -> list[str]:
        """Where phones reach the page, best first: the LAN address before a .local name."""
        from pi.lan import page_urls

        return page_urls(self.config.host, self.port)

    def public_url(self) -> str | None:
        """The page's address on the LAN now (None: no LAN address, or listening on one
        address only); asked for every QR code, so a hotspot or Wi-Fi that comes up after
        the start is in it."""
        from pi.lan import reachable_by_phones

        lan = [url for url in self.addresses()
               if reachable_by_phones(url) and ".local:" not in url]
        return lan[0] if lan else None

    def urls(self) -> list[str]:
        return [f"{url}?token={self.token}" for url in self.addresses()]


def cmd_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        config = load_config(args.config, source=args.source, dice=args.dice, host=args.host,
                             port=args.port, data_dir=args.data_dir, token=args.token,
                             pin_factory=args.pin_factory, palette=args.palette)
    except ConfigError as err:
        print(f"kotd: config error: {err}", file=sys.stderr)
        return 2
    try:
        assistant = Assistant(config)
        assistant.start()
    except (OSError, StartError) as err:
        print(f"kotd: cannot start: {err}", file=sys.stderr)
        return 2
    print(f"King of the Dice assistant: {assistant.source.name} frames, game file "
          f"{assistant.store.path}", flush=True)
    from pi.lan import phone_lines

    print("\n".join(phone_lines(assistant.urls())), flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait()
    assistant.stop()
    return 0

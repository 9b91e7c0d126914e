"""``kotd serve``: run the table assistant (camera, game, panel, page) until stopped."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Mapping
from typing import TextIO

from pi.config import ConfigError, load_config
from rules.errors import KotdError
from rules.games import GAMES


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the table assistant (camera, game, panel, page)")
    p.add_argument("--config", metavar="FILE", help="config file (TOML)")
    p.add_argument("--game", choices=GAMES,
                   help="the game played at the table (default: the table's last choice, "
                        "else kotd)")
    p.add_argument("--strip", help="Um Krone und Kragen: none (set-aside dice leave the "
                                   "view) or SIDE:FRACTION of the set-aside strip")
    p.add_argument("--source", help="auto | sim | picamera | opencv[:N] | replay:PATH")
    p.add_argument("--dice", choices=["haba", "standard"], help="which dice are in the tray")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument("--data-dir", metavar="DIR", help="where the game file and palette live")
    p.add_argument("--token", help="the table's token for actions (default: kept in DIR)")
    p.add_argument("--pins", dest="pin_factory", help="gpiozero pin factory: auto | mock | lgpio")
    p.add_argument("--palette", metavar="FILE", help="colour palette from 'kotd calibrate'")
    p.set_defaults(handler=cmd_serve)


def to_journal(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``stream`` is systemd's journal (``$JOURNAL_STREAM`` names its device and
    inode), where everyone in the adm and systemd-journal groups may read it."""
    named = environ.get("JOURNAL_STREAM", "")
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return False
    return bool(named) and named == f"{st.st_dev}:{st.st_ino}"


def cmd_serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        config = load_config(args.config, game=args.game, strip=args.strip,
                             source=args.source, dice=args.dice,
                             host=args.host, port=args.port, data_dir=args.data_dir,
                             token=args.token, pin_factory=args.pin_factory,
                             palette=args.palette)
    except ConfigError as err:
        print(f"kotd: config error: {err}", file=sys.stderr)
        return 2
    try:
        from pi.serve import Assistant
        from rules.actions import ChooseGame

        assistant = Assistant(config)
        if args.game:  # said on the command line: the table plays it from now on
            assistant.table.act(ChooseGame(args.game))
        assistant.start()
    except KotdError as err:
        print(f"kotd: cannot start: {err}", file=sys.stderr)
        return 2
    print(f"{assistant.pack.title['en']} assistant: {assistant.source.name} frames, game file "
          f"{assistant.store.path}", flush=True)
    from pi.lan import phone_lines

    if to_journal(sys.stdout):  # readable by the adm and systemd-journal groups: no token
        print("\n".join(phone_lines(assistant.addresses(), qr=False)), flush=True)
        print("  the link with the table's token: the QR code on the Pi's screen, or in a "
              "terminal: sudo kotd doctor", flush=True)
    else:
        print("\n".join(phone_lines(assistant.urls())), flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    # Wait in short steps: a signal the kernel hands to another thread (OpenCV's, the web
    # server's) only runs its Python handler when the main thread next wakes, and a wait
    # without a timeout may never wake. A tenth of a second: a stop is prompt (the tests
    # start and stop the table dozens of times) and ten wake-ups a second cost nothing.
    while not stop.wait(0.1):
        pass
    if not assistant.stop():
        # The game file is closed. A reader still inside OpenCV or a camera driver would
        # abort Python's teardown (a daemon thread unwound out of C++ code): leave without it.
        logging.getLogger("kotd").warning("a camera read did not end in time; leaving now")
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0

"""The composition root: one process with the camera thread, the table, the panel, the page.

:class:`Assistant` wires the parts together in the one direction data flows:
frame source -> eye (roll detector + dice reader) -> table (the game, :mod:`rules.table`)
-> panel LEDs and the phone page. Buttons and phones send typed actions back into the
table, the only place the game changes; every change is one snapshot the panel and every
phone receive. The page is served by waitress (a production WSGI server).
"""

from __future__ import annotations

import logging
import secrets
import threading
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from pi.config import Config
from rules.actions import Action
from rules.errors import KotdError
from rules.games import game_pack
from rules.pack import DiceSpec, GamePack
from rules.table import Snapshot
from vision.strip import AsideStrip

log = logging.getLogger("kotd")


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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(token + "\n", encoding="utf-8")
        path.chmod(0o600)
    except OSError as err:  # a full or read-only card: the table starts all the same
        log.warning("the token cannot be kept in %s (%s): a new one is made at each start",
                    path, err.strerror or err)
    return token


class StartError(KotdError):
    """Something the assistant needs at start is missing or wrong (one line for the user)."""

    family = "start"


def _cannot(message: str) -> StartError:
    return StartError("cannot", "{message}", message=message)


def kotd_dice() -> DiceSpec:
    """The dice a reader reads when no game is named: King of the Dice's."""
    return game_pack("kotd").dice


def make_reader(config: Config, dice: Callable[[], DiceSpec] = kotd_dice
                ) -> DiceReader:
    """The dice reader for the tray: HABA or standard dice, with the calibrated palette.

    ``dice`` describes the dice of the game played now: a game of ordinary dice (Um Krone
    und Kragen) is always read as standard dice; coloured dice are read with their look.

    A palette named in the config must exist and be readable; without one, the palette
    calibrated into the data dir is used, else the game's dice colours (also when the data
    dir's palette was made by an older kotd: calibrating is an option, never a must).
    """
    from vision.palette import OutdatedPalette, Palette

    palette_path = config.palette_path
    if config.palette is not None and not palette_path.is_file():
        raise _cannot(f"palette file {palette_path} does not exist (run 'kotd calibrate')")
    try:
        palette = Palette.load(palette_path) if palette_path.exists() else None
    except OutdatedPalette as err:
        if config.palette is not None:
            raise _cannot(f"palette file {err}") from None
        log.warning("%s; reading with the game's dice colours", err)
        palette = None
    except (OSError, ValueError) as err:
        raise _cannot(f"palette file {palette_path}: {err}") from None
    if palette is not None:
        log.info("colour palette from %s", palette_path)
    return DiceReader(config, palette, dice, _kept_tray(config))


def _kept_tray(config: Config) -> Any:  # -> vision.tray.Tray | None
    """The tray marked at calibration, if any; a damaged file is said in the log and the
    whole picture is read (the tray is an option, never a must)."""
    from pi.config import tray_in
    from vision.tray import Tray

    path = tray_in(config.data_dir)
    if not path.exists():
        return None
    try:
        tray = Tray.load(path)
    except (OSError, KotdError) as err:
        log.warning("tray %s: %s; reading the whole picture", path, err)
        return None
    log.info("tray marked at calibration, from %s", path)
    return tray


class DiceReader:
    """Reads the dice of a frame with the current palette, in the marked tray if there is
    one; :meth:`calibrate` measures a new palette from a frame (``vision.palette.calibrate``),
    saves it and uses it; :meth:`keep_tray` keeps (or forgets) the tray."""

    def __init__(self, config: Config, palette: Any,
                 dice: Callable[[], DiceSpec] = kotd_dice, tray: Any = None) -> None:
        self.config = config
        self.palette = palette
        self.dice = dice
        self.tray = tray

    def _palette(self) -> Any:  # -> vision.palette.Palette
        """The calibrated palette, else the palette of the game's dice as it describes them."""
        from vision.palette import Palette

        if self.palette is not None:
            return self.palette
        look = self.dice().look
        return Palette.default() if look is None else Palette.of_look(look)

    def __call__(self, frame: np.ndarray, thrown: int | None = None, last: Any = None,
                 doubtful: bool = False) -> Sequence[Any]:
        """The dice in ``frame``; ``thrown``: how many the game expects (None: not known);
        ``last``: the last roll's picture and dice (a :class:`vision.lastroll.LastRoll`, or
        None); ``doubtful``: also the dice the reader doubts are there, marked (read
        again)."""
        from vision.reader import read_dice
        from vision.tray import read_in_tray

        kind: Literal["haba", "standard"] = (
            "standard" if self.config.dice == "standard" or not self.dice().colored else "haba")
        palette = self._palette() if kind == "haba" else None
        tray = self.tray
        if tray is None:
            return read_dice(frame, kind=kind, palette=palette, thrown=thrown,
                             doubtful=doubtful, last=last)
        return read_in_tray(lambda f, nadir, holds: read_dice(
            f, kind=kind, palette=palette, thrown=thrown, doubtful=doubtful, nadir=nadir,
            holds=holds, last=last), frame, tray)

    def keep_tray(self, tray: Any) -> None:
        """Keep ``tray`` (a :class:`vision.tray.Tray`) in the data dir and read only it from
        now on; None forgets it (the whole picture is read again)."""
        from pi.config import tray_in

        path = tray_in(self.config.data_dir)
        try:
            if tray is None:
                path.unlink(missing_ok=True)
            else:
                tray.save(path)
        except OSError as err:
            raise StartError("tray_save", "cannot save the tray {path}: {why}",
                             path=str(path), why=err.strerror or str(err)) from None
        self.tray = tray
        log.info("tray %s", "forgotten" if tray is None else f"marked: {tray.corners}")

    def calibrate(self, frame: np.ndarray) -> None:
        """Measure the palette from the dice in ``frame`` (in the marked tray, if any)."""
        from vision.calibrate import calibrate

        if self.tray is not None:
            frame = self.tray.fitted(frame.shape[1], frame.shape[0]).rectify(frame)
        try:
            palette = calibrate(frame, base=self._palette())
        except ValueError as err:
            raise StartError("calibrate", "calibration failed: {why}", why=str(err)) from None
        path = self.config.palette_path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            palette.save(path)
        except OSError as err:
            raise StartError("calibrate_save", "cannot save the palette {path}: {why}",
                             path=str(path), why=str(err)) from None
        self.palette = palette
        log.info("colour palette calibrated from the page into %s", path)


class Assistant:
    """Everything ``kotd serve`` runs, built from a config; start() and stop()."""

    def __init__(self, config: Config, source: Any = None, pin_factory: Any = None) -> None:
        from gpiozero.exc import GPIOZeroError

        from pi.detector import RollDetector
        from pi.eye import Eye
        from pi.panel import Panel, make_pin_factory
        from pi.sources import make_source
        from rules.store import EventStore
        from rules.table import Table
        from web import create_app

        self.config = config
        # starts whatever the game file is (a folder, a pipe, a read-only card): the page
        # and the panel then say what is wrong and saving starts once it can
        self.store = EventStore.in_dir(config.data_dir, keep_going=True)
        # the game the table chose last ('game ukuk' on the page), else the config's
        self.table = Table(self.store, game_pack(self.store.setting("game") or config.game),
                           advice=True)
        if source is None:
            source = make_source(config.source, focus_cm=config.focus_cm)
        if hasattr(source, "ordinary"):  # the simulated tray throws the game's dice
            source.ordinary = self._sim_throw
        self.source = source
        reader = make_reader(config, lambda: self.pack.dice)
        strip = None if config.strip == "none" else AsideStrip.parse(config.strip)
        detector = RollDetector(
            reader, dice=self.dice_wanted,
            read_doubtful=lambda frame, thrown, last: reader(frame, thrown, last, doubtful=True),
            settle_seconds=config.settle_seconds, stable_reads=config.stable_reads,
            strip=lambda: strip if self.pack.dice.count is None else None,
            tray=lambda: reader.tray)
        self.eye = Eye(self.source, detector, self.table, fps=config.fps)
        if config.dice == "haba":  # colours to learn only for HABA dice
            self.eye.calibrator = reader.calibrate
        self.eye.tray_keeper = reader
        try:
            factory = pin_factory if pin_factory is not None else make_pin_factory(
                config.pin_factory)
            self.panel = Panel(config.pins, self._panel_act, self.eye.reread, factory,
                               take=self._take, confirm_held=self.table.confirm_held,
                               take_leaving=self._take_leaving)
        except (ImportError, ValueError, GPIOZeroError) as err:
            raise _cannot(f"GPIO pins ({config.pin_factory}): {err}") from None
        self.token = table_token(config)
        self.app = create_app(self.table, self.eye, self.token)
        self.table.subscribe(self.refresh_panel)
        self.server: Any = None
        self._server_thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._storage_thread: threading.Thread | None = None
        self.table.report_eye(self.eye.status())
        self.refresh_panel(self.table.snapshot)

    def _take(self, slot: int) -> Action:
        """The panel's confirm for the game played now, in its state."""
        return self.pack.take_in(self.table.state, slot)

    def _take_leaving(self, slot: int) -> Action:
        """The panel's long press on confirm for the game played now."""
        return self.pack.take_leaving(self.table.state, slot)

    @property
    def pack(self) -> GamePack[Any]:
        """The game the table plays now (it may switch: ``game ukuk``)."""
        return self.table.pack

    def _sim_throw(self) -> Any:
        """What the simulated tray draws at a throw: None (HABA dice) or the ordinary dice
        of the turn (those thrown now, those set aside, the strip)."""
        from pi.simtray import OrdinaryThrow

        if self.pack.dice.colored:
            return None
        state = self.table.state
        strip = None if self.config.strip == "none" else AsideStrip.parse(self.config.strip)
        if state is None or state.over:
            return OrdinaryThrow(3, (), strip)
        d = state.dice
        count = d.hand + len(d.active) if d.throws == 0 else len(d.active)
        return OrdinaryThrow(count or len(d.aside), () if count == 0 else d.aside, strip)

    def dice_wanted(self) -> int | None:
        """How many dice the camera waits for: the game's fixed number, or (a game whose
        dice change) all the player's dice when set-aside ones lie in the strip; without a
        strip they leave the view, so any number."""
        pack = self.pack
        if pack.dice.count is not None:
            return int(pack.dice.count)
        return pack.dice_in_play(self.table.state) if self.config.strip != "none" else None

    def refresh_panel(self, snapshot: Snapshot) -> None:
        """Show a snapshot on the panel's LEDs."""
        self.panel.show(snapshot.lights, camera_ok=snapshot.eye.camera in ("ok", "simulated"),
                        check=snapshot.held is not None and snapshot.held.why == "check",
                        saving_ok=snapshot.storage.ok)

    def _panel_act(self, action: Action) -> object:
        """A button's action, with an id of its own (applied once, kept in the game file)."""
        return self.table.act(action, f"panel-{uuid.uuid4().hex[:16]}")

    def _watch_storage(self) -> None:
        """Every ``storage_check_seconds`` (2 s unless the config says otherwise): the
        game file still there, saving possible again?"""
        while not self._stopping.wait(self.config.storage_check_seconds):
            try:
                self.table.check_storage()
            except Exception:  # a bug here must not end the watch; it shows in the log
                log.exception("checking the game file failed")

    @property
    def port(self) -> int:
        return self.server.port if self.server else self.config.port

    def start(self) -> None:
        from web.server import make_server

        try:
            self.server = make_server(self.app, host=self.config.host, port=self.config.port,
                                      threads=self.config.threads)
        except OSError as err:  # the port is taken, the address is not this machine's
            raise _cannot(f"cannot listen on {self.config.host}:{self.config.port}: "
                          f"{err.strerror or err}") from None
        self.app.config["PUBLIC_URL"] = self.public_url  # what the QR code points at
        self.eye.start()
        self._storage_thread = threading.Thread(target=self._watch_storage,
                                                name="kotd-storage", daemon=True)
        self._storage_thread.start()
        self._server_thread = threading.Thread(target=self.server.run, name="kotd-web",
                                               daemon=True)
        self._server_thread.start()

    def stop(self) -> bool:
        """Stop everything, the game file closed last; False when a camera read did not end
        in time (:meth:`pi.eye.Eye.stop`)."""
        self._stopping.set()
        if self._storage_thread is not None:
            self._storage_thread.join(timeout=5)
        ended = self.eye.stop()
        if self.server is not None:
            self.server.close()
        self.panel.close()
        self.store.close()
        return ended

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

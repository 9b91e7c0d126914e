"""The table: the one place the game changes, and the one picture of it everyone sees.

The flow through it::

    buttons, phones, `kotd play` --typed action--> Table.act ---+
    the eye (camera) ----------------Seen--------> Table.saw ---+--> pack.apply (the rules)
    the eye's status ---------------EyeStatus----> Table.report_eye   -> store (one event)
                                                                      -> Snapshot (version+1)
                                                                         -> panel, phones

Every change, from any device, is made here under one lock: the action is judged by the
game's pack, stored (one transaction) and only then becomes the current game; a refused
action (a :class:`rules.errors.KotdError`) changes nothing. Each change publishes ONE
immutable :class:`Snapshot` (game + camera status) with a version that rises by one per
change and keeps rising across restarts. A snapshot renders its view at most once per
language; the panel and every live page share it.

A roll the camera saw (:class:`rules.actions.Seen`) is turned into a game action here,
under the same lock, by the pack (a new roll, or one ``fix`` when the dice were read
again). Some seen rolls are *held* (:class:`Held`) instead of applied:

* a roll thrown while the table still answers a question (the drawn card, the dragon's
  new owner, the penalty after the last roll) waits and enters the game, as the next
  turn's roll, the moment the question is answered;
* a roll with a die the camera is unsure of waits until someone at the table confirms
  it or corrects that die (:meth:`Table.confirm_held`, :meth:`Table.fix_held`); then it
  enters the game as one action. It stands for the dice as they lay when it was seen: the
  moment anything else enters the game (a move typed or tapped, an undo, the turn moving
  on), it is dropped, so a reading never enters a turn it was not thrown in.

A held roll is not stored: it is a throw waiting to count, not a move.

On start the table resumes the newest stored game of its pack exactly where it stopped. If
a stored game cannot be replayed (a record written by other rules), it stops at the first
event it cannot apply and says so (:attr:`Table.problem`, the log, the page); that game is
then read-only, and ``players`` starts a new one.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rules.actions import Action, ChooseGame, Players, Seen, parse_line, vocabulary
from rules.dice import Die
from rules.errors import KotdError, ReplayError, RuleError, UsageError
from rules.games import game_pack
from rules.pack import GamePack, Lights
from rules.record import GameRecord, replay
from rules.store import Event, EventStore, GameInfo, SaveError

log = logging.getLogger("kotd.table")

class ActionIdReused(UsageError):
    """An action id already used for another action (a phone's bug, or a guess)."""

    def __init__(self, action_id: str, stored: str) -> None:
        super().__init__("id_reused", "the action id {id} was already used for '{action}'",
                         id=action_id, action=stored)


RECENT = 64
"""The table keeps this many recent snapshots, so a slow live page is sent each one."""

VERSION_BLOCK = 1000
"""Versions are promised to the store this many at a time (one write per block)."""

Camera = Literal["starting", "ok", "lost", "stalled", "simulated", "none"]


@dataclass(frozen=True, slots=True)
class EyeStatus:
    """The camera as the table shows it.

    ``camera``: "ok", "lost", "stalled" (no frame for 2 s: opened again), "simulated",
    "starting" or "none" (no camera: dice by hand);
    ``seeing``: what it sees now ("moving", "settled", "no dice", ...); ``dice_seen``;
    ``unsure``: 1-based dice of the last reading to check (``why``: why, by position, where
    the camera could say: :attr:`rules.actions.Seen.why`); ``message``: for people;
    ``dice_at``: where the dice of the last reading lie, as fractions of the picture (x, y)
    in the page's order; ``can_calibrate``: the colours can be taught from the page;
    ``camera_info``: what the camera was set to when it opened (model, mode, exposure,
    white balance, focus), for ``kotd doctor``; ``dice_wanted``: how many dice a roll needs
    when the camera sees another number (None: any, or it sees as many); ``tray``: the
    marked tray's corners as fractions of the picture (none: the whole picture is read);
    ``tilted``: no tray is marked, and the dice's sizes over the last rolls say the camera
    looks at the table at an angle (marking the tray then helps the reader).
    """

    camera: Camera = "none"
    source: str = ""
    seeing: str = ""
    dice_seen: int = 0
    unsure: tuple[int, ...] = ()
    message: str = "no camera: enter the dice by hand"
    simulated: bool = False
    dice_at: tuple[tuple[float, float], ...] = ()
    can_calibrate: bool = False
    camera_info: tuple[tuple[str, str], ...] = ()
    dice_wanted: int | None = None
    tray: tuple[tuple[float, float], ...] = ()
    why: tuple[tuple[int, str], ...] = ()
    tilted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"camera": self.camera, "source": self.source, "seeing": self.seeing,
                "dice_seen": self.dice_seen, "unsure": list(self.unsure),
                "message": self.message, "simulated": self.simulated,
                "dice_at": [list(xy) for xy in self.dice_at],
                "can_calibrate": self.can_calibrate, "camera_info": dict(self.camera_info),
                "dice_wanted": self.dice_wanted, "tray": [list(xy) for xy in self.tray],
                "unsure_why": dict(self.why), "tilted": self.tilted}


NO_EYE = EyeStatus()


@dataclass(frozen=True, slots=True)
class StorageStatus:
    """Whether the game is being saved: ``ok`` False while the game file cannot be
    written (the table keeps the game and says why); ``message`` also carries what the
    table should know about the file (a damaged one kept aside, a deleted one rewritten)."""

    ok: bool = True
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message}


SAVED = StorageStatus()

HOLD_CODES = ("rule.phase_", "rule.no_rolls_left")
"""Refusals that mean "not now" (a question is open, the rolls are used up): such a seen
roll is held for the next turn instead of being refused."""


@dataclass(frozen=True, slots=True)
class Held:
    """A seen roll the table keeps instead of applying it.

    ``why``: "question" (thrown while a question was open; it counts in the next turn,
    after ``after_turn``) or "check" (a die the camera is unsure of: ``seen.unsure``; it
    is dropped as soon as any move enters the game). ``player``: whose roll it will be.
    """

    seen: Seen
    why: Literal["question", "check"]
    player: str = ""
    after_turn: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"why": self.why, "player": self.player, "text": str(self.seen.roll),
                "dice": [{"value": d.value, "color": d.color.value if d.color else None}
                         for d in self.seen.roll],
                "unsure": list(self.seen.unsure), "unsure_why": dict(self.seen.why)}

NO_GAME_VIEW: dict[str, Any] = {
    "phase": "none", "players": [], "row": [], "scores": [], "actions": [], "can_undo": False,
    "question": None, "dice": None, "over": False,
}
"""The view when there is no game yet."""


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One published moment of the table: the game, the camera, a version.

    ``version`` rises by one with every change (an action, a new camera status);
    ``eye_version`` is the version at which the camera status last changed. ``problem``
    says why a stored game could not be resumed (None when all is well). The view and its
    JSON text are rendered once per language, on first use, and shared.
    """

    version: int
    pack: GamePack[Any]
    record: GameRecord[Any] | None
    game_id: int | None
    eye: EyeStatus
    eye_version: int
    advice: bool = False
    problem: str | None = None
    held: Held | None = None
    colors: tuple[tuple[str, str], ...] = ()
    storage: StorageStatus = SAVED
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _views: dict[str, dict[str, Any]] = field(default_factory=dict, init=False, repr=False)
    _texts: dict[str, str] = field(default_factory=dict, init=False, repr=False)

    @property
    def state(self) -> Any:
        return None if self.record is None else self.record.state

    @property
    def lights(self) -> Lights:
        return self.pack.lights(self.state)

    def view(self, lang: str) -> dict[str, Any]:
        """The page's document in ``lang``: the pack's view of the game, the camera's
        status, the version; shared, do not change it."""
        with self._lock:
            view = self._views.get(lang)
            if view is None:
                game = (dict(NO_GAME_VIEW, game=self.pack.id) if self.record is None
                        else self.pack.view(self.record, lang))
                colors = dict(self.colors)
                if colors and isinstance(game.get("players"), list):
                    game = {**game, "players": [
                        {**p, "color": colors.get(p.get("name", ""))} if isinstance(p, dict)
                        else p for p in game["players"]]}
                view = self._views[lang] = {
                    **game,
                    "held": None if self.held is None else self.held.to_dict(),
                    "game_id": self.game_id,
                    "version": self.version,
                    "eye": {**self.eye.to_dict(), "version": self.eye_version},
                    "advice": self.advice,
                    "problem": self.problem,
                    "storage": self.storage.to_dict(),
                    "lang": lang,
                }
            return view

    def json(self, lang: str, **extra: Any) -> str:
        """:meth:`view` as compact JSON text (rendered once); ``extra`` keys are added at
        the end without rendering the view again."""
        with self._lock:
            text = self._texts.get(lang)
        if text is None:
            text = json.dumps(self.view(lang), ensure_ascii=False, separators=(",", ":"))
            with self._lock:
                text = self._texts.setdefault(lang, text)
        if not extra:
            return text
        more = json.dumps(extra, ensure_ascii=False, separators=(",", ":"))
        return text[:-1] + "," + more[1:]


Listener = Callable[[Snapshot], None]


class Table:
    """The game in progress at one table, for one game pack; thread-safe."""

    def __init__(self, store: EventStore, pack: GamePack[Any], *, advice: bool = False) -> None:
        self.store = store
        self.pack = pack
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._deliver = threading.RLock()
        self._delivered = -1
        self._listeners: list[Listener] = []
        first = store.version_ceiling()
        self._ceiling = first
        self._reopened = store.reopened
        try:
            store.raise_version_ceiling(first + VERSION_BLOCK)
            self._ceiling = first + VERSION_BLOCK
        except SaveError:  # the table starts all the same and says why (storage)
            pass
        game_id = store.latest_game(pack.id)
        record, problem = (None, None) if game_id is None else self._replay(game_id, pack)
        if problem:
            log.warning("game %s: %s", game_id, problem)
        self._recent: deque[Snapshot] = deque(maxlen=RECENT)
        self._snapshot = Snapshot(first, pack, record, game_id, NO_EYE, first,
                                  advice, problem, colors=tuple(sorted(store.colors().items())),
                                  storage=self._storage())

    # ---- reading ---------------------------------------------------------------------

    @property
    def snapshot(self) -> Snapshot:
        """The table as it is now (immutable)."""
        return self._snapshot

    @property
    def record(self) -> GameRecord[Any] | None:
        return self._snapshot.record

    @property
    def state(self) -> Any:
        return self._snapshot.state

    @property
    def version(self) -> int:
        return self._snapshot.version

    @property
    def game_id(self) -> int | None:
        return self._snapshot.game_id

    @property
    def problem(self) -> str | None:
        """Why the stored game could not be resumed (it is then read-only), or None."""
        return self._snapshot.problem

    def parse(self, line: str) -> Action:
        """An action line of this table's game (or ``game ID``, which chooses the game), as
        a typed action (the edges' one step)."""
        if line.split()[:1] and line.split()[0].lower() == ChooseGame.verb:
            return parse_line(line, vocabulary(ChooseGame))
        return self.pack.parse_action(line)

    def wait(self, version: int, timeout: float) -> Snapshot:
        """The snapshot, once its version is not ``version`` (or after ``timeout`` s)."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version != version, timeout)
            return self._snapshot

    def since(self, version: int) -> list[Snapshot]:
        """Every snapshot after ``version``, oldest first, so a live page misses none (only
        the newest if ``version`` is more than :data:`RECENT` changes behind)."""
        with self._lock:
            current = self._snapshot
            if current.version <= version:
                return []
            newer = [s for s in self._recent if s.version > version]
            if not newer or newer[0].version > version + 1:
                return [current]
            return newer

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with each new snapshot (in order, outside the table's lock)."""
        with self._lock:
            self._listeners.append(listener)

    def history(self, game_id: int | None = None) -> list[Event]:
        gid = self.game_id if game_id is None else game_id
        return [] if gid is None else self.store.events(gid)

    def games(self) -> list[GameInfo]:
        return self.store.games()

    def past(self, game_id: int) -> tuple[GameRecord[Any] | None, str | None]:
        """Any stored game rebuilt from its actions, and why it stopped early (or None)."""
        info = self.store.game(game_id)
        if info is None:
            return None, None
        pack = self.pack if info.game == self.pack.id else game_pack(info.game)
        return self._replay(game_id, pack)

    def advise(self) -> dict[str, Any] | None:
        """The pack's advice for the game as it stands (None: nothing to advise)."""
        state = self.state
        return None if state is None else self.pack.advise(state)

    # ---- changing --------------------------------------------------------------------

    def act(self, action: Action, action_id: str | None = None) -> Snapshot:
        """Judge, store and apply one action; :class:`KotdError` (nothing changed) if refused,
        :class:`rules.store.SaveError` (nothing changed, the snapshot says why) if the game
        file cannot be written. ``players ...`` starts a new game (the old one stays in the
        store). ``action_id``: see :meth:`act_once`."""
        return self.act_once(action, action_id)[0]

    def act_once(self, action: Action, action_id: str | None) -> tuple[Snapshot, bool]:
        """:meth:`act`, applying an ``action_id`` (from a phone or the panel) once: the same
        id again returns the table as it is and True (a retry after a lost reply); the
        same id with another action is refused (:class:`ActionIdReused`)."""
        failed: SaveError | None = None
        repeated = False
        with self._lock:
            try:
                stored = None if action_id is None else self.store.find_action(action_id)
                if stored is None:
                    self._apply(action, action_id=action_id)
                    self._release()
                elif stored.action != str(action):
                    raise ActionIdReused(action_id or "", stored.action)
                else:
                    repeated = True
            except SaveError as err:
                failed = err
            self._storage_changed()
            snapshot = self._snapshot
        self._publish()
        if failed is not None:
            raise failed
        return snapshot, repeated

    def check_storage(self) -> Snapshot:
        """Look after the game file (see :meth:`rules.store.EventStore.check`) and publish
        a snapshot when saving stopped or resumed; call it every few seconds. A table that
        started without its game file (a folder or a pipe in its place, a read-only card)
        resumes the file's newest game once the store could open it."""
        self.store.check()
        with self._lock:
            if self.store.reopened != self._reopened:
                self._reopened = self.store.reopened
                self._resume()
            self._storage_changed()
        self._publish()
        return self._snapshot

    def saw(self, seen: Seen) -> Snapshot:
        """The camera saw a settled roll: the pack says what it means for the game (a roll,
        one ``fix`` for a second reading, or nothing) and it is applied like any action,
        unless it must wait (:class:`Held`): a question is still open, or a die is unsure.
        A new throw replaces a roll still held."""
        with self._lock:
            current = self._snapshot
            if current.record is None:
                raise RuleError("no_game", "no game yet: start one with 'players NAME NAME "
                                "...'")
            state = current.state
            progress = self.pack.progress(state)
            if progress.over:
                return current
            actions = _meaning(self.pack.seen(state, seen))
            if not actions:
                return current
            failed: SaveError | None = None
            try:
                self._probe(state, actions)
            except KotdError as err:
                if not err.code.startswith(HOLD_CODES):
                    raise
                snapshot = self._hold(Held(seen, "question", progress.next_player,
                                           progress.turn))
            else:
                if seen.unsure:
                    snapshot = self._hold(Held(seen, "check", progress.player))
                else:
                    try:
                        for action in actions:
                            snapshot = self._apply(action, held=None)
                    except SaveError as err:
                        failed = err
                    self._storage_changed()
                    snapshot = self._snapshot
        self._publish()
        if failed is not None:
            raise failed
        return snapshot

    def confirm_held(self) -> Snapshot:
        """The table agrees with the roll it was asked to check: it enters the game."""
        with self._lock:
            held = self._held_to_check()
            snapshot = self._enter(held.seen.checked())
        self._publish()
        return snapshot

    def fix_held(self, position: int, die: Die) -> Snapshot:
        """Correct die ``position`` (1-based) of the roll held for checking; once no die is
        left to check, the corrected roll enters the game as one action."""
        with self._lock:
            held = self._held_to_check()
            roll = held.seen.roll
            if not 1 <= position <= len(roll):
                raise RuleError("no_die", "there is no die {position}; dice are 1-{dice}",
                                position=position, dice=len(roll))
            seen = replace(held.seen.checked(position), roll=roll.replace(position - 1, die))
            snapshot = (self._hold(replace(held, seen=seen)) if seen.unsure
                        else self._enter(seen))
        self._publish()
        return snapshot

    def set_colors(self, colors: dict[str, str]) -> Snapshot:
        """Each player's colour (by name, kept across games); published with the game."""
        with self._lock:
            self.store.set_colors(colors)
            current = self._snapshot
            merged = {**dict(current.colors), **colors}
            snapshot = self._set(replace(current, version=self._next_version(),
                                         colors=tuple(sorted(merged.items()))))
        self._publish()
        return snapshot

    def report_eye(self, status: EyeStatus) -> Snapshot:
        """The camera's status; a new one is published (an unchanged one is not)."""
        with self._lock:
            current = self._snapshot
            if status == current.eye:
                return current
            version = self._next_version()
            snapshot = self._set(replace(current, version=version, eye=status,
                                         eye_version=version))
        self._publish()
        return snapshot

    # ---- inside the lock -------------------------------------------------------------

    def _held_to_check(self) -> Held:
        held = self._snapshot.held
        if held is None or held.why != "check":
            raise RuleError("no_held_roll", "there is no roll waiting to be checked")
        return held

    def _enter(self, seen: Seen) -> Snapshot:
        """A checked roll enters the game (or is held for the next turn if a question
        opened meanwhile)."""
        state = self._snapshot.state
        actions = _meaning(self.pack.seen(state, seen))
        if not actions:
            return self._hold(None)
        try:
            self._probe(state, actions)
        except KotdError as err:
            if not err.code.startswith(HOLD_CODES):
                raise
            progress = self.pack.progress(state)
            return self._hold(Held(seen, "question", progress.next_player, progress.turn))
        for action in actions:
            snapshot = self._apply(action, held=None)
        return snapshot

    def _probe(self, state: Any, actions: tuple[Action, ...]) -> None:
        """Apply ``actions`` to a copy of the game: KotdError if the rules refuse one."""
        for action in actions:
            state = self.pack.apply(state, action)

    def _hold(self, held: Held | None) -> Snapshot:
        return self._set(replace(self._snapshot, version=self._next_version(), held=held))

    def _release(self) -> None:
        """After an action: a roll held for a question enters the game once the next turn
        has begun and the rules take it (checked first if a die is unsure)."""
        held = self._snapshot.held
        if held is None or held.why != "question" or self._snapshot.record is None:
            return
        state = self._snapshot.state
        progress = self.pack.progress(state)
        if progress.over:
            self._hold(None)
            return
        if held.after_turn is not None and progress.turn <= held.after_turn:
            return
        actions = _meaning(self.pack.seen(state, held.seen))
        if not actions:
            return
        try:
            self._probe(state, actions)
        except KotdError:
            return  # still not now: it waits
        if held.seen.unsure:
            self._hold(Held(held.seen, "check", progress.player))
        else:
            for action in actions:
                self._apply(action, held=None)

    def _choose(self, game: str) -> Snapshot:
        """Play ``game`` from now on: resume its newest stored game (or none yet)."""
        pack = game_pack(game)
        version = self._next_version(reserve=True)
        self.store.set_setting("game", pack.id)
        game_id = self.store.latest_game(pack.id)
        record, problem = (None, None) if game_id is None else self._replay(game_id, pack)
        self.pack = pack
        return self._set(replace(
            self._snapshot, version=version, pack=pack, record=record,
            game_id=game_id, problem=problem, held=None))

    def _resume(self) -> None:
        """The store opened its real file after starting without it: play its game (the
        one it chose last, else this table's) from its newest stored game on, with
        versions above every one handed out before."""
        pack = game_pack(self.store.setting("game") or self.pack.id)
        self._snapshot = replace(self._snapshot, version=max(
            self._snapshot.version, self.store.version_ceiling()))
        self._ceiling = 0  # raise the file's ceiling at the next version
        game_id = self.store.latest_game(pack.id)
        record, problem = (None, None) if game_id is None else self._replay(game_id, pack)
        self.pack = pack
        self._set(replace(
            self._snapshot, version=self._next_version(), pack=pack, record=record,
            game_id=game_id, problem=problem, held=None,
            colors=tuple(sorted(self.store.colors().items()))))

    def _apply(self, action: Action, held: Held | bool | None = True,
               action_id: str | None = None) -> Snapshot:
        """Apply and store one action; ``held`` True keeps the held roll (None drops it);
        ``action_id`` is stored with it (SaveError: nothing stored, nothing changed)."""
        current = self._snapshot
        problem = current.problem
        if isinstance(action, ChooseGame):
            return self._choose(action.game)
        if isinstance(action, Players):
            record = GameRecord.start(self.pack, action)
            version = self._next_version(reserve=True)  # before storing: see _next_version
            game_id = self.store.new_game(str(action), self.pack.id, action_id)
            problem = None
        else:
            if current.record is None or current.game_id is None:
                raise RuleError("no_game", "no game yet: start one with 'players NAME NAME "
                                "...'")
            if problem is not None:
                raise RuleError("game_stopped", "game {game} cannot go on ({problem}); start "
                                "a new game with 'players'", game=current.game_id,
                                problem=problem)
            record = current.record.act(action)
            game_id = current.game_id
            version = self._next_version(reserve=True)
            self.store.append(game_id, str(action), action_id)
        keep = current.held if held is True and not isinstance(action, Players) else None
        if isinstance(keep, Held) and keep.why == "check":
            keep = None  # the dice it read are no longer the game's: dropped (see above)
        return self._set(Snapshot(version, self.pack, record, game_id,
                                  current.eye, current.eye_version, current.advice,
                                  problem, keep if isinstance(keep, Held) else None,
                                  current.colors, current.storage))

    def _set(self, snapshot: Snapshot) -> Snapshot:
        """Inside the lock: ``snapshot`` is the table now; waiting streams wake."""
        self._snapshot = snapshot
        self._recent.append(snapshot)
        self._changed.notify_all()
        return snapshot

    def _storage(self) -> StorageStatus:
        problem = self.store.problem
        return SAVED if problem is None and not self.store.notice else StorageStatus(
            problem is None, problem or self.store.notice)

    def _storage_changed(self) -> None:
        """Inside the lock: a new snapshot if the store's status moved."""
        storage = self._storage()
        current = self._snapshot
        if storage != current.storage:
            try:
                version = self._next_version()
            except SaveError:  # the ceiling could not be raised: count on in memory
                version = current.version + 1
            self._set(replace(current, version=version, storage=storage))

    def _next_version(self, reserve: bool = False) -> int:
        """The next version, the store's ceiling raised a block at a time.

        ``reserve``: an action about to be stored; if the ceiling cannot be raised (the
        card filled up just then) SaveError is raised *before* the action is stored, so an
        action is never stored and yet answered 503. Otherwise (a camera status, a colour)
        the version counts on in memory and the ceiling is raised at the next write."""
        version = self._snapshot.version + 1
        if version >= self._ceiling:
            try:
                self.store.raise_version_ceiling(version + VERSION_BLOCK)
            except SaveError:
                if reserve:
                    raise
                return version
            self._ceiling = version + VERSION_BLOCK
        return version

    def _replay(self, game_id: int, pack: GamePack[Any]
                ) -> tuple[GameRecord[Any] | None, str | None]:
        lines = [e.action for e in self.store.events(game_id)]
        try:
            return replay(pack, lines), None
        except ReplayError as err:
            return err.record, str(err)

    # ---- telling ---------------------------------------------------------------------

    def _publish(self) -> None:
        """Hand the newest snapshot to the listeners, once each, in version order."""
        with self._deliver:
            snapshot = self._snapshot
            if snapshot.version <= self._delivered:
                return
            self._delivered = snapshot.version
            with self._lock:
                listeners = list(self._listeners)
            for listener in listeners:
                listener(snapshot)


def _meaning(meaning: Action | tuple[Action, ...] | None) -> tuple[Action, ...]:
    """What a pack says a seen roll means, as actions in order (none, one or several)."""
    if meaning is None:
        return ()
    return meaning if isinstance(meaning, tuple) else (meaning,)

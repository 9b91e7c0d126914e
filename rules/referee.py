"""The referee: the one game in progress, its record, its storage and who to tell.

Every action, from a script, a phone or a button, goes through :meth:`Referee.act`:
it is parsed, judged by the rules, stored (one transaction) and only then becomes the
current state; listeners are told after. A refused action changes nothing. On start the
referee resumes the newest game of its store exactly where it stopped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rules.actions import Action, Players, parse_action
from rules.cards import Box, load_box
from rules.game import GameState, RuleError
from rules.record import GameRecord
from rules.store import Event, EventStore

Listener = Callable[[GameRecord | None], None]


class Referee:
    """Thread-safe keeper of the current game."""

    def __init__(self, store: EventStore, box: Box | None = None) -> None:
        self.store = store
        self.box = box or load_box()
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Listener] = []
        self.version = 0
        self.game_id: int | None = None
        self.record: GameRecord | None = None
        self.skipped: list[str] = []
        latest = store.latest_game()
        if latest is not None:
            self.game_id = latest
            self.record = self._replay(store.events(latest))

    def _replay(self, events: list[Event]) -> GameRecord | None:
        record: GameRecord | None = None
        for event in events:
            try:
                action = parse_action(event.action, self.box.dice)
                if record is None:
                    if not isinstance(action, Players):
                        raise RuleError("a game starts with 'players'")
                    record = GameRecord.start(action, self.box)
                else:
                    record = record.act(action)
            except ValueError as err:  # a record written by another version of the rules
                self.skipped.append(f"event {event.seq} '{event.action}': {err}")
        return record

    @property
    def state(self) -> GameState | None:
        return self.record.state if self.record else None

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def act(self, line_or_action: str | Action) -> GameRecord:
        """Judge, store and apply one action; ValueError (nothing changed) if refused."""
        action = (parse_action(line_or_action, self.box.dice)
                  if isinstance(line_or_action, str) else line_or_action)
        with self._lock:
            if isinstance(action, Players):
                record = GameRecord.start(action, self.box)
                self.game_id = self.store.new_game(str(action))
            else:
                if self.record is None or self.game_id is None:
                    raise RuleError("no game yet: start one with 'players NAME NAME ...'")
                record = self.record.act(action)
                self.store.append(self.game_id, str(action))
            self.record = record
            self.version += 1
            self._changed.notify_all()
            listeners = list(self._listeners)
        for listener in listeners:
            listener(record)
        return record

    def wait_for_change(self, version: int, timeout: float) -> int:
        """Block until the version moves past ``version`` or ``timeout`` passes."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != version, timeout)
            return self.version

    def history(self, game_id: int | None = None) -> list[Event]:
        gid = self.game_id if game_id is None else game_id
        return [] if gid is None else self.store.events(gid)

    def past_record(self, game_id: int) -> GameRecord | None:
        """Any stored game, rebuilt from its actions (for the history view)."""
        return self._replay(self.store.events(game_id))

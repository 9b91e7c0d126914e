"""The record of one game: its actions, in order, and the state after each.

A game is the fold of its pack's ``apply`` over its actions. ``undo`` takes back the last
action still in effect, any number of times, back to the start of the game. The record is
immutable: :meth:`GameRecord.act` returns a new record.

:func:`replay` is the one way back from stored lines to a game: it applies them in order
and stops at the first line it cannot apply, with a :class:`rules.errors.ReplayError`
that says which and why and carries the game as far as it went. A stored game is never
silently changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from rules.actions import Action, Players, Undo
from rules.errors import KotdError, ReplayError, RuleError
from rules.pack import GamePack

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class GameRecord(Generic[S]):
    """``states[0]`` is the new game; ``states[i]`` the state after ``actions[i-1]``."""

    pack: GamePack[S]
    players: Players
    actions: tuple[Action, ...]
    states: tuple[S, ...]

    @property
    def state(self) -> S:
        return self.states[-1]

    @classmethod
    def start(cls, pack: GamePack[S], players: Players) -> GameRecord[S]:
        return cls(pack, players, (), (pack.new_game(players.names),))

    def act(self, action: Action) -> GameRecord[S]:
        """This record with one more action; RuleError (record unchanged) if refused."""
        if isinstance(action, Players):
            raise RuleError("players_in_game", "a new game is started with 'players', not "
                            "inside a game")
        if isinstance(action, Undo):
            if not self.actions:
                raise RuleError("nothing_to_undo", "nothing to undo: this is the start of "
                                "the game")
            return GameRecord(self.pack, self.players, self.actions[:-1], self.states[:-1])
        return GameRecord(self.pack, self.players, (*self.actions, action),
                          (*self.states, self.pack.apply(self.state, action)))


@dataclass(frozen=True, slots=True)
class ReplayStop:
    """Where a stored game stopped: the event number (0 is ``players``), its line, why."""

    event: int
    line: str
    error: KotdError

    def __str__(self) -> str:
        return f"event {self.event} '{self.line}': {self.error}"


def replay(pack: GamePack[S], lines: Iterable[str]) -> GameRecord[S]:
    """Rebuild a game from its stored action lines (the first is ``players ...``).

    Stops at the first line that cannot be read or applied: :class:`ReplayError` with
    ``stop`` (a :class:`ReplayStop`) and ``record`` (the game up to that line, or None
    when even ``players`` failed).
    """
    record: GameRecord[S] | None = None
    for event, line in enumerate(lines):
        try:
            action = pack.parse_action(line)
            if record is None:
                if not isinstance(action, Players):
                    raise RuleError("starts_with_players", "a game record starts with "
                                    "'players', not '{action}'", action=str(action))
                record = GameRecord.start(pack, action)
            else:
                record = record.act(action)
        except KotdError as err:
            stop = ReplayStop(event, line, err)
            raise ReplayError("stopped", "the stored game stops at event {event} '{line}': "
                              "{why}", event=event, line=line, why=str(err)).carrying(
                                  stop, record) from err
    if record is None:
        raise ReplayError("empty", "the stored game has no actions").carrying(None, None)
    return record

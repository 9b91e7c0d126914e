"""The record of one game: its actions, in order, and the state after each.

A game is the fold of :func:`rules.game.apply` over its actions. ``undo`` takes back the
last action still in effect, any number of times, back to the start of the game. The
record is immutable: :meth:`GameRecord.act` returns a new record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.actions import Action, Players, Undo, parse_action
from rules.cards import Box, load_box
from rules.game import GameState, RuleError, apply, new_game


@dataclass(frozen=True, slots=True)
class GameRecord:
    """``states[0]`` is the new game; ``states[i]`` the state after ``actions[i-1]``."""

    players: Players
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @classmethod
    def start(cls, players: Players, box: Box | None = None) -> GameRecord:
        return cls(players, (), (new_game(players.names, box),))

    def act(self, action: Action) -> GameRecord:
        """This record with one more action; RuleError (record unchanged) if refused."""
        if isinstance(action, Players):
            raise RuleError("a new game is started with 'players', not inside a game")
        if isinstance(action, Undo):
            if not self.actions:
                raise RuleError("nothing to undo: this is the start of the game")
            return GameRecord(self.players, self.actions[:-1], self.states[:-1])
        return GameRecord(self.players, (*self.actions, action),
                          (*self.states, apply(self.state, action)))

    @classmethod
    def replay(cls, lines: Iterable[str], box: Box | None = None) -> GameRecord:
        """Rebuild a game from its stored action lines (the first is ``players ...``)."""
        box = box or load_box()
        it = iter(lines)
        first = parse_action(next(it), box.dice)
        if not isinstance(first, Players):
            raise ValueError(f"a game record starts with 'players', not {first}")
        record = cls.start(first, box)
        for line in it:
            record = record.act(parse_action(line, box.dice))
        return record

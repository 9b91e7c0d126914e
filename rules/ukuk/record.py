"""The record of one game of Um Krone und Kragen: its actions and the state after each.

A game is the fold of :func:`rules.ukuk.game.apply` over its actions. ``undo`` takes back
the last action still in effect, any number of times, back to the start of the game. The
record is immutable: :meth:`UkukRecord.act` returns a new record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.actions import Players, Undo
from rules.errors import RuleError
from rules.ukuk.actions import Action, parse_action
from rules.ukuk.court import Court
from rules.ukuk.game import GameState, apply, new_game


@dataclass(frozen=True, slots=True)
class UkukRecord:
    """``states[0]`` is the new game; ``states[i]`` the state after ``actions[i-1]``."""

    players: Players
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @classmethod
    def start(cls, players: Players, court: Court | None = None) -> UkukRecord:
        return cls(players, (), (new_game(players.names, court),))

    def act(self, action: Action) -> UkukRecord:
        """This record with one more action; RuleError (record unchanged) if refused."""
        if isinstance(action, Players):
            raise RuleError("a new game is started with 'players', not inside a game")
        if isinstance(action, Undo):
            if not self.actions:
                raise RuleError("nothing to undo: this is the start of the game")
            return UkukRecord(self.players, self.actions[:-1], self.states[:-1])
        return UkukRecord(self.players, (*self.actions, action),
                          (*self.states, apply(self.state, action)))

    @classmethod
    def replay(cls, lines: Iterable[str], court: Court | None = None) -> UkukRecord:
        """Rebuild a game from its action lines (the first is ``players ...``)."""
        it = iter(lines)
        first = parse_action(next(it))
        if not isinstance(first, Players):
            raise ValueError(f"a game record starts with 'players', not {first}")
        record = cls.start(first, court)
        for line in it:
            record = record.act(parse_action(line))
        return record

"""A stored game told line by line, the same way for every game that replays its own
states (Um Krone und Kragen, the board game): one sentence a line."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from rules.actions import Action, Players, Undo
from rules.errors import KotdError

S = TypeVar("S")


def tell(lines: Iterable[str], parse_action: Callable[[str], Action],
         new_game: Callable[[tuple[str, ...]], S], apply: Callable[[S, Action], S],
         said: Callable[[S, Action, S, str], str], words: dict[str, Any],
         lang: str) -> list[str]:
    """``lines`` as sentences: ``players`` starts the story again (``words["players"]``),
    every other line is what ``said`` tells of the states before and after it, an ``undo``
    says what it took back (``words["undo"]``). A line the rules refuse, a line before any
    ``players`` line, or an undo with nothing to take back ends the story there."""
    out: list[str] = []
    states: list[S] = []
    told: list[str] = []
    for line in lines:
        try:
            action = parse_action(line)
            if isinstance(action, Players):
                states, told = [new_game(action.names)], []
                out.append(words["players"].format(players=", ".join(action.names)))
            elif isinstance(action, Undo):
                if len(states) < 2:
                    break
                states.pop()
                out.append(words["undo"].format(what=told.pop()))
            elif states:
                after = apply(states[-1], action)
                sentence = said(states[-1], action, after, lang)
                states.append(after)
                told.append(sentence)
                out.append(sentence)
            else:
                break
        except KotdError:
            break
    return out

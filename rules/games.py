"""Every game the assistant knows, by the id stored with each game (``kotd``).

The one list of packs (:mod:`rules.pack`): a new game is a package under ``rules/`` and one
line here.
"""

from __future__ import annotations

from typing import Any

from rules.errors import UsageError
from rules.pack import GamePack

GAMES = ("kotd", "ukuk", "board")
"""The ids of every pack, in the order ``--game`` lists them."""


def game_pack(game: str) -> GamePack[Any]:
    """The pack called ``game``; a :class:`UsageError` names the known ones."""
    if game == "kotd":
        from rules.kotd import KingOfTheDice

        return KingOfTheDice.default()
    if game == "ukuk":
        from rules.ukuk import UmKroneUndKragen

        return UmKroneUndKragen.default()
    if game == "board":
        from rules.board import BoardGame

        return BoardGame.default()
    raise UsageError("unknown_game", "unknown game {game!r} (known: {known})", game=game,
                     known=", ".join(GAMES))

"""``kotd score``: the final scoring sheet of a game counted (today: ``--game board``)."""

from __future__ import annotations

import argparse

from rules.errors import UsageError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "score", help="count a final scoring sheet (--game board)",
        description='Reads {"players": [{"name": ..., "largest_area": ..., "outside": ..., '
                    '"dragon_fires": ..., "gold": ..., "white": ...}, ...]} and prints '
                    "every player's points, places and the winners.")
    p.add_argument("--game", choices=("board",), required=True, help="the game (board)")
    p.add_argument("--sheet", metavar="FILE", help="the sheet as JSON (default: stdin)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    if args.game != "board":  # pragma: no cover - argparse allows only board
        raise UsageError("only the board game is scored here")
    from pi.cli.board import score_board

    return score_board(args)

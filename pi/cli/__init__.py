"""The ``kotd`` command line: one entry point, one module per command.

Every command is a module here with ``register(subparsers)`` that adds its parser and
handler; :data:`COMMANDS` lists them. Heavy libraries (NumPy, OpenCV, Flask) are imported
only when their command runs (``tests/test_imports.py`` checks it), so ``kotd check`` starts
fast. The pure work is in ``rules``, ``vision`` and ``web``; these modules only read
arguments and print.

A handler returns the exit status. What the user did wrong is a
:class:`rules.errors.KotdError`: one line on standard error, exit status 2, no traceback.
Anything else is a bug and shows as one (a traceback).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pi import backup, doctor, kiosk, photo
from pi.cli import advise, cards, check, play, score, serve
from pi.config import default_data_dir
from rules.dice import HABA_LOOK, DiceLook
from rules.errors import KotdError
from rules.games import game_pack
from rules.store import SaveError
from vision import cli as vision_cli

COMMANDS = (cards, check, play, score, advise, vision_cli, serve, doctor, backup, photo, kiosk)
"""Modules that add sub-commands, in the order ``kotd --help`` lists them
(``vision.cli``: ``read`` and ``calibrate``, next to the dice reader it drives; ``doctor``,
``backup``, ``photo``, ``kiosk``: in ``pi/``, next to what they check and drive)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kotd",
        description="King of the Dice table assistant: reads the dice, referees, keeps score.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    # the data directory is decided once, by the config's rules, and handed down; so is
    # the description of the HABA dice (King of the Dice's box) for `kotd read`/`calibrate`
    parser.set_defaults(data_dir_of=default_data_dir, haba_dice_of=_haba_dice)
    return parser


def _haba_dice() -> tuple[int, DiceLook]:
    """How many HABA dice King of the Dice's box holds, and what they look like."""
    spec = game_pack("kotd").dice
    return spec.count or 6, spec.look or HABA_LOOK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except KotdError as err:
        print(f"kotd: error: {err}", file=sys.stderr)
        return 2
    except SaveError as err:  # the card is full or read-only: not a mistake, not a bug
        print(f"kotd: error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The ``kotd`` command line: one entry point, one sub-command per job.

Each area registers its own sub-commands (``register(subparsers)``) and imports its
heavy libraries (OpenCV, Flask) only when its command runs, so ``kotd check`` starts fast.
A handler returns the exit status; a problem with the user's input raises
:class:`CliError` (or a ``ValueError``/``KeyError``/``OSError``) and becomes one line on
standard error with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = ("rules.cli", "rules.play_cli", "rules.advise_cli", "vision.cli", "pi.serve",
                   "pi.doctor", "pi.backup", "pi.photo", "pi.kiosk")
"""Modules that add sub-commands; each has ``register(subparsers)``."""


class CliError(Exception):
    """A problem the user can fix; printed as one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kotd",
        description="King of the Dice table assistant: reads the dice, referees, keeps score.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name == name:  # an area that is not built yet
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except (CliError, ValueError, KeyError, OSError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"kotd: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

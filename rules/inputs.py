"""Reading the user's input files and streams with a sane size limit.

A card data file, a game script or a line on standard input is small; ``/dev/zero``, a
wrong file or a pipe that never ends is not. Everything the command line reads goes
through here, reads at most a little over its limit, and refuses the rest in one line
(:class:`InputTooLarge`) instead of growing without bound. A game's data file (its cards)
is read by :func:`read_data_file`, the one loader of every pack.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO, TextIO, TypeVar

from rules.errors import DataError, KotdError, UnknownCardError, UsageError

T = TypeVar("T")

MAX_TEXT_BYTES = 1 << 20
"""A card data file or a game script: at most 1 MiB (the box's own file is 20 KiB)."""

MAX_LINE_CHARS = 4096
"""One line of a script or of standard input."""


class InputTooLarge(UsageError):
    """An input file or line is larger than anything the command could mean."""

    family = "input"


def _too_large(message: str) -> InputTooLarge:
    return InputTooLarge("too_large", "{message}", message=message)


def _size(limit: int) -> str:
    return f"{limit // (1 << 20)} MiB" if limit >= 1 << 20 else f"{limit} bytes"


def open_file(path: str | Path) -> BinaryIO:
    """``path`` opened for reading: a file or a device (``/dev/zero`` is read up to a
    limit). A named pipe (FIFO) or a folder is refused (UsageError) after an open that
    cannot wait: opening a pipe nobody writes to would wait forever. OSError if it cannot
    be opened."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISDIR(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a pipe"
            raise UsageError("not_a_file", "{path}: {kind}, not a file (give a file, or '-' "
                             "for standard input where the command reads it)",
                             path=str(path), kind=kind)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, limit: int, what: str = "the file") -> bytes:
    """The bytes of ``path`` (a file or a device, see :func:`open_file`), at most ``limit``
    of them.

    OSError (with the path) if it cannot be read; InputTooLarge if there is more.
    """
    with open_file(path) as stream:
        return read_stream(stream, limit, f"{path}: {what}")


def read_stream(stream: BinaryIO, limit: int, what: str) -> bytes:
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(f"{what} is larger than {_size(limit)} (is it the right file?)")
    return data


def read_text(path: str | Path, limit: int = MAX_TEXT_BYTES, what: str = "the file") -> str:
    """UTF-8 text of ``path`` with the limit of :func:`read_bytes`; UsageError if not UTF-8."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UsageError("input.not_utf8", "{path}: not UTF-8 text (byte {byte})",
                         path=str(path), byte=err.start + 1) from None


def read_data_file(path: str | Path, what: str,
                   error: Callable[[str], DataError]) -> dict[str, Any]:
    """A game's TOML data file (its cards), at most :data:`MAX_TEXT_BYTES`: the one loader
    of every pack. A file that cannot be read, is too large, is not UTF-8 or not TOML
    raises ``error(message)``, the message naming the file."""
    try:
        text = read_text(path, what=what)
    except OSError as err:
        raise error(f"{path}: cannot read {what}: {err.strerror}") from None
    except KotdError as err:  # too large, or not UTF-8
        raise error(str(err)) from None
    return parse_data(text, str(path), error)


def packaged_data_file(package: str, name: str,
                       error: Callable[[str], DataError]) -> dict[str, Any]:
    """A pack's own data file ``<package>/data/<name>``, parsed as :func:`read_data_file`."""
    text = resources.files(package).joinpath("data", name).read_text("utf-8")
    return parse_data(text, name, error)


def parse_data(text: str, source: str, error: Callable[[str], DataError]) -> dict[str, Any]:
    """TOML text as a dict; ``error`` names ``source`` when it is not valid TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(f"{source}: not valid TOML: {err}") from None


def bounded_lines(stream: TextIO, max_chars: int = MAX_LINE_CHARS,
                  what: str = "standard input") -> Iterator[str]:
    """The lines of a text stream, each at most ``max_chars``; InputTooLarge for a longer
    one (it is not read to its end)."""
    line_no = 0
    while True:
        line = stream.readline(max_chars + 1)
        if not line:
            return
        line_no += 1
        if len(line) > max_chars and not line.endswith("\n"):
            raise _too_large(f"{what}: line {line_no} is longer than {max_chars} "
                                "characters (is it the right input?)")
        yield line


def card_list(ids: str, card: Callable[[str], T], flag: str = "--cards") -> list[T]:
    """The cards of a comma-separated id list, each looked up by ``card`` (which raises
    UnknownCardError); errors name the flag and the position in the list."""
    cards = []
    for position, cid in enumerate((s.strip() for s in ids.split(",")), start=1):
        if not cid:
            raise UsageError("empty_card", "{flag}: card {position} is empty", flag=flag,
                             position=position)
        try:
            cards.append(card(cid))
        except UnknownCardError as err:
            raise err.within("{flag}: card {position}: ", flag=flag, position=position) from None
    return cards

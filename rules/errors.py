"""One family of errors for what a user did wrong: :class:`KotdError`.

A ``KotdError`` is a mistake someone at the table (or at the command line) can fix: a typo in
an action, a move the rules refuse, an unknown card, a broken data or config file. The edges
(the ``kotd`` command, the page's API, the panel) catch exactly this family and show its one
line; anything else that escapes is a bug and shows as one, with its traceback.

Every error carries a stable ``code`` (e.g. ``"rule.no_rolls_left"``), its ``params`` (plain
JSON values) and the English ``template`` they fill, so an edge can say the same thing in
another language: ``template.format(**params)`` is the English message. A message only the
command line shows may be given as one string (``UsageError("...")``, code ``usage.said``).
"""

from __future__ import annotations

from typing import Any, ClassVar


class KotdError(Exception):
    """Something a user did wrong; the message says what, the code and params say it again
    for translation. Subclasses name the area (``family``)."""

    family: ClassVar[str] = "error"

    def __init__(self, code: str, template: str | None = None, **params: Any) -> None:
        if template is None:  # KotdError("one line"): English only, for the command line
            code, template, params = "said", "{message}", {"message": code}
        self.code = code if "." in code else f"{self.family}.{code}"
        self.template = template
        self.params = params
        try:
            message = template.format(**params)
        except (KeyError, IndexError, ValueError):  # pragma: no cover - a bad template is a bug
            raise TypeError(f"error template {template!r} does not fit {params!r}") from None
        super().__init__(message)

    @property
    def message(self) -> str:
        return str(self.args[0])

    def __str__(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """``{"error": English text, "code": ..., "params": {...}}`` for the API."""
        return {"error": self.message, "code": self.code, "params": dict(self.params)}

    def within(self, prefix: str, as_type: type[KotdError] | None = None,
               **params: Any) -> KotdError:
        """The same error, said inside a larger one: ``prefix`` (a template) goes first.

        A ``RollSyntaxError`` inside ``roll ...`` becomes an ``ActionSyntaxError``
        ``"roll: die 3 ..."`` with the same code and the prefix's params added.
        """
        return (as_type or type(self))(self.code, prefix + self.template,
                                       **{**self.params, **params})


class UsageError(KotdError):
    """A command-line flag or a request body that does not make sense."""

    family = "usage"


class RuleError(KotdError):
    """An action the rules do not allow; the message names the rule. The game is unchanged."""

    family = "rule"


class ActionSyntaxError(KotdError):
    """An action line could not be read; the message says what was expected."""

    family = "action"


class RollSyntaxError(KotdError):
    """A roll's text could not be read; the message names the token and its position."""

    family = "roll"


class UnknownCardError(KotdError):
    """A card id the box does not have; the message names close matches."""

    family = "card"


class DataError(KotdError):
    """A data file (cards, palette, config) is broken; the message names the file and entry."""

    family = "data"


class TrayError(KotdError):
    """Corners that outline no tray (the camera's tray, marked at calibration)."""

    family = "tray"


class GameFileError(KotdError):
    """The game file cannot be opened or written."""

    family = "store"


class ReplayError(KotdError):
    """A stored game stops at an event the rules no longer accept; never silently altered.

    ``stop`` says where and why (:class:`rules.record.ReplayStop`), ``record`` is the game
    as far as it went (None if not even its first line could be applied).
    """

    family = "replay"
    stop: Any = None
    record: Any = None

    def carrying(self, stop: Any, record: Any) -> ReplayError:
        self.stop, self.record = stop, record
        return self

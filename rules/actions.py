"""Actions: the typed moves of a game, and the one place their text form is read.

Inside the process an action is a small immutable value; text is only for the edges (a
script line, the page's request, the stored event). Every action has a canonical text form
(``str(action)``) that :func:`parse_line` reads back; the event store keeps exactly that.

The actions every game shares live here::

    players Ann Ben Cem       a new game, in seating order
    roll 4r 4g 4b 1r 2g 6b    the dice as they lie after a throw
    fix 3 5b                  die 3 is really a blue 5 (``fix 3 5b 5 2g``: two dice at once)
    undo                      take back the last action

A game's own actions (King of the Dice: ``row``, ``claim``, ``give``, ``penalty``,
``draw``) live in its pack and are read by the same :func:`parse_line`.

:class:`Seen` is not a move but what the camera hands the table: the roll it read, how sure
it is of each die, and whether it was asked to read again. The table decides, under its
lock, what that means for the game (a ``roll``, a ``fix``, or nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Protocol

from rules.dice import Die, Roll
from rules.errors import ActionSyntaxError, RollSyntaxError
from rules.names import PlayerNameError, look_alike, shown, spaced
from rules.names import player_name as normal_name


class ActionType(Protocol):
    """What :func:`parse_line` needs of an action class: its verb, usage and reader."""

    verb: ClassVar[str]
    usage: ClassVar[str]

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Action: ...


def need(verb: str, usage: str, args: Sequence[str], n: int | None = None,
         at_least: int = 0) -> None:
    """Refuse a wrong number of words after ``verb``."""
    if (n is not None and len(args) != n) or len(args) < at_least:
        raise ActionSyntaxError("words", "{verb}: wrong number of words; usage: {usage}",
                                verb=verb, usage=usage)


def whole_number(word: str, what: str, usage: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ActionSyntaxError("number", "{what} must be a whole number, not {word!r}; "
                                "usage: {usage}", what=what, word=word, usage=usage) from None


def player_name(word: str) -> str:
    """A player's name as the table keeps it (:func:`rules.names.player_name`)."""
    try:
        return normal_name(word)
    except PlayerNameError as err:
        raise ActionSyntaxError("name", "{why}", name=word, why=str(err)) from None


@dataclass(frozen=True, slots=True)
class Players:
    """Start a new game with these players, in seating order; the first starts."""

    names: tuple[str, ...]
    verb: ClassVar[str] = "players"
    usage: ClassVar[str] = "players NAME NAME [NAME ...]"

    def __str__(self) -> str:
        return "players " + " ".join(self.names)

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Players:
        need(cls.verb, cls.usage, args, at_least=1)
        names = tuple(player_name(a) for a in args)
        twins = look_alike(names)
        if twins:
            raise ActionSyntaxError("look_alike", "player names {first!r} and {second!r} "
                                    "look alike: tell them apart (an initial, a nickname)",
                                    first=twins[0], second=twins[1])
        return cls(names)

    @staticmethod
    def check_spaces(line: str) -> None:
        """Players are separated by ordinary spaces: any other space in the line (a
        no-break, thin or ideographic space, a tab) would silently split one name in two,
        so it is refused, naming the word that holds it."""
        odd = spaced(line)
        if odd is not None:
            word = next(w for w in line.split(" ") if odd in w)
            raise ActionSyntaxError("name_space", "player name {name!r} holds a space "
                                    "({char}): a name is one word (Ann-Marie); separate "
                                    "players with ordinary spaces", name=word,
                                    char=shown(odd))


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice were thrown and read (by the camera or by hand)."""

    roll: Roll
    verb: ClassVar[str] = "roll"
    usage: ClassVar[str] = "roll DIE DIE DIE DIE DIE DIE (e.g. roll 4r 4g 4b 1r 2g 6b)"

    def __str__(self) -> str:
        return f"roll {self.roll}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Rolled:
        try:
            return cls(Roll.parse(" ".join(args), dice))
        except RollSyntaxError as err:
            raise err.within("roll: ", ActionSyntaxError) from None


@dataclass(frozen=True, slots=True)
class Fix:
    """Dice of the current roll corrected by hand or by a second reading, all at once.

    ``dice`` pairs a 1-based position with the die that really lies there; one ``fix`` is
    one action (one undo), however many dice it corrects.
    """

    dice: tuple[tuple[int, Die], ...]
    verb: ClassVar[str] = "fix"
    usage: ClassVar[str] = "fix POSITION DIE [POSITION DIE ...] (e.g. fix 3 5b)"

    def __str__(self) -> str:
        return "fix " + " ".join(f"{p} {d}" for p, d in self.dice)

    @classmethod
    def one(cls, position: int, die: Die) -> Fix:
        return cls(((position, die),))

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Fix:
        need(cls.verb, cls.usage, args, at_least=2)
        if len(args) % 2:
            need(cls.verb, cls.usage, args, n=len(args) + 1)
        pairs = []
        for i in range(0, len(args), 2):
            position = whole_number(args[i], "the die position", cls.usage)
            try:
                die = Die.parse(args[i + 1])
            except RollSyntaxError as err:
                raise err.within("fix: ", ActionSyntaxError) from None
            pairs.append((position, die))
        return cls(tuple(pairs))


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last action that is still in effect."""

    verb: ClassVar[str] = "undo"
    usage: ClassVar[str] = "undo"

    def __str__(self) -> str:
        return "undo"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Undo:
        need(cls.verb, cls.usage, args, n=0)
        return cls()


@dataclass(frozen=True, slots=True)
class ChooseGame:
    """The table plays this game from now on (``game ukuk``): its newest stored game is
    resumed, or ``players`` starts one. A table command, not a move of any game."""

    game: str
    verb: ClassVar[str] = "game"
    usage: ClassVar[str] = "game ID (kotd: King of the Dice, ukuk: Um Krone und Kragen)"

    def __str__(self) -> str:
        return f"game {self.game}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> ChooseGame:
        need(cls.verb, cls.usage, args, n=1)
        return cls(args[0].lower())


class Action(Protocol):
    """Any move of any game: an immutable value whose ``str`` is its canonical line."""

    verb: ClassVar[str]

    def __str__(self) -> str: ...


COMMON: tuple[type[ActionType], ...] = (Players, Rolled, Fix, Undo)
"""The actions every game shares."""


def vocabulary(*types: type[ActionType]) -> dict[str, type[ActionType]]:
    """A game's verbs, in the order its usage lists them."""
    return {t.verb: t for t in types}


def parse_line(line: str, verbs: Mapping[str, type[ActionType]],
               dice: int | None = None) -> Action:
    """Read one action line (case-insensitive verb) with a game's ``verbs``.

    ``dice`` is the number of dice a roll must have (None: any). Raises
    :class:`ActionSyntaxError` saying what was expected.
    """
    words = line.split()
    if not words:
        raise ActionSyntaxError("empty", "empty action")
    verb, args = words[0].lower(), words[1:]
    kind = verbs.get(verb)
    if kind is None:
        raise ActionSyntaxError("unknown", "unknown action {verb!r} (known: {known})",
                                verb=words[0], known=", ".join(verbs))
    if kind is Players:
        Players.check_spaces(line.strip())
    return kind.parse(args, dice)


@dataclass(frozen=True, slots=True)
class Seen:
    """What the camera saw: a settled roll, how sure it is of each die, and whether this
    was a second reading of dice already in the game (the re-read button).

    ``confidence[i]`` belongs to ``roll[i]`` (0..1); ``unsure`` are the 1-based positions
    of the dice a person should look at. ``aside``: the dice lying in the tray's set-aside
    strip, for a game that sets dice aside and a tray that has one (``roll`` is then only
    the dice in play); None otherwise. Never stored: the table turns it into a game
    action (or holds it) under its lock.
    """

    roll: Roll
    confidence: tuple[float, ...] = ()
    unsure: tuple[int, ...] = ()
    reread: bool = False
    aside: Roll | None = None
    why: tuple[tuple[int, str], ...] = ()
    """Why the camera doubts an unsure die, where it could say: (position, a reason code:
    "side", "die", "value", "colour", "box", "kept" or "strip"), for the page to say it."""

    def checked(self, position: int | None = None) -> Seen:
        """This reading with die ``position`` (1-based; None: every die) checked by a person:
        no longer to check, nor its doubt."""
        keep = (lambda p: False) if position is None else (lambda p: p != position)
        return replace(self, unsure=tuple(p for p in self.unsure if keep(p)),
                       why=tuple((p, w) for p, w in self.why if keep(p)))

    def __str__(self) -> str:
        marks = f" (check die {', '.join(map(str, self.unsure))})" if self.unsure else ""
        return f"{'read again' if self.reread else 'saw'} {self.roll}{marks}"

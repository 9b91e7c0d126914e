"""What a court card lets its owner do with the dice, and the rule each use must follow.

A use of an ability names the active dice it takes (``before``, values) and what they
show afterwards (``after``); dice that come into play have no ``before``. Every ability
kind is one small immutable class that owns

* ``check``: the rule, raising :class:`~rules.game.RuleError` with the reason;
* ``complete``: the ``after`` values where the rule fixes them (``use hofdame 2 3`` means
  ``2 3 -> 3 4``), so a player only says what is not already decided;
* ``moves``: every different legal use on given dice, for the reach solver (only kinds
  that involve no luck, ``deterministic = True``);
* its data form and its label.

The kinds, as the rulebook has them (no die may leave 1-6):

* ``start_dice``: more dice in hand at the start of every turn (Bauer, Scharlatan +1,
  Feldherr +2, compulsory); not used during the turn;
* ``reroll``: throw one active die again (Hofnarr) or any number of them (Händler);
* ``raise``: add 1, 2 or 3 to one active die (Dienstmagd), 1 to any number of active dice
  (Hofdame), exactly 2 to any number of active dice (Edelmann);
* ``share``: move pips between exactly two (Philosoph) or three (Alchemist) active dice,
  the sum staying the same;
* ``copy_aside``: turn one active die to the number of a die already set aside (Astronom);
* ``turn``: turn one active die to any number (Zauberer);
* ``add``: bring one more active die into play showing a fixed number (Handwerker 1,
  Wachmann 2, Jäger 3, Pfandleiher 4, Ritter 5, Bischof 6) or any number (Königin);
* ``crown``: no ability (König).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, ClassVar

from rules.errors import RuleError
from rules.ukuk.costs import VALUES, Counts

Values = tuple[int, ...]
"""Dice values 1-6, smallest first when they form a multiset."""


class AbilityError(ValueError):
    """An ability in the court data is malformed."""


def dice_text(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "none"


def take(before: Sequence[int], active: Sequence[int]) -> list[int]:
    """The active dice left after taking ``before`` out; RuleError if they are not there."""
    rest = list(active)
    for v in before:
        if v not in rest and not active:
            raise RuleError("use_no_active_dice", "there is no active die showing {value} to "
                            "use (active dice: none)", value=v)
        if v not in rest:
            raise RuleError("use_no_such_die", "there is no active die showing {value} to use "
                            "(active dice: {active})", value=v, active=dice_text(active))
        rest.remove(v)
    return rest


@lru_cache(maxsize=50_000)
def _sub_multisets(counts: Counts, size: int | None = None,
                   top: int = 6) -> tuple[Values, ...]:
    """The different non-empty sub-multisets of the dice (of ``size`` dice, values <= top)."""
    found: list[Values] = [()]
    for v in VALUES:
        if v > top or not counts[v]:
            continue
        found = [part + (v,) * k for part in found for k in range(counts[v] + 1)
                 if size is None or len(part) + k <= size]
    return tuple(p for p in found if p and (size is None or len(p) == size))


@cache
def _splits(total: int, n: int) -> tuple[Values, ...]:
    """Every multiset of ``n`` values 1-6 adding up to ``total``, smallest first."""
    return tuple(combo for combo in itertools.combinations_with_replacement(VALUES, n)
                 if sum(combo) == total)


class Ability:
    """Base of the ability kinds; see the module docstring."""

    kind: ClassVar[str]
    deterministic: ClassVar[bool] = False
    """True when a use involves no luck (the reach solver may plan with it)."""
    usable: ClassVar[bool] = True
    """False for abilities that are never 'used' during a turn (start dice, the crown)."""

    # What the reach solver's optimistic bound needs (see rules.ukuk.reach):
    @property
    def touches(self) -> int | None:
        """How many dice one use changes (None: any number)."""
        return 0

    @property
    def steps(self) -> frozenset[int] | None:
        """What one use can add to a die it changes (None: any value)."""
        return None

    @property
    def start_dice(self) -> int:
        """Dice in hand at the start of every turn that this card adds."""
        return 0

    def complete(self, before: Values, after: Values | None) -> tuple[Values, Values]:
        """The use with ``after`` filled in where the rule decides it; else as given."""
        if after is None:
            raise RuleError("use_say_after", "say what the dice show afterwards, e.g. "
                            "'use hofnarr 3 -> 5'")
        return before, after

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def moves(self, active: Counts, aside: Counts) -> Iterator[tuple[Values, Values]]:
        """Every different legal use on these dice (deterministic kinds only)."""
        return iter(())

    def describe(self, lang: str = "en") -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError


def _dice_word(n: int | None, lang: str) -> str:
    if n is None:
        return "beliebig viele aktive Würfel" if lang == "de" else "any number of active dice"
    if lang == "de":
        return "einen aktiven Würfel" if n == 1 else f"{n} aktive Würfel"
    return "one active die" if n == 1 else f"{n} active dice"


def _either(words: Sequence[str], lang: str) -> str:
    """'1, 2 or 3' (or 'oder')."""
    last = " oder " if lang == "de" else " or "
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + last + words[-1]


def _count_of(value: Any, what: str) -> int | None:
    if value == "any":
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise AbilityError(f"{what} must be 1-6 or \"any\", not {value!r}")
    return value


def _no_change(name: str, before: Values, after: Values) -> None:
    if sorted(before) == sorted(after):
        raise RuleError("use_changes_nothing", "that use of the {card} changes nothing",
                        card=name)


@dataclass(frozen=True, slots=True)
class StartDice(Ability):
    """``count`` more dice in hand at the start of every turn; compulsory."""

    count: int
    kind: ClassVar[str] = "start_dice"
    usable: ClassVar[bool] = False

    @property
    def start_dice(self) -> int:
        return self.count

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        dice = "die" if self.count == 1 else "dice"
        raise RuleError("start_dice_not_used", "the {card} is not used during a turn: it "
                        "gives {count} more " + dice + " at the start of every turn",
                        card=name, count=self.count)

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return f"zu Beginn des Zuges {self.count} Würfel mehr"
        return f"{self.count} more {'die' if self.count == 1 else 'dice'} at the start of a turn"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> StartDice:
        count = _count_of(d.get("count"), "start_dice: count")
        if count is None:
            raise AbilityError("start_dice: count must be a number")
        return cls(count)


@dataclass(frozen=True, slots=True)
class Reroll(Ability):
    """Throw ``dice`` active dice again (None: any number); the new values are luck."""

    dice: int | None
    kind: ClassVar[str] = "reroll"

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        if not before:
            raise RuleError("reroll_which", "say which active dice the {card} throws again",
                            card=name)
        if self.dice == 1 and len(before) != 1:
            raise RuleError("reroll_one", "the {card} throws one active die again, not {count}",
                            card=name, count=len(before))
        if self.dice is not None and len(before) != self.dice:
            raise RuleError("reroll_count", "the {card} throws {n} active dice again, not "
                            "{count}", card=name, n=self.dice, count=len(before))
        if len(after) != len(before):
            raise RuleError("reroll_values", "{n} dice thrown again need {n} new values, not "
                            "{count}", n=len(before), count=len(after))
        take(before, active)

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return f"{_dice_word(self.dice, lang)} noch mal werfen"
        return f"throw {_dice_word(self.dice, lang)} again"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dice": "any" if self.dice is None else self.dice}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Reroll:
        return cls(_count_of(d.get("dice"), "reroll: dice"))


@dataclass(frozen=True, slots=True)
class Raise(Ability):
    """Add one of ``by`` to one active die (``dice = 1``), or add ``by`` to any number of
    active dice (``dice = None``, one value in ``by``); no die above 6."""

    by: tuple[int, ...]
    dice: int | None
    kind: ClassVar[str] = "raise"
    deterministic: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if not self.by or any(not isinstance(b, int) or not 1 <= b <= 5 for b in self.by):
            raise AbilityError(f"raise: by must be numbers 1-5, not {list(self.by)}")
        if self.dice is None and len(self.by) != 1:
            raise AbilityError("raise: any number of dice are raised by one amount")
        if self.dice not in (None, 1):
            raise AbilityError("raise: dice must be 1 or \"any\"")

    @property
    def touches(self) -> int | None:
        return self.dice

    @property
    def steps(self) -> frozenset[int] | None:
        return frozenset(self.by)

    def complete(self, before: Values, after: Values | None) -> tuple[Values, Values]:
        if after is None and len(self.by) == 1:
            return before, tuple(v + self.by[0] for v in before)
        return Ability.complete(self, before, after)

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        if not before:
            raise RuleError("raise_which", "say which active dice the {card} raises",
                            card=name)
        if self.dice is not None and len(before) != self.dice:  # dice is 1 or any
            raise RuleError("raise_one", "the {card} raises one active die, not {count}",
                            card=name, count=len(before))
        if len(after) != len(before):
            raise RuleError("raise_values", "{n} dice raised give {n} values, not {count}",
                            n=len(before), count=len(after))
        take(before, active)
        if len(self.by) == 1:
            b = self.by[0]
            for v in before:
                if v + b > 6:
                    raise RuleError("raise_over_six", "the {card} cannot raise a {value}: "
                                    "{value} + {by} is more than 6", card=name, value=v, by=b)
            if sorted(after) != sorted(v + b for v in before):
                raise RuleError("raise_exactly", "the {card} adds exactly {by} to each die: "
                                "{before} -> {after}", card=name, by=b,
                                before=dice_text(before),
                                after=dice_text([v + b for v in before]))
            return
        (v,), (w,) = before, after
        if w > 6:
            raise RuleError("raise_to_over_six", "the {card} cannot raise a {value} to {to}: "
                            "no die goes above 6", card=name, value=v, to=w)
        if w - v not in self.by:
            if v + min(self.by) > 6:
                raise RuleError("raise_no_room", "the {card} cannot raise a {value}: that "
                                "would be more than 6", card=name, value=v)
            raise RuleError("raise_by", "the {card} adds {by} to a die, so {value} cannot "
                            "become {to}", card=name, value=v, to=w,
                            by=_either([str(b) for b in self.by], "en"),
                            by_de=_either([str(b) for b in self.by], "de"))

    def moves(self, active: Counts, aside: Counts) -> Iterator[tuple[Values, Values]]:
        if self.dice is None:
            b = self.by[0]
            for before in _sub_multisets(active, top=6 - b):
                yield before, tuple(v + b for v in before)
            return
        for v in VALUES:
            if active[v]:
                for b in self.by:
                    if v + b <= 6:
                        yield (v,), (v + b,)

    def describe(self, lang: str = "en") -> str:
        by = _either([str(b) for b in self.by], lang)
        if lang == "de":
            return f"{_dice_word(self.dice, lang)} um {by} erhöhen (höchstens 6)"
        return f"add {by} to {_dice_word(self.dice, lang)} (6 at most)"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "by": list(self.by),
                "dice": "any" if self.dice is None else self.dice}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Raise:
        by = d.get("by")
        if not isinstance(by, list):
            raise AbilityError(f"raise: by must be a list of numbers, not {by!r}")
        return cls(tuple(by), _count_of(d.get("dice"), "raise: dice"))


@dataclass(frozen=True, slots=True)
class Share(Ability):
    """Move pips between exactly ``dice`` active dice; their sum stays, each stays 1-6."""

    dice: int
    kind: ClassVar[str] = "share"
    deterministic: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.dice not in (2, 3, 4, 5, 6):
            raise AbilityError(f"share: dice must be 2-6, not {self.dice!r}")

    @property
    def touches(self) -> int | None:
        return self.dice

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        if len(before) != self.dice or len(after) != self.dice:
            raise RuleError("share_count", "the {card} moves pips between exactly {n} active "
                            "dice", card=name, n=self.dice)
        take(before, active)
        if sum(after) != sum(before):
            raise RuleError("share_sum", "the {card} keeps the sum: {before} adds up to "
                            "{sum_before}, {after} to {sum_after}", card=name,
                            before=dice_text(before), sum_before=sum(before),
                            after=dice_text(after), sum_after=sum(after))
        _no_change(name, before, after)

    def moves(self, active: Counts, aside: Counts) -> Iterator[tuple[Values, Values]]:
        for before in _sub_multisets(active, size=self.dice):
            for after in _splits(sum(before), self.dice):
                if after != before:
                    yield before, after

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return f"Augen zwischen {self.dice} aktiven Würfeln verschieben (Summe bleibt)"
        return f"move pips between {self.dice} active dice (same sum)"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "dice": self.dice}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Share:
        dice = d.get("dice")
        if not isinstance(dice, int):
            raise AbilityError(f"share: dice must be a number, not {dice!r}")
        return cls(dice)


@dataclass(frozen=True, slots=True)
class CopyAside(Ability):
    """Turn one active die to the number of a die already set aside."""

    kind: ClassVar[str] = "copy_aside"
    deterministic: ClassVar[bool] = True

    @property
    def touches(self) -> int | None:
        return 1

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        if len(before) != 1 or len(after) != 1:
            raise RuleError("turn_one", "the {card} turns exactly one active die", card=name)
        take(before, active)
        if after[0] not in aside:
            if not aside:
                raise RuleError("copy_none_aside", "the {card} copies a set-aside die, and "
                                "none is set aside yet", card=name)
            raise RuleError("copy_aside_value", "the {card} turns a die to the number of a "
                            "set-aside die ({aside}), not {to}", card=name,
                            aside=dice_text(sorted(set(aside))), to=after[0])
        _no_change(name, before, after)

    def moves(self, active: Counts, aside: Counts) -> Iterator[tuple[Values, Values]]:
        for v in VALUES:
            if active[v]:
                for w in VALUES:
                    if aside[w] and w != v:
                        yield (v,), (w,)

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            return "einen aktiven Würfel auf die Zahl eines herausgelegten drehen"
        return "turn one active die to the number of a set-aside die"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CopyAside:
        return cls()


@dataclass(frozen=True, slots=True)
class Turn(Ability):
    """Turn one active die to any number."""

    kind: ClassVar[str] = "turn"
    deterministic: ClassVar[bool] = True

    @property
    def touches(self) -> int | None:
        return 1

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        if len(before) != 1 or len(after) != 1:
            raise RuleError("turn_one", "the {card} turns exactly one active die", card=name)
        take(before, active)
        _no_change(name, before, after)

    def moves(self, active: Counts, aside: Counts) -> Iterator[tuple[Values, Values]]:
        for v in VALUES:
            if active[v]:
                for w in VALUES:
                    if w != v:
                        yield (v,), (w,)

    def describe(self, lang: str = "en") -> str:
        return ("einen aktiven Würfel auf eine beliebige Zahl drehen" if lang == "de"
                else "turn one active die to any number")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Turn:
        return cls()


@dataclass(frozen=True, slots=True)
class Add(Ability):
    """Bring one more active die into play showing ``value`` (None: any number)."""

    value: int | None
    kind: ClassVar[str] = "add"
    deterministic: ClassVar[bool] = True

    def complete(self, before: Values, after: Values | None) -> tuple[Values, Values]:
        if after is None:
            if self.value is not None and not before:
                return (), (self.value,)
            return (), before  # 'use koenigin 6': the number it shows
        return before, after

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        if before:
            raise RuleError("add_takes_none", "the {card} brings in a new die; it takes no die",
                            card=name)
        if len(after) != 1:
            raise RuleError("add_one", "the {card} brings in exactly one die", card=name)
        if self.value is not None and after[0] != self.value:
            raise RuleError("add_value", "the {card}'s die shows {value}, not {to}", card=name,
                            value=self.value, to=after[0])

    def moves(self, active: Counts, aside: Counts) -> Iterator[tuple[Values, Values]]:
        for w in (VALUES if self.value is None else (self.value,)):
            yield (), (w,)

    def describe(self, lang: str = "en") -> str:
        if lang == "de":
            shows = "beliebiger Zahl" if self.value is None else f"einer {self.value}"
            return f"einen Würfel mehr mit {shows} ins Spiel bringen"
        shows = "any number" if self.value is None else f"a {self.value}"
        return f"bring in one more die showing {shows}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": "any" if self.value is None else self.value}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Add:
        return cls(_count_of(d.get("value"), "add: value"))


@dataclass(frozen=True, slots=True)
class Crown(Ability):
    """No ability: the first to buy this card ends the game (the König)."""

    kind: ClassVar[str] = "crown"
    usable: ClassVar[bool] = False

    def check(self, name: str, before: Values, after: Values, active: Sequence[int],
              aside: Sequence[int]) -> None:
        raise RuleError("crown_no_use", "the {card} has no ability to use", card=name)

    def describe(self, lang: str = "en") -> str:
        return ("beendet das Spiel: Finalrunde" if lang == "de"
                else "ends the game: the final round follows")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Crown:
        return cls()


ABILITY_KINDS: dict[str, Any] = {
    k.kind: k for k in (StartDice, Reroll, Raise, Share, CopyAside, Turn, Add, Crown)
}


def ability_from_dict(d: Mapping[str, Any]) -> Ability:
    """Read one ability from its data form, e.g. ``{"kind": "add", "value": 3}``."""
    kind = d.get("kind")
    if kind not in ABILITY_KINDS:
        raise AbilityError(f"unknown ability kind {kind!r} (known: {', '.join(ABILITY_KINDS)})")
    ability: Ability = ABILITY_KINDS[kind].from_dict(d)
    return ability


def after_use(active: Sequence[int], before: Values, after: Values) -> tuple[int, ...]:
    """The active dice after a use: changed dice keep their places, new ones come last."""
    out = list(active)
    pending = list(after)
    for v in before:
        i = out.index(v)
        out[i] = pending.pop(0) if pending else -1
    out = [v for v in out if v != -1] + pending
    return tuple(out)

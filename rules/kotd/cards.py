"""The cards of the box, read from one data file.

``load_box()`` reads ``rules/kotd/data/king-of-the-dice.toml`` (or a file you name) into a
:class:`Box`: the citizen, village and penalty cards with their ids, points, village
colours, effects and requirements. Nothing else in the product knows a card by heart.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rules.dice import HABA_LOOK, Color, DiceLook
from rules.errors import DataError, UnknownCardError
from rules.inputs import packaged_data_file, read_data_file
from rules.kotd.requirements import Requirement, RequirementError, Verdict, from_dict

CITIZEN_KINDS = (
    "dwarf", "orc", "elf", "snob", "gnome", "goblin", "fairy", "apprentice", "hypnotist", "dragon",
)
VILLAGE_COLORS = ("yellow", "brown", "blue", "green", "purple")
EFFECTS = ("four_rolls", "extra_turn", "bonus_card", "give_away", "fairy_points")
LANGUAGES = ("en", "de")


class CardDataError(DataError):
    """The card data file is broken; the message names the file and the card."""

    family = "cards"


def _bad(message: str) -> CardDataError:
    """A broken card data file (for the people who edit it: English only)."""
    return CardDataError("broken", "{message}", message=message)


ARTICLES = ("The ", "Der ", "Die ", "Das ")
"""The articles some names are printed with ("The hypnotist", "Der Hypnotiseur")."""


def bare_name(card: Card, lang: str = "en") -> str:
    """The card's name in ``lang`` without the article printed on it, for sentences that
    bring their own ("takes the hypnotist", "die Karte Hypnotiseur")."""
    name = card.name.get(lang) or card.name["en"]
    for article in ARTICLES:
        if name.startswith(article):
            return name[len(article):]
    return name


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the box.

    ``kind`` is one of the citizen kinds, ``"village"`` or ``"penalty"``. ``points`` is
    negative for penalties and dragons and ``None`` for fairies (they score n² together).
    ``village`` is the colour of the village a citizen founds (or a village card's own
    colour); ``slot`` is the 1-based slot a village stack stands above.
    """

    id: str
    kind: str
    points: int | None
    name: Mapping[str, str]
    village: str | None = None
    effect: str | None = None
    requirement: Requirement | None = None
    slot: int | None = None

    @property
    def is_citizen(self) -> bool:
        return self.kind in CITIZEN_KINDS

    def check(self, roll: Any) -> Verdict:
        """Judge a roll against this citizen's requirement."""
        if self.requirement is None:
            raise UnknownCardError("no_requirement", "{id} is not a citizen card and has no "
                                   "requirement", id=self.id)
        return self.requirement.evaluate(roll)

    def describe(self, lang: str = "en") -> str:
        """A short human label: the kind's name and the requirement, e.g. "Grumpy dwarf: 3 × 1"."""
        name = self.name.get(lang) or self.name["en"]
        if self.requirement is not None:
            return f"{name}: {self.requirement.describe(lang)}"
        return f"{name} {self.points}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "points": self.points,
            "village": self.village,
            "effect": self.effect,
            "name": dict(self.name),
            "requirement": self.requirement.to_dict() if self.requirement else None,
        }
        if self.slot is not None:
            d["slot"] = self.slot
        if self.requirement is not None:
            d["text"] = {lang: self.requirement.describe(lang) for lang in LANGUAGES}
        return d


@dataclass(frozen=True)
class Box:
    """Every card of one box, by id, in the order of the data file."""

    name: Mapping[str, str]
    dice: int
    rolls: int
    row_size: int
    citizens: tuple[Card, ...]
    villages: tuple[Card, ...]
    penalties: tuple[Card, ...]
    paint: Mapping[str, str] = field(default_factory=dict)
    """Each face colour's look under white light (``#rrggbb``): the ``[dice]`` table's, else
    HABA's (:data:`rules.dice.HABA_LOOK`)."""
    pips: str | None = None
    """The pips' colour (``#rrggbb``), as ``paint``."""
    _by_id: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self})

    @property
    def look(self) -> DiceLook:
        """What the box's dice look like to the camera (handed to the dice reader)."""
        return DiceLook({Color(k): v for k, v in self.paint.items()} or HABA_LOOK.paint,
                        self.pips or HABA_LOOK.pips)

    def __iter__(self) -> Iterator[Card]:
        yield from self.citizens
        yield from self.villages
        yield from self.penalties

    def __len__(self) -> int:
        return len(self.citizens) + len(self.villages) + len(self.penalties)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def card(self, card_id: str) -> Card:
        """The card with this id; an unknown id is an :class:`UnknownCardError` naming
        close matches."""
        try:
            return self._by_id[card_id]
        except KeyError:
            raise unknown_card(card_id, self._by_id) from None

    def citizen(self, card_id: str) -> Card:
        card = self.card(card_id)
        if not card.is_citizen:
            raise UnknownCardError("not_citizen", "{id!r} is a {kind} card, not a citizen",
                                   id=card_id, kind=card.kind)
        return card

    def village_stack(self, color: str) -> tuple[Card, ...]:
        """The village cards of one colour, top (2) first."""
        return tuple(sorted((v for v in self.villages if v.village == color),
                            key=lambda v: v.points or 0))

    @property
    def village_colors_by_slot(self) -> tuple[str, ...]:
        """The village colour above each citizen slot, left to right."""
        slots = {v.slot: v.village for v in self.villages
                 if v.slot is not None and v.village is not None}
        return tuple(slots[s] for s in sorted(slots))


def unknown_card(card_id: str, known: Mapping[str, Any] | list[str]) -> UnknownCardError:
    """The error for an unknown card id, with up to three close matches."""
    import difflib

    close = difflib.get_close_matches(card_id, list(known), n=3)
    if close:
        return UnknownCardError("unknown_close", "unknown card id {id!r}; did you mean "
                                "{close}?", id=card_id, close=" or ".join(close))
    return UnknownCardError("unknown", "unknown card id {id!r}", id=card_id)


DEFAULT_BOX_FILE = "king-of-the-dice.toml"


def _require(row: Mapping[str, Any], key: str, types: type | tuple[type, ...], where: str) -> Any:
    if key not in row:
        raise _bad(f"{where}: missing '{key}'")
    value = row[key]
    if not isinstance(value, types) or isinstance(value, bool):
        raise _bad(f"{where}: '{key}' has the wrong type ({value!r})")
    return value


def _name(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or "en" not in value:
        raise _bad(f"{where}: 'name' must be a table with at least 'en'")
    return {str(k): str(v) for k, v in value.items()}


def parse_box(data: Mapping[str, Any], source: str = "<data>") -> Box:
    """Build a :class:`Box` from the parsed TOML; errors name ``source`` and the card."""
    kinds = data.get("kinds", {})
    game = data.get("game", {})
    seen: set[str] = set()

    def card_id(row: Mapping[str, Any], where: str) -> str:
        cid: str = _require(row, "id", str, where)
        if cid in seen:
            raise _bad(f"{where}: duplicate card id {cid!r}")
        seen.add(cid)
        return cid

    citizens = []
    for n, row in enumerate(data.get("citizen", []), start=1):
        where = f"{source}: citizen {n}"
        cid = card_id(row, where)
        where = f"{source}: citizen {n} ({cid})"
        kind = _require(row, "kind", str, where)
        if kind not in CITIZEN_KINDS:
            raise _bad(f"{where}: unknown kind {kind!r}")
        kind_row = kinds.get(kind, {})
        village = row.get("village", kind_row.get("village"))
        if village is not None and village not in VILLAGE_COLORS:
            raise _bad(f"{where}: unknown village colour {village!r}")
        effect = row.get("effect", kind_row.get("effect"))
        if effect is not None and effect not in EFFECTS:
            raise _bad(f"{where}: unknown effect {effect!r}")
        points = row.get("points")
        if points is None and effect != "fairy_points":
            raise _bad(f"{where}: missing 'points'")
        if points is not None and (not isinstance(points, int) or isinstance(points, bool)):
            raise _bad(f"{where}: 'points' must be a whole number")
        try:
            requirement = from_dict(_require(row, "requirement", Mapping, where))
        except RequirementError as err:
            raise _bad(f"{where}: requirement: {err}") from None
        name = _name(row.get("name", kind_row.get("name")), where)
        citizens.append(Card(cid, kind, points, name, village, effect, requirement))

    villages = []
    for n, row in enumerate(data.get("village", []), start=1):
        where = f"{source}: village {n}"
        cid = card_id(row, where)
        color = _require(row, "village", str, where)
        if color not in VILLAGE_COLORS:
            raise _bad(f"{where}: unknown village colour {color!r}")
        villages.append(Card(cid, "village", _require(row, "points", int, where),
                             _name(row.get("name"), where), color,
                             slot=_require(row, "slot", int, where)))

    penalties = []
    for n, row in enumerate(data.get("penalty", []), start=1):
        where = f"{source}: penalty {n}"
        cid = card_id(row, where)
        points = _require(row, "points", int, where)
        if points >= 0:
            raise _bad(f"{where}: a penalty's points must be negative")
        penalties.append(Card(cid, "penalty", points,
                              _name(row.get("name", kinds.get("penalty", {}).get("name")), where)))

    if not citizens:
        raise _bad(f"{source}: no citizen cards")
    row_size = game.get("row", 5)
    slots = sorted({v.slot for v in villages if v.slot is not None})
    if villages and slots != list(range(1, row_size + 1)):
        raise _bad(f"{source}: village slots must be 1-{row_size}, got {slots}")
    paint, pips = _dice_look(data.get("dice", {}), source)
    return Box(
        name=_name(game.get("name", {"en": source}), f"{source}: game"),
        dice=game.get("dice", 6),
        rolls=game.get("rolls", 3),
        row_size=row_size,
        citizens=tuple(citizens),
        villages=tuple(villages),
        penalties=tuple(penalties),
        paint=paint,
        pips=pips,
    )


def _hex(value: Any, where: str) -> str:
    if not (isinstance(value, str) and len(value) == 7 and value[0] == "#"
            and all(c in "0123456789abcdefABCDEF" for c in value[1:])):
        raise _bad(f"{where}: a colour is written #rrggbb, not {value!r}")
    return value.lower()


def _dice_look(dice: Any, source: str) -> tuple[dict[str, str], str]:
    """The ``[dice]`` table: the paint of each face colour the cards name, and the pips
    (HABA's where the table says nothing)."""
    if not isinstance(dice, Mapping):
        raise _bad(f"{source}: [dice] must be a table")
    paint = dice.get("paint", {})
    if not isinstance(paint, Mapping):
        raise _bad(f"{source}: [dice] paint must be a table of colours")
    names = {c.value for c in Color}
    if paint and set(paint) != names:
        raise _bad(f"{source}: [dice] paint names {sorted(paint)}; the cards use "
                   f"{sorted(names)}")
    pips = dice.get("pips")
    paint = paint or {c.value: v for c, v in HABA_LOOK.paint.items()}
    return ({str(k): _hex(v, f"{source}: [dice] paint.{k}") for k, v in paint.items()},
            HABA_LOOK.pips if pips is None else _hex(pips, f"{source}: [dice] pips"))


def load_box(path: str | Path | None = None) -> Box:
    """Read a box's cards from a TOML file (default: the King of the Dice box)."""
    if path is None:
        return _default_box()
    return parse_box(read_data_file(path, "the card data", _bad), str(path))


@cache
def _default_box() -> Box:
    return parse_box(packaged_data_file("rules.kotd", DEFAULT_BOX_FILE, _bad), DEFAULT_BOX_FILE)

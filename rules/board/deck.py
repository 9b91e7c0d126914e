"""The citizen cards of the board game, read from one data file.

``load_deck()`` reads ``rules/board/data/board.toml`` (or a file you name) into a
:class:`Deck`: the five decks (names, effects) and every card known, each with its deck,
its concrete joker and its condition (:mod:`rules.board.conditions`). Cards a family
entered at the table come in as more rows of the same form (:meth:`Deck.with_cards`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rules.board.conditions import Condition, ConditionError, die, from_json
from rules.dice import Die
from rules.errors import DataError, KotdError, UnknownCardError
from rules.inputs import read_text

DECKS = (1, 2, 3, 4, 5)
THIEF_EFFECTS = ("steal_card", "steal_gem")
"""Deck 2's two kinds of card (the rulebook's 2a and 2b)."""
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


class DeckDataError(DataError):
    """The deck file is broken; the message names the file and the card."""

    family = "deck"


@dataclass(frozen=True, slots=True)
class BoardCard:
    """One citizen card: its deck (1-5), its concrete joker, its condition, and for the
    thief (deck 2) which theft it allows."""

    id: str
    deck: int
    joker: Die
    condition: Condition
    effect: str | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BoardCard:
        """A card from its data (a deck-file row or a request); KotdError names the fault."""
        if not isinstance(data, Mapping):
            raise DeckDataError("card_table", "a card is a table with id, deck, joker and "
                                "condition")
        extra = set(data) - {"id", "deck", "joker", "condition", "effect"}
        if extra:
            raise DeckDataError("card_field", "a card has no field(s) {fields}",
                                fields=", ".join(sorted(extra)))
        cid = str(data.get("id", ""))
        if not _ID.match(cid):
            raise DeckDataError("card_id", "card id {id!r}: lowercase letters, digits and "
                                "dashes, at most 40", id=cid)
        deck = data.get("deck")
        if deck not in DECKS or isinstance(deck, bool):
            raise DeckDataError("card_deck", "card {id}: deck must be 1-5, not {deck!r}",
                                id=cid, deck=deck)
        effect = data.get("effect")
        if (deck == 2) != (effect is not None) or (effect and effect not in THIEF_EFFECTS):
            raise DeckDataError("card_effect", "card {id}: a thief (deck 2) has effect "
                                "steal_card or steal_gem; other decks have none", id=cid)
        if "condition" not in data or "joker" not in data:
            raise DeckDataError("card_fields", "card {id} needs a joker and a condition",
                                id=cid)
        try:
            condition = from_json(data["condition"])
            joker = die(data["joker"])
        except ConditionError as err:
            raise err.within("card {id}: ", id=cid) from None
        if condition.tiers > 1 and deck != 1:
            raise DeckDataError("card_stars", "card {id}: only the merchant (deck 1) has "
                                "stars", id=cid)
        return cls(cid, deck, joker, condition, effect)

    def to_data(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "deck": self.deck, "joker": str(self.joker),
                             "condition": self.condition.words()}
        if self.effect:
            d["effect"] = self.effect
        return d


@dataclass(frozen=True)
class Deck:
    """The decks' names and effects and every card known, by id."""

    name: Mapping[str, str]
    decks: Mapping[int, Mapping[str, Any]]
    cards: tuple[BoardCard, ...]
    rules: Mapping[str, Any] = field(default_factory=dict)
    _by_id: dict[str, BoardCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[str, BoardCard] = {}
        for c in self.cards:
            if c.id in by_id:
                raise DeckDataError("card_twice", "card id {id!r} is used twice", id=c.id)
            by_id[c.id] = c
        object.__setattr__(self, "_by_id", by_id)

    def __iter__(self) -> Iterator[BoardCard]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, cid: object) -> bool:
        return cid in self._by_id

    def card(self, cid: str) -> BoardCard:
        try:
            return self._by_id[cid]
        except KeyError:
            raise UnknownCardError("unknown_board_card", "no card {id!r} (known: {known})",
                                   id=cid, known=", ".join(self._by_id) or "none") from None

    def deck_name(self, deck: int, lang: str = "en", short: bool = False) -> str:
        names = self.decks[deck]["short" if short else "name"]
        return str(names.get(lang) or names["en"])

    def effect(self, card: BoardCard) -> str:
        """The card's effect: its deck's, or for a thief which theft."""
        return card.effect or str(self.decks[card.deck]["effect"])

    def with_cards(self, rows: list[Mapping[str, Any]]) -> Deck:
        """This deck with more cards (entered at the table); a card with a known id
        replaces the old one."""
        new = [BoardCard.from_data(r) for r in rows]
        ids = {c.id for c in new}
        return replace(self, cards=tuple(c for c in self.cards if c.id not in ids) + tuple(new))


def _decks(raw: Any) -> dict[int, Mapping[str, Any]]:
    if not isinstance(raw, Mapping) or sorted(raw) != [str(d) for d in DECKS]:
        raise DeckDataError("decks", "the deck file needs [decks.1] to [decks.5]")
    out = {}
    for key, d in raw.items():
        if not isinstance(d, Mapping) or not {"name", "short", "effect"} <= set(d):
            raise DeckDataError("deck_fields", "[decks.{n}] needs name, short and effect",
                                n=key)
        out[int(key)] = d
    return out


def parse_deck(text: str, source: str = "the deck file") -> Deck:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise DeckDataError("toml", "{source}: {why}", source=source, why=str(err)) from None
    try:
        game = raw.get("game", {})
        cards = tuple(BoardCard.from_data(c) for c in raw.get("card", []))
        return Deck(game.get("name", {"en": "King of the Dice: The Board Game"}),
                    _decks(raw.get("decks")), cards, game)
    except KotdError as err:
        raise DeckDataError(err.code, "{source}: " + err.template, source=source,
                            **err.params) from None


@cache
def _builtin() -> Deck:
    ref = resources.files("rules.board") / "data" / "board.toml"
    return parse_deck(ref.read_text(encoding="utf-8"), "board.toml")


def load_deck(path: str | Path | None = None) -> Deck:
    """The built-in deck file, or the one at ``path``."""
    if path is None:
        return _builtin()
    try:
        text = read_text(path, what="the deck file")
    except OSError as err:
        raise DeckDataError("unreadable", "{path}: {why}", path=str(path),
                            why=err.strerror or str(err)) from None
    return parse_deck(text, str(path))


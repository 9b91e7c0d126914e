"""The royal court, read from one data file.

``load_court()`` reads ``rules/ukuk/data/um-krone-und-kragen.toml`` (or a file you name) into a
:class:`Court`: the twenty court cards in rows 0-V with their ids, names, costs and
abilities, and how many copies of each row's cards are in play for 2-5 players. Nothing
else in the product knows a court card by heart.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from rules.errors import DataError, UnknownCardError
from rules.inputs import packaged_data_file, read_data_file
from rules.ukuk.abilities import Ability, AbilityError, ability_from_dict
from rules.ukuk.costs import ComesWith, Cost, CostError, cost_from_dict

ROWS = ("0", "I", "II", "III", "IV", "V")
DEFAULT_COURT_FILE = "um-krone-und-kragen.toml"


class CourtDataError(DataError):
    """The court data file is broken; the message names the file and the card."""


@dataclass(frozen=True, slots=True)
class CourtCard:
    """One person at court: what they cost and what they can do for their owner.

    ``needs``: a card the buyer must already own (the Scharlatan needs a Hofnarr), which
    the new card ``replaces`` (the Hofnarr goes back to the court).
    """

    id: str
    row: str
    name: Mapping[str, str]
    cost: Cost
    ability: Ability
    needs: str | None = None
    replaces: str | None = None

    def label(self, lang: str = "en") -> str:
        return self.name.get(lang) or self.name["en"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "row": self.row, "name": dict(self.name),
            "cost": self.cost.to_dict(), "ability": self.ability.to_dict(),
            "needs": self.needs, "replaces": self.replaces,
        }


@dataclass(frozen=True)
class Court:
    """Every court card, in the order of the data file (row 0 first)."""

    name: Mapping[str, str]
    dice: int
    min_players: int
    max_players: int
    king: str
    queen: str
    cards: tuple[CourtCard, ...]
    copies_by_row: Mapping[str, tuple[int, ...]]
    _by_id: dict[str, CourtCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {c.id: c for c in self.cards})

    def __iter__(self) -> Iterator[CourtCard]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def card(self, card_id: str) -> CourtCard:
        """The card with this id; an unknown id is an UnknownCardError naming close ones."""
        try:
            return self._by_id[card_id]
        except KeyError:
            import difflib

            close = difflib.get_close_matches(card_id, list(self._by_id), n=3)
            hint = f"; did you mean {' or '.join(close)}?" if close else ""
            raise UnknownCardError("unknown_court_card", "unknown court card {card!r}{hint}",
                                   card=card_id, hint=hint) from None

    def copies(self, card_id: str, players: int) -> int:
        """How many copies of this card are in play with ``players`` players (the seed's
        table: row 0 has 2/3/4/5, row V one of each)."""
        row = self.copies_by_row[self.card(card_id).row]
        return row[players - self.min_players]

    def supply(self, players: int) -> dict[str, int]:
        """Every card id with its number of copies for this many players."""
        return {c.id: self.copies(c.id, players) for c in self.cards}

    def cost_label(self, card: CourtCard, lang: str = "en") -> str:
        """The cost in words; the Königin's names the card she comes with."""
        if isinstance(card.cost, ComesWith):
            other = self.card(card.cost.card).label(lang)
            return f"kommt mit dem {other}" if lang == "de" else f"comes with the {other}"
        text = card.cost.describe(lang)
        if card.needs:
            needed = self.card(card.needs).label(lang)
            text += f" + {needed}" if lang == "de" else f" + own a {needed}"
        return text


def _text_map(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or "en" not in value or "de" not in value:
        raise CourtDataError(f"{where}: 'name' must be a table with 'de' and 'en'")
    return {str(k): str(v) for k, v in value.items()}


def parse_court(data: Mapping[str, Any], source: str = "<data>") -> Court:
    """Build a :class:`Court` from the parsed TOML; errors name ``source`` and the card."""
    game = data.get("game", {})
    try:
        low, high = int(game.get("min_players", 2)), int(game.get("max_players", 5))
        dice = int(game.get("dice", 3))
    except (TypeError, ValueError):
        raise CourtDataError(f"{source}: game: players and dice must be numbers") from None
    copies: dict[str, tuple[int, ...]] = {}
    for row, counts in data.get("copies", {}).items():
        if row not in ROWS:
            raise CourtDataError(f"{source}: copies: unknown row {row!r} (rows: {ROWS})")
        if (not isinstance(counts, list) or len(counts) != high - low + 1
                or not all(isinstance(n, int) and n >= 1 for n in counts)):
            raise CourtDataError(f"{source}: copies: row {row} needs {high - low + 1} "
                                 f"counts of at least 1, one per number of players")
        copies[row] = tuple(counts)
    cards = []
    seen: set[str] = set()
    for n, row in enumerate(data.get("card", []), start=1):
        where = f"{source}: card {n}"
        cid = row.get("id")
        if not isinstance(cid, str) or not cid:
            raise CourtDataError(f"{where}: missing 'id'")
        where = f"{source}: card {n} ({cid})"
        if cid in seen:
            raise CourtDataError(f"{where}: duplicate card id")
        seen.add(cid)
        if row.get("row") not in copies:
            raise CourtDataError(f"{where}: row must be one with copies ({', '.join(copies)})")
        try:
            cost = cost_from_dict(row.get("cost") or {})
        except CostError as err:
            raise CourtDataError(f"{where}: cost: {err}") from None
        try:
            ability = ability_from_dict(row.get("ability") or {})
        except AbilityError as err:
            raise CourtDataError(f"{where}: ability: {err}") from None
        cards.append(CourtCard(cid, row["row"], _text_map(row.get("name"), where), cost,
                               ability, row.get("needs"), row.get("replaces")))
    if not cards:
        raise CourtDataError(f"{source}: no court cards")
    for c in cards:
        for ref in (c.needs, c.replaces,
                    c.cost.card if isinstance(c.cost, ComesWith) else None):
            if ref is not None and ref not in seen:
                raise CourtDataError(f"{source}: {c.id} names an unknown card {ref!r}")
    king, queen = game.get("king"), game.get("queen")
    if king not in seen or queen not in seen:
        raise CourtDataError(f"{source}: game: king and queen must be card ids")
    return Court(_text_map(game.get("name"), f"{source}: game"), dice, low, high, king,
                 queen, tuple(cards), copies)


def load_court(path: str | Path | None = None) -> Court:
    """Read the court from a TOML file (default: the Um Krone und Kragen court)."""
    if path is None:
        return _default_court()
    return parse_court(read_data_file(path, "the court data", CourtDataError), str(path))


@cache
def _default_court() -> Court:
    return parse_court(packaged_data_file("rules.ukuk", DEFAULT_COURT_FILE, CourtDataError),
                       DEFAULT_COURT_FILE)

"""Which cards a roll satisfies, for ``kotd check`` and the page: the verdict of each."""

from __future__ import annotations

from typing import Any

from rules.dice import Roll
from rules.errors import UnknownCardError, UsageError
from rules.kotd.cards import Box, Card


def parse_card_ids(box: Box, ids: str, flag: str = "--cards") -> list[Card]:
    """Citizen cards from a comma-separated id list; errors name the flag and position."""
    cards = []
    for position, cid in enumerate((s.strip() for s in ids.split(",")), start=1):
        if not cid:
            raise UsageError("empty_card", "{flag}: card {position} is empty", flag=flag,
                             position=position)
        try:
            cards.append(box.citizen(cid))
        except UnknownCardError as err:
            raise err.within("{flag}: card {position}: ", flag=flag, position=position) from None
    return cards


def check_roll(roll: Roll, cards: list[Card]) -> dict[str, Any]:
    """The verdict of every card for one roll, as the JSON the CLI and the page share."""
    results = []
    for card in cards:
        verdict = card.check(roll)
        results.append({"id": card.id, **verdict.to_dict()})
    return {
        "dice": str(roll),
        "satisfied": [r["id"] for r in results if r["satisfied"]],
        "cards": results,
    }

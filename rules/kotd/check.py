"""Which cards a roll satisfies, for ``kotd check`` and the page: the verdict of each."""

from __future__ import annotations

from typing import Any

from rules.dice import Roll
from rules.inputs import card_list
from rules.kotd.cards import Box, Card


def parse_card_ids(box: Box, ids: str, flag: str = "--cards") -> list[Card]:
    """Citizen cards from a comma-separated id list; errors name the flag and position."""
    return card_list(ids, box.citizen, flag)


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

"""Which court cards' dice costs a result meets, for ``kotd check --game ukuk``.

Only the dice cost counts here: whether the player owns the card already, whether a copy
is left, or whether the Scharlatan's Hofnarr is owned is the game's business.
"""

from __future__ import annotations

from typing import Any

from rules.dice import Roll
from rules.errors import RollSyntaxError
from rules.inputs import card_list
from rules.ukuk.costs import counts_of
from rules.ukuk.court import Court, CourtCard

MAX_DICE = 20
"""More dice than any player can have (three, four start dice, six brought in, the queen)."""


def parse_result(court: Court, text: str) -> tuple[int, ...]:
    """Ordinary dice from text (``"1 3 3 6 6"``); a colour or too many dice is refused."""
    roll = Roll.parse(text, None)
    for position, die in enumerate(roll, start=1):
        if die.color is not None:
            raise RollSyntaxError("colour", "die {position} '{die}': Um Krone und Kragen is "
                                  "played with ordinary dice; write the number only",
                                  position=position, die=str(die))
    if len(roll) > MAX_DICE:
        raise RollSyntaxError("count", "at most {most} dice, got {got}", most=MAX_DICE,
                              got=len(roll))
    return roll.values


def parse_card_ids(court: Court, ids: str, flag: str = "--cards") -> list[CourtCard]:
    """Court cards from a comma-separated id list; errors name the flag and position."""
    return card_list(ids, court.card, flag)


def check_result(court: Court, values: tuple[int, ...], cards: list[CourtCard]
                 ) -> dict[str, Any]:
    """The verdict of every card for one result, as the JSON the CLI prints."""
    counts = counts_of(values)
    results = [{"id": c.id, "satisfied": c.cost.met(counts), "cost": court.cost_label(c)}
               for c in cards]
    return {
        "dice": " ".join(map(str, values)),
        "sum": sum(values),
        "satisfied": [r["id"] for r in results if r["satisfied"]],
        "cards": results,
    }

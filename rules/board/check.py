"""Phase 2 of a turn: which face-up cards the roll meets, and what the jokers could do.

For every card of the labour market (the five decks' top cards) :func:`check_row` says
whether the roll meets it (the merchant: how many stars), with the dice that do it, and,
for a card the roll does not meet (or a merchant short of three stars), the fewest jokers
that would make it, in words ("discard the scoundrel and the land developer, both a red 6,
to add a red 6"). The turn **must** take a card when the roll itself meets one: jokers
never oblige (the rulebook's note to phase 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.board.conditions import Condition, die_words
from rules.board.jokers import Jokers, fewest
from rules.dice import Die

WORDS = {
    "en": {"pair": "discard the {a} and the {b}, both a {die}, to add a {die}",
           "mixed": "discard the {a} (a {die}) and a super joker to add a {die}",
           "free": "discard two super jokers to add a {die}",
           "super": "super joker", "then": "; then ", "none": "no jokers can make it",
           "met": "met"},
    "de": {"pair": "wirf {a} und {b} ab, beide eine {die}, und lege eine {die} dazu",
           "mixed": "wirf {a} (eine {die}) und einen Superjoker ab und lege eine {die} dazu",
           "free": "wirf zwei Superjoker ab und lege eine {die} dazu",
           "super": "Superjoker", "then": "; dann ", "none": "kein Joker hilft",
           "met": "erfüllt"},
}


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards a player owns, as jokers: face-up cards by name with their concrete
    joker, and how many face down (super jokers)."""

    concrete: tuple[tuple[str, Die], ...] = ()
    supers: int = 0

    @property
    def dice(self) -> tuple[Die, ...]:
        return tuple(d for _, d in self.concrete)


def joker_words(jokers: Jokers, hand: Hand, lang: str = "en") -> str:
    """What to discard for ``jokers``, naming the hand's cards ("discard the scoundrel and
    the land developer, both a red 6, to add a red 6")."""
    w = WORDS.get(lang, WORDS["en"])
    pool = list(hand.concrete)

    def name_of(d: Die) -> str:
        for i, (name, joker) in enumerate(pool):
            if joker == d:
                del pool[i]
                return name
        return die_words(d, lang)  # pragma: no cover - a plan only uses cards the hand has

    said = []
    for pair in jokers.pairs:
        shown = die_words(pair.die, lang)
        a, b = pair.cards
        if a is not None and b is not None:
            said.append(w["pair"].format(a=name_of(a), b=name_of(b), die=shown))
        elif a is not None:
            said.append(w["mixed"].format(a=name_of(a), die=shown))
        else:
            said.append(w["free"].format(die=shown))
    return w["then"].join(said)


def _jokers_json(jokers: Jokers | None, hand: Hand, lang: str) -> dict[str, Any] | None:
    if jokers is None:
        return None
    return {**jokers.to_json(), "words": joker_words(jokers, hand, lang)}


def check_card(condition: Condition, dice: Sequence[Die], hand: Hand,
               lang: str = "en") -> dict[str, Any]:
    """One card's verdict: met (stars), the dice that meet it, and the fewest jokers for
    it (for a merchant: for each star more)."""
    witness = condition.witness(dice)
    stars = condition.stars(dice)
    out: dict[str, Any] = {"satisfied": stars > 0, "witness": list(witness or ())}
    if condition.tiers > 1:
        out["stars"] = stars
        more = []
        for goal in range(max(stars, 1) + 1, condition.tiers + 1):
            found = fewest(condition, dice, hand.dice, hand.supers, goal)
            if found is None:
                break
            more.append({"stars": goal, **(_jokers_json(found, hand, lang) or {})})
        out["more_stars"] = more
    out["jokers"] = (None if stars else
                     _jokers_json(fewest(condition, dice, hand.dice, hand.supers), hand, lang))
    return out


def check_row(cards: Mapping[str, Condition], dice: Sequence[Die], hand: Hand,
              lang: str = "en") -> dict[str, Any]:
    """Every face-up card's verdict (id -> condition, in row order), and whether the turn
    must take one of the cards the roll meets."""
    results = [{"id": cid, **check_card(cond, dice, hand, lang)} for cid, cond in cards.items()]
    met = [r["id"] for r in results if r["satisfied"]]
    return {"dice": " ".join(map(str, dice)), "must_take": bool(met), "met": met,
            "cards": results}


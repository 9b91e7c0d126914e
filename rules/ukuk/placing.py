"""The final round: bids, who holds the King, and everyone's place.

A bid is the largest group of equal dice in a result: more dice beat fewer, then the
higher number, then the earlier throw. The first König's buying throw is the first bid;
in the final round every player throws once and the King's owner throws last. The owner
keeps the King by equalling the best bid (and his first bid, being the earliest, wins
any tie anyway), so a tie never goes against him.

Whoever holds the King at the end wins; the others are placed by their best bids.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.ukuk.costs import VALUES, counts_of


@dataclass(frozen=True, slots=True)
class FinalThrow:
    """One bid: ``player`` (seat index) threw ``count`` dice showing ``number``;
    ``order`` 0 is the King's buying throw, then the final round's throws in turn."""

    player: int
    count: int
    number: int
    order: int

    def text(self, lang: str = "en") -> str:
        return (f"{self.count} × {self.number}" if lang != "de"
                else f"{self.count} gleiche {self.number}er")


def best_group(values: Iterable[int]) -> tuple[int, int]:
    """The bid of a result: (how many equal dice, their number), more dice first."""
    c = counts_of(values)
    return max((c[v], v) for v in VALUES)


def _key(throw: FinalThrow, owner: int | None) -> tuple[int, int, int, int]:
    return (throw.count, throw.number, 1 if throw.player == owner else 0, -throw.order)


def leader(throws: Sequence[FinalThrow], owner: int | None) -> FinalThrow | None:
    """The bid that holds the King now (the owner wins every tie)."""
    return max(throws, key=lambda t: _key(t, owner), default=None)


@dataclass(frozen=True, slots=True)
class Place:
    """One player's place after the final round and the bid that placed them."""

    place: int
    player: int
    bid: FinalThrow | None
    king: bool


def places(throws: Sequence[FinalThrow], owner: int | None, players: int) -> list[Place]:
    """Everyone's place: the King's holder first, then by best bid (players without a
    bid last, in seating order)."""
    best: dict[int, FinalThrow] = {}
    for t in throws:
        if t.player not in best or _key(t, owner) > _key(best[t.player], owner):
            best[t.player] = t
    ranked = sorted(best.values(), key=lambda t: _key(t, owner), reverse=True)
    out = [Place(n, t.player, t, n == 1) for n, t in enumerate(ranked, start=1)]
    for p in range(players):
        if p not in best:
            out.append(Place(len(out) + 1, p, None, False))
    return out

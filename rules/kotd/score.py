"""Scoring: what each kingdom is worth, at any moment and at the end.

Citizens score their victory points; village cards their value (2, 3, 4); n fairies
score n points each (n² together); penalty cards and dragons subtract their points.
The highest total wins; on a tie, the player with the fewest minus points; still tied,
the victory is shared.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.kotd.cards import Box


@dataclass(frozen=True, slots=True)
class Score:
    """One kingdom's points, part by part."""

    player: str
    citizens: int
    villages: int
    fairies: int
    fairy_points: int
    penalties: int
    dragons: int

    @property
    def minus(self) -> int:
        """Minus points as a positive number (penalties and dragons)."""
        return -(self.penalties + self.dragons)

    @property
    def total(self) -> int:
        return self.citizens + self.villages + self.fairy_points + self.penalties + self.dragons

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player, "citizens": self.citizens, "villages": self.villages,
            "fairies": self.fairies, "fairy_points": self.fairy_points,
            "penalties": self.penalties, "dragons": self.dragons,
            "minus": self.minus, "total": self.total,
        }


def score_kingdom(player: str, pile: tuple[str, ...], box: Box) -> Score:
    citizens = villages = fairies = penalties = dragons = 0
    for cid in pile:
        card = box.card(cid)
        if card.effect == "fairy_points":
            fairies += 1
        elif card.kind == "village":
            villages += card.points or 0
        elif card.kind == "penalty":
            penalties += card.points or 0
        elif card.kind == "dragon":
            dragons += card.points or 0
        else:
            citizens += card.points or 0
    return Score(player, citizens, villages, fairies, fairies * fairies, penalties, dragons)


@dataclass(frozen=True, slots=True)
class Standing:
    """A place in the ranking; ``shared`` when tied on total and minus points."""

    place: int
    score: Score
    shared: bool
    tie_break: str | None

    def to_dict(self) -> dict[str, object]:
        return {"place": self.place, "shared": self.shared, "tie_break": self.tie_break,
                **self.score.to_dict()}


def ranking(scores: list[Score] | tuple[Score, ...]) -> list[Standing]:
    """Order by total (high first), then minus points (few first); equal on both share."""
    ordered = sorted(scores, key=lambda s: (-s.total, s.minus))
    standings = []
    for s in ordered:
        place = 1 + sum(1 for t in ordered if (-t.total, t.minus) < (-s.total, s.minus))
        rivals = [t for t in ordered if t.total == s.total and t is not s]
        shared = any(t.minus == s.minus for t in rivals)
        tie_break = None
        if rivals:
            tie_break = ("tied on points and minus points: shared" if shared
                         else f"tied on {s.total} points: fewer minus points decide")
        standings.append(Standing(place, s, shared, tie_break))
    return standings

"""The final scoring of the board game, and who wins.

Each player counts (the rulebook, *Pontozás*):

* 3 points for every castle in their largest connected area (of two equal areas, one);
* 1 point for every occupied field outside that area;
* 4 points to the player with the most dragon fires; every player tied for the most gets
  the 4 (nobody has a dragon fire: nobody gets them);
* 3 points for every gold gem and 2 for every white gem.

The most points wins; a tie goes to the tied player with the most dragon fires, and
players still tied share the win. (A player who has placed all 16 markers and must place
another wins at once: that is the turn's business, :mod:`rules.board.game`.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import UsageError

CASTLE_POINTS = 3
OUTSIDE_POINTS = 1
DRAGON_BONUS = 4
GOLD_POINTS = 3
WHITE_POINTS = 2
FIELDS = 30
"""Land fields on the map (two halves of 15): no count can be larger."""
GEMS = {"gold": 6, "white": 18}
DRAGON_FIRES = 15
_COUNTS = {"largest_area": FIELDS, "outside": FIELDS, "dragon_fires": DRAGON_FIRES,
           "gold": GEMS["gold"], "white": GEMS["white"]}


class ScoreError(UsageError):
    """A scoring sheet that cannot be counted (a missing or impossible number)."""

    family = "score"


@dataclass(frozen=True, slots=True)
class Sheet:
    """One player's line on the scoring sheet: what they entered."""

    name: str
    largest_area: int
    outside: int
    dragon_fires: int
    gold: int
    white: int

    @classmethod
    def from_json(cls, data: Any, position: int = 1) -> Sheet:
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str) \
                or not data["name"].strip():
            raise ScoreError("player", "player {n}: needs a name", n=position)
        extra = set(data) - {"name", *_COUNTS}
        if extra:
            raise ScoreError("field", "player {n}: unknown field(s) {fields}", n=position,
                             fields=", ".join(sorted(extra)))
        values = {}
        for key, most in _COUNTS.items():
            v = data.get(key, 0)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= most:
                raise ScoreError("count", "player {n} ({name}): {field} must be a whole "
                                 "number 0-{most}, not {value!r}", n=position,
                                 name=data["name"], field=key, most=most, value=v)
            values[key] = v
        if values["largest_area"] + values["outside"] > FIELDS:
            raise ScoreError("fields", "player {n} ({name}): more fields than the map has",
                             n=position, name=data["name"])
        return cls(data["name"].strip(), **values)


@dataclass(frozen=True, slots=True)
class Score:
    """One player's points, part by part, and their place (1 = won)."""

    sheet: Sheet
    castles: int
    outside: int
    dragon_bonus: int
    gold: int
    white: int
    place: int

    @property
    def total(self) -> int:
        return self.castles + self.outside + self.dragon_bonus + self.gold + self.white

    def to_json(self) -> dict[str, Any]:
        return {"name": self.sheet.name, "total": self.total, "castles": self.castles,
                "outside": self.outside, "dragon_bonus": self.dragon_bonus,
                "gold": self.gold, "white": self.white,
                "dragon_fires": self.sheet.dragon_fires, "place": self.place}


@dataclass(frozen=True, slots=True)
class Result:
    """Everyone's score (in the order entered) and the winners."""

    scores: tuple[Score, ...]
    winners: tuple[str, ...]
    tie: str | None
    """How a tie for the most points was settled: "dragon_fires", "shared" or None."""

    def to_json(self) -> dict[str, Any]:
        return {"players": [s.to_json() for s in self.scores], "winners": list(self.winners),
                "tie": self.tie}


def _rank_key(total: int, fires: int) -> tuple[int, int]:
    return total, fires


def score(sheets: Sequence[Sheet]) -> Result:
    """Count every player's points, place them and name the winners."""
    if not 2 <= len(sheets) <= 4:
        raise ScoreError("players", "the board game is for 2-4 players, not {n}",
                         n=len(sheets))
    names = [s.name for s in sheets]
    if len(set(names)) != len(names):
        raise ScoreError("names", "two players have the same name")
    most_fires = max(s.dragon_fires for s in sheets)
    parts = [(s, CASTLE_POINTS * s.largest_area, OUTSIDE_POINTS * s.outside,
              DRAGON_BONUS if most_fires and s.dragon_fires == most_fires else 0,
              GOLD_POINTS * s.gold, WHITE_POINTS * s.white) for s in sheets]
    totals = [sum(p[1:]) for p in parts]
    keys = [_rank_key(t, s.dragon_fires) for t, s in zip(totals, sheets, strict=True)]
    places = [1 + sum(other > key for other in keys) for key in keys]
    scores = tuple(Score(*p, place) for p, place in zip(parts, places, strict=True))
    top = max(totals)
    leaders = [s for s, t in zip(sheets, totals, strict=True) if t == top]
    winners = tuple(s.sheet.name for s in scores if s.place == 1)
    tie = None
    if len(leaders) > 1:
        tie = "shared" if len(winners) > 1 else "dragon_fires"
    return Result(scores, winners, tie)


def score_json(data: Any) -> Result:
    """``{"players": [{"name": …, "largest_area": …, …}, …]}`` counted."""
    if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
        raise ScoreError("request", 'the sheet is {{"players": [{{"name": ..., '
                         '"largest_area": ..., "outside": ..., "dragon_fires": ..., '
                         '"gold": ..., "white": ...}}, ...]}}')
    return score([Sheet.from_json(p, i) for i, p in enumerate(data["players"], start=1)])


WORDS = {
    "en": {"won": "{names} wins with {points} points.",
           "won_many": "{names} share the win with {points} points.",
           "dragon_fires": "{names} tied on {points} points; {winner} has the most dragon "
                           "fires ({fires}) and wins.",
           "shared": "{names} tied on {points} points and dragon fires: they share the win.",
           "and": "and"},
    "de": {"won": "{names} gewinnt mit {points} Punkten.",
           "won_many": "{names} teilen sich den Sieg mit {points} Punkten.",
           "dragon_fires": "{names} haben gleich viele Punkte ({points}); {winner} hat die "
                           "meisten Drachenfeuer ({fires}) und gewinnt.",
           "shared": "{names} haben gleich viele Punkte und Drachenfeuer: sie teilen sich "
                     "den Sieg.",
           "and": "und"},
}


def _names(names: Sequence[str], lang: str) -> str:
    w = WORDS.get(lang, WORDS["en"])
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {w['and']} {names[-1]}"


def verdict(result: Result, lang: str = "en") -> str:
    """Who won, and how a tie was broken, in words."""
    w = WORDS.get(lang, WORDS["en"])
    top = max(s.total for s in result.scores)
    if result.tie is None:
        return w["won"].format(names=result.winners[0], points=top)
    tied = [s.sheet.name for s in result.scores if s.total == top]
    if result.tie == "shared":
        return w["shared"].format(names=_names(tied, lang), points=top)
    winner = next(s for s in result.scores if s.place == 1)
    return w["dragon_fires"].format(names=_names(tied, lang), points=top,
                                    winner=winner.sheet.name,
                                    fires=winner.sheet.dragon_fires)

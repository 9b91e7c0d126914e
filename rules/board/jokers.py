"""The jokers: the fewest dice a player's cards can add to make a condition.

Before checking the roll a player may discard pairs of their citizen cards, each pair
adding one die to the roll (the rulebook, phase 2):

* two cards with the same concrete joker add that die;
* a concrete joker and a super joker (a card taken face down) add the concrete one's die;
* two super jokers add any die;

several pairs add several dice. Added dice need not fit the box's colour layout (two red
6 jokers make a seventh die, a red 6, whatever the dice show).

:func:`fewest` finds, exactly, the fewest added dice that make a condition (for the
merchant's stars: that reach ``stars``), and among those the way that discards the fewest
super jokers. From the condition's own lower bound k
(:meth:`~rules.board.conditions.Condition.short`) up, it tries every multiset of k added
dice drawn from the player's concrete jokers and, when two super jokers are left, from
the condition's :meth:`~rules.board.conditions.Condition.useful` dice (any other free die
can be swapped for one of those without losing the condition), paying each multiset the cheapest way
(pairs of concrete jokers first, then a concrete with a super, then two supers).
``tests/test_board_jokers.py`` checks it against a search over every die.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.board.conditions import Condition, canonical, die_key
from rules.dice import Die

SUPER = "super"
"""A super joker in a list of discards."""


@dataclass(frozen=True, slots=True)
class Pair:
    """One die added by discarding two cards: ``cards`` are the concrete jokers' dice or
    ``None`` for a super joker."""

    die: Die
    cards: tuple[Die | None, Die | None]

    @property
    def supers(self) -> int:
        return sum(c is None for c in self.cards)


@dataclass(frozen=True, slots=True)
class Jokers:
    """The dice to add and the pairs of cards to discard for them."""

    pairs: tuple[Pair, ...]

    @property
    def adds(self) -> tuple[Die, ...]:
        return tuple(p.die for p in self.pairs)

    @property
    def discards(self) -> tuple[Die | None, ...]:
        return tuple(c for p in self.pairs for c in p.cards)

    @property
    def supers(self) -> int:
        return sum(p.supers for p in self.pairs)

    def to_json(self) -> dict[str, list[str]]:
        """``{"adds": ["6r"], "discards": ["6r", "6r"]}`` (``"super"`` for a super joker)."""
        return {"adds": [str(d) for d in self.adds],
                "discards": [SUPER if c is None else str(c) for c in self.discards]}


def pay(adds: Iterable[Die], concrete: Counter[Die], supers: int) -> Jokers | None:
    """The cheapest way to pay for ``adds`` with these cards (fewest super jokers), or None
    if they cannot. Each die is paid on its own: pairs of its concrete jokers first, then
    one concrete with a super, then two supers."""
    pairs: list[Pair] = []
    left = supers
    for d, n in sorted(Counter(adds).items(), key=lambda x: die_key(x[0])):
        have = concrete.get(d, 0)
        for _ in range(n):
            if have >= 2:
                have -= 2
                pairs.append(Pair(d, (d, d)))
            elif have == 1 and left >= 1:
                have, left = 0, left - 1
                pairs.append(Pair(d, (d, None)))
            elif left >= 2:
                left -= 2
                pairs.append(Pair(d, (None, None)))
            else:
                return None
    return Jokers(tuple(pairs))


def _most_dice(concrete: Counter[Die], supers: int) -> int:
    """The most dice these cards can add."""
    pairs = sum(n // 2 for n in concrete.values())
    singles = sum(n % 2 for n in concrete.values())
    mixed = min(singles, supers)
    return pairs + mixed + (supers - mixed) // 2


def fewest(condition: Condition, dice: Sequence[Die], concrete: Sequence[Die],
           supers: int, stars: int = 1) -> Jokers | None:
    """The fewest dice the cards can add so that ``dice`` meet ``condition`` (at least
    ``stars`` stars): ``Jokers(())`` if the dice already do, None if no discards can.

    ``concrete`` are the concrete jokers of the cards the player owns face up (a die
    each), ``supers`` how many cards they own face down.
    """
    if condition.stars(dice) >= stars:
        return Jokers(())
    owned = Counter(concrete)
    choices = set(owned)
    if supers >= 2:
        choices |= condition.useful()
    ordered = sorted(choices, key=lambda d: (-d.value, die_key(d)[1]))  # a free die: a 6 first
    base = canonical(dice)
    most = _most_dice(owned, supers)
    low = max(1, condition.short(dice, stars))
    for k in range(low, most + 1):
        best = _search(condition, stars, base, ordered, owned, supers, k)
        if best is not None:
            return best
    return None


def _search(condition: Condition, stars: int, base: tuple[Die, ...], ordered: list[Die],
            owned: Counter[Die], supers: int, k: int) -> Jokers | None:
    """The cheapest way (fewest super jokers) to add exactly ``k`` dice drawn from
    ``ordered`` that make ``condition``, or None. Bags of added dice are built die by die
    in the order of ``ordered`` (each multiset once); a bag is given up when the
    condition's lower bound says the dice still to add cannot be enough."""
    best: Jokers | None = None

    def walk(start: int, adds: tuple[Die, ...], free: int) -> bool:
        nonlocal best
        if condition.short((*base, *adds), stars) > k - len(adds):
            return False  # the bound is cheap; a leaf's full check may not be
        if len(adds) == k:
            paid = pay(adds, owned, supers)
            if (paid is not None and (best is None or paid.supers < best.supers)
                    and condition.stars((*base, *adds)) >= stars):
                best = paid
            return best is not None and best.supers == 0  # nothing cheaper exists
        for i in range(start, len(ordered)):
            d = ordered[i]
            cost = 0 if d in owned else 2  # a die no card shows takes two super jokers
            if free + cost <= supers and walk(i, (*adds, d), free + cost):
                return True
        return False

    walk(0, (), 0)
    return best

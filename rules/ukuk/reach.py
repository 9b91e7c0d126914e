"""The reach: which court cards the dice can still buy without any further luck.

Given the active dice, the set-aside dice and the court cards a player has not used yet
this round, :func:`reach` finds every wanted card whose cost can be met by using some of
those cards (each at most once) and setting dice aside, with no more throwing, and for
each the shortest plan: the fewest card uses, with the set-aside steps they need, e.g.
``Handwerker → 1; Edelmann: 1 1 → 3 3; set aside 3; Astronom: 6 → 3`` for the Ritter.
Cards whose use is luck (Hofnarr, Händler) are left out; the rest are planned exactly.

The search is exact. It is a breadth-first search by number of uses over the dice
(active and set aside, as multisets); the cards already used are carried as a bitset
over all subsets of the player's cards, so each dice position is expanded once per
depth for every subset of used cards at once. Four reductions keep it fast and keep it
exact:

* cards that bring in a die (Handwerker … Königin) are planned first, in a fixed order:
  bringing a die in earlier never takes a choice away from any other card;
* a set-aside die only matters to the Astronom, so a die is set aside only right before
  an Astronom use that copies it; the other dice are set aside at the end;
* a position is not expanded when an optimistic bound (every die reaches what the
  unused cards could give it, a bounded number of dice changed freely) says no wanted
  card is possible from it any more; the bound never says no to a reachable card;
* once every card still wanted needs equal dice (the König's seven, the Feldherr's six,
  ...), or every one a sum (the Pfandleiher's 30), a position waits while its depth
  plus a lower bound of the uses still needed exceeds a limit raised one at a time
  (best first, :class:`_Search`): a König found only after six uses no longer means
  searching every position five uses deep. Under each limit the deepest positions are
  expanded first (the order does not change what is found: every position that could
  lead to a card in fewer uses was expanded under a lower limit), and no limit goes
  beyond the number of cards: a card none of them reaches is not searched for further.

``tests/test_ukuk_reach.py`` checks the result against a brute-force search over every
order of card uses and set-aside steps, and replays every plan through the game.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from rules.ukuk.abilities import Ability, Add, CopyAside, Raise, Share, Turn, Values
from rules.ukuk.costs import VALUES, Capacity, Cost, Counts, Groups, SumAtLeast

MAX_DICE = 15
_SHIFT = (0, 0, 4, 8, 12, 16, 20)
_ONE = (0, 1, 1 << 4, 1 << 8, 1 << 12, 1 << 16, 1 << 20)
_LOW = (1 << 24) - 1
# A way into a position, (position before << 6) | card, is below 2**54; the later ways
# into one position are packed into one int, _WAY bits each (ints, not lists: nothing
# for the garbage collector to walk)
_WAY = 56
_WAY_MASK = (1 << _WAY) - 1


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a plan: use a court card (``card``), or set a die aside (``card`` None)."""

    card: str | None
    before: Values
    after: Values

    @property
    def action(self) -> str:
        """The step in the action words of a game script."""
        if self.card is None:
            return "aside " + " ".join(map(str, self.before))
        before = " ".join(map(str, self.before))
        after = " ".join(map(str, self.after))
        return f"use {self.card} {before} -> {after}".replace("  ", " ")


@dataclass(frozen=True, slots=True)
class Plan:
    """The shortest way to a card: these steps, then set every die aside and buy it."""

    card: str
    steps: tuple[Step, ...]

    @property
    def uses(self) -> int:
        return sum(1 for s in self.steps if s.card is not None)


# ---- multisets of dice as small integers (four bits per value) ----------------------------

def encode(values: Iterable[int]) -> int:
    code = 0
    for v in values:  # a loop, not sum() over a generator: half the time, and it is hot
        code += _ONE[v]
    return code


def counts(code: int) -> Counts:
    return (0, code & 15, (code >> 4) & 15, (code >> 8) & 15, (code >> 12) & 15,
            (code >> 16) & 15, (code >> 20) & 15)


def decode(code: int) -> Values:
    c = counts(code)
    return tuple(v for v in VALUES for _ in range(c[v]))


_NUMBERED: dict[Ability, int] = {}  # each ability a small number, for the move tables
_ABILITIES: list[Ability] = []
_NUMBERING = threading.Lock()


def _number(ability: Ability) -> int:
    """The ability's number in :data:`_ABILITIES`. The move tables are keyed by numbers,
    not abilities: a key of ints is no object for the garbage collector to walk, and a
    table of tens of thousands of such keys made its full collections slow and often."""
    with _NUMBERING:
        n = _NUMBERED.get(ability)
        if n is None:
            n = _NUMBERED[ability] = len(_ABILITIES)
            _ABILITIES.append(ability)
        return n


@lru_cache(maxsize=200_000)
def _after(number: int, active: int) -> tuple[int, ...]:
    """The active dice after each different use of ability ``number`` (not the
    Astronom)."""
    moves = _ABILITIES[number].moves(counts(active), ())
    return tuple({active - encode(b) + encode(a) for b, a in moves})


@lru_cache(maxsize=200_000)
def _after_copy(active: int, aside: int) -> tuple[int, ...]:
    """Positions (active | aside << 24) after each use of a copy-aside card, including
    setting aside one die first to copy its number."""
    out = set()
    c, s = counts(active), counts(aside)
    for v in VALUES:
        if not c[v]:
            continue
        for w in VALUES:
            if w == v:
                continue
            if s[w]:
                out.add((active - _ONE[v] + _ONE[w]) | (aside << 24))
            elif c[w]:  # set one w aside, then turn the v into a w
                out.add((active - _ONE[v]) | ((aside + _ONE[w]) << 24))
    return tuple(out)


def _moves_between(ability: Ability, x: int, y: int) -> list[Step] | None:
    """The concrete steps of one use of ``ability`` that lead from position x to y."""
    active, aside = x & _LOW, x >> 24
    if isinstance(ability, CopyAside):
        c, s = counts(active), counts(aside)
        for v in VALUES:
            for w in VALUES:
                if not c[v] or w == v:
                    continue
                if s[w] and y == ((active - _ONE[v] + _ONE[w]) | (aside << 24)):
                    return [Step("", (v,), (w,))]
                if (not s[w] and c[w]
                        and y == ((active - _ONE[v]) | ((aside + _ONE[w]) << 24))):
                    return [Step(None, (w,), ()), Step("", (v,), (w,))]
        return None
    for before, after in ability.moves(counts(active), counts(aside)):
        if (active - encode(before) + encode(after)) | (aside << 24) == y:
            return [Step("", before, after)]
    return None


# ---- the optimistic bound ---------------------------------------------------------------

def _sums(options: Sequence[frozenset[int]]) -> frozenset[int]:
    total = frozenset({0})
    for opt in options:
        total = frozenset(t + o for t in total for o in ({0} | opt))
    return total


@dataclass(frozen=True, slots=True)
class _Powers:
    """What a set of unused cards can do to one die of each value (see capacity); every
    tuple is by value 1-6 (index 0 unused)."""

    free: tuple[tuple[int, ...], ...]  # numbers a die can show without a bounded change
    bound: tuple[tuple[int, ...], ...]  # further numbers with one
    budget: int
    parity_budget: int  # dice the bounded cards can turn to the other parity
    brought: tuple[int, ...]  # values of dice the cards bring in (fixed numbers)
    wild: int  # dice brought in that may show anything (the Königin)
    top: tuple[int, ...]  # the highest free number
    gain: tuple[int, ...]  # what a bounded change adds to that at best
    parity: tuple[tuple[bool, bool], ...]  # per parity p: a free number has parity p
    bound_parity: tuple[tuple[bool, bool], ...]  # ... a number with a bounded change has


@lru_cache(maxsize=4096)
def _powers(abilities: tuple[Ability, ...]) -> _Powers:
    free_steps = [frozenset(a.steps or range(6)) for a in abilities
                  if a.deterministic and a.touches is None]
    bounded = [a for a in abilities if a.deterministic and a.touches]
    inc = _sums(free_steps)
    budget = sum(a.touches or 0 for a in bounded)
    anything = budget > 0 and any(a.steps is None for a in bounded)
    bound_steps = _sums([a.steps for a in bounded if a.steps is not None]) - {0}
    free: list[tuple[int, ...]] = [()]
    bound: list[tuple[int, ...]] = [()]
    for x in VALUES:
        f = frozenset(x + i for i in inc if x + i <= 6)
        if anything:
            b = frozenset(VALUES) - f
        else:
            b = frozenset(x + i + s for i in inc for s in bound_steps if x + i + s <= 6) - f
        free.append(tuple(sorted(f)))
        bound.append(tuple(sorted(b)))
    extra = [a.value for a in abilities if isinstance(a, Add)]
    top = tuple(max(f, default=0) for f in free)
    gain = tuple(max(max(b, default=0) - t, 0) for b, t in zip(bound, top, strict=True))
    def parities(values: Sequence[int]) -> tuple[bool, bool]:
        return (any(v % 2 == 0 for v in values), any(v % 2 == 1 for v in values))

    # a pip move (Share) keeps the sum, so it turns an even number of dice's parity
    parity_budget = sum((a.touches or 0) // 2 * 2 if isinstance(a, Share) else a.touches or 0
                        for a in bounded)
    return _Powers(tuple(free), tuple(bound), budget, parity_budget,
                   tuple(v for v in extra if v is not None), sum(v is None for v in extra),
                   top, gain, tuple(map(parities, free)), tuple(map(parities, bound)))


def capacity(active: Counts, aside: Counts, abilities: Sequence[Ability]) -> Capacity:
    """What the dice could at best become with these unused cards (see costs.Capacity).

    A die that no bounded card touches can only gain what the cards that raise any number
    of dice add (Hofdame +1, Edelmann +2, both +3). Bounded cards change at most
    ``budget`` dice in all (Dienstmagd 1, Astronom 1, Zauberer 1, Philosoph 2,
    Alchemist 3); a die they touch may show anything (only the Dienstmagd: what it adds).
    Cards that bring in a die add one die each (the Königin's shows anything).
    """
    return _capacity_of(active, aside, _powers(tuple(abilities)))


def _capacity_of(active: Counts, aside: Counts, pw: _Powers) -> Capacity:
    dice = list(active)
    for v in pw.brought:
        dice[v] += 1
    free = [0] * 7
    bound = [0] * 7
    gains: list[int] = []
    max_sum = 6 * pw.wild
    for v in VALUES:  # plain loops: this runs for most positions the search meets
        max_sum += v * aside[v]
    odd_aside = aside[1] or aside[3] or aside[5]
    even_aside = aside[2] or aside[4] or aside[6]
    parity_need: list[int | None] = [None if odd_aside else 0, None if even_aside else 0]
    pw_free, pw_bound, top, gain = pw.free, pw.bound, pw.top, pw.gain
    for x in VALUES:
        n = dice[x]
        if not n:
            continue
        for v in pw_free[x]:
            free[v] += n
        for v in pw_bound[x]:
            bound[v] += n
        max_sum += top[x] * n
        if gain[x]:
            gains += [gain[x]] * n
        if active[x]:  # brought-in dice may be left out, so they never spoil parity
            fp, bp = pw.parity[x], pw.bound_parity[x]
            for p in (0, 1):
                need = parity_need[p]
                if need is None or fp[p]:
                    continue
                parity_need[p] = need + active[x] if bp[p] else None
    wild = pw.wild
    for v in VALUES:
        free[v] += aside[v] + wild
    if gains:
        gains.sort(reverse=True)
        max_sum += sum(gains[:pw.budget])
    total = sum(active) + len(pw.brought) + wild + sum(aside)
    return Capacity(tuple(free), tuple(bound), pw.budget, total, max_sum,
                    (parity_need[0], parity_need[1]), pw.parity_budget)


# ---- the search -------------------------------------------------------------------------

@cache
def _without(k: int, bit: int) -> int:
    """The set (as a bitset over all 2**k subsets) of subsets of k cards lacking ``bit``."""
    x = (1 << (1 << bit)) - 1
    length = 1 << (bit + 1)
    while length < (1 << k):
        x |= x << length
        length *= 2
    return x & ((1 << (1 << k)) - 1)


class _Met:
    """Which costs a dice result meets, shared by every search of the process.

    Each cost gets a bit the first time a search wants it; ``mask(code)`` is the bitmask of
    the known costs the dice ``code`` meets, computed once per result (a result is at most
    :data:`MAX_DICE` dice, so the table stays small) and extended when new costs appear.
    """

    def __init__(self) -> None:
        self.costs: list[Cost] = []
        self.bits: dict[Cost, int] = {}
        self.table: dict[int, tuple[int, int]] = {}
        self.lock = threading.Lock()

    def bit(self, cost: Cost) -> int:
        with self.lock:
            b = self.bits.get(cost)
            if b is None:
                b = self.bits[cost] = len(self.costs)
                self.costs.append(cost)
            return b

    def mask(self, code: int) -> int:
        known = len(self.costs)
        entry = self.table.get(code)
        if entry is not None and entry[1] == known:
            return entry[0]
        mask, start = entry if entry is not None else (0, 0)
        c = counts(code)
        for b in range(start, known):
            if self.costs[b].met(c):
                mask |= 1 << b
        self.table[code] = (mask, known)
        return mask


_MET = _Met()


def reach(active: Sequence[int], aside: Sequence[int], unused: Mapping[str, Ability],
          wanted: Mapping[str, Cost]) -> dict[str, Plan]:
    """For each wanted card (id -> cost) that the dice can reach without luck, the
    shortest plan; ``unused`` are the player's court cards not used yet this round
    (id -> ability; cards whose use is luck are ignored).

    The same question again (the page's view in another language, a new camera status)
    is answered from a small memo: plans are immutable."""
    if len(active) + len(aside) + sum(isinstance(a, Add) for a in unused.values()) > MAX_DICE:
        raise ValueError(f"the reach is planned for at most {MAX_DICE} dice")
    return dict(_remembered(tuple(sorted(active)), tuple(sorted(aside)),
                            tuple(sorted(unused.items())), tuple(sorted(wanted.items()))))


@lru_cache(maxsize=256)
def _remembered(active: Values, aside: Values, unused: tuple[tuple[str, Ability], ...],
                wanted: tuple[tuple[str, Cost], ...]) -> tuple[tuple[str, Plan], ...]:
    return tuple(_search(active, aside, dict(unused), dict(wanted)).items())


@dataclass(frozen=True, slots=True)
class _Kinds:
    """What a set of unused cards can do towards n dice showing v (see _uses_for_kind),
    by v = 1-6 (index 0 unused).

    ``first[v][below][sides][c]``: the fewest cards that change a bounded number of dice
    that can turn c dice in all to v, ``below`` saying whether a die lies below v that
    the raising cards of the way do not lift: the Zauberer and the Astronom one die, the
    Dienstmagd one (none without such a die: a die it raises and they lift counts once,
    a die first lowered by another card was that card's to turn), the Philosoph two and
    the Alchemist three, but one fewer unless ``sides``: pips moved keep the sum, so
    its dice all come to show w only if one of them showed more than w and one less
    (see _sides); w is v or, for a choice of raising cards below, a number they lift
    to v (2 5 5 -> 4 4 4, then the Edelmann: 6 6 6). ``ways[v]``: for each
    choice of the cards that raise any number of dice (Hofdame +1, Edelmann +2), how
    many cards that is, the numbers below v from which they lift a die to v, and how
    many of the dice the cards bring in show v or one of those numbers, and whether one
    of them may show less than v and not be lifted. ``adds``: how many dice the cards
    bring in; ``brought``: the numbers of the dice brought in, ``lift``: what
    the raising cards add to one die at most, ``copies``: whether the Astronom is among
    them, ``anything``: whether a card can put any number on a die (the Zauberer, the
    Königin, or a second pip move).
    """

    first: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]
    ways: tuple[tuple[tuple[int, tuple[int, ...], int, bool], ...], ...]
    adds: int
    brought: tuple[int, ...]
    lift: int
    copies: bool
    anything: bool


def _turns_to(ability: Ability, v: int, below: bool, sides: bool) -> int:
    """How many dice one use of a bounded card can turn to show v (see _Kinds)."""
    if isinstance(ability, Share):
        return ability.dice if sides else ability.dice - 1
    if isinstance(ability, Raise):
        return int(below and any(v - b >= 1 for b in ability.by))
    return ability.touches or 0


def _first(bounded: Sequence[Ability], v: int, below: bool, sides: bool) -> tuple[int, ...]:
    """By c, the fewest of the bounded cards that can turn c dice to v (see _Kinds)."""
    first = [0]
    caps = sorted((_turns_to(a, v, below, sides) for a in bounded), reverse=True)
    for i, cap in enumerate(caps):
        first += [i + 1] * cap
    return tuple(first)


@lru_cache(maxsize=4096)
def _kinds(abilities: tuple[Ability, ...]) -> _Kinds:
    bounded = [a for a in abilities
               if a.deterministic and a.touches and not isinstance(a, Add)]
    raisers = [min(a.steps or {1}) for a in abilities
               if a.deterministic and a.touches is None and not isinstance(a, Add)]
    choices: set[tuple[int, frozenset[int]]] = {(0, frozenset())}
    for size in range(1, len(raisers) + 1):
        for chosen in itertools.combinations(raisers, size):
            choices.add((size, _sums([frozenset({r}) for r in chosen]) - {0}))
    adds = [a.value for a in abilities if isinstance(a, Add)]
    firsts: list[tuple[tuple[tuple[int, ...], ...], ...]] = [()]
    ways: list[tuple[tuple[int, tuple[int, ...], int, bool], ...]] = [()]
    for v in VALUES:
        firsts.append(tuple(tuple(_first(bounded, v, side, sides) for sides in (False, True))
                            for side in (False, True)))
        ways.append(tuple(sorted(
            (size, tuple(v - g for g in gains if g < v),
             sum(1 for w in adds if w is None or w == v or v - w in gains),
             any(w is None or (w < v and v - w not in gains) for w in adds))
            for size, gains in choices)))
    lift = sum(max(a.by) for a in abilities if isinstance(a, Raise))
    anything = (any(isinstance(a, Turn) for a in abilities) or None in adds
                or sum(isinstance(a, Share) for a in abilities) > 1)
    return _Kinds(tuple(firsts), tuple(ways), len(adds),
                  tuple(w for w in adds if w is not None), lift,
                  any(isinstance(a, CopyAside) for a in abilities), anything)


def _sides(active: Counts, aside: Counts, kinds: _Kinds) -> tuple[int, int]:
    """The lowest and the highest number an active die can come to show (see _Kinds).

    A pip move turns all its dice to w only if one of them showed more than w and one
    less. Without a card that puts any number on a die, an active die shows what a die
    shows now or a card brings in (or the Astronom copies from the dice set aside),
    raised by at most what every raising card adds. A pip move cannot make the sides
    for its own use (a second pip move can: then any number counts as possible)."""
    if kinds.anything:
        return 1, 6
    shown = [w for w in VALUES if active[w] or (kinds.copies and aside[w])]
    shown += kinds.brought
    if not shown:
        return 7, 0
    return min(shown), min(6, max(shown) + kinds.lift)


def _uses_for_kind(active: Counts, aside: Counts, kinds: _Kinds, n: int) -> int | None:
    """At least how many more card uses it takes to show ``n`` dice of one number (None:
    never).

    Every die that comes to show the number v was changed by some card. Dice that a
    bounded card (see _Kinds) changed are at most what those cards turn to v in all. The
    others only met the cards that raise any number of dice: they lay (or were brought
    in) on a number those cards lift to v. And no more dice come to show v than there
    are dice not showing it, counting the dice brought in. A die brought in that shows
    v (or a number lifted to v) does for one use what a bounded card does at least, so
    the fewest such dice are brought in.
    """
    for v in VALUES:  # plain loops, no generators: this is the search's hottest code
        if active[v] + aside[v] >= n:
            return 0
    dice = sum(active)
    best = 99
    adds = kinds.adds
    lowest = highest = -1  # the sides, found when first asked (most calls never ask)
    under = 0  # active dice below v
    for v in VALUES:
        on = active[v]
        below_v = under
        under += on
        short = n - on - aside[v]
        least_adds = short - dice + on  # dice to bring in to have enough at all
        if least_adds > adds or least_adds >= best:
            continue
        if highest < 0:
            lowest, highest = _sides(active, aside, kinds)
        firsts = kinds.first[v]
        on_v = lowest < v < highest
        for size, below, useful, spare in kinds.ways[v]:
            if size + least_adds >= best:
                break
            left = short
            sides = on_v
            for w in below:
                left -= active[w]
                sides = sides or lowest < w < highest
            first = firsts[spare or below_v > short - left][sides]
            over = left - len(first) + 1  # dice the bounded cards cannot turn
            j = least_adds if least_adds > over else over
            if j < 0:
                j = 0
            if j > adds or over > useful:
                continue
            need = left - (j if j < useful else useful)
            uses = size + j + (first[need] if need > 0 else 0)
            if uses < best:
                best = uses
        if best == 1:
            break
    return None if best == 99 else best


@lru_cache(maxsize=4096)
def _sum_gains(abilities: tuple[Ability, ...]) -> tuple[tuple[int, ...], tuple[int, ...],
                                                       tuple[int, ...]]:
    """What one use of each card adds to the sum of the dice at most: the numbers of the
    dice the cards bring in (the Königin's a 6), largest first; the other cards' gains
    (Dienstmagd its largest step; Zauberer and Astronom 5, one die from 1 to 6; a pip
    move none); and the steps of the cards that raise any number of dice (Hofdame 1,
    Edelmann 2), each per die."""
    brought = sorted((6 if a.value is None else a.value for a in abilities
                      if isinstance(a, Add)), reverse=True)
    fixed: list[int] = []
    per_die: list[int] = []
    for a in abilities:
        if isinstance(a, Raise):
            (per_die if a.dice is None else fixed).append(max(a.by))
        elif not isinstance(a, Add):
            fixed.append(0 if isinstance(a, Share) else 5)
    return tuple(brought), tuple(fixed), tuple(per_die)


def _uses_for_sum(active: Counts, aside: Counts, abilities: tuple[Ability, ...],
                  at_least: int) -> int | None:
    """At least how many more card uses it takes for the dice to add up to ``at_least``
    (None: never). No die shows more than 6, so at least ``at_least / 6`` dice are
    needed: the missing ones are brought in (the largest first). Each card is used at
    most once and adds at most its gain (:func:`_sum_gains`); a card that raises any
    number of dice raises at most every die active now and every die still to come. So
    the uses are at least those dice brought in and the fewest largest gains that make
    up what is still missing."""
    dice = sum(active) + sum(aside)
    missing = at_least - sum(v * (active[v] + aside[v]) for v in VALUES)
    if missing <= 0:
        return 0
    brought, fixed, per_die = _sum_gains(abilities)
    forced = max(0, -(-at_least // 6) - dice)
    if forced > len(brought):
        return None
    missing -= sum(brought[:forced])
    if missing <= 0:
        return forced
    most = sum(active) + len(brought)
    gains = sorted([*brought[forced:], *fixed, *(b * most for b in per_die)], reverse=True)
    for uses, gain in enumerate(gains, start=forced + 1):
        missing -= gain
        if missing <= 0:
            return uses
    return None


@dataclass(slots=True)
class _Wanted:
    """The cards still wanted (a bitset of costs), their costs, the equal dice ``n`` or
    the sum ``total`` all of them need (0: not so), and the search's tables of bounds of
    uses and of "possible" for them (see _Search.bound)."""

    want: int
    costs: tuple[Cost, ...]
    n: int
    total: int
    bounds: dict[int, int | None]
    possible: dict[int, bool]


class _Search:
    """One breadth-first search by number of uses, over (dice, cards used) as in the
    module docstring, best first: a position waits while its depth plus a lower bound of
    the uses still needed for every wanted card (:func:`_uses_for_kind`, for costs of
    equal dice) exceeds a limit raised by one at a time, and keeps its layer meanwhile.
    The bound never overestimates, so each card is first met at its fewest uses: when
    the limit is L, every position from which a card is met in fewer than L uses was
    expanded under a lower limit, so a card met now (at most L uses deep) is met at its
    fewest, whichever layer is expanded first (the deepest: nearest to a card)."""

    def __init__(self, active: Sequence[int], aside: Sequence[int],
                 unused: Mapping[str, Ability], wanted: Mapping[str, Cost]) -> None:
        cards = sorted(((cid, a) for cid, a in unused.items() if a.deterministic),
                       key=lambda item: (not isinstance(item[1], Add), item[0]))
        self.names = [cid for cid, _ in cards]
        self.abilities = [a for _, a in cards]
        k = len(self.abilities)
        n_add = sum(isinstance(a, Add) for a in self.abilities)
        # A card that brings in a die is used only before every other card, and these
        # cards in the order of their bits: the i-th only from subsets of the cards before.
        self.shifts = [((1 << (1 << i)) - 1 if i < n_add else _without(k, i), 1 << i)
                       for i in range(k)]
        # per card: its bit, its move table's number, whether it copies a set-aside
        # die (the Astronom), and its shift (above)
        self.cards: list[tuple[int, int, bool, int, int]] = [
            (i, _number(a), isinstance(a, CopyAside), *self.shifts[i])
            for i, a in enumerate(self.abilities)]
        self.targets = [(cid, cost) for cid, cost in sorted(wanted.items())
                        if cost.dice_cost]
        self.by_bit: dict[int, list[int]] = {}  # a cost's bit -> the targets that cost it
        for i, (_, cost) in enumerate(self.targets):
            self.by_bit.setdefault(_MET.bit(cost), []).append(i)
        self.costs = [(b, self.targets[ix[0]][1]) for b, ix in sorted(self.by_bit.items())]
        a0, s0 = encode(active), encode(aside)
        self.x0 = a0 | (s0 << 24)
        cap0 = _capacity(a0, s0, tuple(self.abilities))
        self.want = sum(1 << b for b, cost in self.costs if cost.possible(cap0))
        self.found: dict[int, tuple[int, int, int]] = {}  # target -> (depth, position, used)
        self.layers: list[dict[int, int]] = [{self.x0: 1}]  # every used set met, by depth
        self.pending: list[dict[int, int]] = [{self.x0: 1}]  # ... not expanded yet
        # by depth: position -> its first way in, (position before << 6) | card, and
        # the later ways in (ints, not tuples: the search makes no garbage to collect)
        self.parents: list[dict[int, int]] = [{}]
        self.more: list[dict[int, int]] = [{}]
        # by depth: a waiting position -> the limit it waits for (until new used sets come)
        self.waits: list[dict[int, int]] = [{}]
        # by depth: whether positions came or changed since the layer was last looked
        # through under this limit (if not, every one of them still waits: skip it)
        self.fresh: list[bool] = [True]
        self.lives: dict[int, int] = {}  # used sets -> the cards one of them lacks
        self.tables = _Wanted(-1, (), 0, 0, {}, {})  # see needs
        # by needs (bounds) or wanted cards (possible): position << k | live cards -> ...
        self.bounds: dict[tuple[int, int], dict[int, int | None]] = {}
        self.possible: dict[int, dict[int, bool]] = {}
        # live cards -> their powers, and the cards
        self.powers: dict[int, tuple[_Powers, _Kinds, tuple[Ability, ...]]] = {}

    def run(self) -> dict[str, Plan]:
        x0 = self.x0
        self.want &= ~self.record(_MET.mask((x0 & _LOW) + (x0 >> 24)) & self.want, 0, x0, 0)
        limit = 0
        # no plan uses more cards than there are: a position waiting beyond that waits
        # for nothing (a card none of them reaches is not searched for to the end)
        while self.want and any(self.pending) and limit <= len(self.abilities):
            # deepest layer first: a card first met at the limit is found from the
            # positions nearest to it before the shallower ones are expanded
            for top in range(min(limit, len(self.pending)) - 1, -1, -1):
                depth = top
                while self.want and depth < limit and depth < len(self.pending):
                    self.expand_layer(depth, limit)
                    depth += 1
            limit += 1
            self.fresh = [True] * len(self.fresh)
        plans = {}
        for i, (d, x, used) in self.found.items():
            steps = _steps(self, d, x, used)
            plans[self.targets[i][0]] = Plan(self.targets[i][0], tuple(steps))
        return plans

    def record(self, mask: int, depth: int, x: int, used: int) -> int:
        for b, ix in self.by_bit.items():
            if mask >> b & 1:
                for i in ix:
                    self.found[i] = (depth, x, used)
        return mask

    def power(self, live_mask: int) -> tuple[_Powers, _Kinds, tuple[Ability, ...]]:
        pw = self.powers.get(live_mask)
        if pw is None:
            live = tuple(a for i, a in enumerate(self.abilities) if live_mask >> i & 1)
            pw = self.powers[live_mask] = (_powers(live), _kinds(live), live)
        return pw

    def needs(self) -> _Wanted:
        """The tables of the cards still wanted (kept until another card is found): the
        fewest equal dice every wanted card needs when all want equal dice, or the lowest
        sum every wanted card needs when all want a sum (0: not so); (0, 0) otherwise: no
        bound of uses (bounding a mix cost more than it saved)."""
        tables = self.tables
        if tables.want == self.want:
            return tables
        wanted = tuple(cost for b, cost in self.costs if self.want >> b & 1)
        n = total = 0
        if all(isinstance(c, Groups) for c in wanted) or all(
                isinstance(c, SumAtLeast) for c in wanted):
            n = min((max(c.sizes) for c in wanted if isinstance(c, Groups)), default=0)
            total = min((c.at_least for c in wanted if isinstance(c, SumAtLeast)), default=0)
        self.tables = _Wanted(self.want, wanted, n, total,
                              self.bounds.setdefault((n, total), {}),
                              self.possible.setdefault(self.want, {}))
        return self.tables

    def uses_needed(self, x: int, live_mask: int, n: int, total: int) -> int | None:
        """The least of the bounds of uses for n equal dice and for the sum ``total``."""
        active, aside = counts(x & _LOW), counts(x >> 24)
        _, kinds, live = self.power(live_mask)
        found = [h for h in (_uses_for_kind(active, aside, kinds, n) if n else None,
                             _uses_for_sum(active, aside, live, total) if total else None)
                 if h is not None]
        return min(found, default=None)

    def bound(self, x: int, live_mask: int, room: int) -> int | None:
        """At least how many more uses any wanted card needs from x (None: none can be
        bought from x any more); only when that is within ``room`` is it checked that
        some wanted card is possible at all."""
        tables = self.needs()
        n, total = tables.n, tables.total
        h: int | None = 0
        key = x << len(self.abilities) | live_mask
        if n or total:
            bounds = tables.bounds
            h = bounds.get(key, -1)
            if h == -1 and room == 0:  # only "none needed" would do: no need for more
                dice = (x & _LOW) + (x >> 24)
                if ((not n or all((dice >> shift) & 15 < n for shift in _SHIFT[1:]))
                        and (not total or sum(v * c for v, c in enumerate(counts(dice)))
                             < total)):
                    return 1
            if h == -1:
                h = bounds[key] = (self.uses_needed(x, live_mask, n, total) if total else
                                   _uses_for_kind(counts(x & _LOW), counts(x >> 24),
                                                  self.power(live_mask)[1], n))
            if h is None or h > room:
                return h
        possible = tables.possible
        ok = possible.get(key)
        if ok is None:
            cap = _capacity_of(counts(x & _LOW), counts(x >> 24), self.power(live_mask)[0])
            ok = False
            for cost in tables.costs:
                if cost.possible(cap):
                    ok = True
                    break
            possible[key] = ok
        return h if ok else None

    def expand_layer(self, depth: int, limit: int) -> None:
        """Expand the positions at ``depth`` whose bound lets them within ``limit``."""
        if not self.fresh[depth]:
            return
        self.fresh[depth] = False
        shifts, lives = self.shifts, self.lives
        waiting: dict[int, int] = {}
        layer = self.pending[depth]
        if len(self.pending) == depth + 1:
            self.layers.append({})
            self.pending.append({})
            self.parents.append({})
            self.more.append({})
            self.waits.append({})
            self.fresh.append(True)
        waits = self.waits[depth]
        for x, used_sets in layer.items():
            if waits.get(x, 0) > limit:
                waiting[x] = used_sets
                continue
            live_mask = lives.get(used_sets, -1)
            if live_mask == -1:
                live_mask = lives[used_sets] = sum(
                    1 << i for i, (lacking, _) in enumerate(shifts) if used_sets & lacking)
            if not live_mask:
                continue
            h = self.bound(x, live_mask, limit - depth)
            if h is None:
                continue
            if depth + h > limit:
                waiting[x] = used_sets
                waits[x] = depth + h
                continue
            self.expand(x, used_sets, live_mask, depth)
            if not self.want:
                break
        self.pending[depth] = waiting

    def expand(self, x: int, used_sets: int, live_mask: int, depth: int) -> None:
        nxt, pend, par = self.layers[depth + 1], self.pending[depth + 1], self.parents[depth + 1]
        more, waits = self.more[depth + 1], self.waits[depth + 1]
        self.fresh[depth + 1] = True
        nxt_get = nxt.get
        known = len(_MET.costs)
        met_get, met_mask = _MET.table.get, _MET.mask
        active_code, aside_code = x & _LOW, x >> 24
        high = aside_code << 24
        for i, number, copies, lacking, bit in self.cards:
            if not live_mask >> i & 1:
                continue
            new_sets = (used_sets & lacking) << bit
            way = x << 6 | i
            if copies:
                ys: Iterable[int] = _after_copy(active_code, aside_code)
                shift = 0
            else:
                ys = _after(number, active_code)
                shift = high
            for y in ys:
                y |= shift
                old = nxt_get(y)
                if old is None:
                    nxt[y] = pend[y] = new_sets
                    par[y] = way
                    code = (y & _LOW) + (y >> 24)
                    met = met_get(code)
                    hit = met[0] if met is not None and met[1] == known else met_mask(code)
                    if hit & self.want:
                        low_set = new_sets & -new_sets
                        self.want &= ~self.record(hit & self.want, depth + 1, y,
                                                  low_set.bit_length() - 1)
                        if not self.want:
                            return
                else:
                    fresh = new_sets & ~old
                    if fresh:
                        nxt[y] = old | fresh
                        pend[y] = pend.get(y, 0) | fresh
                        waits.pop(y, None)
                        more[y] = more.get(y, 0) << _WAY | way + 1


def _search(active: Sequence[int], aside: Sequence[int], unused: Mapping[str, Ability],
            wanted: Mapping[str, Cost]) -> dict[str, Plan]:
    """:func:`reach` without the memo."""
    return _Search(active, aside, unused, wanted).run()


def _ways(packed: int) -> list[int]:
    """The later ways into a position, packed into one int as the search keeps them."""
    ways = []
    while packed:
        ways.append((packed & _WAY_MASK) - 1)
        packed >>= _WAY
    return ways[::-1]  # in the order they were found


def _steps(search: _Search, depth: int, x: int, used: int) -> list[Step]:
    """Walk back from (x, used) at ``depth`` to the start, naming every step."""
    layers, abilities, names = search.layers, search.abilities, search.names
    steps: list[Step] = []
    while depth:
        ways = [search.parents[depth][x], *_ways(search.more[depth].get(x, 0))]
        for prev, i in ((way >> 6, way & 63) for way in ways):
            before_set = used & ~(1 << i)
            if used >> i & 1 and layers[depth - 1].get(prev, 0) >> before_set & 1:
                moves = _moves_between(abilities[i], prev, x)
                if moves is None:  # pragma: no cover - the search only records real moves
                    raise AssertionError("reach: a recorded move cannot be replayed")
                named = [Step(names[i] if s.card == "" else None, s.before, s.after)
                         for s in moves]
                steps[:0] = named
                x, used, depth = prev, before_set, depth - 1
                break
        else:  # pragma: no cover
            raise AssertionError("reach: a found position has no recorded way back")
    return steps


@lru_cache(maxsize=100_000)
def _capacity(active: int, aside: int, abilities: tuple[Ability, ...]) -> Capacity:
    return capacity(counts(active), counts(aside), abilities)


def forget_answers() -> None:
    """Forget the memo of whole answers (the move tables stay warm)."""
    _remembered.cache_clear()


def clear_caches() -> None:
    """Forget every memoised move table (for benchmarks of a cold start)."""
    for f in (_after, _after_copy, _capacity, _powers, _remembered):
        f.cache_clear()
    _MET.table.clear()

"""A player that only makes legal moves, for property tests and long games.

``choose(state, rng)`` returns an action line the rules accept in ``state``: a roll found
by search that satisfies a card the bot picked (or, when ``penalties`` allows, a roll that
satisfies nothing), claims, gifts and draws. ``safe=True`` avoids actions that would end
the game through the penalty pile or a village stack, so the citizen pile runs out first.
"""

from __future__ import annotations

import random

from rules.dice import Color, Die, Roll
from rules.kotd.game import GameState


def random_roll(rng: random.Random) -> Roll:
    return Roll(tuple(Die(rng.randint(1, 6), rng.choice(list(Color))) for _ in range(6)))


def roll_satisfying(state: GameState, slot: int, rng: random.Random) -> Roll:
    card = state.box.card(state.row[slot - 1])
    for _ in range(200_000):
        roll = random_roll(rng)
        if card.check(roll).satisfied:
            return roll
    raise AssertionError(f"no roll found for {card.id}")


def roll_satisfying_nothing(state: GameState, rng: random.Random) -> Roll | None:
    cards = [state.box.card(c) for c in state.row if c]
    for _ in range(2000):
        roll = random_roll(rng)
        if not any(c.check(roll).satisfied for c in cards):
            return roll
    return None


def _ends_game(state: GameState, slot: int) -> bool:
    card = state.box.card(state.row[slot - 1])
    stack = state.villages[slot - 1]
    bonus_matches = False
    if card.effect == "bonus_card" and slot < len(state.row):
        right = state.box.card(state.row[slot])
        s2 = state.villages[slot]
        bonus_matches = len(s2) == 1 and right.village == state.box.card(s2[0]).village
    matches = len(stack) == 1 and card.village == state.box.card(stack[0]).village
    return matches or bonus_matches


def choose(state: GameState, rng: random.Random, safe: bool = False) -> str:
    if state.phase == "setup":
        return "row " + " ".join(c.id for c in rng.sample(state.cards_in_pile(), 5))
    if state.phase == "give":
        others = [p for i, p in enumerate(state.players) if i != state.current]
        return f"give {rng.choice(others)}"
    if state.phase == "draw":
        return f"draw {rng.choice(state.cards_in_pile()).id}"
    assert state.phase == "rolling", state.phase
    claimable = [s for s in state.claimable_slots() if not (safe and _ends_game(state, s))]
    if state.roll is not None and claimable and rng.random() < 0.8:
        # now and then a player leaves the village card or the hypnotist's bonus card
        options = [o for o in ("no-village", "no-bonus") if rng.random() < 0.1]
        return " ".join([f"claim {rng.choice(claimable)}", *options])
    if state.roll is not None and not state.claimable_slots() and (
        state.rolls_left == 0 or rng.random() < 0.3
    ) and not (safe and len(state.penalty_pile) <= 1):
        return f"penalty {rng.choice(state.penalty_values_left())}"
    if state.rolls_left == 0:
        # out of rolls: pick any die correction that makes a safe claim possible
        # (the same target on every call, so the corrections converge)
        slot = next(s for s in range(1, 6) if not (safe and _ends_game(state, s)))
        target = roll_satisfying(state, slot, random.Random(state.row[slot - 1]))
        for i, (a, b) in enumerate(zip(state.roll, target, strict=True), start=1):
            if a != b:
                return f"fix {i} {b}"
    if rng.random() < 0.25 and not (safe and len(state.penalty_pile) <= 1):
        nothing = roll_satisfying_nothing(state, rng)
        if nothing is not None:
            return f"roll {nothing}"
    slots = [s for s in range(1, 6) if not (safe and _ends_game(state, s))]
    return f"roll {roll_satisfying(state, rng.choice(slots), rng)}"

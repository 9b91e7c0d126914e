"""A game of King of the Dice as a fold over actions.

``new_game(players)`` starts a game; ``apply(state, action)`` returns the next state or
raises :class:`RuleError` naming the rule that refuses it. States are immutable, so the
history of a game is a list of states and undo is taking one back (:class:`Game`).

The turn, as the (German) rulebook has it:

1. **Roll** up to three times (four when an elf tops the player's kingdom pile).
2. a. **Claim** one satisfied face-up citizen (the player chooses). The top village card
   above that slot comes along when its colour matches the citizen's. The hypnotist also
   brings the citizen to its right (and that slot's matching village), no requirement
   needed. The village and the hypnotist's bonus card may be left (``no-village``,
   ``no-bonus``). A dragon is given to another player of the taker's choice. The sorcerer's
   apprentice gives the same player one more turn at once.
   b. Only when **no** face-up citizen is satisfied: take the top **penalty** card and
   discard the rightmost citizen.
3. **Refill** the row: cards shift right and new citizens fill the slots from the left
   (two after a hypnotist bonus). The first card drawn lands in the rightmost empty slot.

The game ends at once when the last card is taken from the citizen draw pile, the penalty
pile or any village stack; no refill or further turn follows.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Literal

from rules.actions import (
    Action,
    Claim,
    Draw,
    Fix,
    Give,
    Penalty,
    Players,
    Rolled,
    Row,
    Undo,
)
from rules.cards import Box, Card, load_box
from rules.dice import Roll

Phase = Literal["setup", "rolling", "give", "draw", "over"]
MIN_PLAYERS, MAX_PLAYERS = 2, 5


class RuleError(ValueError):
    """An action the rules do not allow; the message names the rule. The game is unchanged."""


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything on the table at one moment of a game.

    ``kingdoms[i]`` is player i's kingdom pile, bottom first (the last card is on top).
    ``row`` holds the face-up citizen ids by slot (None for an empty slot).
    ``villages[i]`` is the village stack above slot i+1, top card first.
    """

    box: Box = field(repr=False, compare=False)
    players: tuple[str, ...]
    kingdoms: tuple[tuple[str, ...], ...]
    row: tuple[str | None, ...]
    villages: tuple[tuple[str, ...], ...]
    penalty_pile: tuple[str, ...]
    discard: tuple[str, ...] = ()
    drawn: int = 0
    current: int = 0
    turn: int = 1
    roll: Roll | None = None
    rolls_used: int = 0
    phase: Phase = "setup"
    dragons_to_give: tuple[str, ...] = ()
    extra_turn: bool = False
    ended_by: str | None = None
    last: str = "new game"

    # ---- what the table shows -------------------------------------------------------

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def max_rolls(self) -> int:
        """3 rolls, or 4 when an elf is on top of the current player's kingdom pile."""
        pile = self.kingdoms[self.current]
        if pile and self.box.card(pile[-1]).effect == "four_rolls":
            return self.box.rolls + 1
        return self.box.rolls

    @property
    def rolls_left(self) -> int:
        return self.max_rolls - self.rolls_used if self.phase == "rolling" else 0

    @property
    def draw_pile_size(self) -> int:
        """Citizens still face-down: the box less the first row and every card drawn."""
        return len(self.box.citizens) - self.box.row_size - self.drawn

    def cards_in_pile(self) -> tuple[Card, ...]:
        """Citizens that can still be drawn: in the box, not seen on the table yet."""
        seen = set(self.discard) | {c for c in self.row if c} | {
            c for pile in self.kingdoms for c in pile
        }
        return tuple(c for c in self.box.citizens if c.id not in seen)

    def penalty_values_left(self) -> tuple[int, ...]:
        """The different penalty values still in the penalty pile, e.g. (-1, -2, -4)."""
        values = {self.box.card(p).points for p in self.penalty_pile}
        return tuple(sorted((v for v in values if v is not None), reverse=True))

    def claimable_slots(self) -> tuple[int, ...]:
        """The 1-based slots whose citizen the current roll satisfies (none before a roll)."""
        if self.phase != "rolling" or self.roll is None:
            return ()
        return tuple(
            slot for slot, cid in enumerate(self.row, start=1)
            if cid and self.box.card(cid).check(self.roll).satisfied
        )

    def all_cards(self) -> list[str]:
        """Every card id the table holds anywhere (for the 'never twice' invariant)."""
        return (
            [c for c in self.row if c] + list(self.discard)
            + [c for pile in self.kingdoms for c in pile]
            + [c for stack in self.villages for c in stack] + list(self.penalty_pile)
            + list(self.dragons_to_give)
        )


def new_game(players: tuple[str, ...] | list[str], box: Box | None = None) -> GameState:
    """A new game: villages stacked 2 (top), 3, 4; penalties in the box order, row empty."""
    box = box or load_box()
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(f"King of the Dice is for {MIN_PLAYERS}-{MAX_PLAYERS} players, "
                        f"not {len(names)}")
    folded = [n.casefold() for n in names]
    if len(set(folded)) != len(folded):
        raise RuleError("every player needs a different name")
    return GameState(
        box=box,
        players=names,
        kingdoms=((),) * len(names),
        row=(None,) * box.row_size,
        villages=tuple(tuple(v.id for v in box.village_stack(color))
                       for color in box.village_colors_by_slot),
        penalty_pile=tuple(p.id for p in box.penalties),
    )


def _player_index(state: GameState, name: str) -> int:
    for i, p in enumerate(state.players):
        if p.casefold() == name.casefold():
            return i
    raise RuleError(f"there is no player {name!r} (players: {', '.join(state.players)})")


def _need_phase(state: GameState, phase: Phase, what: str) -> None:
    if state.phase == phase:
        return
    why = {
        "setup": "lay out the first five citizens with 'row'",
        "rolling": f"{state.current_player} is rolling",
        "give": f"{state.current_player} must first give the dragon to another player",
        "draw": "the row must first be refilled with 'draw'",
        "over": "the game is over",
    }[state.phase]
    raise RuleError(f"cannot {what} now: {why}")


def _take(state: GameState, pile: list[str], slot: int, row: list[str | None],
          villages: list[tuple[str, ...]], with_village: bool = True
          ) -> tuple[list[str], Card]:
    """Take the citizen in ``slot`` (with its matching village, unless ``with_village`` is
    False) onto ``pile``."""
    card = state.box.card(row[slot - 1])  # type: ignore[arg-type]
    row[slot - 1] = None
    stack = villages[slot - 1]
    if with_village and card.village is not None and stack:
        village = state.box.card(stack[0])
        if village.village == card.village:
            pile.append(village.id)  # the village goes under the citizen
            villages[slot - 1] = stack[1:]
    if card.effect == "give_away":
        return pile, card
    pile.append(card.id)
    return pile, card


def _after_taking(state: GameState, **changes: object) -> GameState:
    """Finish step 2: end the game if a pile ran out, else ask for gifts or refills.

    The row is shifted right at once (step 3), so the empty slots are the leftmost.
    """
    s = replace(state, **changes)  # type: ignore[arg-type]
    s = replace(s, row=tuple(_shift_right(list(s.row))[0]))
    emptied = [i for i, stack in enumerate(s.villages) if not stack
               and state.villages[i]]
    if emptied:
        color = s.box.village_colors_by_slot[emptied[0]]
        s = replace(s, ended_by=f"the last {color} village card was taken")
    elif not s.penalty_pile:
        s = replace(s, ended_by="the last penalty card was taken")
    if s.dragons_to_give:
        return replace(s, phase="give")
    if s.ended_by:
        return replace(s, phase="over")
    return replace(s, phase="draw")


def _next_turn(s: GameState) -> GameState:
    nxt = s.current if s.extra_turn else (s.current + 1) % len(s.players)
    return replace(s, phase="rolling", current=nxt, turn=s.turn + 1, roll=None, rolls_used=0,
                   extra_turn=False)


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``, or RuleError naming the rule that forbids it."""
    box = state.box
    if isinstance(action, Players | Undo):
        raise RuleError(f"'{action}' is handled by the game record, not by a turn")

    if isinstance(action, Row):
        _need_phase(state, "setup", "lay out the row")
        if len(action.cards) != box.row_size:
            raise RuleError(f"the row has {box.row_size} citizens, not {len(action.cards)}")
        for cid in action.cards:
            _check_drawable(state, cid, action.cards)
        return replace(state, row=action.cards, phase="rolling",
                       last=f"row {' '.join(action.cards)}")

    if isinstance(action, Rolled):
        _need_phase(state, "rolling", "roll")
        if state.rolls_used >= state.max_rolls:
            elf = " (4 when an elf tops your kingdom pile)" if state.max_rolls == 3 else ""
            raise RuleError(f"no rolls left: at most {state.max_rolls} rolls a turn{elf}; "
                            f"claim a citizen or take a penalty")
        if len(action.roll) != box.dice:
            raise RuleError(f"a roll has {box.dice} dice, not {len(action.roll)}")
        return replace(state, roll=action.roll, rolls_used=state.rolls_used + 1,
                       last=f"{state.current_player} rolled {action.roll}")

    if isinstance(action, Fix):
        _need_phase(state, "rolling", "correct a die")
        if state.roll is None:
            raise RuleError("there is no roll to correct yet")
        if not 1 <= action.position <= len(state.roll):
            raise RuleError(f"there is no die {action.position}; dice are 1-{len(state.roll)}")
        old = state.roll[action.position - 1]
        return replace(state, roll=state.roll.replace(action.position - 1, action.die),
                       last=f"die {action.position} corrected from {old} to {action.die}")

    if isinstance(action, Claim):
        return _claim(state, action)

    if isinstance(action, Give):
        _need_phase(state, "give", "give a dragon")
        to = _player_index(state, action.player)
        if to == state.current:
            raise RuleError("a dragon must be given to another player, not kept")
        dragon, rest = state.dragons_to_give[0], state.dragons_to_give[1:]
        kingdoms = list(state.kingdoms)
        kingdoms[to] = kingdoms[to] + (dragon,)  # a dragon goes on top of the pile
        s = replace(state, kingdoms=tuple(kingdoms), dragons_to_give=rest,
                    last=f"{state.current_player} gave {dragon} to {state.players[to]}")
        if rest:
            return s
        return replace(s, phase="over" if s.ended_by else "draw")

    if isinstance(action, Penalty):
        _need_phase(state, "rolling", "take a penalty")
        if state.roll is None:
            raise RuleError("roll the dice first: a penalty comes only after a roll")
        satisfied = state.claimable_slots()
        if satisfied:
            raise RuleError("a penalty is taken only when no face-up citizen is satisfied; "
                            f"this roll satisfies slot {', '.join(map(str, satisfied))}")
        card = next((p for p in state.penalty_pile if box.card(p).points == action.points),
                    None)
        if card is None:
            left = ", ".join(str(v) for v in state.penalty_values_left())
            raise RuleError(f"no penalty card worth {action.points} is left (left: {left})")
        pile = list(state.penalty_pile)
        pile.remove(card)
        row = list(state.row)
        discarded = row[-1]
        row[-1] = None
        kingdoms = list(state.kingdoms)
        kingdoms[state.current] = kingdoms[state.current] + (card,)
        return _after_taking(
            state, penalty_pile=tuple(pile), kingdoms=tuple(kingdoms), row=tuple(row),
            discard=state.discard + ((discarded,) if discarded else ()),
            last=f"{state.current_player} took a penalty ({action.points}); "
                 f"{discarded} discarded",
        )

    if isinstance(action, Draw):
        _need_phase(state, "draw", "draw a card")
        _check_drawable(state, action.card)
        row = list(state.row)
        row, empties = _shift_right(row)
        row[empties - 1] = action.card  # the first card drawn lands rightmost
        s = replace(state, row=tuple(row), drawn=state.drawn + 1,
                    last=f"{action.card} drawn into slot {empties}")
        if s.draw_pile_size == 0:
            return replace(s, phase="over", ended_by="the last citizen was drawn")
        if None in s.row:
            return s
        return _next_turn(s)

    raise RuleError(f"unknown action {action!r}")  # pragma: no cover


def _shift_right(row: list[str | None]) -> tuple[list[str | None], int]:
    """Move the face-up citizens right so the empty slots are the leftmost ones."""
    cards = [c for c in row if c is not None]
    empties = len(row) - len(cards)
    return [None] * empties + cards, empties


def _check_drawable(state: GameState, cid: str, row: tuple[str, ...] = ()) -> None:
    try:
        card = state.box.citizen(cid)
    except KeyError as err:
        raise RuleError(err.args[0]) from None
    if row.count(cid) > 1:
        raise RuleError(f"{cid} is listed twice; the box has one of each citizen")
    if card not in state.cards_in_pile():
        raise RuleError(f"{cid} is already out of the pile; it cannot be drawn again")


def _claim(state: GameState, claim: Claim) -> GameState:
    """Step 2a: the citizen in the claimed slot, with its matching village card and, for
    the hypnotist, the card to its right; the player may leave the village and the bonus
    card ("darfst" in the German rules)."""
    slot = claim.slot
    _need_phase(state, "rolling", "claim a citizen")
    if state.roll is None:
        raise RuleError("roll the dice first: a citizen is claimed with a roll")
    if not 1 <= slot <= len(state.row) or state.row[slot - 1] is None:
        raise RuleError(f"there is no citizen in slot {slot}; slots are 1-{len(state.row)}")
    box = state.box
    card = box.card(state.row[slot - 1])  # type: ignore[arg-type]
    verdict = card.check(state.roll)
    if not verdict.satisfied:
        raise RuleError(f"the roll {state.roll} does not satisfy {card.id} "
                        f"({card.describe()}): {verdict.missing} dice missing")
    row = list(state.row)
    villages = list(state.villages)
    pile = list(state.kingdoms[state.current])
    before = len(pile)
    pile, taken = _take(state, pile, slot, row, villages, claim.village)
    taken_cards = [taken]
    if (claim.bonus and taken.effect == "bonus_card" and slot < len(row)
            and row[slot] is not None):
        pile, bonus = _take(state, pile, slot + 1, row, villages, claim.village)
        taken_cards.append(bonus)
    kingdoms = list(state.kingdoms)
    kingdoms[state.current] = tuple(pile)
    dragons = tuple(c.id for c in taken_cards if c.effect == "give_away")
    gained = [cid for cid in pile[before:] if box.card(cid).kind == "village"]
    words = " and ".join(c.id for c in taken_cards)
    if gained:
        words += f" with village {', '.join(gained)}"
    return _after_taking(
        state, row=tuple(row), villages=tuple(villages), kingdoms=tuple(kingdoms),
        dragons_to_give=dragons,
        extra_turn=any(c.effect == "extra_turn" for c in taken_cards),
        last=f"{state.current_player} claimed {words}",
    )


def invariant_problems(state: GameState) -> list[str]:
    """Cards held twice or lost: every card of the box is in exactly one place."""
    held = Counter(state.all_cards())
    problems = [f"{cid} is held {n} times" for cid, n in held.items() if n > 1]
    expected = len(state.box.villages) + len(state.box.penalties) + len(state.box.citizens)
    in_pile = len(state.box.citizens) - state.box.row_size - state.drawn
    if state.phase != "setup" and len(held) + in_pile != expected:
        problems.append(f"{expected - len(held) - in_pile} cards are missing")
    return problems

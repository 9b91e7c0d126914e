"""A game of King of the Dice as a fold over actions.

``new_game(players)`` starts a game; ``apply(state, action)`` returns the next state or
raises :class:`RuleError` naming the rule that refuses it. States are immutable, so the
history of a game is a list of states and undo is taking one back
(:class:`rules.record.GameRecord`).

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
from typing import Literal, TypeVar

from rules.actions import Action, Fix, Players, Rolled, Undo
from rules.dice import Roll
from rules.errors import RuleError, UnknownCardError
from rules.kotd.actions import Claim, Draw, Give, Penalty, Row
from rules.kotd.cards import Box, Card, bare_name, load_box

Phase = Literal["setup", "rolling", "give", "draw", "over"]
T = TypeVar("T")

MAX_ROLLS_LEFT = 3
"""Rolls left after the current one at most: 2 in a normal turn, 3 with an elf on top."""
MIN_PLAYERS, MAX_PLAYERS = 2, 5


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
        raise RuleError("player_count", "King of the Dice is for {low}-{high} players, not "
                        "{count}", low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(names))
    folded = [n.casefold() for n in names]
    if len(set(folded)) != len(folded):
        raise RuleError("player_names", "every player needs a different name")
    return GameState(
        box=box,
        players=names,
        kingdoms=((),) * len(names),
        row=(None,) * box.row_size,
        villages=tuple(tuple(v.id for v in box.village_stack(color))
                       for color in box.village_colors_by_slot),
        penalty_pile=tuple(p.id for p in box.penalties),
    )


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``, or :class:`RuleError` naming the rule that forbids it."""
    match action:
        case Row():
            return _row(state, action)
        case Rolled():
            return _rolled(state, action)
        case Fix():
            return _fix(state, action)
        case Claim():
            return _claim(state, action)
        case Give():
            return _give(state, action)
        case Penalty():
            return _penalty(state, action)
        case Draw():
            return _draw(state, action)
        case Players() | Undo():
            raise RuleError("not_a_move", "'{action}' is handled by the game record, not by "
                            "a turn", action=str(action))
    raise RuleError("unknown_action", "King of the Dice has no action '{action}'",
                    action=str(action))


# ---- the state's questions ---------------------------------------------------------------


def _player_index(state: GameState, name: str) -> int:
    for i, p in enumerate(state.players):
        if p.casefold() == name.casefold():
            return i
    raise RuleError("no_player", "there is no player {name!r} (players: {players})",
                    name=name, players=", ".join(state.players))


_WHY_NOT = {
    "setup": ("setup", "lay out the first five citizens with 'row'"),
    "rolling": ("rolling", "{player} is rolling"),
    "give": ("give", "{player} must first give the dragon to another player"),
    "draw": ("draw", "the row must first be refilled with 'draw'"),
    "over": ("over", "the game is over"),
}


def _need_phase(state: GameState, phase: Phase, what: str) -> None:
    """Refuse ``what`` (e.g. "roll") unless the game is in ``phase``."""
    if state.phase == phase:
        return
    why, because = _WHY_NOT[state.phase]
    raise RuleError(f"phase_{why}", "cannot {what} now: " + because, what=what,
                    player=state.current_player)


def _shift_right(row: tuple[str | None, ...]) -> tuple[tuple[str | None, ...], int]:
    """Move the face-up citizens right so the empty slots are the leftmost ones."""
    cards = tuple(c for c in row if c is not None)
    empties = len(row) - len(cards)
    return (None,) * empties + cards, empties


def _check_drawable(state: GameState, cid: str, row: tuple[str, ...] = ()) -> None:
    try:
        card = state.box.citizen(cid)
    except UnknownCardError as err:
        raise err.within("", RuleError) from None
    if row.count(cid) > 1:
        raise RuleError("twice", "{card} is listed twice; the box has one of each citizen",
                        card=cid)
    if card not in state.cards_in_pile():
        raise RuleError("not_in_pile", "{card} is already out of the pile; it cannot be "
                        "drawn again", card=cid)


def _set(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the one at ``index`` replaced."""
    return (*items[:index], value, *items[index + 1:])


# ---- one function per action -------------------------------------------------------------


def _row(state: GameState, action: Row) -> GameState:
    """Setup: the first citizens, one of each, from the pile."""
    box = state.box
    _need_phase(state, "setup", "lay out the row")
    if len(action.cards) != box.row_size:
        raise RuleError("row_size", "the row has {size} citizens, not {count}",
                        size=box.row_size, count=len(action.cards))
    for cid in action.cards:
        _check_drawable(state, cid, action.cards)
    return replace(state, row=action.cards, phase="rolling",
                   last=f"row {' '.join(action.cards)}")


def _rolled(state: GameState, action: Rolled) -> GameState:
    """Step 1: up to three rolls a turn (four with an elf on top of the kingdom pile)."""
    _need_phase(state, "rolling", "roll")
    if state.rolls_used >= state.max_rolls:
        if state.max_rolls == state.box.rolls:  # no elf on top: say what one would give
            raise RuleError("no_rolls_left_elf", "no rolls left: at most {most} rolls a turn "
                            "(4 when an elf tops your kingdom pile); claim a citizen or take "
                            "a penalty", most=state.max_rolls)
        raise RuleError("no_rolls_left", "no rolls left: at most {most} rolls a turn; claim "
                        "a citizen or take a penalty", most=state.max_rolls)
    if len(action.roll) != state.box.dice:
        raise RuleError("dice_count", "a roll has {dice} dice, not {count}",
                        dice=state.box.dice, count=len(action.roll))
    return replace(state, roll=action.roll, rolls_used=state.rolls_used + 1,
                   last=f"{state.current_player} rolled {action.roll}")


def _fix(state: GameState, action: Fix) -> GameState:
    """A correction of the current roll, die by die, in one step; it uses no roll."""
    _need_phase(state, "rolling", "correct a die")
    if state.roll is None:
        raise RuleError("no_roll_to_fix", "there is no roll to correct yet")
    positions = [p for p, _ in action.dice]
    if len(set(positions)) != len(positions):
        raise RuleError("fix_twice", "a die is corrected twice in one fix")
    roll = state.roll
    words = []
    for position, die in action.dice:
        if not 1 <= position <= len(roll):
            raise RuleError("no_die", "there is no die {position}; dice are 1-{dice}",
                            position=position, dice=len(roll))
        words.append(f"die {position} corrected from {roll[position - 1]} to {die}")
        roll = roll.replace(position - 1, die)
    return replace(state, roll=roll, last="; ".join(words))


def _take(state: GameState, pile: tuple[str, ...], slot: int, row: tuple[str | None, ...],
          villages: tuple[tuple[str, ...], ...], with_village: bool = True
          ) -> tuple[tuple[str, ...], tuple[str | None, ...], tuple[tuple[str, ...], ...], Card]:
    """Take the citizen in ``slot`` onto ``pile``, with the top village card above it when
    the colours match (unless ``with_village`` is False); a dragon is set aside to be given.

    Returns the new pile, row and village stacks and the card taken (nothing is changed in
    place)."""
    cid = row[slot - 1]
    assert cid is not None
    card = state.box.card(cid)
    row = _set(row, slot - 1, None)
    stack = villages[slot - 1]
    if with_village and card.village is not None and stack:
        village = state.box.card(stack[0])
        if village.village == card.village:
            pile = (*pile, village.id)  # the village goes under the citizen
            villages = _set(villages, slot - 1, stack[1:])
    if card.effect != "give_away":
        pile = (*pile, card.id)
    return pile, row, villages, card


def _claim(state: GameState, claim: Claim) -> GameState:
    """Step 2a: the citizen in the claimed slot, with its matching village card and, for
    the hypnotist, the card to its right; the player may leave the village and the bonus
    card ("darfst" in the German rules)."""
    slot = claim.slot
    _need_phase(state, "rolling", "claim a citizen")
    if state.roll is None:
        raise RuleError("claim_before_roll", "roll the dice first: a citizen is claimed with "
                        "a roll")
    cid = state.row[slot - 1] if 1 <= slot <= len(state.row) else None
    if cid is None:
        raise RuleError("no_citizen", "there is no citizen in slot {slot}; slots are "
                        "1-{slots}", slot=slot, slots=len(state.row))
    box = state.box
    card = box.card(cid)
    verdict = card.check(state.roll)
    if not verdict.satisfied:
        raise RuleError("not_satisfied", "the roll {roll} does not satisfy the {card} ({rule}): "
                        "{missing} dice missing", roll=str(state.roll), card=bare_name(card),
                        rule=card.requirement.describe() if card.requirement else "",
                        card_de=bare_name(card, "de"),
                        rule_de=card.requirement.describe("de") if card.requirement else "",
                        missing=verdict.missing)
    before = state.kingdoms[state.current]
    pile, row, villages, taken = _take(state, before, slot, state.row, state.villages,
                                       claim.village)
    taken_cards = [taken]
    if (claim.bonus and taken.effect == "bonus_card" and slot < len(row)
            and row[slot] is not None):
        pile, row, villages, bonus = _take(state, pile, slot + 1, row, villages,
                                           claim.village)
        taken_cards.append(bonus)
    dragons = tuple(c.id for c in taken_cards if c.effect == "give_away")
    gained = [c for c in pile[len(before):] if box.card(c).kind == "village"]
    words = " and ".join(c.id for c in taken_cards)
    if gained:
        words += f" with village {', '.join(gained)}"
    return _after_taking(
        state, row=row, villages=villages,
        kingdoms=_set(state.kingdoms, state.current, pile),
        dragons_to_give=dragons,
        extra_turn=any(c.effect == "extra_turn" for c in taken_cards),
        last=f"{state.current_player} claimed {words}",
    )


def _give(state: GameState, action: Give) -> GameState:
    """A dragon taken goes on top of another player's kingdom pile."""
    _need_phase(state, "give", "give a dragon")
    to = _player_index(state, action.player)
    if to == state.current:
        raise RuleError("keep_dragon", "a dragon must be given to another player, not kept")
    dragon, rest = state.dragons_to_give[0], state.dragons_to_give[1:]
    s = replace(state, kingdoms=_set(state.kingdoms, to, (*state.kingdoms[to], dragon)),
                dragons_to_give=rest,
                last=f"{state.current_player} gave {dragon} to {state.players[to]}")
    if rest:
        return s
    return replace(s, phase="over" if s.ended_by else "draw")


def _penalty(state: GameState, action: Penalty) -> GameState:
    """Step 2b: only when no face-up citizen is satisfied, the top penalty card; the
    rightmost citizen is discarded."""
    _need_phase(state, "rolling", "take a penalty")
    if state.roll is None:
        raise RuleError("penalty_before_roll", "roll the dice first: a penalty comes only "
                        "after a roll")
    satisfied = state.claimable_slots()
    if satisfied:
        raise RuleError("penalty_satisfied", "a penalty is taken only when no face-up "
                        "citizen is satisfied; this roll satisfies slot {slots}",
                        slots=", ".join(map(str, satisfied)))
    box = state.box
    card = next((p for p in state.penalty_pile if box.card(p).points == action.points), None)
    if card is None:
        raise RuleError("no_penalty_card", "no penalty card worth {points} is left (left: "
                        "{left})", points=action.points,
                        left=", ".join(str(v) for v in state.penalty_values_left()))
    pile = list(state.penalty_pile)
    pile.remove(card)
    discarded = state.row[-1]
    return _after_taking(
        state, penalty_pile=tuple(pile),
        kingdoms=_set(state.kingdoms, state.current, (*state.kingdoms[state.current], card)),
        row=_set(state.row, len(state.row) - 1, None),
        discard=state.discard + ((discarded,) if discarded else ()),
        last=f"{state.current_player} took a penalty ({action.points}); "
             f"{discarded} discarded",
    )


def _draw(state: GameState, action: Draw) -> GameState:
    """Step 3: a citizen from the pile into the rightmost empty slot; the next turn begins
    when the row is full, the game ends when the pile is empty."""
    _need_phase(state, "draw", "draw a card")
    _check_drawable(state, action.card)
    row, empties = _shift_right(state.row)
    s = replace(state, row=_set(row, empties - 1, action.card), drawn=state.drawn + 1,
                last=f"{action.card} drawn into slot {empties}")
    if s.draw_pile_size == 0:
        return replace(s, phase="over", ended_by="the last citizen was drawn")
    if None in s.row:
        return s
    return _next_turn(s)


def _after_taking(state: GameState, **changes: object) -> GameState:
    """Finish step 2: end the game if a pile ran out, else ask for gifts or refills.

    The row is shifted right at once (step 3), so the empty slots are the leftmost.
    """
    s = replace(state, **changes)  # type: ignore[arg-type]
    s = replace(s, row=_shift_right(s.row)[0])
    emptied = [i for i, stack in enumerate(s.villages) if not stack and state.villages[i]]
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


def invariant_problems(state: GameState) -> list[str]:
    """Cards held twice or lost: every card of the box is in exactly one place."""
    held = Counter(state.all_cards())
    problems = [f"{cid} is held {n} times" for cid, n in held.items() if n > 1]
    expected = len(state.box.villages) + len(state.box.penalties) + len(state.box.citizens)
    in_pile = len(state.box.citizens) - state.box.row_size - state.drawn
    if state.phase != "setup" and len(held) + in_pile != expected:
        problems.append(f"{expected - len(held) - in_pile} cards are missing")
    return problems

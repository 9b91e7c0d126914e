"""King of the Dice (HABA), the first game pack: six HABA dice, citizens, villages, dragons.

:class:`KingOfTheDice` is the pack (:class:`rules.pack.GamePack`): its dice, its box of
cards (:mod:`rules.kotd.cards`, read from ``data/king-of-the-dice.toml``), its requirement
kinds (:mod:`rules.kotd.requirements`), its turn as a fold (:mod:`rules.kotd.game`), its
scoring (:mod:`rules.kotd.score`), its view (:mod:`rules.kotd.view`) and its advisor
(:mod:`rules.kotd.advisor`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rules.actions import Action, Fix, Rolled, Seen
from rules.kotd.actions import Claim, parse_action
from rules.kotd.cards import Box, load_box
from rules.kotd.game import GameState, apply, new_game
from rules.pack import DiceSpec, Lights, Progress
from rules.record import GameRecord


class KingOfTheDice:
    """The game pack for one box of King of the Dice cards (the built-in one by default)."""

    id = "kotd"

    def __init__(self, box: Box | None = None) -> None:
        self.box = box or load_box()

    @classmethod
    @cache
    def default(cls) -> KingOfTheDice:
        """The pack with the built-in box (one per process)."""
        return cls()

    @property
    def title(self) -> Mapping[str, str]:
        return self.box.name

    @property
    def dice(self) -> DiceSpec:
        return DiceSpec(self.box.dice, colored=True, look=self.box.look)

    def parse_action(self, line: str) -> Action:
        return parse_action(line, self.box.dice)

    def new_game(self, players: tuple[str, ...]) -> GameState:
        return new_game(players, self.box)

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action)

    def dice_in_play(self, state: GameState | None) -> int | None:
        return self.box.dice

    def seen(self, state: GameState | None, seen: Seen) -> Action | None:
        """A second reading of the dice on the table corrects the current roll, every
        changed die in one ``fix`` (nothing when no die changed); anything else is a roll.

        A second reading is a correction only while the player is rolling and has a roll;
        otherwise (a new turn, no roll yet) it is the turn's roll.
        """
        if (seen.reread and state is not None and state.phase == "rolling"
                and state.roll is not None and len(state.roll) == len(seen.roll)):
            changed = tuple((i, new) for i, (old, new)
                            in enumerate(zip(state.roll, seen.roll, strict=True), start=1)
                            if old != new)
            return Fix(changed) if changed else None
        return Rolled(seen.roll)

    def narrate(self, lines: list[str], lang: str) -> list[str]:
        """A stored game's lines as sentences for the players (:mod:`rules.kotd.words`)."""
        from rules.kotd.words import narrate

        return narrate(self, lines, lang)

    def view(self, record: GameRecord[GameState], lang: str) -> dict[str, Any]:
        from rules.kotd.view import table_view

        return table_view(record, lang)

    def lights(self, state: GameState | None) -> Lights:
        if state is None or state.phase != "rolling":
            return Lights(max_rolls=self.box.rolls)
        slots = state.claimable_slots()
        # the penalty LED only when the player must take one: nothing fits, no roll left
        return Lights(state.rolls_used, state.max_rolls, slots,
                      penalty=state.roll is not None and not slots and state.rolls_left == 0)

    def progress(self, state: GameState) -> Progress:
        """After an extra turn (a dragon given away, ...) the same player throws next."""
        n = len(state.players)
        following = state.current if state.extra_turn else (state.current + 1) % n
        return Progress(state.phase == "over", state.turn, state.current_player,
                        state.players[following])

    def take_in(self, state: GameState | None, slot: int) -> Action:
        """Claim the citizen in ``slot`` (the slots are the row's, whatever the state)."""
        return Claim(slot)

    def take_leaving(self, state: GameState | None, slot: int) -> Action:
        """Claim the citizen in ``slot`` but leave its village card and the hypnotist's
        bonus card (the panel's long press)."""
        return Claim(slot, village=False, bonus=False)

    def catalogue(self, lang: str) -> dict[str, Any]:
        from rules.kotd.view import card_catalogue

        return card_catalogue(self.box, lang)

    def advise(self, state: GameState) -> dict[str, Any] | None:
        from rules.kotd.advisor import advise_table

        return advise_table(state)

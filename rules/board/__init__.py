"""King of the Dice: The Board Game (HABA 2021), the third game pack: the same six dice.

Players throw the six coloured dice to hire citizens from a labour market of five decks,
whose cards carry dice conditions (:mod:`conditions`, cards as data in
``rules/board/data/board.toml``: :mod:`deck`); pairs of owned cards add dice as jokers
(:mod:`jokers`); :mod:`check` tells which cards a roll meets and what jokers could do;
:mod:`game` folds a game over the action words (:mod:`actions`); :mod:`score` counts the
final sheet; :mod:`view` draws the table as data; :mod:`words` tells a stored game in
sentences (the history). :class:`BoardGame` is the pack (:class:`rules.pack.GamePack`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rules.actions import Action, Fix, Rolled, Seen
from rules.board.actions import Take, parse_action
from rules.board.deck import Deck, load_deck
from rules.board.game import THROWS, GameState, apply, new_game
from rules.pack import DiceSpec, Lights, Progress
from rules.record import GameRecord


class BoardGame:
    """The game pack for one deck file (the built-in one by default)."""

    id = "board"

    def __init__(self, deck: Deck | None = None) -> None:
        self.deck = deck or load_deck()

    @classmethod
    @cache
    def default(cls) -> BoardGame:
        """The pack with the built-in deck file (one per process)."""
        return cls()

    @property
    def title(self) -> Mapping[str, str]:
        return self.deck.name

    @property
    def dice(self) -> DiceSpec:
        return DiceSpec(6, colored=True)

    def parse_action(self, line: str) -> Action:
        return parse_action(line)

    def new_game(self, players: tuple[str, ...]) -> GameState:
        return new_game(players, self.deck)

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action)

    def dice_in_play(self, state: GameState | None) -> int | None:
        return 6

    def seen(self, state: GameState | None, seen: Seen) -> Action | None:
        """A second reading corrects the roll on the table (one ``fix``); otherwise the
        camera's roll is the next throw while throws are left, and nothing after."""
        if state is None or state.over or state.turn.taken is not None:
            return None
        t = state.turn
        if seen.reread and t.throws and len(t.dice) == len(seen.roll):
            changed = tuple((i, new) for i, (old, new)
                            in enumerate(zip(t.dice, seen.roll, strict=True), start=1)
                            if old != new)
            return Fix(changed) if changed else None
        if t.throws >= THROWS or t.added:
            return None
        return Rolled(seen.roll)

    def view(self, record: GameRecord[GameState], lang: str) -> dict[str, Any]:
        from rules.board.view import table_view

        return table_view(record.state, lang)

    def lights(self, state: GameState | None) -> Lights:
        """Throws used; a light for each deck whose card the dice meet (deck = slot); the
        'bad outcome' light when the roll meets nothing: take a card face down."""
        if state is None or state.over or state.turn.taken is not None:
            return Lights(max_rolls=THROWS)
        t = state.turn
        dice = (*t.dice, *t.added)
        slots = tuple(d for d, c in state.face_up().items() if t.throws
                      and c.condition.meets(dice))
        return Lights(t.throws, THROWS, slots, penalty=bool(t.throws) and not slots)

    def progress(self, state: GameState) -> Progress:
        """The next seat throws next (the game gives no extra turn)."""
        following = state.players[(state.current + 1) % len(state.players)].name
        return Progress(state.over, state.number, state.current_player, following)

    def take_in(self, state: GameState | None, slot: int) -> Action:
        """The panel's confirm: take the card of that deck; with nothing met, face down."""
        if state is not None and state.turn.throws and not state.met_by_roll():
            return Take(slot, face_down=True)
        return Take(slot)

    def take_leaving(self, state: GameState | None, slot: int) -> Action:
        """Nothing to leave in this game: the long press takes as the short one."""
        return self.take_in(state, slot)

    def narrate(self, lines: list[str], lang: str) -> list[str]:
        """A stored game's lines as sentences for the players (:mod:`rules.board.words`)."""
        from rules.board.words import narrate

        return narrate(self.deck, lines, lang)

    def catalogue(self, lang: str) -> dict[str, Any]:
        from rules.board.view import deck_catalogue

        return deck_catalogue(self.deck, lang)

    def advise(self, state: GameState) -> dict[str, Any] | None:
        return None  # the joker check is part of the view

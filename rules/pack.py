"""A game as a pack: everything the table, store, eye, panel, page and CLI need of a game.

A pack brings its dice, its cards (as data), its requirement kinds, its turn as a fold over
typed actions, its scoring and its view. The rest of the assistant takes the pack as a
parameter and knows no game by heart. King of the Dice (:mod:`rules.kotd`) is the first;
:func:`rules.games.game_pack` finds a pack by its id (the ``game`` a stored game was played
with, the ``--game`` of the command line).

The fold: ``state = pack.new_game(players)``, then ``state = pack.apply(state, action)``
for each action; a refused action raises :class:`rules.errors.RuleError` and changes
nothing. ``players`` and ``undo`` belong to the record (:mod:`rules.record`), not the fold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rules.actions import Action, Seen
from rules.dice import DiceLook

if TYPE_CHECKING:
    from rules.record import GameRecord

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """The dice a game is played with.

    ``count``: dice in every roll, or None when it changes during a game (the state then
    says how many the camera should see: :meth:`GamePack.dice_in_play`). ``colored``: HABA
    dice whose faces have colours that the rules read. ``look``: what coloured dice look
    like, handed to the dice reader by whoever composes the table (None: ordinary dice).
    """

    count: int | None
    colored: bool
    look: DiceLook | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a game stands, as the table needs it to hold and release a seen roll.

    ``over``: the game has ended (the camera's rolls mean nothing). ``turn``: the turn's
    number, rising through the game. ``player``: whose turn it is. ``next_player``: who
    throws next once the open question is answered (the next seat, or the same player when
    the game gives an extra turn).
    """

    over: bool
    turn: int
    player: str
    next_player: str


@dataclass(frozen=True, slots=True)
class Lights:
    """What the table panel shows: rolls used of the most allowed, the slots that may be
    taken now (1-based), and whether the player must take the bad outcome (a penalty)."""

    rolls_used: int = 0
    max_rolls: int = 3
    slots: tuple[int, ...] = ()
    penalty: bool = False


class GamePack(Protocol[S]):
    """One game. ``S`` is its state type (immutable)."""

    @property
    def id(self) -> str:
        """Short stable name, stored with every game (``"kotd"``)."""

    @property
    def title(self) -> Mapping[str, str]:
        """The game's name by language (``{"en": ..., "de": ...}``)."""

    @property
    def dice(self) -> DiceSpec: ...

    def parse_action(self, line: str) -> Action:
        """Read one action line of this game (:class:`rules.errors.ActionSyntaxError`)."""

    def new_game(self, players: tuple[str, ...]) -> S:
        """The state before the first move (RuleError for a wrong number of players)."""

    def apply(self, state: S, action: Action) -> S:
        """The state after ``action`` (RuleError, nothing changed, if the rules refuse)."""

    def dice_in_play(self, state: S | None) -> int | None:
        """How many dice a roll has now (what the camera waits for)."""

    def seen(self, state: S | None, seen: Seen) -> Action | tuple[Action, ...] | None:
        """What a roll the camera saw means in ``state``: a roll, a correction of the roll
        on the table (a second reading), several actions in order (dice set aside, then the
        rest thrown), or None (nothing changed)."""

    def view(self, record: GameRecord[S], lang: str) -> dict[str, Any]:
        """The whole table as JSON-able data, in ``lang`` (what the page renders)."""

    def lights(self, state: S | None) -> Lights:
        """What the panel's LEDs show for ``state`` (None: no game)."""

    def progress(self, state: S) -> Progress:
        """Where the game ``state`` stands: over or not, turn, whose turn, who is next."""

    def take_in(self, state: S | None, slot: int) -> Action:
        """The action that takes the card of the panel's LED ``slot`` (1-based) in
        ``state`` (the panel's confirm button)."""

    def take_leaving(self, state: S | None, slot: int) -> Action:
        """The panel's long press on confirm: take the card of ``slot`` but leave what the
        game lets a player leave (King of the Dice: the village and the bonus card); a
        game with nothing to leave takes as :meth:`take_in` does."""

    def narrate(self, lines: list[str], lang: str) -> list[str]:
        """A stored game's action lines as one sentence each for the players, in
        ``lang`` (the history page)."""

    def catalogue(self, lang: str) -> dict[str, Any]:
        """Every card of the box with its name and rule in ``lang`` (the page's pickers)."""

    def advise(self, state: S) -> dict[str, Any] | None:
        """Odds and the best keep for ``state``, or None when there is nothing to advise."""

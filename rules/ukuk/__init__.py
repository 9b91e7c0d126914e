"""Um Krone und Kragen (To Court the King), the second game pack: ordinary dice, a court.

Players bribe a royal court with ordinary dice. Each court card costs a dice pattern and,
once owned, grants an ability that adds or changes dice. The court is one data file
(``rules/ukuk/data/um-krone-und-kragen.toml``); this package reads it (``court``), judges
costs (``costs``), checks and enumerates ability uses (``abilities``), reads the action
words (``actions``), folds a game over them (``game``), places the players after the final
round (``placing``), finds which cards the dice can still reach without luck (``reach``)
and draws the table as data (``view``). :class:`UmKroneUndKragen` is the pack
(:class:`rules.pack.GamePack`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

from rules.actions import Action, Fix, Rolled, Seen
from rules.dice import Die
from rules.pack import DiceSpec, Lights, Progress
from rules.record import GameRecord
from rules.ukuk.actions import Bid, Buy, Pass, SetAside, parse_action
from rules.ukuk.court import Court, load_court
from rules.ukuk.game import GameState, apply, new_game

SLOTS = 5
"""The panel has five card LEDs: the first five cards the result buys, highest row first."""


class UmKroneUndKragen:
    """The game pack for one court (the built-in one by default)."""

    id = "ukuk"

    def __init__(self, court: Court | None = None) -> None:
        self.court = court or load_court()

    @classmethod
    @cache
    def default(cls) -> UmKroneUndKragen:
        """The pack with the built-in court (one per process)."""
        return cls()

    @property
    def title(self) -> Mapping[str, str]:
        return self.court.name

    @property
    def dice(self) -> DiceSpec:
        return DiceSpec(None, colored=False)

    def parse_action(self, line: str) -> Action:
        return parse_action(line)

    def new_game(self, players: tuple[str, ...]) -> GameState:
        return new_game(players, self.court)

    def apply(self, state: GameState, action: Action) -> GameState:
        return apply(state, action)

    def dice_in_play(self, state: GameState | None) -> int | None:
        """Dice the current player has: in hand, in play and set aside."""
        if state is None or state.over:
            return None
        d = state.dice
        return d.hand + len(d.active) + len(d.aside)

    def seen(self, state: GameState | None,
             seen: Seen) -> Action | tuple[Action, ...] | None:
        """What the camera's settled picture means (``hardware.md``: the set-aside strip).

        ``seen.roll`` are the dice in play; ``seen.aside`` those in the set-aside strip, or
        None when set-aside dice leave the camera's view instead (a dish beside the tray).
        Before the turn's first throw, the dice in play are the throw. After it: dice that
        went from play to the strip (or out of view) are set aside; dice in play showing
        other numbers, as many as are still active, are a new throw (both may come from
        one picture when the strip says which dice went aside). A second reading
        (``reread``) that differs from the game corrects it: one ``fix``.
        """
        if state is None or state.over:
            return None
        d = state.dice
        play = Counter(seen.roll.values)
        strip = None if seen.aside is None else Counter(seen.aside.values)
        if seen.reread:
            return _correction(d.active, d.aside, play, strip)
        if d.throws == 0:
            return Rolled(seen.roll) if play.total() == d.hand + len(d.active) else None
        active = Counter(d.active)
        if strip is None:  # set-aside dice leave the camera's view
            if not play - active and play != active:
                return SetAside(tuple(sorted((active - play).elements())))
            if d.aside_since_throw and play.total() == active.total() and play != active:
                return Rolled(seen.roll)
            return None
        gone = strip - Counter(d.aside)
        if gone - active:
            return None  # dice in the strip the game does not know: ask for a re-read
        left = active - gone
        actions: list[Action] = [SetAside(tuple(sorted(gone.elements())))] if gone else []
        if play != left:
            if not ((gone or d.aside_since_throw) and left.total()
                    and play.total() == left.total()):
                return None
            actions.append(Rolled(seen.roll))
        if not actions:
            return None
        return tuple(actions) if len(actions) > 1 else actions[0]

    def narrate(self, lines: list[str], lang: str) -> list[str]:
        """A stored game's lines as sentences for the players (:mod:`rules.ukuk.words`)."""
        from rules.ukuk.words import narrate

        return narrate(self.court, lines, lang)

    def view(self, record: GameRecord[GameState], lang: str) -> dict[str, Any]:
        from rules.ukuk.view import table_view
        from rules.ukuk.words import said

        view = table_view(record.state, [str(a) for a in record.actions], lang)
        if record.actions:
            view["last_said"] = said(record.states[-2], record.actions[-1], record.state, lang)
        return view

    def buys(self, state: GameState) -> tuple[str, ...]:
        """The cards the finished result buys, highest row first (the panel's slots)."""
        if state.final or not state.dice.done:
            return ()
        rows = {r: i for i, r in enumerate(("0", "I", "II", "III", "IV", "V"))}
        cards = sorted(state.affordable(), key=lambda c: -rows[c.row])
        return tuple(c.id for c in cards)

    def lights(self, state: GameState | None) -> Lights:
        """Throws so far (four LEDs), one LED per card the finished result buys (highest row
        first), and the 'bad outcome' LED when the result buys nothing: pass (or bid)."""
        if state is None or state.over:
            return Lights(max_rolls=0)
        d = state.dice
        slots = tuple(range(1, min(SLOTS, len(self.buys(state))) + 1))
        return Lights(min(d.throws, 4), 0, slots, penalty=d.done and not slots)

    def progress(self, state: GameState) -> Progress:
        """The next seat throws next (the game gives no extra turn)."""
        following = state.players[(state.current + 1) % len(state.players)]
        return Progress(state.over, state.turn, state.current_player, following)

    def take_in(self, state: GameState | None, slot: int) -> Action:
        """The panel's confirm: buy the card of that LED; with nothing to buy, pass or bid."""
        if state is not None and state.dice.done:
            if state.final:
                return Bid()
            cards = self.buys(state)
            if not cards:
                return Pass()
            return Buy(cards[min(slot, len(cards)) - 1])
        return Buy("?")

    def take_leaving(self, state: GameState | None, slot: int) -> Action:
        """Nothing to leave in this game: the long press takes as the short one."""
        return self.take_in(state, slot)

    def catalogue(self, lang: str) -> dict[str, Any]:
        from rules.ukuk.view import court_catalogue

        return court_catalogue(self.court, lang)

    def advise(self, state: GameState) -> dict[str, Any] | None:
        return None  # the reach is part of the view


def _correction(active: tuple[int, ...], aside: tuple[int, ...], play: Counter[int],
                strip: Counter[int] | None) -> Fix | None:
    """One ``fix`` that makes the game's dice what a second reading saw (dice listed as
    the table lists them: active first, then set aside); None if nothing differs or the
    numbers of dice do not match."""
    changes: list[tuple[int, Die]] = []
    for offset, dice, now in ((0, active, play), (len(active), aside, strip)):
        if now is None:
            continue
        was = Counter(dice)
        if now.total() != was.total():
            return None
        wrong = was - now
        right = iter(sorted((now - was).elements()))
        for i, value in enumerate(dice):
            if wrong[value]:
                wrong[value] -= 1
                changes.append((offset + i + 1, Die(next(right))))
    return Fix(tuple(changes)) if changes else None

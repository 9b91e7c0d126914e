"""The action words of the board game, beside the shared ``players``, ``roll``, ``fix``,
``undo``::

    players Kriszti Miki Norbi      a new game, in seating order (2-4); Kriszti starts
    card d3-1 3 1g pips 6 1 3       a card entered at the table: id, deck, joker, condition
    card d2-1 2 5g steal_gem sum r 12   ... a thief names its theft
    top 3 trainer-6-1-3             the card now face up on deck 3 (the labour market)
    top 3 -                         deck 3 is used up
    tiles 24                        castle tiles left in the supply (the count on the table)
    roll 4r 4g 4b 1r 2g 6b          the six dice after a throw (at most three throws)
    discard scoundrel-red-6 land-developer-red-6    two cards for their joker's die
    discard land-developer-red-6 super              a concrete joker and a super joker
    discard super super 1g          two super jokers for any die (named)
    take 3                          take deck 3's card face up (the roll meets it)
    down 3                          nothing is met: take deck 3's card face down, alarm
                                    the dragon
    gem white                       a gem found on a field you took (white or gold)
    steal Norbi trainer-6-1-3       the thief: a face-up card from another player
    steal Norbi gold                ... or a gem
    fire                            the dragon trainer: a dragon fire replaced by a marker
    replace Nelli                   the scoundrel: a neighbour's marker replaced by yours
    done                            the turn's effects are carried out: next player
    sheet Kriszti 3 5               final scoring: castles in the largest area, fields outside

A player's cards are named by the card's id; ``super`` is one of their cards taken face
down. Every action has a canonical text form (``str(action)``) that :func:`parse_action`
reads back; the event store keeps exactly that text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import (
    Action,
    Fix,
    Players,
    Rolled,
    Undo,
    need,
    parse_line,
    player_name,
    vocabulary,
    whole_number,
)
from rules.board.conditions import ConditionError, die
from rules.dice import Die
from rules.errors import ActionSyntaxError

SUPER = "super"
GEMS = ("white", "gold")


def _deck(word: str, usage: str) -> int:
    n = whole_number(word, "the deck", usage)
    if not 1 <= n <= 5:
        raise ActionSyntaxError("board_deck", "the deck is 1-5, not {n}; usage: {usage}", n=n,
                                usage=usage)
    return n


@dataclass(frozen=True, slots=True)
class Top:
    """The card now face up on a deck (``None``: the deck is used up)."""

    deck: int
    card: str | None
    verb: ClassVar[str] = "top"
    usage: ClassVar[str] = "top DECK CARD (or - for a used-up deck)"

    def __str__(self) -> str:
        return f"top {self.deck} {self.card or '-'}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Top:
        need(cls.verb, cls.usage, args, n=2)
        return cls(_deck(args[0], cls.usage), None if args[1] == "-" else args[1].lower())


@dataclass(frozen=True, slots=True)
class Enter:
    """A card entered at the table as the players see it: its id, deck, concrete joker,
    for a thief its theft, and its condition in the text form."""

    id: str
    deck: int
    joker: str
    effect: str | None
    condition: str
    verb: ClassVar[str] = "card"
    usage: ClassVar[str] = "card ID DECK JOKER [steal_card|steal_gem] CONDITION"

    def __str__(self) -> str:
        effect = f" {self.effect}" if self.effect else ""
        return f"card {self.id} {self.deck} {self.joker}{effect} {self.condition}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Enter:
        need(cls.verb, cls.usage, args, at_least=5)
        effect = args[3].lower() if args[3].lower() in ("steal_card", "steal_gem") else None
        rest = args[4 if effect else 3:]
        if not rest:
            need(cls.verb, cls.usage, args, at_least=6)
        return cls(args[0].lower(), _deck(args[1], cls.usage), args[2].lower(), effect,
                   " ".join(rest))

    def data(self) -> dict[str, object]:
        d: dict[str, object] = {"id": self.id, "deck": self.deck, "joker": self.joker,
                                "condition": self.condition}
        if self.effect:
            d["effect"] = self.effect
        return d


@dataclass(frozen=True, slots=True)
class Tiles:
    """Castle tiles left in the supply, as counted on the table (a correction)."""

    count: int
    verb: ClassVar[str] = "tiles"
    usage: ClassVar[str] = "tiles COUNT"

    def __str__(self) -> str:
        return f"tiles {self.count}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Tiles:
        need(cls.verb, cls.usage, args, n=1)
        n = whole_number(args[0], "the tiles", cls.usage)
        if not 0 <= n <= 28:
            raise ActionSyntaxError("board_tiles", "tiles is 0-28, not {n}", n=n)
        return cls(n)


@dataclass(frozen=True, slots=True)
class Discard:
    """Two of the player's cards discarded for one die: ``cards`` are card ids or
    ``super``; ``die`` is the die two super jokers stand for (otherwise the joker's)."""

    cards: tuple[str, str]
    die: Die | None = None
    verb: ClassVar[str] = "discard"
    usage: ClassVar[str] = "discard CARD CARD [DIE] (a card id or super; two supers: name the die)"

    def __str__(self) -> str:
        return f"discard {self.cards[0]} {self.cards[1]}" + (f" {self.die}" if self.die else "")

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Discard:
        need(cls.verb, cls.usage, args, at_least=2)
        if len(args) > 3:
            need(cls.verb, cls.usage, args, n=3)
        shown = None
        if len(args) == 3:
            try:
                shown = die(args[2])
            except ConditionError as err:
                raise err.within("discard: ", ActionSyntaxError) from None
        return cls((args[0].lower(), args[1].lower()), shown)


@dataclass(frozen=True, slots=True)
class Take:
    """Take the face-up card of a deck: face up (the dice meet it) or face down."""

    deck: int
    face_down: bool = False
    verb: ClassVar[str] = "take"
    usage: ClassVar[str] = "take DECK"

    def __str__(self) -> str:
        return f"{'down' if self.face_down else 'take'} {self.deck}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Take:
        need(cls.verb, cls.usage, args, n=1)
        return cls(_deck(args[0], cls.usage))


class Down:
    """``down DECK``: nothing is met; take that card face down and alarm the dragon (read
    as a :class:`Take` face down)."""

    verb: ClassVar[str] = "down"
    usage: ClassVar[str] = "down DECK"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Take:
        need(cls.verb, cls.usage, args, n=1)
        return Take(_deck(args[0], cls.usage), face_down=True)


@dataclass(frozen=True, slots=True)
class Gem:
    """The current player takes a gem found on a field (white or gold)."""

    kind: str
    verb: ClassVar[str] = "gem"
    usage: ClassVar[str] = "gem white|gold"

    def __str__(self) -> str:
        return f"gem {self.kind}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Gem:
        need(cls.verb, cls.usage, args, n=1)
        if args[0].lower() not in GEMS:
            raise ActionSyntaxError("board_gem", "a gem is white or gold, not {word!r}",
                                    word=args[0])
        return cls(args[0].lower())


@dataclass(frozen=True, slots=True)
class Steal:
    """The thief: a face-up card (by id) or a gem (white, gold) from another player."""

    player: str
    what: str
    verb: ClassVar[str] = "steal"
    usage: ClassVar[str] = "steal PLAYER CARD|white|gold"

    def __str__(self) -> str:
        return f"steal {self.player} {self.what}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Steal:
        need(cls.verb, cls.usage, args, n=2)
        return cls(player_name(args[0]), args[1].lower())


@dataclass(frozen=True, slots=True)
class Fire:
    """The dragon trainer: a dragon fire on the map replaced by the player's marker."""

    verb: ClassVar[str] = "fire"
    usage: ClassVar[str] = "fire"

    def __str__(self) -> str:
        return "fire"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Fire:
        need(cls.verb, cls.usage, args, n=0)
        return cls()


@dataclass(frozen=True, slots=True)
class Replace:
    """The scoundrel: the nearest marker of another player replaced by the player's."""

    player: str
    verb: ClassVar[str] = "replace"
    usage: ClassVar[str] = "replace PLAYER"

    def __str__(self) -> str:
        return f"replace {self.player}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Replace:
        need(cls.verb, cls.usage, args, n=1)
        return cls(player_name(args[0]))


@dataclass(frozen=True, slots=True)
class Done:
    """The turn's effects are carried out: the next player's turn (or the game's end)."""

    verb: ClassVar[str] = "done"
    usage: ClassVar[str] = "done"

    def __str__(self) -> str:
        return "done"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> Done:
        need(cls.verb, cls.usage, args, n=0)
        return cls()


@dataclass(frozen=True, slots=True)
class SheetLine:
    """Final scoring: a player's castles in their largest area and fields outside it."""

    player: str
    largest_area: int
    outside: int
    verb: ClassVar[str] = "sheet"
    usage: ClassVar[str] = "sheet PLAYER CASTLES_IN_LARGEST_AREA FIELDS_OUTSIDE"

    def __str__(self) -> str:
        return f"sheet {self.player} {self.largest_area} {self.outside}"

    @classmethod
    def parse(cls, args: list[str], dice: int | None) -> SheetLine:
        need(cls.verb, cls.usage, args, n=3)
        area = whole_number(args[1], "the castles", cls.usage)
        outside = whole_number(args[2], "the fields outside", cls.usage)
        if not (0 <= area <= 30 and 0 <= outside <= 30):
            raise ActionSyntaxError("board_sheet", "castles and fields are 0-30")
        return cls(player_name(args[0]), area, outside)


VERBS = vocabulary(Players, Enter, Top, Tiles, Rolled, Fix, Discard, Take, Down, Gem, Steal, Fire,
                   Replace, Done, SheetLine, Undo)


def parse_action(line: str) -> Action:
    """Read one action line of the board game."""
    return parse_line(line, VERBS, 6)

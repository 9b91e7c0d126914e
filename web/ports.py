"""What the page needs of the rest of the assistant: two small protocols.

* :class:`TableService`: the game, as :class:`rules.table.Table` offers it (typed actions
  in, versioned snapshots out, the stored games).
* :class:`TableEye`: the camera side (:class:`pi.eye.Eye`): its picture, read again, and
  throw the simulated tray's dice. ``None`` in place of an eye means "no camera": the dice
  are entered by hand. The camera's *status* reaches the page through the table's snapshot.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rules.actions import Action
from rules.dice import Die
from rules.pack import GamePack
from rules.record import GameRecord
from rules.store import Event, GameInfo
from rules.table import Snapshot


@runtime_checkable
class TableEye(Protocol):
    """The camera side as the page sees it."""

    def annotated_jpeg(self) -> bytes | None:
        """The last frame with each die outlined and labelled (JPEG), or None."""

    def reread(self) -> None:
        """Read the dice lying in the tray again."""

    def throw(self) -> bool:
        """Throw the simulated tray's dice; False when the camera is a real one."""


class TableService(Protocol):
    """The game as the page sees it."""

    @property
    def pack(self) -> GamePack[Any]: ...

    @property
    def snapshot(self) -> Snapshot: ...

    @property
    def game_id(self) -> int | None: ...

    def parse(self, line: str) -> Action: ...

    def act(self, action: Action) -> Snapshot: ...

    def confirm_held(self) -> Snapshot: ...

    def fix_held(self, position: int, die: Die) -> Snapshot: ...

    def set_colors(self, colors: dict[str, str]) -> Snapshot: ...
    def act_once(self, action: Action, action_id: str | None) -> tuple[Snapshot, bool]: ...

    def wait(self, version: int, timeout: float) -> Snapshot: ...

    def since(self, version: int) -> list[Snapshot]: ...

    def history(self, game_id: int | None = None) -> list[Event]: ...

    def games(self) -> list[GameInfo]: ...

    def past(self, game_id: int) -> tuple[GameRecord[Any] | None, str | None]: ...

    def advise(self) -> dict[str, Any] | None: ...

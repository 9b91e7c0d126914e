"""What every frame source is: the :class:`FrameSource` face and its :class:`CameraError`.

The cameras (:mod:`pi.sources`) and the simulated tray (:mod:`pi.simtray`) both build on
this; the eye needs nothing else of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # a type only: `kotd check` and the other commands start without NumPy
    import numpy as np


class CameraError(RuntimeError):
    """The frame source failed (unplugged, busy, no frames); the message says which."""


class FrameSource(Protocol):
    """What the roll watcher needs from a camera."""

    name: str

    def open(self) -> None: ...

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...

"""What the camera side offers the page: the :class:`TableEye` protocol.

The Pi process implements it (camera, roll detector, dice reader); the page only asks.
``None`` in place of an eye means "no camera": the dice are entered by hand.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

CAMERA_STATES = ("ok", "lost", "simulated", "none")


@runtime_checkable
class TableEye(Protocol):
    """The camera side as the page sees it.

    ``status()`` returns a dict with the keys ``camera`` ("ok" | "lost" | "simulated" |
    "none"), ``seeing`` (e.g. "still", "moving", "settled", "no dice", "hand in tray"),
    ``dice_seen`` (int) and ``message`` (human text). ``version`` changes whenever the
    status changes, so live pages know to send it again.
    """

    version: int

    def status(self) -> dict[str, Any]: ...

    def annotated_jpeg(self) -> bytes | None: ...

    def reread(self) -> None: ...


NO_EYE_STATUS: dict[str, Any] = {
    "camera": "none", "seeing": "", "dice_seen": 0,
    "message": "no camera: enter the dice by hand",
}


def eye_status(eye: TableEye | None) -> dict[str, Any]:
    """The eye's status with every key present, whatever the eye returned (never raises)."""
    if eye is None:
        return dict(NO_EYE_STATUS)
    try:
        raw = dict(eye.status())
    except Exception as err:  # a broken camera side must not take the page down
        return {"camera": "lost", "seeing": "", "dice_seen": 0,
                "message": f"camera status unavailable: {err}"}
    status = {**NO_EYE_STATUS, "message": ""}
    status.update({k: raw[k] for k in ("camera", "seeing", "dice_seen", "message") if k in raw})
    if status["camera"] not in CAMERA_STATES:
        status["camera"] = "lost"
    return status


def eye_version(eye: TableEye | None) -> int:
    try:
        return int(getattr(eye, "version", 0) or 0)
    except (TypeError, ValueError):
        return 0

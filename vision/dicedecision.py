"""Which of the finder's finds are dice, and how sure the ordinary-dice reader is of each.

Both are fitted on the photos' ``tune`` parts (never on a ``judge`` part) by
``tools/fit_dice_decision.py`` and kept, with the command that fitted them, in
``vision/models/dice_decision.json``; nothing here is set by hand:

* a find is reported only when the networks' chance that it is a die (the finder's
  confidence times the pip reader's chance of "a die", :attr:`FoundDie.sure`) is at least
  :attr:`Decision.keep` (labels, keys and carpet below it are no die);
* how a die the pip reader is unsure of is read again turned (:class:`Turning`): the
  fastest way tried that costs the tune parts no accuracy, silence, questions or flagged
  wrong readings, and rendered trays no silence, against the decision shipped before it
  (a file without it: every unsure die in all four turns);
* its confidence is a logistic function of what the reader knows of it
  (:func:`evidence`): the finder's and the pip reader's confidences, whether the classical
  pip count agrees, and how far its size is from the frame's other dice. The function is
  fitted to say how often such a reading is right, then shifted (:attr:`Decision.shift`)
  so that on every tune part at most :attr:`Decision.silent` of the frames are wrong with
  every reading confident (or further, to the shipped shift or near it, where that keeps
  the guards above): the reader asks about the die it is unsure of rather than guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

DECISION_JSON = Path(__file__).with_name("models") / "dice_decision.json"
CREDIT = ("Fitted on the tune parts of real photos: \"Rune55\" by rune-zkmvl, Roboflow "
          "Universe, CC BY 4.0; matteo-desk (MIT); byler-dev (BSD-3-Clause). Details and "
          "changes: vision/models/NOTICE.md.")
"""The attribution the fitted file carries (the photos' licences ask for it)."""
EVIDENCE = ("finder", "value", "die", "pips agree", "pips disagree", "odd size")
"""The names of :func:`evidence`'s entries, in order."""


def _logit(p: float) -> float:
    q = min(max(p, 1e-4), 1 - 1e-4)
    return float(np.log(q / (1 - q)))


def evidence(found: float, read: float, die: float, pips: int | None, value: int,
             odd_size: float) -> np.ndarray:
    """What the reader knows of one find, as the decision weighs it: the logits of the
    finder's confidence ``found``, the pip reader's probability of the value ``read`` and
    of a die at all ``die``; 1 where the classical pip count agrees with ``value`` (else 0),
    1 where it disagrees; and ``odd_size``, |log| of the find's side over the median side
    of the frame's finds."""
    return np.array([_logit(found), _logit(read), _logit(die),
                     float(pips is not None and pips == value),
                     float(pips is not None and pips != value), odd_size], np.float64)


@dataclass(frozen=True)
class Turning:
    """How the pip reader reads a die it is unsure of (:meth:`vision.dicenet.DiceNet.look`):
    a first reading with no class at :attr:`sure` is read again in the quarter turns
    :attr:`turns` and the readings averaged; a die still unsure then (and with no neighbour
    close) is looked at again wider (:attr:`Decision.wider`), as it lies and in the quarter
    turns :attr:`wide_turns`. The defaults are the reader before the fitting chose
    (every unsure die in all four turns)."""

    sure: float = 0.98
    turns: tuple[int, ...] = (1, 2, 3)
    wide_turns: tuple[int, ...] = (1, 2, 3)

    def to_json(self) -> dict[str, object]:
        return {"sure": self.sure, "turns": list(self.turns), "wide_turns": list(self.wide_turns)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Turning:
        turns, wide = data["turns"], data["wide_turns"]
        assert isinstance(turns, list) and isinstance(wide, list)
        return cls(float(data["sure"]), tuple(int(t) for t in turns),  # type: ignore[arg-type]
                   tuple(int(t) for t in wide))


@dataclass(frozen=True)
class Decision:
    """The fitted decision (see the module notes)."""

    keep: float
    weights: tuple[float, ...]
    bias: float
    shift: float
    silent: float = 0.01
    fitted_by: str = ""
    wider: float | None = None
    """The margin (in die sides) of a second look at an unsure die with no neighbour that
    close (:meth:`vision.dicenet.DiceNet.look_wider`); None: no second look."""
    turning: Turning = field(default_factory=lambda: Turning())
    """Which dice the pip reader reads again turned, and in which turns."""

    def confidence(self, evidence: np.ndarray) -> float:
        """The chance that a reading with this :func:`evidence` is right, shifted down by
        :attr:`shift` (in logits) so that a sure frame is seldom wrong."""
        z = float(np.dot(self.weights, evidence)) + self.bias - self.shift
        return float(1.0 / (1.0 + np.exp(-z)))

    def to_json(self) -> dict[str, object]:
        return {"keep": self.keep, "evidence": list(EVIDENCE), "weights": list(self.weights),
                "bias": self.bias, "shift": self.shift, "silent": self.silent,
                "wider": self.wider, "turning": self.turning.to_json(),
                "fitted_by": self.fitted_by, "credit": CREDIT}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Decision:
        if data.get("evidence") != list(EVIDENCE):
            raise ValueError(f"{DECISION_JSON.name}: fitted on other evidence "
                             f"({data.get('evidence')}); refit it")
        weights = data["weights"]
        assert isinstance(weights, list)
        return cls(float(data["keep"]), tuple(float(w) for w in weights),  # type: ignore[arg-type]
                   float(data["bias"]), float(data["shift"]),  # type: ignore[arg-type]
                   float(data["silent"]), str(data.get("fitted_by", "")),  # type: ignore[arg-type]
                   None if data.get("wider") is None else float(data["wider"]),  # type: ignore[arg-type]
                   Turning.from_json(turning) if isinstance(turning := data.get("turning"), dict)
                   else Turning())


@lru_cache(maxsize=1)
def fitted() -> Decision:
    """The decision in :data:`DECISION_JSON`."""
    return Decision.from_json(json.loads(DECISION_JSON.read_text()))


__all__ = ["DECISION_JSON", "EVIDENCE", "Decision", "Turning", "evidence", "fitted"]

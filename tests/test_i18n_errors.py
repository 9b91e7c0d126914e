"""Every coded refusal a player can meet on the page is said in German too: each error code
raised in rules/, web/ and pi/ has a German template (a brute-force scan of the source), and
each template asks only for the params its error gives. Um Krone und Kragen's refusals are
met one by one in tests/test_ukuk_refusals.py."""

from __future__ import annotations

import re
import string
from pathlib import Path

from rules.errors import (
    ActionSyntaxError,
    RollSyntaxError,
    RuleError,
    UnknownCardError,
    UsageError,
)
from rules.inputs import InputTooLarge
from rules.table import ActionIdReused
from web.i18n import ERRORS, say_error

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = {cls.__name__: cls.family for cls in (UsageError, RuleError, ActionSyntaxError,
                                                 RollSyntaxError, UnknownCardError,
                                                 InputTooLarge)}
COMMAND_LINE_ONLY = {"usage.advise", "usage.empty_card", "usage.empty_row", "usage.not_citizen",
                     "usage.fairies", "usage.penalty", "usage.rolls", "usage.rolls_left",
                     "usage.script", "input.too_large"}
"""Refusals of `kotd advise`, `kotd check` and `kotd play`, and of input files and standard
input too large: the page never says them."""
RAISED = re.compile(r"\b(" + "|".join(FAMILIES) + r')\(\s*"([a-z_.]+)"\s*,(.*?)\)\s*(?:from|$)',
                    re.S | re.M)


def raised() -> dict[str, set[str]]:
    """Each code raised in the source, with the names of the params it is raised with."""
    codes: dict[str, set[str]] = {}
    for folder in ("rules", "web", "pi"):
        for path in (ROOT / folder).rglob("*.py"):
            for cls, code, rest in RAISED.findall(path.read_text()):
                full = code if "." in code else f"{FAMILIES[cls]}.{code}"
                codes.setdefault(full, set()).update(re.findall(r"\b(\w+)=", rest))
    return codes


def test_every_refusal_the_page_can_say_has_german_words() -> None:
    codes = raised()
    assert len(codes) > 50  # the scan finds the refusals at all
    missing = sorted(c for c in codes if c not in ERRORS["de"] and c not in COMMAND_LINE_ONLY)
    assert missing == []


def test_a_reused_action_id_is_refused_in_german() -> None:
    err = ActionIdReused("a1", "claim 2")  # raised by its own class, not by a code literal
    assert say_error(err.code, err.params, err.message, "de") == \
        "Die Aktionskennung a1 gehört schon zu „claim 2“."


def test_german_templates_ask_only_for_the_params_their_error_gives() -> None:
    codes = raised()
    for code, template in ERRORS["de"].items():
        if code not in codes:
            continue  # raised where the scan does not look (e.g. built from a table)
        wanted = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert wanted <= codes[code], (code, wanted - codes[code])
        params = {name: f"<{name}>" for name in codes[code]}
        assert say_error(code, params, "english", "de") != "english", code

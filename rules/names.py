"""Player names as the table sees them: one written form per name, nothing hidden in it.

A name is read in Unicode's compatibility form (NFKC: a full-width ``Ａnn`` is ``Ann``, a
ligature is its letters). It is refused when it holds a character no one at the table
can see (a format or control character, a Hangul filler, a blank braille cell, a
variation selector...), or when it mixes writing systems, which is how a look-alike such
as a Cyrillic ``А`` in ``Аnn`` hides. Two players whose names differ only in letter case
are the same name (the game refuses them; see ``rules.game``).

A name needs at least one letter or digit (``..`` and ``-`` are no names) and at most
:data:`MAX_MARKS` accents on one letter (a letter buried under a tower of accents is a
smudge on every phone). Names are one word: a space of any kind inside one (a no-break,
thin or ideographic space, a tab) is refused by the action reader, never taken as two
players (:func:`spaced`). Two players of one game may not have names that look alike
(:func:`look_alike`: Latin ``coe`` and Cyrillic ``сое``, ``Paul`` and ``PauI``): their
*skeletons* are equal, each character replaced by its look-alike class of Unicode's
confusables list (UTS #39; the list as the ``confusable-homoglyphs`` library ships it).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

MAX_NAME = 20
"""The longest name, in characters after normalising."""

SIGNS = "-_'."
"""Besides letters and digits, a name may hold these (Jean-Luc, O'Neil, Dr.)."""

MAX_MARKS = 3
"""The most accents (combining marks) one letter may carry, each counted (decomposed:
Vietnamese ``ệ`` is two)."""

# Letters (category Lo) and symbols that show as nothing: Unicode's Default_Ignorable
# code points outside the format/mark categories, and the blank braille cell.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")

# Categories that never belong in a name: control, format, surrogate, private use,
# unassigned, separators. Combining marks are allowed only after a letter (NFKC has
# already composed the usual accents).
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})


class PlayerNameError(ValueError):
    """Not a usable player name; the message says why."""


def _script(ch: str) -> str | None:
    """The writing system of a letter (``LATIN``, ``CYRILLIC``, ``GREEK``, ``CJK``...),
    None for digits, signs and combining marks, which go with any script."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    word = name.split(" ", 1)[0]
    if word in ("CJK", "HIRAGANA", "KATAKANA"):  # Japanese writes these side by side
        return "CJK"
    return word or None


def shown(ch: str) -> str:
    """A character as a message shows it: itself, or its code point if it cannot be seen."""
    return f"U+{ord(ch):04X}" if not ch.isprintable() or ch in INVISIBLE else repr(ch)


def player_name(word: str) -> str:
    """The name as stored and shown: NFKC-normalised; PlayerNameError if it is not usable."""
    name = unicodedata.normalize("NFKC", word)
    if not name:
        raise PlayerNameError("a player name cannot be empty")
    for ch in word + name:  # as typed, and as normalised
        category = unicodedata.category(ch)
        if ch in INVISIBLE or category in _REFUSED_CATEGORIES or (
                unicodedata.combining(ch) == 0 and category in ("Mn", "Me")):
            raise PlayerNameError(f"player name {word!r}: it holds an invisible character "
                             f"({shown(ch)}); type the name with ordinary letters")
        if not (ch.isalnum() or ch in SIGNS or category.startswith("M")):
            raise PlayerNameError(f"player name {word!r}: use letters or digits (and {SIGNS}), "
                             f"not {shown(ch)}")
    if unicodedata.category(name[0]).startswith("M"):
        raise PlayerNameError(f"player name {word!r}: it starts with a lone accent")
    if not any(ch.isalnum() for ch in name):
        raise PlayerNameError(f"player name {word!r}: it needs a letter or a digit")
    if _most_marks(unicodedata.normalize("NFD", name)) > MAX_MARKS:
        raise PlayerNameError(f"player name {word!r}: too many accents on one letter "
                              f"(at most {MAX_MARKS})")
    if len(name) > MAX_NAME:
        raise PlayerNameError(f"player name {word!r}: use up to {MAX_NAME} letters or digits")
    scripts = {s for s in map(_script, name) if s}
    if len(scripts) > 1:
        raise PlayerNameError(f"player name {word!r} mixes alphabets ({', '.join(sorted(scripts))})"
                         ": it could pass for another name; use one alphabet")
    return name


def _most_marks(name: str) -> int:
    """The longest run of combining marks in ``name`` (accents on one letter)."""
    most = run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch).startswith("M") else 0
        most = max(most, run)
    return most


def spaced(text: str) -> str | None:
    """The first space in ``text`` that is not an ordinary one (a no-break, thin or
    ideographic space, a tab...), or None. NFKC turns most of them into an ordinary
    space, so a name typed with one would silently become two names."""
    return next((ch for ch in text if ch.isspace() and ch != " "), None)


@cache
def _classes() -> dict[str, str]:
    """Each character of Unicode's confusables list -> its class's prototype: an ASCII
    member if there is one, the longest first (the list's prototypes may be sequences:
    ``m`` looks like ``rn``), else the smallest. Built once from the pairs the library
    ships (union-find). The library is imported here, not with the module: its list
    and what it imports (``urllib.request``) take about 40 ms, which every ``kotd``
    command paid though few ever compare names."""
    from confusable_homoglyphs import confusables

    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    marks = "\u200e\u200f"  # the data wraps right-to-left letters in direction marks
    for ch, alikes in confusables.confusables_data.items():
        for alike in alikes:
            a, b = root(ch.strip(marks)), root(alike["c"].strip(marks))
            if a != b:
                parent[max(a, b)] = min(a, b)
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), []).append(x)
    proto = {r: min(group, key=lambda m: (not m.isascii(), -len(m), m))
             for r, group in members.items()}
    return {x: proto[root(x)] for x in parent if len(x) == 1}


def skeleton(name: str) -> str:
    """What ``name`` looks like (UTS #39's skeleton): decomposed, each character replaced
    by its look-alike class's prototype, decomposed again."""
    classes = _classes()
    mapped = "".join(classes.get(ch, ch) for ch in unicodedata.normalize("NFD", name))
    return unicodedata.normalize("NFD", mapped)


def look_alike(names: Sequence[str]) -> tuple[str, str] | None:
    """The first two of ``names`` that look alike at a glance (``coe`` and Cyrillic
    ``сое``: equal skeletons), or None. Names equal but for letter case are left to the
    game's own refusal ("every player needs a different name")."""
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if first.casefold() != second.casefold() and skeleton(first) == skeleton(second):
                return first, second
    return None

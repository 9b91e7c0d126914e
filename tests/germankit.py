"""What is wrong with a German text the page shows: an English word, broken German (an
article before a name that brings its own, "1 Karten", a word said twice, a template left
unfilled). Used by tests/test_german_words.py and the games' story tests."""

from __future__ import annotations

import itertools
import re

ENGLISH = frozenset("""the and or of to is are not no with from left sum turn turns player players
takes took take gives gave comes came roll rolls rolled dice card cards set aside buy
bought bid throw throws threw court round rounds tied points point penalty scoundrel village
row slot taken back holds wins final first last more needed too many few fits camera
check please tap correct right wrong new game over yet then each every any only one
two three your you can cannot must needs said goes keeps""".split())  # noqa: SIM905
"""English words that are no German word (so never "die", "in", "also", "man" ...)."""
PLURAL_NOUNS = ("Karten", "Würfe", "Aktionen", "Punkte", "Runden", "Minuspunkte", "Züge",
                "Strafkarten", "Hofleute", "Orte", "Bürger-Karten")
ARTICLE_NAMES = re.compile(r"\b(der|die|das|den|dem|des|ein|eine|einen|nimmt|Die Karte)\s+"
                           r"(Der|Die|Das)\s+[A-ZÄÖÜ]")
QUOTED = re.compile(r"„[^“]*“|\"[^\"]*\"|'[^']*'|«[^»]*»")
"""Words in quotes are what to type (action words), not prose."""

def problems(text: str) -> list[str]:
    """What is wrong with one German text (empty when nothing is)."""
    found = []
    prose = QUOTED.sub(" ", text)
    words = re.findall(r"[A-Za-zÄÖÜäöüß]+", prose)
    english = sorted({w for w in words if w.lower() in ENGLISH and w not in ("Die",)})
    if english:
        found.append(f"English {english}")
    for noun in PLURAL_NOUNS:
        if re.search(rf"(?<![\d.,]){1}\s+{noun}\b", prose) or re.search(
                rf"\bein(e|en)?\s+{noun}\b", prose):
            found.append(f"singular with plural {noun!r}")
    if ARTICLE_NAMES.search(prose):
        found.append("an article before a name that has its own")
    lowered = [w.lower() for w in words]
    for a, b in itertools.pairwise(lowered):
        if a == b and len(a) > 3:
            found.append(f"{a!r} said twice")
    for first, second in zip(prose.split(":"), prose.split(":")[1:], strict=False):
        head = re.findall(r"[A-Za-zÄÖÜäöüß]+$", first.strip())
        if head and second.split()[:1] == head:
            found.append(f"{head[0]!r} said twice across a colon")
    if re.search(r"\{\w*\}", text):
        found.append("a template left unfilled")
    return found

"""Finding English left in a text meant to be Spanish: what the tests of every layer ask.

``english_words(text, names)`` lists the English rule words in ``text`` once the ``names`` (a
character's, a weapon's: proper names stay as they are) are taken out. The words are ones a
Spanish text of these games never holds: function words of English ("the", "with") and the
rules' own terms ("hit", "damage", "wounds", "parry").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH_WORDS = frozenset(
    """
    the of and with without from into onto than then when which who whose while
    is are was were be been has have had does did not cannot can't may must will
    hit hits miss misses missed damage damages wound wounds wounded wounding roll rolls rolled
    rolling success succeeds failure fails failed degree degrees head body arm arms leg legs
    right left armour armor toughness soak soaked parry parries parried dodge dodges dodged
    jam jams jammed pinned pinning shot shots shoot shoots shooting range ranged target targets
    attack attacks attacker modifier modifiers against needs needed none test tests
    reaction reactions charge charging run running aim aiming stunned prone surprised
    weapon weapons melee thrown single burst full semi suppressing fire fury
    critical criticals location locations magnitude horde hordes save saves saved
    injury injuries flesh down out action actions turn turns round rounds left over
    unit units model models character characters lone wizard template cover hidden
    spotted recovery movement phase wound's can't don't isn't
    """.split()
)
"""English words that never belong in a Spanish rendering of gmkit's texts."""

_WORD = re.compile(r"[A-Za-z']+")


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English rule words of ``text`` (in order, once each) after removing ``names``."""
    for name in sorted(set(names), key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    found: dict[str, None] = {}
    for word in _WORD.findall(text):
        if word.lower() in ENGLISH_WORDS:
            found.setdefault(word.lower(), None)
    return list(found)


__all__ = ["ENGLISH_WORDS", "english_words"]
